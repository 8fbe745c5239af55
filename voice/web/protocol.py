"""Every WebSocket message in and out, as a schema; size and rate limits.

A page is a program we did not write the last version of: anything it sends is checked here
before it can become an input event. A message that is not valid UTF-8 JSON, is larger than
:data:`MAX_MESSAGE_BYTES`, nests deeper than :data:`MAX_DEPTH`, names an unknown type (or a
``type`` that is no string), carries a field of the wrong type, or comes faster than the rate
limit allows gets an ``error`` reply, changes nothing and leaves the page connected: the sighted
player's board must not go dark because of one bad frame (D.2.10: the blind player's moves
reach the sighted player on that board).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from voice.rules.laws import IllegalKind
from voice.web.pairing import Role

MAX_MESSAGE_BYTES = 2048
"""Larger than any valid message: bigger ones are answered ``too_large`` without decoding."""
WS_MAX_BYTES = 1024 * 1024
"""The transport's own limit per frame: up to here a page gets ``too_large`` and stays
connected; a frame beyond it is not even read, and only that page is closed (code 1009)."""
MAX_DEPTH = 4
"""Brackets nested at most; every valid message is one flat object. Checked before parsing, so
``[[[[…`` never reaches the recursive JSON parser."""

RATE_PER_SECOND = 10.0
"""Sustained messages per second and connection; a person clicking never comes near it."""
RATE_BURST = 30

Side = Literal["white", "black"]
UciMove = Annotated[str, Field(pattern=r"^[a-h][1-8][a-h][1-8][qrbn]?$")]
Reason = Annotated[str, Field(max_length=200)]
Seconds = Annotated[float, Field(ge=-36_000, le=36_000, allow_inf_nan=False)]

ErrorCode = Literal[
    "malformed",  # not JSON, unknown type, wrong fields, too deep
    "too_large",
    "rate_limited",
    "replaced",  # the opponent's board was opened elsewhere: that page took over
    "full",  # no spectator place is free; the page tries again later
    "not_allowed",  # this page's role may not send this message
    "stale",  # the page acted on a position that is no longer the current one
    "not_your_turn",
    "no_offer",  # accept/decline without a pending draw offer from the other side
    "game_over",
    "not_started",  # the arbiter has not approved the set-up yet: nothing can happen
    "refused",  # the session refused it; the reason follows
]


class Message(BaseModel):
    """Strict: unknown keys and silent type conversions are errors."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- in: from the opponent's page ------------------------------------------------------------


class MoveIn(Message):
    """A move on the sighted player's board; ``ply`` is the half-move count the page saw."""

    type: Literal["move"]
    uci: UciMove
    ply: Annotated[int, Field(ge=0, le=10_000)]


class DrawIn(Message):
    """``uci``: with ``claim``, the move the claimant intends (9.2.1.1, 9.3.1.1), which the
    page sends instead of making it."""

    type: Literal["draw"]
    action: Literal["offer", "accept", "decline", "claim"]
    uci: UciMove | None = None
    ply: Annotated[int, Field(ge=0, le=10_000)] | None = None  # with ``uci``: as for a move


class ResignIn(Message):
    """Only sent after the page asked "really resign?" and the player said yes."""

    type: Literal["resign"]
    confirmed: Literal[True]

    @field_validator("confirmed", mode="before")
    @classmethod
    def _true_itself(cls, value: object) -> object:
        """``true`` only: the literal check alone took ``1`` (``1 == True`` in Python), and a
        resignation ends the game."""
        if value is not True:
            raise ValueError("must be true")
        return value


class CallArbiterIn(Message):
    type: Literal["call_arbiter"]


class FlagClaimIn(Message):
    """The blind player's flag has fallen in rapid or blitz under the 2001 Laws, where it
    counts only when the opponent claims it (B.6)."""

    type: Literal["flag_claim"]


class SyncIn(Message):
    """Ask for the full state again (any role)."""

    type: Literal["sync"]


# -- in: from the arbiter's panel ------------------------------------------------------------


class PauseIn(Message):
    type: Literal["pause"]
    reason: Reason = ""


class ResumeIn(Message):
    type: Literal["resume"]
    reason: Reason = ""


class AddTimeIn(Message):
    type: Literal["add_time"]
    side: Side
    seconds: Seconds
    reason: Reason = ""


class SetTimeIn(Message):
    type: Literal["set_time"]
    side: Side
    seconds: Annotated[float, Field(ge=0, le=36_000, allow_inf_nan=False)]
    reason: Reason = ""


class SetMovesIn(Message):
    """Correct the move counter of ``side``, or of both sides when it is left out."""

    type: Literal["set_moves"]
    moves: Annotated[int, Field(ge=0, le=1000)]
    side: Side | None = None
    reason: Reason = ""


class RetractIn(Message):
    """Take both boards back so that ``ply`` half-moves stand (D.2.9)."""

    type: Literal["retract"]
    ply: Annotated[int, Field(ge=0, le=10_000)]
    reason: Reason = ""


class IllegalIn(Message):
    """A completed illegal move by ``side``; the session applies the penalty (7.5).

    ``ply`` reinstates the position with that many half-moves in the same action. ``kind`` is
    what was done: the move itself (left out: the same), two hands for one move (7.5.4) or the
    clock pressed without a move (7.5.3); the Laws in force decide whether it counts.
    """

    type: Literal["illegal_move"]
    side: Side
    ply: Annotated[int, Field(ge=0, le=10_000)] | None = None
    kind: IllegalKind | None = None
    reason: Reason = ""


class PenaltyIn(Message):
    """Give ``side`` the penalty time (+2 minutes, +1 in rapid and blitz)."""

    type: Literal["penalty"]
    side: Side
    reason: Reason = ""


class WrongClaimIn(Message):
    """An incorrect draw claim by ``side``: the opponent gets the penalty time (9.5.3)."""

    type: Literal["wrong_claim"]
    side: Side
    reason: Reason = ""


class IncrementIn(Message):
    """Guideline III.4: an increment for both players from the next move on."""

    type: Literal["increment"]
    seconds: Annotated[float, Field(gt=0, le=600, allow_inf_nan=False)]
    reason: Reason = ""


class DeclareResultIn(Message):
    type: Literal["declare_result"]
    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: Reason = ""


class ApproveSetupIn(Message):
    """The arbiter approves the tournament board's set-up (time control, words, sides).

    Not an arbiter action on the game: it answers the question the terminal asks too, and the
    program records the approval once, whichever answered first.
    """

    type: Literal["approve_setup"]


OPPONENT_MESSAGES: tuple[type[Message], ...] = (
    MoveIn,
    DrawIn,
    ResignIn,
    CallArbiterIn,
    FlagClaimIn,
)
ARBITER_MESSAGES: tuple[type[Message], ...] = (
    PauseIn,
    ResumeIn,
    AddTimeIn,
    SetTimeIn,
    SetMovesIn,
    RetractIn,
    IllegalIn,
    PenaltyIn,
    WrongClaimIn,
    IncrementIn,
    DeclareResultIn,
)
ALLOWED: dict[Role, tuple[type[Message], ...]] = {
    "opponent": (*OPPONENT_MESSAGES, SyncIn),
    "arbiter": (*ARBITER_MESSAGES, ApproveSetupIn, SyncIn),
    "spectator": (SyncIn,),
}


def message_type(model: type[Message] | Message) -> str:
    """The value of a message class's ``type`` field ("move", "add_time", ...)."""
    cls = model if isinstance(model, type) else type(model)
    return str(get_args(cls.model_fields["type"].annotation)[0])


_ALL_MESSAGES: tuple[type[Message], ...] = (
    *OPPONENT_MESSAGES,
    *ARBITER_MESSAGES,
    ApproveSetupIn,
    SyncIn,
)
MODELS: dict[str, type[Message]] = {message_type(model): model for model in _ALL_MESSAGES}
"""Each message class by the value of its ``type`` field."""

# -- out ----------------------------------------------------------------------------------


class ErrorOut(Message):
    """The reply to a message that changed nothing; ``message`` is in the page's language."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str


NoticeKind = Literal["say", "refused"]


class NoticeOut(Message):
    """Something the session said to this page's audience (an announcement, a refusal)."""

    type: Literal["notice"] = "notice"
    kind: NoticeKind
    text: str


class MoveView(Message):
    """A made move as the scoresheet has it, with the words that were said."""

    ply: int
    by: Side
    uci: str
    san: str
    spoken: str


class ClockView(Message):
    """Both displays at the moment the state was sent; ``running`` is None while stopped."""

    white_ms: int
    black_ms: int
    running: Side | None
    paused: bool
    moves: dict[Side, int]
    delay_ms: int = 0  # delay mode: how long the running display still stands still


class ResultView(Message):
    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: str  # the session's reason key ("checkmate", "agreement", ...)
    text: str  # the reason in the page's language


PendingKind = Literal["correction", "confirm", "choose"]


class PendingView(Message):
    """The blind player's move that is said but not made yet: asked back, a choice between
    moves, or in the correction window (D.2.8). It is not made until accepted (D.2.3/D.2.4),
    so the sighted side sees it as pending, never as a move."""

    kind: PendingKind
    by: Side
    spoken: str  # the words heard, as the blind player said them
    san: list[str]  # the move (or the moves to choose from) as a chess player writes it
    squares: list[str]  # its departure and arrival squares, to mark on the board (one move)
    text: str  # the whole line in the page's language


class LogLine(Message):
    t_ms: int
    kind: str
    text: str


class ApprovalView(Message):
    """A tournament board's set-up as the arbiter approves it, in the page's language; while
    ``approved`` is false the clocks stand still and no move can be made."""

    approved: bool
    via: Literal["terminal", "web"] | None = None
    control: str  # the time control in words
    blind: Side
    ranks: list[str]
    files: list[str]
    rules: str = ""  # descriptions on request, analysis aids, a deaf opponent, the Laws: words


class View(Message):
    """Everything one page draws. The opponent also gets ``me`` and ``legal`` (its legal moves,
    empty when it cannot move now, with ``legal_san``); the opponent and the arbiter get the
    blind player's ``pending`` move; the arbiter also gets the counts and the log. Fields a
    role does not get are left out.
    ``approval`` is there on a tournament board that started with the arbiter's approval."""

    role: Role
    blind: Side
    sighted: Side
    fen: str
    turn: Side
    ply: int
    in_check: bool
    moves: list[MoveView]
    last_blind: MoveView | None
    clock: ClockView
    draw_offer: Side | None
    result: ResultView | None
    large_text: bool
    language: str = "de"  # the page's language: what its texts from the server are written in
    check: str | None = None  # the square of the king in check, to highlight
    pending: PendingView | None = None
    me: Side | None = None
    legal: list[str] | None = None
    legal_san: dict[str, str] | None = None  # each legal move as a chess player writes it
    self_check: list[str] | None = None  # moves refused only because the own king is left in check
    # moves with which a draw can be claimed (9.2.1.1, 9.3.1.1), when none can be without one
    claim_moves: list[str] | None = None
    flag_claim: bool | None = None  # the blind player's fallen flag counts once claimed (2001 B.6)
    profile: str | None = None
    laws: str | None = None  # the FIDE Laws edition (voice.rules.laws)
    time_control: str | None = None
    penalty_ms: int | None = None  # the penalty time of this game (2 min, 1 in rapid and blitz)
    # what the Laws in force count as a completed illegal move (7.5.1-7.5.4; 2001: the move)
    illegal_kinds: list[IllegalKind] | None = None
    illegal_attempts: dict[Side, int] | None = None
    illegal_moves: dict[Side, int] | None = None
    wrong_claims: dict[Side, int] | None = None
    log: list[LogLine] | None = None
    approval: ApprovalView | None = None


class StateOut(Message):
    """The full state as this role may see it (built by :mod:`voice.web.view`)."""

    type: Literal["state"] = "state"
    view: View


class ProtocolError(ValueError):
    """A message that is refused before it reaches the game; ``code`` says why."""

    def __init__(self, code: ErrorCode, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code: ErrorCode = code


def nesting_depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in a JSON text, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def decode(raw: str | bytes) -> dict[str, Any]:
    """One frame as a JSON object, its size and depth bounded before the parser sees it.

    Text that cannot be written back as UTF-8 (a lone surrogate such as ``"\\ud800"``) is
    refused too: it would otherwise reach the journal, which is UTF-8.
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:  # before decoding anything
        raise ProtocolError("too_large")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ProtocolError("malformed", "not UTF-8") from None
    if nesting_depth(text) > MAX_DEPTH:
        raise ProtocolError("malformed", "nested too deeply")
    try:
        data = json.loads(text)
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (ValueError, UnicodeError, RecursionError):
        raise ProtocolError("malformed", "not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "not a JSON object")
    return data


def parse(raw: str | bytes, role: Role) -> Message:
    """Validate one incoming frame for ``role``; raise :class:`ProtocolError` if refused."""
    data = decode(raw)
    kind = data.get("type")
    model = MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError("malformed", "unknown message type")
    if model not in ALLOWED[role]:
        raise ProtocolError("not_allowed", f"{role} may not send {data['type']!r}")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ProtocolError("malformed", error.errors()[0]["msg"]) from None


RATE_NOTICE_S = 10.0
"""A page over the rate limit is told so at most this often."""


class RateLimiter:
    """A token bucket per connection: bursts of clicks pass, a flood is refused."""

    def __init__(
        self,
        rate: float = RATE_PER_SECOND,
        burst: int = RATE_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._clock = clock
        self._last = clock()
        self._noticed = float("-inf")

    def allow(self) -> bool:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def notice(self) -> bool:
        """Whether a refused message should be answered: once every :data:`RATE_NOTICE_S`,
        however the flood's pace lets single messages through in between."""
        now = self._clock()
        if now - self._noticed < RATE_NOTICE_S:
            return False
        self._noticed = now
        return True
