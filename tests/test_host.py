"""The real-time host: journal first, outputs in order, flag falls at their own instant."""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

from voice.config import Settings
from voice.game.clock_mode import ClockSession
from voice.rules.events import (
    Ask,
    ClockPress,
    Flag,
    InputEvent,
    OutputEvent,
    Say,
    Setup,
    Tick,
)
from voice.runtime.host import GameHost
from voice.runtime.journal import Journal, read_journal

T = TypeVar("T")

CLOCK_SETUP = Setup(mode="clock", time_control="1", profile="tournament")


def run(coro_factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return asyncio.run(asyncio.wait_for(coro_factory(), timeout=20))


def test_flag_falls_at_its_exact_instant_without_any_input(settings: Settings) -> None:
    """6.4: the flag is noticed when time runs out, not at the next key press."""
    flags: list[Flag] = []

    async def scenario() -> None:
        host = GameHost(ClockSession(CLOCK_SETUP, settings, start_ms=0))
        done = asyncio.Event()

        def collect(outputs: Sequence[OutputEvent]) -> None:
            flags.extend(o for o in outputs if isinstance(o, Flag))
            if flags:
                done.set()

        host.subscribe(collect)
        host.start()
        await done.wait()
        host.close()

    run(scenario)
    assert [(f.side, f.t_ms) for f in flags] == [("white", 1000)]


def test_every_input_is_journaled_before_its_outputs_are_delivered(
    settings: Settings, tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    seen_on_disk: list[int] = []

    async def scenario() -> None:
        setup = Setup(mode="clock", time_control="900+10")
        with Journal.create(path, setup) as journal:
            host = GameHost(ClockSession(setup, settings, start_ms=0), record=journal.append)

            def check(outputs: Sequence[OutputEvent]) -> None:
                # The journal file already holds the input that caused these outputs.
                seen_on_disk.append(len(read_journal(path).events))

            host.subscribe(check)
            host.start()
            await host.submit(lambda t: ClockPress(t, "white"))
            await host.submit(lambda t: Ask(t, "time"))
            host.close()

    run(scenario)
    assert seen_on_disk == [1, 2]
    events = read_journal(path).events
    assert isinstance(events[0], ClockPress)
    assert isinstance(events[1], Ask)
    assert events[0].t_ms <= events[1].t_ms


def test_inputs_from_other_threads_are_handled_on_the_loop(settings: Settings) -> None:
    said: list[Say] = []

    async def scenario() -> None:
        host = GameHost(ClockSession(Setup(mode="clock", time_control="900+10"), settings))
        host.subscribe(lambda outs: said.extend(o for o in outs if isinstance(o, Say)))
        host.start()
        loop = asyncio.get_running_loop()
        results: list[list[OutputEvent]] = []

        def from_microphone_thread() -> None:
            future = host.submit_threadsafe(lambda t: Ask(t, "time"), loop)
            results.append(future.result(timeout=5))

        thread = threading.Thread(target=from_microphone_thread)
        thread.start()
        while thread.is_alive():
            await asyncio.sleep(0.01)
        host.close()
        assert results and any(isinstance(o, Say) for o in results[0])

    run(scenario)
    assert said, "the time request was answered"


def test_a_resumed_host_goes_on_from_the_last_journaled_time(settings: Settings) -> None:
    """Time the program was down is not charged: the clock resumes at the journal's last event."""
    stamps: list[InputEvent] = []

    async def scenario() -> None:
        core = ClockSession(Setup(mode="clock", time_control="900+10"), settings, start_ms=0)
        host = GameHost(core, record=stamps.append, start_ms=42_000)
        host.start()
        await host.submit(lambda t: Ask(t, "time"))
        host.close()

    run(scenario)
    assert 42_000 <= stamps[0].t_ms < 47_000


def test_a_held_host_keeps_game_time_still_until_it_is_released(settings: Settings) -> None:
    """A tournament board waits for the arbiter's approval: no time passes, no flag falls, and
    the game begins at zero when the host is released."""
    flags: list[Flag] = []
    stamps: list[InputEvent] = []

    async def scenario() -> None:
        host = GameHost(
            ClockSession(CLOCK_SETUP, settings, start_ms=0), record=stamps.append, held=True
        )
        host.subscribe(lambda outputs: flags.extend(o for o in outputs if isinstance(o, Flag)))
        host.start()
        await asyncio.sleep(1.2)  # longer than the whole one-second control
        assert host.held and host.now_ms() == 0 and flags == []
        await host.submit(lambda t: Ask(t, "time"))  # journaled at zero
        host.release()
        host.start()
        while not flags:
            await asyncio.sleep(0.01)
        host.close()

    run(scenario)
    assert stamps[0].t_ms == 0
    assert [(f.side, f.t_ms) for f in flags] == [("white", 1000)]


def test_a_running_clocks_time_is_journaled_at_each_checkpoint(
    settings: Settings, tmp_path: Path
) -> None:
    """A crash while a player thinks gives back at most a checkpoint of their time: with no
    input, the host journals a tick every ``checkpoint_ms`` while the clock runs (the program
    uses CHECKPOINT_MS, 10 s; 50 ms here), and none before the clock starts."""
    path = tmp_path / "clock.jsonl"
    setup = Setup(mode="clock", time_control="900", extra={"start": "press"})

    async def scenario() -> None:
        with Journal.create(path, setup) as journal:
            clock = ClockSession(setup, settings, start_ms=None)
            host = GameHost(clock, record=journal.append, checkpoint_ms=50)
            host.start()
            await asyncio.sleep(0.2)  # not started: nothing to write down
            await host.submit(lambda t: ClockPress(t, "white"))
            while len(read_journal(path).events) < 4:
                await asyncio.sleep(0.05)
            host.close()

    run(scenario)
    events = read_journal(path).events
    assert isinstance(events[0], ClockPress)
    assert all(isinstance(event, Tick) for event in events[1:4])
    steps = [b.t_ms - a.t_ms for a, b in itertools.pairwise(events[:4])]
    assert all(step >= 50 for step in steps)  # one checkpoint after the input before it
