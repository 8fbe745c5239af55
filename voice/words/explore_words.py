"""The words of the requests that explore the board: a line, one square, attacks, moves, material.

"Linie Eva", "Reihe vier", "Diagonale Anna eins Hector acht" (or "Diagonale Cesar eins"), "was
steht auf David fünf", "wer greift David fünf an", "wer deckt David fünf", "wohin kann der
Springer auf Gustav eins" (or "Springer Gustav eins wohin"), "Material"; the English command set
says "file Eva", "rank vier", "diagonal …", "what is on …", "who attacks …", "who defends …",
"where can the Springer on Gustav eins go", "material". Every one begins (or, for "wohin", ends)
with a command word that no move contains, so "Eva vier" stays a move and "Linie Eva" a request.

This module reads those words (:func:`read_explore`) and lists the phrases a recogniser should
expect for them (:func:`explore_phrases`); :mod:`voice.game.explore` answers them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import chess

from voice.words.vocabulary import PIECE_WORDS, Phrase, Vocabulary

EXPLORE_COMMANDS: tuple[str, ...] = (
    "file",
    "rank",
    "diagonal",
    "square",
    "attackers",
    "defenders",
    "destinations",
    "material",
)
"""Command ids of the exploring requests (their words are in ``COMMAND_WORDS``)."""

# "wo ist der Springer", "wo sind die Bauern": the piece words with the article one says.
WHERE_ARTICLES = {
    "könig": "der",
    "dame": "die",
    "turm": "der",
    "läufer": "der",
    "springer": "der",
    "bauer": "der",
    "könige": "die",
    "damen": "die",
    "türme": "die",
    "bauern": "die",
}
_WHERE_PIECES = tuple(WHERE_ARTICLES)


def where_phrases(vocab: Vocabulary) -> frozenset[Phrase]:
    """ "wo ist Springer", "wo ist der Springer": the "where" request with each piece word,
    with or without its article, as the game listens for it."""
    return frozenset(
        phrase
        for where in vocab.commands.get("where", ())
        for word in _WHERE_PIECES
        for phrase in ((*where, word), (*where, WHERE_ARTICLES[word], word))
    )


DESCRIBING: frozenset[str] = frozenset({"file", "rank", "diagonal", "square"})
"""Requests that describe the board as it stands, like the position read-out."""

ANALYSING: frozenset[str] = frozenset({"attackers", "defenders", "destinations", "material"})
"""Requests that analyse it for the player: analysis aids, not allowed during a tournament game
(FIDE 11.3.1)."""

# Words a speaker puts inside these requests that carry no meaning for them ("wer greift David
# fünf an", "wohin kann der Springer", "where can the Springer on Gustav eins go").
_OPTIONAL = frozenset({"an", "kann", "can", "on", "go", "is", "of", "ziehen", "gehen", "hin"})

# The request phrases a recogniser expects, per command set: the words before the square(s)
# and after it (the commands' own words come from the vocabulary).
_AROUND: Mapping[str, Mapping[str, tuple[Phrase, Phrase]]] = {
    "de": {
        "square": (("auf",), ()),
        "attackers": ((), ("an",)),
        "defenders": ((), ()),
    },
    "en": {
        "square": ((), ()),
        "attackers": ((), ()),
        "defenders": ((), ()),
    },
}


def _square(words: Phrase, vocab: Vocabulary) -> chess.Square | None:
    if len(words) != 2 or words[0] not in vocab.file_words or words[1] not in vocab.rank_words:
        return None
    return chess.square(vocab.file_words.index(words[0]), vocab.rank_words.index(words[1]))


def _prefix(name: str, words: Phrase, vocab: Vocabulary) -> Phrase | None:
    """The words after the command's own words, when ``words`` begins with them."""
    for phrase in vocab.commands.get(name, ()):
        if words[: len(phrase)] == phrase:
            return words[len(phrase) :]
    return None


def _suffix(name: str, words: Phrase, vocab: Vocabulary) -> Phrase | None:
    """The words before the command's own words, when ``words`` ends with them ("… wohin")."""
    for phrase in vocab.commands.get(name, ()):
        if len(words) > len(phrase) and words[-len(phrase) :] == phrase:
            return words[: -len(phrase)]
    return None


def read_explore(
    words: Phrase, vocab: Vocabulary
) -> tuple[str, tuple[chess.Square, ...], chess.PieceType | None] | None:
    """(command id, the squares named, the piece named) of an exploring request, or None.

    ``words`` are canonical tokens without fillers. A request without its square ("Linie"),
    or with words that name none ("Linie vier"), comes back with no squares, so that the answer
    can ask for one rather than the words being taken for a move.
    """
    for name in EXPLORE_COMMANDS:
        rest = _prefix(name, words, vocab)
        if rest is None and name == "destinations":
            rest = _suffix(name, words, vocab)
        if rest is None:
            continue
        rest = tuple(word for word in rest if word not in _OPTIONAL)
        squares, piece = _arguments(name, rest, vocab) or ((), None)
        return name, squares, piece
    return None


def _arguments(
    name: str, rest: Phrase, vocab: Vocabulary
) -> tuple[tuple[chess.Square, ...], chess.PieceType | None] | None:
    if name == "file" and len(rest) == 1 and rest[0] in vocab.file_words:
        return (chess.square(vocab.file_words.index(rest[0]), 0),), None
    if name == "rank" and len(rest) == 1 and rest[0] in vocab.rank_words:
        return (chess.square(0, vocab.rank_words.index(rest[0])),), None
    if name == "diagonal" and len(rest) in (2, 4):
        squares = [_square(rest[i : i + 2], vocab) for i in range(0, len(rest), 2)]
        if all(sq is not None for sq in squares):
            return tuple(sq for sq in squares if sq is not None), None
        return None
    if name == "destinations" and len(rest) == 3 and rest[0] in _PIECES:
        square = _square(rest[1:], vocab)
        return None if square is None else ((square,), _PIECES[rest[0]])
    if name in ("square", "attackers", "defenders", "destinations"):
        square = _square(rest, vocab)
        return None if square is None else ((square,), None)
    return None


_PIECES: Mapping[str, chess.PieceType] = {word: piece for piece, word in PIECE_WORDS.items()}
_ARTICLES: Mapping[str, str] = {"dame": "die"}


def example(
    name: str,
    vocab: Vocabulary,
    square: chess.Square | None = None,
    board: chess.Board | None = None,
) -> str:
    """A whole request as the player says it, about ``square`` on ``board`` (the piece that
    stands there) or about an example square: for help, for "which square?" and for the
    arbiter's log."""
    squares = dict(_EXAMPLE_SQUARES)
    if square is not None:
        squares[name] = square
    phrase = next(_phrases(name, vocab, board or _EXAMPLE_BOARD, only=squares), None)
    if phrase is None:  # "wohin" about an empty square
        phrase = (*vocab.commands[name][0], *vocab.square_words(squares[name]))
    return vocab.display(phrase)


_EXAMPLE_BOARD = chess.Board()
_EXAMPLE_SQUARES = {
    "file": chess.E1,
    "rank": chess.A4,
    "diagonal": chess.C1,
    "square": chess.D5,
    "attackers": chess.D5,
    "defenders": chess.D5,
    "destinations": chess.G1,
    "material": chess.A1,
}


def explore_phrases(board: chess.Board, vocab: Vocabulary) -> frozenset[Phrase]:
    """Every exploring request a recogniser should expect in this position, in the words the
    player says them (with "auf", "an", "kann der" where German puts them)."""
    return frozenset(phrase for name in EXPLORE_COMMANDS for phrase in _phrases(name, vocab, board))


def every_explore_phrase(vocab: Vocabulary) -> frozenset[Phrase]:
    """The exploring requests of every position: "wohin" with any piece on any square."""
    board = chess.Board(None)
    phrases = set(explore_phrases(board, vocab))
    for piece in PIECE_WORDS:
        for square in chess.SQUARES:
            board.set_piece_at(square, chess.Piece(piece, chess.WHITE))
        phrases |= set(_phrases("destinations", vocab, board))
    return frozenset(phrases)


def _phrases(
    name: str,
    vocab: Vocabulary,
    board: chess.Board,
    only: Mapping[str, chess.Square] | None = None,
) -> Iterator[Phrase]:
    commands = vocab.commands.get(name, ())
    if not commands:
        return
    head = commands[0]
    squares = [only[name]] if only is not None else list(chess.SQUARES)
    if name == "material":
        yield head
    elif name == "file":
        for file in sorted({chess.square_file(square) for square in squares}):
            yield (*head, vocab.file_words[file])
    elif name == "rank":
        for rank in sorted({chess.square_rank(square) for square in squares}):
            yield (*head, vocab.rank_words[rank])
    elif name == "diagonal":
        for square in squares:
            yield (*head, *vocab.square_words(square))
        if only is None:
            for start, end in diagonal_ends():
                yield (*head, *vocab.square_words(start), *vocab.square_words(end))
                yield (*head, *vocab.square_words(end), *vocab.square_words(start))
    elif name == "destinations":
        for square in squares:
            piece = board.piece_type_at(square)
            if piece is None:
                continue
            word = PIECE_WORDS[piece]
            if vocab.command_set == "de":
                article = _ARTICLES.get(word, "der")
                yield (word, *vocab.square_words(square), *head)
                yield (*head, "kann", article, word, "auf", *vocab.square_words(square))
            else:
                yield (*head, "the", word, "on", *vocab.square_words(square), "go")
    else:
        before, after = _AROUND[vocab.command_set][name]
        for square in squares:
            yield (*head, *before, *vocab.square_words(square), *after)


def diagonal_ends() -> list[tuple[chess.Square, chess.Square]]:
    """The two end squares of every diagonal of two squares or more, the end nearer White's
    side first."""
    ends = []
    for square in chess.SQUARES:
        for step in (9, 7):  # up and right, up and left
            line = diagonal_from(square, step)
            if len(line) >= 2 and _is_start(square, step):
                ends.append((line[0], line[-1]))
    return ends


def _is_start(square: chess.Square, step: int) -> bool:
    """Whether no square lies before ``square`` on its diagonal in the direction ``step``."""
    return len(diagonal_from(square, -step)) == 1


def diagonal_from(square: chess.Square, step: int) -> list[chess.Square]:
    """``square`` and the squares after it on its diagonal in direction ``step`` (±7, ±9)."""
    line = [square]
    file_step = 1 if step in (9, -7) else -1
    while True:
        last = line[-1]
        file = chess.square_file(last) + file_step
        rank = chess.square_rank(last) + (1 if step > 0 else -1)
        if not (0 <= file < 8 and 0 <= rank < 8):
            return line
        line.append(chess.square(file, rank))


def explore_only_words(vocab: Vocabulary) -> frozenset[str]:
    """The words only the exploring requests use ("linie", "greift", …): a recogniser whose
    model lacks one can still hear moves and the other commands."""
    other = {
        word
        for name, phrases in vocab.commands.items()
        if name not in EXPLORE_COMMANDS
        for phrase in phrases
        for word in phrase
    }
    mine = {
        word
        for name in EXPLORE_COMMANDS
        for phrase in vocab.commands.get(name, ())
        for word in phrase
    }
    return frozenset(mine - other - vocab.move_words())


EXPLORE_WORDS: Mapping[str, frozenset[str]] = {
    "de": frozenset({"auf", "an", "kann", "der", "die"}),
    "en": frozenset({"the", "on", "go"}),
}
"""Words inside the request phrases that are not command words (the recogniser must know them)."""
