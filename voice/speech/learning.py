"""Learning the player's voice from their games: the moves they said that were played.

Enrolment (``voice-chess enrol``) teaches the embedded recogniser a voice from twenty moves said
on request. A game holds many more, said as the player really speaks, in the room and with the
microphone of play. After each move the blind player made by voice, its recording and the words
the recogniser heard for that move are kept in the data folder (``voice/recordings``, the latest
:data:`MAX_KEPT`; enrolment keeps its recordings there too). When a game ends with at least
:data:`MIN_NEW` new ones, the voice is learnt again from all of them by ``voice-chess enrol
--from`` in a process of its own, so the program closes at once; the next game uses it.

Only moves that were played are kept, with the words the player was understood to say: asked
back and confirmed, chosen by number, or accepted. A move that was misheard and not noticed is
the rare bad label; learning leaves out recordings whose sound does not match their words
(:data:`voice.speech.recognizers.adaptation.MISMATCH`).
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import chess
import numpy as np

from voice.rules.events import MoveMade, OutputEvent, Side
from voice.speech.recognizers.adaptation import default_path, write_atomically
from voice.speech.wavio import RATE, write_wav
from voice.words.phrases import phrase_table
from voice.words.vocabulary import Phrase, Vocabulary

log = logging.getLogger(__name__)

MAX_KEPT = 120
"""Recordings kept (the latest): enough for a good estimate, a few minutes of learning."""

MIN_NEW = 10
"""New recordings a game must bring before the voice is learnt again."""

MIN_TO_LEARN = 20
"""Recordings needed in all before learning after a game (as many as enrolment asks for)."""

MIN_TO_LEARN_IN_GAME = 10
"""Recordings needed in all before a first game learns the voice while it is played: ten moves
already bring nearly all the gain (``asr --learn 10`` benchmark on the training voices, PocketSphinx
alone: clean 75.7 % → 95.0 % right, with 30 moves 96.3 %; as Whisper's second opinion, report
voices after 20 moves: clean 62 → 76 % right, docs/speech.md §2), and the sooner the rest of the
game is heard with it the better. The end of the game learns again from all of them."""

Heard = tuple[tuple[str, float], ...]


def recordings_folder() -> Path:
    """``<user data>/voice-chess/voice/recordings``: next to the learnt voice."""
    return default_path().parent / "recordings"


class RecordingStore:
    """Recordings of moves with their words, listed in ``index.jsonl`` in the JSON-lines form
    ``voice-chess enrol --from`` reads (``{"wav", "text"}``, paths relative to the list)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or recordings_folder()
        self.index = self.folder / "index.jsonl"
        self._lock = threading.Lock()

    def entries(self) -> list[dict[str, str]]:
        """The listed recordings, oldest first (an unreadable line is skipped)."""
        try:
            lines = self.index.read_bytes().splitlines()
        except FileNotFoundError:
            return []
        entries = []
        for line in lines:
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):  # not JSON, not UTF-8 (a damaged disk), or
                # nested too deeply: skipped like the rest
                continue
            if isinstance(entry, dict) and "wav" in entry and "text" in entry:
                entries.append(entry)
        return entries

    def add(self, audio: np.ndarray, phrase: Phrase, source: str) -> Path:
        """Keep one recording of ``phrase`` (16 kHz int16); the oldest beyond
        :data:`MAX_KEPT` are deleted."""
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = self.folder / f"{source}-{stamp}-{time.monotonic_ns() % 10**9:09d}.wav"
            write_wav(path, np.asarray(audio, dtype=np.int16), RATE)
            entries = [*self.entries(), {"wav": path.name, "text": " ".join(phrase)}]
            keep = max(MAX_KEPT, 1)
            for old in entries[:-keep]:
                (self.folder / old["wav"]).unlink(missing_ok=True)
            self._write(entries[-keep:])
            return path

    def remove(self, path: Path) -> None:
        """Delete one kept recording and its line (nothing if it is gone already)."""
        with self._lock:
            entries = [entry for entry in self.entries() if entry["wav"] != path.name]
            self._write(entries)
            path.unlink(missing_ok=True)

    def _write(self, entries: Sequence[dict[str, str]]) -> None:
        lines = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
        write_atomically(self.index, lines)

    def forget(self) -> bool:
        """Delete every recording and the list; True if there was anything."""
        if not self.folder.is_dir():
            return False
        for file in self.folder.iterdir():
            file.unlink(missing_ok=True)
        self.folder.rmdir()
        return True


class GameLearner:
    """Watches a game's outputs and keeps the recording of each move the blind player said.

    ``recent()`` gives the latest utterances heard, newest last, each as (n-best, audio): the
    move's own utterance may lie before a "ja" or a choice by number.

    With ``on_learnt`` (a player whose voice is not learnt yet) the voice is also learnt *during*
    the game, once, as soon as there is enough to learn from; ``on_learnt`` then gets the
    learnt voice's file, so that the rest of the first game is heard with it instead of only
    the next one (measured: shipped 82.5 % of clean moves right, after learning 95.5 %)."""

    def __init__(
        self,
        store: RecordingStore,
        vocab: Vocabulary,
        recent: Callable[[], Sequence[tuple[Heard, np.ndarray]]],
        on_learnt: Callable[[Path], None] | None = None,
    ) -> None:
        self.store = store
        self.vocab = vocab
        self.recent = recent
        self.on_learnt = on_learnt
        self.learning: subprocess.Popen[bytes] | None = None
        """The learning process started during this game, while it runs."""
        self._kept: list[tuple[int, Path]] = []  # (half-move number, recording) of this game
        self._learnt_from = 0  # recordings of this game the last learning started with
        self._learnt_during_game = False

    @property
    def kept(self) -> int:
        """Recordings kept in this game (and not taken back)."""
        return len(self._kept)

    def on_outputs(self, outputs: Iterable[OutputEvent], board: chess.Board, blind: Side) -> None:
        """After the session answered an input: keep the recording of a move the blind player
        made by voice, and forget those of moves taken back. ``board`` is the game's board
        after these outputs."""
        self._forget_taken_back(len(board.move_stack))
        for out in outputs:
            if isinstance(out, MoveMade) and out.by == blind:
                before = _before(board, out.uci)
                if before is not None:
                    self._keep(before, chess.Move.from_uci(out.uci))
        if self.on_learnt is not None:
            self._learn_during_game()

    def _learn_during_game(self) -> None:
        """Start learning once there is enough; when it has ended well, hand over the voice."""
        if self.learning is None:
            if not self._learnt_during_game and self._enough_to_learn(MIN_TO_LEARN_IN_GAME):
                self._learnt_from = self.kept
                self._learnt_during_game = True
                self.learning = learn_in_background(self.store)
            return
        if self.learning.poll() is None:
            return
        code, self.learning = self.learning.returncode, None
        path = default_path()
        if code != 0 or not path.is_file():
            log.warning("learning the voice during the game failed (see learning.log)")
            return
        assert self.on_learnt is not None
        self.on_learnt(path)

    def _enough_to_learn(self, least: int | None = None) -> bool:
        """Enough new recordings since learning last started, and ``least`` in all (default
        :data:`MIN_TO_LEARN`)."""
        new = self.kept - self._learnt_from
        total = MIN_TO_LEARN if least is None else least
        return new >= MIN_NEW and len(self.store.entries()) >= total

    def _forget_taken_back(self, plies: int) -> None:
        """An arbiter took moves back (D.2.9): the board and the game disagreed, and a misheard
        move is one way that happens, so their recordings are no longer trusted as labels."""
        while self._kept and self._kept[-1][0] > plies:
            _, path = self._kept.pop()
            self.store.remove(path)

    def _keep(self, board: chess.Board, move: chess.Move) -> None:
        table = phrase_table(board, self.vocab)
        for heard, audio in reversed(self.recent()):
            for text, _ in heard:
                phrase = self.vocab.normalize(text)
                if table.move_named(phrase) == move:
                    path = self.store.add(audio, phrase, "game")
                    self._kept.append((len(board.move_stack) + 1, path))
                    return

    def finish(self) -> subprocess.Popen[bytes] | None:
        """At the end of the game: learn the voice again in the background if this game brought
        enough new recordings since learning last started; the learning process, or None.

        A learning started during the game and still running is left to finish, unless there
        is enough new to learn from: then it is stopped (its file is written whole or not at
        all) so that it cannot overwrite the newer voice when it ends later."""
        if not self._enough_to_learn():
            return self.learning if self.learning and self.learning.poll() is None else None
        if self.learning is not None and self.learning.poll() is None:
            self.learning.terminate()
            try:
                self.learning.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.learning.kill()
                self.learning.wait()
        self.learning = None
        return learn_in_background(self.store)


def learn_in_background(store: RecordingStore) -> subprocess.Popen[bytes] | None:
    """``voice-chess enrol --from`` on the kept recordings, in a process of its own that
    outlives this one; what it says goes to ``learning.log`` beside the recordings."""
    try:
        with (store.folder / "learning.log").open("ab") as log_file:
            return subprocess.Popen(
                _learning_command(store.index),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # not stopped with the game's terminal
            )
    except OSError as error:
        log.warning("could not start learning the voice: %s", error)
        return None


LEARNING_NICENESS = 19
"""How much the learning process yields the processor (``nice``, the most it can): a game
started right after the last one, or the first game that learns while it goes on, listens and
decodes at full speed while the voice is learnt (about 40 s of work after a game, about 12 s
for the first ten moves). Measured with Whisper and its vote on two cores (40 decodes of
synthesized moves, alone and beside a learning of 20 recordings, session 15): at niceness 10
the decodes took p50 258 → 287 ms, p95 405 → 432 ms; at 19, p50 266 → 275 ms, p95 411 → 397
ms; either way the learning ended within the 40 decodes (about 12 s)."""


def _learning_command(index: Path) -> list[str]:
    """``voice-chess enrol --from`` on ``index``, at a lower priority where ``nice`` exists (a
    ``preexec_fn`` would do it without, but is not safe in a program with threads)."""
    command = [sys.executable, "-m", "voice", "enrol", "--from", str(index), "--no-speech"]
    nice = shutil.which("nice")
    return [nice, "-n", str(LEARNING_NICENESS), *command] if nice else command


def _before(board: chess.Board, uci: str) -> chess.Board | None:
    """The position before ``uci`` was played, among the last few moves of ``board``."""
    earlier = board.copy()
    for _ in range(3):
        if not earlier.move_stack:
            return None
        if earlier.pop().uci() == uci:
            return earlier
    return None
