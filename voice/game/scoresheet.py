"""The scoresheet: every made move with its clock time, as PGN and read back aloud.

D.2.7 lets the blind player record the game on a recording device; the program keeps that
scoresheet. The PGN carries ``[%clk]`` (the mover's time left after the move) on every move,
the headers an arbiter needs (event, players, date, time control, the Laws edition, result,
termination) and the
draw offers marked "(=)" as 9.1.2.2 asks. The session owns the board; this module only records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import chess
import chess.pgn

from voice.rules.events import Side
from voice.words.messages import message
from voice.words.spoken_time import number_words

# PGN Termination tag values (PGN standard 9.8.1) for the reasons the session gives.
TERMINATION: Mapping[str, str] = {
    "checkmate": "normal",
    "stalemate": "normal",
    "dead_position": "normal",
    "fivefold_repetition": "normal",
    "seventyfive_moves": "normal",
    "threefold_repetition": "normal",
    "fifty_moves": "normal",
    "agreement": "normal",
    "resignation": "normal",
    "time_forfeit": "time forfeit",
    "time_forfeit_draw": "time forfeit",
    "resignation_draw": "normal",
    "illegal_moves": "rules infraction",
    "illegal_moves_draw": "rules infraction",
    "arbiter": "adjudication",
}

HEADER_KEYS: Mapping[str, str] = {
    "event": "Event",
    "site": "Site",
    "date": "Date",
    "round": "Round",
    "white": "White",
    "black": "Black",
}


@dataclass(frozen=True)
class Entry:
    """One made move as the scoresheet holds it."""

    ply: int  # 1 for White's first move in the game (or the first move from the set-up)
    uci: str
    san: str
    spoken: str
    by: Side
    t_ms: int
    clock_ms: int  # the mover's time left after the move (increment included)
    fullmove: int  # the move number printed before White's move


@dataclass
class Scoresheet:
    """Moves in order, draw offers by ply, and the result once the game has ended."""

    start_fen: str
    time_control: str
    headers: dict[str, str] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    offers: set[int] = field(default_factory=set)  # plies after which a draw was offered
    result: str = "*"
    reason: str = ""
    laws: str = ""  # the FIDE Laws edition the game is played under ("2023", ...)
    by: Side | None = None  # who resigned, overstepped the time or moved illegally
    note: str = ""
    """How the game ended, in words, for the PGN's closing comment (the session writes it in
    the game's language)."""

    def record(self, entry: Entry) -> None:
        self.entries.append(entry)

    def mark_offer(self) -> None:
        """Mark "(=)" on the last move: an offer is made after one's own move (9.1.2.1)."""
        if self.entries:
            self.offers.add(self.entries[-1].ply)

    def truncate(self, plies: int) -> None:
        """Keep the first ``plies`` moves (the arbiter retracted the rest, D.2.9)."""
        del self.entries[plies:]
        self.offers = {ply for ply in self.offers if ply <= plies}

    def finish(self, result: str, reason: str, by: Side | None = None, note: str = "") -> None:
        self.result = result
        self.reason = reason
        self.by = by
        self.note = note

    def reopen(self) -> None:
        self.result = "*"
        self.reason = ""
        self.by = None
        self.note = ""

    # -- PGN ------------------------------------------------------------------------------

    def pgn(self) -> str:
        """The game as PGN text with ``[%clk]`` comments and "(=)" for draw offers."""
        game = chess.pgn.Game()
        game.headers["Event"] = "?"
        for key, tag in HEADER_KEYS.items():
            if key in self.headers:
                game.headers[tag] = str(self.headers[key])
        game.headers["Result"] = self.result
        if self.time_control:
            game.headers["TimeControl"] = self.time_control
        if self.laws:
            game.headers["Laws"] = f"FIDE {self.laws}"
        if self.start_fen != chess.STARTING_FEN:
            game.setup(chess.Board(self.start_fen))
        if self.result != "*":
            game.headers["Termination"] = TERMINATION.get(self.reason, "normal")
        node: chess.pgn.GameNode = game
        for entry in self.entries:
            node = node.add_variation(chess.Move.from_uci(entry.uci))
            # Whole seconds, as a clock shows them ("0:14:30", not "0:14:30.982" beside
            # "0:00:00"): the usual [%clk] form, which readers of the PGN expect.
            node.set_clock(entry.clock_ms // 1000)
            if entry.ply in self.offers:
                node.comment = f"{node.comment} (=)".strip()
        if self.result != "*" and self.note:
            # In the game's words, naming whose it was ("Schwarz gewinnt:
            # Zeitüberschreitung."): the comment stands on the last move, often the other
            # side's. The Termination tag keeps the standard's English for programs.
            node.comment = f"{node.comment} {self.note}".strip()
        exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
        return game.accept(exporter)

    # -- spoken ---------------------------------------------------------------------------

    def spoken_lines(self, language: str, entries: list[Entry] | None = None) -> str:
        """Moves read back in pairs: "Eins: Eva vier, Eva fünf. Zwei: …"."""
        chosen = self.entries if entries is None else entries
        if not chosen:
            return message(language, "scoresheet.empty")
        parts: list[str] = []
        pending: dict[str, str] = {}  # the words of a move pair: number, white, black
        for entry in chosen:
            if entry.by == "white":
                if pending:
                    parts.append(_pair(language, pending))
                pending = {"number": _number(entry, language), "white": entry.spoken}
            else:
                if not pending:
                    pending = {"number": _number(entry, language)}
                pending["black"] = entry.spoken
                parts.append(_pair(language, pending))
                pending = {}
        if pending:
            parts.append(_pair(language, pending))
        return " ".join(parts)


def _number(entry: Entry, language: str) -> str:
    """Move numbers are said as words, capitalised at the start of a sentence."""
    words = number_words(entry.fullmove, language)
    return words[:1].upper() + words[1:]


def _pair(language: str, item: Mapping[str, str]) -> str:
    if "white" in item and "black" in item:
        return message(language, "scoresheet.pair", **item)
    if "white" in item:
        return message(language, "scoresheet.white_only", **item)
    return message(language, "scoresheet.black_only", **item)
