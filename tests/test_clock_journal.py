"""The talking clock's journal as ``voice-chess clock`` writes it (voice/cli/clock.py): every
input before the clock sees it, its time while it runs, and a disk that fills up in mid-game.

Driven with a scripted keyboard and a game time that the keyboard's waits advance, so nothing
here waits in real time. The pty tests (tests/test_clock_pty.py) run the real program.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from voice.cli.clock import _Announcer, _Keeper, _loop
from voice.config import Settings
from voice.game.clock_mode import ClockSession
from voice.rules.events import KeyPress, Say, Setup, Tick
from voice.runtime.journal import Journal, read_journal
from voice.runtime.resume import resume


class _Keys:
    """A keyboard that presses ``keys`` (game ms, key name) in order, advancing the game time
    by every wait; at the end the terminal closes (EOFError)."""

    def __init__(self, keys: list[tuple[int, str]]) -> None:
        self.keys = list(keys)
        self.ms = 0

    def now(self) -> int:
        return self.ms

    def read_key(self, timeout_s: float | None) -> str | None:
        if not self.keys:
            raise EOFError
        at, key = self.keys[0]
        if timeout_s is not None and self.ms + round(timeout_s * 1000) < at:
            self.ms += round(timeout_s * 1000)
            return None
        self.ms = max(self.ms, at)
        self.keys.pop(0)
        return key


def _clock(settings: Settings, path: Path) -> tuple[ClockSession, Journal]:
    setup = Setup(mode="clock", time_control="600", language="de", extra={"start": "press"})
    return ClockSession(setup, settings, start_ms=None), Journal.create(path, setup)


def test_the_running_clocks_time_is_written_every_ten_seconds(
    settings: Settings, tmp_path: Path
) -> None:
    """A crash or power cut while a player thinks gives back at most CHECKPOINT_MS of their
    time: the journal holds a tick that often while the clock runs, and none while it waits
    for its first press or stands paused."""
    path = tmp_path / "clock.jsonl"
    session, journal = _clock(settings, path)
    keys = _Keys([(30_000, "space"), (65_000, "p"), (120_000, "p"), (125_000, "t")])
    with journal:
        keeper = _Keeper(journal, "de")
        announcer = _Announcer(settings, False, "de")
        with pytest.raises(EOFError):
            _loop(session, keys, announcer, keys.now, None, keeper)  # type: ignore[arg-type]
    events = read_journal(path).events
    ticks = [event.t_ms for event in events if isinstance(event, Tick)]
    assert ticks == [40_000, 50_000, 60_000]  # running from 30 s, paused from 65 s to 120 s
    assert [event.key for event in events if isinstance(event, KeyPress)] == [
        "press", "pause", "pause", "time"
    ]  # fmt: skip
    replayed = resume(path, settings)
    try:
        assert isinstance(replayed.core, ClockSession)
        assert replayed.core.clock.remaining_ms("white", 125_000) == 600_000 - 35_000 - 5_000
    finally:
        replayed.journal.close()


def test_a_disk_that_fills_up_mid_game_stops_the_saving_not_the_clock() -> None:
    """The clock goes on and says once that it is no longer saved (it was a traceback)."""
    with Path("/dev/full").open("wb") as handle:  # every write: ENOSPC
        keeper = _Keeper(Journal(Path("/dev/full"), handle), "de")
        lost = keeper.write(KeyPress(5_000, "press"))
        assert [out.text for out in lost if isinstance(out, Say)] == [
            "Die Uhr wird nicht in /dev/full gespeichert: No space left on device."
        ]
        assert keeper.journal is None
        assert keeper.write(KeyPress(6_000, "press")) == []  # said once
