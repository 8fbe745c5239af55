"""Resume a game from its journal after a crash, and run scripts that journal every input.

Resuming is replaying: the journal's inputs go through a fresh core silently (the players heard
their effects before the crash), then the session says where the game stands ("Partie
fortgesetzt. Weiß ist am Zug. Weiß vier Minuten, Schwarz …", plus any open question or draw
offer). Game time goes on from the last journaled input: the time between that input and the
crash, and the time the program was down, is charged to nobody (an arbiter who wants it charged
sets the clock). New inputs are appended to the same journal. A talking clock's journal line
that the clock now keeps out of its journals (an arbiter's correction it refuses, written by an
older version, where it stopped every resume) is passed over with a sentence naming it.

``--resume`` without a file continues the most recently written journal whose game is not over
(:func:`latest_unfinished`): a finished game is opened only when its file is named. A journal
found finished is remembered in its folder (:data:`FINISHED`) by its size, times and file
number, so that the next search does not replay it again: with hundreds of finished games that
took seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from voice.config import Settings
from voice.game.clock_mode import revision_of
from voice.game.session_base import settings_snapshot
from voice.game.simulate import Core, Finishing, Screening, make_core, run_script
from voice.rules.events import (
    InputEvent,
    OutputEvent,
    ResumeSaid,
    ScriptError,
    Setup,
    Tick,
    output_to_json,
)
from voice.rules.timecontrol import TimeControlError, parse_time_control
from voice.runtime.journal import (
    Journal,
    JournalContents,
    JournalKind,
    read_journal,
    saved_journals,
)


@dataclass
class Resumed:
    """A core brought back to the state of its journal, and the journal open for appending."""

    core: Core
    journal: Journal
    contents: JournalContents
    announcement: list[OutputEvent]


def resume(path: Path, settings: Settings) -> Resumed:
    """Replay the journal at ``path`` silently and reopen it (a torn last line is dropped)."""
    journal, contents = Journal.reopen(path)
    try:
        core = make_core(contents.setup, settings)
        passed_over = replay(core, contents)
    except BaseException:
        journal.close()  # and its lock: the journal can be looked at, or resumed once fixed
        raise
    announce = getattr(core, "resume_announcement", None)
    announcement: list[OutputEvent] = list(announce()) if callable(announce) else []
    return Resumed(core, journal, contents, passed_over + announcement)


def replay(core: Core, contents: JournalContents) -> list[OutputEvent]:
    """Feed the journal's inputs to ``core``, silently; what to say about the lines passed
    over. A core that screens its inputs (:class:`~voice.game.simulate.Screening`) keeps
    out of its journal what it refuses, and stops a run before a line it cannot take at all is
    written; a journal written before it did may hold such a line, which would stop every
    resume. Such a line is passed over (its time passes, as it did when it came) and named."""
    said: list[OutputEvent] = []
    for line, event in zip(contents.lines, contents.events, strict=True):
        if isinstance(core, Screening) and _kept_out(core, event):
            said += core.passed_over(line, event)
            core.handle(Tick(event.t_ms))
            continue
        core.handle(event)
    return said


def _kept_out(core: Screening, event: InputEvent) -> bool:
    try:
        return core.screen(event) is not None
    except ScriptError:
        return True


def is_over(core: Core) -> bool:
    """Whether the game has a result, or the talking clock was ended (Q twice): there is
    nothing to continue, only something to look at."""
    from voice.game.clock_mode import ClockSession

    if isinstance(core, ClockSession):
        return core.finished
    return getattr(core, "result", None) is not None


FINISHED = ".finished-journals.json"
"""In a folder of journals: the file name of each journal found finished, with its size, time,
change time and file number then (``{"game-….jsonl": [bytes, mtime_ns, ctime_ns, inode]}``). A
journal still so is over without a replay; one written since (an arbiter may reopen a game) is
replayed again, and so is a file put in its place, even of the same size and time (a copy or a
backup restored with its time kept: its change time and number are new)."""


def latest_unfinished(
    directory: Path, settings: Settings, kind: JournalKind = "game"
) -> Path | None:
    """The most recently written journal of ``kind`` in ``directory`` whose game is not over:
    what ``--resume`` alone continues. Each journal, newest first, is replayed to see whether
    its game ended, unless it is known finished (:data:`FINISHED`); one that cannot be read or
    replayed is taken as it stands, so that resuming it says what is wrong with it rather than
    silently continuing an older game."""
    finished = _finished_in(directory)
    found = None
    for path in saved_journals(directory, kind):
        stamp = _stamp(path)
        if stamp is not None and finished.get(path.name) == stamp:
            continue
        try:
            contents = read_journal(path)
            core = make_core(contents.setup, settings)
            for event in contents.events:
                core.handle(event)
        except Exception:  # unreadable, or a replay that fails: resume() names the fault
            found = path
            break
        if not is_over(core):
            found = path
            break
        if stamp is not None:
            finished[path.name] = stamp
    _remember_finished(directory, finished)
    return found


def _stamp(path: Path) -> list[int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]


def _finished_in(directory: Path) -> dict[str, list[int]]:
    """What :data:`FINISHED` holds; nothing when it is missing or unreadable."""
    try:
        known = json.loads((directory / FINISHED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(known, dict):
        return {}
    return {
        name: stamp
        for name, stamp in known.items()
        if isinstance(stamp, list) and len(stamp) == 4 and all(type(n) is int for n in stamp)
    }


def _remember_finished(directory: Path, finished: dict[str, list[int]]) -> None:
    """Write :data:`FINISHED` (without the journals that are gone) when it changed; a folder
    that cannot be written to only costs the replays next time."""
    kept = {name: stamp for name, stamp in finished.items() if (directory / name).is_file()}
    if kept == _finished_in(directory):
        return
    path = directory / FINISHED
    partial = path.with_name(f"{FINISHED}.{os.getpid()}")
    try:
        partial.write_text(json.dumps(kept, sort_keys=True), encoding="utf-8")
        os.replace(partial, path)  # whole or not at all, for a search running at once
    except OSError:  # a full disk, a file in the way: no half-written file is left behind
        with contextlib.suppress(OSError):
            partial.unlink()


def run_journaled(
    lines: Iterable[str] | None,
    settings: Settings,
    *,
    journal_path: Path | None = None,
    resume_path: Path | None = None,
    warn: Callable[[str], None] = lambda text: None,
) -> Iterator[dict[str, Any]]:
    """``voice-chess simulate`` with a journal: a new one (``journal_path``) or a resumed one.

    With ``resume_path``, ``lines`` holds only further inputs (or is ``None``: then the resumed
    state is announced and the PGN printed).
    """
    if resume_path is not None:
        resumed = resume(resume_path, settings)
        for warning in resumed.contents.warnings:
            warn(warning)
        try:
            yield from (output_to_json(event) for event in resumed.announcement)
            if lines is None:
                if isinstance(resumed.core, Finishing):
                    yield from resumed.core.finish()
                return
            yield from _resume_said(resumed)
            yield from run_script(
                lines,
                settings,
                record=resumed.journal.append,
                core=resumed.core,
                start_ms=resumed.contents.last_ms,
            )
        finally:
            resumed.journal.close()
        return
    assert lines is not None
    opened: list[Journal] = []

    def create(setup: Setup) -> None:
        if journal_path is not None:
            # The edition, the time control and what decides an input's effect are written
            # down, so a resume under other settings replays the same game.
            pinned = replace(setup, laws=setup.laws or settings.rules.edition)
            if setup.mode == "game":
                pinned = _pinned_game(pinned, settings)
            else:  # the clock's rules as the script ran (its own revision, or today's)
                revision = revision_of(setup.extra)
                pinned = replace(pinned, extra={**setup.extra, "revision": revision})
            opened.append(Journal.create(journal_path, pinned))

    def record(event: InputEvent) -> None:
        if opened:
            opened[0].append(event)

    try:
        yield from run_script(lines, settings, on_setup=create, record=record)
    finally:
        for journal in opened:
            journal.close()


def _resume_said(resumed: Resumed) -> Iterator[dict[str, Any]]:
    """As the live app does once the resume has been said (:class:`ResumeSaid`, journaled at
    the game time it goes on from): a correction window open at the stop runs again in full.
    Without it a simulated resume closed the window at its old end, and "Korrektur" that the
    live game took came too late (a review)."""
    from voice.game.session import GameSession

    core = resumed.core
    if isinstance(core, GameSession) and core.window_resumed is not None:
        said = ResumeSaid(resumed.contents.last_ms)
        resumed.journal.append(said)
        yield from (output_to_json(event) for event in core.handle(said))


def _pinned_game(setup: Setup, settings: Settings) -> Setup:
    """A game script's set-up as its journal keeps it: the settings' snapshot under the
    script's own ``settings`` keys (which win, section by section), and the time control as
    what it stands for (a preset or the settings' default could change before a resume)."""
    given = setup.extra.get("settings")
    own: dict[str, Any] = given if isinstance(given, dict) else {}
    kept: dict[str, Any] = {}
    for section, values in settings_snapshot(settings).items():
        theirs = own.get(section)
        kept[section] = {**values, **theirs} if isinstance(theirs, dict) else values
    control = setup.time_control or settings.clock.time_control
    with contextlib.suppress(TimeControlError):  # refused where the game is made
        control = parse_time_control(control, settings.clock.presets).text
    return replace(setup, time_control=control, extra={**setup.extra, "settings": kept})
