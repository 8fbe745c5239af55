"""The chess clock of FIDE Article 6, with no wall clock inside.

Every method that depends on time takes the instant ``now_ms`` (integer milliseconds on any
monotonic scale), so a test, a replayed journal and the live program run the same code and every
rule can be checked to the millisecond. The adapter that owns real time asks
:meth:`Clock.next_event_ms` when the next flag can fall and calls :meth:`Clock.check_flags` then.

Rules implemented (numbers are FIDE Laws 2023 articles):

- two displays, only one runs (6.1); pressing completes the running side's move (6.2.1);
- increment added to the side that completed a move, for the period the move was made in (6.3.1);
- time-delay mode (6.3.2): the delay runs first; a press before it ends leaves the main time
  unchanged (unused delay is not banked); time saved in a delay period is not carried over;
- periods with a move count: on completing the period's last move the next period's time is added
  to what is left (time saved carries over, 6.3.2); the move counter counts completed moves;
- flag fall at its exact instant, with the period's move requirement checked from the counter
  (6.4); both flags recorded in the order they fell (Guideline III.3.1 needs the order);
- pause and resume (6.11), set times and the move counter (6.10.2, 7.1), penalties (7.5.5, 9.5,
  A.3), switching the running side without a move (7.1, D.2.9), and an increment introduced
  during a game without one (Guideline III.4), all at an instant.

A fallen flag stays down (the display shows zero, no increment or period time is added) until
the arbiter gives that side time again with :meth:`Clock.add_time`, :meth:`Clock.set_time` or a
penalty in its favour. Whether a flag fall loses or draws (6.9 needs the board) is decided by the
caller: the clock only reports :class:`FlagFall`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from voice.rules.explained import Explained
from voice.rules.timecontrol import TimeControl

Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")


def other(side: Side) -> Side:
    return "black" if side == "white" else "white"


class ClockError(Explained, RuntimeError):
    """An operation the clock cannot do now (not started, paused, time going backwards); an
    arbiter's correction it refuses names its ``reason`` (``game.why.{reason}``)."""


@dataclass(frozen=True)
class FlagFall:
    """A side's allotted time expired at ``t_ms`` in period ``period_index`` (0-based).

    ``moves_required_met`` is the 6.4 check: whether the move counter shows the moves the period
    prescribes as completed. Because the clock adds the next period's time when the control is
    reached, this is true only when the counter was corrected (:meth:`Clock.set_moves`) to show
    the control passed while the time was not: the flag then does not lose.
    """

    t_ms: int
    side: Side
    period_index: int
    moves_required_met: bool


@dataclass
class _SideState:
    balance_ms: int  # main time at the start of the current turn (or now, when not running)
    moves: int = 0  # completed moves
    period: int = 0  # index into the time control's periods
    down: bool = False  # flag fell and no time has been given since
    used_ms: int = 0  # thinking time of completed turns


class Clock:
    """Two displays and a move counter driven by instants passed in."""

    def __init__(self, control: TimeControl, *, penalty_ms: int | None = None) -> None:
        self.control = control
        # The edition decides the penalty (voice.rules.laws); the 2023 one by default.
        self.penalty_ms = control.penalty_ms if penalty_ms is None else penalty_ms
        first = control.period(0).base_ms
        self._sides: dict[Side, _SideState] = {side: _SideState(first) for side in SIDES}
        self._running: Side | None = None
        self._paused = False
        self._turn_ms = 0  # thinking time of the current turn before the current run segment
        self._since = 0  # start of the current run segment (meaningful while running, unpaused)
        self._now = 0
        self._flags: list[FlagFall] = []
        self._reported = 0  # how many of ``_flags`` check_flags has handed out
        self._added_increment_ms = 0  # Guideline III.4, introduced during the game

    # -- state ------------------------------------------------------------------------------

    @property
    def running(self) -> Side | None:
        """The side whose turn it is (also while paused); ``None`` before the start."""
        return self._running

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def started(self) -> bool:
        return self._running is not None

    @property
    def flags(self) -> tuple[FlagFall, ...]:
        """Every flag fall so far, in the order they fell."""
        return tuple(self._flags)

    def is_down(self, side: Side) -> bool:
        """Whether ``side``'s flag has fallen and no time was given since."""
        return self._sides[side].down

    def moves_completed(self, side: Side) -> int:
        return self._sides[side].moves

    def period_index(self, side: Side) -> int:
        return self._sides[side].period

    def moves_to_control(self, side: Side) -> int | None:
        """Moves ``side`` still has to complete in its period; ``None`` in sudden death."""
        state = self._sides[side]
        control = self.control.control_after(state.period)
        return None if control is None else max(0, control - state.moves)

    def remaining_ms(self, side: Side, now_ms: int) -> int:
        """Main time left on ``side``'s display at ``now_ms``; never negative."""
        state = self._sides[side]
        if state.down:
            return 0
        return max(0, state.balance_ms - self._charged_ms(side, now_ms))

    def time_used_ms(self, side: Side, now_ms: int) -> int:
        """Thinking time ``side`` has used so far (pauses excluded), delay included."""
        state = self._sides[side]
        current = self._elapsed_ms(now_ms) if side == self._running else 0
        return state.used_ms + current

    def next_event_ms(self, now_ms: int) -> int | None:
        """The instant the running side's flag falls if nobody presses, or ``None``.

        ``None`` before the start, while paused, and while the running side's flag is down.
        The instant may lie before ``now_ms`` when :meth:`check_flags` has not yet been called.
        """
        side = self._running
        if side is None or self._paused or self._sides[side].down:
            return None
        return self._since + self._flag_elapsed_ms(side) - self._turn_ms

    # -- time passing -------------------------------------------------------------------------

    def check_flags(self, now_ms: int) -> list[FlagFall]:
        """The flags that fell up to ``now_ms`` and were not yet reported, at their instants.

        Flags noticed inside another action (a press after the flag fell) are reported here too.
        """
        self._detect(now_ms)
        fallen = self._flags[self._reported :]
        self._reported = len(self._flags)
        return fallen

    # -- actions ------------------------------------------------------------------------------

    def start(self, now_ms: int, side: Side = "white") -> None:
        """Start ``side``'s clock: White's at the start of the game (6.6)."""
        if self._running is not None:
            raise ClockError("the clock has already been started")
        self._advance(now_ms)
        self._running = side
        self._turn_ms = 0
        self._since = now_ms

    def press(self, now_ms: int) -> None:
        """The running side completed a move: charge, add time, switch (6.2.1, 6.3)."""
        side = self._require_running("press")
        self._detect(now_ms)
        state = self._sides[side]
        period = self.control.period(state.period)
        elapsed = self._elapsed_ms(now_ms)
        if not state.down:
            state.balance_ms = state.balance_ms - self._charged_ms(side, now_ms)
            state.balance_ms += period.increment_ms + self._added_increment_ms
        state.used_ms += elapsed
        state.moves += 1
        control = self.control.control_after(state.period)
        if control is not None and state.moves >= control:
            state.period += 1
            if not state.down:
                added = self.control.period(state.period).base_ms
                # 6.3.2: time saved carries into the next period, except in time-delay mode.
                state.balance_ms = added if period.delay_ms else state.balance_ms + added
        self._running = other(side)
        self._turn_ms = 0
        self._since = now_ms

    def switch_to(self, side: Side, now_ms: int) -> None:
        """Make ``side``'s display the running one without completing a move.

        For the arbiter's corrections (7.1, D.2.9: a position reinstated with the other side to
        move): the turn so far is charged to the side that was running, but no increment is
        added, the move counter and the period stay, and a paused clock stays paused.
        """
        running = self._running
        if running is None:
            raise ClockError("cannot switch: the clock has not been started")
        self._detect(now_ms)
        if side == running:
            return
        state = self._sides[running]
        if not state.down:
            state.balance_ms -= self._charged_ms(running, now_ms)
        state.used_ms += self._elapsed_ms(now_ms)
        self._running = side
        self._turn_ms = 0
        self._since = now_ms

    def introduce_increment(self, increment_ms: int, now_ms: int) -> None:
        """Guideline III.4: an increment for both players from the next completed move on.

        Only for controls without increment or delay (III.2.2). The two minutes the opponent
        receives are given separately (:meth:`add_time`); the control's text and its FIDE
        category stay those announced for the event.
        """
        if any(p.increment_ms or p.delay_ms for p in self.control.periods):
            raise ClockError(
                "Guideline III applies only to time controls without increment", "has_increment"
            )
        if increment_ms <= 0:
            raise ClockError("the increment must be positive")
        self._detect(now_ms)
        self._added_increment_ms = increment_ms

    def pause(self, now_ms: int) -> None:
        """Stop both displays (6.11): the arbiter, or a player calling the arbiter."""
        self._require_running("pause")
        self._detect(now_ms)
        self._turn_ms = self._elapsed_ms(now_ms)
        self._paused = True

    def resume(self, now_ms: int) -> None:
        """Restart the running side's display where it stopped (6.11.3)."""
        if self._running is None or not self._paused:
            raise ClockError("the clock is not paused")
        self._advance(now_ms)
        self._paused = False
        self._since = now_ms

    def set_time(self, side: Side, ms: int, now_ms: int) -> None:
        """The arbiter sets ``side``'s display to ``ms`` (6.10.2, 7.1); a fallen flag rises."""
        if ms < 0:
            raise ClockError("a clock cannot be set to a negative time")
        self._detect(now_ms)
        state = self._sides[side]
        # The running side keeps its delay state; its display shows ``ms`` from now on.
        state.balance_ms = ms + self._charged_ms(side, now_ms)
        state.down = False

    def add_time(self, side: Side, ms: int, now_ms: int) -> None:
        """Add (or, negative, take) time on ``side``'s display; it cannot go below zero."""
        self._detect(now_ms)
        self.set_time(side, max(0, self.remaining_ms(side, now_ms) + ms), now_ms)

    def apply_penalty(self, beneficiary: Side, now_ms: int) -> None:
        """Give the opponent of an offender the penalty time of this control (7.5.5, 9.5, A.3)."""
        self.add_time(beneficiary, self.penalty_ms, now_ms)

    def set_moves(self, side: Side, n: int) -> None:
        """The arbiter corrects the move counter (6.10.2, 7.1); times are set separately.

        The period does not change here: if the corrected count has reached the control, the
        next period's time is added at the side's next press (or the arbiter sets it).
        """
        if n < 0:
            raise ClockError("a move count cannot be negative")
        self._sides[side].moves = n

    # -- internals ----------------------------------------------------------------------------

    def _detect(self, now_ms: int) -> None:
        """Record the running side's flag if it fell at or before ``now_ms``."""
        self._advance(now_ms)
        side = self._running
        flag_at = self.next_event_ms(now_ms)
        if side is not None and flag_at is not None and flag_at <= now_ms:
            state = self._sides[side]
            control = self.control.control_after(state.period)
            met = control is not None and state.moves >= control
            self._flags.append(FlagFall(flag_at, side, state.period, met))
            state.down = True

    def _advance(self, now_ms: int) -> None:
        if now_ms < self._now:
            raise ClockError(f"time went backwards: {now_ms} ms after {self._now} ms")
        self._now = now_ms

    def _require_running(self, what: str) -> Side:
        if self._running is None:
            raise ClockError(f"cannot {what}: the clock has not been started", "not_started")
        if self._paused:
            raise ClockError(f"cannot {what}: the clock is paused", "paused")
        return self._running

    def _elapsed_ms(self, now_ms: int) -> int:
        """Thinking time of the current turn up to ``now_ms``, pauses excluded."""
        if self._running is None:
            return 0
        if self._paused:
            return self._turn_ms
        return self._turn_ms + max(0, now_ms - self._since)

    def _charged_ms(self, side: Side, now_ms: int) -> int:
        """Main time the current turn has taken from ``side`` so far (after the delay)."""
        if side != self._running:
            return 0
        delay = self.control.period(self._sides[side].period).delay_ms
        return max(0, self._elapsed_ms(now_ms) - delay)

    def _flag_elapsed_ms(self, side: Side) -> int:
        """Turn thinking time at which ``side``'s display reaches zero."""
        state = self._sides[side]
        return state.balance_ms + self.control.period(state.period).delay_ms
