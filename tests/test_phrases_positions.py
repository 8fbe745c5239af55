"""Positions for property tests: random legal play from the start and from set-up positions rich
in promotions, en passant, both castlings, pins, and several pieces reaching one square.

Other test modules import :func:`positions`; the tests here prove the strategy really reaches
the special moves the phrase tests must cover (a strategy that never promotes proves nothing).
"""

from __future__ import annotations

import os

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("VOICE_CHESS_EXAMPLES", "60"))
"""Examples per property test; set VOICE_CHESS_EXAMPLES=1000 for a long run."""
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

SET_UPS: tuple[str, ...] = (
    chess.STARTING_FEN,
    # Kiwipete: both castlings for both sides, many captures, pins.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Promotions with and without capture, for both colours.
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
    "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1",
    "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 b - - 0 1",
    # En passant: one capturer, two capturers, a black capture.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/3PpP2/8/8/8/4K3 w - e6 0 1",
    "rnbqkbnr/pp1ppppp/8/8/2pPP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
    # Several queens, knights, rooks able to reach one square (218 legal moves).
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "k7/8/2N1N3/1N3N2/8/1N3N2/2N1N3/K7 w - - 0 1",
    "3k4/8/8/1R5R/8/8/1R5R/K7 w - - 0 1",
    # Castling for Black, both sides.
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    # A pinned knight and a king that must not step into check.
    "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
)


@st.composite
def positions(draw: st.DrawFn, max_plies: int = 24) -> chess.Board:
    """A set-up position followed by up to ``max_plies`` random legal moves (shrinks towards
    the set-up itself); never a finished game."""
    board = chess.Board(draw(st.sampled_from(SET_UPS)))
    for _ in range(draw(st.integers(0, max_plies))):
        moves = sorted(board.legal_moves, key=chess.Move.uci)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    if board.is_game_over():
        board.pop()
    return board


@st.composite
def position_and_move(draw: st.DrawFn) -> tuple[chess.Board, chess.Move]:
    """A position from :func:`positions` and one of its legal moves."""
    board = draw(positions())
    return board, draw(st.sampled_from(sorted(board.legal_moves, key=chess.Move.uci)))


def _features(board: chess.Board) -> set[str]:
    found = set()
    for move in board.legal_moves:
        if move.promotion:
            found.add("promotion")
        if board.is_en_passant(move):
            found.add("en passant")
        if board.is_kingside_castling(move):
            found.add("short castling")
        if board.is_queenside_castling(move):
            found.add("long castling")
        piece = board.piece_type_at(move.from_square)
        rivals = [
            m
            for m in board.legal_moves
            if m.to_square == move.to_square
            and m.from_square != move.from_square
            and board.piece_type_at(m.from_square) == piece
            and piece != chess.PAWN
        ]
        if len(rivals) >= 2:
            found.add("three pieces reach one square")
        if rivals and any(
            chess.square_file(r.from_square) == chess.square_file(move.from_square) for r in rivals
        ):
            found.add("disambiguation by rank")
    return found


def test_set_ups_hold_every_special_move() -> None:
    found: set[str] = set()
    for fen in SET_UPS:
        found |= _features(chess.Board(fen))
    assert found == {
        "promotion",
        "en passant",
        "short castling",
        "long castling",
        "three pieces reach one square",
        "disambiguation by rank",
    }


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_strategy_gives_playable_positions(board: chess.Board) -> None:
    assert board.is_valid()
    assert any(board.legal_moves)
