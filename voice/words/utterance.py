"""What a blind player's utterance asks for when it is not (only) a move.

The session first looks for a command here ("Zeit", "wo ist der Springer", "letzte drei Züge",
"zwei" while candidates are offered, "Remis Springer Felix drei" as a claim with an intended
move) and hands everything else to the move matcher. Commands are read from canonical tokens
(:meth:`voice.words.vocabulary.Vocabulary.normalize`), so spelling variants never matter here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import chess

from voice.words.explore_words import read_explore
from voice.words.vocabulary import FILLER_WORDS, PIECE_WORDS, Phrase, Vocabulary

# Piece names in "wo ist der Springer" / "wo sind die Bauern": the Appendix D words of the
# vocabulary and their plurals, and (only in this request, which names no square) the English
# names, so that "where are the pawns" works with the English command set too.
_PIECE_BY_WORD: Mapping[str, chess.PieceType] = {
    **{word: piece for piece, word in PIECE_WORDS.items()},
    "bauern": chess.PAWN,
    "türme": chess.ROOK,
    "damen": chess.QUEEN,
    "könige": chess.KING,
    **{chess.piece_name(piece): piece for piece in chess.PIECE_TYPES},
    **{chess.piece_name(piece) + "s": piece for piece in chess.PIECE_TYPES},
}

Heard = tuple[tuple[str, float], ...]
"""What one input produced: alternatives with confidences, best first (empty: nothing usable).
Here, below both, because typed lines (:mod:`voice.runtime.text_input`) and recognised speech
(:mod:`voice.speech.speech_input`) produce it alike."""

_LAST_WORDS = frozenset({"letzte", "letzten", "last"})
_MOVES_WORDS = frozenset({"züge", "zug", "moves", "move"})


@dataclass(frozen=True)
class Command:
    """A command id from :data:`voice.words.vocabulary.COMMAND_WORDS` (or
    ``choice``/``last_moves``).

    ``piece`` goes with ``where``; ``count`` with ``choice`` (1-based) and ``last_moves``;
    ``rest`` with ``draw`` when a move follows (a claim naming the intended move, 9.2.1.1);
    ``squares`` with the requests that explore the board (:mod:`voice.words.explore_words`).
    """

    name: str
    piece: chess.PieceType | None = None
    count: int | None = None
    rest: Phrase = ()
    squares: tuple[chess.Square, ...] = ()


def strip_fillers(phrase: Phrase) -> Phrase:
    """Drop the words that carry no meaning ("wo ist der Springer" → wo ist Springer)."""
    return tuple(word for word in phrase if word not in FILLER_WORDS)


def _number(word: str, vocab: Vocabulary) -> int | None:
    if word.isdigit():
        return int(word)
    if word in vocab.number_words:
        return vocab.number_words.index(word) + 1
    return None


def read_command(phrase: Phrase, vocab: Vocabulary, *, numbers: bool = False) -> Command | None:
    """The command ``phrase`` asks for exactly, or ``None`` when it is not a command.

    ``numbers`` is true while candidates are offered: then "zwei" chooses the second one
    (otherwise a lone number word is a rank word and means nothing by itself).

    >>> read_command(("wo", "ist", "der", "springer"), Vocabulary.default()).piece
    2
    """
    exact = vocab.command_for(phrase)
    if exact is not None:
        return Command(exact)
    words = strip_fillers(phrase)
    if not words:
        return None
    exact = vocab.command_for(words)
    if exact is not None:
        return Command(exact)
    if numbers and len(words) == 1:
        number = _number(words[0], vocab)
        if number is not None:
            return Command("choice", count=number)
    explore = read_explore(words, vocab)
    if explore is not None:
        name, squares, piece = explore
        return Command(name, piece=piece, squares=squares)
    for where in vocab.commands.get("where", ()):
        size = len(where)
        if words[:size] == where and len(words) == size + 1 and words[size] in _PIECE_BY_WORD:
            return Command("where", piece=_PIECE_BY_WORD[words[size]])
    if len(words) == 3 and words[0] in _LAST_WORDS and words[2] in _MOVES_WORDS:
        count = _number(words[1], vocab)
        if count is not None and count > 0:
            return Command("last_moves", count=count)
    for draw in vocab.commands.get("draw", ()):
        if words[: len(draw)] == draw and len(words) > len(draw):
            return Command("draw", rest=words[len(draw) :])
    return None


def command_table(vocab: Vocabulary, *, numbers: bool) -> dict[Phrase, Command]:
    """Every plain command phrase, for fuzzy matching of a misheard command word."""
    table: dict[Phrase, Command] = {}
    for name, phrases in vocab.commands.items():
        for phrase in phrases:
            table[phrase] = Command(name)
    if numbers:
        for index, word in enumerate(vocab.number_words):
            table[(word,)] = Command("choice", count=index + 1)
    return table
