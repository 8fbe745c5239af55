"""``voice-chess enrol``: the embedded recogniser learns the player's voice from about 20 moves.

Interactive by default, with no screen needed: the program says in two sentences what will
happen, then says each enrolment phrase ("Sagen Sie: Springer Felix drei."), plays the listening
sound and records what the player says with the game's own listener (half-duplex: the
program's voice is never taken as the answer). The phrases come from the vocabulary in use, so
every file word, rank word and piece word is said at least twice, and both castlings once.
Keys on a terminal: ``r`` (or Enter) says the phrase again and records it anew, ``q`` (or
Escape) stops; the command words for "repeat" and "stop" ("wiederholen", "Stopp") work by voice.
Stopping early saves nothing.

After the last phrase the speaker's transform is estimated
(:func:`voice.speech.recognizers.adaptation.estimate`) and saved where games look for it
(:func:`~voice.speech.recognizers.adaptation.default_path`, or ``--output``). The program says how
many recordings it used and how many of the recorded moves the recogniser heard right before and
after adaptation (those are the enrolment moves themselves, so the figure flatters).

``--from FILE`` takes recordings made elsewhere instead (JSON lines ``{"wav", "text"}``, paths
relative to the file, any common WAV format); ``--forget`` deletes the saved voice and the
recordings kept to learn it again (:mod:`voice.speech.learning`).
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, get_args

import chess
import numpy as np

from voice.cli._values import whole_number
from voice.config import Language, Settings
from voice.words.messages import display_text, message
from voice.words.phrases import speakable
from voice.words.vocabulary import LONG_CASTLING, PIECE_WORDS, SHORT_CASTLING, Phrase, Vocabulary

if TYPE_CHECKING:  # imported where used: enrol must start without loading the recogniser
    from voice.runtime.game_keys import GameKeyInput
    from voice.speech.recognizers import Recognizer
    from voice.speech.recognizers.adaptation import Sample
    from voice.speech.recognizers.sphinx import SphinxRecognizer
    from voice.speech.speak import Speaker

NAME = "enrol"
HELP = (
    "teach the embedded recogniser your voice: you say about 20 moves after the program, "
    "and it hears you better from then on"
)

DEFAULT_COUNT = 20
REPEAT_KEYS = ("r", "enter")
STOP_KEYS = ("q", "escape")
ANSWER_WAIT_S = 10.0
"""How long the program waits for the player after a phrase before it asks again."""
SILENT_PROMPTS = 3
"""Phrases in a row with nothing heard: the microphone hears nothing, stop."""

EXIT_SAVED = 0
EXIT_NOT_SAVED = 1
EXIT_SETUP = 2

# The kinds of enrolment phrase, in the order they are asked: piece + square, pawn square,
# piece + departure + destination, and the two castlings. Twenty phrases hold 12 + 4 + 2 * 2 =
# 20 squares, so each of the 8 file and rank words comes two or three times, and the 6 piece
# words twice (three times for the two that also start a departure-square phrase).
_PATTERN = "PPSPXPKPSPPSPLPXPSPP"
_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING, chess.PAWN)
_LONG_PIECES = (chess.KNIGHT, chess.ROOK)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="FILE",
        help='learn from recordings instead of the microphone: JSON lines {"wav": PATH, '
        '"text": "Springer Felix drei"}, PATH relative to FILE, any common WAV format',
    )
    parser.add_argument(
        "--output",
        type=Path,
        metavar="PATH",
        help="where to save the voice (default: your data folder, where games look for it "
        'with [speech] adaptation = "auto")',
    )
    parser.add_argument(
        "--forget",
        action="store_true",
        help="delete the saved voice and the recordings kept to learn it; games then "
        "recognise without it",
    )
    parser.add_argument(
        "--count",
        type=whole_number(1, 200),
        default=DEFAULT_COUNT,
        metavar="N",
        help=f"how many moves to say (default {DEFAULT_COUNT}: every word twice; fewer learn less)",
    )
    parser.add_argument(
        "--language",
        choices=get_args(Language),
        help="the language the program speaks to you (default: [language] blind)",
    )
    parser.add_argument(
        "--no-speech",
        dest="speech",
        action="store_false",
        help="print the phrases and results instead of speaking them (for a screen reader)",
    )
    parser.epilog = (
        "Keys while enrolling: r or Enter says the move again and records it anew, q or Escape "
        "stops (nothing is saved). By voice: the command words for repeat and stop."
    )


# -- the phrases --------------------------------------------------------------------------------


def enrolment_phrases(vocab: Vocabulary, count: int = DEFAULT_COUNT) -> list[Phrase]:
    """``count`` move-like phrases in the vocabulary's words; the first 20 say every file,
    rank and piece word at least twice and both castlings (longer lists go round again on
    other squares)."""

    def squares() -> Iterator[Phrase]:
        k = 0
        while True:
            # the rank shifts by one every round of eight, so no square comes twice
            yield (vocab.file_words[(5 * k + 5) % 8], vocab.rank_words[(3 * k + 2 + k // 8) % 8])
            k += 1

    square = squares()
    phrases: list[Phrase] = []
    short, longer = 0, 0
    while len(phrases) < count:
        for kind in _PATTERN:
            if kind == "P":
                piece = PIECE_WORDS[_PIECES[short % len(_PIECES)]]
                phrases.append((piece, *next(square)))
                short += 1
            elif kind == "S":
                phrases.append(next(square))
            elif kind == "X":
                piece = PIECE_WORDS[_LONG_PIECES[longer % len(_LONG_PIECES)]]
                phrases.append((piece, *next(square), *next(square)))
                longer += 1
            else:
                phrases.append(SHORT_CASTLING if kind == "K" else LONG_CASTLING)
    return phrases[:count]


# -- saying and printing ------------------------------------------------------------------------


class _Voice:
    """Every sentence printed on its own line (as it reads) and spoken when a loudspeaker
    works; the listening sound after each phrase."""

    def __init__(self, settings: Settings, language: str, speech: bool) -> None:
        self.language = language
        self.speaker: Speaker | None = None
        if speech:
            try:
                from voice.speech.speak import Speaker

                self.speaker = Speaker(settings, language=language)
            except Exception as error:  # no engine, no device: the terminal still works
                from voice.speech.native import no_speaker_sentence

                text = no_speaker_sentence(error, language)
                print(display_text(text, language), file=sys.stderr, flush=True)

    def say(self, key: str, **params: object) -> None:
        text = message(self.language, key, **params)
        print(display_text(text, self.language), flush=True)
        if self.speaker is not None:
            self.speaker.say(speakable(text, self.language), interrupt=False, append=True)

    def line(self, key: str, **params: object) -> None:
        """Printed only: a path or a list is no help spoken."""
        print(display_text(message(self.language, key, **params), self.language), flush=True)

    def listening(self) -> None:
        if self.speaker is not None:
            self.speaker.earcon("listening")

    def silence(self) -> None:
        if self.speaker is not None:
            self.speaker.stop()

    def wait(self, timeout: float = 30.0) -> None:
        if self.speaker is not None:
            self.speaker.wait_idle(timeout=timeout)

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.wait_idle(timeout=30)
            self.speaker.close()
            self.speaker = None


# -- recordings from a file ---------------------------------------------------------------------


class RecordingsError(ValueError):
    """A ``--from`` file that cannot be read, with the line at fault."""


def read_recordings(path: Path, vocab: Vocabulary) -> list[Sample]:
    """The samples a ``--from`` file lists (``Sample``s of
    :mod:`voice.speech.recognizers.adaptation`): 16 kHz audio and the text as canonical tokens."""
    from voice.cli._input import text_lines
    from voice.speech.recognizers.adaptation import Sample
    from voice.speech.wavio import WavError, load_for_recognition

    try:
        lines = list(text_lines(str(path)))
    except OSError as error:  # missing, a folder, not UTF-8 (the line is named)
        raise RecordingsError(f"{path}: {error.strerror or error}") from None
    samples = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}, line {number}"
        try:
            item = json.loads(line)
            wav, text = path.parent / str(item["wav"]), str(item["text"])
        except json.JSONDecodeError as error:
            raise RecordingsError(f"{where}: not JSON ({error.msg})") from None
        except RecursionError:
            raise RecordingsError(f"{where}: not JSON (nested too deeply)") from None
        except (KeyError, TypeError) as error:
            raise RecordingsError(f'{where}: needs "wav" and "text" ({error})') from None
        phrase = vocab.normalize(text)
        if not phrase:
            raise RecordingsError(f"{where}: the text has no words")
        try:
            audio = load_for_recognition(wav)
        except FileNotFoundError:
            raise RecordingsError(f"{where}: {wav}: no such file") from None
        except WavError as error:
            raise RecordingsError(f"{where}: {error}") from None
        samples.append(Sample(audio, phrase))
    if not samples:
        raise RecordingsError(f"{path}: no recordings listed")
    return samples


# -- recording at the microphone ----------------------------------------------------------------


class _Stopped(Exception):
    """The player stopped (key or voice), or the microphone heard nothing for too long."""

    def __init__(self, *, silent: bool = False) -> None:
        super().__init__("stopped")
        self.silent = silent


class _Session:
    """The interactive enrolment: phrase, listening sound, the player's utterance, next."""

    def __init__(
        self,
        settings: Settings,
        vocab: Vocabulary,
        voice: _Voice,
        recognizer: SphinxRecognizer,
        phrases: Sequence[Phrase],
    ) -> None:
        from voice.speech.listen import Listener

        self.vocab = vocab
        self.voice = voice
        self.recognizer = recognizer
        self.phrases = phrases
        self.listener = Listener(settings, speaker=voice.speaker)  # no microphone: raises here
        self.keys: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._key_input: GameKeyInput | None = None
        self.stop_phrases = vocab.commands.get("stop", ())
        self.repeat_phrases = vocab.commands.get("repeat", ())

    def _word(self, command: str) -> str:
        word = self.vocab.display(self.vocab.commands[command][0])
        return word[:1].upper() + word[1:] if self.vocab.command_set == "de" else word

    def run(self, stdin_is_terminal: bool, fd: int) -> list[Sample]:
        """The samples recorded, one per phrase; raises :class:`_Stopped`."""
        from voice.speech.recognizers.adaptation import Sample

        self.voice.say(
            "enrol.intro",
            count=len(self.phrases),
            repeat_word=self._word("repeat"),
            stop_word=self._word("stop"),
        )
        if stdin_is_terminal:
            from voice.runtime.game_keys import GameKeyInput

            self._key_input = GameKeyInput(fd)
            self._key_input.start(self.keys.put, lambda: self.keys.put("escape"))
            self.voice.say("enrol.keys", repeat_key=REPEAT_KEYS[0], stop_key=STOP_KEYS[0])
        self.listener.start()
        samples = []
        try:
            silent = 0
            index = 0
            while index < len(self.phrases):
                phrase = self.phrases[index]
                answer = self._ask(phrase)
                if answer is None:
                    silent += 1
                    if silent >= SILENT_PROMPTS:
                        raise _Stopped(silent=True)
                    self.voice.say("enrol.not_heard")
                    continue
                silent = 0
                if isinstance(answer, str):  # "repeat"
                    continue
                samples.append(Sample(answer, phrase))
                index += 1
        finally:
            self.close()
        return samples

    def _ask(self, phrase: Phrase) -> np.ndarray | str | None:
        """Say ``phrase`` and wait for the player: their audio, "repeat", or None (silence)."""
        self._drain()
        self.voice.say("enrol.prompt", phrase=self.vocab.display(phrase))
        self.voice.listening()
        deadline: float | None = None
        utterances = self.listener.utterances()
        while True:
            key = self._next_key()
            if key in STOP_KEYS:
                self.voice.silence()
                raise _Stopped()
            if key in REPEAT_KEYS:
                self.voice.silence()
                return "repeat"
            if self.listener.error is not None:
                raise self.listener.error
            try:
                utterance = utterances.get(timeout=0.1)
            except queue.Empty:
                if self.voice.speaker is not None and self.voice.speaker.speaking:
                    deadline = None  # the wait for an answer begins when all has been said
                    continue
                if deadline is None:
                    deadline = time.monotonic() + ANSWER_WAIT_S
                elif time.monotonic() > deadline:
                    return None
                continue
            command = self._command(utterance.audio, phrase)
            if command == "stop":
                raise _Stopped()
            if command == "repeat":
                return "repeat"
            return np.asarray(utterance.audio, dtype=np.int16)

    def _command(self, audio: np.ndarray, phrase: Phrase) -> str | None:
        """ "Stopp" or "wiederholen" instead of the phrase? (Anything else is taken as the
        phrase: estimation leaves out what cannot be matched to its words.)"""
        from voice.speech.listen import RATE

        self.recognizer.set_context({phrase, *self.stop_phrases, *self.repeat_phrases})
        transcript = self.recognizer.recognize(audio, RATE, alternatives=False)
        if not transcript.nbest:
            return None
        command = self.vocab.command_for(self.vocab.normalize(transcript.best))
        return command if command in ("stop", "repeat") else None

    def _next_key(self) -> str | None:
        try:
            return self.keys.get_nowait()
        except queue.Empty:
            return None

    def _drain(self) -> None:
        for pending in (self.listener.utterances(), self.listener.interruptions()):
            while True:
                try:
                    pending.get_nowait()
                except queue.Empty:
                    break

    def close(self) -> None:
        if self._key_input is not None:
            self._key_input.close()
            self._key_input = None
        self.listener.stop()


# -- learning and reporting ---------------------------------------------------------------------


def heard_right(
    recognizer: Recognizer, samples: Sequence[Sample], context: Sequence[Phrase], vocab: Vocabulary
) -> int:
    """How many ``samples`` the recogniser hears as their own phrase among ``context``."""
    from voice.speech.listen import RATE

    recognizer.set_context(set(context))
    right = 0
    for sample in samples:
        transcript = recognizer.recognize(sample.pcm, RATE, alternatives=False)
        right += bool(transcript.nbest) and vocab.normalize(transcript.best) == sample.phrase
    return right


def learn(
    samples: Sequence[Sample],
    vocab: Vocabulary,
    output: Path,
    voice: _Voice,
    context: Sequence[Phrase],
    recognizer: Recognizer | None = None,
) -> int:
    """Estimate the voice from ``samples``, save it, say what came of it; the exit status."""
    from voice.speech.recognizers.adaptation import AdaptationError, TooLittleSpeech, estimate
    from voice.speech.recognizers.sphinx import SphinxRecognizer

    voice.say("enrol.learning")
    try:
        adaptation = estimate(samples, vocab)
    except AdaptationError as error:
        if isinstance(error, TooLittleSpeech):
            voice.say("enrol.too_little", count=len(samples))
        else:
            voice.say("enrol.failed", error=str(error).rstrip("."))
        print(f"voice-chess enrol: {error}", file=sys.stderr)
        return EXIT_NOT_SAVED
    try:
        adaptation.save(output)
    except OSError as error:
        voice.say("enrol.failed", error=f"{output}: {error.strerror or error}")
        return EXIT_NOT_SAVED
    voice.say(
        "enrol.learned",
        used=adaptation.utterances,
        count=len(samples),
        skipped=len(adaptation.skipped),
    )
    for phrase in adaptation.skipped:
        voice.line("enrol.skipped", phrase=vocab.display(phrase))
    voice.line("enrol.saved", path=str(output))
    before = heard_right(recognizer or SphinxRecognizer(vocab), samples, context, vocab)
    after = heard_right(SphinxRecognizer(vocab, adaptation=output), samples, context, vocab)
    voice.say("enrol.check", before=before, after=after, count=len(samples))
    return EXIT_SAVED


def _keep_for_games(samples: Sequence[Sample]) -> None:
    """Keep the enrolment recordings with those of games (:mod:`voice.speech.learning`): learning
    from games later starts from them instead of losing them."""
    from voice.speech.learning import RecordingStore

    store = RecordingStore()
    try:
        for sample in samples:
            store.add(sample.pcm, sample.phrase, "enrol")
    except OSError as error:  # the voice is saved; only later learning loses these
        print(f"voice-chess enrol: recordings not kept ({error})", file=sys.stderr)


def forget(output: Path, voice: _Voice) -> int:
    from voice.speech.learning import RecordingStore
    from voice.speech.recognizers.adaptation import Adaptation

    store = RecordingStore()
    try:
        removed = store.forget()
    except OSError as error:
        voice.say("enrol.failed", error=f"{store.folder}: {error.strerror or error}")
        return EXIT_NOT_SAVED
    for path in Adaptation.files(output):
        try:
            path.unlink()
            removed = True
        except FileNotFoundError:
            pass
        except OSError as error:
            voice.say("enrol.failed", error=f"{path}: {error.strerror or error}")
            return EXIT_NOT_SAVED
    voice.say("enrol.forgotten" if removed else "enrol.nothing_to_forget")
    return EXIT_SAVED


def _setting_note(settings: Settings, output: Path) -> str | None:
    """Why a game would not use the voice saved at ``output``, if it would not."""
    from voice.speech.recognizers.adaptation import default_path

    setting = settings.speech.adaptation
    if setting == "off":
        return '[speech] adaptation = "off": games do not use it until you set it to "auto"'
    if setting == "auto":
        if output.resolve() == default_path().resolve():
            return None
        return f'games use it with [speech] adaptation = "{output}"'
    if Path(setting).expanduser().resolve() != output.resolve():
        return f'[speech] adaptation = "{setting}": games use that file, not this one'
    return None


def adapts_a_voice(settings: Settings) -> bool:
    """Whether the configured recogniser hears with a learnt voice: PocketSphinx alone, or as
    Whisper's second opinion (``[speech] second_opinion``); never Vosk or Whisper alone."""
    speech = settings.speech
    if speech.recognizer == "whisper":
        return speech.second_opinion
    # "auto" falls back to PocketSphinx alone where Whisper cannot load.
    return speech.recognizer in ("sphinx", "auto")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from voice.speech.recognizers.adaptation import default_path

    language = args.language or settings.language.blind
    output = (args.output or default_path()).expanduser()
    interactive = not args.forget and args.source is None
    voice = _Voice(settings, language, args.speech and not args.source)
    try:
        if args.forget:
            return forget(output, voice)
        # The voice is PocketSphinx's: alone ("sphinx", or "auto" without Whisper) or as Whisper's
        # second opinion (the default). Whisper itself and Vosk are never adapted.
        if not adapts_a_voice(settings):
            voice.say(
                "enrol.not_embedded",
                embedded="PocketSphinx",
                recognizer=settings.speech.recognizer.capitalize(),
            )
            print(
                "voice-chess enrol: the learned voice is used by PocketSphinx: [speech] "
                'recognizer = "sphinx" or "auto", or "whisper" with second_opinion = true',
                file=sys.stderr,
            )
            return EXIT_SETUP
        vocab = Vocabulary.of(settings)
        phrases = enrolment_phrases(vocab, args.count)
        recognizer = None
        if interactive:
            result = _record(settings, vocab, voice, phrases)
            if isinstance(result, int):
                return result
            samples, recognizer = result
        else:
            try:
                samples = read_recordings(args.source, vocab)
            except RecordingsError as error:
                print(f"voice-chess enrol: {error}", file=sys.stderr)
                return EXIT_SETUP
            phrases = list(dict.fromkeys(sample.phrase for sample in samples))
        status = learn(samples, vocab, output, voice, phrases, recognizer)
        if interactive and status == EXIT_SAVED and args.output is None:
            _keep_for_games(samples)
        if status == EXIT_SAVED and (note := _setting_note(settings, output)):
            print(f"voice-chess enrol: {note}", file=sys.stderr)
        return status
    finally:
        voice.close()


def _record(
    settings: Settings, vocab: Vocabulary, voice: _Voice, phrases: Sequence[Phrase]
) -> tuple[list[Sample], SphinxRecognizer] | int:
    """The interactive part: the samples and the recogniser used, or the exit status."""
    from voice.speech.audio import AudioDeviceError, NoInputDeviceError
    from voice.speech.native import missing_library
    from voice.speech.recognizers import RecognizerError
    from voice.speech.recognizers.sphinx import SphinxRecognizer

    try:
        recognizer = SphinxRecognizer(vocab)
        session = _Session(settings, vocab, voice, recognizer, phrases)
    except NoInputDeviceError:
        voice.say("enrol.no_microphone")
        return EXIT_SETUP
    except AudioDeviceError as error:
        library = missing_library(error)
        voice.say(error.key, **(library.params() if library is not None else {}))
        print(f"voice-chess enrol: {error}", file=sys.stderr)
        return EXIT_SETUP
    except RecognizerError as error:
        voice.say("enrol.failed", error=str(error).rstrip("."))
        return EXIT_SETUP
    try:
        samples = session.run(sys.stdin.isatty(), sys.stdin.fileno())
    except _Stopped as stop:
        if stop.silent:
            voice.say("enrol.not_heard")
        voice.say("enrol.stopped")
        return EXIT_NOT_SAVED
    except KeyboardInterrupt:
        voice.silence()
        voice.say("enrol.stopped")
        return 130
    return samples, recognizer
