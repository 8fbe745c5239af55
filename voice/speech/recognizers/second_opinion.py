"""A second opinion: PocketSphinx listens too when Whisper is not sure of a move.

Whisper plays a move without a question only when it is clearly ahead and the audio is good
(issue 18 §3); on voices it was not tuned on it asks most right moves back, offers others among
numbered choices or refuses them, and every question costs the player a "ja" and a few
seconds. PocketSphinx hears with another kind of model (an English acoustic model through a
German lexicon, with a word graph of exactly the position's phrases) and goes wrong in other
ways. Two recognisers hearing the same phrase on their own is evidence neither has alone
(issue 18 §1: "both voting, disagreement asked back"):

- **A move Whisper would ask back** (:func:`asked_back`) that PocketSphinx heard as the very
  same phrase is played at once (:func:`agreed`), but only where what held Whisper back was its
  own probability or its free guesses (:data:`LIFTED`): a move it was torn over (a rival close
  behind) or heard in faint speech stays asked back.
- **A move Whisper would only offer among choices, or refuse** (:func:`doubted`: its best
  phrase, too weakly heard to be asked) that PocketSphinx heard as the same phrase is asked
  back (:func:`confirmed`): one question instead of three numbered moves or a "say it
  again". Never played: Whisper was unsure.

When PocketSphinx hears another phrase or nothing, Whisper's answer stands: PocketSphinx never
proposes a phrase of its own, and Whisper's sure moves are never touched. A "ja" or "nein"
stays Whisper's alone (its own rule for answers: the free guess must say the word alone), and
so do commands.

Measured on the tuning voices only (seeds 11 and 101, 60 moves each, cut by the end-pointer as
in a room; the hall and accented German for seed 101). Of the right moves Whisper asked back,
the vote plays 32 of 48 in quiet, 18 of 34 in pink noise at 10 dB, 6 of 25 in the hall, 7 of
17 accented, none in babble (PocketSphinx hears nothing there); of the 11 wrong moves Whisper
asked back, none. Of the moves Whisper offered or refused, the agreement asks back 11 of 26 in
quiet, 18 of 41 in pink noise, 2 of 13 in the hall, 6 of 26 accented, all 37 right. Report
voices: docs/speech.md §5a. (Those figures predate session 19's rule that Whisper's free guess
must have reached the phrase's last word; its effect: docs/speech.md §4c.)

PocketSphinx runs only where it may change the answer (:func:`asked_back`, :func:`doubted`):
that answer comes about one PocketSphinx decode later (about 0.15 s), the others as before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from voice.speech.recognizers import (
    Context,
    LastAnswer,
    Recognizer,
    Transcript,
    WholeUtterance,
    close_recognizer,
)
from voice.speech.recognizers.whisper import CALIBRATION, reported
from voice.speech.wavio import RATE, as_pcm16
from voice.words.phrases import parse_intent, without_check_words
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary

if TYPE_CHECKING:
    from voice.speech.recognizers.sphinx import SphinxRecognizer

log = logging.getLogger(__name__)

PLAYED = reported(CALIBRATION.sure)
"""Whisper's play point: the reported confidence of a phrase exactly at ``sure`` (0.5, the
matcher's default ``accept_confidence``). A phrase both heard alike is raised to it: as sure as
Whisper's own sure moves, no surer (a stricter ``accept_confidence`` holds back both)."""

ASKED_FROM = reported(CALIBRATION.unsure)
"""Whisper's lowest confidence for a move asked back alone; below it offers choices or hears
nothing."""

LIFTED = frozenset({"probability", "guess"})
"""What PocketSphinx's agreement may stand in for (``Transcript.held_back``): Whisper's own
probability below ``sure``, and its free guesses not agreeing with the best phrase (a third
way of hearing that agrees outvotes them). Not a rival close behind ("lead": Whisper torn
between two moves, "fünf oder sieben") nor faint speech ("level"): issue 18 §3 plays at once
only when the best is clearly ahead and the audio is good, and each of those checks was added
after a wrong move was played. On the tuning voices they held back 9 of the 75 right moves
the vote would otherwise have played (and no wrong one)."""


def asked_back(transcript: Transcript, vocab: Vocabulary) -> bool:
    """Whisper would ask a move back alone, held back only by what a second opinion may lift
    (:data:`LIFTED`): between the point where it offers choices instead and the play point.
    Answers ("ja", "nein") and commands are not moves: Whisper's own rules decide those (a
    "ja" plays the move asked back, and is sure only when the free guess says it alone).
    Whisper's free guess must have reached the phrase's last word (``complete``): PocketSphinx
    always ends on a whole phrase of its grammar, so from "Springer Cesar" said alone it hears
    "Springer Cesar drei" at 0.97, and its agreement played a move whose last word nobody said
    (a player's trial with SVOX Pico's voice, session 19). Such a move stays asked back."""
    if not transcript.nbest or not ASKED_FROM <= transcript.nbest[0][1] < PLAYED:
        return False
    if not transcript.complete:
        return False
    if not transcript.held_back or not transcript.held_back <= LIFTED:
        return False
    return parse_intent(_words(transcript.best, vocab), vocab) is not None


def agreed(first: Transcript, second: Transcript, vocab: Vocabulary) -> Transcript | None:
    """``first`` (Whisper's, a move asked back) with its move made playable, when ``second``
    (PocketSphinx's) heard the same phrase whole and would have played it itself (its best at
    :data:`PLAYED`: not torn between that phrase and another); None when they do not agree.

    The same phrase, not only the same move: "Bauer Cesar drei" and "Cesar drei" name one move,
    but two recognisers that wrote different words did not hear alike. Check and mate words
    count for nothing, as everywhere (:func:`voice.words.phrases.without_check_words`). The
    confidences are scaled together so that the best reaches :data:`PLAYED`: a rival Whisper
    heard almost as well stays as near, and the matcher still asks where two moves fit alike."""
    if not asked_back(first, vocab) or not heard_alike(second, first.best, vocab):
        return None
    scale = PLAYED / first.nbest[0][1]
    nbest = tuple((text, min(1.0, round(conf * scale, 6))) for text, conf in first.nbest)
    return replace(first, nbest=nbest)


def doubted(transcript: Transcript, vocab: Vocabulary) -> str | None:
    """The move phrase Whisper fitted best but would neither play nor ask back: the first of
    the moves it offers by number (below :data:`ASKED_FROM`), or the nearest phrase of speech
    it refuses as out-of-grammar (``Transcript.nearest``); None for anything else (a move
    asked back or played, silence, answers and commands)."""
    if transcript.nbest:
        phrase = transcript.best if transcript.nbest[0][1] < ASKED_FROM else ""
    else:
        phrase = transcript.nearest if transcript.reason == "out-of-grammar" else ""
    if not phrase or parse_intent(_words(phrase, vocab), vocab) is None:
        return None
    return phrase


def confirmed(first: Transcript, second: Transcript, vocab: Vocabulary) -> Transcript | None:
    """``first`` (Whisper's: choices, or a refusal) turned into the question of its best
    phrase, when ``second`` (PocketSphinx's) heard that very phrase whole and would have played
    it itself; None when they do not agree. Never a move played: two recognisers that rank the
    same phrase best, one of them unsure, make a question ("Springer Felix fünf?"), not three
    numbered moves or a "say it again". The rivals go: the player answers "ja" or "nein".

    Reported at :data:`ASKED_FROM`, below the matcher's ``accept_confidence`` (0.5 by
    default; a setting at or below ASKED_FROM would play Whisper's own questions too), and
    held back as "doubted", which no vote lifts (:data:`LIFTED`). A refusal made a question
    is incomplete: Whisper's guess never said that phrase to its end, so the end-pointer waits
    for the full pause in case more words follow (the choices keep Whisper's own check)."""
    phrase = doubted(first, vocab)
    if phrase is None or not heard_alike(second, phrase, vocab):
        return None
    return replace(
        first,
        nbest=((phrase, ASKED_FROM),),
        complete=first.complete and bool(first.nbest),
        partial="",
        reason="",
        nearest="",
        held_back=frozenset({"doubted"}),
    )


def heard_alike(second: Transcript, phrase: str, vocab: Vocabulary) -> bool:
    """``second`` heard ``phrase`` whole (check and mate words aside) with its best at its own
    play point (:data:`PLAYED`: not torn between that phrase and another)."""
    if not second.nbest or not second.complete or second.nbest[0][1] < PLAYED:
        return False
    return _words(phrase, vocab) == _words(second.best, vocab)


def _words(text: str, vocab: Vocabulary) -> Phrase:
    return without_check_words(vocab.normalize(text))


class SecondOpinion:
    """Whisper (``first``) with PocketSphinx (``second``) asked whenever Whisper is not sure of
    a move: one it would ask back, offer among choices or refuse (see the module notes).
    Implements :class:`voice.speech.recognizers.Recognizer`."""

    def __init__(self, first: Recognizer, second: Recognizer, vocab: Vocabulary) -> None:
        self.first = first
        self.second = second
        self.vocab = vocab
        self.pre_roll_s = first.pre_roll_s
        self._lock = threading.Lock()
        self._context = Context()
        self._last = LastAnswer()
        """PocketSphinx is not asked twice for the same utterance."""
        self._stream = WholeUtterance()

    def describe(self) -> str:
        return f"{self.first.describe()} + {self.second.describe()}"

    @property
    def adaptation(self) -> Path | None:
        """The player's voice PocketSphinx votes with (None: the voice as shipped)."""
        voice = getattr(self.second, "adaptation", None)
        return voice if isinstance(voice, Path) else None

    def with_second(self, second: Recognizer) -> SecondOpinion:
        """The same Whisper with another second opinion (PocketSphinx with the voice learnt
        during a game): Whisper's model is not loaded twice. Retire this one with
        :func:`retire`, which keeps the Whisper they share."""
        return SecondOpinion(self.first, second, self.vocab)

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        context = Context.of(allowed, moves)
        with self._lock:
            self._context = context
            self.first.set_context(context.allowed, context.moves)
            self.second.set_context(context.allowed, context.moves)

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        started = time.perf_counter()
        pcm = as_pcm16(audio, sample_rate)
        with self._lock:
            kept = self._last.find(pcm, self._context, started)
            if kept is not None:
                return kept
            first = self.first.recognize(pcm, RATE, alternatives=alternatives)
            transcript = first
            phrase = first.best if asked_back(first, self.vocab) else doubted(first, self.vocab)
            if phrase is not None:
                try:
                    second = self._heard(pcm, phrase)
                except Exception:  # the second opinion must never cost the first
                    log.exception("PocketSphinx's second opinion failed; Whisper's answer stands")
                else:
                    vote = agreed(first, second, self.vocab)
                    both = vote or confirmed(first, second, self.vocab) or first
                    transcript = replace(both, decode_ms=first.decode_ms + second.decode_ms)
            self._last.keep(pcm, self._context, transcript)
            return transcript

    def _heard(self, pcm: np.ndarray, phrase: str) -> Transcript:
        """PocketSphinx's answer for the utterance, with its rival search only where it can
        still agree on ``phrase``: its first pass alone names its best phrase, and the rival
        search can only lower that phrase's confidence, never change which one is best, so
        when the first pass already hears something else (or nothing, or is torn) the vote
        cannot agree and the rival search's two decodes (about 30 ms) would only delay the
        answer. PocketSphinx keeps its first pass for the same audio: the full call adds only
        the rival search."""
        quick = self.second.recognize(pcm, RATE, alternatives=False)
        if not heard_alike(quick, phrase, self.vocab):
            return quick
        full = self.second.recognize(pcm, RATE)
        return replace(full, decode_ms=quick.decode_ms + full.decode_ms)

    def start(self) -> None:
        self._stream.clear()

    def accept(self, chunk: np.ndarray, sample_rate: int) -> str | None:
        self._stream.add(chunk, sample_rate)
        return None

    def finish(self) -> Transcript:
        return self.recognize(self._stream.take(), RATE)

    def close(self) -> None:
        """Release both (PocketSphinx's helper process, Whisper's model)."""
        close_recognizer(self.second)
        close_recognizer(self.first)


def pocketsphinx_in(recognizer: Recognizer) -> SphinxRecognizer | None:
    """The PocketSphinx that listens, alone or as Whisper's second opinion (the one that hears
    with the player's learnt voice); None for Whisper alone or Vosk."""
    from voice.speech.recognizers.sphinx import SphinxRecognizer

    if isinstance(recognizer, SecondOpinion):
        recognizer = recognizer.second
    return recognizer if isinstance(recognizer, SphinxRecognizer) else None


def retire(old: Recognizer, new: Recognizer) -> None:
    """Release ``old``, replaced by ``new``, but not what ``new`` still uses: a
    :class:`SecondOpinion` made by :meth:`SecondOpinion.with_second` shares its Whisper."""
    if isinstance(old, SecondOpinion) and isinstance(new, SecondOpinion) and old.first is new.first:
        close_recognizer(old.second)
    else:
        close_recognizer(old)
