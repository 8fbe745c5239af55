"""What the batch commands (``parse``, ``recognize``) share: their input lines and positions.

A leading underscore: the command loader in ``voice/cli/__init__.py`` skips this module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import IO

import chess


def input_lines(path: str) -> Iterator[str]:
    """The non-blank lines of ``path`` ("-" reads standard input)."""
    handle: IO[str]
    handle = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    try:
        for line in handle:
            if line.strip():
                yield line
    finally:
        if handle is not sys.stdin:
            handle.close()


def board_from_fen(fen: str) -> chess.Board:
    """The position a FEN names; ValueError naming the FEN and what is wrong with it."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ValueError(f"bad FEN {fen!r}: {error}") from None
    if not board.is_valid():
        raise ValueError(f"bad FEN {fen!r}: not a legal chess position ({board.status()!r})")
    return board
