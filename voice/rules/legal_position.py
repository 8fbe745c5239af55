"""Why a set-up position cannot be played, in words (for ``--fen`` and a script's ``setup.fen``).

python-chess says what is wrong as a bit set (``chess.Status``), whose text is a Python name
such as ``<Status.OPPOSITE_CHECK: 1024>``; an arbiter typing a position wants the reason.
"""

from __future__ import annotations

import chess

_REASONS: tuple[tuple[chess.Status, str], ...] = (
    (chess.STATUS_EMPTY, "the board is empty"),
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "there are too many kings"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than eight pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than eight pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "a pawn stands on the first or eighth rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than sixteen pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than sixteen pieces"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "the castling rights do not fit the kings and rooks"),
    (chess.STATUS_INVALID_EP_SQUARE, "the en passant square does not fit the last move"),
    (chess.STATUS_OPPOSITE_CHECK, "the side that is not to move is in check"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the king is checked by more pieces than a move can give"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "the check could not have come from one move"),
)


def problems(board: chess.Board) -> str:
    """What makes ``board`` no legal chess position, in words ("" for a legal one)."""
    status = board.status()
    found = [reason for flag, reason in _REASONS if status & flag]
    if status and not found:  # a flag python-chess added later
        found.append(str(status))
    return "; ".join(found)
