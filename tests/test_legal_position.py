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
