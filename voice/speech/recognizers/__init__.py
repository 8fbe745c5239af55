"""Speech recognisers: audio in, n-best word sequences with confidences out.

The session tells the recogniser what may be said now (:meth:`Recognizer.set_context`: the legal
moves' phrases and the commands that make sense in its state); the recogniser returns what it
heard as canonical tokens, best first. Three backends:

* ``whisper`` (chosen by ``auto``, the default): Whisper base through CTranslate2, deciding only
  among the phrases allowed now (:mod:`voice.speech.recognizers.whisper`). Its model arrives as two
  pip packages and is joined into the user's model folder on first use. With ``[speech]
  second_opinion`` (the default) PocketSphinx listens too where Whisper would ask a move back
  (:mod:`voice.speech.recognizers.second_opinion`).
* ``sphinx``: PocketSphinx with its embedded English acoustic model, the shipped
  pronunciation lexicon and a word graph per position. Works right after ``pip install``.
* ``vosk``: a Vosk model the user installed (``voice-chess models install``), with a per-position
  word list; every vocabulary word is checked against the model at start-up.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from voice.config import Settings
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary

if TYPE_CHECKING:
    from voice.words.matcher import Hypothesis


class RecognizerError(Exception):
    """The recogniser cannot work: a missing or unreadable model, a model that lacks words."""


@dataclass(frozen=True)
class Transcript:
    """What one utterance was heard as."""

    nbest: tuple[tuple[str, float], ...]
    """(text of canonical tokens, confidence 0..1), best first; empty = nothing usable heard."""
    complete: bool
    """False when the audio ended before a whole allowed phrase (a partial is never a move)."""
    decode_ms: float
    partial: str = ""
    """For an incomplete utterance, the words heard so far (for logs and diagnostics)."""
    reason: str = ""
    """Why ``nbest`` is empty: "silence", "partial", "out-of-grammar" (speech the allowed
    phrases do not explain), or "" when something was heard."""
    held_back: frozenset[str] = frozenset()
    """Why a best phrase that may well be right is reported below the play point, to be asked
    back (Whisper: "probability" below ``sure``, "lead" over the next too small, "level" of
    the speech too low above the room, "guess": the free guesses do not agree; "doubted": a
    question made of Whisper's choices or refusal by a second opinion); empty when nothing
    held it back or the recogniser does not say."""
    nearest: str = ""
    """For speech refused as "out-of-grammar" (Whisper): the allowed phrase that scored best,
    refused all the same (too weakly heard, too far from the free guess, or a command the
    guess did not say). Never a proposal on its own: only a second recogniser that heard this
    very phrase, a move, may have it asked back (:mod:`.second_opinion`)."""

    @property
    def best(self) -> str:
        return self.nbest[0][0] if self.nbest else ""


class Recognizer(Protocol):
    """The interface both backends implement (the session and play modes code against it)."""

    pre_roll_s: float
    """Seconds of audio the end-pointer keeps before the words' onset for this recogniser."""

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        """The phrases that may be said now; recognition is restricted to them. ``moves``:
        which of them name which move (none known when None); Whisper measures its best
        phrase's lead over the next phrase naming another move."""

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        """One whole utterance (mono samples, int16 or float) → what was heard.

        ``alternatives=False`` asks only whether and what was heard, without extra work to find
        rival readings (the end-pointer's "is this already a whole phrase?" check, which sits
        between the player's words and the program's answer).
        """

    def start(self) -> None:
        """Begin a streamed utterance."""

    def accept(self, chunk: np.ndarray, sample_rate: int) -> str | None:
        """Feed a chunk; returns the words heard so far when they changed, else None."""

    def finish(self) -> Transcript:
        """End the streamed utterance and return what it was heard as."""

    def describe(self) -> str:
        """A short name for start-up sentences ("PocketSphinx", "Vosk vosk-model-small-de")."""


def close_recognizer(recognizer: Recognizer) -> None:
    """Release what a recogniser holds beyond memory: PocketSphinx's helper process, Whisper's
    model (both have ``close``; Vosk has nothing to release)."""
    stop = getattr(recognizer, "close", None)
    if callable(stop):
        stop()


@dataclass(frozen=True)
class Context:
    """What a recogniser is told may be said now (:meth:`Recognizer.set_context`): the phrases,
    and which move each move phrase names. Compared whole: an answer depends on both."""

    allowed: frozenset[Phrase] = frozenset()
    moves: NamedMoves = field(default_factory=dict)

    @classmethod
    def of(cls, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> Context:
        """The context as told: the phrases as a set, the map as a copy of its own (the
        caller's may change after)."""
        return cls(frozenset(allowed), dict(moves or {}))


class LastAnswer:
    """The answer to the last utterance decoded, kept for the very same audio in the same
    context: the end-pointer's completion check and the utterance it ends carry the same audio,
    so a recogniser decodes it once (Whisper; Whisper with PocketSphinx's second opinion). Used
    under the recogniser's lock."""

    def __init__(self) -> None:
        self._kept: tuple[bytes, Context, Transcript] | None = None

    def find(self, pcm: np.ndarray, context: Context, started: float) -> Transcript | None:
        """The answer kept for ``pcm`` in ``context``, timed from ``started`` (ready: no wait)."""
        if self._kept is None or self._kept[1] != context or self._kept[0] != pcm.tobytes():
            return None
        return replace(self._kept[2], decode_ms=1000 * (time.perf_counter() - started))

    def keep(self, pcm: np.ndarray, context: Context, answer: Transcript) -> None:
        self._kept = (pcm.tobytes(), context, answer)


class WholeUtterance:
    """The streamed chunks of one utterance, for a recogniser that decodes only whole ones
    (Whisper; Whisper with PocketSphinx's second opinion): ``start``/``accept`` collect,
    ``finish`` hands the utterance to ``recognize``."""

    def __init__(self) -> None:
        self._chunks: list[np.ndarray] = []

    def clear(self) -> None:
        self._chunks = []

    def add(self, chunk: np.ndarray, sample_rate: int) -> None:
        from voice.speech.wavio import as_pcm16

        self._chunks.append(as_pcm16(chunk, sample_rate))

    def take(self) -> np.ndarray:
        """The utterance so far as 16 kHz int16 samples; the collection starts again."""
        audio = np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.int16)
        self._chunks = []
        return audio


def hypotheses(transcript: Transcript, vocab: Vocabulary) -> list[Hypothesis]:
    """The transcript as the matcher's n-best list."""
    from voice.words.matcher import Hypothesis

    return [Hypothesis(vocab.normalize(text), conf) for text, conf in transcript.nbest]


def make_recognizer(
    settings: Settings,
    vocab: Vocabulary,
    *,
    backend: str | None = None,
    model_path: str | Path | None = None,
    extra_words: Sequence[str] = (),
) -> Recognizer:
    """The configured recogniser (``[speech] recognizer``), or ``backend`` if given.

    ``model_path`` overrides ``[speech] vosk_model`` for Vosk and ``whisper_model`` for
    Whisper. ``extra_words`` are words beyond the vocabulary that contexts may use (e.g.
    articles in "wo ist der Springer").
    Raises :class:`RecognizerError` with a message a user can act on.
    """
    name = backend or settings.speech.recognizer
    if name == "auto" and model_path is not None:
        name = _kind_of_model(model_path)
    if name == "auto":
        return _best_installed(settings, vocab, extra_words)
    if name == "whisper":
        from voice.speech.recognizers.whisper import WhisperRecognizer

        folder = whisper_folder(str(model_path or settings.speech.whisper_model))
        whisper = WhisperRecognizer(folder, vocab, nbest=settings.speech.nbest)
        if not settings.speech.second_opinion:
            return whisper
        return _with_second_opinion(whisper, settings, vocab, extra_words)
    if name == "sphinx":
        from voice.speech.recognizers.adaptation import chosen_adaptation
        from voice.speech.recognizers.sphinx import SphinxRecognizer

        return SphinxRecognizer(
            vocab,
            nbest=settings.speech.nbest,
            extra_words=extra_words,
            adaptation=chosen_adaptation(settings.speech.adaptation),
        )
    if name == "vosk":
        from voice.speech.recognizers.vosk import VoskRecognizer, resolve_model

        given = Path(model_path).expanduser() if model_path else None
        if given is not None and (given.is_dir() or len(given.parts) > 1):
            path = given  # a folder (one that is missing is named as such)
        else:  # a model's name: the one given, or [speech] vosk_model
            path = resolve_model(str(model_path) if model_path else settings.speech.vosk_model)
        return VoskRecognizer(path, vocab, nbest=settings.speech.nbest, extra_words=extra_words)
    raise RecognizerError(
        f"unknown recogniser {name!r} (use 'auto', 'whisper', 'sphinx' or 'vosk')"
    )


def _with_second_opinion(
    whisper: Recognizer, settings: Settings, vocab: Vocabulary, extra_words: Sequence[str]
) -> Recognizer:
    """Whisper with PocketSphinx's second opinion (``[speech] second_opinion``); Whisper alone,
    and the reason in the log, when PocketSphinx cannot start. PocketSphinx votes with the
    player's voice (``[speech] adaptation``: enrolled with ``voice-chess enrol`` or learnt from
    their games) when there is one: on the tuning voices it agreed with Whisper more often
    (more right moves played at once) and played no wrong move (docs/speech.md §2). A voice
    file that cannot be used is named in the log, and PocketSphinx votes as shipped."""
    import logging

    from voice.config import override
    from voice.speech.recognizers.adaptation import AdaptationError
    from voice.speech.recognizers.second_opinion import SecondOpinion

    log = logging.getLogger(__name__)
    try:
        try:
            sphinx = make_recognizer(settings, vocab, backend="sphinx", extra_words=extra_words)
        except AdaptationError as error:
            log.warning("PocketSphinx votes without the learnt voice: %s", error)
            shipped = override(settings, speech={"adaptation": "off"})
            sphinx = make_recognizer(shipped, vocab, backend="sphinx", extra_words=extra_words)
    except RecognizerError as error:
        log.warning("Whisper listens without PocketSphinx's second opinion: %s", error)
        return whisper
    return SecondOpinion(whisper, sphinx, vocab)


def _kind_of_model(model: str | Path) -> str:
    """The recogniser a model given by hand (``--model``) is for, whatever ``recognizer`` says:
    a Whisper folder holds ``model.bin``, a Vosk one ``am/final.mdl``; a name is looked up in
    the catalogue. A model that is neither is one sentence, not silently ignored."""
    from voice.speech.models import ModelError, load_catalogue, model_path

    try:
        # A folder, or an installed model's name (in the catalogue or installed by hand).
        folders = [Path(model).expanduser(), model_path(str(model))]
        entry = load_catalogue().get(str(model))
    except ModelError as error:
        raise RecognizerError(str(error)) from error
    for folder in folders:
        if folder is not None and (folder / "model.bin").is_file():
            return "whisper"
        if folder is not None and (folder / "am" / "final.mdl").is_file():
            return "vosk"
    if entry is not None:
        return entry.kind
    raise RecognizerError(
        f"{model} is neither a Whisper nor a Vosk model folder, nor a model's name "
        "(see voice-chess models list)"
    )


def whisper_folder(name: str) -> Path:
    """``[speech] whisper_model`` (a catalogue name or a folder) → the model folder, joined
    from its pip packages into the user's model folder the first time."""
    folder = Path(name).expanduser()
    if folder.is_dir():
        return folder
    from voice.speech.models import ModelError, ensure_whisper_model

    try:
        return ensure_whisper_model(name)
    except ModelError as error:
        raise RecognizerError(str(error)) from error


def _best_installed(
    settings: Settings, vocab: Vocabulary, extra_words: Sequence[str]
) -> Recognizer:
    """``recognizer = "auto"``: Whisper when its runtime and model can be used (it hears German
    far better, see the README's figures), else the embedded PocketSphinx. Why Whisper could
    not be used goes to the log; the start-up sentence names the recogniser chosen."""
    import logging

    try:
        return make_recognizer(settings, vocab, backend="whisper", extra_words=extra_words)
    except RecognizerError as error:
        logging.getLogger(__name__).warning(
            "Whisper cannot be used, PocketSphinx listens: %s", error
        )
    return make_recognizer(settings, vocab, backend="sphinx", extra_words=extra_words)
