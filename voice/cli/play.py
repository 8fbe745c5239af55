"""``voice-chess play``: a game at home, by voice, against a person or the computer."""

from __future__ import annotations

import argparse
import sys

from voice.cli._game import add_game_arguments, plan_from, run_game, with_options
from voice.config import Settings

NAME = "play"
HELP = (
    "play a game at home: you speak your moves (or type them with --text) and hear the "
    "opponent's; the sighted opponent uses the web board, or the computer plays"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--opponent",
        choices=("board", "engine"),
        default="board",
        help="board: a sighted person plays on the web board (default); engine: Stockfish "
        "plays, at a strength you choose by voice at the start",
    )
    parser.add_argument(
        "--level",
        type=int,
        choices=range(1, 9),
        metavar="1-8",
        help="the computer's strength without asking (1 weakest, 8 strongest)",
    )
    add_game_arguments(parser)
    parser.epilog = (
        "Say 'Hilfe' (or type it) during the game for the words that work. Keys when speaking: "
        "see [session.keys] in the settings. The game is journaled; see --resume."
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.level is not None and args.opponent != "engine" and args.resume is None:
        print(
            "voice-chess play: --level is the computer's strength; give it with --opponent "
            "engine (the sighted opponent on the web board has none)",
            file=sys.stderr,
        )
        return 2
    settings = with_options(args, settings)
    plan = plan_from(args, "play", settings, opponent=args.opponent, level=args.level)
    return run_game(plan, settings)
