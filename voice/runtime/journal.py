"""The game journal: every input on disk before anything is said or shown.

A journal is a script (:mod:`voice.rules.events`): the setup line, then one JSON line per input
event, so replaying a journal *is* resuming the game. Each line is written, flushed and ``fsync``-ed
before the session sees the event; a move the player heard announced is therefore always in the
journal, whenever the process dies (kill -9, power cut).

A crash can tear the last line (half written). Reading ignores a torn or unreadable last line
with a warning; an unreadable line anywhere else is an error, because something was lost that
an arbiter must look at. A journal reopened to continue it has the torn tail cut off before its
first new line, so that line starts on a line of its own. Reopening alone writes nothing: a
finished game opened to be looked at keeps its file as it was, and its time (``--resume`` alone
goes by the files' times, :func:`saved_journals`).

One program at a time writes a journal: it holds an exclusive lock on the file while the game
runs (``flock``, released by the system when the process dies, even by kill -9). A second
``--resume`` of a game still running is refused (:class:`JournalInUse`); without the lock both
programs played on, wrote their moves over each other's lines, and a crash brought back a move
the players never saw on their board.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal, get_args

import platformdirs

from voice.config import APP_NAME, Settings
from voice.rules.events import (
    InputEvent,
    ScriptError,
    Setup,
    input_to_json,
    loads,
    parse_input,
    parse_setup,
    setup_to_json,
)
from voice.words.messages import message


@dataclass(frozen=True)
class JournalContents:
    """What a journal holds: the setup, the inputs in order, and warnings about its tail."""

    setup: Setup
    events: tuple[InputEvent, ...]
    warnings: tuple[str, ...]
    good_bytes: int  # length of the readable part (the torn tail starts here)
    lines: tuple[int, ...] = ()  # the line number of each input in the file, counted from 1
    torn_line: int | None = None  # the number of a torn last line, dropped

    def torn_sentence(self, path: Path, language: str) -> str | None:
        """The dropped torn last line in the player's words, for the terminal (it was the
        English warning, a review); ``None`` when there was none."""
        if self.torn_line is None:
            return None
        return message(language, "app.torn_line", path=path, line=self.torn_line)

    @property
    def last_ms(self) -> int:
        """Game time of the last journaled input (0 when there is none)."""
        return self.events[-1].t_ms if self.events else 0


_BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark, which editors such as Windows Notepad put at a file's start."""


def _decode(raw: bytes) -> dict[str, Any]:
    obj = loads(raw.decode("utf-8"))
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    return obj


def parse_journal(data: bytes, name: str = "journal") -> JournalContents:
    """Read journal bytes; a torn or unreadable last line is dropped with a warning."""
    lines = data.split(b"\n")
    # ``lines[-1]`` is what follows the last newline: empty unless the last write was torn.
    offsets: list[tuple[int, bytes]] = []
    position = 0
    for line in lines:
        # A byte-order mark before the setup line is no part of it (the offsets stay the
        # file's: a torn tail is cut from there).
        start = position + len(_BOM) if position == 0 and line.startswith(_BOM) else position
        offsets.append((start, line[start - position :]))
        position += len(line) + 1
    # Blank lines and comments ("#", as in scripts) are skipped, never taken for a torn write.
    numbered = [
        (i + 1, start, line)
        for i, (start, line) in enumerate(offsets)
        if line.strip() and not line.lstrip().startswith(b"#")
    ]
    if not numbered:
        raise ScriptError(f"{name}: empty, no setup line")
    warnings: list[str] = []
    torn: int | None = None
    decoded: list[tuple[int, int, dict[str, Any]]] = []
    for index, (number, start, line) in enumerate(numbered):
        is_last = index == len(numbered) - 1
        try:
            # A last line that is valid JSON without its newline is kept: every byte of the
            # object reached the disk, only the newline did not.
            decoded.append((number, start, _decode(line)))
        except (ValueError, UnicodeDecodeError) as error:
            if is_last and number > 1:
                warnings.append(
                    f"{name}: line {number} is incomplete or corrupt (torn write?) and was "
                    f"ignored: {error}"
                )
                torn = number
                break
            raise ScriptError(f"{name}: line {number} is not valid JSON: {error}") from None
    number, _, first = decoded[0]
    setup = parse_setup(first)
    events: list[InputEvent] = []
    for number, _, obj in decoded[1:]:
        try:
            events.append(parse_input(obj))
        except ScriptError as error:
            raise ScriptError(f"{name}: line {number}: {error}") from None
    good = numbered[len(decoded)][1] if warnings else len(data)  # where a torn tail starts
    numbers = tuple(number for number, _, _ in decoded[1:])
    return JournalContents(setup, tuple(events), tuple(warnings), good, numbers, torn)


def read_journal(path: Path) -> JournalContents:
    """Read a journal file (see :func:`parse_journal`)."""
    return parse_journal(path.read_bytes(), str(path))


def _fsync_dir(path: Path) -> None:
    """Make the file's directory entry durable too (a new journal must survive a power cut)."""
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class JournalInUse(OSError):
    """Another program has this journal open: its game is running there."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EBUSY, "the game is running in another program", str(path))


def _lock(handle: IO[bytes], path: Path) -> None:
    """Hold ``path`` for this process alone (see the module docstring); no-op without flock."""
    if sys.platform == "win32":  # pragma: no cover - no flock there
        return
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise JournalInUse(path) from None
    except OSError as error:
        if error.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
            return  # a file system without locks (NFS without its lock daemon): play unlocked
        handle.close()
        raise


class Journal:
    """An open journal file that appends one durable line per input."""

    def __init__(self, path: Path, handle: IO[bytes]) -> None:
        self.path = path
        self._handle = handle
        # Where a reopened journal's readable part ends, when its tail must be mended before
        # the next line: (the length to cut it to, whether a newline is missing there).
        self._mend: tuple[int, bool] | None = None

    @classmethod
    def create(cls, path: Path, setup: Setup) -> Journal:
        """Start a new journal with its setup line; an existing file is never overwritten.

        A folder on the way that is a file raises ``NotADirectoryError`` (``mkdir`` says
        ``FileExistsError``, which would read as "this game exists already").
        """
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise NotADirectoryError(
                errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)
            ) from None
        if path.is_dir():  # open("xb") would say FileExistsError: "this game exists already"
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        handle = path.open("xb")
        _lock(handle, path)
        journal = cls(path, handle)
        journal._write(setup_to_json(setup))
        _fsync_dir(path)
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple[Journal, JournalContents]:
        """Open an existing journal to continue it; a torn last line is cut off before the
        first new line is written. Nothing is written until then: the file, and its time, stay
        as they were while the game is only looked at.

        Raises :class:`JournalInUse` when a running program holds it."""
        handle = path.open("r+b")
        _lock(handle, path)
        try:
            # Read through the locked handle: on NFS the lock is a POSIX lock, which closing
            # any other descriptor of the file would release.
            data = handle.read()
            contents = parse_journal(data, str(path))
            good = contents.good_bytes
            handle.seek(good)
        except BaseException:
            handle.close()
            raise
        journal = cls(path, handle)
        # A complete last object whose newline never reached disk gets one.
        newline = not data[:good].endswith(b"\n")
        if good < len(data) or newline:
            journal._mend = (good, newline)
        return journal, contents

    def append(self, event: InputEvent) -> None:
        """Write one input durably; returns only when it is on disk."""
        self._write(input_to_json(event))

    def extend(self, events: Iterable[InputEvent]) -> None:
        for event in events:
            self.append(event)

    def _write(self, obj: dict[str, Any]) -> None:
        line = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
        if self._mend is not None:  # the torn tail goes, durably with this line
            good, newline = self._mend
            self._handle.truncate(good)
            self._handle.seek(good)
            if newline:
                self._handle.write(b"\n")
            self._mend = None
        self._handle.write(line.encode("utf-8"))
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- where journals live ----------------------------------------------------------------------


def journal_dir(settings: Settings) -> Path:
    """``[session] journal_dir``, or the user data folder's ``games`` when it is empty."""
    configured = settings.session.journal_dir.strip()
    if configured:
        return Path(configured).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME)) / "games"


JournalKind = Literal["game", "clock"]
"""What a journal keeps, and the start of its file name: a game (``voice-chess play``,
``assist``) or the stand-alone talking clock (``voice-chess clock``)."""


def new_journal_path(directory: Path, started: datetime, kind: JournalKind = "game") -> Path:
    """A fresh file name from the start time: ``game-20260121-193000.jsonl`` (then ``-2``, …),
    ``clock-…`` for the talking clock."""
    stem = f"{kind}-{started:%Y%m%d-%H%M%S}"
    candidate = directory / f"{stem}.jsonl"
    number = 2
    while candidate.exists():
        candidate = directory / f"{stem}-{number}.jsonl"
        number += 1
    return candidate


def none_saved(path: Path) -> bool:
    """Whether ``path`` names no journal but the folder searched for the latest one, where
    there was none (``voice/cli/_resume.py``): "no game is saved there yet", not "this file
    does not exist"."""
    return path.name in {f"{kind}-*.jsonl" for kind in get_args(JournalKind)}


def saved_journals(directory: Path, kind: JournalKind = "game") -> list[Path]:
    """The journals of ``kind`` in ``directory``, the most recently written first (``--resume``
    alone continues the first whose game is not over: ``voice.runtime.resume``)."""
    journals = [path for path in directory.glob(f"{kind}-*.jsonl") if path.is_file()]
    return sorted(journals, key=lambda path: (path.stat().st_mtime_ns, path.name), reverse=True)


def latest_journal(directory: Path, kind: JournalKind = "game") -> Path | None:
    """The most recently written journal of ``kind`` in ``directory``, over or not."""
    journals = saved_journals(directory, kind)
    return journals[0] if journals else None


def only_finished(path: Path) -> bool:
    """Whether ``path``, where ``--resume`` alone found nothing to continue (:func:`none_saved`),
    names a folder that does hold journals of its kind: all of them over."""
    return none_saved(path) and any(each.is_file() for each in path.parent.glob(path.name))
