"""Option values with bounds: a number outside them is refused by argparse with one line that
says what is allowed, instead of failing deep inside (a port of 99999 in ``socket.bind``).

A leading underscore: the command loader in ``voice/cli/__init__.py`` skips this module.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, not {text!r}"
            )
        return value

    return parse


def number(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` to ``high`` (never NaN or infinity)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(
                f"must be a number from {low:g} to {high:g}, not {text!r}"
            )
        return value

    return parse


PORT = whole_number(0, 65535)
