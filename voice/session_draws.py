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

from voice.clock import SIDES, other
from voice.dead_position import cannot_checkmate
from voice.events import (
    MoveMade,
    Say,
    Side,
)
from voice.matcher import Decision, Hypothesis, match_move
from voice.session_base import (
    DrawOffer,
    LogEntry,
    Outputs,
    SessionBase,
    color_of,
    game_message,
)


class DrawsMixin(SessionBase):
    """The sighted side's keys, draws, claims, resignation and calling the arbiter."""

    # -- the sighted side's keys --------------------------------------------------------------

    def _sighted_key(self, key: str, t: int, out: Outputs) -> None:
        language = self.opponent_language
        if self.result is not None:
            text = game_message(
                language, "game.over", result=self._result_words(self.result, language)
            )
            self._emit(out, Say(t, text, "sighted"))
            return
        side = self.sighted
        match key:
            case "sighted:draw_offer":
                self._offer(side, t, out)
            case "sighted:draw_accept":
                if self.offer is not None and self.offer.by == self.blind:
                    self._agree(t, out)
                else:
                    self._emit(out, Say(t, game_message(language, "draw.no_offer"), "sighted"))
            case "sighted:draw_decline":
                if self.offer is not None and self.offer.by == self.blind:
                    self.offer = None
                    self._say_all(out, t, "draw.declined", by=side)
                else:
                    self._emit(out, Say(t, game_message(language, "draw.no_offer"), "sighted"))
            case "sighted:draw_claim":
                self._claim(side, None, t, out)
            case "sighted:flag_claim":
                self._claim_flag(side, t, out)
            case "sighted:resign":
                self._resign(side, t, out)
            case "sighted:arbiter":
                self._call_arbiter(side, t, out)
            case _:
                self._emit(out, Say(t, game_message(language, "key.unknown", name=key), "sighted"))

    # -- draws, claims and resignation --------------------------------------------------------

    def _draw(self, side: Side, t: int, out: Outputs) -> None:
        """ "Remis": accept the opponent's offer, claim when the claim is valid, or offer."""
        if self.offer is not None and self.offer.by != side:
            self._agree(t, out)
        elif self.board.turn == color_of(side):
            if self._claim_reason(self.board) is not None:
                self._claim(side, None, t, out)
            else:
                self._tell_side(side, out, t, "draw.offer_after_move")
        else:
            self._offer(side, t, out)

    def _offer(self, side: Side, t: int, out: Outputs) -> None:
        if self.board.turn == color_of(side):
            self._tell_side(side, out, t, "draw.offer_after_move")
            return
        if self.offer is not None and self.offer.by == side:
            self._tell_side(side, out, t, "draw.already_offered")
            return
        if not all(any(e.by == s for e in self.sheet.entries) for s in SIDES):
            self._tell_side(side, out, t, "draw.too_early")
            return
        self.offer = DrawOffer(side, t)
        self.sheet.mark_offer()
        self._say_all(out, t, "draw.offered", by=side)

    def _agree(self, t: int, out: Outputs) -> None:
        self.offer = None
        self._end(t, "1/2-1/2", "agreement", out)

    @staticmethod
    def _claim_reason(board: chess.Board) -> str | None:
        if board.is_repetition(3):
            return "threefold_repetition"
        if board.halfmove_clock >= 100:
            return "fifty_moves"
        return None

    def _claim_with_move(self, rest: tuple[str, ...], t: int, out: Outputs) -> None:
        """ "Remis Springer Felix drei": a claim naming the intended move (9.2.1.1, 9.3.1.1)."""
        if self.board.turn != color_of(self.blind):
            self._tell(out, t, "turn.not_yours")
            return
        result = match_move(self.board, [Hypothesis(rest)], self.vocab, self.settings.matching)
        if result.decision != Decision.ACCEPT or result.move is None:
            self._tell(out, t, "draw.claim_move_unclear")
            return
        self._claim(self.blind, result.move, t, out)

    def _claim(self, side: Side, move: chess.Move | None, t: int, out: Outputs) -> None:
        """A draw claim by the player to move; a wrong one is penalised per profile (9.5)."""
        if self.board.turn != color_of(side):
            self._tell_side(side, out, t, "draw.claim_not_your_turn")
            return
        reason = self._claim_reason(self.board)
        if reason is None and move is not None:
            after = self.board.copy()
            after.push(move)
            reason = self._claim_reason(after)
        if reason is not None:
            if move is not None and self._claim_reason(self.board) is None:
                self._record_claimed_move(move, side, t, out)
            self._end(t, "1/2-1/2", reason, out)
            return
        # 9.5.3: an incorrect claim; the intended move must be made; the claim is an offer.
        self.wrong_claims[side] += 1
        cost = self.laws.wrong_claim(self.control, self.clock.remaining_ms(side, t))
        penalty = cost.opponent_gets_ms
        self.log.append(LogEntry(t, "wrong_claim", side, move.uci() if move else ""))
        if self.profile == "home":
            self._say_all(out, t, "claim.wrong_penalised", by=side, penalty=penalty)
            self._charge_wrong_claim(side, t, out)
        else:
            self._say_all(out, t, "claim.wrong_logged", by=side)
            self._to_arbiter(out, t, "arbiter.wrong_claim_logged", side=side, penalty=penalty)
        if move is not None:
            self._make(move, side, t, out, announce_to="blind" if side == self.blind else None)
        if self.result is None and self.board.turn != color_of(side):
            self.offer = DrawOffer(side, t)  # 9.1.2.3: the claim counts as an offer
            self.sheet.mark_offer()

    def _record_claimed_move(self, move: chess.Move, side: Side, t: int, out: Outputs) -> None:
        """The intended move of a correct claim is written on the scoresheet (9.2.1.1)."""
        entry = self._push(move, side, t, press=False)
        out.add(MoveMade(t, entry.uci, entry.san, side, entry.spoken))

    def _resign(self, side: Side, t: int, out: Outputs) -> None:
        winner = other(side)
        if self.laws.resignation_draw and cannot_checkmate(self.board, color_of(winner)):
            # 2023 (5.1.2 with 5.2.2): the opponent could not win, so the game is drawn.
            self._end(t, "1/2-1/2", "resignation_draw", out, by=side)
        else:
            self._end(t, "1-0" if winner == "white" else "0-1", "resignation", out, by=side)

    def _claim_flag(self, claimant: Side, t: int, out: Outputs) -> None:
        """2001 B.7: a win on time is claimed with the claimant's flag up and the other down.
        Elsewhere the program calls every flag at once, so there is nothing left to claim."""
        if not self.clock.is_down(other(claimant)) or self.clock.is_down(claimant):
            self._tell_side(claimant, out, t, "flag.claim_not_down")
            return
        self._flag_result(other(claimant), t, out)

    def _call_arbiter(self, side: Side, t: int, out: Outputs) -> None:
        """6.11: a player may stop the clocks only to call the arbiter."""
        self.log.append(LogEntry(t, "arbiter_called", side))
        if not self.clock.paused:
            self.clock.pause(t)
        self._say_all(out, t, "arbiter.called", by=side)
