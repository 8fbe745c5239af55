"""``voice-chess clock``: the talking clock on a terminal keyboard or a USB foot switch.

The only place where real time enters the clock: ``time.monotonic()`` is read here, turned into
integer milliseconds since start-up and handed to the pure
:class:`~voice.game.clock_mode.ClockSession`
with every key and with a :class:`~voice.rules.events.Tick` at each wake-up the session asks for.
Announcements are printed one per line and spoken when a loudspeaker is available.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, get_args

from voice.cli._laws import add_laws_argument
from voice.config import ClockKeys, Language, Settings, override
from voice.game.clock_mode import ACTIONS, ClockSession
from voice.keyboard import KeyReader
from voice.rules.events import Ask, ClockState, InputEvent, KeyPress, OutputEvent, Say, Setup, Tick
from voice.rules.timecontrol import TimeControlError
from voice.speech.native import NativeLibrary, missing_library, no_speaker_sentence
from voice.words.messages import display_text, message
from voice.words.phrases import speakable
from voice.words.utterance import Heard
from voice.words.vocabulary import Vocabulary

if TYPE_CHECKING:  # imported where used: the clock starts without loading speech
    from voice.speech.speak import Speaker

NAME = "clock"
HELP = "talking chess clock: time and move count on request, flag fall at once (FIDE D.2.6.1)"

_SPEECH_POLL_S = 0.1  # how often spoken requests are looked for while waiting for a key


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
    add_laws_argument(parser)
    parser.add_argument(
        "--language",
        choices=get_args(Language),
        help="the blind player's language: announcements and voice (default: [language] blind)",
    )
    parser.add_argument(
        "--no-speech",
        dest="speech",
        action="store_false",
        help="print the announcements only (for a screen reader or a braille display)",
    )
    parser.add_argument(
        "--no-listen",
        dest="listen",
        action="store_false",
        help="keys only: do not listen for spoken requests ('Zeit', 'Uhr', 'Züge', 'Pause', "
        "'Stopp'), which are heard by default when a microphone exists",
    )


class _Announcer:
    """Prints each announcement on its own line and speaks it if a loudspeaker works.

    A press that switched the clock plays the short "move made" sound, so a foot-switch user
    knows the press was taken without any words.
    """

    def __init__(self, settings: Settings, speech: bool, language: str) -> None:
        self._speaker: Speaker | None = None
        self._running: str | None = None
        self.language = language
        self.missing: NativeLibrary | None = None  # a library said to be missing
        if speech:
            try:
                from voice.speech.speak import Speaker

                self._speaker = Speaker(settings, language=language)
            except Exception as error:  # no engine, no device: the terminal still works
                self.missing = missing_library(error, speech=True)
                text = no_speaker_sentence(error, language)
                print(display_text(text, language), file=sys.stderr)

    def emit(self, outputs: list[OutputEvent]) -> None:
        """Print each announcement as it reads; speak them with the marks and respellings the
        voice of the clock's language needs."""
        texts = [out.text for out in outputs if isinstance(out, Say)]
        for text in texts:
            print(display_text(text, self.language), flush=True)
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
            self._speaker.say(speakable(" ".join(texts), self.language), interrupt=True)

    @property
    def speaker(self) -> Speaker | None:
        return self._speaker

    def stop(self) -> None:
        """ "Stopp": silence the announcement now playing."""
        if self._speaker is not None:
            self._speaker.stop()

    def close(self, *, finish_speaking: bool) -> None:
        if self._speaker is not None:
            if finish_speaking:
                self._speaker.wait_idle(timeout=5)
            self._speaker.close()


def key_actions(keys: ClockKeys) -> dict[str, str]:
    """Key name → action, from the ``[clock.keys]`` settings."""
    return {key: action for action in ACTIONS for key in getattr(keys, action)}


def _loop(
    session: ClockSession,
    reader: KeyReader,
    announcer: _Announcer,
    now: Callable[[], int],
    spoken: SpokenRequests | None = None,
) -> None:
    actions = key_actions(session.keys)
    announcer.emit(session.welcome(now()))
    while not session.finished:
        wake = session.next_wakeup_ms()
        timeout = None if wake is None else max(0, wake - now()) / 1000
        if spoken is not None:
            timeout = _SPEECH_POLL_S if timeout is None else min(timeout, _SPEECH_POLL_S)
            for request in spoken.pending():
                if request == "stop":
                    announcer.stop()
                else:
                    announcer.emit(session.handle(Ask(now(), request)))
        key = reader.read_key(timeout)
        # No key: time passed (if select woke a little early, nothing is due yet).
        event: InputEvent = (
            Tick(now()) if key is None else KeyPress(now(), actions.get(key, "none"))
        )
        announcer.emit(session.handle(event))


def request_words(vocab: Vocabulary, language: str) -> str:
    """The words the clock listens for, as a list in ``language`` ("Zeit, Uhr, Züge, Pause
    oder Stopp"): every spoken form of each request, in the configured command set."""
    words = [
        vocab.display(phrase)
        for name in SpokenRequests.WORDS
        for phrase in vocab.commands.get(name, ())
    ]
    if vocab.command_set == "de":
        words = [word[:1].upper() + word[1:] for word in words]
    separator = message(language, "position.separator")
    return separator.join(words[:-1]) + message(language, "clock.or") + words[-1]


class SpokenRequests:
    """ "Zeit", "Uhr", "Züge", "Pause", "Stopp" heard on the microphone, as clock requests.

    The recogniser listens for these words only; what it hears waits in a queue that the
    clock's loop empties between keys (the clock itself stays single-threaded).
    """

    WORDS = ("time", "moves", "pause", "stop")

    def __init__(self, settings: Settings, speaker: Speaker | None) -> None:
        from voice.speech.speech_input import SpeechInput
        from voice.words.vocabulary import Vocabulary

        self.vocab = Vocabulary.of(settings)
        # Only command words are heard here, which PocketSphinx never votes on: Whisper alone.
        alone = override(settings, speech={"second_opinion": False})
        self.input = SpeechInput(alone, self.vocab, speaker)
        self.input.set_context(
            (phrase for name in self.WORDS for phrase in self.vocab.commands.get(name, ())), {}
        )
        self._heard: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.input.start(self._deliver, lambda: None)

    def describe(self, language: str) -> str:
        return self.input.describe(language)

    def _deliver(self, heard: Heard) -> None:
        if not heard:
            return
        name = self.vocab.command_for(self.vocab.normalize(heard[0][0]))
        if name in self.WORDS:
            self._heard.put(name)

    def pending(self) -> list[str]:
        requests = []
        while not self._heard.empty():
            requests.append(self._heard.get_nowait())
        return requests

    def close(self) -> None:
        self.input.close()


def run(args: argparse.Namespace, settings: Settings) -> int:
    setup = Setup(
        mode="clock",
        blind=args.blind or settings.session.blind,
        time_control=args.control or settings.clock.time_control,
        profile=args.profile or settings.session.profile,
        language=args.language,
        laws=args.laws,
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

    language = session.language
    announcer = _Announcer(settings, args.speech, language)
    spoken = _listen(settings, announcer, language, args.listen)
    finished = False
    try:
        with KeyReader(sys.stdin.fileno()) as reader:
            _loop(session, reader, announcer, now, spoken)
        finished = True
    except EOFError:
        pass
    finally:
        if spoken is not None:
            spoken.close()
        announcer.close(finish_speaking=finished)
    return 0


def _listen(
    settings: Settings, announcer: _Announcer, language: str, wanted: bool
) -> SpokenRequests | None:
    """Spoken requests when a microphone and the recogniser work; otherwise say why not."""
    if not wanted:
        return None
    try:
        spoken = SpokenRequests(settings, announcer.speaker)
    except Exception as error:  # no microphone, no recogniser: the keys still work
        from voice.speech.audio import NoInputDeviceError

        library = missing_library(error)
        if library is not None:
            if library != announcer.missing:  # PortAudio is said to be missing once
                print(display_text(library.sentence(language), language), flush=True)
            return None
        key = "clock.listen_no_microphone" if isinstance(error, NoInputDeviceError) else None
        text = (
            message(language, key)
            if key
            else message(language, "clock.listen_failed", error=str(error).rstrip("."))
        )
        print(display_text(text, language), flush=True)
        return None
    text = message(
        language,
        "clock.listening",
        input=spoken.describe(language),
        request_words=request_words(spoken.vocab, language),
    )
    print(display_text(text, language), flush=True)
    return spoken
