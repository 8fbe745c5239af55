"""The position read out in Appendix D words, grouped by piece type for each side.

Blind players asked for the pieces grouped by type ("Weiß: König Gustav eins, Dame David eins;
Türme Anna eins, Hector eins; …; Bauern Anna zwei, …"), the king first and the pawns last, and
for where one piece type stands. Sentences and plural piece names come from the message
catalogue; square and piece words from the vocabulary, because those are the words the player
uses on the board.
"""

from __future__ import annotations

import chess

from voice.words.messages import message
from voice.words.vocabulary import Vocabulary

ORDER: tuple[chess.PieceType, ...] = (
    chess.KING,
    chess.QUEEN,
    chess.ROOK,
    chess.BISHOP,
    chess.KNIGHT,
    chess.PAWN,
)


def _squares(board: chess.Board, piece: chess.PieceType, color: chess.Color) -> list[int]:
    """Squares in reading order: by file, then rank (Anna zwei before Bella zwei)."""
    return sorted(board.pieces(piece, color), key=lambda sq: (chess.square_file(sq), sq))


def squares_words(squares: list[int], vocab: Vocabulary, language: str) -> str:
    """ "Anna eins, Hector eins" (the separator comes from the catalogue)."""
    separator = message(language, "position.separator")
    return separator.join(vocab.display(vocab.square_words(sq)) for sq in squares)


def piece_name(piece: chess.PieceType, count: int, language: str) -> str:
    """The piece name, plural when more than one stands on the board."""
    kind = "one" if count == 1 else "many"
    return message(language, f"position.{chess.piece_name(piece)}_{kind}")


def side_words(board: chess.Board, color: chess.Color, vocab: Vocabulary, language: str) -> str:
    """One side's pieces: "Weiß: König Gustav eins; Dame David eins; Bauern Anna zwei, …"."""
    groups = []
    for piece in ORDER:
        squares = _squares(board, piece, color)
        if squares:
            groups.append(
                message(
                    language,
                    "position.group",
                    piece=piece_name(piece, len(squares), language),
                    squares=squares_words(squares, vocab, language),
                )
            )
    side = message(language, "game.side.white" if color == chess.WHITE else "game.side.black")
    return message(
        language,
        "position.side",
        side=side,
        groups=message(language, "position.group_separator").join(groups),
    )


def position_words(board: chess.Board, vocab: Vocabulary, language: str) -> str:
    """The whole position: White's pieces, then Black's."""
    return message(
        language,
        "position.both",
        white=side_words(board, chess.WHITE, vocab, language),
        black=side_words(board, chess.BLACK, vocab, language),
    )


def where_words(
    board: chess.Board, piece: chess.PieceType, vocab: Vocabulary, language: str
) -> str:
    """Where one piece type stands, for both sides ("wo ist der Springer")."""
    parts = {}
    for color, key in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        squares = _squares(board, piece, color)
        parts[key] = (
            squares_words(squares, vocab, language)
            if squares
            else message(language, "position.none")
        )
    return message(
        language,
        "position.where",
        piece=piece_name(piece, 2, language),
        white=parts["white"],
        black=parts["black"],
    )
