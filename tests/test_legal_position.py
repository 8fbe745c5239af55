"""A set-up position that cannot be played is refused with the reason in words, not a Python
name such as ``<Status.OPPOSITE_CHECK: 1024>`` (``--fen``, a script's ``setup.fen``)."""

from __future__ import annotations

import chess
import pytest

from voice.rules.legal_position import problems


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "the board is empty"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "the side that is not to move is in check"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a pawn stands on the first or eighth rank"),
    ],
)
def test_the_reason_a_position_cannot_be_played_is_said_in_words(fen: str, reason: str) -> None:
    assert reason in problems(chess.Board(fen))


def test_a_legal_position_has_no_problems() -> None:
    assert problems(chess.Board()) == ""


@pytest.mark.parametrize(
    ("fen", "fault", "given", "fixed"),
    [
        ("xyz", "unreadable", "", ""),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "illegal", "", ""),
        ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "castling", "KQ", "-"),
        ("4k3/8/8/8/8/8/8/4K2R w KQk - 0 1", "castling", "KQk", "K"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - e3 0 1", "en_passant", "e3", "-"),
        # Wrong pieces as well: the general sentence (kings, pawns, whose move), not the field.
        ("4k3/8/8/8/8/8/8/8 w KQ - 0 1", "illegal", "", ""),
    ],
)
def test_wrong_castling_rights_or_en_passant_square_are_named_with_the_fix(
    fen: str, fault: str, given: str, fixed: str
) -> None:
    """Only the castling field or the en passant square wrong: the player is told which field
    and what to give instead; they got the general sentence (kings, pawns, whose move), which
    sent them looking at pieces that were right (a review)."""
    from voice.game.session_base import BadFen, read_fen

    with pytest.raises(BadFen) as bad:
        read_fen(fen)
    assert (bad.value.fault, bad.value.given, bad.value.fixed) == (fault, given, fixed)
