"""``--laws``, shared by the commands that run a game or a clock."""

from __future__ import annotations

import argparse

from voice.rules.laws import EDITIONS


def add_laws_argument(parser: argparse.ArgumentParser) -> None:
    """``--laws``: the FIDE Laws edition of this game or clock (voice.rules.laws)."""
    parser.add_argument(
        "--laws",
        choices=EDITIONS,
        help="the edition of the FIDE Laws to follow: 2023, 2018 or 2001 with its Appendix F "
        "(default: [rules] edition; what changes: docs/laws-editions.md)",
    )
