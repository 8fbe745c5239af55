"""The ``voice-chess`` command: one sub-command per module in this package.

Each sub-command module defines ``NAME``, ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args, settings) -> int``. Adding a module here adds a command; nothing else is edited.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import importlib
import io
import pkgutil
import signal
import sys
from pathlib import Path
from types import ModuleType

from voice import __version__
from voice.config import ConfigError, load_settings

CONFIG_WAY_OUT = (
    "To fix: correct or remove the named key (config/default.toml lists every key with its "
    "allowed values), or start with --config pointing at another file."
)


def _config_error(error: ConfigError) -> None:
    """What is wrong with the settings; the way out only where keys are to be mended (a file
    that is missing, not TOML or not UTF-8 says what to do in its own sentence)."""
    print(f"voice-chess: configuration error\n{error}", file=sys.stderr)
    if error.keys:
        print(CONFIG_WAY_OUT, file=sys.stderr)


def _command_modules() -> list[ModuleType]:
    modules = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            modules.append(module)
    return modules


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="voice-chess",
        description="Over-the-board chess by voice for blind and visually impaired players "
        "(FIDE Laws of Chess, Appendix D).",
    )
    parser.add_argument("--version", action="version", version=f"voice-chess {__version__}")
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="your settings file (overrides config/default.toml key by key; "
        "default: the file `voice-chess config path` prints, if it exists)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules():
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def _lenient_stdin() -> None:
    """Typed lines that are not UTF-8 (a Braille keyboard or terminal set to Latin-1, say) are
    read with the bad byte replaced, so that the game answers "Nicht verstanden" instead of
    the input ending at the first such byte and the game with it."""
    if isinstance(sys.stdin, io.TextIOWrapper) and not sys.stdin.closed:
        sys.stdin.reconfigure(errors="replace")


def main(argv: list[str] | None = None) -> int:
    # "kill -USR1 <pid>" prints where every thread of a program that seems stuck is, for a
    # bug report (the stacks go to standard error; the program goes on).
    if hasattr(signal, "SIGUSR1"):
        # Not where standard error is no file (called from a test that captures it).
        with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
            faulthandler.register(signal.SIGUSR1, all_threads=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    _lenient_stdin()
    try:
        settings = load_settings(args.config)
    except ConfigError as error:
        _config_error(error)
        if args.command == "config" and args.what == "path":
            # where the broken file is: the one thing needed to mend it
            settings = load_settings(look_in_user_dir=False)
            code: int = args._run(args, settings)
            return code
        return 2
    if not hasattr(args, "_run"):
        # No command: a game if there is a microphone, else the demo (it runs anywhere).
        from voice.cli._game import default_command

        command = default_command(settings)
        args = parser.parse_args([*(sys.argv[1:] if argv is None else argv), command])
    try:
        code = args._run(args, settings)
    except ConfigError as error:
        _config_error(error)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
