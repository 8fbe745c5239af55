"""``python -m benchmarks web``: click-to-announcement latency of the web board."""

from __future__ import annotations

import argparse
import sys

from voice.config import Settings

HELP = (
    "measure the time from the sighted player's click on the web board to the blind player's "
    "announcement (headless Chromium; prints p50/p95)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--moves", type=int, default=100, help="moves to measure (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random moves")
    parser.add_argument(
        "--audio",
        action="store_true",
        help="also say each announcement on the output device and measure to its first sound",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from benchmarks.chromium import BrowserUnavailable
    from benchmarks.web import run as bench
    from benchmarks.web import summary
    from voice.speech.audio import AudioDeviceError
    from voice.speech.speak import SpeechError

    try:
        figures = bench(settings, moves=args.moves, seed=args.seed, audio=args.audio)
    except (AudioDeviceError, SpeechError, BrowserUnavailable) as error:
        print(f"python -m benchmarks web: {error}", file=sys.stderr)
        return 2
    print(summary("webdriver click sent -> Say to the blind player", figures.driver_to_say))
    print(summary("browser click event -> Say to the blind player", figures.click_to_say))
    if args.audio:
        print(summary("browser click event -> speech starts", figures.click_to_audio))
    return 0
