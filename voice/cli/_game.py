"""Options shared by ``voice-chess play`` and ``voice-chess assist``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TypedDict, Unpack, get_args

from voice.cli._laws import add_laws_argument
from voice.cli._resume import add_resume_argument, journal_to_resume
from voice.cli._values import PORT
from voice.config import Language, Settings, override
from voice.wiring.app import App, Mode, Opponent, Plan


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every game mode understands."""
    parser.add_argument(
        "--text",
        action="store_true",
        help="type moves and commands in the same words instead of speaking them "
        '("Springer Felix drei", "zeit"; for a Braille keyboard or when speech fails). '
        "Without a microphone the program switches to this by itself and says so.",
    )
    parser.add_argument(
        "--no-speech",
        dest="speech",
        action="store_false",
        help="print everything instead of speaking it (for a screen reader or Braille display)",
    )
    parser.add_argument(
        "--control",
        metavar="TC",
        help="time control: a preset name ([clock.presets]) or a PGN form such as 900+10, "
        "40/5400+30:1800+30, 5400d5 (default: [clock] time_control)",
    )
    parser.add_argument(
        "--blind",
        choices=("white", "black"),
        help="the colour the blind player plays (default: [session] blind)",
    )
    parser.add_argument(
        "--language",
        choices=get_args(Language),
        help="the blind player's language: announcements and voice (default: [language] blind)",
    )
    add_laws_argument(parser)
    parser.add_argument(
        "--opponent-language",
        choices=get_args(Language),
        help="the language of the sighted opponent's web page and of what the opponent is told "
        "(default: [language] opponent; the page also has a chooser)",
    )
    parser.add_argument(
        "--fen", help="start from this position (FEN) instead of the initial position"
    )
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help="write the game's journal to FILE (default: a new file in [session] journal_dir)",
    )
    add_resume_argument(parser, "game")
    parser.add_argument(
        "--no-web",
        dest="web",
        action="store_false",
        help="no web board for the opponent and the arbiter",
    )
    parser.add_argument(
        "--lan",
        action="store_true",
        help="serve the web board on the local network (default: this computer only), "
        "with a QR code for the opponent's phone",
    )
    parser.add_argument(
        "--port",
        type=PORT,
        metavar="N",
        help="port of the web board (default: [web] port; 0 = any free port)",
    )


class PlanOptions(TypedDict, total=False):
    """The options of the plan that only some commands have (``play``, ``assist``)."""

    opponent: Opponent
    level: int | None
    deaf_opponent: bool


def plan_from(
    args: argparse.Namespace, mode: Mode, settings: Settings, **extra: Unpack[PlanOptions]
) -> Plan:
    resume = None if args.resume is None else journal_to_resume(args.resume, settings, "game")
    return Plan(
        mode=mode,
        text=args.text,
        speech=args.speech,
        web=args.web,
        lan=args.lan,
        port=args.port,
        qr=args.lan,
        resume=resume,
        journal=args.journal,
        blind=args.blind,
        control=args.control,
        language=args.language,
        fen=args.fen,
        laws=args.laws,
        config=getattr(args, "config", None),
        **extra,
    )


def with_options(args: argparse.Namespace, settings: Settings) -> Settings:
    """The settings with what the command line overrides (``--opponent-language``)."""
    if getattr(args, "opponent_language", None):
        return override(settings, language={"opponent": args.opponent_language})
    return settings


def run_game(plan: Plan, settings: Settings) -> int:
    return App(plan, settings).run()


def default_command(settings: Settings) -> str:
    """``voice-chess`` alone: ``play`` when a microphone exists, else ``demo``; says which."""
    from voice.speech.audio import AudioDeviceError, resolve_device
    from voice.words.messages import display_text, message

    language = settings.language.blind
    try:
        resolve_device(settings.audio.input_device, "input")
    except AudioDeviceError:
        print(display_text(message(language, "app.default.demo"), language), flush=True)
        return "demo"
    print(display_text(message(language, "app.default.play"), language), flush=True)
    return "play"
