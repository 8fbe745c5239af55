"""Run the pure core in real time: one asyncio loop, one clock, the journal first.

The core (a game session or the talking clock) knows no wall clock. The host is where time
comes from: every input is stamped with the milliseconds since the game started, recorded in the
journal (flushed to disk) *before* the core sees it, and only then are the core's outputs
handed to the adapters (speech, web board, terminal). When the core says time alone will cause
something (a flag fall, the end of a correction window), the host wakes it at that instant.

Adapters on other threads (microphone, keyboard) submit through :meth:`GameHost.submit_threadsafe`.

A host may be created *held*: game time stands still until :meth:`GameHost.release`. A
tournament board serves its pages while the arbiter checks the set-up, and the clocks must not
run (nor show as running) before the approval.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable, Sequence

from voice.game.simulate import Core, Timed
from voice.rules.events import InputEvent, OutputEvent, Tick

log = logging.getLogger(__name__)

CHECKPOINT_MS = 10_000
"""While a clock runs and nothing happens, its time is journaled (a :class:`Tick`) this often: a
crash or power cut then gives back at most this much of the thinking player's time, where the
journal's last input could be many minutes old."""

EventFactory = Callable[[int], InputEvent]
"""Builds an input event for the time (ms since the start) the host assigns to it."""

Subscriber = Callable[[Sequence[OutputEvent]], None]


class GameHost:
    """Feeds timestamped inputs to a core and its outputs to subscribers, in order.

    ``start_ms`` is the game time at which the host starts; a resumed game passes the time of
    the last journaled event, so the clocks go on from there and the time the program was down
    is not charged to anybody. A ``held`` host keeps game time at ``start_ms`` until
    :meth:`release`. With ``checkpoint_ms`` (the program's :data:`CHECKPOINT_MS`), a running
    clock's time is journaled that often when no input came.
    """

    def __init__(
        self,
        core: Core,
        *,
        record: Callable[[InputEvent], None] | None = None,
        start_ms: int = 0,
        clock: Callable[[], float] = time.monotonic,
        held: bool = False,
        checkpoint_ms: int | None = None,
    ) -> None:
        self.core = core
        self._checkpoint_ms = checkpoint_ms
        self._record = record
        self._clock = clock
        self._origin = clock() - start_ms / 1000
        self._last_ms = start_ms
        self._held = held
        self._subscribers: list[Subscriber] = []
        self._wakeup: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    # -- time -----------------------------------------------------------------------------

    def now_ms(self) -> int:
        """Game time now; never earlier than an input already handled."""
        if self._held:
            return self._last_ms
        return max(self._last_ms, int((self._clock() - self._origin) * 1000))

    @property
    def held(self) -> bool:
        """Whether game time still stands still (the game has not begun)."""
        return self._held

    def release(self) -> None:
        """Let game time run from where it stands: the game begins now."""
        if self._held:
            self._held = False
            self._origin = self._clock() - self._last_ms / 1000

    # -- outputs --------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Receive every batch of outputs from now on; returns a function that unsubscribes."""
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def _deliver(self, outputs: Sequence[OutputEvent]) -> None:
        for subscriber in list(self._subscribers):
            try:
                subscriber(outputs)
            except Exception:  # an adapter's bug must not stop the game
                log.exception("output subscriber %r failed", subscriber)

    # -- inputs ---------------------------------------------------------------------------

    def handle_now(self, make: EventFactory, at_ms: int | None = None) -> list[OutputEvent]:
        """Stamp, journal and handle one input on the loop's thread; returns its outputs."""
        if self._closed:
            raise RuntimeError("the game host is closed")
        t_ms = self.now_ms() if at_ms is None else max(at_ms, self._last_ms)
        event = make(t_ms)
        if self._record is not None:
            self._record(event)  # on disk before anything is said or shown
        self._last_ms = t_ms
        outputs = self.core.handle(event)
        self._deliver(outputs)
        self._reschedule()
        return outputs

    async def submit(self, make: EventFactory, at_ms: int | None = None) -> list[OutputEvent]:
        """Handle one input now, or at game time ``at_ms`` (call from the loop)."""
        self._loop = asyncio.get_running_loop()
        return self.handle_now(make, at_ms)

    def submit_threadsafe(
        self, make: EventFactory, loop: asyncio.AbstractEventLoop | None = None
    ) -> concurrent.futures.Future[list[OutputEvent]]:
        """Handle one input from another thread (microphone, keyboard)."""
        target = loop or self._loop
        if target is None:
            raise RuntimeError("the game host has not been started on a loop")
        return asyncio.run_coroutine_threadsafe(self.submit(make), target)

    # -- wake-ups -------------------------------------------------------------------------

    def start(self) -> None:
        """Attach to the running loop and schedule the first wake-up (call from the loop)."""
        self._loop = asyncio.get_running_loop()
        self._reschedule()

    def _reschedule(self) -> None:
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
        if self._closed or self._loop is None or self._held:
            return
        due_ms = self.core.next_wakeup_ms()
        if self._checkpoint_ms and isinstance(self.core, Timed) and self.core.time_runs():
            checkpoint = self._last_ms + self._checkpoint_ms
            due_ms = checkpoint if due_ms is None else min(due_ms, checkpoint)
        if due_ms is None:
            return
        delay = max(0.0, (due_ms - self.now_ms()) / 1000)
        self._wakeup = self._loop.call_later(delay, self._wake, due_ms)

    def _wake(self, due_ms: int) -> None:
        self._wakeup = None
        # A timer may fire a little early: the event happened at its due instant, not before.
        self.handle_now(Tick, at_ms=max(due_ms, self.now_ms()))

    def close(self) -> None:
        self._closed = True
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
