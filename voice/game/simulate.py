"""Run a script of timestamped events through the pure core: ``voice-chess simulate SCRIPT``.

A script is JSON lines (the forms are in :mod:`voice.rules.events`): the setup first, then inputs
with non-decreasing times ``t`` in seconds. Blank lines and lines starting with ``#`` are skipped.
The output is JSON lines: what the core says, flags, moves, results, and the clock state after
every event. The same script gives the same output every time: no wall clock is involved.

Time between events: before an input at time ``t`` is handed over, the core gets a
:class:`~voice.rules.events.Tick` at each instant it asked for (:meth:`Core.next_wakeup_ms`) before
``t``, so a flag falls (and is printed) at its own instant even when the next line comes much
later. After the last line the clock keeps running, as a real one would: wake-ups are delivered
until none is pending or a flag has fallen. End a script with a ``pause`` line to stop time.

A bad line stops the run with a :class:`~voice.rules.events.ScriptError` naming the line number; the
output produced up to that line has already been yielded. A core that screens its inputs
(:class:`Screening`, the talking clock) refuses some with a sentence instead, changing nothing;
those are not journaled.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, runtime_checkable

from voice.config import Settings
from voice.rules.events import (
    Flag,
    InputEvent,
    OutputEvent,
    ScriptError,
    Setup,
    Tick,
    loads,
    output_to_json,
    parse_input,
    parse_setup,
)
from voice.rules.timecontrol import TimeControlError


class Core(Protocol):
    """What ``simulate``, the journal replay and the live adapters drive."""

    def handle(self, event: InputEvent) -> list[OutputEvent]: ...

    def next_wakeup_ms(self) -> int | None:
        """When time alone will cause output (a flag fall, the end of a window), or ``None``."""
        ...


@runtime_checkable
class Timed(Protocol):
    """A core whose clock may be running: the live host writes its time down while it runs
    (:data:`voice.runtime.host.CHECKPOINT_MS`), so that a crash gives little of it back."""

    def time_runs(self) -> bool: ...


@runtime_checkable
class Screening(Protocol):
    """A core that looks at each input before it is journaled (the talking clock): one it
    refuses changes nothing and is not written down, and one it cannot take at all stops the
    run before it is written, so that a resume never meets either."""

    def screen(self, event: InputEvent) -> str | None:
        """The sentence refusing ``event``, or ``None`` when it is taken; a
        :class:`~voice.rules.events.ScriptError` for an input the core cannot take at all."""
        ...

    def passed_over(self, line: int, event: InputEvent) -> list[OutputEvent]:
        """What to say about line ``line`` of a journal that a resume passes over: an input
        :meth:`screen` keeps out, written before the core screened its inputs."""
        ...


@runtime_checkable
class Finishing(Protocol):
    """A core with something to add at the end of a run (a game's PGN, for example)."""

    def finish(self) -> list[dict[str, Any]]: ...


def make_core(setup: Setup, settings: Settings) -> Core:
    """The core for a setup: the talking clock, or a game session."""
    if setup.mode == "clock":
        from voice.game.clock_mode import ClockSession, start_ms

        return ClockSession(setup, settings, start_ms=start_ms(setup))
    from voice.game.session import GameSession  # written by the game-session issue

    core: Core = GameSession(setup, settings)
    return core


def _decode(line: str, number: int) -> dict[str, Any] | None:
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    try:
        obj = loads(text)
    except json.JSONDecodeError as error:
        raise ScriptError(f"line {number}: not JSON: {error.msg}") from None
    except ScriptError as error:
        raise ScriptError(f"line {number}: {error}") from None
    if not isinstance(obj, dict):
        raise ScriptError(f"line {number}: expected a JSON object")
    return obj


def _until(core: Core, limit_ms: int | None) -> Iterator[OutputEvent]:
    """Ticks at the core's wake-ups before ``limit_ms`` (all of them when it is ``None``)."""
    while True:
        wake = core.next_wakeup_ms()
        if wake is None or (limit_ms is not None and wake >= limit_ms):
            return
        outputs = core.handle(Tick(wake))
        yield from outputs
        after = core.next_wakeup_ms()
        if after is not None and after <= wake:
            raise RuntimeError(f"the core asked to wake at {wake} ms again after a tick there")
        if limit_ms is None and any(isinstance(out, Flag) for out in outputs):
            return


def run_script(
    lines: Iterable[str],
    settings: Settings,
    *,
    on_setup: Callable[[Setup], None] | None = None,
    record: Callable[[InputEvent], None] | None = None,
    core: Core | None = None,
    start_ms: int = 0,
) -> Iterator[dict[str, Any]]:
    """Feed a script to a fresh core; yield the JSON-able output lines in order.

    Journaling (:mod:`voice.runtime.journal`): ``on_setup`` gets the setup line and ``record`` every
    input *before* the core sees it. A resumed game passes its ``core`` (then the script holds
    only further inputs, no setup line) and the time of its last journaled input as ``start_ms``.
    """
    last_t = start_ms
    continuing = core is not None
    for number, line in enumerate(lines, start=1):
        obj = _decode(line, number)
        if obj is None:
            continue
        try:
            if "setup" in obj and continuing:
                raise ScriptError("a resumed game takes no setup line, only further inputs")
            if core is None:
                setup = parse_setup(obj)
                core = make_core(setup, settings)
                if on_setup is not None:
                    on_setup(setup)
                continue
            event = parse_input(obj)
            if event.t_ms < last_t:
                raise ScriptError(f'"t" goes backwards ({event.t_ms / 1000} s after a later line)')
            last_t = event.t_ms
            ticks = list(_until(core, event.t_ms))
            refused = isinstance(core, Screening) and core.screen(event) is not None
            if record is not None and not refused:
                record(event)  # on disk before its effects are shown
            outputs = ticks + core.handle(event)
        except (ScriptError, TimeControlError) as error:
            raise ScriptError(f"line {number}: {error}") from None
        yield from (output_to_json(out) for out in outputs)
    if core is None:
        raise ScriptError('the script is empty: its first line must be {"setup": {...}}')
    yield from (output_to_json(out) for out in _until(core, None))
    if isinstance(core, Finishing):
        yield from core.finish()
