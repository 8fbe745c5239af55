"""The blind player's requests for information (D.2.10.4): time, moves, the last moves, the
position, where a piece stands, whose turn it is, the scoresheet, and exploring the board.

Information is given on request only; in the tournament profile a description of the board the
arbiter has not allowed is refused in one sentence and logged for the arbiter (11.3.1). The
exploring requests themselves are answered by :class:`voice.game.explore.Explorer`.
"""

from __future__ import annotations

from voice.game import announcements as ann
from voice.game.explore import Explorer
from voice.game.session_base import LogEntry, Outputs, PendingCorrection, SessionBase, side_of
from voice.rules.events import Say
from voice.words.position_words import position_words, where_words
from voice.words.utterance import Command


class Requests:
    """Answers to the blind player's requests: one part of the session, reading the game it is
    given (and changing nothing but the log)."""

    def __init__(self, game: SessionBase, explorer: Explorer) -> None:
        self.game = game
        self.explorer = explorer

    def explore(self, command: Command, t: int, out: Outputs) -> None:
        """A line, a square, attacks, moves or material (:mod:`voice.game.explore`)."""
        game = self.game
        answer = self.explorer.answer(command, game.board, game.vocab, game.language)
        game.tell_text(out, t, answer.text)
        if answer.refused is not None:
            self._request_refused(answer.refused, t, out)

    def _description_refused(self, name: str, what: str, t: int, out: Outputs) -> bool:
        """The position read-out follows the tournament rule for describing the board."""
        game = self.game
        refusal = self.explorer.refusal(name, game.language)
        if refusal is None:
            return False
        game.tell_text(out, t, refusal)
        self._request_refused(what, t, out)
        return True

    def _request_refused(self, what: str, t: int, out: Outputs) -> None:
        """A request the tournament profile refused, logged for the arbiter (11.3.1)."""
        game = self.game
        game.log.append(LogEntry(t, "request_refused", game.blind, what))
        game.to_arbiter(out, t, "arbiter.request_refused", side=game.blind, what=what)

    def time(self, command: Command, t: int, out: Outputs) -> None:
        """D.2.10.4: both clocks, on request only."""
        game = self.game
        game.tell_text(out, t, ann.time_words(game.clock, t, game.blind, game.language))

    def moves(self, command: Command, t: int, out: Outputs) -> None:
        """D.2.10.4: the number of moves completed (and those left to the control)."""
        game = self.game
        game.tell_text(out, t, ann.moves_words(game.clock, game.blind, game.language))

    def repeat(self, command: Command, t: int, out: Outputs) -> None:
        """The last sentence again; repeating is not itself remembered as said."""
        game = self.game
        if game.last_said:
            game.emit(out, Say(t, game.last_said, "blind"), remember=False)
        else:
            game.tell(out, t, "nothing_said")

    def last_move(self, command: Command, t: int, out: Outputs) -> None:
        game = self.game
        game.tell_text(out, t, ann.last_move_words(game.sheet, game.language))

    def last_moves(self, command: Command, t: int, out: Outputs) -> None:
        game = self.game
        count = command.count or 1
        game.tell_text(out, t, ann.last_moves_words(game.sheet, count, game.language))

    def position(self, command: Command, t: int, out: Outputs) -> None:
        game = self.game
        if self._description_refused("position", ann.command_word(game.vocab, "position"), t, out):
            return
        game.tell_text(out, t, position_words(game.board, game.vocab, game.language))

    def where(self, command: Command, t: int, out: Outputs) -> None:
        game = self.game
        if self._description_refused("where", ann.command_word(game.vocab, "where"), t, out):
            return
        if command.piece is None:
            game.tell(out, t, "where.which_piece")
            return
        game.tell_text(out, t, where_words(game.board, command.piece, game.vocab, game.language))

    def whose_turn(self, command: Command, t: int, out: Outputs) -> None:
        game = self.game
        turn = side_of(game.board.turn)
        if isinstance(game.pending, PendingCorrection):
            turn = game.blind  # the move is not made yet
        key = "turn.blind" if turn == game.blind else "turn.sighted"
        game.tell(out, t, key, side=ann.side_name(turn, game.language))

    def scoresheet(self, command: Command, t: int, out: Outputs) -> None:
        game = self.game
        game.tell_text(out, t, game.sheet.spoken_lines(game.language))
