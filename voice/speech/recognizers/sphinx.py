"""PocketSphinx: the embedded recogniser that works right after ``pip install``.

The English acoustic model inside the pocketsphinx wheel hears the German words through the
shipped lexicon (:mod:`voice.speech.recognizers.lexicon`). Per context the decoder searches a
minimal word graph of exactly the phrases allowed now
(:func:`voice.speech.recognizers.grammar.word_graph`), so
an illegal move cannot even be heard. Choices measured on synthesized German speech
(``python -m benchmarks asr``), and why:

* **Only silence between words.** PocketSphinx normally lets "noise" and "speech" fillers sit
  between grammar words; they swallowed whole German sentences and left two chess words that
  looked like a move. With silence as the only filler, every stretch of speech must be explained
  by a grammar word.
* **Rejection by unexplained speech and by poor fit.** Audio frames that are clearly speech by
  their energy but fall into silence in the best path, or a best path whose acoustic score per
  frame is far below what the sounds themselves allow, mean the speaker said something the
  grammar does not hold (small talk, a sentence to the opponent): no hypothesis at all.
* **A second look for long speech.** A short phrase plus silence ("ja" ...) sometimes beats the
  right long phrase; when the words fit well but leave speech unexplained, the utterance is
  decoded once more against only the phrases long enough for it.
* **A rival search before a move is reported.** The decoder's n-best list rarely names a
  different move, so a misheard move ("zwei" for "drei", "Eva" for "Bella") looked certain.
  Two more narrow searches (only the best phrase's target; every other move) measure how much
  better the heard move fits than its nearest rival; that rival joins the n-best list with a
  confidence from the gap, and a close rival makes the matcher offer both moves instead of
  playing or asking back the wrong one. The two searches are independent: on a machine with
  two cores the second runs at once in a helper process
  (:mod:`voice.speech.recognizers.second_decoder`), so the rival search adds one decode's time, not
  two (median 150 → 125 ms on the training voices, same answers). A coarser second decoder for
  these searches (fewer Gaussians, every other frame) was tried: it often found no path
  through "every other move" and so no rival.
* **Only check words that are true.** "Schach"/"matt" are in the graph only after moves that
  give check or mate: after every move they explained the end of small talk.
* **Fresh features per utterance** (noise estimate, cepstral mean): the same audio always gives
  the same result, whatever was heard before.
* **Partial hypotheses are not moves.** A best path that did not reach the grammar's end
  ("Turm Anna" when the audio stopped) is reported as incomplete.
* **One decoder, many searches.** Building a search from a word graph takes about a
  millisecond; the last few contexts stay cached, so switching back and forth costs nothing.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from voice.speech.recognizers import Transcript
from voice.speech.recognizers.adaptation import Adaptation
from voice.speech.recognizers.grammar import TRAILING_WORDS, command_phrases, word_graph
from voice.speech.recognizers.lexicon import Lexicon
from voice.speech.recognizers.second_decoder import (
    Graph,
    HelperLost,
    Option,
    SecondDecoder,
    decode_whole,
    worth_it,
)
from voice.speech.recognizers.sphinx_decoder import (
    PAD_S,
    decoder_options,
    dynamic_range_db,
    make_decoder,
    padded_utterance,
    quiet_noise,
)
from voice.speech.wavio import RATE, as_pcm16
from voice.words.explore_words import every_explore_phrase
from voice.words.phrases import without_check_words
from voice.words.vocabulary import FILLER_WORDS, PIECE_WORDS, NamedMoves, Phrase, Vocabulary

UNEXPLAINED_LIMIT = 0.15
"""Above this share of speech frames left to silence, the utterance is not a phrase we know."""

MIN_FRAME_SCORE = -0.0040
"""Below this average log path score per frame (relative to the best-scoring sound in each
frame) the words fit the audio too poorly to be what was said: German sentences forced onto
two chess words land here, clearly heard moves almost never (about 1 in 100 on synthesized
speech)."""

CONFIDENCE_SCALE = 20.0
"""Turns path-score differences (natural log) into relative confidences: an alternative whose
path is e^-0.01 as likely as the best one gets e^-0.2 of its confidence. With the matcher's
default ``nbest_penalty`` and ``ambiguity_margin`` a rival move within about 0.05 of the best
path is offered as a choice. Tuned on the benchmark (seed 1) with the rival search in place:
80 (the value before it) let through about half again as many wrong moves; 10 made nearly
twice as many choices of clearly heard moves for a third fewer wrong ones."""

MAX_FRAMES_PER_PHONE = 13.0
"""Clearly spoken phrases take 7 to 12 speech frames (10 ms) per phone; more means the speech
holds more sounds than the phrase found."""

MIN_FRAME_SCORE_ADAPTED = -0.0035
"""The same limit for a recogniser adapted to the player's voice (``voice-chess enrol``): the
adaptation raises the scores of real moves (median -0.0029 → -0.0023) but hardly those of small
talk forced onto chess words, so the unadapted limit let about five times as much small talk
through. Tuned on enrolled training voices: 19 → 3 of 240 sentences proposed a move, at the cost
of 2 of 360 clean moves."""

CONFIDENCE_SCALE_QUIET_ADAPTED = 30.0
"""The scale for a recogniser adapted to the player's voice when the utterance is quiet (see
:data:`QUIET_DB`): the voice is known and nothing masks it, so a score gap means more. Tuned on
enrolled training voices: clean 93.7% → 96.3% correct, still no wrong move; in noise the higher
scale let more wrong moves through (6.7% → 7.7%), hence only when quiet."""

QUIET_DB = 35.0
"""An utterance whose loud frames stand this far above its quiet ones (97th and 10th
percentile of frame energy) is quiet: clean speech measured 39 dB and more, reverberant 20-37
dB, speech in 10 dB pink noise 16-22 dB."""

_CACHE_SIZE = 32
_NBEST_SCAN = 40


@dataclass(frozen=True)
class _Heard:
    """The first pass over one utterance: the complete phrases found with their log scores, or
    why there are none. The rival search and the confidences come after."""

    allowed: frozenset[Phrase]
    """The phrases searched (all allowed ones, or only the long ones on a second look)."""
    scored: tuple[tuple[str, float], ...] = ()
    unexplained: float = 0.0
    complete: bool = True
    partial: str = ""
    reason: str = ""


class SphinxRecognizer:
    """PocketSphinx with the shipped lexicon and a word graph per context."""

    pre_roll_s = 0.25
    """The end-pointer's default: with 0.5 s, tuning voices, 40 moves heard as in a room, pink
    noise at 10 dB: 27 right instead of 30, and 6 wrong moves played instead of 2."""

    def __init__(
        self,
        vocab: Vocabulary,
        *,
        nbest: int = 5,
        extra_words: Sequence[str] = (),
        lexicon: Lexicon | None = None,
        adaptation: Path | None = None,
        parallel: bool | None = None,
    ) -> None:
        self.vocab = vocab
        self.nbest = nbest
        self.lexicon = lexicon or Lexicon.load()
        words = set(vocab.all_words()) | set(FILLER_WORDS) | set(extra_words)
        words |= set(TRAILING_WORDS)
        words = {w for w in words if self.lexicon.pronunciations(w)}
        self._known: set[str] = set(words)
        self.adaptation = adaptation
        self._min_frame_score = MIN_FRAME_SCORE
        extra: dict[str, str] = {}
        if adaptation is not None:
            Adaptation.load(adaptation)  # a damaged file is named, not a crash in PocketSphinx
            self._min_frame_score = MIN_FRAME_SCORE_ADAPTED
            extra["mllr"] = str(adaptation)
        self._decoder = make_decoder(words, self.lexicon, **extra)
        # The second decoder process starts with the first context that holds a move: one that
        # only ever hears commands (the talking clock) never needs it.
        self._second: SecondDecoder | None = None
        self._second_setup: tuple[frozenset[str], dict[str, Option]] | None = None
        if parallel or (parallel is None and worth_it()):
            self._second_setup = (frozenset(words), decoder_options(**extra))
        self._added: list[tuple[str, str]] = []  # words added since, for the second decoder
        self._searches: OrderedDict[frozenset[Phrase], tuple[str, Graph]] = OrderedDict()
        self._allowed: frozenset[Phrase] = frozenset()
        self._serial = 0
        # Phrases that are no move: never a rival move, never followed by "Schach".
        self._plain = (
            command_phrases(vocab)
            | {(word,) for word in vocab.number_words}
            | every_explore_phrase(vocab)
        )
        self._shortest: dict[str, int] = {}
        self._fit_ok = True  # of the last decode: a poor fit is not retried
        self._lock = threading.Lock()
        self._stream: list[np.ndarray] | None = None
        self._last_partial: str | None = None
        self._last_heard: tuple[tuple[bytes, frozenset[Phrase]], _Heard] | None = None
        self._last_answer: tuple[tuple[bytes, frozenset[Phrase]], Transcript] | None = None

    def describe(self) -> str:
        return "PocketSphinx"

    def close(self) -> None:
        """Stop the second decoder's process (it also stops with this object or the program)."""
        if self._second is not None:
            self._second.close()

    def wait_for_second_decoder(self, timeout: float = 10.0) -> bool:
        """Start the second decoder's process if it is wanted and not started yet, and wait
        until it is up; False without one. A game need not wait (until then both rival searches
        run here); the benchmark does, so that its first decode times are those of a game under
        way."""
        self._start_second()
        return self._second is not None and self._second.ready(timeout)

    def _start_second(self) -> None:
        """Start the second decoder's process (once; a given-up one is not started again)."""
        if self._second is not None or self._second_setup is None:
            return
        words, options = self._second_setup
        self._second = SecondDecoder(self.lexicon.dictionary(words), options)
        weakref.finalize(self, self._second.close)

    def second_process_memory_mb(self) -> float:
        """Peak resident memory of the second decoder's process; 0 without one."""
        return self._second.peak_memory_mb() if self._second is not None else 0.0

    # -- context ----------------------------------------------------------------------------

    def _ensure_words(self, words: Iterable[str]) -> None:
        """Add words a context uses that the decoder does not know yet (spelling rules)."""
        new = sorted(w for w in set(words) if w not in self._known)
        for word in new:
            for index, phones in enumerate(self.lexicon.pronunciations(word)):
                name = word if index == 0 else f"{word}({index + 1})"
                self._decoder.add_word(name, phones, True)
                self._added.append((name, phones))
            self._known.add(word)

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        phrases = frozenset(tuple(p) for p in allowed if p)
        with self._lock:
            self._allowed = phrases
            self._decoder.activate_search(self._search_for(phrases))
            if self._second is None and any(p not in self._plain for p in phrases):
                self._start_second()

    def _search_for(self, phrases: frozenset[Phrase]) -> str:
        """The decoder search of a phrase set, built on first use and kept in a small cache."""
        return self._search(phrases)[0]

    def _search(self, phrases: frozenset[Phrase]) -> tuple[str, Graph]:
        """The name of a phrase set's search, and its graph (for the second decoder)."""
        known = self._searches.get(phrases)
        if known is not None:
            self._searches.move_to_end(phrases)
            return known
        # Check words only where the phrase set has them (after a check or a mate).
        graph = word_graph(phrases, trailing=())
        self._ensure_words(graph.words())
        self._serial += 1
        name = f"context{self._serial}"
        transitions = tuple(
            (a, b, 1.0, word) if word is not None else (a, b, 1.0)
            for a, b, word in graph.transitions
        )
        fsg = self._decoder.create_fsg(name, graph.start, graph.final, list(transitions))
        self._decoder.add_fsg(name, fsg)
        self._searches[phrases] = (name, (graph.start, graph.final, transitions))
        if len(self._searches) > _CACHE_SIZE:
            _, (old, _) = self._searches.popitem(last=False)
            self._decoder.remove_search(old)
        return self._searches[phrases]

    def _phones(self, phrase: Phrase) -> int:
        """The fewest phones any pronunciation of ``phrase`` has."""
        total = 0
        for word in phrase:
            if word not in self._shortest:
                variants = self.lexicon.pronunciations(word) or ("",)
                self._shortest[word] = min(len(v.split()) for v in variants)
            total += self._shortest[word]
        return total

    # -- whole utterances -------------------------------------------------------------------

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        started = time.perf_counter()
        pcm = as_pcm16(audio, sample_rate)
        with self._lock:
            return self._decode(pcm, started, alternatives)

    def _decode(self, pcm: np.ndarray, started: float, alternatives: bool = True) -> Transcript:
        """Decode a whole utterance in batch mode (lock held): the cepstral mean comes from the
        utterance itself, which is more accurate than the running estimate of live decoding.

        The listener asks first, at a short pause, whether the words make a phrase and then,
        if they do, for the utterance itself: the very same audio. The last first pass and the
        last full answer are kept, so the same audio is never decoded twice (a question without
        ``alternatives`` followed by the full one only adds the rival search)."""
        if not self._allowed:
            return Transcript((), True, _ms(started), reason="silence")
        padded, speech = padded_utterance(pcm)
        if not speech.any():
            return Transcript((), True, _ms(started), reason="silence")
        key = (hashlib.blake2b(pcm.tobytes(), digest_size=16).digest(), self._allowed)
        if alternatives and self._last_answer and self._last_answer[0] == key:
            return replace(self._last_answer[1], decode_ms=_ms(started))
        heard = self._last_heard[1] if self._last_heard and self._last_heard[0] == key else None
        if heard is None:
            heard = self._listen(padded, speech)
            self._last_heard = (key, heard)
        scale = CONFIDENCE_SCALE
        if self.adaptation is not None and dynamic_range_db(pcm) >= QUIET_DB:
            scale = CONFIDENCE_SCALE_QUIET_ADAPTED
        answer = self._transcript(heard, padded, started, alternatives, scale)
        if alternatives:
            self._last_answer = (key, answer)
        return answer

    def _listen(self, padded: np.ndarray, speech: np.ndarray) -> _Heard:
        """The first pass over the allowed phrases, and the second look for long speech."""
        first = self._run(padded, speech, self._allowed)
        if first.reason != "out-of-grammar" or not self._fit_ok:
            return first
        # A short phrase plus silence ("ja" ...) can beat the right long phrase when the voice
        # is unusual. If the speech is too long for what was found, listen once more for the
        # phrases long enough to fill it; the same checks decide whether that is a phrase.
        least = int(speech.sum()) / MAX_FRAMES_PER_PHONE
        longer = frozenset(p for p in self._allowed if self._phones(p) >= least)
        if not longer or longer == self._allowed:
            return first
        main = self._search_for(self._allowed)
        self._decoder.activate_search(self._search_for(longer))
        try:
            second = self._run(padded, speech, longer)
        finally:
            self._decoder.activate_search(main)
        return second if second.scored else first

    def _run(self, padded: np.ndarray, speech: np.ndarray, allowed: frozenset[Phrase]) -> _Heard:
        decode_whole(self._decoder, padded.tobytes())
        return self._read(speech, allowed)

    def _read(self, speech: np.ndarray, allowed: frozenset[Phrase]) -> _Heard:
        """The decoder's result for the utterance just ended (lock held)."""
        decoder = self._decoder
        hyp = decoder.hyp()
        text = _clean(hyp.hypstr) if hyp is not None else ""
        if hyp is None or not text or not _is_complete(text, allowed):
            # Speech but no path to the grammar's end: the audio stopped mid-phrase.
            return _Heard(allowed, complete=False, partial=text, reason="partial")
        unexplained = _unexplained(speech, decoder.seg() or ())
        fit = _log_score(hyp.score) / max(decoder.n_frames(), 1)
        self._fit_ok = fit >= self._min_frame_score
        if unexplained > UNEXPLAINED_LIMIT or not self._fit_ok:
            return _Heard(allowed, partial=text, reason="out-of-grammar")
        scored = self._alternatives(text, _log_score(hyp.score), allowed)
        return _Heard(allowed, scored=tuple(scored), unexplained=unexplained)

    def _transcript(
        self,
        heard: _Heard,
        padded: np.ndarray,
        started: float,
        alternatives: bool,
        scale: float = CONFIDENCE_SCALE,
    ) -> Transcript:
        """What was heard, with the nearest rival move when ``alternatives`` (lock held);
        ``scale`` turns score gaps into confidences."""
        if not heard.scored:
            return Transcript(
                (), heard.complete, _ms(started), partial=heard.partial, reason=heard.reason
            )
        scored = list(heard.scored)
        # The rival search costs two more decodes: only worth it when a move may be made.
        rival = self._rival(padded, scored[0][0], heard.allowed) if alternatives else None
        if rival is not None and rival[0] not in dict(scored):
            scored.append((rival[0], scored[0][1] - rival[1]))
            scored.sort(key=lambda item: -item[1])
        weights = [math.exp(scale * (s - scored[0][1])) for _, s in scored]
        share = (1.0 - heard.unexplained) / sum(weights)
        nbest = tuple(
            (words, round(weight * share, 4))
            for (words, _), weight in zip(scored, weights, strict=True)
        )
        return Transcript(nbest, True, _ms(started))

    def _alternatives(
        self, best: str, best_score: float, allowed: frozenset[Phrase]
    ) -> list[tuple[str, float]]:
        """Distinct complete phrases from the decoder's n-best list with their log scores."""
        seen = {best: best_score}
        for index, hypothesis in enumerate(self._decoder.nbest()):
            if index >= _NBEST_SCAN or len(seen) >= self.nbest:
                break
            if hypothesis is None:
                continue
            words = _clean(hypothesis.hypstr)
            if words and words not in seen and _is_complete(words, allowed):
                seen[words] = min(_log_score(hypothesis.score), best_score)
        return sorted(seen.items(), key=lambda item: -item[1])

    def _target(self, phrase: Phrase) -> Phrase:
        """What a move phrase names, whatever its form: the destination square and any
        promotion piece ("Springer Gustav Felix drei" and "Springer Felix drei" name the same;
        "Springer Felix zwei" does not). Phrases without a square (castling) stand for
        themselves."""
        words = without_check_words(phrase)
        files = self.vocab.file_words
        last = max((i for i, word in enumerate(words) if word in files), default=None)
        if last is None:
            return words
        keep = {*files, *self.vocab.rank_words, *PIECE_WORDS.values()}
        return tuple(word for word in words[last:] if word in keep)

    def _rival(
        self, padded: np.ndarray, best: str, allowed: frozenset[Phrase]
    ) -> tuple[str, float] | None:
        """The best phrase naming something else than ``best``, and how much worse it fits
        (log score gap, at least 0); None for commands or when nothing else fits (lock held).

        The decoder's own n-best list comes from a pruned lattice: for most utterances it
        holds only other forms of the same move, or nothing, so a wrongly heard move looked
        certain. Two narrow searches over the same audio, one with only the phrases of
        ``best``'s target and one with every *other* move, compare the two on equal terms (a
        narrow search prunes differently: compared with the full search's score, rivals looked
        closer than they are and many right moves became choices, measured): a small gap means
        the audio fits two moves almost equally, and the matcher offers both instead of playing
        (or asking back) the wrong one.
        """
        words = tuple(best.split())
        if words in self._plain:
            return None
        target = self._target(words)
        moves = [p for p in allowed if p not in self._plain]
        others = frozenset(p for p in moves if self._target(p) != target)
        same = frozenset(p for p in moves if self._target(p) == target)
        if not others or not same:
            return None
        # The two searches do not depend on each other: with a second decoder process they
        # run at once, on two cores.
        second, pending = self._second, None
        if second is not None:
            name, graph = self._search(others)
            pending = second.submit(name, graph, self._added, padded.tobytes())
        own = self._best_of(padded, same, allowed)
        rival = None
        if second is not None and pending is not None:
            try:
                rival = _complete(second.result(pending), others)
            except HelperLost:
                pending = None
        if pending is None:
            rival = self._best_of(padded, others, allowed)
        if rival is None:
            return None
        gap = own[1] - rival[1] if own is not None else 0.0
        return rival[0], max(gap, 0.0)

    def _best_of(
        self, padded: np.ndarray, phrases: frozenset[Phrase], allowed: frozenset[Phrase]
    ) -> tuple[str, float] | None:
        """The best complete phrase of ``phrases`` for the audio and its log score; the search
        of ``allowed`` is active again afterwards (lock held)."""
        current = self._search_for(allowed)
        self._decoder.activate_search(self._search_for(phrases))
        try:
            decode_whole(self._decoder, padded.tobytes())
            hyp = self._decoder.hyp()
        finally:
            self._decoder.activate_search(current)
        return _complete(None if hyp is None else (hyp.hypstr, hyp.score), phrases)

    # -- streaming --------------------------------------------------------------------------

    def start(self) -> None:
        """Streaming decodes live for the words-so-far; :meth:`finish` decodes the whole
        utterance once more in batch mode, which is what counts."""
        with self._lock:
            self._stream = []
            self._last_partial = None
            self._decoder.start_utt()
            lead = quiet_noise(int(PAD_S * RATE), seed=0)
            self._decoder.process_raw(lead.tobytes(), False, False)

    def accept(self, chunk: np.ndarray, sample_rate: int) -> str | None:
        pcm = as_pcm16(chunk, sample_rate)
        with self._lock:
            if self._stream is None:
                raise RuntimeError("accept() before start()")
            self._stream.append(pcm)
            self._decoder.process_raw(pcm.tobytes(), False, False)
            hyp = self._decoder.hyp()
            partial = _clean(hyp.hypstr) if hyp is not None else ""
            if partial and partial != self._last_partial:
                self._last_partial = partial
                return partial
            return None

    def finish(self) -> Transcript:
        started = time.perf_counter()
        with self._lock:
            if self._stream is None:
                raise RuntimeError("finish() before start()")
            pcm = np.concatenate(self._stream) if self._stream else np.zeros(0, np.int16)
            self._stream = None
            self._decoder.end_utt()
            return self._decode(pcm, started)


def _unexplained(speech: np.ndarray, segments: Iterable[Any]) -> float:
    """The share of speech frames the words of the best path do not cover. (Forgiving a few
    frames at the edges, where the silence model likes to take breathy onsets and reverberant
    tails, was tried: it let through more wrong moves and small talk than it rescued.)"""
    covered = np.zeros(len(speech), dtype=bool)
    for segment in segments:
        if _clean(segment.word):
            covered[max(segment.start_frame, 0) : segment.end_frame + 1] = True
    left = speech & ~covered[: len(speech)]
    return float(left.sum()) / max(int(speech.sum()), 1)


def _complete(
    hypothesis: tuple[str, float] | None, phrases: frozenset[Phrase]
) -> tuple[str, float] | None:
    """A decoder's best hypothesis (words, path score) as a phrase of ``phrases`` and its log
    score; None if the search found none or stopped short of a whole phrase."""
    text = _clean(hypothesis[0]) if hypothesis is not None else ""
    if hypothesis is None or not text or not _is_complete(text, phrases):
        return None
    return text, _log_score(hypothesis[1])


def _is_complete(text: str, allowed: frozenset[Phrase]) -> bool:
    """Is ``text`` a whole allowed phrase? (Check words are part of the phrases that may carry
    them, :meth:`voice.words.phrases.PhraseTable.with_check_words`.)"""
    return tuple(text.split()) in allowed


def _clean(text: str) -> str:
    """Decoder words → canonical tokens: drop silences and the ``(2)`` variant marks."""
    words = []
    for word in text.split():
        if word.startswith(("<", "[")):
            continue
        words.append(word.split("(", 1)[0])
    return " ".join(words)


def _log_score(score: float) -> float:
    """The decoder reports a path score as a probability (relative to the best frame scores)."""
    return math.log(max(score, 1e-300))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
