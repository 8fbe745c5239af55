"""The wiring of a game: session, journal, host, and the adapters around them.

``voice-chess play`` and ``voice-chess assist`` both come here. :class:`App` builds (or resumes)
the game session, opens its journal, puts both on a :class:`~voice.runtime.host.GameHost`, and
attaches what this computer offers: the loudspeaker (or only the terminal), the microphone with the
recogniser (or typed lines), the terminal's keys, the web board for the sighted opponent and the
arbiter, or Stockfish as the opponent. Everything here is plumbing: the rules are in the session;
what the program decides around the game (the set-up from the command line, the answers before
the game, quitting, what the terminal shows) is in :mod:`voice.wiring.app_decisions`.

Before the clocks run, two questions may be asked outside the game: the computer's strength
(``--opponent engine``: a number from one to eight) and, at a tournament board, the arbiter's
approval of the set-up, which goes into the journal as the first input, at game time zero. The
arbiter approves at the terminal or on the arbiter's web page, which is served (with game time
held at zero) while the question waits; whichever answers first counts.

Every failure that the player can fix gets one sentence saying what happened and what to do,
printed and (when a loudspeaker works) spoken; where the program can go on without the missing
part (no microphone: typed moves; no loudspeaker: the terminal only) it says so and goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import io
import logging
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from voice import config
from voice.config import Settings
from voice.game import announcements as ann
from voice.game.clock_mode import control_refused, describe_control, key_name
from voice.game.session import GameSession
from voice.game.session_base import played_settings
from voice.rules.approval import SetupApproval, Via
from voice.rules.events import (
    ArbiterAction,
    BlindSpeech,
    InputEvent,
    KeyPress,
    OutputEvent,
    ResumeSaid,
    Setup,
)
from voice.rules.laws import laws_for
from voice.rules.timecontrol import TimeControlError, parse_time_control
from voice.runtime.host import CHECKPOINT_MS, GameHost
from voice.runtime.journal import Journal, journal_dir, new_journal_path
from voice.runtime.text_input import TextInput
from voice.speech.learning import GameLearner, RecordingStore
from voice.speech.native import device_reason
from voice.wiring.app_decisions import (
    Mode,
    Opponent,
    Plan,
    QuitGuard,
    TalkKeyHint,
    command_of,
    is_yes,
    journal_mode,
    level_answer,
    level_beyond,
    new_setup,
    question_phrases,
    resume_command,
    shown,
    typed_key,
    unused_on_resume,
    with_engine,
    yes_or_no,
)
from voice.words.messages import display_text, message
from voice.words.phrases import speakable
from voice.words.spoken_time import number_words
from voice.words.utterance import Heard
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary, yes_no_phrases

if TYPE_CHECKING:
    from voice.runtime.engine import Engine, EngineOpponent
    from voice.runtime.game_keys import GameKeyInput
    from voice.speech.native import NativeLibrary
    from voice.web.server import WebServer

__all__ = ["EXIT_OK", "EXIT_SETUP", "App", "Mode", "Opponent", "Output", "Plan", "Startup"]

EXIT_OK = 0
EXIT_SETUP = 2  # something the user must fix before a game can start

log = logging.getLogger(__name__)


class InputSource(Protocol):
    """Where the blind player's words come from: the microphone or typed lines."""

    def set_context(self, phrases: Iterable[Phrase], moves: NamedMoves) -> None:
        """What may be said now (a recogniser's grammar), and which move each of the
        player's move phrases names (``GameSession.moves_now``; empty while only answers are
        listened for)."""
        ...

    def start(self, deliver: Callable[[Heard], None], on_end: Callable[[], None]) -> None: ...

    def close(self) -> None: ...


def _is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a screen reader may read it); a closed or odd stream
    is not."""
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


class Startup(Exception):
    """The game cannot start; ``text`` is the sentence that says why and what to do."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


# -- the terminal and the loudspeaker ---------------------------------------------------------


class Output:
    """Everything said to the blind player: printed on its own line, spoken when possible.

    Within a game nothing is dropped (each batch is queued after what still plays); "Stopp" or
    the stop key silences the speech at once.
    """

    def __init__(self, out: TextIO, language: str) -> None:
        self.out = out
        self.language = language
        self.speaker: Any = None
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        """Print ``text`` as it reads: without the Hebrew points and Arabic vowel marks that
        only the speech needs."""
        with self._lock:
            self.out.write(display_text(text, self.language) + "\n")
            self.out.flush()

    def say(self, text: str, *, speak: bool = True, spoken: str | None = None) -> None:
        """Print ``text`` (as it reads) and speak it, or ``spoken`` in its place (with the
        marks and respellings the voice needs)."""
        self.line(text)
        words = text if spoken is None else spoken
        if speak and self.speaker is not None and words.strip():
            self.speaker.say(speakable(words, self.language), interrupt=False, append=True)

    def stop(self) -> None:
        if self.speaker is not None:
            self.speaker.stop()

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.wait_idle(timeout=15)
            self.speaker.close()
            self.speaker = None


# -- the app ----------------------------------------------------------------------------------


_PLAYER_INPUTS = frozenset({"key", "typed", "heard", "guessed", "interrupt"})
"""Inbox items the player caused (a faint-voice hint or a web approval is none)."""


@dataclass
class _Inbox:
    """Inputs from the adapters' threads, handed to the loop in order."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[tuple[str, Any]] = field(default_factory=asyncio.Queue)

    def put(self, kind: str, value: Any = None) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (kind, value))


class App:
    """One game, from the start-up sentence to the saved journal."""

    def __init__(
        self,
        plan: Plan,
        settings: Settings,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        if plan.deaf_opponent:
            settings = config.override(settings, web={"large_text_moves": True})
        if plan.language:
            # --language is the blind player's language for everything: the session's
            # sentences, the terminal, and the voice the loudspeaker speaks them with.
            settings = config.override(settings, language={"blind": plan.language})
        self.plan = plan
        self.settings = settings
        self.stdin = stdin if stdin is not None else sys.stdin
        self.language = plan.language or settings.language.blind
        self.vocab = Vocabulary.of(settings)
        self.output = Output(stdout if stdout is not None else sys.stdout, self.language)
        self.source: InputSource | None = None
        self.input_words = ""
        self._speaker_name: str | None = None  # the loudspeaker speech goes to, if any
        self.session: GameSession | None = None
        self.host: GameHost | None = None
        self.journal: Journal | None = None
        self.server: WebServer | None = None
        self.engine: Engine | None = None
        self.opponent: EngineOpponent | None = None
        self.keys: GameKeyInput | None = None
        self._missing_told: set[NativeLibrary] = set()  # native libraries said to be missing
        self.approval: dict[str, Any] | None = None  # the set-up the arbiter approved
        self._approved: SetupApproval | None = None  # a resumed board's, for the panel
        self._resumed = False  # a journal was read: "Partie fortgesetzt" instead of "beginnt"
        self._unused: list[str] = []  # options a resumed game does not use (said at the start)
        self._under_way = False  # a resumed journal has inputs: approved, or played on
        self.key_actions = {
            key: action
            for action, keys in settings.session.keys.model_dump().items()
            for key in keys
        }
        self._inbox: _Inbox | None = None
        self.quit_guard = QuitGuard()
        self.talk_hint = TalkKeyHint()
        self._game_over_said = False
        self._interrupted = False  # Ctrl-C or a shutdown: the end is said in one sentence
        self.learner: GameLearner | None = None

    # -- words ------------------------------------------------------------------------------

    def text(self, key: str, **params: Any) -> str:
        """A sentence of the program; those that say which word to answer with name the
        configured command set's word ({yes_word}, {one_word}), whatever the language."""
        return message(self.language, f"app.{key}", **ann.command_words(self.vocab), **params)

    def tell(self, key: str, **params: Any) -> None:
        self.output.say(self.text(key, **params))

    def _use_language(self, language: str) -> None:
        """A resumed game speaks the language it was started in (its journal's set-up), not
        today's setting: the terminal, the respellings and the voice all follow."""
        if language == self.language:
            return
        self.language = language
        self.output.language = language
        self.settings = config.override(self.settings, language={"blind": language})
        if self.output.speaker is not None:
            self.output.speaker.language = language

    # -- running ----------------------------------------------------------------------------

    def run(self) -> int:
        """Run the game until the player quits; the exit status."""
        try:
            return asyncio.run(self.main())
        except KeyboardInterrupt:
            return 130

    async def main(self) -> int:
        loop = asyncio.get_running_loop()
        self._inbox = _Inbox(loop)
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            # Ctrl-C or a shutdown: end like the end of input, so the journal is closed, the
            # PGN printed and the way to resume said; but what is still being said is stale
            # (the player wants out now), so it is cut first.
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signal_number, self._inbox.put, "interrupt")
        try:
            self._open_output()
            self._check_port()
            resumed = self.plan.resume is not None
            if resumed:
                # Read before the microphone opens: the recogniser hears with the words and
                # the language the game was played with (its journal's settings), not today's.
                assert self.plan.resume is not None
                setup, start_ms = self._resume(self.plan.resume)
            await self._open_input()
            self._listen()
            if not resumed:
                setup, start_ms = self._setup(), 0
            self._say_startup(setup)
            if self.plan.opponent == "engine":
                await self._start_engine(setup)
            if self.plan.opponent == "engine" and not resumed:
                level = self.plan.level
                if level is None:
                    level = await self._ask_level()
                setup = with_engine(setup, level, self.text("engine.player", level=level))
                assert self.engine is not None
                self.engine.set_level(level)
            if not resumed:
                self._create(setup)
            if self.plan.mode == "assist" and not self._under_way:
                await self._approval(start_ms)
            await self._start_game(start_ms)
        except Startup as failure:
            self.output.say(failure.text)
            await self._shutdown()
            return EXIT_SETUP
        try:
            await self._play()
        finally:
            await self._shutdown()
        return EXIT_OK

    # -- start-up: output and input -----------------------------------------------------------

    def _open_output(self) -> None:
        if not self.plan.speech:
            return
        try:
            from voice.speech.audio import AudioDeviceError, friendly_name
            from voice.speech.speak import Speaker, SpeechError

            self.output.speaker = Speaker(self.settings)
            self._speaker_name = friendly_name(self.output.speaker.device)
        except (AudioDeviceError, SpeechError, OSError) as error:
            missing = self._missing_library(error, speech=True)
            if missing is None:
                reason = device_reason(error, self.language)
                missing = self.text("fail.no_speaker", error=reason)
            self.output.line(missing)

    async def _open_input(self) -> None:
        if self.plan.text:
            self._use_text()
            return
        try:
            from voice.speech.speech_input import SpeechInput

            source = await asyncio.to_thread(
                SpeechInput, self.settings, self.vocab, self.output.speaker
            )
        except Exception as error:  # no microphone, no recogniser, no model: typed lines
            if sentence := self._no_speech_input(error):
                self.output.say(sentence)
            self._use_text()
            return
        self.source = source
        # Nothing is asked yet: yes, no, numbers.
        source.set_context(question_phrases(self.vocab), {})
        self.input_words = source.describe(self.language)
        self._start_keys()

    def _missing_library(self, error: Exception, *, speech: bool = False) -> str | None:
        """The sentence naming the library to install, once: PortAudio is missing for the
        loudspeaker and the microphone alike, and the player need not hear it twice."""
        from voice.speech.native import missing_library

        library = missing_library(error, speech=speech)
        if library is None:
            return None
        if library in self._missing_told:
            return ""
        self._missing_told.add(library)
        return library.sentence(self.language)

    def _no_speech_input(self, error: Exception) -> str:
        from voice.speech.audio import NoInputDeviceError

        missing = self._missing_library(error)
        if missing is not None:
            return missing
        if isinstance(error, NoInputDeviceError):
            return self.text("fail.no_microphone")
        return self.text("fail.recognizer", error=str(error).rstrip("."))

    def _use_text(self) -> None:
        self.source = TextInput(self.stdin)
        self.input_words = self.text("input.text")

    def _start_keys(self) -> None:
        """Keys of a terminal (when there is one) while the player speaks."""
        if not self.stdin.isatty():
            return
        from voice.runtime.game_keys import GameKeyInput

        self.keys = GameKeyInput(self.stdin.fileno())

    def _listen(self) -> None:
        inbox = self._inbox
        assert inbox is not None and self.source is not None
        # Typed lines and speech differ in one way: an empty typed line is only Enter, while
        # speech that gave nothing usable must still be answered ("Nicht verstanden").
        kind = "typed" if isinstance(self.source, TextInput) else "heard"
        from voice.speech.speech_input import SpeechInput

        if isinstance(self.source, SpeechInput):  # a voice too faint for the room is told
            self.source.on_faint(lambda: inbox.put("faint", None))
            # Speech that fitted no phrase, with the recogniser's free transcription: the
            # game may say why the move it names is illegal.
            self.source.on_guess(lambda guess: inbox.put("guessed", guess))
        if isinstance(self.source, TextInput):  # the arrow keys of a line-reading terminal

            def keys(names: list[str]) -> None:
                for name in names:
                    inbox.put("key", name)

            self.source.start(lambda heard: inbox.put(kind, heard), lambda: inbox.put("end"), keys)
        else:
            self.source.start(lambda heard: inbox.put(kind, heard), lambda: inbox.put("end"))
        if self.keys is not None:
            self.keys.start(lambda key: inbox.put("key", key), lambda: inbox.put("end"))

    # -- start-up: the game ----------------------------------------------------------------

    def _create(self, setup: Setup) -> None:
        """A new game's session and journal (the journal starts with the setup line)."""
        self.session = self._new_session(setup)
        if self.plan.journal is None:
            self._check_journal_dir()
        path = self.plan.journal or new_journal_path(journal_dir(self.settings), datetime.now())
        try:
            self.journal = Journal.create(path, setup)
        except IsADirectoryError:
            raise Startup(self.text("fail.journal_is_folder", path=path)) from None
        except FileExistsError:
            raise Startup(self.text("fail.journal_exists", path=path)) from None
        except OSError as error:
            raise Startup(
                self.text("fail.journal_dir", path=path.parent, error=error.strerror)
            ) from None

    def _check_journal_dir(self) -> None:
        """``[session] journal_dir`` names a file: no game can be saved there or found there."""
        folder = journal_dir(self.settings)
        if folder.exists() and not folder.is_dir():
            raise Startup(self.text("fail.journal_dir_file", path=folder))

    def _setup(self) -> Setup:
        if self.plan.fen:
            self._check_fen(self.plan.fen)
        try:
            return new_setup(
                self.plan, self.settings, self.language, datetime.now().strftime("%Y.%m.%d")
            )
        except TimeControlError as error:
            raise Startup(control_refused(error, self.language)) from None

    def _check_fen(self, fen: str) -> None:
        """``--fen`` said wrong, in the player's words: it was the set-up's English ("setup.fen:
        not a FEN: expected 8 rows …") inside a sentence that named a setting to correct (a
        new user's trial)."""
        from voice.game.session_base import BadFen, read_fen

        try:
            read_fen(fen)
        except BadFen as bad:
            key = _FEN_FAULTS[bad.fault]
            raise Startup(self.text(key, fen=fen, given=bad.given, fixed=bad.fixed)) from None

    def _new_session(self, setup: Setup) -> GameSession:
        from voice.rules.events import PositionOver, ScriptError

        try:
            return GameSession(setup, self.settings)
        except PositionOver as over:
            reason = message(self.language, f"game.reason.{over.reason}").rstrip(".")
            raise Startup(self.text("fail.position_over", reason=reason)) from None
        except (ScriptError, TimeControlError) as error:
            raise Startup(self.text("fail.setup", error=str(error))) from None

    def _resume(self, path: Path) -> tuple[Setup, int]:
        from voice.rules.events import ScriptError
        from voice.runtime.journal import JournalInUse, none_saved, only_finished
        from voice.runtime.resume import resume

        try:
            resumed = resume(path, self.settings)
        except NotADirectoryError:
            self._check_journal_dir()  # --resume alone looked for the latest game in a file
            raise Startup(self.text("fail.no_journal", path=path)) from None
        except FileNotFoundError:
            if only_finished(path):  # --resume alone passes finished games by
                command = command_of(self.plan.mode, self.plan.config)
                raise Startup(
                    self.text("fail.none_unfinished", path=path.parent, command=command)
                ) from None
            if none_saved(path):
                raise Startup(self.text("fail.none_saved", path=path.parent)) from None
            raise Startup(self.text("fail.no_journal", path=path)) from None
        except JournalInUse:
            raise Startup(self.text("fail.journal_in_use", path=path)) from None
        except (ScriptError, TimeControlError, OSError) as error:
            why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise Startup(self.text("fail.bad_journal", path=path, error=why)) from None
        if not isinstance(resumed.core, GameSession):
            resumed.journal.close()
            raise Startup(self.text("fail.not_a_game", path=path))
        torn = resumed.contents.torn_sentence(path, self.language)
        if torn is not None:
            self.output.line(torn)
        setup = resumed.contents.setup
        plan = self.plan
        self._unused = unused_on_resume(
            setup,
            self.settings,
            control=plan.control,
            blind=plan.blind,
            language=plan.language,
            laws=plan.laws,
            fen=plan.fen,
            level=plan.level,
        )
        # The words and the rules of hearing the game was played with (the session replayed
        # the journal with them, voice.game.session_base.played_settings): the same here.
        self.settings = played_settings(setup, self.settings)
        self.vocab = Vocabulary.of(self.settings)
        if setup.extra.get("deaf_opponent") and not self.settings.web.large_text_moves:
            self.settings = config.override(self.settings, web={"large_text_moves": True})
        # The game goes on as it began, whichever command resumed it: an assisted board as
        # one, under its arbiter, and the computer plays only where it played before (never
        # on a board game resumed with --opponent engine). A tournament board killed while
        # its set-up waited for the arbiter's approval asks for it again; one that has
        # inputs is under way and is not stopped for it.
        opponent: Opponent = "engine" if setup.extra.get("opponent") == "engine" else "board"
        self.plan = replace(self.plan, mode=journal_mode(setup), opponent=opponent)
        if setup.extra.get("opponent_speaks"):  # begun with --no-web: the opponent speaks on
            self.plan = replace(self.plan, web=False)
        # The approval is the journal's first input (at game time zero), so a journal with
        # inputs was approved or is under way.
        self._under_way = bool(resumed.contents.events)
        self.session = resumed.core
        self.journal = resumed.journal
        first = resumed.contents.events[0] if resumed.contents.events else None
        if (
            self.plan.mode == "assist"
            and isinstance(first, ArbiterAction)
            and first.action == "approve_setup"
            and isinstance(resumed.core, GameSession)
        ):  # the arbiter's panel shows the set-up as it was approved
            via: Via = "web" if first.params.get("via") == "web" else "terminal"
            self._approved = self._setup_approval(resumed.core, via)
        self._use_language(self.session.language)
        self._resumed = True
        return setup, resumed.contents.last_ms

    def _output_words(self) -> str:
        """ "Sprachausgabe auf …" or "Ausgabe nur als Text", in the game's language (a resumed
        game's may differ from the one the loudspeaker was opened in)."""
        if self._speaker_name is None:
            return self.text("output.terminal")
        return self.text("output.speaker", device=self._speaker_name)

    def _say_startup(self, setup: Setup) -> None:
        """One or two sentences: what is used, how the game is set up."""
        control = parse_time_control(
            setup.time_control or self.settings.clock.time_control, self.settings.clock.presets
        )
        self.tell(
            "start.using",
            mode=self.text(f"mode.{self.plan.mode}"),
            input=self.input_words,
            output=self._output_words(),
        )
        laws = laws_for(setup.laws or self.settings.rules.edition)
        self.tell(
            "start.game",
            profile=self.text(f"profile.{setup.profile}"),
            control=describe_control(control, self.language),
            laws=self.text(f"laws.{laws.appendix.lower()}", edition=laws.edition),
        )
        if setup.extra.get("opponent_speaks"):  # no board for the opponent (--no-web)
            self.output.say(message(self.language, "game.opponent_speaks"))
        if self._unused:  # given with --resume: the player must not think they took effect
            self.tell("start.unused", options=", ".join(self._unused))

    async def _ask(
        self,
        question: str,
        answer: Callable[[Heard], Any | None],
        *,
        spoken: bool = True,
        answered_by: str | None = None,
        confirm: Callable[[Heard, Any], str | None] | None = None,
        phrases: frozenset[Phrase] | None = None,
        retell: Callable[[Heard], str | None] | None = None,
    ) -> Any:
        """Ask before the game starts; wait for an answer ``answer`` accepts (not None).

        ``spoken=False``: only the terminal answers (Enter, or a typed line), never the
        microphone: the arbiter approves the set-up, not the player's voice.
        ``answered_by``: an inbox item of this kind answers too, with its value (the arbiter's
        web page approved the set-up).
        ``confirm``: for an answer heard from the microphone, the question that asks it back
        ("Stufe sieben?"), or None to take it; "nein" asks ``question`` again.
        ``phrases``: what the microphone listens for (default: yes, no and the numbers).
        ``retell``: for an answer not taken, the sentence that says why and asks again (None:
        ``question`` again).
        """
        assert self._inbox is not None
        listen_for = question_phrases(self.vocab) if phrases is None else phrases
        self.output.say(question)
        if self.source is not None:
            self.source.set_context(listen_for, {})
        while True:
            kind, value = await self._inbox.queue.get()
            if kind in ("end", "interrupt"):
                self._interrupted = kind == "interrupt"
                # With a journal already made, the way to continue is printed at the end.
                made = getattr(self, "journal", None) is not None
                raise Startup(self.text("fail.input_ended_kept" if made else "fail.input_ended"))
            if answered_by is not None and kind == answered_by:
                return value
            if kind == "faint":
                self.tell("faint_hint")
                continue
            if kind == "guessed":  # nothing the question takes: not understood
                kind, value = "heard", ()
            if kind == "key" and value == "enter":
                value = ()  # Enter alone takes the suggestion
            elif kind not in ("typed", "heard") or (kind == "heard" and not spoken):
                continue
            if kind == "heard" and not value:  # speech, but nothing usable in it
                self.output.say(message(self.language, "not_understood"))
                continue
            result = answer(value)
            heard = kind == "heard" and result is not None
            check = confirm(value, result) if confirm is not None and heard else None
            if check is not None and not await self._ask(
                check, partial(yes_or_no, self.vocab), phrases=yes_no_phrases(self.vocab)
            ):
                result = None
            if result is not None:
                return result
            self.output.say((retell(value) if retell is not None else None) or question)
            if self.source is not None:
                self.source.set_context(listen_for, {})

    async def _ask_level(self) -> int:
        from voice.runtime.engine import LEVELS

        default = self.settings.engine.level
        if not self.settings.engine.ask_level:
            return default
        last = self.vocab.number_words[len(LEVELS) - 1]

        def answer(heard: Heard) -> int | None:
            return level_answer(self.vocab, heard, default, len(LEVELS))

        def confirm(heard: Heard, level: int) -> str | None:
            """A number said alone is the word most often misheard (report voices: "fünf" as
            "sieben", "drei" as "zwei", about one in six, however sure the recogniser was;
            ``python -m benchmarks answers``), and the strength cannot be changed once the
            game runs: a spoken level is asked back. "ja" for the suggested one is not."""
            if is_yes(self.vocab, heard):
                return None
            return self.text("engine.confirm", level=number_words(level, self.language))

        def retell(heard: Heard) -> str | None:
            said = level_beyond(self.vocab, heard, len(LEVELS))
            if said is None:
                return None
            return self.text(
                "engine.out_of_range",
                said=number_words(said, self.language),
                last=last,
                level=number_words(default, self.language),
            )

        # The levels in words, as the program says every other number ("Stufe 3" had a
        # digit in a sentence for the speech synthesizer; a review).
        question = self.text("engine.ask", last=last, level=number_words(default, self.language))
        level: int = await self._ask(question, answer, confirm=confirm, retell=retell)
        self.tell("engine.chosen", level=number_words(level, self.language))
        return level

    async def _start_engine(self, setup: Setup) -> None:
        from voice.runtime.engine import Engine, EngineError

        level = int(setup.extra.get("engine_level", self.settings.engine.level))
        try:
            self.engine = await asyncio.to_thread(Engine, self.settings.engine, level)
        except EngineError as error:
            raise Startup(self.text("fail.engine", error=str(error))) from None

    async def _approval(self, start_ms: int) -> None:
        """D.2.10 at a tournament: the arbiter approves time control, words and sides first
        (``start_ms``: the game time it is journaled at, zero unless a resumed board was
        never approved).

        With the web board, its pages are served while the question waits (game time held at
        zero, no move possible), so the arbiter can approve on the phone at the board as well
        as at the terminal; whichever comes first counts and the other is told.
        """
        assert self.session is not None and self._inbox is not None
        session = self.session
        inbox = self._inbox
        approval = self._setup_approval(session)
        approval.on_web = lambda: inbox.put("approved", True)
        summary = self.text(
            "assist.summary",
            control=describe_control(session.control, self.language),
            side=message(self.language, f"game.side.{session.blind}"),
            ranks=", ".join(approval.rank_words),
            files=", ".join(approval.file_words),
            describe=ann.setup_rules(approval, self.language),
        )
        self.output.say(summary)
        if self._serves_web():
            self._open_host(start_ms, held=True)
            await self._start_web(approval)
        terminal = None
        if self.keys is None and not isinstance(self.source, TextInput):
            # Speech input and no terminal keys: the arbiter answers on standard input.
            terminal = TextInput(self.stdin)
            terminal.start(lambda line: inbox.put("typed", line), lambda: inbox.put("end"))
        question = "assist.approve_web" if self.server is not None else "assist.approve"
        try:
            await self._ask(
                self.text(question),
                lambda heard: True if is_yes(self.vocab, heard) else None,
                spoken=False,
                answered_by="approved",
            )
        finally:
            if terminal is not None:
                terminal.close()
        approval.approve("terminal")  # changes nothing when the web page was first
        self.tell("assist.approved" if approval.via == "terminal" else "assist.approved_web")
        self.approval = approval.params()

    def _serves_web(self) -> bool:
        return self.plan.opponent == "board" and self.plan.web

    def _setup_approval(self, session: GameSession, via: Via | None = None) -> SetupApproval:
        """The tournament board's set-up as the arbiter approves it (``via``: as approved)."""
        return SetupApproval(
            control=session.control,
            blind=session.blind,
            rank_words=tuple(self.settings.vocabulary.rank_words),
            file_words=tuple(self.settings.vocabulary.file_words),
            laws=session.laws.edition,
            describe_board=session.explorer.describe_board,
            deaf_opponent=bool(session.setup.extra.get("deaf_opponent")),
            via=via,
        )

    def _open_host(self, start_ms: int, *, held: bool = False) -> None:
        assert self.session is not None and self.journal is not None
        self.host = GameHost(
            self.session,
            record=self.journal.append,
            start_ms=start_ms,
            held=held,
            checkpoint_ms=CHECKPOINT_MS,
        )
        self.host.subscribe(self._show)
        self.host.subscribe(self._update_context)
        self.host.subscribe(self._hint_talk_key)
        self.learner = self._learner()
        if self.learner is not None:
            self.host.subscribe(self._learn)

    def _hint_talk_key(self, outputs: Sequence[OutputEvent]) -> None:
        """After two "not understood" in a row, name the talk key (with a microphone and a
        terminal to press it on)."""
        from voice.speech.speech_input import SpeechInput

        assert self.session is not None
        due = self.talk_hint.on_outputs(outputs, self.session.blind)
        if self.settings.audio.push_to_talk:
            due = False  # every utterance is spoken with the key already
        if due and self.keys is not None and isinstance(self.source, SpeechInput):
            talk_key = key_name(self.language, self.settings.session.keys.talk[0])
            self.tell("talk_hint", talk_key=talk_key)

    def _learner(self) -> GameLearner | None:
        """Keeps the recordings of the moves the player says ([speech] learn_from_games), when
        the voice learnt from them would be used: PocketSphinx with adaptation "auto", alone or
        as Whisper's second opinion."""
        speech = self.settings.speech
        if not speech.learn_from_games or speech.adaptation != "auto":
            return None
        from voice.speech.recognizers.second_opinion import pocketsphinx_in
        from voice.speech.speech_input import SpeechInput

        source = self.source
        if not isinstance(source, SpeechInput):
            return None
        sphinx = pocketsphinx_in(source.recognizer)
        if sphinx is None:
            return None
        # A player whose voice is not learnt yet gets it during this game, not only the next.
        first = sphinx.adaptation is None
        return GameLearner(
            RecordingStore(), self.vocab, source.recent, source.use_adaptation if first else None
        )

    def _learn(self, outputs: Sequence[OutputEvent]) -> None:
        assert self.session is not None and self.learner is not None
        try:
            self.learner.on_outputs(outputs, self.session.board, self.session.blind)
        except Exception:  # learning must never disturb the game
            log.exception("could not keep the recording of a move")

    async def _start_game(self, start_ms: int) -> None:
        if self.host is None:
            self._open_host(start_ms, held=True)
        assert self.session is not None and self.host is not None
        if self._serves_web() and self.server is None:
            await self._start_web(self._approved)  # its address is said before the clock runs
        await self._let_the_start_be_heard()
        if self._resumed:
            # Made now, not when the journal was read: the opponent's page may have moved
            # while the start-up sentences were said. Game time stands still until it has
            # been said, as for the start-up sentences: a correction window open at the stop
            # closed while the player still heard that its move waited (a review).
            self._show(self.session.resume_announcement())
            await self._let_the_start_be_heard()
        self.host.release()  # the game (or a board held for the arbiter's approval) begins now
        if self.approval is not None:
            await self.host.submit(
                partial(ArbiterAction, action="approve_setup", params=self.approval),
                at_ms=start_ms,
            )
        self.host.start()
        if self.session.window_resumed is not None:  # its window runs again from here
            await self.host.submit(ResumeSaid)
        if self.engine is not None:
            from voice.runtime.engine import EngineOpponent

            self.opponent = EngineOpponent(self.host, self.engine)
        if not self._resumed:
            self.tell("game.begins", side=message(self.language, f"game.side.{self.session.blind}"))
        if self.source is not None:
            self.source.set_context(self.session.phrases_now(), self.session.moves_now())
        if self.opponent is not None:
            self.opponent.start()

    async def _let_the_start_be_heard(self) -> None:
        """Game time starts once the start-up sentences are said, not while the player still
        hears them: they take up to twenty seconds (device names, the time control, the web
        board's address), and the clock ran meanwhile. A key, a word or a typed line cuts them
        short, as during the game, and is then handled by the game."""
        speaker = self.output.speaker
        inbox = self._inbox
        if speaker is None or inbox is None:
            return
        waiting: list[tuple[str, Any]] = []
        while not await asyncio.to_thread(speaker.wait_idle, 0.1):
            if not inbox.queue.empty():
                waiting.append(inbox.queue.get_nowait())
                if waiting[-1][0] in _PLAYER_INPUTS:
                    speaker.stop()  # the player wants to go on
        while not inbox.queue.empty():  # in the order they came
            waiting.append(inbox.queue.get_nowait())
        for item in waiting:
            inbox.queue.put_nowait(item)

    def _check_port(self) -> None:
        """A busy web port is found before any question is asked, not after.

        A resumed game is not checked here: whether it has a web board at all is in its
        journal, read later (a game against the computer has none), and when the port it kept
        is taken the board moves to a free one and says so (see :meth:`_start_web`).
        """
        if self.plan.opponent != "board" or not self.plan.web or self.plan.resume is not None:
            return
        port = self.settings.web.port if self.plan.port is None else self.plan.port
        if port == 0:
            return
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((self.settings.web.host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise Startup(self.text("fail.port_busy", port=port)) from None
        finally:
            probe.close()

    def _remembered_port(self) -> int | None:
        """The port a resumed game was served on, unless ``--port`` chooses one."""
        if self.plan.resume is None or self.plan.port is not None:
            return None
        from voice.web.pairing import remembered_port

        return remembered_port(self.plan.resume)

    async def _start_web(self, approval: SetupApproval | None = None) -> None:
        """Serve the pages; a resumed game first asks for the port it had, so the opponent's
        open page and the printed QR code go on working. ``approval``: the set-up the
        arbiter's page may approve before the game begins."""
        assert self.host is not None and self.journal is not None
        from voice.web.pairing import remember_port
        from voice.web.run import announce, make_server

        remembered = self._remembered_port()
        self.server = make_server(
            self.host,
            self.settings,
            lan=self.plan.lan,
            port=self.plan.port if remembered is None else remembered,
            journal_path=self.journal.path,
            approval=approval,
        )
        moved = False
        try:
            try:
                await self.server.start()
            except OSError as error:
                if remembered is None or error.errno != errno.EADDRINUSE:
                    raise
                self.server.port = 0  # the old port is taken: any free one, and say so
                moved = True
                await self.server.start()
        except OSError as error:
            port = self.server.port
            self.server = None
            if error.errno == errno.EADDRINUSE:
                raise Startup(self.text("fail.port_busy", port=port)) from None
            raise Startup(self.text("fail.web", error=error.strerror or str(error))) from None
        remember_port(self.journal.path, self.server.port)
        if moved:
            self.tell("web.port_moved", old=remembered, port=self.server.port)
        urls = io.StringIO()
        announce(self.server, self.settings, qr=self.plan.qr, out=urls, language=self.language)
        for line in urls.getvalue().splitlines():
            self.output.line(line)
        self.tell("web.spoken", host=self.server.bind, port=self.server.port)

    # -- the game ---------------------------------------------------------------------------

    def _show(self, outputs: Sequence[OutputEvent]) -> None:
        """The session's outputs for the blind player (and the arbiter's log at the terminal)."""
        view = shown(outputs, self.plan.mode)
        for line in view.lines:
            if not line.arbiter:
                self.output.say(line.text)
                continue
            # In the arbiter's language, as the session writes the arbiter's lines, and in
            # the edition's word for the arbiter (Appendix F: the controller).
            session = self.session
            language = session.arbiter_language if session else self.language
            appendix_f = session is not None and session.laws.appendix == "F"
            key = "app.arbiter_line.f" if appendix_f else "app.arbiter_line"
            text = message(language, key, text=line.text)
            self.output.line(display_text(text, language))
        ended = view.result and not self._game_over_said
        if ended:  # after the result has been announced
            self._game_over_said = True
            self.output.line(self._pgn())
            how = "typed" if isinstance(self.source, TextInput) else "keys"
            self.tell(f"after_game.{how}")

    def _update_context(self, outputs: Sequence[OutputEvent]) -> None:
        assert self.session is not None and self.source is not None
        self.source.set_context(self.session.phrases_now(), self.session.moves_now())

    async def _play(self) -> None:
        """Hand the player's words and keys to the game until the input ends or they quit."""
        assert self._inbox is not None and self.host is not None
        stop_words = {word.lower() for word in self.settings.audio.stop_words}
        while True:
            kind, value = await self._inbox.queue.get()
            if kind == "interrupt":
                self._interrupted = True
                self.output.stop()
                return
            if kind == "end":
                return
            if kind == "key":
                action = self.key_actions.get(value)
                if action is not None and await self._key(action):
                    return
                continue
            if kind == "faint":
                self.tell("faint_hint")
                continue
            if kind == "guessed":
                self.quit_guard.spoken()
                await self.host.submit(_speech((), value))
                continue
            if kind not in ("typed", "heard"):
                continue  # e.g. the web page's approval, after the terminal had approved
            heard: Heard = value
            if kind == "typed" and not heard:
                continue  # Enter alone
            action = self._typed_key(heard) if kind == "typed" else None
            if action is not None:
                if await self._key(action):
                    return
                continue
            if heard and heard[0][0].strip().lower() in stop_words:
                self.output.stop()
            self.quit_guard.spoken()
            await self.host.submit(_speech(heard))

    def _typed_key(self, heard: Heard) -> str | None:
        """A key's letter typed alone on a line: its action (:func:`typed_key`). Without a
        microphone the game reads whole lines, and the keys of ``[session.keys]`` were
        answered "Nicht verstanden"."""
        return typed_key(heard[0][0], self.key_actions, self.vocab) if heard else None

    async def _key(self, action: str) -> bool:
        """A game key; True when the player confirmed quitting."""
        assert self.host is not None
        match self.quit_guard.key(action):
            case "quit":
                return True
            case "ask_quit":
                self.tell("quit.confirm")
            case "stop":
                self.output.stop()
            case "talk":
                self._talk()
            case "submit":
                await self.host.submit(partial(KeyPress, key=action))
        return False

    def _talk(self) -> None:
        """Press to talk: the first press silences the program and records, the second makes
        what was recorded one utterance, however loud the room (other people talking keep the
        microphone's own end-pointing from finding where the player stopped)."""
        from voice.speech.speech_input import SpeechInput

        if isinstance(self.source, SpeechInput):
            listener = self.source.listener
            if listener.talking:
                listener.ptt_up()
            else:
                self.output.stop()
                listener.ptt_down()
            self.talk_hint.key_used = True  # no hint to use the key already in use

    # -- the end ----------------------------------------------------------------------------

    def _pgn(self) -> str:
        assert self.session is not None
        return self.session.pgn()

    def _say_saved(self, session: GameSession, path: Path) -> None:
        """Where the game is kept: for a game that goes on, one line that is also the way to
        go on ("Die Partie ist gespeichert. Fortsetzen mit: voice-chess play … --resume …").
        The scoresheet is printed when the game ended and at the end of typed input, not after
        Ctrl-C: a screen reader read out every move and clock mark of it (a new user's trial).
        The path is printed, not read out: spoken, it kept a Ctrl-C waiting for seconds of
        letters and slashes."""
        if self._prints_scoresheet(session):
            self.output.line(self._pgn())
        spoken = self.text("end.saved_spoken")
        if session.result is not None:
            self.output.say(self.text("end.saved", path=path), spoken=spoken)
            return
        resume = self.text("end.resume", command=resume_command(self.plan), path=path)
        self.output.say(f"{spoken} {resume}", spoken=spoken)

    def _prints_scoresheet(self, session: GameSession) -> bool:
        """Whether the game's end prints its scoresheet (once): not after Ctrl-C, and not on a
        terminal for a game that goes on (q twice, Ctrl-D), where a screen reader reads out
        every move and clock mark of it; it is in the journal, and printed when the game ends.
        Where the output goes to a file or a program (typed input from a pipe) it is printed."""
        if self._game_over_said:
            return False
        if session.result is not None:
            return True
        return not self._interrupted and not _is_terminal(self.output.out)

    async def _shutdown(self) -> None:
        if self.opponent is not None:
            await self.opponent.stop()
        if self.server is not None:
            with contextlib.suppress(Exception):
                await self.server.stop()
        if self.host is not None:
            self.host.close()
        if self.engine is not None:
            await asyncio.to_thread(self.engine.close)
        if self.keys is not None:
            self.keys.close()
        if self.source is not None:
            self.source.close()
        if self.learner is not None:
            try:
                self.learner.finish()
            except Exception:  # the game is over and saved; learning can wait for the next
                log.exception("could not start learning the voice")
        if self.journal is not None:
            self.journal.close()
            if self.session is not None:
                self._say_saved(self.session, self.journal.path)
        self.output.close()


# -- helpers ----------------------------------------------------------------------------------

_FEN_FAULTS = {
    "unreadable": "fail.fen_unreadable",
    "illegal": "fail.fen_illegal",
    "castling": "fail.fen_castling",
    "en_passant": "fail.fen_en_passant",
}
"""The sentence for each fault of a ``--fen`` (:class:`voice.game.session_base.BadFen`)."""


def _speech(heard: Heard, guess: str = "") -> Callable[[int], InputEvent]:
    def make(t_ms: int) -> InputEvent:
        return BlindSpeech(t_ms, heard, guess)

    return make
