"""``voice-chess clock``: the talking clock on a terminal keyboard or a USB foot switch.

The only place where real time enters the clock: ``time.monotonic()`` is read here, turned into
integer milliseconds since start-up and handed to the pure
:class:`~voice.game.clock_mode.ClockSession`
with every key and with a :class:`~voice.rules.events.Tick` at each wake-up the session asks for.
Announcements are printed one per line and spoken when a loudspeaker is available.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from voice.cli._laws import add_laws_argument
from voice.cli._resume import LATEST, add_resume_argument, journal_to_resume
from voice.config import ClockKeys, Language, Settings, override
from voice.game.clock_mode import (
    ACTIONS,
    BOUNCE_MS,
    FIRST_PRESS,
    REVISION,
    ClockSession,
    control_refused,
)
from voice.keyboard import KeyReader
from voice.rules.events import (
    Ask,
    ClockState,
    InputEvent,
    KeyPress,
    OutputEvent,
    Say,
    ScriptError,
    Setup,
    Tick,
)
from voice.rules.timecontrol import TimeControlError, parse_time_control
from voice.runtime.host import CHECKPOINT_MS
from voice.runtime.journal import (
    Journal,
    JournalInUse,
    journal_dir,
    new_journal_path,
    none_saved,
    only_finished,
    read_journal,
)
from voice.runtime.resume import resume
from voice.speech.native import NativeLibrary, missing_library, no_speaker_sentence
from voice.wiring.app_decisions import command_of, unused_on_resume
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
    add_resume_argument(parser, "clock")
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
            if switched and self._running is not None:
                # Without the click, a braille display or screen reader still learns that the
                # press was taken: the side whose clock now runs, in one word.
                side = message(self.language, f"clock.{self._running}")
                print(display_text(f"{side}.", self.language), flush=True)
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


class _Keeper:
    """The clock's journal as the clock writes it: every input before the clock sees it. A
    write that fails (the disk is full) ends the saving, said once; the clock goes on, since a
    game on the board needs its clock more than its journal."""

    def __init__(self, journal: Journal | None, language: str) -> None:
        self.journal = journal
        self.language = language
        self.written_ms = 0  # the time of the last input written

    def write(self, event: InputEvent) -> list[OutputEvent]:
        """Write ``event``; the sentence to say when the journal could not take it."""
        if self.journal is None:
            return []
        try:
            self.journal.append(event)
        except OSError as error:
            path = self.journal.path
            self.close()
            why = error.strerror or str(error)
            return [Say(event.t_ms, message(self.language, "clock.unsaved", path=path, error=why))]
        self.written_ms = event.t_ms
        return []

    def close(self) -> None:
        journal, self.journal = self.journal, None
        if journal is not None:
            with contextlib.suppress(OSError):
                journal.close()


def _loop(
    session: ClockSession,
    reader: KeyReader,
    announcer: _Announcer,
    now: Callable[[], int],
    spoken: SpokenRequests | None = None,
    keeper: _Keeper | None = None,
) -> None:
    """Keys, spoken requests and the clock's wake-ups, each on disk (``keeper``, the journal)
    before the clock sees it; while the clock runs, its time every :data:`CHECKPOINT_MS`."""
    actions = key_actions(session.keys)
    keeper = keeper or _Keeper(None, session.language)

    def handle(event: InputEvent) -> None:
        announcer.emit([*keeper.write(event), *session.handle(event)])

    while not session.finished:
        due = [] if (wake := session.next_wakeup_ms()) is None else [wake]
        if keeper.journal is not None and session.time_runs():
            due.append(keeper.written_ms + CHECKPOINT_MS)
        next_due = min(due, default=None)
        timeout = None if next_due is None else max(0, next_due - now()) / 1000
        if spoken is not None:
            timeout = _SPEECH_POLL_S if timeout is None else min(timeout, _SPEECH_POLL_S)
            for request in spoken.pending():
                if request == "stop":
                    announcer.stop()
                else:
                    handle(Ask(now(), request))
        key = reader.read_key(timeout)
        if key is not None:
            handle(KeyPress(now(), actions.get(key, "none")))
        elif next_due is not None and now() >= next_due:  # not when select woke a little early
            handle(Tick(now()))


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


class _Refused(Exception):
    """The clock cannot start as asked; the sentence says why and what to do."""


@dataclass
class _Opened:
    """A clock ready to run: new, or brought back from its journal."""

    session: ClockSession
    journal: Journal | None  # None: it could not be saved (said at the start)
    start_ms: int  # the clock's time at start-up: the last journaled input's when resumed
    greeting: list[OutputEvent]


def run(args: argparse.Namespace, settings: Settings) -> int:
    language = args.language or settings.language.blind
    if not sys.stdin.isatty():  # before anything is written or cut off a journal
        text = display_text(message(language, "clock.fail.no_terminal"), language)
        print(f"voice-chess clock: {text}", file=sys.stderr)
        return 2
    try:
        opened = (
            _new(args, settings, language)
            if args.resume is None
            else _resumed(args, settings, language)
        )
    except _Refused as refusal:
        print(f"voice-chess clock: {display_text(str(refusal), language)}", file=sys.stderr)
        return 2
    session = opened.session
    if session.finished:
        return _show_ended(opened, settings, args.speech)
    keeper = _Keeper(opened.journal, session.language)
    path = None if opened.journal is None else opened.journal.path
    try:
        greeting = opened.greeting
        for event in session.leftovers(opened.start_ms):  # help mode, a quit not confirmed
            greeting += [*keeper.write(event), *session.handle(event)]
        language = session.language
        announcer = _Announcer(settings, args.speech, language)
        spoken = _listen(settings, announcer, language, args.listen)
        # Time runs from here: the loudspeaker and the recogniser took their time to start.
        origin = time.monotonic() - opened.start_ms / 1000

        def now() -> int:
            return int((time.monotonic() - origin) * 1000)

        finished = interrupted = False
        try:
            with KeyReader(sys.stdin.fileno()) as reader:
                announcer.emit(greeting)
                _loop(session, reader, announcer, now, spoken, keeper)
            finished = True
        except EOFError:
            pass
        except KeyboardInterrupt:  # Ctrl-C: where the clock is kept is still said
            interrupted = True
        finally:
            if not session.finished:  # the time up to the end is charged, as on a real clock
                closing = Tick(now())
                announcer.emit([*keeper.write(closing), *session.handle(closing)])
            if spoken is not None:
                spoken.close()
            announcer.close(finish_speaking=finished)
        if keeper.journal is not None and path is not None:
            print(display_text(_saved(path, session, args), language), flush=True)
    finally:
        keeper.close()
    return 130 if interrupted else 0


def _new(args: argparse.Namespace, settings: Settings, language: str) -> _Opened:
    """A new clock and its journal (``clock-….jsonl`` in ``[session] journal_dir``)."""
    setup = Setup(
        mode="clock",
        blind=args.blind or settings.session.blind,
        time_control=args.control or settings.clock.time_control,
        profile=args.profile or settings.session.profile,
        language=args.language,
        laws=args.laws,
        extra={"bounce_ms": BOUNCE_MS},
    )
    try:
        if args.control is not None:  # an empty one too: the default is not what was asked
            parse_time_control(args.control, settings.clock.presets)
        session = ClockSession(setup, settings, start_ms=None)
    except TimeControlError as error:
        raise _Refused(control_refused(error, language)) from None
    # What the clock was started with is written down, so that a resume under other settings
    # (another default control, language or edition) brings back the same clock.
    pinned = replace(
        setup,
        time_control=session.control.text,
        language=session.language,
        laws=session.laws.edition,
        extra={**setup.extra, "start": FIRST_PRESS, "revision": REVISION},
    )
    folder = journal_dir(settings)
    greeting = session.welcome(0)
    journal: Journal | None = None
    try:
        journal = Journal.create(new_journal_path(folder, datetime.now(), "clock"), pinned)
    except OSError as error:  # a read-only or full disk: the clock still runs, and says so
        why = error.strerror or str(error)
        text = message(session.language, "clock.unsaved", path=folder, error=why)
        greeting.insert(0, Say(0, text))
    return _Opened(session, journal, 0, greeting)


def _resumed(args: argparse.Namespace, settings: Settings, language: str) -> _Opened:
    """The clock of the journal ``--resume`` names, replayed to where it stood (its time goes
    on from its last journaled input: the time it was down is charged to nobody)."""
    path = journal_dir(settings) if args.resume == LATEST else args.resume
    try:
        path = journal_to_resume(args.resume, settings, "clock")
        mode = read_journal(path).setup.mode
    except (FileNotFoundError, NotADirectoryError):  # none there, or the folder is a file
        if only_finished(path):  # --resume alone passes ended clocks by
            command = clock_command(args)
            text = message(
                language, "clock.fail.none_unfinished", path=path.parent, command=command
            )
            raise _Refused(text) from None
        if none_saved(path):
            raise _Refused(message(language, "clock.fail.none_saved", path=path.parent)) from None
        raise _Refused(message(language, "app.fail.no_journal", path=path)) from None
    except (OSError, ScriptError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise _Refused(message(language, "clock.fail.bad_journal", path=path, error=why)) from None
    if mode != "clock":
        raise _Refused(message(language, "clock.fail.not_a_clock", path=path))
    try:
        resumed = resume(path, settings)
    except JournalInUse:
        raise _Refused(message(language, "clock.fail.journal_in_use", path=path)) from None
    except (OSError, ScriptError, TimeControlError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise _Refused(message(language, "clock.fail.bad_journal", path=path, error=why)) from None
    session = resumed.core
    assert isinstance(session, ClockSession)  # the journal's set-up says so
    torn = resumed.contents.torn_sentence(path, session.language)
    if torn is not None:  # a torn last line, dropped
        print(f"voice-chess clock: {display_text(torn, session.language)}", file=sys.stderr)
    greeting = resumed.announcement
    if session.finished:  # "Diese Uhr wurde beendet …": nothing goes on, no option is used
        command = clock_command(args)
        text = message(session.language, "clock.start_new", command=command)
        greeting = [*greeting, Say(resumed.contents.last_ms, text)]
        return _Opened(session, resumed.journal, resumed.contents.last_ms, greeting)
    unused = unused_on_resume(
        resumed.contents.setup,
        settings,
        control=args.control,
        blind=args.blind,
        language=args.language,
        laws=args.laws,
        profile=args.profile,
    )
    if unused:  # given with --resume: the player must not think they took effect
        text = message(session.language, "app.start.unused", options=", ".join(unused))
        greeting = [Say(resumed.contents.last_ms, text), *greeting]
    return _Opened(session, resumed.journal, resumed.contents.last_ms, greeting)


def _show_ended(opened: _Opened, settings: Settings, speech: bool) -> int:
    """A clock ended with Q twice, opened with ``--resume``: it was ended and cannot be
    continued, its final times and how to start a new clock are said; no key is waited for, and
    nothing is written to its journal (README, "The talking clock")."""
    if opened.journal is not None:
        opened.journal.close()
    announcer = _Announcer(settings, speech, opened.session.language)
    try:
        announcer.emit(opened.greeting)
    finally:
        announcer.close(finish_speaking=True)
    return 0


def _saved(path: Path, session: ClockSession, args: argparse.Namespace) -> str:
    """Where the clock is kept, and how to go on with it if it was not ended."""
    text = message(session.language, "clock.saved", path=path)
    if not session.finished:
        command = clock_command(args)
        text += " " + message(session.language, "clock.resume_hint", command=command, path=path)
    return text


def clock_command(args: argparse.Namespace) -> str:
    """``voice-chess clock`` as the user ran it, less what its journal keeps: the settings
    file (the journal does not keep the keys or the devices), ``--no-speech`` and
    ``--no-listen``. Without them a user who copied the printed command got another clock:
    one that speaks and listens (a new user's trial)."""
    words = [command_of("clock", args.config)]
    if not args.speech:
        words.append("--no-speech")
    if not args.listen:
        words.append("--no-listen")
    return " ".join(words)


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
