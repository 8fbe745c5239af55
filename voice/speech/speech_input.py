"""Spoken input: the microphone's utterances, recognised with what may be said now.

The listener cuts the microphone into utterances (half-duplex with the speaker); each one is
recognised with the phrases the session says make sense at that moment (legal moves on the
player's turn, yes/no while a question is open, numbers while choices are offered), and the
n-best list goes to the game as what the player was heard to say. Audio heard while the program
itself was speaking can only be a stop word: it is recognised against the stop words alone and,
if it is one, the speech stops. Recognition runs on this adapter's thread, never on the loop.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from voice.config import ConfigError, Settings, override
from voice.speech.faint_voice import FaintVoice
from voice.speech.listen import RATE, Listener, Utterance
from voice.speech.memory import give_back
from voice.speech.recognizers import Context, close_recognizer
from voice.words.messages import message
from voice.words.utterance import Heard
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary

if TYPE_CHECKING:
    from voice.speech.recognizers import Recognizer, Transcript
    from voice.speech.speak import Speaker

log = logging.getLogger(__name__)

_POLL_S = 0.2
_RECENT = 4  # utterances remembered: a move, then "ja" or a number, then perhaps more

ENROL_COMMAND = "voice-chess enrol"


def recognizer_for(settings: Settings, vocab: Vocabulary, backend: str | None = None) -> Recognizer:
    """The configured recogniser (or ``backend``), knowing every word the session's phrases
    may use."""
    from voice.speech.recognizers import make_recognizer
    from voice.words.explore_words import WHERE_ARTICLES

    # "wo ist der Springer", "wo sind die Bauern": articles and plurals beyond the vocabulary.
    extra = sorted({*WHERE_ARTICLES, *WHERE_ARTICLES.values()} - vocab.all_words())
    return make_recognizer(settings, vocab, backend=backend, extra_words=extra)


class SpeechInput:
    """Microphone + recogniser as an input source of the app (see :class:`voice.wiring.app.App`)."""

    def __init__(
        self, settings: Settings, vocab: Vocabulary, speaker: Speaker | None = None
    ) -> None:
        self.listener = Listener(settings, speaker=speaker)  # no microphone: raises here
        self.recognizer = recognizer_for(settings, vocab)
        self.listener.endpointer.set_pre_roll(self.recognizer.pre_roll_s)
        self.speaker = speaker
        self.vocab = vocab
        self.settings = settings
        self._next_recognizer: Recognizer | None = (
            None  # a voice learnt during the game, from the next decode
        )
        self._stop_phrases: frozenset[Phrase] = frozenset(
            vocab.normalize(word) for word in settings.audio.stop_words
        ) - {()}
        self._lock = threading.Lock()
        self._context = Context()
        self._applied: Context | None = None
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        # One decoder, two threads: the end-pointer's completion check and recognition.
        self._decoding = threading.Lock()
        self._recent: deque[tuple[Heard, np.ndarray]] = deque(maxlen=_RECENT)
        self._faint = FaintVoice(vocab)
        self._on_faint: Callable[[], None] | None = None
        self._on_guess: Callable[[str], None] | None = None

    def describe(self, language: str) -> str:
        """ "Spracherkennung PocketSphinx … am Mikrofon …" for the start-up sentence."""
        about = getattr(self.recognizer, "describe", None)
        recognizer = about() if callable(about) else type(self.recognizer).__name__
        if getattr(self.recognizer, "adaptation", None) is not None:
            from voice.speech.recognizers.second_opinion import SecondOpinion

            # Whisper itself is never adapted: with its second opinion, say whose voice it is.
            key = "app.input.adapted"
            if isinstance(self.recognizer, SecondOpinion):
                key = "app.input.vote_adapted"
            recognizer = message(language, key, recognizer=recognizer, embedded="PocketSphinx")
        from voice.speech.audio import friendly_name

        device = friendly_name(self.listener.device)
        words = message(language, "app.input.voice", recognizer=recognizer, device=device)
        if self._voice_unusable():
            words = message(
                language, "app.input.voice_unusable", input=words, command=ENROL_COMMAND
            )
        elif self._enrolment_would_help():
            words = message(language, "app.input.enrol_hint", input=words, command=ENROL_COMMAND)
        return words

    def _voice_unusable(self) -> bool:
        """A learnt voice was asked for but PocketSphinx hears without it: the enrolled file
        is damaged ("auto"), or the file ``[speech] adaptation`` names is missing or damaged
        (Whisper's vote then goes on with the shipped voice). The log has the reason; the
        player, who cannot read it, hears that recognition is worse than they expect and
        how to mend it."""
        from voice.speech.recognizers.adaptation import default_path
        from voice.speech.recognizers.second_opinion import pocketsphinx_in

        sphinx = pocketsphinx_in(self.recognizer)
        setting = self.settings.speech.adaptation
        if sphinx is None or sphinx.adaptation is not None or setting == "off":
            return False
        return setting != "auto" or default_path().is_file()

    def _enrolment_would_help(self) -> bool:
        """PocketSphinx without the player's voice while ``[speech] adaptation = "auto"`` would
        use one: ``voice-chess enrol`` is the biggest gain in recognition (about 82 → 95 % of
        moves right), and a player who never read the README does not know it. "off" was the
        player's choice, a PATH that cannot be used is reported elsewhere, Vosk cannot learn a
        voice; once enrolled, the adaptation is used and the hint is gone."""
        from voice.speech.recognizers.sphinx import SphinxRecognizer

        return (
            self.settings.speech.adaptation == "auto"
            and isinstance(self.recognizer, SphinxRecognizer)
            and self.recognizer.adaptation is None
        )

    def set_context(self, phrases: Iterable[Phrase], moves: NamedMoves) -> None:
        """What may be said now, and which move each move phrase names (called on the loop
        after every change of the game)."""
        with self._lock:
            self._context = Context.of(phrases, moves)

    def start(self, deliver: Callable[[Heard], None], on_end: Callable[[], None]) -> None:
        self.listener.set_completion_check(self._complete)
        self.listener.start()
        self._thread = threading.Thread(
            target=self._run, args=(deliver,), name="speech-input", daemon=True
        )
        self._thread.start()

    def _run(self, deliver: Callable[[Heard], None]) -> None:
        utterances = self.listener.utterances()
        interruptions = self.listener.interruptions()
        while not self._closed.is_set():
            try:
                interruption = interruptions.get_nowait()
                self._maybe_stop(interruption)
                continue
            except queue.Empty:
                pass
            try:
                utterance = utterances.get(timeout=_POLL_S)
            except queue.Empty:
                continue
            with self._lock:
                context = self._context
            transcript = self._decode(utterance.audio, context)
            heard = _heard(transcript)
            with self._lock:
                self._recent.append((heard, utterance.audio))
            guess = free_guess(transcript)
            if guess and self._on_guess is not None:
                self._on_guess(guess)
            else:
                deliver(heard)
            if self._faint.heard(transcript) and self._on_faint is not None:
                self._on_faint()  # after the move it asks back: the question comes first
            give_back()  # what the decode freed, once the answer is on its way

    def on_guess(self, callback: Callable[[str], None]) -> None:
        """Call ``callback`` (from the recognition thread) instead of delivering nothing, with
        the recogniser's free transcription of speech that fitted no phrase of the position
        (:func:`free_guess`), so that the game can say why a move the player named is illegal."""
        self._on_guess = callback

    def on_faint(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from the recognition thread) when the player should be told that
        their voice stands too little above the room (:class:`FaintVoice`)."""
        self._on_faint = callback

    def recent(self) -> list[tuple[Heard, np.ndarray]]:
        """The latest utterances heard, oldest first, each as (n-best, audio): what a move the
        player made was heard from (:mod:`voice.speech.learning`)."""
        with self._lock:
            return list(self._recent)

    def _recognise(self, utterance: Utterance, context: Context) -> Heard:
        return _heard(self._decode(utterance.audio, context))

    def use_adaptation(self, path: Path) -> None:
        """Hear with the voice learnt from ``path`` (:mod:`voice.speech.learning`) from the next
        utterance on. Called on the loop: the new recogniser is made here (PocketSphinx maps its
        model, about 15 ms) and swapped in by the recognition thread between two decodes, so
        no utterance is heard half with one and half with the other."""
        from voice.speech.recognizers import RecognizerError
        from voice.speech.recognizers.second_opinion import SecondOpinion

        with self._lock:
            current = self._next_recognizer or self.recognizer
        try:
            settings = override(self.settings, speech={"adaptation": str(path)})
            # PocketSphinx again, never "auto" once more: a Whisper that could not load at the
            # start must not take over mid-game.
            voter = recognizer_for(settings, self.vocab, backend="sphinx")
            if isinstance(current, SecondOpinion):
                # Only the vote learns the voice: Whisper stays as it is, loaded once.
                recognizer: Recognizer = current.with_second(voter)
            else:
                recognizer = voter
        except (RecognizerError, ConfigError) as error:
            log.warning("could not use the voice learnt in %s: %s", path, error)
            return
        with self._lock:
            self._next_recognizer = recognizer

    def _decode(self, audio: np.ndarray, context: Context) -> Transcript:
        with self._decoding:
            with self._lock:
                new, self._next_recognizer = self._next_recognizer, None
            if new is not None:
                from voice.speech.recognizers.second_opinion import retire

                old, self.recognizer, self._applied = self.recognizer, new, None
                retire(old, new)
                log.info("recognising with the voice learnt during the game")
            if context != self._applied:
                self.recognizer.set_context(context.allowed, context.moves)
                self._applied = context
            return self.recognizer.recognize(audio, RATE)

    def _complete(self, audio: np.ndarray) -> bool:
        """At a short pause: do the words so far already make a whole phrase? Then the
        utterance ends there instead of after the full pause (a quicker answer)."""
        with self._lock:
            context = self._context
        if not context.allowed:
            return False
        # The full answer, rival readings included: the recogniser keeps it, and the utterance
        # that ends at this pause is this very audio, so the answer is ready when it ends.
        transcript = self._decode(audio, context)
        return bool(transcript.complete and transcript.nbest)

    def _maybe_stop(self, utterance: Utterance) -> None:
        """Speech over our own voice: only "Stopp"/"Ruhe" count, and they silence us."""
        if self.speaker is None or not self._stop_phrases:
            return
        heard = self._recognise(utterance, Context(self._stop_phrases))
        if heard and self.vocab.normalize(heard[0][0]) in self._stop_phrases:
            self.speaker.stop()

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.listener.stop()
        close_recognizer(self.recognizer)
        with self._lock:
            waiting, self._next_recognizer = self._next_recognizer, None
        if waiting is not None:
            from voice.speech.recognizers.second_opinion import retire

            retire(waiting, self.recognizer)


def free_guess(transcript: Transcript) -> str:
    """The first sentence of the recogniser's free transcription of speech it refused as no
    phrase of the position ("Hector drei." of "Hector drei. Hector zwei."); empty otherwise."""
    if transcript.nbest or transcript.reason != "out-of-grammar" or not transcript.partial:
        return ""
    for sentence in re.split(r"[.!?]", transcript.partial):
        if sentence.strip():
            return sentence.strip()
    return ""


def _heard(transcript: Transcript) -> Heard:
    return tuple((str(text), float(conf)) for text, conf in transcript.nbest)
