"""The session's shared state and vocabulary of actions: making a move, ending the game, saying.

:class:`SessionBase` holds everything a game is (board, clocks, scoresheet, what is pending, the
arbiter's log) and the few actions every part of the protocol needs: make and complete a move,
end the game, say a sentence to one side, both sides or the arbiter. The blind player's protocol
(:mod:`voice.game.session`) is this state with its protocol on top; draws and resignation
(:class:`voice.game.session_draws.Draws`) and the arbiter's actions
(:class:`voice.game.session_arbiter.ArbiterDesk`) are parts the session owns, each given the game to
act on through these public actions. Pure: no I/O, no clock of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import chess

from voice.config import ConfigError, Settings, override
from voice.game import announcements as ann
from voice.game.scoresheet import Entry, Scoresheet
from voice.rules.arbiter import ALIASES
from voice.rules.clock import SIDES, Clock, other
from voice.rules.dead_position import cannot_checkmate, is_dead
from voice.rules.events import (
    Audience,
    ClockState,
    MoveMade,
    OutputEvent,
    PositionOver,
    Result,
    Say,
    ScriptError,
    Setup,
    Side,
    to_seconds,
)
from voice.rules.laws import ILLEGAL_KINDS, EditionError, laws_for
from voice.rules.legal_position import problems
from voice.rules.timecontrol import parse_time_control
from voice.words.matcher import Hypothesis, MatchResult, match_move
from voice.words.messages import catalogue, display_text, message
from voice.words.phrases import render_move
from voice.words.spoken_time import duration_words, number_words
from voice.words.vocabulary import Vocabulary

# Setup keys that become PGN headers.
_HEADER_KEYS = frozenset({"event", "site", "date", "round", "white", "black"})


def color_of(side: Side) -> chess.Color:
    return chess.WHITE if side == "white" else chess.BLACK


def side_of(color: chess.Color) -> Side:
    return "white" if color == chess.WHITE else "black"


# -- what the session may be waiting for ------------------------------------------------------


@dataclass(frozen=True)
class PendingConfirm:
    """ "Springer Felix drei?": "ja" makes the move, "nein" discards it."""

    move: chess.Move
    spoken: str


@dataclass(frozen=True)
class PendingChoice:
    """Candidates offered by number; the number or a fuller move picks one.

    Two candidates whose words differ in one word only are asked by that word ("Springer
    Felix fünf oder sechs?"): ``difference`` holds the two words, in the order of ``moves``,
    and either word alone picks its move.
    """

    moves: tuple[chess.Move, ...]
    spoken: tuple[str, ...]
    difference: tuple[str, str] | None = None


@dataclass(frozen=True)
class PendingCorrection:
    """A move announced but not yet made: the correction window runs until ``ends_ms``."""

    move: chess.Move
    spoken: str
    ends_ms: int


@dataclass(frozen=True)
class PendingResign:
    """ "Wirklich aufgeben?" asked of the blind player, or with one microphone for both
    (``side``) of the side it names ("Schwarz: Wirklich aufgeben?")."""

    side: Side | None = None


@dataclass(frozen=True)
class PendingDrawAccept:
    """One microphone for both: "Remis" said while an offer stands is asked back, naming the
    side that would accept ("Schwarz: Remis annehmen?"): the program cannot tell whether the
    player who offered said it again."""

    side: Side
    claim: bool = False  # a valid claim of the side to move (9.2, 9.3), no offer standing


@dataclass(frozen=True)
class PendingRepeatOrMove:
    """The blind player said the opponent's last move in words that are also a move of their
    own (a recapture on the same square): "Wiederholung oder Ihr Zug?"."""

    move: chess.Move
    spoken: str


@dataclass(frozen=True)
class PendingPromotion:
    """2001 (F.2.1): a promotion said without its piece; the piece word picks the move."""

    moves: tuple[chess.Move, ...]
    spoken: str  # the move as said, without the piece


Pending = (
    PendingConfirm
    | PendingChoice
    | PendingCorrection
    | PendingResign
    | PendingDrawAccept
    | PendingRepeatOrMove
    | PendingPromotion
)


@dataclass(frozen=True)
class DrawOffer:
    by: Side
    t_ms: int


@dataclass(frozen=True)
class LogEntry:
    """One line of the arbiter's log: an action, an illegal attempt, a wrong claim."""

    t_ms: int
    kind: str
    side: Side | None = None
    detail: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    why: dict[str, Any] = field(default_factory=dict)
    """A refusal's reason and its parts, for the sentence in the reader's language
    (:func:`why_words`); empty when it has none."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": to_seconds(self.t_ms), "kind": self.kind}
        if self.side is not None:
            out["side"] = self.side
        if self.detail:
            out["detail"] = self.detail
        if self.params:
            out["params"] = dict(self.params)
        if self.why:
            out["why"] = dict(self.why)
        return out


def logged_action(action: str, params: Mapping[str, Any]) -> str:
    """An arbiter's action as the log names it (the catalogue's ``web.log.{name}``): a
    completed illegal move that is not the move itself by its kind, two hands for one move
    (7.5.4) or the clock pressed without a move (7.5.3), which the arbiter must tell apart."""
    action = ALIASES.get(action, action)
    kind = params.get("kind")
    if action == "illegal_move" and kind in ILLEGAL_KINDS and kind != "move":
        return f"illegal_move.{kind}"
    return action


def why_words(why: dict[str, Any], language: str) -> str:
    """Why an arbiter's action was refused, in ``language`` ("Weiß hätte keine Zeit mehr …")."""
    params = {key: value for key, value in why.items() if key != "reason"}
    if params.get("side") in SIDES:
        params["side"] = ann.side_name(params["side"], language)
    return game_message(language, f"why.{why['reason']}", **params)


class Outputs:
    """The outputs one input causes, collected in the order they happen."""

    def __init__(self) -> None:
        self.events: list[OutputEvent] = []

    def add(self, event: OutputEvent) -> None:
        self.events.append(event)


# -- the shared state ----------------------------------------------------------------------------


class SessionBase:
    """The state of one game and the actions shared by every part of the protocol."""

    def __init__(self, setup: Setup, settings: Settings) -> None:
        settings = played_settings(setup, settings)
        self.setup = setup
        self.settings = settings
        extra = setup.extra
        self.language = setup.language or settings.language.blind
        self.opponent_language = str(extra.get("opponent_language", settings.language.opponent))
        self.vocab = Vocabulary.of(settings)
        # Sentences that tell the blind player what to say name the words of the command set
        # in use, whatever the language of the sentence.
        self.command_words = ann.command_words(self.vocab)
        self.profile = setup.profile
        self.blind: Side = setup.blind
        self.sighted: Side = other(setup.blind)
        self.board = _start_board(setup.fen)
        self.start_fen = self.board.fen()
        control_text = setup.time_control or settings.clock.time_control
        self.control = parse_time_control(control_text, settings.clock.presets)
        try:
            # The edition is the one policy the rules consult where the Laws differ
            # (voice.rules.laws).
            self.laws = laws_for(setup.laws or settings.rules.edition)
        except EditionError as error:
            raise ScriptError(str(error)) from None
        self.clock = Clock(self.control, penalty_ms=self.laws.penalty_ms(self.control))
        window = _setup_value(extra, "correction_window", settings.session.correction_window)
        self.correction_ms = round(window * 1000)
        self.always_confirm = _setup_flag(extra, "always_confirm", settings.session.always_confirm)
        self.repeat_back = _setup_flag(
            extra, "repeat_back_check", settings.session.repeat_back_check
        )
        self.opponent_speaks = _setup_flag(extra, "opponent_speaks", False)
        """No board for the sighted opponent (``play --no-web``): the opponent's moves come
        through the blind player's input too, said by the opponent or passed on by the player,
        and are heard, asked back and confirmed like the player's own."""
        self.against_computer = extra.get("opponent") == "engine"
        """The computer plays the sighted side: only the blind player listens, so what is
        said speaks to them ("Sie bieten Remis an.") and names the computer's acts as its own
        ("Computer: Springer Cesar sechs"). With a person at the board, both hear the
        loudspeaker, and the sentences name the sides, as an assistant's do (D.2.10)."""
        self.offer_with_move = False
        """The blind player said "Remis" before their move: the offer follows it."""
        self.window_resumed: PendingCorrection | None = None
        """A correction window open when the game stopped: its move is said as it is made."""
        self.warn_low_time = self.profile == "home" and _setup_flag(
            extra, "warn_low_time", settings.clock.warn_low_time
        )
        self.sheet = Scoresheet(
            start_fen=self.start_fen,
            time_control=self.control.text,
            laws=self.laws.edition,
            headers={k: str(v) for k, v in extra.items() if k in _HEADER_KEYS},
        )
        self.now = 0
        self.pending: Pending | None = None
        self.yes_doubted: Pending | None = None
        self._doubted: Pending | None = None  # yes_doubted as the current utterance found it
        """The question a "ja" was last heard too unsurely to answer (and asked again): a
        second "ja" to the same question answers it (GameSession._yes_unsure)."""
        self.offer: DrawOffer | None = None
        self.stopped_by: Side | Literal["arbiter"] | None = None
        """Who stopped the clock (6.11): a player calling the arbiter, or the arbiter."""
        self.revision = _revision(extra)
        """Which rules the game was played under (:data:`REVISION`): a journal replays under
        its own, so that no input takes another effect on resume than it had."""
        self.legacy = self.revision < 18
        """A journal the app wrote before its set-up line kept the settings (session 18): the
        opponent's draw button did not claim and "Pause" did not start the clock at home."""
        self.result: Result | None = None
        self.attempts: dict[Side, int] = {"white": 0, "black": 0}
        self.illegal_moves: dict[Side, int] = {"white": 0, "black": 0}
        self.wrong_claims: dict[Side, int] = {"white": 0, "black": 0}
        self.log: list[LogEntry] = []
        self.last_said = ""
        self.expect_repeat: chess.Move | None = None  # the opponent's move to repeat back
        thresholds = sorted(set(settings.clock.low_time_warnings), reverse=True)
        self._thresholds_ms = [s * 1000 for s in thresholds]
        start_ms = self.clock.remaining_ms(self.blind, 0)
        self._warned: set[int] = {ms for ms in self._thresholds_ms if ms >= start_ms}
        self.clock.start(0, side_of(self.board.turn))

    # -- making moves ---------------------------------------------------------------------

    def mover(self) -> Side:
        """Whose move the blind player's input makes now: their own, or the side to move when
        the opponent's moves come through it too (:attr:`opponent_speaks`)."""
        return side_of(self.board.turn) if self.opponent_speaks else self.blind

    def match(self, heard: Sequence[Hypothesis]) -> MatchResult:
        """The moves that fit what was heard on the board now. From revision 23 a file with a
        number that is no rank ("Eva neun") is said to be none; before, the nearest moves were
        offered, and a journal of then replays so."""
        return match_move(
            self.board, heard, self.vocab, self.settings.matching, no_such_rank=self.revision >= 23
        )

    def hears_moves(self) -> bool:
        """Whether a move said now can be made (the game goes on and it is a move the blind
        player's input makes)."""
        return self.result is None and self.board.turn == color_of(self.mover())

    def holds_offers(self) -> bool:
        """Whether the blind player's "Remis" on their own move is an offer made with that
        move (9.1.2.2: the move, then the offer), held until it is made: not with one
        microphone for both (whose "Remis" it is follows the move there), nor in journals
        of the rules before (revision 21)."""
        return self.revision >= 21 and not self.opponent_speaks

    def offer_too_early(self, t: int, out: Outputs) -> bool:
        """Whether a draw offer made with the blind player's next move would still come too
        early (before the opponent's first move, as :meth:`Draws.offer` says); if so, said."""
        if any(entry.by == self.sighted for entry in self.sheet.entries):
            return False
        self.tell(out, t, "draw.too_early")
        return True

    def hold_offer(self, t: int, out: Outputs) -> None:
        """Hold the blind player's draw offer for their next move, and say so."""
        if not self.offer_too_early(t, out):
            self.offer_with_move = True
            self.tell(out, t, "draw.offer_with_next_move")

    def make(
        self,
        move: chess.Move,
        side: Side,
        t: int,
        out: Outputs,
        *,
        announce_to: Audience | None,
        said: bool = False,
    ) -> None:
        """Make and complete a move: board, clock, scoresheet, announcement, game end.
        ``said``: its words were said already (when the correction window opened)."""
        entry = self.push(move, side, t, press=True)
        spoken = entry.spoken
        if announce_to == "blind":
            self.emit(out, Say(t, spoken, "blind"))
        out.add(MoveMade(t, entry.uci, entry.san, side, spoken))
        if side == self.sighted and announce_to != "blind" and not said:
            # The opponent's move, from their board; the computer's reply is marked as its
            # own: it came at once after the player's move said back, two moves in a row with
            # nothing to tell them apart (a review).
            if self.against_computer:
                spoken = game_message(self.language, "move.computer", move=spoken)
            self.emit(out, Say(t, spoken, "blind"))
        if self.opponent_speaks:
            # One microphone for both: a move said again is a repeat, never the other side's
            # move (a recapture on the same square is asked: "Wiederholung oder Ihr Zug?").
            self.expect_repeat = move
        elif side == self.sighted:
            self.expect_repeat = move if self.repeat_back else None
        else:
            self.expect_repeat = None
        if isinstance(self.pending, PendingResign) and side == self.blind:
            self.pending = None
        if self.offer is not None and self.offer.by != side:
            # 9.1.2.1 / docs/rules.md §6.6: the recipient moved, which rejects the offer.
            by = self.offer.by
            self.offer = None
            self.say_all(out, t, "draw.rejected_by_move", by=by)
        self.check_game_end(side, t, out)

    def push(self, move: chess.Move, side: Side, t: int, *, press: bool) -> Entry:
        """The move on the board and the scoresheet; ``press`` completes it on the clock."""
        spoken = render_move(self.board, move, self.vocab)
        san = self.board.san(move)
        fullmove = self.board.fullmove_number
        self.board.push(move)
        if press and self.clock.paused:
            # A correction window that ends while the arbiter has stopped the clock: the move
            # is completed at that instant without any time passing.
            self.clock.resume(t)
            self.clock.press(t)
            self.clock.pause(t)
        elif press:
            self.clock.press(t)
        entry = Entry(
            ply=len(self.sheet.entries) + 1,
            uci=move.uci(),
            san=san,
            spoken=spoken,
            by=side,
            t_ms=t,
            clock_ms=self.clock.remaining_ms(side, t),
            fullmove=fullmove,
        )
        self.sheet.record(entry)
        return entry

    def check_game_end(self, side: Side, t: int, out: Outputs) -> None:
        board = self.board
        if board.is_checkmate():
            self.end_game(t, "1-0" if side == "white" else "0-1", "checkmate", out)
        elif board.is_stalemate():
            self.end_game(t, "1/2-1/2", "stalemate", out)
        elif is_dead(board):
            self.end_game(t, "1/2-1/2", "dead_position", out)
        elif not self.laws.automatic_draws:
            return  # 2001: repetition and fifty moves only by claim (9.2, 9.3)
        elif board.is_fivefold_repetition():
            self.end_game(t, "1/2-1/2", "fivefold_repetition", out)
        elif board.is_seventyfive_moves():
            self.end_game(t, "1/2-1/2", "seventyfive_moves", out)

    def charge_wrong_claim(self, side: Side, t: int, out: Outputs) -> None:
        """9.5.3: the opponent's extra time; 2001 9.5.b also takes time from the claimant."""
        cost = self.laws.wrong_claim(self.control, self.clock.remaining_ms(side, t))
        self.clock.add_time(other(side), cost.opponent_gets_ms, t)
        if cost.claimant_left_ms != self.clock.remaining_ms(side, t):
            self.clock.set_time(side, cost.claimant_left_ms, t)
            self.say_all(out, t, "arbiter.time_set", side=side, ms=cost.claimant_left_ms)

    # -- game end -------------------------------------------------------------------------

    def flag_result(self, side: Side, t: int, out: Outputs) -> None:
        """A flag that counts: lost, or drawn when the opponent cannot checkmate (6.9)."""
        opponent = other(side)
        self.say_all(out, t, "flag.fallen", side=side)
        if cannot_checkmate(self.board, color_of(opponent)):
            self.end_game(t, "1/2-1/2", "time_forfeit_draw", out, by=side)  # 6.9
        else:
            winner = "1-0" if opponent == "white" else "0-1"
            self.end_game(t, winner, "time_forfeit", out, by=side)

    def end_game(
        self,
        t: int,
        result: str,
        reason: str,
        out: Outputs,
        *,
        by: Side | None = None,
    ) -> None:
        assert result in ("1-0", "0-1", "1/2-1/2")
        final = Result(t, result, reason)  # type: ignore[arg-type]
        self.result = final
        self.pending = None
        self.offer = None
        self.expect_repeat = None
        if not self.clock.paused:
            self.clock.pause(t)
        self.sheet.finish(result, reason, by, note=self.pgn_note(final, by))
        out.add(final)
        self.say_all(out, t, "result.announce", final=final, by=by)

    def pgn_note(self, final: Result, by: Side | None) -> str:
        """How the game ended, for the PGN's closing comment: in the game's language (the
        blind player's scoresheet, D.2.7), as it reads (no Hebrew points or Arabic vowel
        marks). It was English ("time forfeit by White") in a German game (a review); the PGN
        tags stay English, as the PGN standard has them. A draw caused by one side names it
        ("Remis: Weiß: Zeitüberschreitung, aber …")."""
        language = self.language
        text = self.result_words(final, language)
        if by is not None and final.result == "1/2-1/2":
            reason = game_message(language, self.laws.wording(f"reason.{final.reason}"), loser="")
            side = ann.side_name(by, language)
            text = game_message(language, "pgn.drawn_by", side=side, reason=reason)
        return display_text(text, language)

    def result_words(self, result: Result, language: str | None = None) -> str:
        language = language or self.language
        winners: dict[str, Side] = {"1-0": "white", "0-1": "black"}
        winner = winners.get(result.result)
        # A reason may name the side that lost ("Weiß hat aufgegeben."): said to both players,
        # "the opponent resigned" was heard by the one who resigned as the other's resignation.
        loser = ann.side_name(other(winner), language) if winner is not None else ""
        key = self.laws.wording(f"reason.{result.reason}")
        reason = game_message(language, key, loser=loser)
        if winner is None:
            return game_message(language, "result.draw", reason=reason)
        return game_message(
            language, "result.win", side=ann.side_name(winner, language), reason=reason
        )

    # -- saying things ----------------------------------------------------------------------

    def audiences(self) -> list[tuple[Audience, str]]:
        """(audience, language) pairs for something both players must hear."""
        if self.language == self.opponent_language:
            return [("all", self.language)]
        return [("blind", self.language), ("sighted", self.opponent_language)]

    def emit(self, out: Outputs, say: Say, *, remember: bool = True) -> None:
        out.add(say)
        if remember and say.to in ("blind", "all"):
            self.last_said = say.text

    def tell(self, out: Outputs, t: int, key: str, **params: Any) -> None:
        """One sentence to the blind player."""
        text = game_message(self.language, self.laws.wording(key), **self.command_words, **params)
        self.emit(out, Say(t, text, "blind"))

    def tell_text(self, out: Outputs, t: int, text: str) -> None:
        self.emit(out, Say(t, text, "blind"))

    def tell_side(self, side: Side, out: Outputs, t: int, key: str, **params: Any) -> None:
        """One sentence to the player of ``side``, in their language."""
        if side == self.blind:
            self.tell(out, t, key, **params)
        else:
            text = game_message(self.opponent_language, self.laws.wording(key), **params)
            self.emit(out, Say(t, text, "sighted"))

    def to_arbiter(self, out: Outputs, t: int, key: str, **params: Any) -> None:
        """A line for the arbiter's log, in the arbiter's language."""
        text = self.sentence(key, self.arbiter_language, params)
        out.add(Say(t, text, "arbiter"))

    @property
    def arbiter_language(self) -> str:
        """The arbiter's: ``[language] arbiter``, or the opponent's page language."""
        return self.settings.language.arbiter or self.opponent_language

    def say_all(self, out: Outputs, t: int, key: str, **params: Any) -> None:
        """One sentence to both players, each in their language; against the computer, in
        the words of :data:`AGAINST_THE_COMPUTER`."""
        if self.against_computer and key in AGAINST_THE_COMPUTER:
            yours, its = AGAINST_THE_COMPUTER[key]
            key = yours if params.get("by") == self.blind else its
        for to, language in self.audiences():
            self.emit(out, Say(t, self.sentence(key, language, params), to))

    def sentence(self, key: str, language: str, params: dict[str, Any]) -> str:
        """Fill a sentence: sides become their names, ``ms`` a time in words; the words to
        say are the command set's, as in :meth:`tell`."""
        filled: dict[str, Any] = dict(self.command_words)
        for name, value in params.items():
            if name == "final":
                continue
            if name in ("side", "by") and value is not None:
                filled[name] = ann.side_name(value, language)
            elif (
                key in ("arbiter.logged", "arbiter.refused")
                and name == "action"
                and f"web.log.{value}" in catalogue(language)
            ):
                # An arbiter's action as the log names it ("Aufbau genehmigt"), not as the
                # journal does ("approve_setup").
                filled[name] = message(language, f"web.log.{value}")
            elif name == "ms":
                filled["time"] = duration_words(int(value), language)
            elif name == "count":
                filled[name] = number_words(int(value), language)
            elif name == "penalty":
                ms = value if isinstance(value, int) else self.clock.penalty_ms
                filled[name] = duration_words(ms, language)
            elif value is not None:
                filled[name] = value
        if key == "result.announce":
            final = params["final"]
            return self.result_words(final, language)
        if params.get("why"):  # a refusal the arbiter reads in their language
            filled["error"] = why_words(params["why"], language)
        return game_message(language, self.laws.wording(key), **filled)

    def restarts_at_home(self) -> bool:
        """Whether the player's "Pause" starts the stopped clock again (6.11 has the arbiter do
        it): at home, where no arbiter is, unless an arbiter's page stopped it, and not in a
        journal the app wrote before this rule (it replays as it was played)."""
        return self.profile == "home" and self.stopped_by != "arbiter" and not self.legacy

    def rearm_warnings(self, t: int) -> None:
        """The blind player's low-time warnings, armed again above a display the arbiter set."""
        left = self.clock.remaining_ms(self.blind, t)
        self._warned = {ms for ms in self._warned if ms >= left}

    def _running(self) -> Side | None:
        if self.result is not None or self.clock.paused:
            return None
        return self.clock.running

    def clock_state(self, t: int) -> ClockState:
        return ClockState(
            t,
            self.clock.remaining_ms("white", t),
            self.clock.remaining_ms("black", t),
            self._running(),
            self.clock.moves_completed("white"),
        )


AGAINST_THE_COMPUTER: dict[str, tuple[str, str]] = {
    "draw.offered": ("draw.offered.you", "draw.offered.computer"),
    "draw.declined": ("draw.declined.you", "draw.declined.computer"),
    "draw.rejected_by_move": ("draw.rejected_by_move.you", "draw.rejected_by_move.computer"),
    "resume.offer": ("resume.offer.you", "resume.offer.computer"),
}
"""Sentences naming a side by its colour ("Weiß bietet Remis an."), and how they are said
against the computer: of the blind player's own act (``by`` the blind player) and of the
computer's. The player heard their own offer in the third person (a review)."""


class BadFen(ScriptError):
    """A set-up FEN that is no legal position, and which of its parts is wrong (``fault``):
    ``unreadable`` (no FEN at all), ``castling`` (castling rights the kings and rooks do not
    have: ``given`` and the ``fixed`` rights they do have), ``en_passant`` (a square no
    double step has passed: ``given``), or ``illegal`` (the pieces or whose move it is)."""

    def __init__(self, text: str, fault: str, given: str = "", fixed: str = "") -> None:
        super().__init__(text)
        self.fault = fault
        self.given = given
        self.fixed = fixed

    @property
    def unreadable(self) -> bool:
        return self.fault == "unreadable"


def read_fen(fen: str) -> chess.Board:
    """The position a FEN describes; :class:`BadFen` when it is none or no legal one. Wrong
    castling rights or a wrong en passant square are named on their own: the pieces are
    right there, and one field is to change (a review)."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise BadFen(f"setup.fen: not a FEN: {error}", "unreadable") from None
    if board.is_valid():
        return board
    text = f"setup.fen: not a legal position ({problems(board)})"
    status = board.status()
    fields = fen.split()
    if status & ~(chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE):
        raise BadFen(text, "illegal")
    if status & chess.STATUS_BAD_CASTLING_RIGHTS:
        # python-chess keeps only the rights the kings and rooks have: the fix to offer.
        raise BadFen(text, "castling", given=fields[2], fixed=board.castling_xfen())
    raise BadFen(text, "en_passant", given=fields[3], fixed="-")


def _start_board(fen: str | None) -> chess.Board:
    """The start position; a FEN that does not describe a legal position is a setup error."""
    if not fen:
        return chess.Board()
    board = read_fen(fen)
    if (reason := position_over(board)) is not None:
        raise PositionOver(reason)
    return board


def position_over(board: chess.Board) -> str | None:
    """Why the game in ``board`` is already over, as :meth:`SessionBase.check_game_end` names
    it, or None."""
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if is_dead(board):  # 5.2.2, as at the end of a move
        return "dead_position"
    if board.is_seventyfive_moves():
        return "seventyfive_moves"
    return None


PLAYED_WITH: dict[str, tuple[str, ...] | None] = {
    "session": ("correction_window", "always_confirm", "repeat_back_check", "describe_board"),
    "clock": ("low_time_warnings", "warn_low_time"),
    "language": ("commands",),
    "matching": None,  # every key
    "vocabulary": None,
}
"""The settings that decide what an input does in a game: how long a move may be corrected,
whether every move is asked back, how heard words become moves (the words and the matcher's
thresholds). A journal keeps them (:func:`settings_snapshot`), so that a game replays the
same after a crash whatever settings file is in use then (a player who started it with
``--config`` and resumed it without: "Korrektur" inside a four-second window replayed as a
move after the default window had closed, and another move stood on the board)."""


def settings_snapshot(settings: Settings) -> dict[str, dict[str, Any]]:
    """What the journal's set-up line keeps of ``settings`` (``setup.settings``)."""
    snapshot: dict[str, dict[str, Any]] = {}
    for section, keys in PLAYED_WITH.items():
        values = getattr(settings, section).model_dump()
        snapshot[section] = values if keys is None else {key: values[key] for key in keys}
    return snapshot


def played_settings(setup: Setup, settings: Settings) -> Settings:
    """``settings`` with what the set-up line kept of the settings the game was played with
    (none in a hand-written script: then ``settings`` as they are)."""
    snapshot = setup.extra.get("settings")
    if snapshot is None:
        return settings
    if not isinstance(snapshot, dict) or not all(
        isinstance(section, str) and isinstance(values, dict)
        for section, values in snapshot.items()
    ):
        raise ScriptError(
            f"setup.settings must map sections ({', '.join(PLAYED_WITH)}) to their keys"
        )
    # Sections and keys a later version no longer has are left out: a journal stays resumable.
    known = {
        section: {
            key: value
            for key, value in values.items()
            if key in type(getattr(settings, section)).model_fields
        }
        for section, values in snapshot.items()
        if section in PLAYED_WITH
    }
    try:
        return override(settings, **known)
    except ConfigError as error:
        raise ScriptError(f"setup.settings: {str(error).replace('<command line>: ', '')}") from None


def _setup_value(extra: dict[str, Any], key: str, default: float) -> float:
    """A setup override of a [session] number (seconds, 0 to 10, as in the settings)."""
    value = extra.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10:
        raise ScriptError(f"setup.{key} must be a number of seconds from 0 to 10, not {value!r}")
    return float(value)


REVISION = 23
"""The rules this code plays by, written into the app's journals (``setup.revision``) when they
changed what an input does: 18 kept the settings; 19 (session 19) refuses an arbiter's clock
correction that leaves a player no time (6.10.2) and takes no unsure "Remis" that would end
the game; 20 (session 21) lets a second unsure "ja" answer a question only when it comes right
after the first; 21 (session 22) does not count a sighted promotion sent without its piece
as an illegal move attempt, and holds the blind player's "Remis" said before or with their
move for that move; 22 takes "Remis" before the move's words at home, where no claim would be
right, as the offer made with that move (it was a wrong claim, penalised at once); 23 has the
arbiter's ``set_moves`` without a side leave the second mover one move behind while it is to
move, as the talking clock does (both counters took the number), and says that a file with a
number that is no rank ("Eva neun", "Eva zehn") names no square (the nearest moves were
offered: a "ja" or a number after them made a move). Scripts without the app's
marks play by the current rules."""


def _revision(extra: dict[str, Any]) -> int:
    """The revision of a set-up: its own, or for an app journal without one, 18 when it kept
    the settings, 17 before that."""
    if "app" not in extra:
        value = extra.get("revision", REVISION)
    else:
        value = extra.get("revision", 18 if "settings" in extra else 17)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScriptError(f"setup.revision must be a whole number, not {value!r}")
    return value


def _setup_flag(extra: dict[str, Any], key: str, default: bool) -> bool:
    value = extra.get(key, default)
    if not isinstance(value, bool):
        raise ScriptError(f"setup.{key} must be true or false, not {value!r}")
    return value


def game_message(language: str, key: str, **params: Any) -> str:
    """A session sentence: the catalogue keys of this module live under ``game.``."""
    if key == "not_understood":
        return message(language, key, **params)
    return message(language, f"game.{key}", **params)
