"""Time controls: the PGN ``TimeControl`` syntax, a delay extension, and FIDE's classification.

Written forms (seconds; periods separated by ``:``, played in order)::

    300                   all moves in 5 minutes (sudden death)
    900+10                15 minutes, 10 s increment after every completed move
    40/5400+30:1800+30    40 moves in 90 minutes, then 30 minutes for the rest, 30 s increment
    5400d30               90 minutes in time-delay mode with a 30 s delay per move (extension)
    40/7200:20/3600       a period with a move count may also close the list: it then repeats
                          (20 moves per hour for ever), as on traditional clocks

``+N`` is an increment (FIDE 6.3.1, added after each completed move); ``dN`` is the delay
extension of this program (FIDE 6.3.2 time-delay mode: the delay runs first, unused delay is not
banked, and time saved is not carried into the next period). A period has one or the other.
The PGN forms ``?`` (unknown), ``-`` (no control) and ``*N`` (sandclock) are refused with a
message saying why, because a clock cannot run them. A preset name from the ``[clock.presets]``
settings table stands for its PGN text.

FIDE Appendices A.1 and B.1 classify a control by the first period's base time plus sixty times
its increment: blitz up to 10 minutes, rapid more than 10 and less than 60, standard otherwise.
The classification decides the penalty (7.5.5, 9.5; A.3: one minute instead of two).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from voice.rules.explained import Explained

Category = Literal["standard", "rapid", "blitz"]

_MINUTE_MS = 60_000
# Bounds no over-the-board game comes near; beyond them a typo (an extra digit, seconds written
# as milliseconds) would start a clock of years that cannot even be said aloud.
MAX_BASE_S = 24 * 3600
MAX_EXTRA_S = 3600
MAX_MOVES = 200
MAX_PERIODS = 10
_PERIOD_RE = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<base>\d+)(?:(?P<kind>[+d])(?P<extra>\d+))?$")


class TimeControlError(Explained, ValueError):
    """A time control text that is not one of the allowed forms; the message says what is,
    and ``reason`` names the fault for the player's sentence (``time_control.{reason}``)."""


@dataclass(frozen=True)
class Period:
    """One period: ``moves`` to complete in it (``None`` = all remaining moves)."""

    moves: int | None
    base_ms: int
    increment_ms: int = 0
    delay_ms: int = 0


@dataclass(frozen=True)
class TimeControl:
    """The periods in playing order and the text they were read from."""

    periods: tuple[Period, ...]
    text: str

    @property
    def category(self) -> Category:
        """FIDE A.1/B.1: base + 60 × increment (or delay) of the first period."""
        first = self.periods[0]
        total = first.base_ms + 60 * max(first.increment_ms, first.delay_ms)
        if total <= 10 * _MINUTE_MS:
            return "blitz"
        if total < 60 * _MINUTE_MS:
            return "rapid"
        return "standard"

    @property
    def penalty_ms(self) -> int:
        """Time given to the opponent for an illegal move or a wrong claim (7.5.5, 9.5, A.3)."""
        return 2 * _MINUTE_MS if self.category == "standard" else _MINUTE_MS

    def period(self, index: int) -> Period:
        """The period with this index; past the end, the last one (it repeats or is final)."""
        return self.periods[min(index, len(self.periods) - 1)]

    def control_after(self, index: int) -> int | None:
        """Total moves a side must have completed by the end of period ``index``.

        ``None`` for a sudden-death period, which lasts until the end of the game.
        """
        total = 0
        for i in range(index + 1):
            moves = self.period(i).moves
            if moves is None:
                return None
            total += moves
        return total

    def is_last_period(self, index: int) -> bool:
        """Whether all remaining moves must be completed in this period (Guideline III.3.1)."""
        return self.period(index).moves is None


_EXPLAIN = (
    "allowed: seconds ('300'), seconds+increment ('900+10'), moves/seconds ('40/5400'), "
    "seconds with delay ('5400d30'), periods joined by ':' ('40/5400+30:1800+30'), "
    "or a preset name"
)


def _parse_period(part: str, text: str) -> Period:
    if part.startswith("*"):
        raise TimeControlError(
            f"time control {text!r}: sandclock periods ('{part}') are not supported; {_EXPLAIN}",
            "sandclock",
            part=part,
        )
    match = _PERIOD_RE.match(part)
    if match is None:
        raise TimeControlError(
            f"time control {text!r}: cannot read period {part!r}; {_EXPLAIN}",
            "unreadable",
            part=part,
        )
    moves = int(match["moves"]) if match["moves"] is not None else None
    if moves == 0:
        raise TimeControlError(
            f"time control {text!r}: a period needs at least one move", "no_moves", part=part
        )
    base_s = int(match["base"])
    extra_s = int(match["extra"]) if match["extra"] is not None else 0
    for value, limit, what, reason in (
        (moves or 0, MAX_MOVES, f"at most {MAX_MOVES} moves", "too_many_moves"),
        (base_s, MAX_BASE_S, f"at most {MAX_BASE_S} seconds (24 hours)", "too_long"),
        (
            extra_s,
            MAX_EXTRA_S,
            f"an increment or delay of at most {MAX_EXTRA_S} seconds",
            "extra_too_long",
        ),
    ):
        if value > limit:
            raise TimeControlError(
                f"time control {text!r}: period {part!r} is too long; a period has {what}",
                reason,
                part=part,
                limit=limit,
            )
    base_ms = base_s * 1000
    extra_ms = extra_s * 1000
    if base_ms == 0 and extra_ms == 0:
        raise TimeControlError(
            f"time control {text!r}: period {part!r} gives no time at all", "no_time", part=part
        )
    return Period(
        moves=moves,
        base_ms=base_ms,
        increment_ms=extra_ms if match["kind"] == "+" else 0,
        delay_ms=extra_ms if match["kind"] == "d" else 0,
    )


def parse_time_control(text: str, presets: Mapping[str, str] | None = None) -> TimeControl:
    """Read a PGN ``TimeControl`` text (or a preset name) into periods.

    >>> parse_time_control("40/5400+30:1800+30").periods[1]
    Period(moves=None, base_ms=1800000, increment_ms=30000, delay_ms=0)
    >>> parse_time_control("rapid", {"rapid": "900+10"}).category
    'rapid'
    """
    written = text.strip()
    if presets:
        by_name = {name.lower(): value for name, value in presets.items()}
        if written.lower() in by_name:
            written = by_name[written.lower()].strip()
    if written in ("", "?"):
        raise TimeControlError(
            f"time control {text!r} is unknown ('?'): the clock needs a real one; {_EXPLAIN}",
            "none",
            text=text.strip() or '""',
        )
    if written == "-":
        raise TimeControlError(
            f"time control {text!r} means 'no time control' ('-'): the clock needs one; {_EXPLAIN}",
            "none",
            text=text.strip() or '""',
        )
    parts = written.split(":")
    if len(parts) > MAX_PERIODS:
        raise TimeControlError(
            f"time control {text!r}: at most {MAX_PERIODS} periods",
            "too_many_periods",
            limit=MAX_PERIODS,
        )
    periods = tuple(_parse_period(part.strip(), text) for part in parts)
    first = periods[0]
    if first.base_ms == 0 and first.delay_ms == 0:
        # The increment comes only after a completed move (6.3.1): the flag would fall at once.
        example = f"300+{first.increment_ms // 1000}"
        raise TimeControlError(
            f"time control {text!r}: the first period needs a base time before its increment "
            f"(for example '{example}')",
            "base_first",
            example=example,
        )
    for period in periods[:-1]:
        if period.moves is None:
            raise TimeControlError(
                f"time control {text!r}: only the last period may be without a move count "
                "(it holds all remaining moves)",
                "last_only",
            )
    return TimeControl(periods=periods, text=written)
