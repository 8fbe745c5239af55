"""End of speech to the spoken answer, measured through the whole program on virtual devices.

``python -m benchmarks asr`` times the recogniser alone. What a player waits for is more: the
pause the end-pointer needs to decide the words are over, the decode, the session's decision,
rendering the answer and the loudspeaker's buffer. This benchmark runs ``voice-chess play``
against the computer (Stockfish, level 1) on a private PulseAudio daemon
(:mod:`benchmarks.virtual_audio`), says moves into its microphone with the ASR benchmark's report
voices (:data:`benchmarks.asr.REPORT_VOICES`), in a quiet room, with pink noise and with babble
(three other voices) at 10 dB that begin before the words and go on through the pause, as a
room's would, and records the loudspeaker. Per move:
the time from the last loud sample of the words to the first sound of the answer, what the
answer was (the move played, a question, a refusal) and, at the end, the peak resident memory
of the listening process (``VmHWM``). Issue 18's target: p95 at most 400 ms on a 2-core machine.
"""

from __future__ import annotations

import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Literal

import chess
import numpy as np

from benchmarks import asr, rooms
from benchmarks.starts import begins_marker
from benchmarks.virtual_audio import PulseAudio, Recording
from voice.config import Settings, override
from voice.game.session import GameSession
from voice.runtime.journal import read_journal
from voice.speech.wavio import RATE, load_for_recognition
from voice.words.messages import catalogue
from voice.words.phrases import speakable, spoken_forms
from voice.words.vocabulary import Vocabulary

Answer = Literal["played", "other move", "asked", "offered", "refused", "silent"]

CONDITIONS: dict[str, tuple[str, float] | None] = {
    "clean": None,
    "pink10": ("pink", 10.0),
    "babble10": ("babble", 10.0),
}
"""Condition → the kind of noise and its signal-to-noise ratio over the words and the pause
after them (None: a quiet room). Babble is three other voices talking on (the ASR benchmark's
sentences, :func:`benchmarks.asr.babble_bank`)."""


LINE_DEADLINE_S = 20.0
QUIET_S = 1.0
"""The program is taken to have finished speaking after this long without sound."""

THRESHOLD = 300
"""int16 level above which a 10 ms frame of a recording is sound."""


@dataclass(frozen=True)
class Trial:
    condition: str
    said: str
    printed: str
    answer: Answer
    latency_ms: float | None
    """End of the words → first sound of the answer on the loudspeaker; None without sound."""


@dataclass(frozen=True)
class LatencyReport:
    trials: tuple[Trial, ...]
    peak_rss_mb: float


def play_command(journal: Path, settings: Settings) -> list[str]:
    """The game measured: against the engine, with the benchmark's own ``settings`` (so that
    both agree on the language, the words and the engine) written beside ``journal``, as
    shipped where the voice is concerned: no voice the user enrolled or the program learnt, and
    no learning from the benchmark's synthetic voices (that would start learning mid-run, which
    competes for the cores, and save a voice learnt from espeak-ng as the user's)."""
    import tomli_w

    shipped = override(settings, speech={"adaptation": "off", "learn_from_games": False})
    config = journal.with_name("settings.toml")
    config.write_text(tomli_w.dumps(shipped.model_dump(mode="json", exclude_none=True)))
    command = [sys.executable, "-m", "voice", "--config", str(config), "play"]
    command += ["--opponent", "engine", "--level", "1"]
    return [*command, "--no-web", "--control", "5400+30", "--journal", str(journal)]


class _Program:
    """``voice-chess play`` as a child process, its printed lines read as they come."""

    def __init__(self, journal: Path, settings: Settings) -> None:
        self.process = subprocess.Popen(
            play_command(journal, settings),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def line(self, deadline_s: float = LINE_DEADLINE_S) -> str:
        try:
            line = self.lines.get(timeout=deadline_s)
        except queue.Empty:
            return ""
        if line is None:
            raise RuntimeError("voice-chess play ended during the benchmark")
        return line

    def wait_for(self, text: str, deadline_s: float = 90.0) -> None:
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            if text in self.line(max(0.1, end - time.monotonic())):
                return
        raise RuntimeError(f"voice-chess play never printed {text!r}")

    def drain(self) -> list[str]:
        lines: list[str] = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return lines
            if line is not None:
                lines.append(line)

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        for row in status.splitlines():
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def wait_until_quiet(heard: Recording, quiet_s: float = QUIET_S, deadline_s: float = 60.0) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        spans = heard.active_spans(THRESHOLD)
        last = spans[-1][1] if spans else heard.started_at
        if time.monotonic() - last > quiet_s:
            return
        time.sleep(0.1)


def first_sound_after(heard: Recording, since: float, deadline_s: float = 5.0) -> float | None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        starts = [start for start, _ in heard.active_spans(THRESHOLD) if start > since]
        if starts:
            return min(starts)
        time.sleep(0.05)
    return None


def run(
    settings: Settings,
    vocab: Vocabulary,
    *,
    moves: int,
    conditions: Sequence[str] = tuple(CONDITIONS),
    seed: int = 2026,
    pulse: PulseAudio | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> LatencyReport:
    """Say ``moves`` moves in each condition (taking turns) to a running game; see the module.

    ``pulse``: a running daemon (the tests' fixture); otherwise a private one is started."""
    folder = Path(tempfile.mkdtemp(prefix="voice-chess-latency-"))
    own = pulse is None
    if pulse is None:
        pulse = PulseAudio(folder / "pulse")
        pulse.start()
    program: _Program | None = None
    try:
        rng = random.Random(seed)
        pink = asr.room_noise("pinknoise", 60.0, folder, seed)
        bank = asr.babble_bank(seed, vocab, asr.REPORT_VOICES, asr.REPORT_RATES, asr.REPORT_PITCHES)
        talkers: dict[str, np.ndarray] = {}
        if any((CONDITIONS[c] or ("",))[0] == "babble" for c in conditions):
            talkers = {t.ident: load_for_recognition(asr.synthesize(t, folder)) for t in bank}
        journal = folder / "game.jsonl"
        program = _Program(journal, settings)
        program.wait_for(begins_marker(settings.language.blind))
        trials: list[Trial] = []
        plan = [c for _ in range(moves) for c in conditions]
        with pulse.record("speaker.monitor") as heard:
            for index, condition in enumerate(plan):
                wait_until_quiet(heard)
                board = _white_to_move(journal, settings)
                wait_until_quiet(heard)  # the computer's reply, if it just came
                program.drain()
                if board is None:
                    break
                move = rng.choice(list(board.legal_moves))
                phrase = spoken_forms(board, move, vocab)[0]
                said = vocab.display(phrase)
                item = asr.Item(
                    ident=f"say{index:04d}",
                    fen=board.fen(),
                    move=move.uci(),
                    phrase=phrase,
                    text=speakable(said, "de"),
                    voice=rng.choice(asr.REPORT_VOICES),
                    rate=rng.randrange(*asr.REPORT_RATES),
                    pitch=rng.randrange(*asr.REPORT_PITCHES),
                    category="",
                )
                words = load_for_recognition(asr.synthesize(item, folder))
                room = CONDITIONS[condition]
                offset = rng.randrange(10**9)
                if room is None or room[0] == "pink":
                    noise = partial(asr.pink_stretch, pink, offset=offset)
                else:
                    voices = [talkers[t.ident] for t in asr.babble_plan(item, bank, rng)]
                    starts = [rng.randrange(RATE * 4) for _ in voices]
                    noise = partial(rooms.babble, voices, starts=starts)
                sound, lead = rooms.in_room(words, room[1] if room else None, noise)
                started, _ = pulse.play(sound, RATE)
                end = started + (lead + rooms.words_span(words)[1]) / RATE
                printed = program.line()
                answer_at = first_sound_after(heard, end)
                answer = answer_kind(printed, said, board, vocab)
                latency = None if answer_at is None else (answer_at - end) * 1000
                trials.append(Trial(condition, said, printed, answer, latency))
                progress(f"{condition:7s} {said!r} -> {printed!r} {_ms(latency)}")
                if answer == "asked":
                    wait_until_quiet(heard)
                    no = load_for_recognition(asr.synthesize(_no(item, vocab), folder))
                    pulse.play(rooms.in_room(no, None, noise)[0], RATE)
                    program.line(5.0)
            peak = program.peak_rss_mb()
        return LatencyReport(tuple(trials), peak)
    finally:
        if program is not None:
            program.stop()
        if own:
            pulse.stop()
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def _white_to_move(
    journal: Path, settings: Settings, deadline_s: float = 30.0
) -> chess.Board | None:
    """The position once it is the player's (White's) turn again, the computer's reply in;
    None when the game is over or the reply never came."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        contents = read_journal(journal)
        board = GameSession.replay(contents.setup, contents.events, settings).board
        if board.is_game_over():
            return None
        if board.turn == chess.WHITE:
            return board
        time.sleep(0.1)
    return None


def _no(item: asr.Item, vocab: Vocabulary) -> asr.Item:
    word = vocab.display(("nein",))
    return asr.Item(
        ident=item.ident + "-no",
        fen=item.fen,
        move=None,
        phrase=("nein",),
        text=speakable(word, "de"),
        voice="de",
        rate=150,
        pitch=50,
        category="",
    )


def answer_kind(printed: str, said: str, board: chess.Board, vocab: Vocabulary) -> Answer:
    """What the program's printed answer to ``said`` was (the move is printed in its canonical
    words when played, with a question mark when asked back)."""
    if not printed:
        return "silent"
    if printed.rstrip().endswith("?"):
        return "asked"
    if catalogue("de")["game.choose.question"].split("}", 1)[1].strip() in printed:
        return "offered"  # "Eins: … Zwei: … Welcher Zug? Bitte die Nummer."
    words = printed.strip(" .!").lower()
    if words == said.lower():
        return "played"
    for move in board.legal_moves:
        if words == vocab.display(spoken_forms(board, move, vocab)[0]).lower():
            return "other move"
    return "refused"


def _ms(value: float | None) -> str:
    return "no sound" if value is None else f"{value:.0f} ms"


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def by_answer(trials: Sequence[Trial]) -> list[str]:
    """The wait per kind of answer, all rooms together: a move played or asked back comes after
    the short pause when the recogniser hears a whole move there; "not understood" always
    after the full pause (``[audio] end_of_utterance``), in case more words follow."""
    lines = [f"{'answer':10s} {'n':>3s} {'p50 ms':>7s} {'p95 ms':>7s}"]
    for answer in ("played", "asked", "offered", "refused", "other move"):
        times = [t.latency_ms for t in trials if t.answer == answer and t.latency_ms is not None]
        if times:
            lines.append(
                f"{answer:10s} {len(times):3d} {statistics.median(times):7.0f} "
                f"{_percentile(times, 95):7.0f}"
            )
    return lines


def format_report(report: LatencyReport) -> str:
    lines = [
        "end of speech -> first sound of the answer, voice-chess play on virtual devices",
        "",
        f"{'condition':10s} {'n':>3s} {'played':>7s} {'asked':>6s} {'offered':>8s} {'refused':>8s} "
        f"{'other':>6s} {'silent':>7s} {'p50 ms':>7s} {'p95 ms':>7s} {'max ms':>7s}",
    ]
    names = list(dict.fromkeys(t.condition for t in report.trials))
    everything: list[float] = []
    for name in names:
        trials = [t for t in report.trials if t.condition == name]
        times = [t.latency_ms for t in trials if t.latency_ms is not None]
        everything += times
        count = {a: sum(1 for t in trials if t.answer == a) for a in ("played", "asked", "offered")}
        refused = sum(1 for t in trials if t.answer == "refused")
        other = sum(1 for t in trials if t.answer == "other move")
        silent = sum(1 for t in trials if t.answer == "silent")
        figures = (
            f"{statistics.median(times):7.0f} {_percentile(times, 95):7.0f} {max(times):7.0f}"
            if times
            else f"{'-':>7s} {'-':>7s} {'-':>7s}"
        )
        lines.append(
            f"{name:10s} {len(trials):3d} {count['played']:7d} {count['asked']:6d} "
            f"{count['offered']:8d} {refused:8d} {other:6d} {silent:7d} {figures}"
        )
    lines += ["", *by_answer(report.trials), ""]
    if everything:
        p95 = _percentile(everything, 95)
        verdict = "met" if p95 <= 400 else "NOT met"
        lines.append(f"target: p95 <= 400 ms over all answers: {p95:.0f} ms, {verdict}")
    lines.append(f"peak resident memory of the listening process: {report.peak_rss_mb:.0f} MB")
    lines.append(
        "played: the move said, made; asked: asked back; offered: moves offered by number; "
        "refused: not understood or refused; "
        "other: another move made; silent: no answer within 20 s (the words never started an "
        "utterance, or it was dropped)"
    )
    return "\n".join(lines)
