"""``voice-chess simulate SCRIPT``: run a JSON-lines script through the core, print JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from voice.cli._input import text_lines
from voice.config import Settings
from voice.game.simulate import run_script
from voice.rules.events import ScriptError
from voice.runtime.resume import run_journaled

NAME = "simulate"
HELP = "replay a script of timestamped events (game or talking clock) and print the outputs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "script",
        nargs="?",
        help='the script: JSON lines, {"setup": {...}} first ("-" reads standard input); '
        "with --resume: further inputs only, and optional",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help="write the setup and every input to FILE (a new file), each flushed to disk before "
        "it is handled; the journal is itself a script",
    )
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="JOURNAL",
        help="continue the game in JOURNAL (after a crash): replay it silently, say where the "
        "game stands, then go on with SCRIPT's inputs, appending them to JOURNAL",
    )


def _warn(text: str) -> None:
    print(f"voice-chess simulate: warning: {text}", file=sys.stderr)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.script is None and args.resume is None:
        print("voice-chess simulate: give a SCRIPT (or --resume JOURNAL)", file=sys.stderr)
        return 2
    if args.journal is not None and args.resume is not None:
        print(
            "voice-chess simulate: --resume goes on writing its own journal; leave out --journal",
            file=sys.stderr,
        )
        return 2
    source = args.script if args.script is not None else args.resume
    try:
        if args.journal is None and args.resume is None:
            lines = run_script(text_lines(args.script), settings)
        else:
            lines = run_journaled(
                None if args.script is None else text_lines(args.script),
                settings,
                journal_path=args.journal,
                resume_path=args.resume,
                warn=_warn,
            )
        for line in lines:
            print(json.dumps(line, ensure_ascii=False), flush=True)
    except ScriptError as error:
        # A journal's errors name it already ("game.jsonl: line 3 …"); a script's do not.
        named = str(error) if str(error).startswith(f"{source}: ") else f"{source}: {error}"
        print(f"voice-chess simulate: {named}", file=sys.stderr)
        return 2
    except FileExistsError:
        print(
            f"voice-chess simulate: {args.journal}: exists already; a journal is never "
            "overwritten (resume it with --resume, or choose another file)",
            file=sys.stderr,
        )
        return 2
    except OSError as error:  # the script's, or the journal's (a folder, say)
        print(
            f"voice-chess simulate: {error.filename or source}: {error.strerror}", file=sys.stderr
        )
        return 2
    return 0
