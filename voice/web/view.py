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

from typing import Any

import chess

from voice.approval import SetupApproval
from voice.clock_mode import describe_control
from voice.config import Settings
from voice.events import Say, Side
from voice.host import GameHost
from voice.messages import RIGHT_TO_LEFT, display_text, isolate_latin, message
from voice.session import GameSession, side_of
from voice.web.pairing import Role
from voice.web.protocol import MoveIn, PendingView, ProtocolError, View

SIDES: tuple[Side, Side] = ("white", "black")


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
        if role == "arbiter":
            view["profile"] = state["profile"]
            view["laws"] = state["laws"]
            view["time_control"] = state["time_control"]
            for key in ("illegal_attempts", "illegal_moves", "wrong_claims"):
                view[key] = state[key]
            view["log"] = [self._log_line(entry, language) for entry in state["log"]]
        if self.approval is not None:
            view["approval"] = self._approval_view(self.approval, language)
        return View.model_validate(view)

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
        kind = pending["kind"]
        if kind not in ("correction", "confirm", "choose"):
            return None  # a question about resigning: no move to show
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

    def _approval_view(self, approval: SetupApproval, language: str) -> dict[str, Any]:
        """The set-up in words of the page's language (as it reads, without speech marks)."""
        control = display_text(describe_control(approval.control, language), language)
        return {
            "approved": approval.approved,
            "via": approval.via,
            "control": isolate_latin(control) if language in RIGHT_TO_LEFT else control,
            "blind": approval.blind,
            "ranks": list(approval.rank_words),
            "files": list(approval.file_words),
        }

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

    def _text(self, key: str, fallback: str, language: str, **params: Any) -> str:
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
        if worded != f"reason.{code}":  # the 2001 Laws say it their own way (voice.laws)
            text = self._text(f"game.{worded}", code, language)
            return text[:1].upper() + text[1:]
        return self._text(
            f"web.reason.{code}", self._text(f"reason.{code}", code, language), language
        )

    def _log_line(self, entry: dict[str, Any], language: str) -> dict[str, Any]:
        """One log entry as a sentence for the arbiter, with its game time."""
        kind = entry["kind"]
        side = entry.get("side")
        parts = [self._text(f"web.log.{kind}", kind, language)]
        if side:
            parts.append(self._text(f"web.side.{side}", side, language))
        params = {k: v for k, v in entry.get("params", {}).items() if k != "reason"}
        parts += [f"{k}={v}" for k, v in params.items() if k != "side"]
        if entry.get("detail"):
            detail = entry["detail"]
            parts.append(self._text("web.log.quoted", detail, language, text=detail))
        return {"t_ms": round(entry["t"] * 1000), "kind": kind, "text": " · ".join(parts)}

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
