"""``voice-chess say-move``: the Appendix D words for one move of one position."""

from __future__ import annotations

import argparse
import sys

import chess

from voice.config import Settings
from voice.words.phrases import render_move, speakable, spoken_forms
from voice.words.vocabulary import Vocabulary

NAME = "say-move"
HELP = "print the spoken form (Appendix D words) of a move given in UCI or SAN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fen", default=chess.STARTING_FEN, help="the position (default: the start position)"
    )
    parser.add_argument("move", help="the move in UCI (g1f3, e7e8q) or SAN (Nf3, e8=Q, O-O)")
    parser.add_argument(
        "--all", action="store_true", help="print every accepted spoken form, one per line"
    )
    parser.add_argument(
        "--speech",
        action="store_true",
        help="print the respelling given to the text-to-speech voice (Zäsar for Cesar)",
    )


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """A legal move from UCI or SAN; ValueError with a readable reason otherwise."""
    try:
        chess.Move.from_uci(text)
    except ValueError:
        return board.parse_san(text)
    return board.parse_uci(text)


def run(args: argparse.Namespace, settings: Settings) -> int:
    vocab = Vocabulary.of(settings)
    try:
        board = chess.Board(args.fen)
    except ValueError as error:
        print(f"voice-chess say-move: bad FEN {args.fen!r}: {error}", file=sys.stderr)
        return 2
    try:
        move = parse_move(board, args.move)
    except ValueError as error:
        print(f"voice-chess say-move: {error}", file=sys.stderr)
        return 2
    if args.all:
        lines = [vocab.display(form) for form in spoken_forms(board, move, vocab)]
    else:
        lines = [render_move(board, move, vocab)]
    for line in lines:
        print(speakable(line, settings.language.blind) if args.speech else line)
    return 0
