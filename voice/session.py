"""The game session: the Appendix D protocol as a pure, event-driven state machine.

Timestamped inputs come in (what the blind player said, the sighted player's move, keys, arbiter
actions, time passing); announcements, moves, clock states, refusals and the result go out. No
audio, threads, wall clock or files in here: the host, ``simulate`` and the tests feed the same
events, and replaying a journal reproduces the game exactly.

The rules that shape it (rules.md; FIDE Laws 2023, Appendix D):

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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess

from voice import announcements as ann
from voice.arbiter import ArbiterCommand, ArbiterError, Retraction, read_action
from voice.clock import SIDES, Clock, ClockError, other
from voice.config import Settings
from voice.events import (
    ArbiterAction,
    Ask,
    Audience,
    BlindSpeech,
    ClockPress,
    ClockState,
    Flag,
    InputEvent,
    KeyPress,
    MoveMade,
    OutputEvent,
    Pause,
    Refused,
    Result,
    Resume,
    Say,
    Setup,
    Side,
    SightedMove,
    Tick,
    to_seconds,
)
from voice.matcher import Decision, Hypothesis, MatchResult, match_move, rank_phrases
from voice.messages import message
from voice.phrases import MoveIntent, Refusal, explain_refusal, phrase_table, render_move
from voice.position_words import position_words, where_words
from voice.scoresheet import Entry, Scoresheet
from voice.spoken_time import duration_words, number_words
from voice.timecontrol import parse_time_control
from voice.utterance import Command, command_table, read_command

# Refusal reasons that are not an attempt at an illegal move (the words were too vague).
_NOT_AN_ATTEMPT = frozenset({"say_whole_move", "several_can_reach", "which_piece", "game_over"})

# Commands that only ask for information: harmless when misheard.
_REQUESTS = frozenset(
    {
        "time",
        "moves",
        "repeat",
        "last_move",
        "position",
        "where",
        "whose_turn",
        "scoresheet",
        "help",
        "stop",
    }
)
# Commands a player may use while the game is over.
_AFTER_GAME = frozenset(
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
    "help",
)

# Keys the sighted side's page (or keyboard) sends; the blind side's keys are command ids.
SIGHTED_KEYS = (
    "sighted:draw_offer",
    "sighted:draw_accept",
    "sighted:draw_decline",
    "sighted:draw_claim",
    "sighted:resign",
    "sighted:arbiter",
)


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
    """Candidates offered by number; the number or a fuller move picks one."""

    moves: tuple[chess.Move, ...]
    spoken: tuple[str, ...]


@dataclass(frozen=True)
class PendingCorrection:
    """A move announced but not yet made: the correction window runs until ``ends_ms``."""

    move: chess.Move
    spoken: str
    ends_ms: int


@dataclass(frozen=True)
class PendingResign:
    """ "Wirklich aufgeben?" asked of the blind player."""


Pending = PendingConfirm | PendingChoice | PendingCorrection | PendingResign


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

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": to_seconds(self.t_ms), "kind": self.kind}
        if self.side is not None:
            out["side"] = self.side
        if self.detail:
            out["detail"] = self.detail
        if self.params:
            out["params"] = dict(self.params)
        return out


class _Outputs:
    """The outputs of one input, in order; remembers what the blind player last heard."""

    def __init__(self) -> None:
        self.events: list[OutputEvent] = []

    def add(self, event: OutputEvent) -> None:
        self.events.append(event)


# -- the session --------------------------------------------------------------------------------


class GameSession:
    """One game between a blind and a sighted player (or an engine on the sighted side)."""

    def __init__(self, setup: Setup, settings: Settings) -> None:
        self.setup = setup
        self.settings = settings
        extra = setup.extra
        self.language = setup.language or settings.language.blind
        self.opponent_language = str(extra.get("opponent_language", settings.language.opponent))
        from voice.vocabulary import Vocabulary

        self.vocab = Vocabulary.from_settings(settings.vocabulary, settings.language.commands)
        self.profile = setup.profile
        self.blind: Side = setup.blind
        self.sighted: Side = other(setup.blind)
        self.board = chess.Board(setup.fen) if setup.fen else chess.Board()
        self.start_fen = self.board.fen()
        control_text = setup.time_control or settings.clock.time_control
        self.control = parse_time_control(control_text, settings.clock.presets)
        self.clock = Clock(self.control)
        self.correction_ms = round(
            float(extra.get("correction_window", settings.session.correction_window)) * 1000
        )
        self.always_confirm = bool(extra.get("always_confirm", settings.session.always_confirm))
        self.repeat_back = bool(extra.get("repeat_back_check", settings.session.repeat_back_check))
        self.warn_low_time = self.profile == "home" and bool(
            extra.get("warn_low_time", settings.clock.warn_low_time)
        )
        self.sheet = Scoresheet(
            start_fen=self.start_fen,
            time_control=self.control.text,
            headers={k: str(v) for k, v in extra.items() if k in _HEADER_KEYS},
        )
        self.now = 0
        self.pending: Pending | None = None
        self.offer: DrawOffer | None = None
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

    # -- the Core protocol ------------------------------------------------------------------

    def handle(self, event: InputEvent) -> list[OutputEvent]:
        """Apply one input at its instant; return everything it causes, in order."""
        out = _Outputs()
        t = max(event.t_ms, self.now)
        self._advance(t, out)
        self.now = t
        match event:
            case BlindSpeech():
                self._on_speech(event, t, out)
            case SightedMove():
                self._on_sighted_move(event.move, t, out)
            case KeyPress():
                self._on_key(event.key, t, out)
            case Ask():
                self._on_key(event.what, t, out)
            case ArbiterAction():
                self._on_arbiter(event.action, event.params, t, out)
            case Pause():
                self._on_arbiter("pause", {}, t, out)
            case Resume():
                self._on_arbiter("resume", {}, t, out)
            case ClockPress():
                self._tell(out, t, "key.press_not_needed")
            case Tick():
                pass
        out.add(self._clock_state(t))
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
        """ "Partie fortgesetzt": whose turn, both clocks, and what is still open."""
        t = self.now
        out = _Outputs()
        if self.result is not None:
            self._say_all(out, t, "resume.over", result=self._result_words(self.result))
            out.add(self._clock_state(t))
            return out.events
        turn = side_of(self.board.turn)
        for to, language in self._audiences():
            text = _m(
                language,
                "resume.game",
                side=ann.side_name(turn, language),
                white=duration_words(self.clock.remaining_ms("white", t), language),
                black=duration_words(self.clock.remaining_ms("black", t), language),
            )
            self._emit(out, Say(t, text, to))
        if self.pending is not None:
            self._tell(out, t, "resume.pending", question=self._pending_question())
        if self.offer is not None:
            self._say_all(out, t, "resume.offer", by=self.offer.by)
        out.add(self._clock_state(t))
        return out.events

    # -- state for the web board and the arbiter's panel ------------------------------------

    def state(self) -> dict[str, Any]:
        """A JSON-ready snapshot of everything a page needs to draw the game."""
        t = self.now
        pending: dict[str, Any] | None = None
        match self.pending:
            case PendingConfirm(move=move, spoken=spoken):
                pending = {"kind": "confirm", "move": move.uci(), "spoken": spoken}
            case PendingChoice(moves=moves, spoken=spoken_list):
                pending = {
                    "kind": "choose",
                    "moves": [m.uci() for m in moves],
                    "spoken": list(spoken_list),
                }
            case PendingCorrection(move=move, spoken=spoken, ends_ms=ends):
                pending = {
                    "kind": "correction",
                    "move": move.uci(),
                    "spoken": spoken,
                    "until": to_seconds(ends),
                }
            case PendingResign():
                pending = {"kind": "resign"}
        return {
            "t": to_seconds(t),
            "fen": self.board.fen(),
            "start_fen": self.start_fen,
            "turn": side_of(self.board.turn),
            "blind": self.blind,
            "sighted": self.sighted,
            "profile": self.profile,
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

    def words_now(self) -> frozenset[str]:
        """The words worth listening for now (the recogniser's grammar, architecture.md)."""
        words = set(self.vocab.command_words())
        if isinstance(self.pending, PendingChoice):
            words.update(self.vocab.number_words[: len(self.pending.moves)])
        if self.result is None and self.board.turn == color_of(self.blind):
            words.update(phrase_table(self.board, self.vocab).words())
        if self.expect_repeat is not None:
            before = self._board_before_last()
            words.update(phrase_table(before, self.vocab).words())
        return frozenset(words)

    # -- time passing -----------------------------------------------------------------------

    def _advance(self, t: int, out: _Outputs) -> None:
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

    def _low_time_warning(self, t: int, out: _Outputs) -> None:
        left = self.clock.remaining_ms(self.blind, t)
        crossed = [ms for ms in self._thresholds_ms if ms not in self._warned and left <= ms]
        if not crossed:
            return  # delay mode: the main time had not started to run yet
        self._warned.update(crossed)
        self._tell(out, t, "time.low", time=duration_words(left, self.language))

    def _on_flag(self, side: Side, t: int, control_met: bool, out: _Outputs) -> None:
        out.add(Flag(t, side))
        if control_met:
            # 6.4: the counter shows the period's moves completed, so the flag does not lose.
            self._say_all(out, t, "flag.control_met", side=side)
            return
        opponent = other(side)
        self._say_all(out, t, "flag.fallen", side=side)
        if self.board.has_insufficient_material(color_of(opponent)):
            self._end(t, "1/2-1/2", "time_forfeit_draw", out)  # 6.9
        else:
            self._end(t, "1-0" if opponent == "white" else "0-1", "time_forfeit", out)

    # -- the blind player's words -----------------------------------------------------------

    def _on_speech(self, event: BlindSpeech, t: int, out: _Outputs) -> None:
        floor = self.settings.matching.min_confidence
        heard = [
            Hypothesis(self.vocab.normalize(text), confidence)
            for text, confidence in event.nbest
            if confidence >= floor
        ]
        heard = [h for h in heard if h.words]
        if not heard:
            self._tell(out, t, "not_understood")
            return
        numbers = isinstance(self.pending, PendingChoice)
        command = read_command(heard[0].words, self.vocab, numbers=numbers)
        if command is not None:
            self._command(command, t, out)
            return
        if self.result is not None:
            self._tell(out, t, "game.over", result=self._result_words(self.result))
            return
        if isinstance(self.pending, PendingCorrection):
            self._tell(out, t, "correction.move_pending", move=self.pending.spoken)
            return
        if self.clock.paused:
            fuzzy = self._fuzzy_command(heard, numbers)
            if fuzzy is not None:
                self._command(fuzzy, t, out)
            else:
                self._tell(out, t, "paused")
            return
        if self.board.turn != color_of(self.blind):
            fuzzy = self._fuzzy_command(heard, numbers)
            if fuzzy is not None:
                self._command(fuzzy, t, out)
            else:
                self._tell(out, t, "turn.not_yours")
            return
        result = match_move(self.board, heard, self.vocab, self.settings.matching)
        if result.decision == Decision.ACCEPT and result.move is not None:
            self._propose(result.move, t, out)
            return
        fuzzy = self._fuzzy_command(heard, numbers, below=self._best_cost(result))
        if fuzzy is not None:
            self._command(fuzzy, t, out)
            return
        if self._repeat_back(heard, result, t, out):
            return
        self._undecided(result, t, out)

    def _best_cost(self, result: MatchResult) -> float:
        return result.candidates[0].cost if result.candidates else float("inf")

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
        if command.name not in _REQUESTS or cost > limit or cost >= below:
            return None
        if len(ranked) > 1 and ranked[1][1] - cost < matching.ambiguity_margin:
            return None
        return command

    def _propose(self, move: chess.Move, t: int, out: _Outputs) -> None:
        """A move that fits clearly: made (or asked back when every move is to be confirmed)."""
        if self.always_confirm:
            self._ask_confirm(move, t, out)
        else:
            self._accept(move, t, out)

    def _ask_confirm(self, move: chess.Move, t: int, out: _Outputs) -> None:
        spoken = render_move(self.board, move, self.vocab)
        self.pending = PendingConfirm(move, spoken)
        self._tell(out, t, "confirm.question", move=spoken)

    def _undecided(self, result: MatchResult, t: int, out: _Outputs) -> None:
        if result.decision == Decision.CONFIRM and result.move is not None:
            self._ask_confirm(result.move, t, out)
        elif result.decision == Decision.CHOOSE and result.candidates:
            moves = tuple(c.move for c in result.candidates)
            spoken = tuple(render_move(self.board, m, self.vocab) for m in moves)
            self.pending = PendingChoice(moves, spoken)
            self._tell(out, t, "choose.question", options=self._options(spoken))
        else:
            self._refuse_blind(result.refusal, t, out)

    def _options(self, spoken: Sequence[str]) -> str:
        items = [
            _m(
                self.language,
                "choose.item",
                number=self.vocab.number_words[i].capitalize(),
                move=text,
            )
            for i, text in enumerate(spoken)
        ]
        return _m(self.language, "choose.separator").join(items)

    def _refuse_blind(self, refusal: Refusal | None, t: int, out: _Outputs) -> None:
        """Nothing is made, no clock changes; one sentence says why (§6.5)."""
        if refusal is None:
            self._tell(out, t, "not_understood")
            out.add(Refused(t, self.blind, "not_understood"))
            return
        text = refusal.text(self.language)
        self._emit(out, Say(t, text, "blind"))
        out.add(Refused(t, self.blind, refusal.reason))
        if refusal.reason in _NOT_AN_ATTEMPT:
            return
        self.attempts[self.blind] += 1
        if self.profile == "tournament":
            entry = LogEntry(t, "illegal_attempt", self.blind, text)
            self.log.append(entry)
            self._to_arbiter(
                out,
                t,
                "arbiter.attempt_logged",
                side=self.blind,
                count=self.attempts[self.blind],
                what=text,
            )

    def _repeat_back(
        self, heard: Sequence[Hypothesis], result: MatchResult, t: int, out: _Outputs
    ) -> bool:
        """The blind player repeated the opponent's move: "richtig", or what it really was."""
        if self.expect_repeat is None or not self.repeat_back:
            return False
        before = self._board_before_last()
        table = phrase_table(before, self.vocab)
        limit = self.settings.matching.accept_cost
        ranked = rank_phrases(heard, table.phrases, self.vocab, bound=limit)
        if not ranked or ranked[0][1] >= self._best_cost(result):
            return False
        repeated = ranked[0][0]
        actual = self.expect_repeat
        spoken_actual = render_move(before, actual, self.vocab)
        if repeated == actual:
            self._tell(out, t, "repeat_back.right")
        else:
            self._tell(
                out,
                t,
                "repeat_back.wrong",
                heard=render_move(before, repeated, self.vocab),
                move=spoken_actual,
            )
        return True

    def _board_before_last(self) -> chess.Board:
        before = self.board.copy(stack=False)
        if self.board.move_stack:
            before = self.board.copy()
            before.pop()
        return before

    # -- making moves ---------------------------------------------------------------------

    def _accept(self, move: chess.Move, t: int, out: _Outputs) -> None:
        """The blind player's move is accepted: made now, or when the correction window ends."""
        if self.clock.paused:
            self._tell(out, t, "paused")  # the question stays open until the clock runs again
            return
        self.pending = None
        if self.correction_ms > 0:
            spoken = render_move(self.board, move, self.vocab)
            self.pending = PendingCorrection(move, spoken, t + self.correction_ms)
            self._emit(out, Say(t, spoken, "blind"))
            return
        self._make(move, self.blind, t, out, announce_to="blind")

    def _close_window(self, t: int, out: _Outputs) -> None:
        """The correction window ended: the move is made and the opponent's clock starts."""
        pending = self.pending
        assert isinstance(pending, PendingCorrection)
        self.pending = None
        self._make(pending.move, self.blind, t, out, announce_to=None)

    def _make(
        self, move: chess.Move, side: Side, t: int, out: _Outputs, *, announce_to: Audience | None
    ) -> None:
        """Make and complete a move: board, clock, scoresheet, announcement, game end."""
        entry = self._push(move, side, t, press=True)
        spoken = entry.spoken
        if announce_to == "blind":
            self._emit(out, Say(t, spoken, "blind"))
        out.add(MoveMade(t, entry.uci, entry.san, side, spoken))
        if side == self.sighted:
            self._emit(out, Say(t, spoken, "blind"))
            self.expect_repeat = move if self.repeat_back else None
        else:
            self.expect_repeat = None
        if isinstance(self.pending, PendingResign) and side == self.blind:
            self.pending = None
        if self.offer is not None and self.offer.by != side:
            # 9.1.2.1 / §6.6: the recipient moved, which rejects the offer.
            by = self.offer.by
            self.offer = None
            self._say_all(out, t, "draw.rejected_by_move", by=by)
        self._check_game_end(side, t, out)

    def _push(self, move: chess.Move, side: Side, t: int, *, press: bool) -> Entry:
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

    def _check_game_end(self, side: Side, t: int, out: _Outputs) -> None:
        board = self.board
        if board.is_checkmate():
            self._end(t, "1-0" if side == "white" else "0-1", "checkmate", out)
        elif board.is_stalemate():
            self._end(t, "1/2-1/2", "stalemate", out)
        elif board.is_insufficient_material():
            self._end(t, "1/2-1/2", "dead_position", out)
        elif board.is_fivefold_repetition():
            self._end(t, "1/2-1/2", "fivefold_repetition", out)
        elif board.is_seventyfive_moves():
            self._end(t, "1/2-1/2", "seventyfive_moves", out)

    # -- the sighted player -----------------------------------------------------------------

    def _on_sighted_move(self, text: str, t: int, out: _Outputs) -> None:
        refusal = self._sighted_refusal(text)
        if refusal is not None:
            reason, sentence = refusal
            out.add(Refused(t, self.sighted, reason))
            self._emit(out, Say(t, sentence, "sighted"))
            if reason not in ("not_your_turn", "game_over", "paused", "unreadable"):
                self.attempts[self.sighted] += 1
                if self.profile == "tournament":
                    self.log.append(LogEntry(t, "illegal_attempt", self.sighted, text))
            return
        move = self._parse_sighted(text)
        assert move is not None
        self._make(move, self.sighted, t, out, announce_to=None)

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
            return "game_over", _m(
                language, "game.over", result=self._result_words(self.result, language)
            )
        if self.board.turn != color_of(self.sighted):
            return "not_your_turn", _m(language, "sighted.not_your_turn")
        if self.clock.paused:
            return "paused", _m(language, "sighted.paused")
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
                return "ambiguous", _m(language, "sighted.ambiguous", move=written)
            except chess.IllegalMoveError:
                return "illegal", _m(language, "sighted.illegal", move=written)
            except ValueError:
                return "unreadable", _m(language, "sighted.unreadable", move=written)
            return "illegal", _m(language, "sighted.illegal", move=written)
        intent = MoveIntent(
            from_file=chess.square_file(move.from_square),
            from_rank=chess.square_rank(move.from_square),
            to_square=move.to_square,
            promotion=move.promotion,
        )
        try:
            refusal = explain_refusal(self.board, intent, self.vocab)
        except ValueError:
            return "illegal", _m(language, "sighted.illegal", move=written)
        return refusal.reason, refusal.text(language)

    # -- commands ---------------------------------------------------------------------------

    def _on_key(self, key: str, t: int, out: _Outputs) -> None:
        if key.startswith("sighted:"):
            self._sighted_key(key, t, out)
            return
        if key in self.vocab.commands or key in ("choice",):
            self._command(Command(key), t, out)
            return
        self._tell(out, t, "key.unknown", name=key)

    def _command(self, command: Command, t: int, out: _Outputs) -> None:
        name = command.name
        if self.result is not None and name not in _AFTER_GAME:
            self._tell(out, t, "game.over", result=self._result_words(self.result))
            return
        handler: Callable[[Command, int, _Outputs], None] = getattr(self, f"_cmd_{name}")
        handler(command, t, out)

    def _cmd_yes(self, command: Command, t: int, out: _Outputs) -> None:
        match self.pending:
            case PendingConfirm(move=move):
                self._accept(move, t, out)
            case PendingResign():
                self.pending = None
                self._resign(self.blind, t, out)
            case _ if self.offer is not None and self.offer.by == self.sighted:
                self._tell(out, t, "draw.how_to_answer")
            case _:
                self._tell(out, t, "nothing_to_answer")

    def _cmd_no(self, command: Command, t: int, out: _Outputs) -> None:
        match self.pending:
            case PendingConfirm() | PendingChoice():
                self.pending = None
                self._tell(out, t, "confirm.discarded")
            case PendingResign():
                self.pending = None
                self._tell(out, t, "resign.cancelled")
            case _ if self.offer is not None and self.offer.by == self.sighted:
                self.offer = None
                self._say_all(out, t, "draw.declined", by=self.blind)
            case _:
                self._tell(out, t, "nothing_to_answer")

    def _cmd_choice(self, command: Command, t: int, out: _Outputs) -> None:
        pending = self.pending
        if not isinstance(pending, PendingChoice) or command.count is None:
            self._tell(out, t, "nothing_to_answer")
            return
        if not 1 <= command.count <= len(pending.moves):
            last = self.vocab.number_words[len(pending.moves) - 1]
            self._tell(out, t, "choose.out_of_range", last=last)
            return
        self._accept(pending.moves[command.count - 1], t, out)

    def _cmd_correction(self, command: Command, t: int, out: _Outputs) -> None:
        match self.pending:
            case PendingCorrection():
                # D.2.8: corrected before the opponent's clock started; nothing was made.
                self.pending = None
                self._tell(out, t, "correction.done")
            case PendingConfirm() | PendingChoice():
                self.pending = None
                self._tell(out, t, "confirm.discarded")
            case _ if self.sheet.entries and self.sheet.entries[-1].by == self.blind:
                self._tell(out, t, "correction.too_late")
            case _:
                self._tell(out, t, "correction.nothing")

    def _cmd_time(self, command: Command, t: int, out: _Outputs) -> None:
        self._tell_text(out, t, ann.time_words(self.clock, t, self.blind, self.language))

    def _cmd_moves(self, command: Command, t: int, out: _Outputs) -> None:
        self._tell_text(out, t, ann.moves_words(self.clock, self.blind, self.language))

    def _cmd_repeat(self, command: Command, t: int, out: _Outputs) -> None:
        if self.last_said:
            self._emit(out, Say(t, self.last_said, "blind"), remember=False)
        else:
            self._tell(out, t, "nothing_said")

    def _cmd_last_move(self, command: Command, t: int, out: _Outputs) -> None:
        self._tell_text(out, t, ann.last_move_words(self.sheet, self.language))

    def _cmd_last_moves(self, command: Command, t: int, out: _Outputs) -> None:
        count = command.count or 1
        self._tell_text(out, t, ann.last_moves_words(self.sheet, count, self.language))

    def _cmd_position(self, command: Command, t: int, out: _Outputs) -> None:
        self._tell_text(out, t, position_words(self.board, self.vocab, self.language))

    def _cmd_where(self, command: Command, t: int, out: _Outputs) -> None:
        if command.piece is None:
            self._tell(out, t, "where.which_piece")
            return
        self._tell_text(out, t, where_words(self.board, command.piece, self.vocab, self.language))

    def _cmd_whose_turn(self, command: Command, t: int, out: _Outputs) -> None:
        turn = side_of(self.board.turn)
        if isinstance(self.pending, PendingCorrection):
            turn = self.blind  # the move is not made yet
        key = "turn.blind" if turn == self.blind else "turn.sighted"
        self._tell(out, t, key, side=ann.side_name(turn, self.language))

    def _cmd_scoresheet(self, command: Command, t: int, out: _Outputs) -> None:
        self._tell_text(out, t, self.sheet.spoken_lines(self.language))

    def _cmd_help(self, command: Command, t: int, out: _Outputs) -> None:
        words = ann.command_list(self.vocab, _HELP_COMMANDS, self.language)
        match self.pending:
            case PendingConfirm(spoken=spoken):
                self._tell(out, t, "help.confirm", move=spoken)
            case PendingChoice(moves=moves):
                last = self.vocab.number_words[len(moves) - 1]
                self._tell(out, t, "help.choose", last=last)
            case PendingCorrection():
                self._tell(out, t, "help.correction")
            case PendingResign():
                self._tell(out, t, "help.resign")
            case _ if self.result is not None:
                self._tell(out, t, "help.over", commands=words)
            case _ if self.board.turn != color_of(self.blind):
                self._tell(out, t, "help.wait", commands=words)
            case _:
                self._tell(out, t, "help.move", commands=words)

    def _cmd_stop(self, command: Command, t: int, out: _Outputs) -> None:
        """Stopping the speech now playing is the speech adapter's job; nothing changes here."""

    def _cmd_pause(self, command: Command, t: int, out: _Outputs) -> None:
        self._cmd_arbiter(command, t, out)

    def _cmd_arbiter(self, command: Command, t: int, out: _Outputs) -> None:
        self._call_arbiter(self.blind, t, out)

    def _cmd_draw(self, command: Command, t: int, out: _Outputs) -> None:
        self._finish_window(t, out)
        if command.rest:
            self._claim_with_move(command.rest, t, out)
        else:
            self._draw(self.blind, t, out)

    def _cmd_resign(self, command: Command, t: int, out: _Outputs) -> None:
        self._finish_window(t, out)
        self.pending = PendingResign()
        self._tell(out, t, "resign.question")

    def _finish_window(self, t: int, out: _Outputs) -> None:
        """ "Remis" or "Aufgabe" after a move: the move stands, the window closes now."""
        if isinstance(self.pending, PendingCorrection):
            self._close_window(t, out)

    # -- the sighted side's keys --------------------------------------------------------------

    def _sighted_key(self, key: str, t: int, out: _Outputs) -> None:
        language = self.opponent_language
        if self.result is not None:
            text = _m(language, "game.over", result=self._result_words(self.result, language))
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
                    self._emit(out, Say(t, _m(language, "draw.no_offer"), "sighted"))
            case "sighted:draw_decline":
                if self.offer is not None and self.offer.by == self.blind:
                    self.offer = None
                    self._say_all(out, t, "draw.declined", by=side)
                else:
                    self._emit(out, Say(t, _m(language, "draw.no_offer"), "sighted"))
            case "sighted:draw_claim":
                self._claim(side, None, t, out)
            case "sighted:resign":
                self._resign(side, t, out)
            case "sighted:arbiter":
                self._call_arbiter(side, t, out)
            case _:
                self._emit(out, Say(t, _m(language, "key.unknown", name=key), "sighted"))

    # -- draws, claims and resignation --------------------------------------------------------

    def _draw(self, side: Side, t: int, out: _Outputs) -> None:
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

    def _offer(self, side: Side, t: int, out: _Outputs) -> None:
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

    def _agree(self, t: int, out: _Outputs) -> None:
        self.offer = None
        self._end(t, "1/2-1/2", "agreement", out)

    @staticmethod
    def _claim_reason(board: chess.Board) -> str | None:
        if board.is_repetition(3):
            return "threefold_repetition"
        if board.halfmove_clock >= 100:
            return "fifty_moves"
        return None

    def _claim_with_move(self, rest: tuple[str, ...], t: int, out: _Outputs) -> None:
        """ "Remis Springer Felix drei": a claim naming the intended move (9.2.1.1, 9.3.1.1)."""
        if self.board.turn != color_of(self.blind):
            self._tell(out, t, "turn.not_yours")
            return
        result = match_move(self.board, [Hypothesis(rest)], self.vocab, self.settings.matching)
        if result.decision != Decision.ACCEPT or result.move is None:
            self._tell(out, t, "draw.claim_move_unclear")
            return
        self._claim(self.blind, result.move, t, out)

    def _claim(self, side: Side, move: chess.Move | None, t: int, out: _Outputs) -> None:
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
        opponent = other(side)
        penalty = duration_words(self.control.penalty_ms, self.language)
        self.log.append(LogEntry(t, "wrong_claim", side, move.uci() if move else ""))
        if self.profile == "home":
            self.clock.apply_penalty(opponent, t)
            self._say_all(out, t, "claim.wrong_penalised", by=side, penalty=penalty)
        else:
            self._say_all(out, t, "claim.wrong_logged", by=side)
            self._to_arbiter(out, t, "arbiter.wrong_claim_logged", side=side, penalty=penalty)
        if move is not None:
            self._make(move, side, t, out, announce_to="blind" if side == self.blind else None)
        if self.result is None and self.board.turn != color_of(side):
            self.offer = DrawOffer(side, t)  # 9.1.2.3: the claim counts as an offer
            self.sheet.mark_offer()

    def _record_claimed_move(self, move: chess.Move, side: Side, t: int, out: _Outputs) -> None:
        """The intended move of a correct claim is written on the scoresheet (9.2.1.1)."""
        entry = self._push(move, side, t, press=False)
        out.add(MoveMade(t, entry.uci, entry.san, side, entry.spoken))

    def _resign(self, side: Side, t: int, out: _Outputs) -> None:
        winner = other(side)
        if self.board.has_insufficient_material(color_of(winner)):
            # 2023 (5.1.2 with 5.2.2): the opponent could not win, so the game is drawn.
            self._end(t, "1/2-1/2", "resignation_draw", out, by=side)
        else:
            self._end(t, "1-0" if winner == "white" else "0-1", "resignation", out, by=side)

    def _call_arbiter(self, side: Side, t: int, out: _Outputs) -> None:
        """6.11: a player may stop the clocks only to call the arbiter."""
        self.log.append(LogEntry(t, "arbiter_called", side))
        if not self.clock.paused:
            self.clock.pause(t)
        self._say_all(out, t, "arbiter.called", by=side)

    # -- game end -------------------------------------------------------------------------

    def _end(
        self,
        t: int,
        result: str,
        reason: str,
        out: _Outputs,
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
        self.sheet.finish(result, reason)
        out.add(final)
        self._say_all(out, t, "result.announce", final=final, by=by)

    def _result_words(self, result: Result, language: str | None = None) -> str:
        language = language or self.language
        winners: dict[str, Side] = {"1-0": "white", "0-1": "black"}
        winner = winners.get(result.result)
        reason = _m(language, f"reason.{result.reason}")
        if winner is None:
            return _m(language, "result.draw", reason=reason)
        return _m(language, "result.win", side=ann.side_name(winner, language), reason=reason)

    # -- arbiter ------------------------------------------------------------------------------

    def _on_arbiter(self, action: str, params: dict[str, Any], t: int, out: _Outputs) -> None:
        try:
            command = read_action(action, params)
        except ArbiterError as error:
            self._to_arbiter(out, t, "arbiter.refused", action=action, error=str(error))
            return
        self.log.append(LogEntry(t, action, command.side, command.reason, dict(params)))
        try:
            self._apply_arbiter(command, t, out)
        except ClockError as error:
            self._to_arbiter(out, t, "arbiter.refused", action=action, error=str(error))
            return
        self._to_arbiter(out, t, "arbiter.logged", action=action, reason=command.reason or "-")

    def _apply_arbiter(self, command: ArbiterCommand, t: int, out: _Outputs) -> None:
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
                self._rearm_warnings(t)
                self._say_all(
                    out,
                    t,
                    "arbiter.time_set",
                    side=command.side,
                    ms=self.clock.remaining_ms(command.side, t),
                )
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
                if command.retraction is not None:
                    self._retract(command.retraction, t, out)
                self._illegal_move(command.side, t, out)
            case "wrong_claim":
                assert command.side is not None
                self.wrong_claims[command.side] += 1
                self.clock.apply_penalty(other(command.side), t)
                self._say_all(
                    out,
                    t,
                    "arbiter.penalty",
                    side=other(command.side),
                    ms=self.control.penalty_ms,
                )
            case "penalty":
                assert command.side is not None
                self.clock.apply_penalty(command.side, t)
                self._rearm_warnings(t)
                self._say_all(
                    out, t, "arbiter.penalty", side=command.side, ms=self.control.penalty_ms
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

    def _illegal_move(self, side: Side, t: int, out: _Outputs) -> None:
        """7.5.5: the first completed illegal move gives the opponent time, the second loses."""
        self.illegal_moves[side] += 1
        opponent = other(side)
        if self.illegal_moves[side] == 1:
            self.clock.apply_penalty(opponent, t)
            self._say_all(out, t, "arbiter.penalty", side=opponent, ms=self.control.penalty_ms)
            return
        if self.board.has_insufficient_material(color_of(opponent)):
            self._end(t, "1/2-1/2", "illegal_moves_draw", out, by=side)
        else:
            self._end(t, "1-0" if opponent == "white" else "0-1", "illegal_moves", out, by=side)

    def _retract(self, back: Retraction, t: int, out: _Outputs) -> None:
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

    # -- saying things ----------------------------------------------------------------------

    def _audiences(self) -> list[tuple[Audience, str]]:
        """(audience, language) pairs for something both players must hear."""
        if self.language == self.opponent_language:
            return [("all", self.language)]
        return [("blind", self.language), ("sighted", self.opponent_language)]

    def _emit(self, out: _Outputs, say: Say, *, remember: bool = True) -> None:
        out.add(say)
        if remember and say.to in ("blind", "all"):
            self.last_said = say.text

    def _tell(self, out: _Outputs, t: int, key: str, **params: Any) -> None:
        """One sentence to the blind player."""
        self._emit(out, Say(t, _m(self.language, key, **params), "blind"))

    def _tell_text(self, out: _Outputs, t: int, text: str) -> None:
        self._emit(out, Say(t, text, "blind"))

    def _tell_side(self, side: Side, out: _Outputs, t: int, key: str, **params: Any) -> None:
        """One sentence to the player of ``side``, in their language."""
        if side == self.blind:
            self._tell(out, t, key, **params)
        else:
            text = _m(self.opponent_language, key, **params)
            self._emit(out, Say(t, text, "sighted"))

    def _to_arbiter(self, out: _Outputs, t: int, key: str, **params: Any) -> None:
        """A line for the arbiter's log (in the opponent's page language)."""
        text = self._sentence(key, self.opponent_language, params)
        out.add(Say(t, text, "arbiter"))

    def _say_all(self, out: _Outputs, t: int, key: str, **params: Any) -> None:
        """One sentence to both players, each in their language."""
        for to, language in self._audiences():
            self._emit(out, Say(t, self._sentence(key, language, params), to))

    def _sentence(self, key: str, language: str, params: dict[str, Any]) -> str:
        """Fill a sentence: sides become their names, ``ms`` a time in words."""
        filled: dict[str, Any] = {}
        for name, value in params.items():
            if name == "final":
                continue
            if name in ("side", "by") and value is not None:
                filled[name] = ann.side_name(value, language)
            elif name == "ms":
                filled["time"] = duration_words(int(value), language)
            elif name == "count":
                filled[name] = number_words(int(value), language)
            elif name == "penalty":
                filled[name] = duration_words(self.control.penalty_ms, language)
            elif value is not None:
                filled[name] = value
        if key == "result.announce":
            final = params["final"]
            return self._result_words(final, language)
        return _m(language, key, **filled)

    def _pending_question(self) -> str:
        match self.pending:
            case PendingConfirm(spoken=spoken):
                return _m(self.language, "confirm.question", move=spoken)
            case PendingChoice(spoken=spoken_list):
                return _m(self.language, "choose.question", options=self._options(spoken_list))
            case PendingCorrection(spoken=spoken):
                return spoken
            case PendingResign():
                return _m(self.language, "resign.question")
        return ""

    def _running(self) -> Side | None:
        if self.result is not None or self.clock.paused:
            return None
        return self.clock.running

    def _clock_state(self, t: int) -> ClockState:
        return ClockState(
            t,
            self.clock.remaining_ms("white", t),
            self.clock.remaining_ms("black", t),
            self._running(),
            self.clock.moves_completed("white"),
        )


_HEADER_KEYS = frozenset({"event", "site", "date", "round", "white", "black"})


def _m(language: str, key: str, **params: Any) -> str:
    """A session sentence: the catalogue keys of this module live under ``game.``."""
    if key == "not_understood":
        return message(language, key, **params)
    return message(language, f"game.{key}", **params)
