"""Start-up reliability: start ``voice-chess play`` again and again, end it with Ctrl-C, count.

A program that dies at start-up one time in fifteen cannot be trusted at a tournament board. The
crash that was seen (espeak-ng's own synthesis thread, while the main thread imported the web and
numeric libraries) showed only over many starts, so this probe makes many: each start runs the
whole program as a player does (microphone, recogniser, speech, web board), waits for the
sentence that says the game begins, presses Ctrl-C and waits for the program to end. It counts
the starts that ended cleanly, that died by a signal, that never began and that did not end after
Ctrl-C, with the time to the game's start and from Ctrl-C to the end.
"""

from __future__ import annotations

import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from voice.words.messages import catalogue

Outcome = Literal["clean", "died", "no start", "no end", "failed"]
START_DEADLINE_S = 60.0
END_DEADLINE_S = 20.0


@dataclass(frozen=True)
class Start:
    """One start of the program and how it ended."""

    outcome: Outcome
    code: int | None  # exit status; negative: the signal that killed it
    started_s: float | None  # from the process start to "the game begins"
    ended_s: float | None  # from Ctrl-C to the end of the process
    tail: str  # the last lines it printed, kept when it did not end cleanly


@dataclass(frozen=True)
class StartsReport:
    starts: tuple[Start, ...]

    def count(self, outcome: Outcome) -> int:
        return sum(1 for s in self.starts if s.outcome == outcome)


def begins_marker(language: str) -> str:
    """The words the program prints when the game begins, before the side is named."""
    return catalogue(language)["app.game.begins"].split("{")[0].strip()


def start_once(command: Sequence[str], marker: str, folder: Path) -> Start:
    """Start ``command`` (a ``voice-chess play`` with its options), Ctrl-C it once it began."""
    began = time.monotonic()
    process = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
        cwd=folder,
    )
    lines: list[str] = []
    seen = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if marker in line:
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = began + START_DEADLINE_S
    while not seen.is_set() and process.poll() is None and time.monotonic() < deadline:
        seen.wait(0.05)
    started_s = time.monotonic() - began if seen.is_set() else None

    def tail() -> str:
        return "\n".join(lines[-15:])

    if process.poll() is not None:
        reader.join(5)
        return _failed(process.returncode, started_s, None, tail())
    if started_s is None:
        process.kill()
        process.wait()
        return Start("no start", None, None, None, tail())
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(timeout=END_DEADLINE_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return Start("no end", None, started_s, None, tail())
    ended_s = time.monotonic() - interrupted
    reader.join(5)
    if code == 0:
        return Start("clean", code, started_s, ended_s, "")
    return _failed(code, started_s, ended_s, tail())


def _failed(code: int, started_s: float | None, ended_s: float | None, tail: str) -> Start:
    """A start that ended by itself or badly: killed by a signal (negative status) or not."""
    return Start("died" if code < 0 else "failed", code, started_s, ended_s, tail)


def run(
    runs: int,
    *,
    language: str,
    extra: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
) -> StartsReport:
    """Start ``voice-chess play`` ``runs`` times, each with a fresh journal and a free port."""
    starts: list[Start] = []
    marker = begins_marker(language)
    with tempfile.TemporaryDirectory(prefix="voice-chess-starts-") as name:
        folder = Path(name)
        for number in range(1, runs + 1):
            journal = folder / f"start-{number}.jsonl"
            command = [
                sys.executable,
                "-m",
                "voice",
                "play",
                "--port",
                "0",
                "--journal",
                str(journal),
                *extra,
            ]
            start = start_once(command, marker, folder)
            starts.append(start)
            if progress is not None:
                progress(f"start {number}/{runs}: {start.outcome}")
    return StartsReport(tuple(starts))


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"


def format_report(report: StartsReport) -> str:
    runs = len(report.starts)
    started = [s.started_s for s in report.starts if s.started_s is not None]
    ended = [s.ended_s for s in report.starts if s.ended_s is not None]
    died = report.count("died")
    lines = [
        f"voice-chess play started {runs} times, each ended with Ctrl-C once the game began",
        f"  ended cleanly:          {report.count('clean')} of {runs}",
        f"  died by a signal:       {died} of {runs}   (aim: 0)",
        f"  failed (exit status):   {report.count('failed')}",
        f"  did not begin in {START_DEADLINE_S:.0f} s: {report.count('no start')}",
        f"  did not end in {END_DEADLINE_S:.0f} s:   {report.count('no end')}",
        f"  start to game begins:   {_ms(started)}",
        f"  Ctrl-C to the end:      {_ms(ended)}",
    ]
    for number, start in enumerate(report.starts, 1):
        if start.outcome != "clean":
            code = "" if start.code is None else f" (status {start.code})"
            lines.append(f"start {number}: {start.outcome}{code}; it printed last:")
            lines.extend("    " + line for line in start.tail.splitlines())
    return "\n".join(lines)
