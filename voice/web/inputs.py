"""Validated page messages → the input events the session already understands.

The opponent's page speaks for the sighted side only (its moves and its ``sighted:`` keys); the
arbiter's panel sends arbiter actions. No message of either can become the blind player's speech
or keys: that is what keeps the opponent's secret from acting for the blind side.
"""

from __future__ import annotations

from collections.abc import Callable

from voice.rules.events import ArbiterAction, InputEvent, KeyPress, SightedClaim, SightedMove
from voice.web.protocol import (
    ARBITER_MESSAGES,
    CallArbiterIn,
    DrawIn,
    FlagClaimIn,
    Message,
    MoveIn,
    ProtocolError,
    ResignIn,
    message_type,
)
from voice.web.view import GameView

EventFactory = Callable[[int], InputEvent]


def _key(name: str) -> EventFactory:
    return lambda t_ms: KeyPress(t_ms, f"sighted:{name}")


def to_event(incoming: Message, game: GameView) -> EventFactory:
    """The event for ``incoming``; raises ProtocolError when it no longer fits the game."""
    game.check_started()
    if isinstance(incoming, ARBITER_MESSAGES):
        action = message_type(incoming)
        params = incoming.model_dump(exclude={"type"}, exclude_none=True)
        if not params.get("reason"):
            params.pop("reason", None)
        return lambda t_ms: ArbiterAction(t_ms, action, params)
    match incoming:
        case MoveIn(uci=uci):
            game.check_move(incoming)
            return lambda t_ms: SightedMove(t_ms, uci)
        case DrawIn(action="offer"):
            return _key("draw_offer")
        case DrawIn(action="claim", uci=str(uci), ply=ply):  # with the intended move (9.2.1.1)
            # Meant for the position the page showed, as a move is: a stale page's claim
            # (after a retraction, say) must not reach the journal.
            if ply is None:
                raise ProtocolError("stale")
            game.check_move(MoveIn(type="move", uci=uci, ply=ply))
            return lambda t_ms: SightedClaim(t_ms, uci)
        case DrawIn(action="claim"):  # 9.2, 9.3: the session says when it is not valid
            return _key("draw_claim")
        case DrawIn(action=answer):
            game.check_draw_answer()
            return _key(f"draw_{answer}")
        case ResignIn():
            return _key("resign")
        case CallArbiterIn():
            return _key("arbiter")
        case FlagClaimIn():  # the session says when there is no flag to claim
            return _key("flag_claim")
    raise TypeError(f"no event for {incoming!r}")
