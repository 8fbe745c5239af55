"""Arbiter actions: what they are called, which parameters they take, checked before use.

The arbiter's panel, a script line ``{"arbiter": {"action": ..., ...}}`` and a journal all carry
an action name and parameters. They are read here, once, into one typed action each (the
:data:`ArbiterCommand` union), so the session only ever applies well-formed actions; a malformed
one is refused with a sentence and changes nothing. Every action may carry a ``reason`` (text),
which is logged with it.

Actions (FIDE articles in brackets):

``pause`` / ``resume``
    stop and restart both displays (6.11, D.2.9).
``add_time {side, seconds}``
    add time to a side's display; negative takes time away (6.10.2, 7.1).
``set_time {side, seconds}``
    set a side's display (6.10.2, 7.1).
``set_moves {moves, side?}``
    correct the move counter of one side, or of both when ``side`` is left out (6.10.2).
``retract {ply} | {to_move, side?}  [white_seconds, black_seconds]``
    take both boards back (D.2.9): ``ply`` half-moves of this game stay; or the position in
    which ``side`` (default white) is to make move number ``to_move``. The clocks are set when
    ``white_seconds``/``black_seconds`` are given; the move counters follow the moves kept.
``illegal_move {side} [ply | to_move] [kind]``
    a completed illegal move by ``side`` (7.5): the position may be reinstated in the same action
    (as ``retract``); the first gives the opponent the penalty time (+2 minutes, +1 in rapid and
    blitz), the second loses the game, or draws it when the opponent cannot checkmate (7.5.5).
    ``kind`` is ``move`` (default), ``two_hands`` (7.5.4) or ``clock_without_move`` (7.5.3);
    the edition decides what counts and how many lose (voice.rules.laws).
``scoresheet_deduction {side, seconds}``
    2001 8.1: time deducted from a player who cannot keep score; from 2018 on (8.1.6) never
    from the player with a disability.
``penalty {side}``
    give ``side`` the penalty time of this control (+2 minutes, +1 in rapid and blitz) for an
    offence of the opponent that the arbiter rules on (7.5.5, 9.5.3, 12.9).
``increment {seconds}``
    Guideline III.4: an increment for both players from the next move on, in a game played
    without one (the opponent's two extra minutes are given with ``add_time``).
``wrong_claim {side}``
    an incorrect draw claim by ``side`` (9.5.3): the opponent gets the penalty time. In the
    tournament profile the program logs wrong claims and leaves this decision to the arbiter.
``declare_result {result, reason?}``
    end the game with "1-0", "0-1" or "1/2-1/2" (e.g. after a ruling under 11 or 12).
``approve_setup {...}``
    the arbiter approved the set-up (time control, rank words, sides); recorded as given.

``illegal`` and ``result`` are accepted as short names of ``illegal_move`` and
``declare_result``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from voice.rules.explained import Explained
from voice.rules.laws import ILLEGAL_KINDS, IllegalKind

if TYPE_CHECKING:
    from voice.rules.events import Side

ACTIONS: tuple[str, ...] = (
    "pause",
    "resume",
    "add_time",
    "set_time",
    "set_moves",
    "retract",
    "illegal_move",
    "penalty",
    "increment",
    "wrong_claim",
    "scoresheet_deduction",
    "declare_result",
    "approve_setup",
)

# Short names the arbiter's web panel uses for the same actions.
ALIASES: dict[str, str] = {"illegal": "illegal_move", "result": "declare_result"}

ResultText = Literal["1-0", "0-1", "1/2-1/2"]
_RESULTS: tuple[ResultText, ...] = ("1-0", "0-1", "1/2-1/2")
MAX_SECONDS = 36_000


class ArbiterError(Explained, ValueError):
    """A malformed arbiter action; the message says which parameter and what is allowed. An
    action the game refuses as the Laws stand names its ``reason`` (``game.why.{reason}``).

    A parameter that cannot be read names its fault too, for the talking clock, which says it
    in the player's words (``clock.why.{reason}``): ``missing`` or ``value``, with the
    parameter's ``name``, the value ``given`` (as JSON) and what is ``allowed``."""


def leaves_time(side: Side, ms: int) -> None:
    """A clock correction (6.10.2) must leave the player some time (``ms`` after it). A flag
    falls when a player's own time runs out (6.9), not on a slip of the arbiter's hand: "-600"
    typed for "-60" ended the game on time at once, and the panel's Undo could not bring it
    back. An arbiter who means to end the game declares the result."""
    if ms <= 0:
        raise ArbiterError(
            f"{side} would have no time left; a flag falls only when a player's own time runs "
            "out: to end the game, declare the result",
            "no_time_left",
            side=side,
        )


@dataclass(frozen=True)
class Retraction:
    """Where to take the game back to: a number of half-moves, or a move number and side."""

    ply: int | None = None
    to_move: int | None = None
    side: Side = "white"
    white_ms: int | None = None
    black_ms: int | None = None


# -- one typed action per arbiter decision ------------------------------------------------------
#
# Every action carries the ``reason`` the arbiter gave, and says its journal ``name`` and the side
# it concerns (``side``, None when it concerns both or neither) for the arbiter's log.


@dataclass(frozen=True)
class PauseClocks:
    """6.11, D.2.9: both displays stop."""

    reason: str = ""
    name: ClassVar[str] = "pause"
    side: ClassVar[None] = None


@dataclass(frozen=True)
class ResumeClocks:
    """The displays run again after a pause."""

    reason: str = ""
    name: ClassVar[str] = "resume"
    side: ClassVar[None] = None


@dataclass(frozen=True)
class AddTime:
    """6.10.2, 7.1: time added to one display; negative takes time away."""

    side: Side
    ms: int
    reason: str = ""
    name: ClassVar[str] = "add_time"


@dataclass(frozen=True)
class SetTime:
    """6.10.2, 7.1: one display set."""

    side: Side
    ms: int
    reason: str = ""
    name: ClassVar[str] = "set_time"


@dataclass(frozen=True)
class SetMoves:
    """6.10.2: the move counter of one side, or of both when ``side`` is None."""

    moves: int
    side: Side | None = None
    reason: str = ""
    name: ClassVar[str] = "set_moves"


@dataclass(frozen=True)
class Retract:
    """D.2.9: both boards back to the agreed point."""

    retraction: Retraction
    reason: str = ""
    name: ClassVar[str] = "retract"
    side: ClassVar[None] = None


@dataclass(frozen=True)
class IllegalMove:
    """7.5: a completed illegal move by ``side``, the position reinstated when given."""

    side: Side
    kind: IllegalKind = "move"
    retraction: Retraction | None = None
    reason: str = ""
    name: ClassVar[str] = "illegal_move"


@dataclass(frozen=True)
class ScoresheetDeduction:
    """2001 8.1 (8.1.6 from 2018): time deducted for not keeping score."""

    side: Side
    ms: int
    reason: str = ""
    name: ClassVar[str] = "scoresheet_deduction"


@dataclass(frozen=True)
class Penalty:
    """7.5.5, 9.5.3, 12.9: ``side`` gets the penalty time of this control."""

    side: Side
    reason: str = ""
    name: ClassVar[str] = "penalty"


@dataclass(frozen=True)
class Increment:
    """Guideline III.4: an increment for both from the next move on."""

    ms: int
    reason: str = ""
    name: ClassVar[str] = "increment"
    side: ClassVar[None] = None


@dataclass(frozen=True)
class WrongClaim:
    """9.5.3: an incorrect draw claim by ``side``."""

    side: Side
    reason: str = ""
    name: ClassVar[str] = "wrong_claim"


@dataclass(frozen=True)
class DeclareResult:
    """A result the arbiter declares (e.g. after a ruling under 11 or 12)."""

    result: ResultText
    reason: str = ""
    name: ClassVar[str] = "declare_result"
    side: ClassVar[None] = None


@dataclass(frozen=True)
class ApproveSetup:
    """The arbiter approved the set-up; what was approved is in the journal line as given."""

    reason: str = ""
    name: ClassVar[str] = "approve_setup"
    side: ClassVar[None] = None


ArbiterCommand = (
    PauseClocks
    | ResumeClocks
    | AddTime
    | SetTime
    | SetMoves
    | Retract
    | IllegalMove
    | ScoresheetDeduction
    | Penalty
    | Increment
    | WrongClaim
    | DeclareResult
    | ApproveSetup
)


@dataclass(frozen=True)
class Malformed:
    """An action that could not be read: refused by the session, with this sentence, and
    journalled as given so that a replay refuses it again; ``reason`` and ``params`` name the
    fault as :class:`ArbiterError` does."""

    action: str
    error: str
    reason: str = ""
    params: Mapping[str, str | int] = field(default_factory=dict)


def parse_action(action: str, params: Mapping[str, Any]) -> ArbiterCommand | Malformed:
    """The action as typed, or why it cannot be; read once, where the input arrives."""
    try:
        return read_action(action, params)
    except ArbiterError as error:
        return Malformed(action, str(error), error.reason, error.params)


def _fault(english: str, name: str, value: Any, allowed: str) -> ArbiterError:
    """A parameter that is missing or cannot be used, named for the player's words."""
    if value is None:
        return ArbiterError(english, "missing", name=name, allowed=allowed)
    given = json.dumps(value, ensure_ascii=False, default=str)
    return ArbiterError(english, "value", name=name, given=given, allowed=allowed)


def _side(params: Mapping[str, Any]) -> Side:
    value = params.get("side")
    if value not in ("white", "black"):
        english = f"'side' must be 'white' or 'black', not {value!r}"
        raise _fault(english, "side", value, "white, black")
    side: Side = value
    return side


def _optional_side(params: Mapping[str, Any]) -> Side | None:
    return None if params.get("side") is None else _side(params)


def _seconds(params: Mapping[str, Any], key: str, *, negative: bool = False) -> int:
    value = params.get(key)
    limit = f"-{MAX_SECONDS}..{MAX_SECONDS}" if negative else f"0..{MAX_SECONDS}"
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        english = f"'{key}' must be a number of seconds, not {value!r}"
        raise _fault(english, key, value, limit)
    if abs(value) > MAX_SECONDS or (value < 0 and not negative):
        raise _fault(f"'{key}' must lie in {limit} seconds, not {value!r}", key, value, limit)
    return round(value * 1000)


def _count(params: Mapping[str, Any], key: str, low: int = 0) -> int:
    """A whole number; 3.0 is one too (the talking clock took it before it read actions as a
    game does, so its older journals hold such counts)."""
    value = params.get(key)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or value > 10_000:
        english = f"'{key}' must be a whole number from {low}, not {value!r}"
        raise _fault(english, key, value, f"{low}..10000")
    return value


def _retraction(params: Mapping[str, Any]) -> Retraction | None:
    has_ply = "ply" in params
    has_move = "to_move" in params
    if has_ply and has_move:
        raise ArbiterError(
            "give either 'ply' or 'to_move', not both", "one_of", first="ply", second="to_move"
        )
    if not has_ply and not has_move:
        return None
    times = {
        side: _seconds(params, f"{side}_seconds") if f"{side}_seconds" in params else None
        for side in ("white", "black")
    }
    if has_ply:
        return Retraction(
            ply=_count(params, "ply"), white_ms=times["white"], black_ms=times["black"]
        )
    side = _optional_side(params) or "white"
    return Retraction(
        to_move=_count(params, "to_move", 1),
        side=side,
        white_ms=times["white"],
        black_ms=times["black"],
    )


def read_action(action: str, params: Mapping[str, Any]) -> ArbiterCommand:
    """Validate one action; raise :class:`ArbiterError` saying what is wrong."""
    reason = params.get("reason", "")
    if not isinstance(reason, str):
        raise _fault("'reason' must be text", "reason", reason, '"…"')
    reason = reason.strip()[:200]
    action = ALIASES.get(action, action)
    match action:
        case "pause":
            return PauseClocks(reason)
        case "resume":
            return ResumeClocks(reason)
        case "add_time":
            ms = _seconds(params, "seconds", negative=True)
            return AddTime(_side(params), ms, reason)
        case "set_time":
            return SetTime(_side(params), _seconds(params, "seconds"), reason)
        case "set_moves":
            side = _optional_side(params)
            return SetMoves(_count(params, "moves"), side, reason)
        case "retract":
            back = _retraction(params)
            if back is None:
                raise ArbiterError(
                    "'retract' needs 'ply' (half-moves kept) or 'to_move' (move number)",
                    "retract_needs",
                    action="retract",
                    first="ply",
                    second="to_move",
                )
            return Retract(back, reason)
        case "illegal_move":
            # The retraction parameters position the game; 'side' names the offender.
            offender = _side(params)
            kind = params.get("kind", "move")
            if kind not in ILLEGAL_KINDS:
                english = f"'kind' must be one of {', '.join(ILLEGAL_KINDS)}, not {kind!r}"
                raise _fault(english, "kind", kind, ", ".join(ILLEGAL_KINDS))
            rest = {k: v for k, v in params.items() if k not in ("side", "kind")}
            back = _retraction(rest)
            return IllegalMove(offender, kind, back, reason)
        case "scoresheet_deduction":
            ms = _seconds(params, "seconds")
            return ScoresheetDeduction(_side(params), ms, reason)
        case "wrong_claim":
            return WrongClaim(_side(params), reason)
        case "penalty":
            return Penalty(_side(params), reason)
        case "increment":
            ms = _seconds(params, "seconds")
            if ms <= 0:
                english = "'seconds' must be more than zero"
                raise _fault(english, "seconds", params["seconds"], f"0 < seconds <= {MAX_SECONDS}")
            return Increment(ms, reason)
        case "declare_result":
            result = params.get("result")
            if result not in _RESULTS:
                english = f"'result' must be one of {', '.join(_RESULTS)}, not {result!r}"
                raise _fault(english, "result", result, ", ".join(_RESULTS))
            return DeclareResult(result, reason)
        case "approve_setup":
            return ApproveSetup(reason)
    raise ArbiterError(
        f"unknown action {action!r}; known: {', '.join(ACTIONS)}",
        "unknown_action",
        action=action,
        known=", ".join(ACTIONS),
    )
