"""How long from the sighted player's click to the blind player hearing the move?

A real game, the real server on 127.0.0.1 and headless Chromium: for each of N moves the blind
side plays a random legal move (as recognised speech), then the bench clicks a random legal move
of the sighted side on the page, square by square, as a person would. The clock starts just
before the second click is sent to the browser, and again at the browser's own timestamp of
that click (``pointerup``), and stops when the announcement reaches the speech adapter, i.e.
when the host hands the ``Say`` for the blind player to its subscribers (the journal entry is
already on disk then). With ``audio``, a real :class:`~voice.speech.speak.Speaker` also says it, and
the time to the first sample leaving for the loudspeaker is measured as well.

Figures are printed, never asserted: this machine's load is not the players' machine's.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import chess

from benchmarks.chromium import start_chromium
from voice.config import Settings
from voice.rules.events import ArbiterAction, BlindSpeech, MoveMade, OutputEvent, Say, Setup
from voice.web.background import BackgroundGame
from voice.words.phrases import render_move

if TYPE_CHECKING:  # imported where used: only ``--audio`` loads speech
    from voice.speech.speak import Speaker

# Installed into the page by the bench (not part of the page): the browser's time of a click.
CLICK_PROBE = (
    "window.__clickAt = 0; document.addEventListener('pointerup', "
    "(e) => { window.__clickAt = performance.timeOrigin + e.timeStamp; }, true);"
)


@dataclass
class Figures:
    """Milliseconds per move, by where the clock was started and stopped."""

    driver_to_say: list[float] = field(default_factory=list)
    click_to_say: list[float] = field(default_factory=list)
    click_to_audio: list[float] = field(default_factory=list)


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def summary(name: str, values: Sequence[float]) -> str:
    if not values:
        return f"{name}: no measurements"
    return (
        f"{name}: n={len(values)} p50={statistics.median(values):.1f} ms "
        f"p95={percentile(values, 95):.1f} ms max={max(values):.1f} ms"
    )


class _Announcements:
    """The speech adapter's view: the wall-clock time each announcement to the blind arrives."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.at = 0.0
        self.text = ""

    def __call__(self, outputs: Sequence[OutputEvent]) -> None:
        now = time.time()
        sighted_moved = any(isinstance(o, MoveMade) for o in outputs)
        for output in outputs:
            if sighted_moved and isinstance(output, Say) and output.to in ("blind", "all"):
                self.at, self.text = now, output.text
                self.arrived.set()
                return


class WebBench(BackgroundGame):
    """The served game of one run, with the arbiter's help to start over when it ends."""

    def __init__(self, settings: Settings, workdir: Path, seed: int) -> None:
        setup = Setup(mode="game", blind="white", time_control="5400+30")
        super().__init__(settings, setup, workdir / "bench-journal.jsonl")
        self.random = random.Random(seed)
        self.heard = _Announcements()
        self.subscribe(self.heard)

    def board(self) -> chess.Board:
        return chess.Board(self.state()["fen"])

    def plies(self) -> int:
        return len(self.state()["moves"])

    def fresh_game_if_needed(self) -> None:
        """After a game end (or a long game), the arbiter takes everything back."""
        state = self.state()
        if state["result"] is None and len(state["moves"]) < 120:
            return
        self.submit(lambda t: ArbiterAction(t, "retract", {"ply": 0, "reason": "bench"}))
        self.submit(lambda t: ArbiterAction(t, "resume", {"reason": "bench"}))

    def blind_moves(self) -> None:
        board = self.board()
        move = self.random.choice(list(board.legal_moves))
        words = render_move(board, move, self.session.vocab)
        self.submit(lambda t: BlindSpeech(t, ((words, 1.0),)))


def run(settings: Settings, moves: int = 100, seed: int = 1, audio: bool = False) -> Figures:
    """Measure ``moves`` sighted moves; returns the figures (milliseconds)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="voice-bench-web-") as tmp:
        speaker = _speaker(settings, figures) if audio else None  # fails before anything runs
        bench = WebBench(settings, Path(tmp), seed)
        if speaker is not None:
            bench.subscribe(speaker.say)
        bench.start()
        driver = start_chromium(Path(tmp) / "profile")
        try:
            driver.get(bench.url("opponent"))
            driver.execute_script(CLICK_PROBE)

            def ply_shown(ply: int) -> None:
                WebDriverWait(driver, 10, poll_frequency=0.005).until(
                    lambda d: (
                        d.find_element(By.TAG_NAME, "body").get_attribute("data-ply") == str(ply)
                    )
                )

            for _ in range(moves):
                bench.fresh_game_if_needed()
                bench.blind_moves()
                board = bench.board()
                if board.is_game_over():
                    continue
                ply_shown(bench.plies())
                choices = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
                move = bench.random.choice(choices)
                origin, target = (chess.square_name(s) for s in (move.from_square, move.to_square))
                driver.find_element(By.CSS_SELECTOR, f'[data-square="{origin}"]').click()
                target_button = driver.find_element(By.CSS_SELECTOR, f'[data-square="{target}"]')
                bench.heard.arrived.clear()
                started = time.time()
                target_button.click()
                if move.promotion:
                    driver.find_element(By.CSS_SELECTOR, '#promotion [data-piece="q"]').click()
                if not bench.heard.arrived.wait(10):
                    raise RuntimeError(f"no announcement for {move.uci()}")
                clicked = float(driver.execute_script("return window.__clickAt;"))
                figures.driver_to_say.append((bench.heard.at - started) * 1000)
                figures.click_to_say.append((bench.heard.at - clicked / 1000) * 1000)
                if speaker is not None:
                    speaker.wait(clicked / 1000, bench.heard.text)
                ply_shown(bench.plies())
        finally:
            driver.quit()
            if speaker is not None:
                speaker.close()
            bench.stop()
    return figures


class _AudioProbe:
    """A real Speaker subscribed to the host, as the program's speech adapter is."""

    def __init__(self, speaker: Speaker, figures: Figures) -> None:
        self.speaker = speaker
        self.events = speaker.subscribe()
        self.figures = figures
        self.offset = time.time() - time.monotonic()  # SpeechEvent.at is monotonic

    def say(self, outputs: Sequence[OutputEvent]) -> None:
        for output in outputs:
            if isinstance(output, Say) and output.to in ("blind", "all"):
                self.speaker.say(output.text)

    def wait(self, clicked: float, text: str) -> None:
        """Until the announcement ``text`` starts to sound (earlier ones are skipped)."""
        while True:
            event = self.events.get(timeout=10)
            if event.kind == "start" and event.text == text.strip():
                self.figures.click_to_audio.append((event.at + self.offset - clicked) * 1000)
                return

    def close(self) -> None:
        self.speaker.close()


def _speaker(settings: Settings, figures: Figures) -> _AudioProbe:
    from voice.speech.speak import Speaker

    return _AudioProbe(Speaker(settings), figures)
