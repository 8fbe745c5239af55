"""What the batch commands (``parse``, ``recognize``) share: their input lines and positions.

A leading underscore: the command loader in ``voice/cli/__init__.py`` skips this module.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterator
from typing import IO

import chess

from voice.rules.legal_position import problems


class NotUtf8Error(OSError):
    """A line of an input file that is not UTF-8 text (an editor saved it as Latin-1, say).

    An ``OSError`` ("illegal byte sequence"), so that each command's handling of an unreadable
    file names the file and says this sentence.
    """

    def __init__(self, number: int) -> None:
        super().__init__(
            errno.EILSEQ, f"line {number} is not UTF-8 text; save the file in the UTF-8 encoding"
        )


def text_lines(path: str) -> Iterator[str]:
    """The lines of ``path`` ("-" reads standard input) as UTF-8 text (a byte-order mark at the
    start is dropped); :class:`NotUtf8Error` names the first line that is not."""
    handle: IO[bytes]
    handle = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    try:
        for number, raw in enumerate(handle, 1):
            try:
                yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise NotUtf8Error(number) from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def input_lines(path: str) -> Iterator[str]:
    """The non-blank lines of ``path`` ("-" reads standard input)."""
    return (line for line in text_lines(path) if line.strip())


def board_from_fen(fen: str) -> chess.Board:
    """The position a FEN names; ValueError naming the FEN and what is wrong with it."""
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ValueError(f"bad FEN {fen!r}: {error}") from None
    if not board.is_valid():
        raise ValueError(f"bad FEN {fen!r}: not a legal chess position ({problems(board)})")
    return board
