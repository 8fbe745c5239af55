"""Draw offers, claims and resignation (Articles 5, 9; docs/rules.md §4, §6.6), for both players.

A draw offer is made after one's own move and marked "(=)" (9.1.2); it stands until accepted,
declined by word, or declined by the opponent's move. A claim (threefold repetition, fifty moves)
is the right of the player to move, with or without the intended move (9.2, 9.3); a wrong claim
makes the named move be played and counts as an offer (9.1.2.3, 9.5.3). Its penalty is the
profile's decision: the home program applies it, the tournament program logs it for the arbiter.
Resigning when the opponent could not checkmate is a draw (2023). Calling the arbiter stops the
clocks (6.11).
"""

from __future__ import annotations

import chess

from voice.game.session_base import (
    DrawOffer,
    LogEntry,
    Outputs,
    SessionBase,
    color_of,
    game_message,
)
from voice.rules.clock import SIDES, other
from voice.rules.dead_position import cannot_checkmate
from voice.rules.events import (
    MoveMade,
    Say,
    Side,
)
from voice.words.matcher import Decision, Hypothesis


class Draws:
    """The sighted side's keys, draws, claims, resignation and calling the arbiter: one part of
    the session, acting on the game it is given."""

    def __init__(self, game: SessionBase) -> None:
        self.game = game

    # -- the sighted side's keys --------------------------------------------------------------

    def sighted_key(self, key: str, t: int, out: Outputs) -> None:
        game = self.game
        language = game.opponent_language
        if game.result is not None:
            text = game_message(
                language, "game.over", result=game.result_words(game.result, language)
            )
            game.emit(out, Say(t, text, "sighted"))
            return
        side = game.sighted
        match key:
            case "sighted:draw_offer":
                # The page's one draw button does what "Remis" does for the blind player: on
                # the opponent's own turn a valid claim (9.2, 9.3) is made, not refused as an
                # offer before the move. (Not over a standing offer, which the page answers
                # with its own buttons, nor in a journal played before this rule.)
                if game.offer is None and not game.legacy:
                    self.draw(side, t, out)
                else:
                    self.offer(side, t, out)
            case "sighted:draw_accept":
                if game.offer is not None and game.offer.by == game.blind:
                    self._agree(t, out)
                else:
                    game.emit(out, Say(t, game_message(language, "draw.no_offer"), "sighted"))
            case "sighted:draw_decline":
                if game.offer is not None and game.offer.by == game.blind:
                    game.offer = None
                    game.say_all(out, t, "draw.declined", by=side)
                else:
                    game.emit(out, Say(t, game_message(language, "draw.no_offer"), "sighted"))
            case "sighted:draw_claim":
                self.claim(side, None, t, out)
            case "sighted:flag_claim":
                self._claim_flag(side, t, out)
            case "sighted:resign":
                self.resign(side, t, out)
            case "sighted:arbiter":
                self.call_arbiter(side, t, out)
            case _:
                game.emit(out, Say(t, game_message(language, "key.unknown", name=key), "sighted"))

    # -- draws, claims and resignation --------------------------------------------------------

    def draw(self, side: Side, t: int, out: Outputs) -> None:
        """ "Remis": accept the opponent's offer, claim when the claim is valid, or offer."""
        game = self.game
        if game.offer is not None and game.offer.by != side:
            self._agree(t, out)
        elif game.board.turn == color_of(side):
            if self._claim_reason(game.board) is not None:
                self.claim(side, None, t, out)
            elif side == game.blind and game.holds_offers():
                game.hold_offer(t, out)  # made with the player's next move (9.1.2.2)
            else:
                game.tell_side(side, out, t, "draw.offer_after_move")
        else:
            self.offer(side, t, out)

    def offer(self, side: Side, t: int, out: Outputs) -> None:
        game = self.game
        if game.board.turn == color_of(side):
            game.tell_side(side, out, t, "draw.offer_after_move")
            return
        if game.offer is not None and game.offer.by == side:
            game.tell_side(side, out, t, "draw.already_offered")
            return
        if not all(any(e.by == s for e in game.sheet.entries) for s in SIDES):
            game.tell_side(side, out, t, "draw.too_early")
            return
        game.offer = DrawOffer(side, t)
        game.sheet.mark_offer()
        game.say_all(out, t, "draw.offered", by=side)

    def _agree(self, t: int, out: Outputs) -> None:
        game = self.game
        game.offer = None
        game.end_game(t, "1/2-1/2", "agreement", out)

    def claimable(self, board: chess.Board) -> bool:
        """Whether the side to move could claim a draw now (9.2, 9.3)."""
        return self._claim_reason(board) is not None

    def claim_moves(self, board: chess.Board) -> list[chess.Move]:
        """The moves with which the side to move could claim a draw (9.2.1.1: the move that
        repeats the position a third time; 9.3.1.1: the fiftieth move without a capture or a
        pawn move), when the position itself gives no claim."""
        if self.claimable(board):
            return []
        after = board.copy()
        moves = []
        for move in list(after.legal_moves):
            after.push(move)
            if self.claimable(after):
                moves.append(move)
            after.pop()
        return moves

    @staticmethod
    def _claim_reason(board: chess.Board) -> str | None:
        if board.is_repetition(3):
            return "threefold_repetition"
        if board.halfmove_clock >= 100:
            return "fifty_moves"
        return None

    def claim_with_move(self, rest: tuple[str, ...], t: int, out: Outputs) -> None:
        """ "Remis Springer Felix drei": a claim naming the intended move (9.2.1.1, 9.3.1.1)."""
        game = self.game
        if not game.hears_moves():
            game.tell(out, t, "turn.not_yours")
            return
        result = game.match([Hypothesis(rest)])
        if result.decision != Decision.ACCEPT or result.move is None:
            game.tell(out, t, "draw.claim_move_unclear")
            return
        self.claim(game.mover(), result.move, t, out)

    def claim(self, side: Side, move: chess.Move | None, t: int, out: Outputs) -> None:
        """A draw claim by the player to move; a wrong one is penalised per profile (9.5)."""
        game = self.game
        if game.board.turn != color_of(side):
            game.tell_side(side, out, t, "draw.claim_not_your_turn")
            return
        reason = self._claim_reason(game.board)
        if reason is None and move is not None:
            after = game.board.copy()
            after.push(move)
            reason = self._claim_reason(after)
        if reason is not None:
            if move is not None and self._claim_reason(game.board) is None:
                self._record_claimed_move(move, side, t, out)
            game.end_game(t, "1/2-1/2", reason, out)
            return
        # 9.5.3: an incorrect claim; the intended move must be made; the claim is an offer.
        game.wrong_claims[side] += 1
        cost = game.laws.wrong_claim(game.control, game.clock.remaining_ms(side, t))
        penalty = cost.opponent_gets_ms
        game.log.append(LogEntry(t, "wrong_claim", side, move.uci() if move else ""))
        if game.profile == "home":
            game.say_all(out, t, "claim.wrong_penalised", by=side, penalty=penalty)
            game.charge_wrong_claim(side, t, out)
        else:
            game.say_all(out, t, "claim.wrong_logged", by=side)
            game.to_arbiter(out, t, "arbiter.wrong_claim_logged", side=side, penalty=penalty)
        if move is not None:
            game.make(move, side, t, out, announce_to="blind" if side == game.blind else None)
            if side == game.blind:
                game.offer_with_move = False  # the claim is the offer made with this move
        if game.result is None and game.board.turn != color_of(side):
            game.offer = DrawOffer(side, t)  # 9.1.2.3: the claim counts as an offer
            game.sheet.mark_offer()

    def _record_claimed_move(self, move: chess.Move, side: Side, t: int, out: Outputs) -> None:
        """The intended move of a correct claim is written on the scoresheet (9.2.1.1)."""
        game = self.game
        entry = game.push(move, side, t, press=False)
        out.add(MoveMade(t, entry.uci, entry.san, side, entry.spoken))
        if side != game.blind:  # the blind player writes it down and may check the claim
            game.emit(out, Say(t, entry.spoken, "blind"))

    def resign(self, side: Side, t: int, out: Outputs) -> None:
        game = self.game
        winner = other(side)
        if game.laws.resignation_draw and cannot_checkmate(game.board, color_of(winner)):
            # 2023 (5.1.2 with 5.2.2): the opponent could not win, so the game is drawn.
            game.end_game(t, "1/2-1/2", "resignation_draw", out, by=side)
        else:
            game.end_game(t, "1-0" if winner == "white" else "0-1", "resignation", out, by=side)

    def _claim_flag(self, claimant: Side, t: int, out: Outputs) -> None:
        """2001 B.7: a win on time is claimed with the claimant's flag up and the other down.
        Elsewhere the program calls every flag at once, so there is nothing left to claim."""
        game = self.game
        if not game.clock.is_down(other(claimant)) or game.clock.is_down(claimant):
            game.tell_side(claimant, out, t, "flag.claim_not_down")
            return
        game.flag_result(other(claimant), t, out)

    def call_arbiter(self, side: Side, t: int, out: Outputs) -> None:
        """6.11: a player may stop the clocks only to call the arbiter."""
        game = self.game
        game.log.append(LogEntry(t, "arbiter_called", side))
        if not game.clock.paused:
            game.clock.pause(t)
            game.stopped_by = side
        if game.restarts_at_home():
            # No arbiter: the blind player's "Pause" starts the clock again, and only they are
            # told so (the opponent's page has no such word).
            told = game.sentence("arbiter.called_home", game.language, {"by": side})
            game.tell_text(out, t, told)
            game.emit(
                out,
                Say(
                    t,
                    game.sentence("arbiter.called", game.opponent_language, {"by": side}),
                    "sighted",
                ),
            )
        else:
            game.say_all(out, t, "arbiter.called", by=side)
