"""The arbiter's actions applied to the game (D.2.9, 6.10, 6.11, 7.1, 7.5, 9.5, Guideline III).

:mod:`voice.rules.arbiter` reads an action into its typed form; here it takes effect on the board,
the clocks and the result, is logged with its reason, and is echoed to both players and to the
arbiter's log. An action the clock cannot carry out (an increment in a game that has one) is
refused and changes nothing.
"""

from __future__ import annotations

from typing import Any

import chess

from voice.game.session_base import (
    LogEntry,
    Outputs,
    SessionBase,
    color_of,
    logged_action,
    side_of,
)
from voice.rules.arbiter import (
    AddTime,
    ApproveSetup,
    ArbiterCommand,
    ArbiterError,
    DeclareResult,
    IllegalMove,
    Increment,
    Malformed,
    PauseClocks,
    Penalty,
    ResumeClocks,
    Retract,
    Retraction,
    ScoresheetDeduction,
    SetMoves,
    SetTime,
    WrongClaim,
    leaves_time,
)
from voice.rules.clock import SIDES, ClockError, other
from voice.rules.dead_position import cannot_checkmate
from voice.rules.events import ArbiterAction, Side
from voice.rules.explained import Explained


class ArbiterDesk:
    """What the arbiter can do to a running (or finished) game: one part of the session, acting
    on the game it is given."""

    def __init__(self, game: SessionBase) -> None:
        self.game = game

    def act(self, event: ArbiterAction, t: int, out: Outputs) -> None:
        """Apply, log with the reason, echo; a refused action changes nothing."""
        command = event.command
        if isinstance(command, Malformed):
            self._refuse(event, command, t, out)
            return
        try:
            self._apply(command, t, out)
        except (ArbiterError, ClockError) as error:
            self._refuse(event, error, t, out)
            return
        name = command.name
        self.game.log.append(LogEntry(t, name, command.side, command.reason, dict(event.params)))
        action = logged_action(name, event.params)  # a kind of illegal move by its name
        self.game.to_arbiter(out, t, "arbiter.logged", action=action, reason=command.reason or "-")

    def _refuse(
        self, event: ArbiterAction, error: Malformed | Explained, t: int, out: Outputs
    ) -> None:
        """Logged as given, so that the arbiter sees what was refused and why, in words of
        the arbiter's language (``game.why.{reason}``): a malformed action too, which was
        refused in English inside the arbiter's sentence (a review)."""
        why: dict[str, Any] = {}
        if error.reason:
            why = {"reason": error.reason, **error.params}
        english = error.error if isinstance(error, Malformed) else str(error)
        kind = f"refused:{event.action}"
        self.game.log.append(LogEntry(t, kind, None, english, dict(event.params), why))
        action = logged_action(event.action, event.params)
        self.game.to_arbiter(out, t, "arbiter.refused", action=action, error=english, why=why)

    def _apply(self, command: ArbiterCommand, t: int, out: Outputs) -> None:
        game = self.game
        match command:
            case PauseClocks():
                if not game.clock.paused:
                    game.clock.pause(t)
                game.stopped_by = "arbiter"  # only the arbiter starts it again, also at home
                game.say_all(out, t, "arbiter.paused")
            case ResumeClocks():
                if game.result is not None:
                    game.to_arbiter(out, t, "arbiter.game_over")
                    return
                if game.clock.paused:
                    game.clock.resume(t)
                game.stopped_by = None
                game.say_all(out, t, "arbiter.resumed")
            case AddTime(side=side, ms=ms):
                self._leaves_time(side, game.clock.remaining_ms(side, t) + ms)
                game.clock.add_time(side, ms, t)
                self._time_changed(side, "arbiter.time_set", t, out)
            case SetTime(side=side, ms=ms):
                self._leaves_time(side, ms)
                game.clock.set_time(side, ms, t)
                self._time_changed(side, "arbiter.time_set", t, out)
            case SetMoves(moves=moves, side=side):
                self._set_moves(moves, side)
                game.say_all(out, t, "arbiter.moves_set", count=moves)
            case Retract(retraction=back):
                self._retract(back, t, out)
            case IllegalMove(side=side, kind=kind, retraction=back):
                if kind not in game.laws.illegal_kinds:
                    raise ArbiterError(
                        f"under the FIDE Laws {game.laws.edition} '{kind}' is not an "
                        "illegal move (7.4); give a penalty with 'penalty' if it deserves one",
                        "not_illegal",
                        edition=game.laws.edition,
                    )
                if back is not None:
                    self._retract(back, t, out)
                self._illegal_move(side, t, out)
            case ScoresheetDeduction(side=side, ms=ms):
                if side == game.blind and not game.laws.deduct_for_scoresheet_of_disabled:
                    raise ArbiterError(
                        f"under the FIDE Laws {game.laws.edition} no time is deducted from a "
                        "player with a disability for not keeping score (8.1.6)",
                        "no_deduction",
                        edition=game.laws.edition,
                    )
                game.clock.add_time(side, -ms, t)
                self._time_changed(side, "arbiter.scoresheet_deduction", t, out)
            case WrongClaim(side=side):
                game.wrong_claims[side] += 1
                cost = game.laws.wrong_claim(game.control, game.clock.remaining_ms(side, t))
                game.say_all(out, t, "arbiter.penalty", side=other(side), ms=cost.opponent_gets_ms)
                game.charge_wrong_claim(side, t, out)
            case Penalty(side=side):
                game.clock.apply_penalty(side, t)
                game.rearm_warnings(t)
                game.say_all(out, t, "arbiter.penalty", side=side, ms=game.clock.penalty_ms)
            case Increment(ms=ms):
                game.clock.introduce_increment(ms, t)
                game.say_all(out, t, "arbiter.increment", ms=ms)
            case DeclareResult(result=result):
                if game.result is not None:
                    game.result = None
                    game.sheet.reopen()
                game.end_game(t, result, "arbiter", out)
            case ApproveSetup():
                game.to_arbiter(out, t, "arbiter.setup_approved")

    def _set_moves(self, moves: int, side: Side | None) -> None:
        """6.10.2: the arbiter corrects the move counter. Without a side the number is the
        counter as the clock shows it, the moves of the side that moved first (White's from the
        start position); the other side has completed one fewer while it is to move, so that
        its control comes after its own fortieth move, as the talking clock counts. Before
        revision 23 both counters took the number (older journals replay so)."""
        game = self.game
        if side is not None:
            game.clock.set_moves(side, moves)
            return
        first = side_of(chess.Board(game.start_fen).turn)
        behind = game.revision >= 23 and game.board.turn != color_of(first)
        game.clock.set_moves(first, moves)
        game.clock.set_moves(other(first), max(0, moves - 1) if behind else moves)

    def _leaves_time(self, side: Side, ms: int) -> None:
        if self.game.revision >= 19:  # older journals replay as they were played
            leaves_time(side, ms)

    def _time_changed(self, side: Side, key: str, t: int, out: Outputs) -> None:
        """The arbiter changed a display: warnings re-armed, both players told the new time."""
        game = self.game
        game.rearm_warnings(t)
        game.say_all(out, t, key, side=side, ms=game.clock.remaining_ms(side, t))

    def _illegal_move(self, side: Side, t: int, out: Outputs) -> None:
        """7.5.5: the first completed illegal move gives the opponent time, the second loses
        (2001 7.4.b: the first two give time, the third loses; 2001 C.3: in blitz the first)."""
        game = self.game
        game.illegal_moves[side] += 1
        opponent = other(side)
        if not game.laws.illegal_move_loses(game.control, game.illegal_moves[side]):
            game.clock.apply_penalty(opponent, t)
            game.say_all(out, t, "arbiter.penalty", side=opponent, ms=game.clock.penalty_ms)
            return
        if cannot_checkmate(game.board, color_of(opponent)):
            game.end_game(t, "1/2-1/2", "illegal_moves_draw", out, by=side)
        else:
            game.end_game(t, "1-0" if opponent == "white" else "0-1", "illegal_moves", out, by=side)

    def _retract(self, back: Retraction, t: int, out: Outputs) -> None:
        """D.2.9: both boards back to the agreed point; clocks set when the arbiter says so."""
        game = self.game
        start = chess.Board(game.start_fen)
        if back.ply is not None:
            keep = back.ply
        else:
            assert back.to_move is not None
            keep = (back.to_move - start.fullmove_number) * 2
            keep += (0 if back.side == "white" else 1) - (0 if start.turn == chess.WHITE else 1)
        if not 0 <= keep <= len(game.board.move_stack):
            raise ClockError(
                f"cannot take back to half-move {keep}: the game has {len(game.board.move_stack)}",
                "retract_beyond",
            )
        while len(game.board.move_stack) > keep:
            game.board.pop()
        game.sheet.truncate(keep)
        game.pending = None
        game.expect_repeat = None
        if game.offer is not None:
            game.offer = None
        reopened = game.result is not None
        if reopened:
            game.result = None
            game.sheet.reopen()
        game.clock.switch_to(side_of(game.board.turn), t)
        for side in SIDES:
            game.clock.set_moves(side, sum(1 for e in game.sheet.entries if e.by == side))
        if back.white_ms is not None:
            game.clock.set_time("white", back.white_ms, t)
        if back.black_ms is not None:
            game.clock.set_time("black", back.black_ms, t)
        game.rearm_warnings(t)
        turn = side_of(game.board.turn)
        last = game.sheet.entries[-1].spoken if game.sheet.entries else "-"
        game.say_all(out, t, "arbiter.retracted", side=turn, move=last)
        if reopened:  # the result both players heard no longer stands
            game.say_all(out, t, "goes_on")
