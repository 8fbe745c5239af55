"""``voice-chess assist``: the program as the blind player's assistant at a tournament board."""

from __future__ import annotations

import argparse

from voice.cli._game import add_game_arguments, plan_from, run_game, with_options
from voice.config import Settings

NAME = "assist"
HELP = (
    "tournament board (FIDE Appendix D.2.10): announces both players' moves, keeps the "
    "scoresheet, starts the opponent's clock when a move is made, answers only on request, "
    "claims a flag fall, logs touched pieces for the arbiter"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deaf-opponent",
        action="store_true",
        help="the opponent is hearing-impaired (D.2.11): the blind player's moves are also "
        "shown as large text on the opponent's page",
    )
    add_game_arguments(parser)
    parser.epilog = (
        "Before the clock starts the set-up (time control, rank and file words, sides) is read "
        "out and the arbiter confirms it with Enter or with the button on the arbiter's web "
        "page (whichever comes first); the approval is the journal's first entry. "
        "The blind player reports a touched piece by saying 'berührt' or with the key "
        "[session.keys] touched."
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    settings = with_options(args, settings)
    plan = plan_from(args, "assist", settings, deaf_opponent=args.deaf_opponent)
    return run_game(plan, settings)
