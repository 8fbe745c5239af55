"""The arbiter's actions applied to the game (D.2.9, 6.10, 6.11, 7.1, 7.5, 9.5, Guideline III).

:mod:`voice.arbiter` validates an action; here it takes effect on the board, the clocks and the
result, is logged with its reason, and is echoed to both players and to the arbiter's log. An
action the clock cannot carry out (an increment in a game that has one) is refused and changes
nothing.
"""

from __future__ import annotations

from typing import Any

import chess

from voice.arbiter import ArbiterCommand, ArbiterError, Retraction, read_action
from voice.clock import SIDES, ClockError, other
from voice.dead_position import cannot_checkmate
from voice.events import (
    Side,
)
from voice.session_base import LogEntry, Outputs, SessionBase, color_of, side_of


class ArbiterMixin(SessionBase):
    """What the arbiter can do to a running (or finished) game."""

    # -- arbiter ------------------------------------------------------------------------------

    def _on_arbiter(self, action: str, params: dict[str, Any], t: int, out: Outputs) -> None:
        """Validate, apply, log with the reason, echo; a refused action changes nothing."""
        try:
            command = read_action(action, params)
            self._apply_arbiter(command, t, out)
        except (ArbiterError, ClockError) as error:
            self.log.append(LogEntry(t, f"refused:{action}", None, str(error), dict(params)))
            self._to_arbiter(out, t, "arbiter.refused", action=action, error=str(error))
            return
        name = command.action
        self.log.append(LogEntry(t, name, command.side, command.reason, dict(params)))
        self._to_arbiter(out, t, "arbiter.logged", action=name, reason=command.reason or "-")

    def _apply_arbiter(self, command: ArbiterCommand, t: int, out: Outputs) -> None:
        match command.action:
            case "pause":
                if not self.clock.paused:
                    self.clock.pause(t)
                self._say_all(out, t, "arbiter.paused")
            case "resume":
                if self.result is not None:
                    self._to_arbiter(out, t, "arbiter.game_over")
                    return
                if self.clock.paused:
                    self.clock.resume(t)
                self._say_all(out, t, "arbiter.resumed")
            case "add_time" | "set_time":
                assert command.side is not None and command.ms is not None
                if command.action == "add_time":
                    self.clock.add_time(command.side, command.ms, t)
                else:
                    self.clock.set_time(command.side, command.ms, t)
                self._time_changed(command.side, "arbiter.time_set", t, out)
            case "set_moves":
                assert command.moves is not None
                for side in (command.side,) if command.side else SIDES:
                    self.clock.set_moves(side, command.moves)
                self._say_all(out, t, "arbiter.moves_set", count=command.moves)
            case "retract":
                assert command.retraction is not None
                self._retract(command.retraction, t, out)
            case "illegal_move":
                assert command.side is not None
                if command.kind not in self.laws.illegal_kinds:
                    raise ArbiterError(
                        f"under the FIDE Laws {self.laws.edition} '{command.kind}' is not an "
                        "illegal move (7.4); give a penalty with 'penalty' if it deserves one"
                    )
                if command.retraction is not None:
                    self._retract(command.retraction, t, out)
                self._illegal_move(command.side, t, out)
            case "scoresheet_deduction":
                assert command.side is not None and command.ms is not None
                if command.side == self.blind and not self.laws.deduct_for_scoresheet_of_disabled:
                    raise ArbiterError(
                        f"under the FIDE Laws {self.laws.edition} no time is deducted from a "
                        "player with a disability for not keeping score (8.1.6)"
                    )
                self.clock.add_time(command.side, -command.ms, t)
                self._time_changed(command.side, "arbiter.scoresheet_deduction", t, out)
            case "wrong_claim":
                assert command.side is not None
                self.wrong_claims[command.side] += 1
                cost = self.laws.wrong_claim(self.control, self.clock.remaining_ms(command.side, t))
                self._say_all(
                    out, t, "arbiter.penalty", side=other(command.side), ms=cost.opponent_gets_ms
                )
                self._charge_wrong_claim(command.side, t, out)
            case "penalty":
                assert command.side is not None
                self.clock.apply_penalty(command.side, t)
                self._rearm_warnings(t)
                self._say_all(
                    out, t, "arbiter.penalty", side=command.side, ms=self.clock.penalty_ms
                )
            case "increment":
                assert command.ms is not None
                self.clock.introduce_increment(command.ms, t)
                self._say_all(out, t, "arbiter.increment", ms=command.ms)
            case "declare_result":
                assert command.result is not None
                if self.result is not None:
                    self.result = None
                    self.sheet.reopen()
                self._end(t, command.result, "arbiter", out)
            case "approve_setup":
                self._to_arbiter(out, t, "arbiter.setup_approved")

    def _time_changed(self, side: Side, key: str, t: int, out: Outputs) -> None:
        """The arbiter changed a display: warnings re-armed, both players told the new time."""
        self._rearm_warnings(t)
        self._say_all(out, t, key, side=side, ms=self.clock.remaining_ms(side, t))

    def _illegal_move(self, side: Side, t: int, out: Outputs) -> None:
        """7.5.5: the first completed illegal move gives the opponent time, the second loses
        (2001 7.4.b: the first two give time, the third loses; 2001 C.3: in blitz the first)."""
        self.illegal_moves[side] += 1
        opponent = other(side)
        if not self.laws.illegal_move_loses(self.control, self.illegal_moves[side]):
            self.clock.apply_penalty(opponent, t)
            self._say_all(out, t, "arbiter.penalty", side=opponent, ms=self.clock.penalty_ms)
            return
        if cannot_checkmate(self.board, color_of(opponent)):
            self._end(t, "1/2-1/2", "illegal_moves_draw", out, by=side)
        else:
            self._end(t, "1-0" if opponent == "white" else "0-1", "illegal_moves", out, by=side)

    def _retract(self, back: Retraction, t: int, out: Outputs) -> None:
        """D.2.9: both boards back to the agreed point; clocks set when the arbiter says so."""
        start = chess.Board(self.start_fen)
        if back.ply is not None:
            keep = back.ply
        else:
            assert back.to_move is not None
            keep = (back.to_move - start.fullmove_number) * 2
            keep += (0 if back.side == "white" else 1) - (0 if start.turn == chess.WHITE else 1)
        if not 0 <= keep <= len(self.board.move_stack):
            raise ClockError(
                f"cannot take back to half-move {keep}: the game has {len(self.board.move_stack)}"
            )
        while len(self.board.move_stack) > keep:
            self.board.pop()
        self.sheet.truncate(keep)
        self.pending = None
        self.expect_repeat = None
        if self.offer is not None:
            self.offer = None
        if self.result is not None:
            self.result = None
            self.sheet.reopen()
        self.clock.switch_to(side_of(self.board.turn), t)
        for side in SIDES:
            self.clock.set_moves(side, sum(1 for e in self.sheet.entries if e.by == side))
        if back.white_ms is not None:
            self.clock.set_time("white", back.white_ms, t)
        if back.black_ms is not None:
            self.clock.set_time("black", back.black_ms, t)
        self._rearm_warnings(t)
        turn = side_of(self.board.turn)
        last = self.sheet.entries[-1].spoken if self.sheet.entries else "-"
        self._say_all(out, t, "arbiter.retracted", side=turn, move=last)

    def _rearm_warnings(self, t: int) -> None:
        left = self.clock.remaining_ms(self.blind, t)
        self._warned = {ms for ms in self._warned if ms >= left}
