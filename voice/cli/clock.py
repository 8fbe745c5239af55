"""``voice-chess clock``: the talking clock on a terminal keyboard or a USB foot switch.

The only place where real time enters the clock: ``time.monotonic()`` is read here, turned into
integer milliseconds since start-up and handed to the pure :class:`~voice.clock_mode.ClockSession`
with every key and with a :class:`~voice.events.Tick` at each wake-up the session asks for.
Announcements are printed one per line and spoken when a loudspeaker is available.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from voice.clock_mode import ACTIONS, ClockSession
from voice.config import ClockKeys, Settings
from voice.events import ClockState, InputEvent, KeyPress, OutputEvent, Say, Setup, Tick
from voice.keyboard import KeyReader
from voice.timecontrol import TimeControlError

NAME = "clock"
HELP = "talking chess clock: time and move count on request, flag fall at once (FIDE D.2.6.1)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--control",
        metavar="TC",
        help="time control: a preset name or PGN form such as 900+10, 40/5400+30:1800+30, "
        "5400d5 (default: [clock] time_control)",
    )
    parser.add_argument("--blind", choices=("white", "black"), help="the blind player's colour")
    parser.add_argument(
        "--profile",
        choices=("home", "tournament"),
        help="tournament: no unsolicited information (no low-time warnings)",
    )
    parser.add_argument("--language", help="language of the announcements (default: settings)")
    parser.add_argument(
        "--no-speech",
        dest="speech",
        action="store_false",
        help="print the announcements only (for a screen reader or a braille display)",
    )


class _Announcer:
    """Prints each announcement on its own line and speaks it if a loudspeaker works.

    A press that switched the clock plays the short "move made" sound, so a foot-switch user
    knows the press was taken without any words.
    """

    def __init__(self, settings: Settings, speech: bool) -> None:
        self._speaker: Any = None
        self._running: str | None = None
        if speech:
            try:
                from voice.speak import Speaker

                self._speaker = Speaker(settings)
            except Exception as error:  # no engine, no device: the terminal still works
                print(f"(speech unavailable: {error}; printing only)", file=sys.stderr)

    def emit(self, outputs: list[OutputEvent]) -> None:
        texts = [out.text for out in outputs if isinstance(out, Say)]
        for text in texts:
            print(text, flush=True)
        switched = False
        for out in outputs:
            if isinstance(out, ClockState):
                switched = switched or (
                    None not in (self._running, out.running) and out.running != self._running
                )
                self._running = out.running or self._running
        if self._speaker is None:
            return
        if switched:
            self._speaker.earcon("move_made")
        if texts:
            self._speaker.say(" ".join(texts), interrupt=True)

    def close(self, *, finish_speaking: bool) -> None:
        if self._speaker is not None:
            if finish_speaking:
                self._speaker.wait_idle(timeout=5)
            self._speaker.close()


def key_actions(keys: ClockKeys) -> dict[str, str]:
    """Key name → action, from the ``[clock.keys]`` settings."""
    return {key: action for action in ACTIONS for key in getattr(keys, action)}


def _loop(
    session: ClockSession, reader: KeyReader, announcer: _Announcer, now: Callable[[], int]
) -> None:
    actions = key_actions(session.keys)
    announcer.emit(session.welcome(now()))
    while not session.finished:
        wake = session.next_wakeup_ms()
        timeout = None if wake is None else max(0, wake - now()) / 1000
        key = reader.read_key(timeout)
        event: InputEvent
        if key is None:
            event = Tick(now())  # if select woke a little early, nothing is due yet
        else:
            event = KeyPress(now(), actions.get(key, "none"))
        announcer.emit(session.handle(event))


def run(args: argparse.Namespace, settings: Settings) -> int:
    setup = Setup(
        mode="clock",
        blind=args.blind or settings.session.blind,
        time_control=args.control or settings.clock.time_control,
        profile=args.profile or settings.session.profile,
        language=args.language,
    )
    try:
        session = ClockSession(setup, settings, start_ms=None)
    except TimeControlError as error:
        print(f"voice-chess clock: {error}", file=sys.stderr)
        return 2
    if not sys.stdin.isatty():
        print(
            "voice-chess clock: needs a terminal keyboard (standard input is not one)",
            file=sys.stderr,
        )
        return 2
    origin = time.monotonic()

    def now() -> int:
        return int((time.monotonic() - origin) * 1000)

    announcer = _Announcer(settings, args.speech)
    finished = False
    try:
        with KeyReader(sys.stdin.fileno()) as reader:
            _loop(session, reader, announcer, now)
        finished = True
    except EOFError:
        pass
    finally:
        announcer.close(finish_speaking=finished)
    return 0
