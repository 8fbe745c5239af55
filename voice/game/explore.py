"""Answers to the requests that explore the board, and the cursor the keys move over it.

A sighted player glances at the board; a blind player asks. These answers describe the board
(a file, a rank or a diagonal with its empty stretches counted, one square) or analyse it (who
attacks or covers a square, where a piece can go and why not, the material). Pure: a board and
a request in, one text out.

The tournament profile (project decision, docs/explore.md): describing the board is answered
on request like the position read-out (D.2.10.4), unless the arbiter has switched descriptions
off (``[session] describe_board``, D.1: the organiser and arbiter adapt Appendix D). Analysis
aids are refused with the reason, FIDE 11.3.1 (no advice or analysis during a game), and the
session logs the request for the arbiter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from voice.rules.events import Side
from voice.words.explore_words import (
    ANALYSING,
    DESCRIBING,
    EXPLORE_COMMANDS,
    diagonal_from,
    example,
)
from voice.words.messages import message
from voice.words.phrases import Refusal, render_move
from voice.words.position_words import ORDER, piece_name
from voice.words.spoken_time import number_words
from voice.words.utterance import Command
from voice.words.vocabulary import CAPTURE_WORDS, PIECE_WORDS, Vocabulary

CURSOR_STEPS: dict[str, tuple[int, int]] = {
    "cursor_up": (0, 1),
    "cursor_down": (0, -1),
    "cursor_left": (-1, 0),
    "cursor_right": (1, 0),
}
"""Cursor keys: (file, rank) steps as the blind player sits (up = towards the opponent)."""

CURSOR_REQUESTS: dict[str, str] = {
    "cursor_square": "square",
    "cursor_file": "file",
    "cursor_rank": "rank",
    "cursor_diagonal": "diagonal",
    "cursor_attackers": "attackers",
    "cursor_defenders": "defenders",
    "cursor_destinations": "destinations",
}
"""Keys that ask a request about the cursor square."""

EXPLORE_KEYS: frozenset[str] = frozenset(CURSOR_STEPS) | frozenset(CURSOR_REQUESTS) | {"material"}

_DESCRIBES_BOARD = DESCRIBING | {"position", "where"}
_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


@dataclass(frozen=True)
class Answer:
    """What to tell the blind player; ``refused`` names the request when the profile refused
    it (the session logs it for the arbiter)."""

    text: str
    refused: str | None = None


class Explorer:
    """The exploring requests of one game: its profile's rule and the cursor square."""

    def __init__(self, blind: Side, profile: str, describe_board: bool) -> None:
        self.blind = chess.WHITE if blind == "white" else chess.BLACK
        self.tournament = profile == "tournament"
        self.describe_board = describe_board
        # The cursor starts in the blind player's left-hand corner.
        self.cursor: chess.Square = chess.A1 if self.blind == chess.WHITE else chess.H8

    def refusal(self, name: str, language: str) -> str | None:
        """Why the profile refuses request ``name`` (one sentence), or None when it is allowed."""
        if not self.tournament:
            return None
        if name in ANALYSING:
            return message(language, "explore.refused_analysis")
        if name in _DESCRIBES_BOARD and not self.describe_board:
            return message(language, "explore.refused_description")
        return None

    def allowed(self) -> list[str]:
        """The exploring requests this profile answers, in the order help names them."""
        return [name for name in EXPLORE_COMMANDS if self.refusal(name, "en") is None]

    def help(self, vocab: Vocabulary, language: str) -> str:
        """One sentence naming an example of every request allowed here ("" when none is)."""
        names = self.allowed()
        if not names:
            return ""
        separator = message(language, "position.separator")
        examples = separator.join(example(name, vocab) for name in names)
        return message(language, "explore.help", examples=examples)

    def answer(
        self, command: Command, board: chess.Board, vocab: Vocabulary, language: str
    ) -> Answer:
        """The answer to an exploring request or key."""
        name = command.name
        squares = command.squares
        prefix = ""
        if name in CURSOR_STEPS:
            step = self._step(command.name)
            name, squares = "square", (self.cursor if step is None else step,)
            if step is None:
                prefix = message(language, "explore.edge") + " "
        elif name in CURSOR_REQUESTS:
            name, squares = CURSOR_REQUESTS[name], (self.cursor,)
        refused = self.refusal(name, language)
        if refused is not None:
            what = example(name, vocab, squares[0] if squares else None, board)
            return Answer(refused, refused=what)
        if name != "material" and not squares:
            return Answer(message(language, "explore.which", example=example(name, vocab)))
        if name in ("square", "attackers", "defenders", "destinations"):
            self.cursor = squares[0]  # the keys go on from the square asked about
        asked = Asked(name, squares, command.piece, board, vocab, language)
        return Answer(prefix + self._reply(asked))

    def _step(self, key: str) -> chess.Square | None:
        """The square one step from the cursor, or None at the edge (the cursor stays)."""
        file_step, rank_step = CURSOR_STEPS[key]
        if self.blind == chess.BLACK:
            file_step, rank_step = -file_step, -rank_step
        file = chess.square_file(self.cursor) + file_step
        rank = chess.square_rank(self.cursor) + rank_step
        if not (0 <= file < 8 and 0 <= rank < 8):
            return None
        return chess.square(file, rank)

    # -- the requests -----------------------------------------------------------------------

    def _reply(self, asked: Asked) -> str:
        """The answer to one request whose squares are known (and allowed by the profile)."""
        board, vocab, language = asked.board, asked.vocab, asked.language
        square = asked.squares[0] if asked.squares else chess.A1
        standing = board.piece_at(square)
        match asked.name:
            case "file":
                line = [chess.square(chess.square_file(square), rank) for rank in range(8)]
                return self._line(asked, line)
            case "rank":
                line = [chess.square(file, chess.square_rank(square)) for file in range(8)]
                return self._line(asked, line)
            case "diagonal" if len(asked.squares) == 1:
                return self._line(asked, longer_diagonal(square))
            case "diagonal":
                start, end = asked.squares
                segment = diagonal_between(start, end)
                if segment is None:
                    return message(
                        language,
                        "explore.not_diagonal",
                        start=_square(start, vocab),
                        end=_square(end, vocab),
                    )
                return line_words(board, segment, vocab, language)
            case "attackers":
                # The other side's pieces when one stands there; else both sides'.
                colors = [chess.WHITE, chess.BLACK] if standing is None else [not standing.color]
                return _covering(board, square, colors, "attackers", vocab, language)
            case "defenders":
                # Its own side's pieces when one stands there; else both sides'.
                colors = [chess.WHITE, chess.BLACK] if standing is None else [standing.color]
                return _covering(board, square, colors, "defenders", vocab, language)
            case "destinations" if standing is not None and asked.piece in (
                None,
                standing.piece_type,
            ):
                return destinations_words(board, square, vocab, language)
            case "material":
                return material_words(board, language)
        return square_answer(board, square, vocab, language)

    def _line(self, asked: Asked, line: list[chess.Square]) -> str:
        """A whole line, read from the blind player's side of the board: a file and a diagonal
        from their own rank on, a rank from their left to their right."""
        ordered = sorted(line, key=lambda sq: (chess.square_rank(sq), chess.square_file(sq)))
        if self.blind == chess.BLACK:
            ordered.reverse()
        return line_words(asked.board, ordered, asked.vocab, asked.language)


@dataclass(frozen=True)
class Asked:
    """One request with everything its answer needs."""

    name: str
    squares: tuple[chess.Square, ...]
    piece: chess.PieceType | None
    board: chess.Board
    vocab: Vocabulary
    language: str


# -- the answers, as pure functions ----------------------------------------------------------


def _square(square: chess.Square, vocab: Vocabulary) -> str:
    return vocab.display(vocab.square_words(square))


def colored_piece(piece: chess.Piece, language: str) -> str:
    """ "weißer König", "schwarze Dame" (the colour agrees with the piece in each language)."""
    side = "white" if piece.color == chess.WHITE else "black"
    return message(language, f"explore.piece.{side}_{chess.piece_name(piece.piece_type)}")


def square_answer(
    board: chess.Board, square: chess.Square, vocab: Vocabulary, language: str
) -> str:
    """ "David fünf: schwarzer Springer." or "David fünf: leer."."""
    piece = board.piece_at(square)
    if piece is None:
        return message(language, "explore.square_empty", square=_square(square, vocab))
    return message(
        language,
        "explore.square",
        square=_square(square, vocab),
        piece=colored_piece(piece, language),
    )


def line_words(
    board: chess.Board, line: Sequence[chess.Square], vocab: Vocabulary, language: str
) -> str:
    """The pieces on ``line`` in order, each with its square, and the empty squares between
    them counted: "Eva eins weißer König, zwei leer, Eva vier weißer Bauer, …"."""
    items: list[str] = []
    empty = 0
    for square in line:
        piece = board.piece_at(square)
        if piece is None:
            empty += 1
            continue
        if empty:
            items.append(_empty(empty, language))
            empty = 0
        items.append(
            message(
                language,
                "explore.line_item",
                square=_square(square, vocab),
                piece=colored_piece(piece, language),
            )
        )
    if not items:
        return message(
            language,
            "explore.line_empty",
            first=_square(line[0], vocab),
            last=_square(line[-1], vocab),
        )
    if empty:
        items.append(_empty(empty, language))
    return message(
        language, "explore.line", items=message(language, "position.separator").join(items)
    )


def _empty(count: int, language: str) -> str:
    """ "ein Feld leer", "zwei Felder leer", "drei Felder leer": counted the same way every
    time ("drei leer" then "ein Feld leer" read as two kinds of thing; a review). Two has its
    own sentence for the languages whose noun has a dual (Arabic) or a construct form
    (Hebrew)."""
    if count == 1:
        return message(language, "explore.empty_one")
    if count == 2:
        return message(language, "explore.empty_two")
    return message(language, "explore.empty_many", count=number_words(count, language))


def longer_diagonal(square: chess.Square) -> list[chess.Square]:
    """The longer of the two diagonals through ``square`` (on 8×8 they never have the same
    length: the rising one has 8 - |file - rank| squares, the falling one 8 - |file + rank - 7|)."""
    rising = diagonal_from(square, -9)[::-1] + diagonal_from(square, 9)[1:]
    falling = diagonal_from(square, -7)[::-1] + diagonal_from(square, 7)[1:]
    return rising if len(rising) > len(falling) else falling


def diagonal_between(start: chess.Square, end: chess.Square) -> list[chess.Square] | None:
    """The squares from ``start`` to ``end`` (both included) when they share a diagonal."""
    if start == end:
        return None
    for step in (9, 7, -7, -9):
        line = diagonal_from(start, step)
        if end in line:
            return line[: line.index(end) + 1]
    return None


def _covering(
    board: chess.Board,
    square: chess.Square,
    colors: list[chess.Color],
    kind: str,
    vocab: Vocabulary,
    language: str,
) -> str:
    """The pieces of ``colors`` that attack ``square``, grouped by side."""
    sides = []
    for color in colors:
        attackers = sorted(
            board.attackers(color, square),
            key=lambda sq: (ORDER.index(board.piece_type_at(sq) or chess.PAWN), sq),
        )
        if not attackers:
            continue
        pieces = message(language, "position.separator").join(
            message(
                language,
                "position.group",
                piece=piece_name(board.piece_type_at(sq) or chess.PAWN, 1, language),
                squares=_square(sq, vocab),
            )
            for sq in attackers
        )
        side = message(language, "game.side.white" if color == chess.WHITE else "game.side.black")
        sides.append(message(language, "explore.side_pieces", side=side, pieces=pieces))
    if not sides:
        return message(language, f"explore.{kind}_none", square=_square(square, vocab))
    return message(
        language,
        f"explore.{kind}",
        square=_square(square, vocab),
        sides=message(language, "position.group_separator").join(sides),
    )


def destinations_words(
    board: chess.Board, square: chess.Square, vocab: Vocabulary, language: str
) -> str:
    """Where the piece on ``square`` can go, in Appendix D words; when it cannot, why not.

    A piece of the side not to move is asked about as if it were its turn.
    """
    piece = board.piece_at(square)
    assert piece is not None
    position = board.copy(stack=False)
    if position.turn != piece.color:
        position.turn = piece.color
        position.ep_square = None
    moves = sorted(
        (move for move in position.legal_moves if move.from_square == square),
        key=lambda move: (chess.square_file(move.to_square), move.to_square, move.promotion or 0),
    )
    name = piece_name(piece.piece_type, 1, language)
    where = _square(square, vocab)
    sentences = []
    if piece.piece_type != chess.KING and position.is_pinned(piece.color, square):
        params = {
            "piece_type": chess.piece_name(piece.piece_type),
            "piece": vocab.display((PIECE_WORDS[piece.piece_type],)),
            "from_square": where,
        }
        sentences.append(Refusal("pinned", params).text(language))
    elif not moves and position.is_check() and piece.piece_type != chess.KING:
        sentences.append(Refusal("in_check").text(language))
    if not moves:
        sentences.append(message(language, "explore.destinations_none", piece=name, square=where))
    else:
        spoken = message(language, "position.separator").join(
            _destination(position, move, vocab) for move in moves
        )
        sentences.append(
            message(language, "explore.destinations", piece=name, square=where, moves=spoken)
        )
    return " ".join(sentences)


def _destination(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> str:
    """ "Felix drei", "schlägt David fünf", "Eva acht Dame", "Kurze Rochade"."""
    if board.is_castling(move):
        return render_move(board, move, vocab)
    words: list[str] = []
    if board.is_capture(move):
        words.append(CAPTURE_WORDS[0])
    words.extend(vocab.square_words(move.to_square))
    if move.promotion is not None:
        words.append(PIECE_WORDS[move.promotion])
    return vocab.display(words)


def captured(board: chess.Board) -> dict[chess.Color, dict[chess.PieceType, int]]:
    """The pieces each side has captured in this game (replayed from its start position)."""
    taken: dict[chess.Color, dict[chess.PieceType, int]] = {chess.WHITE: {}, chess.BLACK: {}}
    replay = board.root()
    for move in board.move_stack:
        if replay.is_capture(move):
            kind = replay.piece_type_at(move.to_square)
            if replay.is_en_passant(move):
                kind = chess.PAWN
            if kind is not None:
                taken[replay.turn][kind] = taken[replay.turn].get(kind, 0) + 1
        replay.push(move)
    return taken


def material_words(board: chess.Board, language: str) -> str:
    """What each side has captured, and the balance of what stands on the board (pawn 1,
    knight and bishop 3, rook 5, queen 9)."""
    taken = captured(board)
    lists = {}
    for color in (chess.WHITE, chess.BLACK):
        items = []
        for kind in ORDER:
            count = taken[color].get(kind, 0)
            if count == 1:
                items.append(piece_name(kind, 1, language))
            elif count > 1:
                items.append(
                    message(
                        language,
                        "explore.count",
                        count=number_words(count, language),
                        piece=piece_name(kind, count, language),
                    )
                )
        lists[color] = (
            message(language, "position.separator").join(items)
            if items
            else message(language, "explore.nothing")
        )
    balance = sum(
        value * (len(board.pieces(kind, chess.WHITE)) - len(board.pieces(kind, chess.BLACK)))
        for kind, value in _VALUES.items()
    )
    ahead = "game.side.white" if balance > 0 else "game.side.black"
    if balance == 0:
        verdict = message(language, "explore.balance_even")
    elif abs(balance) == 1:
        verdict = message(language, "explore.balance_one", side=message(language, ahead))
    else:
        verdict = message(
            language,
            "explore.balance_many",
            side=message(language, ahead),
            points=number_words(abs(balance), language),
        )
    return message(
        language,
        "explore.material",
        white=lists[chess.WHITE],
        black=lists[chess.BLACK],
        balance=verdict,
    )
