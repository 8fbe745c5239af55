"""``voice-chess config``: where settings live, and check a settings file."""

from __future__ import annotations

import argparse

from voice.config import Settings, default_config_path, user_config_path
from voice.words.messages import display_text, message

NAME = "config"
HELP = "show where the settings files are, or check them (a bad file is named with its key)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "what",
        choices=["path", "check", "show"],
        help="path: print your settings file's location; check: load and validate all settings "
        "(give the file with --config before the command); show: print the settings in effect",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Lines for a person in the language of the settings (``[language] blind``), as every
    other command speaks; the first line of ``path`` is the bare file name, for scripts."""
    language = settings.language.blind
    if args.what == "path":
        print(user_config_path())
        defaults = message(language, "config.defaults", path=default_config_path())
        print(display_text(defaults, language))
    elif args.what == "check":
        print(display_text(message(language, "config.valid"), language))
    else:
        print(settings.model_dump_json(indent=2))
    return 0
