"""Dead positions (5.2.2, 9.6 of 2001) and "the opponent cannot checkmate" (5.1.2, 6.9, 7.5.5).

The Laws call a position dead when no series of legal moves can lead to checkmate, and a flag
fall, a resignation or a second illegal move a draw when the opponent cannot checkmate "by any
possible series of legal moves". The question is about helpmates, not about good play: both sides
may cooperate. The answer here is *sound*: a position is called dead (a side unable to mate) only
with a proof, never by guesswork, so a live game is never stopped. It is not complete: some dead
positions are left to the players and the arbiter. docs/dead-positions.md explains the argument.

Two proofs are tried, both pure and fast enough to run after every move:

- insufficient material (python-chess's test: bare kings, a lone minor piece, bishops all on
  one square colour);
- a frozen pawn blockade: no pawn can ever move, no capture can ever reopen the structure, and
  the side that would mate can never give a check from which the king has no escape. See
  :func:`_blockade` and :func:`_may_mate` for the steps.

:func:`helpmate_search` is an exhaustive bounded search over all positions reachable by any
moves. It is the independent check the tests compare the proofs with, and it finds the mate that
shows a position live.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import chess

# How deep the proof looks when the side to move is in check: the blockade proof needs a quiet
# position (a check from a pawn must be answered, perhaps by a capture), so each reply is proved
# instead, to this many plies.
_CHECK_PLIES = 2


@dataclass(frozen=True)
class Blockade:
    """A position in which no pawn can ever move again, and what every other piece can reach.

    ``king_region[c]``: the squares the king of colour ``c`` can ever stand on; ``reach[c]``: the
    squares ``c``'s other pieces can ever stand on; ``attacks[c]``: the squares they can ever
    attack. All three are over-approximations (pieces other than pawns are treated as
    transparent), which keeps every conclusion drawn from them sound.
    """

    king_region: tuple[int, int]  # indexed by chess.Color: (black, white)
    reach: tuple[int, int]
    attacks: tuple[int, int]


def is_dead(board: chess.Board) -> bool:
    """5.2.2: neither side can checkmate by any series of legal moves (proved, else False)."""
    return not _possible_mates(board, _CHECK_PLIES)


def cannot_checkmate(board: chess.Board, color: chess.Color) -> bool:
    """6.9 (also 5.1.2, 7.5.5): ``color`` cannot checkmate by any series of legal moves.

    True only with a proof; a flag fall is then a draw instead of a win for ``color``.
    """
    return color not in _possible_mates(board, _CHECK_PLIES)


_NEITHER: frozenset[chess.Color] = frozenset()


def _possible_mates(board: chess.Board, plies: int) -> frozenset[chess.Color]:
    """The colours not proved unable to give checkmate from here."""
    able = frozenset(c for c in chess.COLORS if not board.has_insufficient_material(c))
    if not able:
        return _NEITHER
    if board.is_check():
        # The blockade proof needs a quiet position (a check by a pawn may be answered by a
        # capture): prove every reply instead, a few plies deep.
        if plies <= 0:
            return able
        if board.is_checkmate():
            return able & {not board.turn}
        found: set[chess.Color] = set()
        for move in board.legal_moves:
            child = board.copy(stack=False)  # the caller's board is never touched
            child.push(move)
            found |= _possible_mates(child, plies - 1)
            if found >= able:
                break
        return able & found
    blockade = _blockade(board)
    if blockade is None:
        return able
    return frozenset(c for c in able if _may_mate_in_blockade(blockade, c))


def _may_mate_in_blockade(blockade: Blockade, color: chess.Color) -> bool:
    """Is there a square where ``color`` could check the enemy king with no escape left?

    With every pawn frozen, only pieces give check, and the mated king stands on a square ``s``
    of its region that one of ``color``'s pieces can attack. Each neighbour of ``s`` inside the
    region is an escape unless ``color`` can attack it (a piece, or the king from next door) or
    the defender can put a piece of its own there. A bishop's squares are all of one colour, so
    a lone bishop never covers the neighbours beside its check: the wrong-coloured bishop.
    """
    loser = not color
    region = blockade.king_region[loser]
    checks = blockade.attacks[color] & region
    if not checks:
        return False
    covered = blockade.attacks[color] | _dilate(blockade.king_region[color]) | blockade.reach[loser]
    for square in chess.scan_forward(checks):
        escapes = chess.BB_KING_ATTACKS[square] & region & ~covered
        if not escapes:
            return True
    return False


def _blockade(board: chess.Board) -> Blockade | None:
    """The frozen structure of ``board``, or None when it is not proved frozen.

    1. Every pawn has a pawn on the square in front, so none can move forward: the first pawn
       ever to move would have to capture.
    2. No capture by a pawn is possible, now or later: no enemy piece stands on a square a pawn
       attacks, and none can ever go there (kings may not; the other pieces' regions avoid them).
    3. No piece can ever take a pawn: each king's region (flood fill, stepping around its own
       pawns and the squares enemy pawns attack) holds no enemy pawn, and no other piece can
       ever attack one.
    Then no pawn ever moves, promotes or disappears, and everything else only loses material.
    """
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    if chess.shift_up(white_pawns) & ~board.pawns or chess.shift_down(black_pawns) & ~board.pawns:
        return None
    if board.ep_square is not None and board.has_legal_en_passant():
        return None
    pawns = (black_pawns, white_pawns)
    pawn_attacks = (
        _pawn_attacks(black_pawns, chess.BLACK),
        _pawn_attacks(white_pawns, chess.WHITE),
    )
    for color in chess.COLORS:
        if pawn_attacks[color] & board.occupied_co[not color]:
            return None
    king_region = [0, 0]
    reach = [0, 0]
    attacks = [0, 0]
    for color in chess.COLORS:
        own, enemy = pawns[color], pawns[not color]
        king = board.king(color)
        if king is None:
            return None
        region = _flood_king(chess.BB_SQUARES[king], ~own & ~pawn_attacks[not color])
        if region & enemy:
            return None
        king_region[color] = region
        pieces = board.occupied_co[color] & ~board.pawns & ~board.kings
        for square in chess.scan_forward(pieces):
            piece_type = board.piece_type_at(square)
            assert piece_type is not None
            squares, hits = _piece_region(piece_type, square, board.pawns, own)
            if squares & pawn_attacks[not color] or hits & enemy:
                return None
            reach[color] |= squares
            attacks[color] |= hits
    return Blockade(
        king_region=(king_region[0], king_region[1]),
        reach=(reach[0], reach[1]),
        attacks=(attacks[0], attacks[1]),
    )


def _pawn_attacks(pawns: int, color: chess.Color) -> int:
    attacked = 0
    for square in chess.scan_forward(pawns):
        attacked |= chess.BB_PAWN_ATTACKS[color][square]
    return attacked


def _dilate(squares: int) -> int:
    """The squares and every square a king's step away."""
    wide = squares | chess.shift_left(squares) | chess.shift_right(squares)
    return wide | chess.shift_up(wide) | chess.shift_down(wide)


def _flood_king(start: int, passable: int) -> int:
    """Every square a king can walk to from ``start`` through ``passable`` squares."""
    region = start
    while True:
        grown = (_dilate(region) & passable) | region
        if grown == region:
            return region
        region = grown


def _attacks_from(piece_type: chess.PieceType, square: int, blockers: int) -> int:
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    attacked = 0
    if piece_type in (chess.BISHOP, chess.QUEEN):
        attacked |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & blockers]
    if piece_type in (chess.ROOK, chess.QUEEN):
        attacked |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & blockers]
        attacked |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & blockers]
    return attacked


def _piece_region(
    piece_type: chess.PieceType, square: int, pawns: int, own_pawns: int
) -> tuple[int, int]:
    """(squares the piece can ever stand on, squares it can ever attack), pawns the only walls."""
    region = chess.BB_SQUARES[square]
    frontier = region
    attacked = 0
    while frontier:
        new = 0
        for origin in chess.scan_forward(frontier):
            hits = _attacks_from(piece_type, origin, pawns)
            attacked |= hits
            new |= hits & ~own_pawns
        frontier = new & ~region
        region |= new
    return region, attacked


@dataclass(frozen=True)
class HelpmateSearch:
    """What an exhaustive search of every position within ``plies`` found.

    ``mates``: the colours that deliver a checkmate somewhere in that tree; ``exhausted``: every
    reachable position was seen before the limits (the answer then holds for any number of
    moves); ``positions``: how many distinct positions were looked at.
    """

    mates: frozenset[chess.Color]
    exhausted: bool
    positions: int


def helpmate_search(board: chess.Board, plies: int, max_positions: int = 20_000) -> HelpmateSearch:
    """Breadth-first over all positions both sides can reach together: a helpmate finder.

    Positions are told apart by placement, side to move, castling and en passant rights (the
    move counters do not change what can follow, apart from the 75-move rule, ignored here as
    the Laws' definition of a dead position ignores it).
    """
    seen: set[Hashable] = {_key(board)}
    frontier = [board.copy(stack=False)]
    mates: set[chess.Color] = set()
    depth = 0
    truncated = False
    while frontier and depth <= plies:
        following: list[chess.Board] = []
        for position in frontier:
            if position.is_checkmate():
                mates.add(not position.turn)
                continue
            if depth == plies:
                truncated = truncated or any(True for _ in position.legal_moves)
                continue
            for move in position.legal_moves:
                child = position.copy(stack=False)
                child.push(move)
                key = _key(child)
                if key in seen:
                    continue
                if len(seen) >= max_positions:
                    return HelpmateSearch(frozenset(mates), False, len(seen))
                seen.add(key)
                following.append(child)
        depth += 1
        frontier = following
    return HelpmateSearch(frozenset(mates), not truncated, len(seen))


def _key(board: chess.Board) -> Hashable:
    return (board.board_fen(), board.turn, board.castling_rights, board.ep_square)
