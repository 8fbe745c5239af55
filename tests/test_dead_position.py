"""Dead positions (5.2.2) and "the opponent cannot checkmate" (6.9): sound, and fast.

The decision must never call a live position dead. The oracle is an exhaustive helpmate search
(:func:`voice.rules.dead_position.helpmate_search`: every position either side can reach together
within a number of plies), which shares nothing with the static proof.
"""

from __future__ import annotations

import io
import random
import time
from collections.abc import Callable
from typing import Any

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, assume, event, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from voice.rules.dead_position import cannot_checkmate, helpmate_search, is_dead

LOCKED_WALL = "8/8/8/1k6/p1p1p1p1/P1P1P3/6P1/1K6 w - - 0 1"
# The wall locked, a dark-squared White bishop in Black's half, two light-squared Black
# bishops: White can mate with Black's help (bishops on g8 and h7, king on h8, Be5 mate),
# Black can never give a check.
WALL_WITH_BISHOPS = "8/5b2/3Bb3/1k6/p1p1p1p1/P1P1P1P1/8/1K6 w - - 0 1"

# Two well-known games (Morphy's "Opera Game", Paris 1858; Anderssen-Kieseritzky, the
# "Immortal Game", London 1851): every position in them is live.
REAL_GAMES = [
    "1.e4 e5 2.Nf3 d6 3.d4 Bg4 4.dxe5 Bxf3 5.Qxf3 dxe5 6.Bc4 Nf6 7.Qb3 Qe7 8.Nc3 c6 9.Bg5 b5 "
    "10.Nxb5 cxb5 11.Bxb5+ Nbd7 12.O-O-O Rd8 13.Rxd7 Rxd7 14.Rd1 Qe6 15.Bxd7+ Nxd7 16.Qb8+ Nxb8 "
    "17.Rd8#",
    "1.e4 e5 2.f4 exf4 3.Bc4 Qh4+ 4.Kf1 b5 5.Bxb5 Nf6 6.Nf3 Qh6 7.d3 Nh5 8.Nh4 Qg5 9.Nf5 c6 "
    "10.g4 Nf6 11.Rg1 cxb5 12.h4 Qg6 13.h5 Qg5 14.Qf3 Ng8 15.Bxf4 Qf6 16.Nc3 Bc5 17.Nd5 Qxb2 "
    "18.Bd6 Bxg1 19.e5 Qxa1+ 20.Ke2 Na6 21.Nxg7+ Kd8 22.Qf6+ Nxf6 23.Be7#",
]


def test_5_2_2_the_locked_wall_is_dead_only_once_g2_g3_locks_it() -> None:
    board = chess.Board(LOCKED_WALL)
    assert not is_dead(board)  # g4-g3 or g2-g3 still to come: a king may yet get through
    board.push_san("g3")
    assert is_dead(board)
    assert cannot_checkmate(board, chess.WHITE) and cannot_checkmate(board, chess.BLACK)
    # The oracle sees every position reachable from here, and none is a checkmate.
    search = helpmate_search(board, plies=200)
    assert search.exhausted and not search.mates


def test_6_9_a_bishop_of_the_wrong_colour_cannot_cross_the_wall() -> None:
    board = chess.Board(WALL_WITH_BISHOPS)
    assert cannot_checkmate(board, chess.BLACK)  # light bishops: every light square is a wall
    assert not cannot_checkmate(board, chess.WHITE)  # a helpmate exists
    assert not is_dead(board)


def test_6_9_a_lone_white_bishop_behind_the_wall_cannot_mate_without_black_blockers() -> None:
    # The same wall with only White's dark-squared bishop: every dark square the Black king can
    # be checked on has a light neighbour to step to, so no mate exists for either side.
    board = chess.Board("8/8/3B4/1k6/p1p1p1p1/P1P1P1P1/8/1K6 b - - 0 1")
    assert is_dead(board)


def test_insufficient_material_is_still_dead() -> None:
    assert is_dead(chess.Board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"))  # king and knight against king
    assert cannot_checkmate(chess.Board("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"), chess.WHITE)


def test_a_king_that_can_walk_to_an_enemy_pawn_keeps_the_game_live() -> None:
    # No pawn on the g-file: the White king walks up it and takes e4 or g-side pawns.
    assert not is_dead(chess.Board("8/8/8/1k6/p1p1p3/P1P1P3/8/1K6 w - - 0 1"))


def test_a_pawn_capture_now_keeps_the_game_live() -> None:
    # b3 could take a4 or c4: the wall can still open.
    board = chess.Board("8/8/8/1k6/p1p5/PPP5/8/1K6 w - - 0 1")
    assert not is_dead(board)
    assert not cannot_checkmate(board, chess.WHITE)


def test_en_passant_keeps_the_game_live() -> None:
    # d2-d4 has just been played into a wall: c4 or e4 may take en passant, so it is live; the
    # same position without the right is locked.
    locked = "8/8/8/1k1p4/p1pPp1p1/P1P1P1P1/8/1K6 b - - 0 1"
    assert is_dead(chess.Board(locked))
    ep = chess.Board(locked.replace(" - - ", " - d3 "))
    assert ep.has_legal_en_passant() and not is_dead(ep)


def test_a_check_is_answered_before_the_blockade_is_proved() -> None:
    # Behind the locked wall the lone dark bishop checks the Black king: every reply (taking
    # the bishop or stepping aside) leaves a dead position, so this one is dead too.
    board = chess.Board("8/4k3/3B4/8/p1p1p1p1/P1P1P1P1/8/1K6 b - - 0 1")
    assert board.is_check() and is_dead(board)
    assert not helpmate_search(board, plies=6, max_positions=4000).mates


def _wall(pick: Callable[[list[Any]], Any]) -> chess.Board:
    """A pawn wall (head-on pairs, some files open), the kings on their own sides and a few
    bishops, each choice made by ``pick``: many are dead, the rest live in different ways."""
    board = chess.Board(None)
    base = pick([1, 2, 3, 4])
    for file in range(8):
        offset = pick([file % 2, file % 2, file % 2, 0, 1, 2, None])
        if offset is None:
            continue
        rank = min(base + offset, 5)
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(chess.square(file, rank + 1), chess.Piece(chess.PAWN, chess.BLACK))
    empty = [s for s in chess.SQUARES if board.piece_at(s) is None]
    low = [s for s in empty if chess.square_rank(s) < base]
    high = [s for s in empty if chess.square_rank(s) > base + 2]
    board.set_piece_at(pick(low), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(pick(high), chess.Piece(chess.KING, chess.BLACK))
    for _ in range(pick([0, 1, 2, 0])):
        free = [s for s in chess.SQUARES if board.piece_at(s) is None]
        board.set_piece_at(pick(free), chess.Piece(chess.BISHOP, pick(list(chess.COLORS))))
    board.turn = pick(list(chess.COLORS))
    return board


@st.composite
def walls(draw: st.DrawFn) -> chess.Board:
    board = _wall(lambda choices: draw(st.sampled_from(choices)))
    assume(board.is_valid())
    return board


@pytest.mark.slow
@hsettings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls())
@example(chess.Board("8/8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6 b - - 0 1"))
@example(chess.Board(WALL_WITH_BISHOPS))
def test_what_it_calls_unable_to_mate_has_no_helpmate(board: chess.Board) -> None:
    """Soundness: no mate by a side it calls unable to mate, within the searched plies."""
    unable = {color for color in chess.COLORS if cannot_checkmate(board, color)}
    event(f"sides unable to mate: {len(unable)}")
    assert is_dead(board) == (unable == set(chess.COLORS))
    if not unable:
        return
    search = helpmate_search(board, plies=8, max_positions=4000)
    assert not unable & search.mates, board.fen()


def _positions(moves: str) -> list[chess.Board]:
    game = chess.pgn.read_game(io.StringIO(moves))
    assert game is not None and not game.errors
    board = game.board()
    positions = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        positions.append(board.copy())
    return positions


def test_positions_from_real_games_are_live() -> None:
    for moves in REAL_GAMES:
        positions = _positions(moves)
        for board in positions[:-1]:
            assert not is_dead(board), board.fen()
            assert not cannot_checkmate(board, chess.WHITE), board.fen()
            assert not cannot_checkmate(board, chess.BLACK), board.fen()
        assert not cannot_checkmate(positions[-1], not positions[-1].turn)  # the mate itself


def _random_game(seed: int, plies: int = 300) -> list[chess.Board]:
    rng = random.Random(seed)
    board = chess.Board()
    positions = []
    while not board.is_game_over() and len(positions) < plies:
        board.push(rng.choice(list(board.legal_moves)))
        positions.append(board.copy(stack=False))
    return positions


@pytest.mark.slow
@hsettings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_a_side_with_a_mate_in_one_is_never_called_unable(seed: int) -> None:
    for board in _random_game(seed):
        if board.is_game_over():
            continue
        mates_now = False
        for move in board.legal_moves:
            board.push(move)
            mates_now = board.is_checkmate()
            board.pop()
            if mates_now:
                break
        if mates_now:
            assert not cannot_checkmate(board, board.turn), board.fen()
        if is_dead(board):  # rare: bare kings, or a wall random moves happened to lock
            assert not helpmate_search(board, plies=4, max_positions=4000).mates, board.fen()


def test_fast_enough_to_run_after_every_move() -> None:
    """Measured over random-game positions and pawn walls; printed with ``pytest -s``."""
    positions = [p for seed in range(12) for p in _random_game(seed)]
    rng = random.Random(5)
    walls_ = [board for board in (_wall(rng.choice) for _ in range(400)) if board.is_valid()]
    for name, boards in (("games", positions), ("walls", walls_)):
        start = time.perf_counter()
        for board in boards:
            is_dead(board)
        per_call = (time.perf_counter() - start) / len(boards)
        print(f"is_dead over {len(boards)} {name} positions: {per_call * 1e6:.1f} µs per call")
        assert per_call < 0.002  # well under a move's time; measured tens of µs
