"""What each page is shown: the session's own snapshot, cut to the role that looks at it.

The session is the authority for everything here (position, moves, clocks, offers, result,
log); this module only selects and names. The list of legal moves goes to the opponent's page
so it can refuse an illegal click at once; the server still hands every move to the session.
Clocks are read at the moment the snapshot is sent, so a page that ticks locally from there is
right to within the time the message takes.

On a tournament board the pages are served while the arbiter checks the set-up: until the
approval the clocks stand still (the host holds game time), no move is offered and every
message but the approval is refused.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import chess

from voice.config import Settings
from voice.game.announcements import setup_rules
from voice.game.clock_mode import describe_control
from voice.game.session import GameSession, side_of
from voice.game.session_base import logged_action, why_words
from voice.rules.approval import SetupApproval
from voice.rules.events import Say, Side
from voice.rules.laws import ILLEGAL_KINDS
from voice.runtime.host import GameHost
from voice.web.pairing import Role
from voice.web.protocol import (
    ApprovalView,
    MoveIn,
    PendingKind,
    PendingView,
    ProtocolError,
    View,
)
from voice.words.messages import RIGHT_TO_LEFT, display_text, isolate_latin, message

SIDES: tuple[Side, Side] = ("white", "black")


def clock_reading(ms: int) -> str:
    """A clock's time as its display shows it: "1:05:09", "15:00"."""
    seconds = abs(ms) // 1000
    hours, minutes = divmod(seconds // 60, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds % 60:02d}"
    return f"{minutes}:{seconds % 60:02d}"


def signed_clock(ms: int) -> str:
    """A change of a clock: "+2:00", "\u22120:30"."""
    return ("+" if ms >= 0 else "\u2212") + clock_reading(ms)


class GameView:
    """Snapshots of one game for the opponent, the arbiter and spectators."""

    def __init__(
        self,
        host: GameHost,
        settings: Settings,
        language: str,
        approval: SetupApproval | None = None,
    ) -> None:
        if not isinstance(host.core, GameSession):
            raise TypeError("the web board needs a game session, not a talking clock")
        self.host = host
        self.session: GameSession = host.core
        self.settings = settings
        self.language = language
        self.sighted: Side = self.session.sighted
        self.blind: Side = self.session.blind
        self.approval = approval

    # -- snapshots ------------------------------------------------------------------------

    def view_for(self, role: Role, language: str | None = None) -> View:
        """What ``role``'s page draws, its texts in ``language`` (default: the opponent's)."""
        language = language or self.language
        state = self.session.state()
        now = self.host.now_ms()
        clock = self.session.clock
        moves = [
            {k: move[k] for k in ("ply", "by", "uci", "san", "spoken")} for move in state["moves"]
        ]
        blind_moves = [move for move in moves if move["by"] == self.blind]
        result = state["result"]
        # Before the arbiter's approval no display runs, whatever the session's clock says.
        running = None if self.host.held else state["clock"]["running"]
        view: dict[str, Any] = {
            "role": role,
            "blind": self.blind,
            "sighted": self.sighted,
            "fen": state["fen"],
            "turn": state["turn"],
            "ply": len(moves),
            "in_check": state["check"],
            "moves": moves,
            "last_blind": blind_moves[-1] if blind_moves else None,
            "clock": {
                "white_ms": clock.remaining_ms("white", now),
                "black_ms": clock.remaining_ms("black", now),
                "running": running,
                "paused": state["clock"]["paused"],
                "moves": state["clock"]["moves"],
                "delay_ms": self._delay_left(running, now),
            },
            "draw_offer": state["draw_offer"]["by"] if state["draw_offer"] else None,
            "result": None
            if result is None
            else {**result, "text": self._reason(result, language)},
            "large_text": self.settings.web.large_text_moves,
            "language": language,
            "check": self._check_square(),
        }
        if role in ("opponent", "arbiter") and state["pending"]:
            view["pending"] = self._pending(state["pending"], language)
        if role == "opponent":
            view["me"] = self.sighted
            view["legal"] = self._legal(state)
            view["legal_san"] = {uci: self._san(uci) for uci in view["legal"]}
            view["self_check"] = self._self_check() if view["legal"] else []
            claims = self.session.draws.claim_moves(self.session.board) if view["legal"] else []
            view["claim_moves"] = [move.uci() for move in claims]
            session = self.session
            view["flag_claim"] = (
                result is None
                and session.laws.flag_needs_claim(session.control)
                and session.clock.is_down(self.blind)
            )
        if role == "arbiter":
            view["profile"] = state["profile"]
            view["laws"] = state["laws"]
            view["time_control"] = state["time_control"]
            view["penalty_ms"] = self.session.clock.penalty_ms
            counted = self.session.laws.illegal_kinds
            view["illegal_kinds"] = [kind for kind in ILLEGAL_KINDS if kind in counted]
            for key in ("illegal_attempts", "illegal_moves", "wrong_claims"):
                view[key] = state[key]
            sheet = state["moves"]
            view["log"] = [self._log_line(entry, language, sheet) for entry in state["log"]]
        if self.approval is not None:
            view["approval"] = self._approval_view(self.approval, language)
        return View.model_validate(view)

    def _self_check(self) -> list[str]:
        """Moves the pieces could make but that leave the own king in check (3.9): the page
        names that reason instead of a bare "not legal"."""
        board = self.session.board
        return [m.uci() for m in board.pseudo_legal_moves if not board.is_legal(m)]

    def _san(self, uci: str) -> str:
        return self.session.board.san(chess.Move.from_uci(uci))

    def _check_square(self) -> str | None:
        """Where the king in check stands (the board marks it, as a sighted player sees it)."""
        board = self.session.board
        king = board.king(board.turn) if board.is_check() else None
        return None if king is None else chess.square_name(king)

    def _pending(self, pending: dict[str, Any], language: str) -> PendingView | None:
        """The blind player's said, not yet made move as a line of the page's language
        ("Schwarz sagt: Springer Felix drei (Sf3) — wird bestätigt")."""
        kind: PendingKind
        match pending["kind"]:
            case "correction" | "confirm" | "choose" as said:
                kind = said
            case "promotion":  # which piece: a choice between the four promotions
                kind = "choose"
            case _:  # a question about resigning, or about the opponent's move
                return None
        moves = pending["moves"] if kind == "choose" else [pending["move"]]
        spoken = pending["spoken"]
        words = " / ".join(spoken) if isinstance(spoken, list) else str(spoken)
        san = [self._san(uci) for uci in moves]
        side = self._text(f"web.side.{self.blind}", self.blind, language)
        text = self._text(
            f"web.pending.{kind}", words, language, side=side, words=words, san=", ".join(san)
        )
        squares = [moves[0][:2], moves[0][2:4]] if len(moves) == 1 else []
        return PendingView(
            kind=kind, by=self.blind, spoken=words, san=san, squares=squares, text=text
        )

    def _approval_view(self, approval: SetupApproval, language: str) -> ApprovalView:
        """The set-up in words of the page's language (as it reads, without speech marks)."""
        control = display_text(describe_control(approval.control, language), language)
        rules = display_text(setup_rules(approval, language), language)
        if language in RIGHT_TO_LEFT:
            control, rules = isolate_latin(control), isolate_latin(rules)
        return ApprovalView(
            approved=approval.approved,
            via=approval.via,
            control=control,
            blind=approval.blind,
            ranks=list(approval.rank_words),
            files=list(approval.file_words),
            rules=rules,
        )

    def _delay_left(self, running: Side | None, now: int) -> int:
        """Delay mode (6.3.2): how long the running display still stands still.

        Read from the clock itself: over one whole delay from now, a display still in its
        delay is charged only what is left after the delay ends.
        """
        if running is None:
            return 0
        clock = self.session.clock
        delay = self.session.control.period(clock.period_index(running)).delay_ms
        if delay == 0:
            return 0
        charged = clock.remaining_ms(running, now) - clock.remaining_ms(running, now + delay)
        return max(0, delay - charged)

    def _legal(self, state: dict[str, Any]) -> list[str]:
        """The sighted player's legal moves, when a move of theirs could be made now."""
        if self.host.held or state["result"] or state["clock"]["paused"]:
            return []
        if state["turn"] != self.sighted:
            return []
        return [move.uci() for move in self.session.board.legal_moves]

    def _text(self, key: str, fallback: str, language: str, **params: object) -> str:
        try:
            text = message(language, key, **params)
        except KeyError:
            return fallback
        text = display_text(text, language)
        return isolate_latin(text) if language in RIGHT_TO_LEFT else text

    def notice_text(self, say: Say) -> str:
        """A sentence of the session as a page shows it: in the language it was written in
        (the blind player's for what they were told, which the arbiter's panel also shows),
        without the Hebrew points and Arabic vowel marks that are there for the voice."""
        language = self.session.language if say.to == "blind" else self.language
        text = display_text(say.text, language)
        return isolate_latin(text) if language in RIGHT_TO_LEFT else text

    def _reason(self, result: dict[str, Any], language: str) -> str:
        code = result["reason"]
        worded = self.session.laws.wording(f"reason.{code}")
        if worded != f"reason.{code}":  # the 2001 Laws say it their own way (voice.rules.laws)
            text = self._text(f"game.{worded}", code, language)
            return text[:1].upper() + text[1:]
        return self._text(
            f"web.reason.{code}", self._text(f"reason.{code}", code, language), language
        )

    def _log_line(
        self, entry: dict[str, Any], language: str, moves: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """One log entry as the arbiter reads it, in the page's language: what was done, to
        whom, the amount (a time as m:ss, a position as "after 17. Nf3") and the reason given.
        Internal names and values (action keys, half-move counts, UCI, program errors) never
        show; an action the game refused reads "Not done: …"."""
        kind = entry["kind"]
        action = kind.removeprefix("refused:")
        params = entry.get("params", {})
        text = partial(self._text, language=language)
        named = logged_action(action, params)  # an illegal move by its kind (7.5.3, 7.5.4)
        parts = [text(f"web.log.{named}", text("web.log.unknown", action))]
        side = params.get("side") or entry.get("side")
        if side in SIDES:
            parts.append(text(f"web.side.{side}", side))
        elif action == "set_moves":
            parts.append(text("web.arbiter.both_sides", ""))
        amounts = self._amounts(action, params, language, moves)
        if language in RIGHT_TO_LEFT:  # "−0:30" keeps its order in a right-to-left line
            amounts = [f"\u2066{amount}\u2069" for amount in amounts]
        parts += amounts
        # The reason the arbiter gave, or what the blind player was told; the program's own
        # notes (an English error, a move in UCI) are not for the panel.
        if entry.get("detail") and (action == kind) and action not in ("touched", "wrong_claim"):
            detail = entry["detail"]
            parts.append(text("web.log.quoted", detail, text=detail))
        if action != kind and entry.get("why"):  # why the game refused it, in words
            why = display_text(why_words(entry["why"], language), language)
            parts.append(isolate_latin(why) if language in RIGHT_TO_LEFT else why)
        line = " · ".join(part for part in parts if part)
        if action != kind:
            line = text("web.log.refused", line, action=line)
        return {"t_ms": round(entry["t"] * 1000), "kind": kind, "text": line}

    def _amounts(
        self, action: str, params: dict[str, Any], language: str, moves: list[dict[str, Any]]
    ) -> list[str]:
        """The amount of an arbiter action in words an arbiter uses."""
        seconds = params.get("seconds")
        match action:
            case "add_time" if isinstance(seconds, int | float):
                return [signed_clock(round(seconds * 1000))]
            case "set_time" if isinstance(seconds, int | float):
                return [clock_reading(round(seconds * 1000))]
            case "penalty":
                return [signed_clock(self.session.clock.penalty_ms)]
            case "scoresheet_deduction" if isinstance(seconds, int | float):
                return [signed_clock(-round(seconds * 1000))]
            case "increment" if isinstance(seconds, int | float):
                return [f"+{seconds:g} {self._text('web.arbiter.seconds', '', language)}"]
            case "set_moves" if isinstance(params.get("moves"), int):
                return [self._text("web.log.moves", "", language, moves=params["moves"])]
            case "retract" | "illegal_move" if isinstance(params.get("ply"), int):
                return [self.position_words(params["ply"], language, moves)]
            case "declare_result" if isinstance(params.get("result"), str):
                return [params["result"].replace("1/2", "½")]
        return []

    def position_words(self, ply: int, language: str, moves: list[dict[str, Any]]) -> str:
        """A position as an arbiter names it: "after 17. Nf3", or "the starting position"."""
        if ply <= 0:
            return self._text("web.arbiter.retract_start", "", language)
        if ply <= len(moves):  # the move that led to it, as the scoresheet has it
            move = moves[ply - 1]
            number, san = move["number"], move["san"]
            dots = "." if move["by"] == "white" else "\u2026"
        else:  # taken back since: its number only
            number, san, dots = (ply + 1) // 2, "", "."
        words = self._text(
            "web.arbiter.retract_after", "", language, number=number, dots=dots, san=san
        )
        return words.strip()

    def pgn(self) -> str:
        return self.session.pgn()

    # -- is a message still about the game as it stands? --------------------------------

    def check_started(self) -> None:
        """Nothing happens on a board whose set-up the arbiter has not approved yet."""
        if self.host.held:
            raise ProtocolError("not_started")

    def approve_setup(self) -> None:
        """The arbiter's page approves the set-up; a second approval (the terminal was first,
        or a second click) changes nothing. A board without a set-up to approve refuses it."""
        if self.approval is None:
            raise ProtocolError("not_allowed")
        self.approval.approve("web")

    def check_move(self, move: MoveIn) -> None:
        """Refuse a move made on a position the page no longer shows, or out of turn.

        The session would refuse an out-of-turn move as well, but a stale page must not even
        reach the journal: what it sent was meant for another position.
        """
        if self.session.result is not None:
            raise ProtocolError("game_over")
        if move.ply != len(self.session.sheet.entries):
            raise ProtocolError("stale")
        if side_of(self.session.board.turn) != self.sighted:
            raise ProtocolError("not_your_turn")

    def check_draw_answer(self) -> None:
        """Accept or decline only what the blind player offered."""
        if self.session.result is not None:
            raise ProtocolError("game_over")
        offer = self.session.offer
        if offer is None or offer.by != self.blind:
            raise ProtocolError("no_offer")
