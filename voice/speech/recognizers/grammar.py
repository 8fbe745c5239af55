"""What the recogniser may hear now, as a word graph (PocketSphinx) or a word list (Vosk).

A position's phrase table holds hundreds of phrases (every legal move in every accepted form).
Listing them as alternatives makes a large grammar that is slow to search; most of them share
beginnings ("Springer Felix ...") and endings ("... Anna acht Dame"). :func:`word_graph` folds
them into a minimal acyclic graph: a prefix tree whose identical sub-trees are merged, so each
word of each position is searched once.

"Schach"/"matt" are part of the phrase set where they are true (after a move that gives check
or mate, :meth:`voice.words.phrases.PhraseTable.with_check_words`); the matcher ignores them.
:func:`word_graph` can still let them follow every phrase (``trailing``), as Vosk's word list
does; PocketSphinx does not, so they cannot explain the end of an unrelated sentence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import chess

from voice.words.explore_words import EXPLORE_COMMANDS, explore_phrases, where_phrases
from voice.words.phrases import phrase_table
from voice.words.vocabulary import ANSWER_COMMANDS, CHECK_WORD, MATE_WORD, Phrase, Vocabulary

TRAILING_WORDS: tuple[str, ...] = (CHECK_WORD, MATE_WORD)
"""Words that may end any phrase without changing it."""


@dataclass(frozen=True)
class WordGraph:
    """An acyclic word graph: ``transitions`` are ``(from, to, word)``; ``word`` None is an
    empty step. Every path from ``start`` to ``final`` spells one allowed phrase."""

    start: int
    final: int
    transitions: tuple[tuple[int, int, str | None], ...]

    def words(self) -> frozenset[str]:
        return frozenset(word for _, _, word in self.transitions if word is not None)


def word_graph(
    phrases: Iterable[Phrase],
    trailing: Iterable[str] = TRAILING_WORDS,
    plain: Iterable[Phrase] = (),
) -> WordGraph:
    """The minimal graph of ``phrases``, each optionally followed by one ``trailing`` word,
    except the ``plain`` ones (commands: "ja Schach" means nothing)."""
    # 1. A prefix tree; node 0 is the root; ``ends`` maps the nodes where a phrase is complete
    #    to whether a trailing word may follow.
    children: list[dict[str, int]] = [{}]
    ends: dict[int, bool] = {}
    no_trailing = frozenset(plain)
    for phrase in sorted(set(phrases)):  # sorted: the same graph in every process
        if not phrase:
            continue
        node = 0
        for word in phrase:
            nxt = children[node].get(word)
            if nxt is None:
                nxt = len(children)
                children[node][word] = nxt
                children.append({})
            node = nxt
        ends[node] = ends.get(node, False) or phrase not in no_trailing
    # 2. Merge equal sub-trees (same completion and same labelled children), leaves up.
    #    Completion: None (not complete here), False (complete, plain), True (trailing allowed).
    Signature = tuple[bool | None, tuple[tuple[str, int], ...]]
    signature_ids: dict[Signature, int] = {}
    canonical: dict[int, int] = {}

    def visit(node: int) -> int:
        # Iterative post-order would avoid recursion, but phrases are at most ~10 words deep.
        kids = tuple(sorted((word, visit(child)) for word, child in children[node].items()))
        signature: Signature = (ends.get(node), kids)
        merged = signature_ids.setdefault(signature, len(signature_ids) + 2)
        canonical[node] = merged
        return merged

    root = visit(0)
    # 3. Emit: merged ids start at 2; 0 = start, 1 = final (after the optional trailing word).
    done: set[int] = set()
    transitions: list[tuple[int, int, str | None]] = [(0, root, None)]
    before_trailing = len(signature_ids) + 2
    for signature, state in signature_ids.items():
        if state in done:
            continue
        done.add(state)
        complete, kids = signature
        for word, child in kids:
            transitions.append((state, child, word))
        if complete:
            transitions.append((state, before_trailing, None))
        elif complete is False:
            transitions.append((state, 1, None))
    trailing_words = tuple(trailing)
    transitions.append((before_trailing, 1, None))
    for word in trailing_words:
        transitions.append((before_trailing, 1, word))
    return WordGraph(0, 1, tuple(transitions))


def jsgf(phrases: Iterable[Phrase], trailing: Iterable[str] = TRAILING_WORDS) -> str:
    """The same language as a JSGF grammar text (readable; for tools and for checking)."""
    alternatives = " | ".join(
        f"( {' '.join(phrase)} )" for phrase in sorted(set(phrases)) if phrase
    )
    tail = " | ".join(trailing)
    rule = f"( {alternatives} )" + (f" [ {tail} ]" if tail else "")
    return f"#JSGF V1.0;\ngrammar chess;\npublic <utterance> = {rule};\n"


def word_list(phrases: Iterable[Phrase], trailing: Iterable[str] = TRAILING_WORDS) -> list[str]:
    """Every word of ``phrases`` (and the trailing words), sorted: a Vosk grammar."""
    return sorted({word for phrase in phrases for word in phrase} | set(trailing))


def command_phrases(vocab: Vocabulary, *, answers: bool = True) -> frozenset[Phrase]:
    """Every command phrase of the vocabulary's command set (docs/rules.md §7), except the bare
    beginnings of the requests that explore the board ("Linie", "wer deckt"): those are
    listened for whole (:func:`voice.words.explore_words.explore_phrases`); alone in the grammar,
    they won over the whole request ("Linie Eva" heard as "Linie"). ``answers=False`` leaves
    out the answers and take-backs (:data:`~voice.words.vocabulary.ANSWER_COMMANDS`), as the
    game does while nothing is asked."""
    return frozenset(
        phrase
        for name, phrases in vocab.commands.items()
        if name not in EXPLORE_COMMANDS and (answers or name not in ANSWER_COMMANDS)
        for phrase in phrases
    )


def position_phrases(
    board: chess.Board, vocab: Vocabulary, *, commands: bool = True
) -> frozenset[Phrase]:
    """What the blind player may say on their turn while nothing is asked: every legal move's
    phrases plus, unless ``commands`` is False, the requests and those that explore the board
    (the same set as :meth:`voice.game.session.GameSession.phrases_now`, which adds the answers
    while a question is open, numbers while choices are offered and, with
    ``repeat_back_check``, the opponent's last move while it may be repeated back). The
    benchmarks and ``voice-chess recognize`` listen for this, so that they hear as the game
    does on a player's turn."""
    phrases = set(phrase_table(board, vocab).with_check_words())
    if commands:
        phrases |= command_phrases(vocab, answers=False) | explore_phrases(board, vocab)
        phrases |= where_phrases(vocab)
    return frozenset(phrases)
