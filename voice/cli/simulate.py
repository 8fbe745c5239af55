"""``voice-chess simulate SCRIPT``: run a JSON-lines script through the core, print JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from voice.config import Settings
from voice.events import ScriptError
from voice.simulate import run_script

NAME = "simulate"
HELP = "replay a script of timestamped events (game or talking clock) and print the outputs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "script", help='the script: JSON lines, {"setup": {...}} first ("-" reads standard input)'
    )


def _lines(source: str) -> Iterator[str]:
    if source == "-":
        yield from sys.stdin
        return
    with Path(source).open(encoding="utf-8") as handle:
        yield from handle


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        for line in run_script(_lines(args.script), settings):
            print(json.dumps(line, ensure_ascii=False), flush=True)
    except ScriptError as error:
        print(f"voice-chess simulate: {args.script}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"voice-chess simulate: {args.script}: {error.strerror}", file=sys.stderr)
        return 2
    return 0
