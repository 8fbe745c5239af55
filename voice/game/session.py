"""The game session: the Appendix D protocol as a pure, event-driven state machine.

Timestamped inputs come in (what the blind player said, the sighted player's move, keys, arbiter
actions, time passing); announcements, moves, clock states, refusals and the result go out. No
audio, threads, wall clock or files in here: the host, ``simulate`` and the tests feed the same
events, and replaying a journal reproduces the game exactly.

The rules that shape it (docs/rules.md; FIDE Laws 2023, Appendix D):

- A voice move is *made* when the program accepts it (after "ja" when it asked back), and only
  then does the opponent's clock start (D.2.3, D.2.4, §6.1). With a correction window, the move
  is announced at once but made when the window ends; "Korrektur"/"zurück" inside it takes the
  slip of the tongue back and leaves no trace on the board or the clock (D.2.8).
- What cannot be a move is never made: the program says why in one sentence and waits; in the
  tournament profile the attempt is logged for the arbiter and counted (§6.5).
- The sighted player's move is made and completed in one action (§6.2) and announced to the blind
  player in Appendix D words; the blind player's clock starts.
- Information is given on request only (D.2.10.4); low-time warnings in the home profile only.
- Game end: checkmate, stalemate, dead position, fivefold repetition and the 75-move rule at
  once; threefold repetition and the 50-move rule by claim; agreement; resignation; flag fall
  with the 6.9 draw; arbiter decisions.

This module is the blind player's protocol and the sighted player's moves; the shared state is
in :mod:`voice.game.session_base`. The session owns its other parts and calls them by name: draws
and resignation (:class:`voice.game.session_draws.Draws`), the arbiter's actions
(:class:`voice.game.session_arbiter.ArbiterDesk`), the answers to requests
(:class:`voice.game.session_requests.Requests`, with :class:`voice.game.explore.Explorer`); a table
maps each command of the blind player to its handler.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import chess

from voice.config import Settings
from voice.game import announcements as ann
from voice.game.explore import EXPLORE_KEYS, Explorer
from voice.game.session_arbiter import ArbiterDesk
from voice.game.session_base import (
    LogEntry,
    Outputs,
    Pending,
    PendingChoice,
    PendingConfirm,
    PendingCorrection,
    PendingDrawAccept,
    PendingPromotion,
    PendingRepeatOrMove,
    PendingResign,
    SessionBase,
    _setup_flag,
    color_of,
    game_message,
    side_of,
)
from voice.game.session_draws import Draws
from voice.game.session_requests import Requests
from voice.rules.clock import SIDES, other
from voice.rules.events import (
    ArbiterAction,
    Ask,
    BlindSpeech,
    ClockPress,
    Flag,
    InputEvent,
    KeyPress,
    OpponentLanguage,
    OutputEvent,
    Pause,
    Refused,
    Resume,
    ResumeSaid,
    Say,
    Setup,
    Side,
    SightedClaim,
    SightedMove,
    Tick,
    to_seconds,
)
from voice.words.explore_words import (
    EXPLORE_COMMANDS,
    EXPLORE_WORDS,
    WHERE_ARTICLES,
    explore_phrases,
    where_phrases,
)
from voice.words.matcher import (
    NOT_AN_ATTEMPT,
    Decision,
    Hypothesis,
    MatchResult,
    guess_refusal,
    rank_phrases,
)
from voice.words.phrases import MoveIntent, Refusal, explain_refusal, phrase_table, render_move
from voice.words.spoken_time import duration_words
from voice.words.utterance import Command, command_table, read_command
from voice.words.vocabulary import ANSWER_COMMANDS, NamedMoves, Phrase

__all__ = [
    "SIGHTED_KEYS",
    "WHERE_ARTICLES",
    "GameSession",
    "color_of",
    "one_word_difference",
    "side_of",
]

_SHORT_REPEAT = 0.45
"""With one microphone (:attr:`GameSession.opponent_speaks`): how far words may be from the move
just made and still be its repeat: one word left out that people leave out (the departure
file, "Bauer", the capture word: 0.4), never a word said differently ("Eva fünf" after "Eva
vier" is a move)."""

# Commands that only ask for information: harmless when misheard, and still useful after the end.
REQUESTS = frozenset(
    {
        "time",
        "moves",
        "repeat",
        "last_move",
        "last_moves",
        "position",
        "where",
        "whose_turn",
        "scoresheet",
        "help",
        "stop",
        *EXPLORE_COMMANDS,
        *EXPLORE_KEYS,
    }
)
# Commands listed by "Hilfe" in the normal state, in this order.
_HELP_COMMANDS = (
    "time",
    "moves",
    "repeat",
    "last_move",
    "position",
    "where",
    "whose_turn",
    "scoresheet",
    "draw",
    "resign",
    "arbiter",
    "touched",
    "help",
)

# The pieces a pawn may become (3.7.5), in the order the 2001 promotion question names them.
_PROMOTION_PIECES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def is_underpromotion(move: chess.Move) -> bool:
    """A promotion to a rook, bishop or knight: always asked back before it is made ("Bella
    acht Turm?"), however clearly it was heard. It is rare, it cannot be undone once made
    (FIDE 4.4.4: the choice is final when the piece touches the square), and "Dame" at the end
    of a spoken promotion is the word Whisper most often heard as "Turm", with confidence (the
    likeliest wrong moves of the tuning voices, session 9)."""
    return move.promotion is not None and move.promotion != chess.QUEEN


# Keys the sighted side's page (or keyboard) sends; the blind side's keys are command ids.
SIGHTED_KEYS = (
    "sighted:draw_offer",
    "sighted:draw_accept",
    "sighted:draw_decline",
    "sighted:draw_claim",
    "sighted:flag_claim",
    "sighted:resign",
    "sighted:arbiter",
)


# -- the session --------------------------------------------------------------------------------


class GameSession(SessionBase):
    """One game between a blind and a sighted player (or an engine on the sighted side)."""

    def __init__(self, setup: Setup, settings: Settings) -> None:
        super().__init__(setup, settings)
        # Exploring the board (voice.game.explore): the arbiter's rule for descriptions, the cursor.
        describe = _setup_flag(setup.extra, "describe_board", self.settings.session.describe_board)
        self.explorer = Explorer(self.blind, self.profile, describe)
        # The parts of the protocol that act on this game: draws, claims and resignation
        # (Articles 5, 9), the arbiter's actions (6.10, 6.11, 7.5, D.2.9), requests (D.2.10.4).
        self.draws = Draws(self)
        self.arbiter = ArbiterDesk(self)
        self.requests = Requests(self, self.explorer)
        # What each command of the blind player does (voice.words.utterance names the commands).
        self._commands: dict[str, Callable[[Command, int, Outputs], None]] = {
            "yes": self._cmd_yes,
            "no": self._cmd_no,
            "repetition": self._cmd_repetition,
            "my_move": self._cmd_my_move,
            "choice": self._cmd_choice,
            "correction": self._cmd_correction,
            "time": self.requests.time,
            "moves": self.requests.moves,
            "repeat": self.requests.repeat,
            "last_move": self.requests.last_move,
            "last_moves": self.requests.last_moves,
            "position": self.requests.position,
            "where": self.requests.where,
            "whose_turn": self.requests.whose_turn,
            "scoresheet": self.requests.scoresheet,
            "help": self._cmd_help,
            "stop": self._cmd_stop,
            "pause": self._cmd_pause,
            "arbiter": self._cmd_arbiter,
            "touched": self._cmd_touched,
            "draw": self._cmd_draw,
            "resign": self._cmd_resign,
        }

    # -- the Core protocol ------------------------------------------------------------------

    def handle(self, event: InputEvent) -> list[OutputEvent]:
        """Apply one input at its instant; return everything it causes, in order."""
        out = Outputs()
        t = max(event.t_ms, self.now)
        self._advance(t, out)
        self.now = t
        match event:
            case BlindSpeech():
                self._on_speech(event, t, out)
            case SightedMove():
                self._on_sighted_move(event.move, t, out)
            case SightedClaim():
                self._on_sighted_claim(event.move, t, out)
            case KeyPress():
                self._on_key(event.key, t, out)
            case Ask():
                self._on_key(event.what, t, out)
            case ArbiterAction():
                self._arbiter_acts(event, t, out)
            case OpponentLanguage():
                self.opponent_language = event.language
            case Pause():
                self._arbiter_acts(ArbiterAction(t, "pause"), t, out)
            case Resume():
                self._arbiter_acts(ArbiterAction(t, "resume"), t, out)
            case ClockPress():
                self.tell(out, t, "key.press_not_needed")
            case Tick():
                pass
            case ResumeSaid():
                self._window_again(t)
        self._advance(t, out)  # an arbiter may have set the running clock to zero
        out.add(self.clock_state(t))
        return out.events

    def next_wakeup_ms(self) -> int | None:
        """When time alone will cause something: a flag, a window's end, a low-time warning."""
        if self.result is not None:
            return None
        instants = [
            t
            for t in (self._window_end(), self._flag_instant(), self._warning_instant())
            if t is not None
        ]
        return min(instants) if instants else None

    def time_runs(self) -> bool:
        """Whether a player's clock is running (the game is on and not paused)."""
        return self.result is None and self.clock.running is not None and not self.clock.paused

    def finish(self) -> list[dict[str, Any]]:
        """The last line of ``simulate``: the scoresheet as PGN."""
        return [{"pgn": self.pgn()}]

    def pgn(self) -> str:
        return self.sheet.pgn()

    # -- replay and resume ----------------------------------------------------------------

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[InputEvent], settings: Settings) -> GameSession:
        """The session after ``events``, silently (the outputs were heard before the crash)."""
        session = cls(setup, settings)
        for event in events:
            session.handle(event)
        return session

    def resume_announcement(self) -> list[OutputEvent]:
        """ "Partie fortgesetzt": whose turn, both clocks, the last move of each side, and what
        is still open.

        The last moves are said every time: a crash between the journal's write of a move and
        its announcement (the engine's reply, the opponent's move on the web board) leaves a
        move made that nobody heard, and the players need the position's last words anyway.
        """
        t = self.now
        out = Outputs()
        if self.result is not None:
            for to, language in self.audiences():  # the result in each player's language
                text = game_message(
                    language, "resume.over", result=self.result_words(self.result, language)
                )
                self.emit(out, Say(t, text, to))
            out.add(self.clock_state(t))
            return out.events
        turn = side_of(self.board.turn)
        for to, language in self.audiences():
            text = game_message(
                language,
                "resume.game",
                side=ann.side_name(turn, language),
                white=duration_words(self.clock.remaining_ms("white", t), language),
                black=duration_words(self.clock.remaining_ms("black", t), language),
            )
            self.emit(out, Say(t, text, to))
        if not self.sheet.entries:  # stopped before a move: "Sie spielen Schwarz" was not said
            self.tell(out, t, "resume.colour", side=ann.side_name(self.blind, self.language))
        else:
            for to, language in self.audiences():
                moves = ann.last_moves_words(self.sheet, 2, language)
                self.emit(out, Say(t, game_message(language, "resume.last", moves=moves), to))
        if isinstance(self.pending, PendingCorrection):
            # The move was said before the stop; it is made when its window ends, and is said
            # again then: "Offen war noch: Springer Felix drei" followed by the opponent's
            # reply left the player unsure whether it had been played (a new user's trial).
            self.window_resumed = self.pending
            question = game_message(
                self.language,
                "correction.move_pending",
                move=self.pending.spoken,
                **self.command_words,
            )
            self.tell(out, t, "resume.pending", question=question)
        elif self.pending is not None:
            self.tell(out, t, "resume.pending", question=self._pending_question())
        if self.offer is not None:
            self.say_all(out, t, "resume.offer", by=self.offer.by)
        if self.offer_with_move:  # "Remis" said before the stop: still made with the move
            self.tell(out, t, "draw.offer_with_next_move")
        if self.clock.paused:  # and who starts it again: a stopped clock is no crash's doing
            self._tell_paused(t, out)
        out.add(self.clock_state(t))
        return out.events

    def _arbiter_acts(self, event: ArbiterAction, t: int, out: Outputs) -> None:
        stopped = self.clock.paused
        self.arbiter.act(event, t, out)
        if stopped and not self.clock.paused:
            self._remind_pending(t, out)

    def _remind_pending(self, t: int, out: Outputs) -> None:
        """The clock runs again with a question still open ("Eva vier?" asked, "ja" refused
        while it stood): it is asked again, or the player waits for nothing."""
        if self.pending is not None:
            self.tell_text(out, t, self._pending_question())

    def _pending_question(self) -> str:
        match self.pending:
            case PendingConfirm(spoken=spoken):
                return game_message(self.language, "confirm.question", move=spoken)
            case PendingChoice(difference=(_, _)):
                return self._difference_question()
            case PendingChoice(spoken=spoken_list):
                return game_message(
                    self.language, "choose.question", options=self._options(spoken_list)
                )
            case PendingCorrection(spoken=spoken):
                return spoken
            case PendingResign(side=side):
                question = game_message(self.language, "resign.question", **self.command_words)
                return self._for_side(side, question)
            case PendingDrawAccept(side=side):
                question = game_message(self.language, "draw.accept_question", **self.command_words)
                return self._for_side(side, question)
            case PendingRepeatOrMove():
                return game_message(self.language, "repeat_or_move.question", **self.command_words)
            case PendingPromotion():
                return game_message(self.language, "promotion.question", **self._promotion_words())
        return ""

    def _for_side(self, side: Side | None, question: str) -> str:
        """ "Schwarz: Wirklich aufgeben? …": a question the side it is for must answer, where
        one microphone serves both players."""
        if side is None:
            return question
        return f"{game_message(self.language, f'side.{side}')}: {question}"

    # -- state for the web board and the arbiter's panel ------------------------------------

    def state(self) -> dict[str, Any]:
        """A JSON-ready snapshot of everything a page needs to draw the game."""
        t = self.now
        pending: dict[str, Any] | None = None
        match self.pending:
            case PendingConfirm(move=move, spoken=spoken):
                pending = {"kind": "confirm", "move": move.uci(), "spoken": spoken}
            case PendingChoice(moves=moves, spoken=spoken_list, difference=difference):
                pending = {
                    "kind": "choose",
                    "moves": [m.uci() for m in moves],
                    "spoken": list(spoken_list),
                }
                if difference is not None:
                    pending["difference"] = list(difference)
            case PendingCorrection(move=move, spoken=spoken, ends_ms=ends):
                pending = {
                    "kind": "correction",
                    "move": move.uci(),
                    "spoken": spoken,
                    "until": to_seconds(ends),
                }
            case PendingResign():
                pending = {"kind": "resign"}
            case PendingDrawAccept(side=side):
                pending = {"kind": "draw_accept", "side": side}
            case PendingRepeatOrMove(move=move, spoken=spoken):
                pending = {"kind": "repeat_or_move", "move": move.uci(), "spoken": spoken}
            case PendingPromotion(moves=moves, spoken=spoken):
                pending = {"kind": "promotion", "moves": [m.uci() for m in moves], "spoken": spoken}
        return {
            "t": to_seconds(t),
            "fen": self.board.fen(),
            "start_fen": self.start_fen,
            "turn": side_of(self.board.turn),
            "blind": self.blind,
            "sighted": self.sighted,
            "profile": self.profile,
            "laws": self.laws.edition,
            "language": self.language,
            "time_control": self.control.text,
            "moves": [
                {
                    "ply": e.ply,
                    "number": e.fullmove,
                    "by": e.by,
                    "uci": e.uci,
                    "san": e.san,
                    "spoken": e.spoken,
                    "clock": to_seconds(e.clock_ms),
                    "t": to_seconds(e.t_ms),
                    "draw_offer": e.ply in self.sheet.offers,
                }
                for e in self.sheet.entries
            ],
            "clock": {
                "white": to_seconds(self.clock.remaining_ms("white", t)),
                "black": to_seconds(self.clock.remaining_ms("black", t)),
                "running": self._running(),
                "paused": self.clock.paused,
                "moves": {side: self.clock.moves_completed(side) for side in SIDES},
                "to_control": {side: self.clock.moves_to_control(side) for side in SIDES},
            },
            "check": self.board.is_check(),
            "pending": pending,
            "draw_offer": None if self.offer is None else {"by": self.offer.by},
            "illegal_attempts": dict(self.attempts),
            "illegal_moves": dict(self.illegal_moves),
            "wrong_claims": dict(self.wrong_claims),
            "result": None
            if self.result is None
            else {"result": self.result.result, "reason": self.result.reason},
            "log": [entry.as_json() for entry in self.log],
            "last_announcement": self.last_said,
            "next_wakeup": None
            if self.next_wakeup_ms() is None
            else to_seconds(self.next_wakeup_ms() or 0),
        }

    def phrases_now(self) -> frozenset[Phrase]:
        """Every phrase worth listening for now, as canonical words (the recogniser's grammar):
        command phrases, numbers while candidates are offered, the legal moves on the blind
        player's turn, and the opponent's last move while it may be repeated back."""
        phrases: set[Phrase] = set()
        asked = self.pending is not None or (
            self.offer is not None and self.offer.by == self.sighted
        )
        for name, command_phrases in self.vocab.commands.items():
            # Answers and take-backs only while there is something to answer or take back: a
            # request misheard as "zurück" or "ja" must not find them in the grammar. But
            # "Korrektur" right after the player's move is heard, and told it is too late
            # (D.2.8: the arbiter corrects it now): spoken, it was "Nicht verstanden" while
            # typed it was answered, as the README promises. (Not on the player's own turn:
            # there it would be one more rival of every move.)
            late_correction = (
                name == "correction"
                and bool(self.sheet.entries)
                and (
                    self.opponent_speaks  # every move is said here: "Zu spät" after any
                    or (self.sheet.entries[-1].by == self.blind and not self.hears_moves())
                )
            )
            if name in ANSWER_COMMANDS and not asked and not late_correction:
                continue
            if name in EXPLORE_COMMANDS:
                continue  # listened for whole, with their squares (explore_phrases below)
            phrases.update(command_phrases)
        phrases.update(where_phrases(self.vocab))
        phrases.update(explore_phrases(self.board, self.vocab))
        if isinstance(self.pending, PendingChoice):
            if self._numbers_choose():
                count = len(self.pending.moves)
                phrases.update((word,) for word in self.vocab.number_words[:count])
            phrases.update((word,) for word in self.pending.difference or ())
        if isinstance(self.pending, PendingPromotion):
            phrases.update((self.vocab.piece_word(piece),) for piece in _PROMOTION_PIECES)
        if self.hears_moves():
            phrases.update(phrase_table(self.board, self.vocab).with_check_words())
        if self.expect_repeat is not None:
            before = self._board_before_last()
            phrases.update(phrase_table(before, self.vocab).with_check_words(self.expect_repeat))
        return frozenset(phrases)

    def moves_now(self) -> NamedMoves:
        """Which phrases of :meth:`phrases_now` name which of the blind player's moves: their
        move phrases, less any that the session would also take for the opponent's last move
        said back (:meth:`_repeat_back` reads the words without check words, so "Springer
        David fünf Schach" is that too). The recogniser treats phrases of one move as no
        rivals of each other."""
        if not self.hears_moves():
            return {}
        moves = phrase_table(self.board, self.vocab).named_moves()
        if self.expect_repeat is None:
            return moves
        before = phrase_table(self._board_before_last(), self.vocab)
        return {
            phrase: move
            for phrase, move in moves.items()
            if before.move_named(phrase) != self.expect_repeat
        }

    def words_now(self) -> frozenset[str]:
        """The words worth listening for now (the recogniser's grammar, docs/architecture.md)."""
        words = set(self.vocab.command_words()) | EXPLORE_WORDS[self.vocab.command_set]
        if isinstance(self.pending, PendingChoice):
            if self._numbers_choose():
                words.update(self.vocab.number_words[: len(self.pending.moves)])
            words.update(self.pending.difference or ())
        if self.hears_moves():
            words.update(phrase_table(self.board, self.vocab).words())
        if self.expect_repeat is not None:
            before = self._board_before_last()
            words.update(phrase_table(before, self.vocab).words())
        return frozenset(words)

    # -- time passing -----------------------------------------------------------------------

    def _advance(self, t: int, out: Outputs) -> None:
        """Let what time alone causes happen, each at its own instant, up to ``t``."""
        while self.result is None:
            due = [
                (instant, rank)
                for rank, instant in enumerate(
                    (self._flag_instant(), self._window_end(), self._warning_instant())
                )
                if instant is not None and instant <= t
            ]
            if not due:
                return
            instant, rank = min(due)
            instant = max(instant, self.now)
            self.now = instant
            if rank == 0:
                for flag in self.clock.check_flags(instant):
                    self._on_flag(flag.side, flag.t_ms, flag.moves_required_met, out)
            elif rank == 1:
                self._close_window(instant, out)
            else:
                self._low_time_warning(instant, out)

    def _window_end(self) -> int | None:
        return self.pending.ends_ms if isinstance(self.pending, PendingCorrection) else None

    def _flag_instant(self) -> int | None:
        if self.result is not None:
            return None
        return self.clock.next_event_ms(self.now)

    def _warning_instant(self) -> int | None:
        if not self.warn_low_time or self.result is not None:
            return None
        if self.clock.running != self.blind or self.clock.paused:
            return None
        left = self.clock.remaining_ms(self.blind, self.now)
        pending = [ms for ms in self._thresholds_ms if ms not in self._warned]
        if not pending or left <= 0:
            return None
        below = [ms for ms in pending if left <= ms]
        if below:
            return self.now
        return self.now + left - max(pending)

    def _low_time_warning(self, t: int, out: Outputs) -> None:
        left = self.clock.remaining_ms(self.blind, t)
        crossed = [ms for ms in self._thresholds_ms if ms not in self._warned and left <= ms]
        if not crossed:
            return  # delay mode: the main time had not started to run yet
        self._warned.update(crossed)
        self.tell(out, t, "time.low", time=duration_words(left, self.language))

    def _on_flag(self, side: Side, t: int, control_met: bool, out: Outputs) -> None:
        out.add(Flag(t, side))
        if control_met:
            # 6.4: the counter shows the period's moves completed, so the flag does not lose.
            self.say_all(out, t, "flag.control_met", side=side)
            return
        if self.laws.flag_needs_claim(self.control):
            if self.clock.is_down(other(side)):
                # 2001 B.8: both flags have fallen, so the game is drawn.
                self.say_all(out, t, "flag.both_fallen")
                self.end_game(t, "1/2-1/2", "both_flags", out)
                return
            if side == self.blind:
                # 2001 B.6: nobody calls the flag; it counts when the opponent claims it. The
                # blind player's assistant claims the opponent's flag at once (F.2.9.e).
                self.log.append(LogEntry(t, "flag_not_called", side))
                self.to_arbiter(out, t, "arbiter.flag_not_called", side=side)
                return
        self.flag_result(side, t, out)

    # -- the blind player's words -----------------------------------------------------------

    def _on_speech(self, event: BlindSpeech, t: int, out: Outputs) -> None:
        # An unsure "ja" is remembered for the very next utterance only (revision 20): in
        # noise, noise heard as "ja" twice with a "Nicht verstanden" between played the move.
        self._doubted = self.yes_doubted
        if self.revision >= 20:
            self.yes_doubted = None
        floor = self.settings.matching.min_confidence
        heard = [
            Hypothesis(self.vocab.normalize(text), confidence)
            for text, confidence in event.nbest
            if confidence >= floor
        ]
        heard = [h for h in heard if h.words]
        if not heard:
            if not self._explain_guess(event.guess, t, out):
                self._refuse_blind(None, t, out)  # as when the words fit no move
            return
        picked = self._picked_by_difference(heard[0].words)
        if picked is not None:
            self._chosen(picked, heard[0], t, out)
            return
        numbers = self._numbers_choose()
        command = read_command(heard[0].words, self.vocab, numbers=numbers)
        if command is not None:
            if self._waits_for_the_answer(command, t, out):
                return
            if self._draw_unsure(command, heard[0], t, out):
                return
            if not self._answer_unsure(command, heard[0], t, out):
                self._command(command, t, out)
            return
        if self.result is not None:
            self.tell(out, t, "game.over", result=self.result_words(self.result))
            return
        if isinstance(self.pending, PendingCorrection):
            self.tell(out, t, "correction.move_pending", move=self.pending.spoken)
            return
        if self.clock.paused:
            fuzzy = self._fuzzy_command(heard, numbers)
            if fuzzy is not None:
                self._command(fuzzy, t, out)
            elif self._names_a_move(heard[0]):
                self._tell_paused(t, out)
            else:
                self._refuse_blind(None, t, out)
            return
        if not self.hears_moves():
            fuzzy = self._fuzzy_command(heard, numbers)
            if fuzzy is not None:
                self._command(fuzzy, t, out)
            elif self._names_a_move(heard[0]):
                self.tell(out, t, "turn.not_yours")
            else:  # a request misheard must not sound as if none could be asked now (D.2.10.4)
                self._refuse_blind(None, t, out)
            return
        answer = self._promotion_answer(heard[0])
        if answer is None and self.opponent_speaks and self.pending is not None:
            # One microphone for both players: words said while a move is asked back may be
            # the opponent's reply, said as if the move were made. They never replace the
            # question (as they do when only the player speaks); the question is asked again.
            # (Also "Wiederholung oder Ihr Zug?": the same words again may be the repeater's;
            # "Zug" or "Wiederholung" answers it.)
            self.tell_text(out, t, self._pending_question())
            return
        if answer is not None:
            if is_underpromotion(answer):  # Art. 4.4.4, as for a promotion said whole
                self._ask_confirm(answer, t, out)
            else:
                self._chosen(answer, heard[0], t, out)
            return
        stripped = self._offer_said_with_move(heard)
        if stripped is not None:
            self._move_with_offer(stripped, numbers, t, out)
        else:
            self._move_words(heard, numbers, t, out)

    def _move_words(self, heard: list[Hypothesis], numbers: bool, t: int, out: Outputs) -> None:
        """Words that are no command, on the player's move: a move played, asked back or
        offered among others, or why not."""
        result = self.match(heard)
        if self._repeat_back(heard, result, t, out):
            return
        if result.decision == Decision.ACCEPT and result.move is not None:
            if is_underpromotion(result.move):
                self._ask_confirm(result.move, t, out)
            else:
                self._propose(result.move, t, out)
            return
        fuzzy = self._fuzzy_command(heard, numbers, below=self._best_cost(result))
        if fuzzy is not None:
            self._command(fuzzy, t, out)
            return
        if not self._ask_promotion(heard[0].words, result, t, out):
            self._undecided(result, t, out)

    def _offer_said_with_move(self, heard: list[Hypothesis]) -> list[Hypothesis] | None:
        """ "Eva vier Remis": a move with a draw offer after it, as 9.1.2.2 has it made (the
        move, then the offer): the words without "Remis" (None for any other words). It was
        dropped without a word, and the move asked back for the extra word (a new user's
        trial). Revision 21."""
        words = heard[0].words
        if not self.holds_offers() or len(words) < 2 or words[-1:] not in self._draw_words():
            return None
        return [Hypothesis(words[:-1], heard[0].confidence), *heard[1:]]

    def _move_with_offer(
        self, heard: list[Hypothesis], numbers: bool, t: int, out: Outputs
    ) -> None:
        """The move said with "Remis" after it: the offer goes with that move only. Made at
        once, the offer follows it (:meth:`_offer_held`); asked back or offered among others,
        it is held for the answer ("nein" drops it with the question); refused or not
        understood, no offer is held (a review: noise ending in "Remis" left an offer for
        the next move)."""
        if self.offer_too_early(t, out):
            self._move_words(heard, numbers, t, out)
            return
        held, before, made = self.offer_with_move, self.pending, len(self.sheet.entries)
        self.offer_with_move = True
        self._move_words(heard, numbers, t, out)
        if len(self.sheet.entries) > made:
            return  # played at once: the offer followed it
        if self.pending is not before and isinstance(self.pending, _MOVE_QUESTIONS):
            self.tell(out, t, "draw.offer_with_next_move")
            return
        self.offer_with_move = held

    def _draw_words(self) -> tuple[Phrase, ...]:
        return tuple(p for p in self.vocab.commands.get("draw", ()) if len(p) == 1)

    def _offer_held(self, t: int, out: Outputs) -> None:
        """The player's move is made: the draw offer said before it or with it follows
        (9.1.2.2). Against the computer, whose reply comes at once, this is the only way to
        offer a draw at all."""
        if self.offer_with_move:
            self.offer_with_move = False
            if self.result is None:
                self.draws.offer(self.blind, t, out)

    def _explain_guess(self, guess: str, t: int, out: Outputs) -> bool:
        """Speech that fitted no phrase of the position, whose free transcription names a move
        that is illegal here: say why ("Der König steht im Schach", 6.5 of docs/rules.md)
        rather than "Nicht verstanden". The recogniser listens for legal moves only, so an
        illegal move said clearly was never explained by voice, though typed it was. The guess
        never makes a move or a command; a guess that names a legal move or nothing clear stays
        "Nicht verstanden", and it is no illegal attempt (7.5): the player may have said
        something else."""
        if self.pending is not None or self.clock.paused or not self.hears_moves():
            return False
        refusal = guess_refusal(self.board, guess, self.vocab, self.settings.matching)
        if refusal is None:
            return False
        self.emit(out, Say(t, refusal.text(self.language), "blind"))
        out.add(Refused(t, self.blind, refusal.reason))
        return True

    def _surely(self, top: Hypothesis) -> bool:
        """Heard as surely as a move played at once (``[matching] accept_confidence``): what an
        answer that makes a move, or resigns, must reach."""
        return top.confidence >= self.settings.matching.accept_confidence

    def _chosen(self, move: chess.Move, top: Hypothesis, t: int, out: Outputs) -> None:
        """A move picked from those offered, by the word that tells it apart or the promotion
        piece: played when the pick was heard surely, otherwise asked back by name (see
        :meth:`_answer_unsure`)."""
        if self._surely(top):
            self._accept(move, t, out)
        else:
            self._ask_confirm(move, t, out)

    def _waits_for_the_answer(self, command: Command, t: int, out: Outputs) -> bool:
        """One microphone for both players (:attr:`opponent_speaks`): while a move is asked
        back, "Aufgabe" or "Remis" may be the other player's, said as if the move were made;
        a resignation or an offer for the wrong side must not come of it (a player's trial:
        Black's "Aufgabe" during White's question resigned for White). The question comes
        again; answers and requests are taken as usual."""
        if not self.opponent_speaks or self.pending is None:
            return False
        if isinstance(self.pending, PendingCorrection):
            return False  # the mover's own move in its window: an offer with it is theirs
        if command.name not in ("resign", "draw"):
            return False
        self.tell_text(out, t, self._pending_question())
        return True

    def _draw_unsure(self, command: Command, top: Hypothesis, t: int, out: Outputs) -> bool:
        """ "Remis" heard unsurely where it would end the game (an offer standing to accept, or
        a valid claim): nothing happens and the player is told, as for an unsure "ja". A word
        at 0.05 confidence accepted a draw (a player's trial); a move once heard unsurely is
        asked back, and a game's end must not be easier to cause than a move."""
        if command.name != "draw" or self._surely(top) or self.revision < 19:
            return False
        side = self._draw_side()
        # A claim with its intended move (9.2.1.1) makes the move if the claim fails, so it
        # must be heard as surely as a move played at once.
        ends = bool(command.rest) or (
            (self.offer is not None and self.offer.by != side)
            or (self.board.turn == color_of(side) and self.draws.claimable(self.board))
        )
        if ends:
            self._refuse_blind(None, t, out)
        return ends

    def _answer_unsure(self, command: Command, top: Hypothesis, t: int, out: Outputs) -> bool:
        """Whether an answer that makes a move or resigns, heard unsurely, was dealt with here.

        A number that picks an offered move, or "Zug" to "Wiederholung oder Ihr Zug?", has its
        move asked back by name ("Eva vier?"): the moves were offered because the recogniser
        could not tell them apart, and a number it is unsure of must not pick one silently (in
        a reverberant hall 5 of the report voices' 18 numbers were played as another, each a
        "drei" heard as "zwei"; ``python -m benchmarks answers``). A "yes" is asked again
        (:meth:`_yes_unsure`). Heard surely, the command goes its usual way."""
        if self._surely(top):
            return False
        pending = self.pending
        move = None
        if command.name == "my_move" and isinstance(pending, PendingRepeatOrMove):
            move = pending.move
        elif command.name == "choice" and isinstance(pending, PendingChoice):
            count = command.count
            if count is not None and 1 <= count <= len(pending.moves):
                move = pending.moves[count - 1]
        if move is not None:
            self._ask_confirm(move, t, out)
            return True
        return command.name == "yes" and self._yes_unsure(t, out)

    def _yes_unsure(self, t: int, out: Outputs) -> bool:
        """A "yes" heard unsurely that would play the move asked back, or resign: the question
        is asked again with how to answer it, and nothing happens. The move was asked back
        because the recogniser was unsure of it: a "yes" it is just as unsure of (someone
        nearby talking) must not play it after all (a move once made stands, Art. 4.7), nor
        end the game.

        A second unsure "yes" to the same question answers it: speech too faint for the
        recogniser to be sure of anything (it asks back every move then) must not lock the
        player out, and two mishearings in a row that both come out as "yes" are far rarer
        than one."""
        pending = self.pending
        doubted = self._doubted  # the utterance before this one was an unsure "ja" to it
        match pending:
            case PendingConfirm(spoken=spoken) if doubted is not pending:
                self.tell(out, t, "yes_unsure")
                self.tell(out, t, "help.confirm", move=spoken)
            case PendingResign() if doubted is not pending:
                self.tell(out, t, "yes_unsure")
                self.tell(out, t, "help.resign")
            case PendingDrawAccept() if doubted is not pending:
                self.tell(out, t, "yes_unsure")
                self.tell_text(out, t, self._pending_question())
            case _:
                return False
        self.yes_doubted = pending
        return True

    def _ask_promotion(self, words: Phrase, result: MatchResult, t: int, out: Outputs) -> bool:
        """2001 (F.2.1 asks no announcement of the piece): "Eva acht" is asked about, not
        refused; each piece word added must name exactly one legal move."""
        refusal = result.refusal
        if self.laws.promotion_must_be_announced or refusal is None:
            return False
        if refusal.reason != "which_piece":
            return False
        moves = []
        for piece in _PROMOTION_PIECES:
            said = [Hypothesis((*words, self.vocab.piece_word(piece)))]
            found = self.match(said)
            if found.decision != Decision.ACCEPT or found.move is None:
                return False
            moves.append(found.move)
        self.pending = PendingPromotion(tuple(moves), self.vocab.display(words))
        self.tell(out, t, "promotion.question", **self._promotion_words())
        return True

    def _promotion_words(self) -> dict[str, str]:
        assert isinstance(self.pending, PendingPromotion)
        names = ("queen", "rook", "bishop", "knight")
        pieces = {
            name: self.vocab.display((self.vocab.piece_word(piece),))
            for name, piece in zip(names, _PROMOTION_PIECES, strict=True)
        }
        return {"move": self.pending.spoken, **pieces}

    def _promotion_answer(self, top: Hypothesis) -> chess.Move | None:
        """The piece word that answers the 2001 promotion question, as the move it makes: from
        the best hypothesis only (a piece word among the unlikelier ones is not what was said).
        Like every answer that makes a move it goes through :meth:`_chosen`, and an
        underpromotion is asked back as when said whole."""
        if not isinstance(self.pending, PendingPromotion):
            return None
        for move in self.pending.moves:
            assert move.promotion is not None
            if top.words == (self.vocab.piece_word(move.promotion),):
                return move
        return None

    def _best_cost(self, result: MatchResult) -> float:
        return result.candidates[0].cost if result.candidates else float("inf")

    def _names_a_move(self, top: Hypothesis) -> bool:
        """Words of a move (a file, a rank, a piece, "schlägt", castling): a move said when none
        is taken is answered with why ("Ihr Gegner ist am Zug"); anything else is not
        understood."""
        return not self.vocab.move_words().isdisjoint(top.words)

    def _fuzzy_command(
        self, heard: Sequence[Hypothesis], numbers: bool, below: float = float("inf")
    ) -> Command | None:
        """A request word heard slightly wrong ("Zeid" for "Zeit"), if it fits better than any
        move. Only requests: a word that changes the game (ja, nein, Remis, Aufgabe, Korrektur)
        must be heard exactly, because answering it wrongly cannot be undone."""
        table = command_table(self.vocab, numbers=numbers)
        matching = self.settings.matching
        limit = (matching.accept_cost + matching.confirm_cost) / 2
        ranked = rank_phrases(heard, table, bound=limit + matching.ambiguity_margin)
        if not ranked:
            return None
        command, cost, _ = ranked[0]
        if command.name not in REQUESTS or cost > limit or cost >= below:
            return None
        rival = ranked[1][1] if len(ranked) > 1 else float("inf")
        if rival <= limit and rival - cost < matching.ambiguity_margin:
            return None  # a rival too far to be taken itself ("Zug" for "Zeid") is none
        return command

    def _propose(self, move: chess.Move, t: int, out: Outputs) -> None:
        """A move that fits clearly: made (or asked back when every move is to be confirmed)."""
        if self.always_confirm:
            self._ask_confirm(move, t, out)
        else:
            self._accept(move, t, out)

    def _ask_confirm(self, move: chess.Move, t: int, out: Outputs) -> None:
        spoken = render_move(self.board, move, self.vocab)
        self.pending = PendingConfirm(move, spoken)
        self.tell(out, t, "confirm.question", move=spoken)

    def _undecided(self, result: MatchResult, t: int, out: Outputs) -> None:
        if result.decision == Decision.CONFIRM and result.move is not None:
            self._ask_confirm(result.move, t, out)
        elif result.decision == Decision.CHOOSE and result.candidates:
            moves = tuple(c.move for c in result.candidates)
            spoken = tuple(render_move(self.board, m, self.vocab) for m in moves)
            difference = one_word_difference([self.vocab.normalize(s) for s in spoken])
            self.pending = PendingChoice(moves, spoken, difference)
            if difference is not None:
                self.tell_text(out, t, self._difference_question())
            else:
                self.tell(out, t, "choose.question", options=self._options(spoken))
        else:
            self._refuse_blind(result.refusal, t, out)

    def _picked_by_difference(self, words: Phrase) -> chess.Move | None:
        """ "sechs" alone, answering "Springer Felix fünf oder sechs?"."""
        pending = self.pending
        if not isinstance(pending, PendingChoice) or pending.difference is None:
            return None
        if len(words) != 1 or words[0] not in pending.difference:
            return None
        return pending.moves[pending.difference.index(words[0])]

    def _numbers_choose(self) -> bool:
        """Whether a number picks a candidate now. Not when the candidates differ in a number
        ("Turm Anna eins oder zwei?"): "eins" is then the rank, never the first candidate."""
        pending = self.pending
        if not isinstance(pending, PendingChoice):
            return False
        return not set(pending.difference or ()) & set(self.vocab.number_words)

    def _difference_question(self) -> str:
        """ "Springer Felix fünf oder sechs?": the shared words once, the two that differ."""
        assert isinstance(self.pending, PendingChoice) and self.pending.difference is not None
        first, second = (self.vocab.normalize(s) for s in self.pending.spoken[:2])
        at = next(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
        before = self.vocab.display(first[:at])
        after = self.vocab.display(first[at + 1 :])
        return game_message(
            self.language,
            "choose.difference",
            before=f"{before} " if before else "",
            first=self.vocab.display(first[at : at + 1]),
            second=self.vocab.display(second[at : at + 1]),
            after=f" {after}" if after else "",
        )

    def _options(self, spoken: Sequence[str]) -> str:
        items = [
            game_message(
                self.language,
                "choose.item",
                number=self.vocab.number_words[i].capitalize(),
                move=text,
            )
            for i, text in enumerate(spoken)
        ]
        return game_message(self.language, "choose.separator").join(items)

    def _refuse_blind(self, refusal: Refusal | None, t: int, out: Outputs) -> None:
        """Nothing is made, no clock changes; one sentence says why (docs/rules.md §6.5)."""
        if refusal is None:
            self.tell(out, t, "not_understood")
            out.add(Refused(t, self.blind, "not_understood"))
            return
        text = refusal.text(self.language)
        self.emit(out, Say(t, text, "blind"))
        out.add(Refused(t, self.blind, refusal.reason))
        if refusal.reason in NOT_AN_ATTEMPT:
            return
        mover = self.mover()
        self.attempts[mover] += 1
        if self.profile == "tournament":
            entry = LogEntry(t, "illegal_attempt", mover, text)
            self.log.append(entry)
            self.to_arbiter(
                out,
                t,
                "arbiter.attempt_logged",
                side=mover,
                count=self.attempts[mover],
                what=text,
            )

    def _repeat_back(
        self, heard: Sequence[Hypothesis], result: MatchResult, t: int, out: Outputs
    ) -> bool:
        """The blind player repeated the opponent's move: "richtig", or what it really was.

        Only the first utterance after the opponent's move is checked. When the exact words of
        that move also name a legal move of one's own (a recapture on the same square), the
        player is asked "Wiederholung oder Ihr Zug?": a repeat must never become a move, and
        a move must not wait, unmade, while the clock runs. Words of another move of the
        opponent count as a (wrong) repeat only when they fit better than any own move.
        """
        if self.expect_repeat is None or not (self.repeat_back or self.opponent_speaks):
            return False
        before = self._board_before_last()
        limit = self.settings.matching.accept_cost
        if self.opponent_speaks:
            limit = max(limit, _SHORT_REPEAT)
        ranked = rank_phrases(heard, phrase_table(before, self.vocab).phrases, self.vocab, limit)
        if not ranked:
            return False
        repeated, cost, _ = ranked[0]
        actual = self.expect_repeat
        own = self._best_cost(result)
        if self.opponent_speaks:
            # One microphone: words that fit the move just made at all are taken for its
            # repeat, even where they fit another move of that side as well ("Turm David eins"
            # after Rad1, with a rook on f1 too): Black's Rxd1 was played from White's short
            # repeat (a player's trial).
            fits = [c for move, c, _ in ranked if move == actual]
            if fits:
                repeated, cost, own = actual, min(fits), max(own, min(fits))
        if not (cost < own or (repeated == actual and cost <= own)):
            return False
        if not self.opponent_speaks:  # one microphone: a repeat may come again
            self.expect_repeat = None
        if repeated == actual and result.candidates and own <= cost:
            # The same words are a move of one's own too (a recapture on the same square):
            # which was meant cannot be told from the words, so the player is asked.
            move = result.candidates[0].move
            self.pending = PendingRepeatOrMove(move, render_move(self.board, move, self.vocab))
            self.tell(out, t, "repeat_or_move.question")
        elif repeated == actual:
            self.tell(out, t, "repeat_back.right")
        else:
            self.tell(
                out,
                t,
                "repeat_back.wrong",
                heard=render_move(before, repeated, self.vocab),
                move=render_move(before, actual, self.vocab),
            )
        return True

    def _board_before_last(self) -> chess.Board:
        before = self.board.copy(stack=False)
        if self.board.move_stack:
            before = self.board.copy()
            before.pop()
        return before

    # -- making moves ---------------------------------------------------------------------

    def _accept(self, move: chess.Move, t: int, out: Outputs) -> None:
        """The blind player's move is accepted: made now, or when the correction window ends."""
        if self.clock.paused:
            self._tell_paused(t, out)  # the question stays open until the clock runs again
            return
        self.pending = None
        if self.offer_with_move and self._claimed_with(move, t, out):
            return
        if self.correction_ms > 0:
            spoken = render_move(self.board, move, self.vocab)
            self.pending = PendingCorrection(move, spoken, t + self.correction_ms)
            self.emit(out, Say(t, spoken, "blind"))
            return
        self.make(move, self.mover(), t, out, announce_to="blind")
        self._offer_held(t, out)

    def _claimed_with(self, move: chess.Move, t: int, out: Outputs) -> bool:
        """ "Remis" said with ``move`` where the position, or the move, repeats a position a
        third time (or completes fifty moves): the player's claim (9.2.1, 9.3.1), with the
        intended move when the move makes it right; not an offer the opponent could decline
        (a review). False, and nothing done, where no claim would be right."""
        now = self.draws.claimable(self.board)
        if not now and move not in self.draws.claim_moves(self.board):
            return False
        self.offer_with_move = False
        self.draws.claim(self.blind, None if now else move, t, out)
        return True

    def _window_again(self, t: int) -> None:
        """The resume has been said (:class:`ResumeSaid`): a correction window open at the
        stop runs again in full from now, and its move is said as it is made (D.2.8)."""
        if isinstance(self.pending, PendingCorrection):
            self.pending = replace(self.pending, ends_ms=t + self.correction_ms)
            self.window_resumed = self.pending

    def _close_window(self, t: int, out: Outputs) -> None:
        """The correction window ended: the move is made and the opponent's clock starts."""
        pending = self.pending
        assert isinstance(pending, PendingCorrection)
        self.pending = None
        if pending is self.window_resumed:  # said before a stop: said again as it is made
            self.window_resumed = None
            self.make(pending.move, self.mover(), t, out, announce_to="blind")
        else:
            self.make(pending.move, self.mover(), t, out, announce_to=None, said=True)
        self._offer_held(t, out)

    # -- the sighted player -----------------------------------------------------------------

    def _on_sighted_move(self, text: str, t: int, out: Outputs) -> None:
        move = self._sighted_move_now(text, t, out, attempt=True)
        if move is not None:
            self.make(move, self.sighted, t, out, announce_to=None)

    def _on_sighted_claim(self, text: str, t: int, out: Outputs) -> None:
        """A draw claimed with the intended move (9.2.1.1, 9.3.1.1): that move must be one
        the sighted player could make now; refused as a move would be, and not counted as an
        attempt (nothing was moved). Right or wrong, :meth:`Draws.claim` decides (9.5)."""
        move = self._sighted_move_now(text, t, out, attempt=False)
        if move is not None:
            self.draws.claim(self.sighted, move, t, out)

    def _sighted_move_now(
        self, text: str, t: int, out: Outputs, *, attempt: bool
    ) -> chess.Move | None:
        """The sighted player's move if it can be made now; otherwise None, with the reason
        said to them and, for a move tried on the board (``attempt``), counted (7.5.1)."""
        refusal = self._sighted_refusal(text)
        if refusal is None:
            return self._parse_sighted(text)
        reason, sentence = refusal
        out.add(Refused(t, self.sighted, reason))
        self.emit(out, Say(t, sentence, "sighted"))
        if attempt and reason not in self._not_attempts():
            self.attempts[self.sighted] += 1
            if self.profile == "tournament":
                self.log.append(LogEntry(t, "illegal_attempt", self.sighted, text))
        return None

    def _parse_sighted(self, text: str) -> chess.Move | None:
        written = text.strip()
        try:
            move = chess.Move.from_uci(written.lower())
        except ValueError:
            move = None
        if move is not None:
            return move if move in self.board.legal_moves else None
        try:
            return self.board.parse_san(written)
        except ValueError:
            return None

    def _sighted_refusal(self, text: str) -> tuple[str, str] | None:
        """Why the sighted player's move cannot be made, as (reason, sentence), or None."""
        language = self.opponent_language
        if self.result is not None:
            return "game_over", game_message(
                language, "game.over", result=self.result_words(self.result, language)
            )
        if self.board.turn != color_of(self.sighted):
            return "not_your_turn", game_message(language, "sighted.not_your_turn")
        if self.clock.paused:
            return "paused", game_message(language, self.laws.wording("sighted.paused"))
        if self._parse_sighted(text) is not None:
            return None
        written = text.strip()
        try:
            move = chess.Move.from_uci(written.lower())
        except ValueError:
            move = None
        if move is None:
            try:
                self.board.parse_san(written)
            except chess.AmbiguousMoveError:
                return "ambiguous", game_message(language, "sighted.ambiguous", move=written)
            except chess.IllegalMoveError:
                promoted = self._promotion_without_piece(written)
                if promoted is not None:
                    return self._which_piece(promoted)
                return "illegal", game_message(language, "sighted.illegal", move=written)
            except ValueError:
                return "unreadable", game_message(language, "sighted.unreadable", move=written)
            return "illegal", game_message(language, "sighted.illegal", move=written)
        intent = MoveIntent(
            from_file=chess.square_file(move.from_square),
            from_rank=chess.square_rank(move.from_square),
            to_square=move.to_square,
            promotion=move.promotion,
        )
        try:
            refusal = explain_refusal(self.board, intent, self.vocab)
        except ValueError:
            return "illegal", game_message(language, "sighted.illegal", move=written)
        if refusal.reason == "which_piece":  # "Welche Figur?" asks the blind player to say it
            return self._which_piece(move.to_square)
        return refusal.reason, refusal.algebraic().text(language)

    def _not_attempts(self) -> tuple[str, ...]:
        """Refusals of the sighted player's input that are no attempt at an illegal move: input
        at the wrong time or unreadable, and (revision 21) a promotion sent without its piece,
        which the page asks to complete, as "Welche Figur?" is for the blind player
        (:data:`voice.words.matcher.NOT_AN_ATTEMPT`). Counted before, it stood on the
        arbiter's panel against the player."""
        wrong_time = ("not_your_turn", "game_over", "paused", "unreadable")
        return (*wrong_time, "which_piece") if self.revision >= 21 else wrong_time

    def _which_piece(self, square: chess.Square) -> tuple[str, str]:
        """A pawn move to the last rank sent without its piece (the page's picker sends one; a
        script or another client may not): the sighted player is told to choose the piece,
        in their language and the board's notation (3.7.5.1: the new piece is part of the
        move), not asked "Which piece?" as the blind player is, nor told the move is illegal."""
        sentence = game_message(
            self.opponent_language, "sighted.which_piece", square=chess.square_name(square)
        )
        return "which_piece", sentence

    def _promotion_without_piece(self, written: str) -> chess.Square | None:
        """Where a pawn move written without its promotion piece ("e8", "exd8+") goes, when
        naming a piece would make it legal; None for any other illegal move."""
        try:
            move = self.board.parse_san(written.rstrip("+#") + "=Q")
        except ValueError:
            return None
        return move.to_square if move.promotion else None

    # -- commands ---------------------------------------------------------------------------

    def _on_key(self, key: str, t: int, out: Outputs) -> None:
        if key.startswith("sighted:"):
            self.draws.sighted_key(key, t, out)
            return
        if key in self.vocab.commands or key in ("choice",) or key in EXPLORE_KEYS:
            self._command(Command(key), t, out)
            return
        self.tell(out, t, "key.unknown", name=key)

    def _command(self, command: Command, t: int, out: Outputs) -> None:
        name = command.name
        if self.result is not None and name not in REQUESTS:
            self.tell(out, t, "game.over", result=self.result_words(self.result))
            return
        if name in EXPLORE_COMMANDS or name in EXPLORE_KEYS:
            self.requests.explore(command, t, out)
            return
        self._commands[name](command, t, out)

    def _cmd_yes(self, command: Command, t: int, out: Outputs) -> None:
        match self.pending:
            case PendingConfirm(move=move):
                self._accept(move, t, out)
            case PendingResign(side=side):
                self.pending = None
                self.draws.resign(side or self.blind, t, out)
            case PendingDrawAccept(side=side):
                self.pending = None
                self.draws.draw(side, t, out)
            case PendingChoice() | PendingRepeatOrMove() | PendingPromotion():
                # "ja" answers none of these questions: say what does, as "Hilfe" does, not
                # that there is no question.
                self._cmd_help(command, t, out)
            case _ if self.offer is not None and self.offer.by == self.sighted:
                self.tell(out, t, "draw.how_to_answer")
            case _:
                self.tell(out, t, "nothing_to_answer")

    def _discard_question(self, t: int, out: Outputs) -> None:
        """ "nein" or "Korrektur" to a question about the player's own move: it is dropped,
        with a draw offer said with the move."""
        self.pending = None
        self.offer_with_move = False
        self.tell(out, t, "confirm.discarded")

    def _cmd_no(self, command: Command, t: int, out: Outputs) -> None:
        match self.pending:
            case PendingConfirm() | PendingChoice() | PendingRepeatOrMove() | PendingPromotion():
                self._discard_question(t, out)
            case PendingResign():
                self.pending = None
                self.tell(out, t, "resign.cancelled")
            case PendingDrawAccept(claim=True):
                self.pending = None
                self.tell(out, t, "confirm.discarded")  # no offer stood: nothing declined
            case PendingDrawAccept(side=side):
                self.pending = None
                self.offer = None
                self.say_all(out, t, "draw.declined", by=side)
            case _ if self.offer is not None and self.offer.by == self.sighted:
                self.offer = None
                self.say_all(out, t, "draw.declined", by=self.blind)
            case _:
                self.tell(out, t, "nothing_to_answer")

    def _cmd_repetition(self, command: Command, t: int, out: Outputs) -> None:
        if isinstance(self.pending, PendingRepeatOrMove):
            self.pending = None
            self.tell(out, t, "repeat_back.right")
        else:
            self.tell(out, t, "nothing_to_answer")

    def _cmd_my_move(self, command: Command, t: int, out: Outputs) -> None:
        pending = self.pending
        if isinstance(pending, PendingRepeatOrMove):
            self.pending = None
            self._propose(pending.move, t, out)
        else:
            self.tell(out, t, "nothing_to_answer")

    def _cmd_choice(self, command: Command, t: int, out: Outputs) -> None:
        pending = self.pending
        if not isinstance(pending, PendingChoice) or command.count is None:
            self.tell(out, t, "nothing_to_answer")
            return
        if pending.difference is not None:
            # No numbers were offered: "zwei" after "Springer Bella oder Felix David zwei?" is
            # more likely the rank said again than the second move; the question again.
            self.tell_text(out, t, self._difference_question())
            return
        if not 1 <= command.count <= len(pending.moves):
            last = self.vocab.number_words[len(pending.moves) - 1]
            self.tell(out, t, "choose.out_of_range", last=last)
            return
        self._accept(pending.moves[command.count - 1], t, out)

    def _cmd_correction(self, command: Command, t: int, out: Outputs) -> None:
        match self.pending:
            case PendingCorrection():
                # D.2.8: corrected before the opponent's clock started; nothing was made.
                self.pending = None
                self.offer_with_move = False  # said with the move taken back
                self.tell(out, t, "correction.done")
            case PendingConfirm() | PendingChoice() | PendingRepeatOrMove() | PendingPromotion():
                self._discard_question(t, out)
            case _ if self.sheet.entries and (
                self.sheet.entries[-1].by == self.blind or self.opponent_speaks
            ):
                self.tell(out, t, "correction.too_late")
            case _ if any(entry.by == self.blind for entry in self.sheet.entries):
                # The opponent has replied (the computer does at once): the move stands
                # (D.2.8). "Nothing to correct" was said of the move the player meant. At a
                # tournament board the arbiter can still take moves back; at home nobody is
                # there to call.
                key = "correction.replied" if self.profile == "tournament" else "correction.made"
                self.tell(out, t, key)
            case _:
                self.tell(out, t, "correction.nothing")

    def _cmd_help(self, command: Command, t: int, out: Outputs) -> None:
        allowed = [name for name in _HELP_COMMANDS if self.explorer.refusal(name, "en") is None]
        words = ann.command_list(self.vocab, allowed, self.language)
        match self.pending:
            case PendingConfirm(spoken=spoken):
                self.tell(out, t, "help.confirm", move=spoken)
            case PendingChoice(difference=(_, _)):
                self.tell_text(out, t, self._difference_question())
            case PendingChoice(moves=moves):
                last = self.vocab.number_words[len(moves) - 1]
                self.tell(out, t, "help.choose", last=last)
            case PendingDrawAccept():
                self.tell_text(out, t, self._pending_question())
            case PendingCorrection():
                self.tell(out, t, "help.correction")
            case PendingResign():
                self.tell(out, t, "help.resign")
            case PendingRepeatOrMove():
                self.tell(out, t, "repeat_or_move.question")
            case PendingPromotion():
                self.tell(out, t, "promotion.question", **self._promotion_words())
            case _ if self.result is not None:
                self._tell_help(out, t, "help.over", words)
            case _ if not self.hears_moves():
                self._tell_help(out, t, "help.wait", words)
            case _ if self.board.turn != color_of(self.blind):  # the opponent's, said here
                self._tell_help(out, t, "help.wait", words)
                self.tell(out, t, "opponent_speaks")
            case _:
                self._tell_help(out, t, "help.move", words)

    def _tell_help(self, out: Outputs, t: int, key: str, words: str) -> None:
        """The help sentence, then the requests that explore the board (those the profile
        answers), in one announcement."""
        text = game_message(self.language, key, **self.command_words, commands=words)
        explore = self.explorer.help(self.vocab, self.language)
        self.tell_text(out, t, f"{text} {explore}" if explore else text)

    def _cmd_stop(self, command: Command, t: int, out: Outputs) -> None:
        """Stopping the speech now playing is the speech adapter's job; nothing changes here."""

    def _cmd_pause(self, command: Command, t: int, out: Outputs) -> None:
        """6.11: a player stops the clocks to call the arbiter, who starts them again. At home
        there is no arbiter (no one at all in a game against the computer or without the web
        board), so there "Pause" also starts the clock again: one stray word or key must not
        end a game for good."""
        if self.restarts_at_home() and self.clock.paused and self.result is None:
            self.clock.resume(t)
            self.stopped_by = None
            self.log.append(LogEntry(t, "resume", self.blind, "the blind player, at home"))
            self.say_all(out, t, "resumed_home")
            self._remind_pending(t, out)
            return
        self._cmd_arbiter(command, t, out)

    def _cmd_arbiter(self, command: Command, t: int, out: Outputs) -> None:
        self.draws.call_arbiter(self.blind, t, out)

    def _tell_paused(self, t: int, out: Outputs) -> None:
        """Why nothing happens: the clock stands, and who starts it again (at home, the
        player's own "Pause")."""
        if self.restarts_at_home():
            self.tell(out, t, "paused_home")
        else:
            self.tell(out, t, "paused")

    def _cmd_touched(self, command: Command, t: int, out: Outputs) -> None:
        """D.2.10.5: the blind player reports that the sighted player touched a piece. Logged
        for the arbiter, who rules on it; the game and the clocks go on unchanged."""
        self.log.append(LogEntry(t, "touched", self.sighted, "reported by the blind player"))
        self.to_arbiter(out, t, "arbiter.touched_reported", side=self.sighted)
        self.tell(out, t, "touched.logged")

    def _cmd_draw(self, command: Command, t: int, out: Outputs) -> None:
        self._finish_window(t, out)
        if command.rest:
            if not self._offered_with(command.rest, t, out):
                self.draws.claim_with_move(command.rest, t, out)
        elif self.opponent_speaks and self.offer is not None:
            self._open_question(PendingDrawAccept(other(self.offer.by)), t, out)
        elif self.opponent_speaks and self.draws.claimable(self.board):
            # A valid claim (9.2, 9.3) is the side to move's: asked of it by name, and "ja"
            # claims (the claim with its move is not in the recogniser's phrases).
            self._open_question(PendingDrawAccept(side_of(self.board.turn), claim=True), t, out)
        else:
            self.draws.draw(self._draw_side(), t, out)

    def _offered_with(self, rest: Phrase, t: int, out: Outputs) -> bool:
        """ "Remis Springer Felix drei" at home where no claim would be right (neither the
        position nor that move repeats a position a third time or completes fifty moves): the
        offer made with the move (9.1.2.2), as "Springer Felix drei Remis" is. Taken as a
        claim (9.2.1.1), it cost the player the penalty time at once (9.5.3), for words a home
        player types to offer a draw with the move (a review). At a tournament board the words
        stay the claim, for the arbiter to decide (the program never penalises there); a claim
        that is right is made as before. Revision 22."""
        if self.revision < 22 or self.profile != "home" or not self.holds_offers():
            return False
        if not self.hears_moves() or self.draws.claimable(self.board):
            return False
        heard = [Hypothesis(rest)]
        named = self.match(heard)
        if named.move is not None and named.move in self.draws.claim_moves(self.board):
            return False
        self._move_with_offer(heard, False, t, out)
        return True

    def _open_question(self, question: Pending, t: int, out: Outputs) -> None:
        """Open ``question`` and say it."""
        self.pending = question
        self.tell_text(out, t, self._pending_question())

    def _draw_side(self) -> Side:
        """Whose "Remis" it is. The player's own, unless one microphone serves both players
        (:attr:`opponent_speaks`): then it answers a standing offer for the other side, claims
        for the side to move when a claim is valid (9.2, 9.3), and otherwise offers for the
        side that has just moved, when the Laws have offers made (9.1.2.1)."""
        if not self.opponent_speaks:
            return self.blind
        to_move = side_of(self.board.turn)
        if self.offer is not None:
            return other(self.offer.by)
        if not self.sheet.entries and self.draws.claimable(self.board):
            return to_move  # no move yet to offer after (a set-up position)
        # An offer for the side that has just moved, never a claim made in the other side's
        # name (9.2: only the player to move claims, and says so: "Remis" with the move).
        return other(to_move)

    def _cmd_resign(self, command: Command, t: int, out: Outputs) -> None:
        self._finish_window(t, out)
        # One microphone: the side to move resigns, and the question names it, so that the
        # other player's "Aufgabe" is caught before the "ja" (a reviewer's finding).
        self._open_question(
            PendingResign(side_of(self.board.turn) if self.opponent_speaks else None), t, out
        )

    def _finish_window(self, t: int, out: Outputs) -> None:
        """ "Remis" or "Aufgabe" after a move: the move stands, the window closes now."""
        if isinstance(self.pending, PendingCorrection):
            self._close_window(t, out)


_MOVE_QUESTIONS = (PendingConfirm, PendingChoice, PendingCorrection, PendingPromotion)
"""The questions about the player's own move: a draw offer said with it waits for them."""


def one_word_difference(phrases: Sequence[Phrase]) -> tuple[str, str] | None:
    """The two words by which exactly two candidates differ, if they differ in one word only
    ("springer felix fünf" and "springer felix sechs": ``("fünf", "sechs")``)."""
    if len(phrases) != 2 or len(phrases[0]) != len(phrases[1]):
        return None
    differing = [(a, b) for a, b in zip(phrases[0], phrases[1], strict=True) if a != b]
    if len(differing) != 1:
        return None
    return differing[0]
