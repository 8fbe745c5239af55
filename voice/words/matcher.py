"""Heard words → ranked candidate moves and a decision (accept, confirm, choose, reject).

Like Lichess' voice input (lila ``ui/voice``) this matches what the recogniser heard against the
finite set of phrases of the legal moves with a weighted token edit distance, and plays a move at
once only when it is clearly the one. What is done differently, and why:

* **Substitution costs come from how the words sound**, computed from a rough German
  pronunciation of both words, not from a fixed crowd-sourced table: rank and file words are
  configurable (the arbiter may choose others) and every configured word must get sensible costs.
  "zwei"/"drei" are close, "Felix"/"Anna" far; swapping a word for one of another kind (a file
  for a rank) costs extra, because a recogniser following a grammar rarely does that.
* **A word the speaker leaves out costs by its role**: a missing departure file or "Bauer" is
  cheap (people drop them), a missing destination word or promotion piece is not.
* **Words outside the vocabulary** (a free-vocabulary recogniser, typed text) are compared by
  sound too, but never cheaply enough to play a move without asking.
* **The n-best list is combined**: each alternative's cost is raised by how much less confident
  the recogniser was in it than in its best guess, and every move keeps its cheapest reading.
* **An illegal move said clearly is refused with its reason** (docs/rules.md §6.5) instead of being
  bent into the nearest legal move: a blind player who misjudged the position must hear "Kein
  Springer kann nach Felix zwei", not be asked "Springer Felix drei?" and answer "ja" by reflex.
* **A trie over all phrases** shares the dynamic-programming rows of common prefixes and prunes
  branches that already cost more than the rejection threshold, so one utterance against a
  position with 218 legal moves takes a few milliseconds in pure Python.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Generic, TypeVar

import chess

from voice.config import MatchingSettings
from voice.words.phrases import (
    FREE_WORDS,
    PAWN_WORD,
    MoveIntent,
    PhraseTable,
    Refusal,
    explain_refusal,
    intent_moves,
    parse_intent,
    phrase_table,
)
from voice.words.spoken_time import number_words
from voice.words.utterance import read_command
from voice.words.vocabulary import (
    CAPTURE_WORDS,
    EN_PASSANT,
    FILLER_WORDS,
    LONG_CASTLING,
    PIECE_WORDS,
    PROMOTION_WORDS,
    SHORT_CASTLING,
    Phrase,
    Vocabulary,
)

T = TypeVar("T", bound=Hashable)

DELETE_COST = 0.5
"""A heard word that is not in the phrase (noise, a stray word)."""
INSERT_COST = 0.5
"""A phrase word that was not heard (dropped by the speaker or the recogniser)."""
PIECE_INSERT_COST = 0.6
"""The piece word that starts a move ("Springer" of "Springer schlägt David fünf"): without
it the words name a pawn move (Appendix D: a move without a piece is a pawn's), so a pawn
move the words describe as they are comes before a piece move whose piece was not heard."""
OPTIONAL_INSERT_COST = 0.4
"""A phrase word that speakers often leave out: a piece's departure file/rank, the capture
word, "Bauer". Above the default ambiguity_margin, so an exact phrase of one move is never
made ambiguous by a longer phrase of another that merely adds such a word."""
SUBSTITUTE_FLOOR = 0.4
"""Two different vocabulary words never cost less than this, however alike they sound."""
UNKNOWN_FLOOR = 0.35
"""A heard word outside the vocabulary never costs less than this: above the default
accept_cost, so a move read from a guessed word is always asked back."""
OTHER_KIND_PENALTY = 0.25
"""Extra cost for hearing a word of another kind (a rank word where a file word belongs)."""

# Tokens that mean the same for matching; the table keeps both spellings for grammars.
_SAME_MEANING: Mapping[str, str] = {
    **{word: CAPTURE_WORDS[0] for word in CAPTURE_WORDS},
    **{word: PROMOTION_WORDS[0] for word in PROMOTION_WORDS},
}
_FREE = FILLER_WORDS | FREE_WORDS


@dataclass(frozen=True)
class Hypothesis:
    """One recogniser alternative: canonical tokens and a confidence (higher is better)."""

    words: Phrase
    confidence: float = 1.0


class Decision(StrEnum):
    ACCEPT = "accept"
    CONFIRM = "confirm"
    CHOOSE = "choose"
    REJECT = "reject"


@dataclass(frozen=True)
class Candidate:
    move: chess.Move
    cost: float
    phrase: Phrase
    """The table phrase the move was matched by."""


@dataclass(frozen=True)
class MatchResult:
    """The decision, the candidates (best first, at most ``max_choices``; for a REJECT what
    came nearest), the move for ACCEPT/CONFIRM, and for some REJECTs the reason to say (an
    illegal move, a promotion without its piece, too many moves fit)."""

    decision: Decision
    candidates: tuple[Candidate, ...]
    move: chess.Move | None
    refusal: Refusal | None = None
    heard: Phrase = field(default=())
    """The hypothesis the best candidate came from (after dropping free words)."""


# -- how words sound ------------------------------------------------------------------------

_VOWELS = frozenset("aeiouyAOWä")
_SIMILAR_CONSONANTS = [
    set("pb"),
    set("td"),
    set("kgx"),
    set("fv"),
    set("sz"),
    set("mnN"),
    set("lr"),
]
_GRAPHEMES: Sequence[tuple[str, str]] = (
    ("tsch", "C"),
    ("sch", "S"),
    ("ch", "x"),
    ("ck", "k"),
    ("qu", "kv"),
    ("ph", "f"),
    ("th", "t"),
    ("tz", "ts"),
    ("ng", "N"),
    ("ei", "A"),
    ("ai", "A"),
    ("ey", "A"),
    ("eu", "O"),
    ("äu", "O"),
    ("oi", "O"),
    ("au", "W"),
    ("ie", "i"),
    ("ee", "e"),
    ("aa", "a"),
    ("oo", "o"),
    ("ä", "e"),
    ("ö", "e"),
    ("ü", "y"),
    ("ß", "s"),
    ("x", "ks"),
    ("z", "ts"),
    ("w", "v"),
    ("v", "f"),
    ("j", "i"),
)


@lru_cache(maxsize=4096)
def sounds(word: str) -> str:
    """A rough German pronunciation of ``word`` as one symbol per sound.

    >>> sounds("cesar"), sounds("zäsar"), sounds("zwei"), sounds("hektor") == sounds("hector")
    ('tsesar', 'tsesar', 'tsfA', True)
    """
    text = word.lower()
    text = "".join(
        "ts" if ch == "c" and text[i + 1 : i + 2] in ("e", "i", "ä", "y") else ch
        for i, ch in enumerate(text)
    )
    text = text.replace("c", "k")
    for grapheme, sound in _GRAPHEMES:
        text = text.replace(grapheme, sound)
    # A vowel followed by h is long, the h is silent; final b/d/g are said p/t/k.
    text = "".join(
        ch for i, ch in enumerate(text) if not (ch == "h" and i > 0 and text[i - 1] in _VOWELS)
    )
    if text[-1:] in ("b", "d", "g"):
        text = text[:-1] + {"b": "p", "d": "t", "g": "k"}[text[-1]]
    collapsed = [ch for i, ch in enumerate(text) if i == 0 or ch != text[i - 1]]
    return "".join(collapsed)


def _sound_weight(symbol: str) -> float:
    return 1.0 if symbol in _VOWELS else 0.6


def _sound_substitution(a: str, b: str) -> float:
    if a == b:
        return 0.0
    a_vowel, b_vowel = a in _VOWELS, b in _VOWELS
    if a_vowel and b_vowel:
        return 0.8
    if a_vowel or b_vowel:
        return 1.2
    if any(a in group and b in group for group in _SIMILAR_CONSONANTS):
        return 0.3
    return 0.6


@lru_cache(maxsize=65536)
def sound_distance(a: str, b: str) -> float:
    """0 (sound the same) … 1 (nothing in common): a weighted edit distance over
    :func:`sounds`, where vowels weigh more than consonants (they carry a word acoustically)."""
    x, y = sounds(a), sounds(b)
    if x == y:
        return 0.0
    previous = [0.0]
    for ch in y:
        previous.append(previous[-1] + _sound_weight(ch))
    for ca in x:
        current = [previous[0] + _sound_weight(ca)]
        for j, cb in enumerate(y, start=1):
            current.append(
                min(
                    previous[j] + _sound_weight(ca),
                    current[j - 1] + _sound_weight(cb),
                    previous[j - 1] + _sound_substitution(ca, cb),
                )
            )
        previous = current
    scale = max(sum(map(_sound_weight, x)), sum(map(_sound_weight, y)))
    return min(1.0, previous[-1] / scale)


# -- word costs -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _WordModel:
    """What kind each vocabulary word is, for substitution and insertion costs."""

    kinds: Mapping[str, str]

    @classmethod
    def of(cls, vocab: Vocabulary | None) -> _WordModel:
        if vocab is None:
            return cls({})
        return _word_model(vocab.file_words, vocab.rank_words)

    def substitution(self, heard: str, target: str) -> float:
        if heard == target:
            return 0.0
        distance = sound_distance(heard, target)
        kind_heard, kind_target = self.kinds.get(heard), self.kinds.get(target)
        if kind_heard is None:
            return min(1.0, UNKNOWN_FLOOR + (1 - UNKNOWN_FLOOR) * distance)
        cost = SUBSTITUTE_FLOOR + (1 - SUBSTITUTE_FLOOR) * distance
        if kind_heard != kind_target:
            cost += OTHER_KIND_PENALTY
        return min(1.0, cost)

    def insertion(self, phrase: Phrase, index: int) -> float:
        """Cost of not hearing ``phrase[index]``: cheap for words people drop."""
        word = phrase[index]
        kind = self.kinds.get(word)
        if word == PAWN_WORD or kind in ("capture", "promotion_word", "en_passant"):
            return OPTIONAL_INSERT_COST
        if index == 0 and kind == "piece" and len(phrase) > 1:
            return PIECE_INSERT_COST
        if (
            kind in ("file", "rank")
            and self.kinds.get(phrase[0]) == "piece"
            and any(self.kinds.get(w) == "file" for w in phrase[index + 1 :])
        ):
            return OPTIONAL_INSERT_COST  # a named piece's departure file or rank
        return INSERT_COST


@lru_cache(maxsize=16)
def _word_model(file_words: Phrase, rank_words: Phrase) -> _WordModel:
    kinds: dict[str, str] = {}
    for word in (*SHORT_CASTLING, *LONG_CASTLING):
        kinds[word] = "castling"
    for word in PIECE_WORDS.values():
        kinds[word] = "piece"
    for word in CAPTURE_WORDS:
        kinds[word] = "capture"
    for word in PROMOTION_WORDS:
        kinds[word] = "promotion_word"
    for word in EN_PASSANT:
        kinds[word] = "en_passant"
    for word in rank_words:
        kinds[word] = "rank"
    for word in file_words:
        kinds[word] = "file"
    return _WordModel(kinds)


# -- the trie ------------------------------------------------------------------------------


class _Node(Generic[T]):
    __slots__ = ("children", "values")

    def __init__(self) -> None:
        self.children: dict[tuple[str, float], _Node[T]] = {}
        self.values: list[tuple[T, Phrase]] = []


class _Trie(Generic[T]):
    """All phrases of a table, sharing prefixes; each edge knows what missing its word costs."""

    def __init__(self, table: Iterable[tuple[Phrase, T]], model: _WordModel) -> None:
        self.root: _Node[T] = _Node()
        self.model = model
        seen: set[tuple[Phrase, T]] = set()
        for phrase, value in table:
            key = tuple(_SAME_MEANING.get(w, w) for w in phrase if w not in FREE_WORDS)
            if (key, value) in seen:
                continue
            seen.add((key, value))
            node = self.root
            for index, word in enumerate(key):
                edge = (word, model.insertion(key, index))
                child = node.children.get(edge)
                if child is None:
                    child = node.children[edge] = _Node()
                node = child
            node.values.append((value, phrase))

    def search(self, heard: Phrase, bound: float) -> dict[T, tuple[float, Phrase]]:
        """Cheapest cost and phrase per value, for every value costing at most ``bound``."""
        n = len(heard)
        substitution: dict[str, list[float]] = {}
        first_row = [DELETE_COST * j for j in range(n + 1)]
        best: dict[T, tuple[float, Phrase]] = {}
        stack: list[tuple[_Node[T], list[float]]] = [(self.root, first_row)]
        model = self.model
        while stack:
            node, row = stack.pop()
            for (word, insert), child in node.children.items():
                subs = substitution.get(word)
                if subs is None:
                    subs = substitution[word] = [model.substitution(h, word) for h in heard]
                new = [row[0] + insert]
                for j in range(1, n + 1):
                    new.append(
                        min(row[j] + insert, new[j - 1] + DELETE_COST, row[j - 1] + subs[j - 1])
                    )
                cost = new[n]
                if child.values and cost <= bound:
                    for value, phrase in child.values:
                        if value not in best or cost < best[value][0]:
                            best[value] = (cost, phrase)
                if child.children and min(new) <= bound:
                    stack.append((child, new))
        return best


_TRIES: weakref.WeakKeyDictionary[PhraseTable, _Trie[chess.Move]] = weakref.WeakKeyDictionary()


_TRIES_LOCK = threading.Lock()


def _move_trie(table: PhraseTable, vocab: Vocabulary) -> _Trie[chess.Move]:
    with _TRIES_LOCK:
        trie = _TRIES.get(table)
    if trie is None:
        trie = _Trie(table.phrases.items(), _WordModel.of(vocab))
        with _TRIES_LOCK:
            trie = _TRIES.setdefault(table, trie)
    return trie


# -- public functions ----------------------------------------------------------------------


def clean(words: Iterable[str], vocab: Vocabulary | None = None) -> Phrase:
    """Canonical tokens without the words that cost nothing (fillers, "Schach", "matt")."""
    tokens = vocab.normalize_words(words) if vocab is not None else tuple(words)
    return tuple(_SAME_MEANING.get(w, w) for w in tokens if w not in _FREE)


def phrase_cost(heard: Phrase, target: Phrase, vocab: Vocabulary | None = None) -> float:
    """The weighted edit distance between what was heard and one phrase (fillers and check/mate
    words are free). With ``vocab`` word kinds count too (see the module notes)."""
    trie: _Trie[int] = _Trie([(target, 0)], _WordModel.of(vocab))
    found = trie.search(clean(heard, vocab), math.inf)
    return found[0][0]


def _penalties(nbest: Sequence[Hypothesis], weight: float, floor: float) -> list[float | None]:
    """Extra cost per hypothesis: ``weight`` per halving of confidence below the best one;
    None for a hypothesis under the ``floor`` confidence (ignored)."""
    usable = [h.confidence for h in nbest if h.confidence >= floor]
    top = max(usable, default=0.0)
    penalties: list[float | None] = []
    for hypothesis in nbest:
        if hypothesis.confidence < floor:
            penalties.append(None)
        elif top <= 0 or hypothesis.confidence <= 0:
            penalties.append(0.0 if hypothesis.confidence == top else weight * 8)
        else:
            penalties.append(weight * math.log2(top / hypothesis.confidence))
    return penalties


def _rank(
    nbest: Sequence[Hypothesis],
    trie: _Trie[T],
    vocab: Vocabulary | None,
    bound: float,
    weight: float = 0.25,
    floor: float = 0.0,
) -> list[tuple[T, float, Phrase, Phrase]]:
    best: dict[T, tuple[float, Phrase, Phrase]] = {}
    model = trie.model
    for hypothesis, penalty in zip(nbest, _penalties(nbest, weight, floor), strict=True):
        if penalty is None or penalty > bound:
            continue
        heard = clean(hypothesis.words, vocab)
        if not heard or (model.kinds and not any(word in model.kinds for word in heard)):
            continue  # nothing heard, or only words unrelated to moves
        for value, (cost, phrase) in trie.search(heard, bound - penalty).items():
            total = cost + penalty
            if value not in best or total < best[value][0]:
                best[value] = (total, phrase, heard)
    ranked = [(value, cost, phrase, heard) for value, (cost, phrase, heard) in best.items()]
    ranked.sort(key=lambda item: (item[1], len(item[2]), str(item[0])))
    return ranked


def rank_phrases(
    nbest: Sequence[Hypothesis],
    table: Mapping[Phrase, T],
    vocab: Vocabulary | None = None,
    bound: float = math.inf,
) -> list[tuple[T, float, Phrase]]:
    """Every value of ``table`` with its cheapest cost over the n-best list and the phrase that
    gave it, best first (the session matches command words with it too)."""
    trie = _Trie(table.items(), _WordModel.of(vocab))
    return [(value, cost, phrase) for value, cost, phrase, _ in _rank(nbest, trie, vocab, bound)]


def match_move(
    board: chess.Board,
    nbest: Sequence[Hypothesis],
    vocab: Vocabulary,
    thresholds: MatchingSettings,
    *,
    no_such_rank: bool = True,
) -> MatchResult:
    """Rank the legal moves by how well they fit what was heard and decide what to do.

    ACCEPT: the best costs at most ``accept_cost``, no rival is within ``ambiguity_margin`` and
    the recogniser's best hypothesis has at least ``accept_confidence`` (else it is asked back:
    a recogniser unsure of what it heard never has a move played silently).
    CONFIRM: one likely move (at most ``confirm_cost`` and a clear margin), or the only plausible
    one. CHOOSE: several plausible moves, at most ``max_choices``. REJECT: nothing costs at most
    ``reject_cost``, the words clearly name an illegal move (``refusal`` says why), or too many
    moves fit equally (``refusal`` asks for the whole move).
    """
    beyond = _no_such_rank(nbest, vocab, thresholds.min_confidence) if no_such_rank else None
    if beyond is not None:
        return MatchResult(Decision.REJECT, (), None, beyond)
    margin = thresholds.ambiguity_margin
    trie = _move_trie(phrase_table(board, vocab), vocab)

    def ranked_within(bound: float) -> list[tuple[chess.Move, float, Phrase, Phrase]]:
        weight, floor = thresholds.nbest_penalty, thresholds.min_confidence
        return _rank(nbest, trie, vocab, bound, weight, floor)

    # Clear speech is the common case: a tight bound finds it and every rival that matters
    # quickly; only when nothing is that good is the search widened to reject_cost.
    ranked = ranked_within(min(thresholds.reject_cost, thresholds.accept_cost + margin))
    if not ranked or ranked[0][1] > thresholds.accept_cost:
        ranked = ranked_within(thresholds.reject_cost)
    candidates = tuple(Candidate(move, cost, phrase) for move, cost, phrase, _ in ranked)
    heard = ranked[0][3] if ranked else ()
    listening = [h for h in nbest if h.confidence >= thresholds.min_confidence]
    shown = candidates[: thresholds.max_choices]  # for a REJECT: what came nearest
    if not candidates:
        return MatchResult(Decision.REJECT, (), None, _illegal_move(board, listening, vocab))
    best = candidates[0]
    if best.cost > thresholds.accept_cost:
        refusal = _illegal_move(board, listening, vocab)
        if refusal is not None:
            return MatchResult(Decision.REJECT, shown, None, refusal, heard)
    close = [c for c in candidates if c.cost <= best.cost + margin]
    sure = max((h.confidence for h in listening), default=0.0) >= thresholds.accept_confidence
    if len(close) == 1 and best.cost <= thresholds.accept_cost and sure:
        return MatchResult(Decision.ACCEPT, candidates[:1], best.move, None, heard)
    if len(close) == 1 and best.cost <= thresholds.confirm_cost:
        return MatchResult(Decision.CONFIRM, candidates[:1], best.move, None, heard)
    if len(close) > thresholds.max_choices:
        refusal = _too_vague(board, listening, vocab)
        return MatchResult(Decision.REJECT, shown, None, refusal, heard)
    offered = close if len(close) > 1 else list(candidates[: thresholds.max_choices])
    if len(offered) == 1:
        return MatchResult(Decision.CONFIRM, candidates[:1], best.move, None, heard)
    return MatchResult(Decision.CHOOSE, tuple(offered), None, None, heard)


def _no_such_rank(nbest: Sequence[Hypothesis], vocab: Vocabulary, floor: float) -> Refusal | None:
    """A file followed by a number that is no rank ("Eva neun", "Felix 0"), in the most
    confident hypothesis: "Eine Reihe neun gibt es nicht", where the nearest moves were
    offered or "Mehrere Züge passen" was said (a review). A rank word said otherwise, or a
    digit of a rank ("Eva 4"), is left to the matcher."""
    listening = [h for h in nbest if h.confidence >= floor]
    if not listening:
        return None
    words = vocab.normalize_words(max(listening, key=lambda h: h.confidence).words)
    for before, word in itertools.pairwise(words):
        if before not in vocab.file_words or word in vocab.rank_words:
            continue
        number = int(word) if word.isdigit() else None
        if word in vocab.number_words:
            number = vocab.number_words.index(word) + 1
        if number is None:  # "Eva null", "Eva zehn": no counting word, a number all the same
            number = _numbers_beyond(vocab).get(word)
        if number is None or 1 <= number <= len(vocab.rank_words):
            continue
        if 1 <= number <= len(vocab.number_words):
            said = vocab.number_words[number - 1]
        else:  # "0", "12": said as words, as every number the program says
            said = number_words(number, vocab.command_set) if number < 1000 else word
        ranks = vocab.rank_words
        params = {
            "rank": said,
            "first": vocab.display(ranks[:1]),
            "last": vocab.display(ranks[-1:]),
        }
        return Refusal("no_such_rank", params)
    return None


def _numbers_beyond(vocab: Vocabulary) -> dict[str, int]:
    """Nought and ten to twenty as one word each in the command set's language ("null",
    "zehn"), which no rank is: they were taken for the nearest rank ("Eva drei oder vier?")."""
    spoken = {n: vocab.normalize(number_words(n, vocab.command_set)) for n in (0, *range(10, 21))}
    return {words[0]: n for n, words in spoken.items() if len(words) == 1}


NOT_AN_ATTEMPT = frozenset(
    {"say_whole_move", "several_can_reach", "which_piece", "game_over", "no_such_rank"}
)
"""Refusals that name no illegal move (the words were too few, or fit several moves)."""


def guess_refusal(
    board: chess.Board, guess: str, vocab: Vocabulary, thresholds: MatchingSettings
) -> Refusal | None:
    """Why the move a free transcription names is illegal here ("Der König steht im
    Schach"), or None when it names a legal move, a command, too little, or nothing clear.

    The recogniser listens for the position's legal moves only, so an illegal move said
    clearly would otherwise only ever be "Nicht verstanden" (6.5 of docs/rules.md)."""
    words = vocab.normalize(guess)
    if not words or read_command(words, vocab, numbers=False) is not None:
        return None
    result = match_move(board, [Hypothesis(words, 1.0)], vocab, thresholds)
    refusal = result.refusal
    if result.decision != Decision.REJECT or refusal is None:
        return None
    return None if refusal.reason in NOT_AN_ATTEMPT else refusal


def _top_intent(
    board: chess.Board, nbest: Sequence[Hypothesis], vocab: Vocabulary
) -> MoveIntent | None:
    if not nbest:
        return None
    top = max(nbest, key=lambda h: h.confidence)
    return parse_intent(vocab.normalize_words(top.words), vocab)


def _too_vague(board: chess.Board, nbest: Sequence[Hypothesis], vocab: Vocabulary) -> Refusal:
    """More moves fit than can be offered: say which pieces compete, or ask for the whole move."""
    intent = _top_intent(board, nbest, vocab)
    if intent is not None and len(intent_moves(board, intent)) > 1:
        return explain_refusal(board, intent, vocab)
    return Refusal("say_whole_move")


def _illegal_move(
    board: chess.Board, nbest: Sequence[Hypothesis], vocab: Vocabulary
) -> Refusal | None:
    """Why the most confident hypothesis, read as a move, is not legal; None if it is not a
    well-formed move or is legal."""
    intent = _top_intent(board, nbest, vocab)
    if intent is None or intent_moves(board, intent):
        return None
    return explain_refusal(board, intent, vocab)
