"""Legal moves ⇄ Appendix D words (docs/rules.md §1, §5, §6.3).

For one position every legal move gets all the word sequences a player may use for it:
``[Figur] [Ausgangsfeld | -linie | -reihe] [schlägt | nimmt] Zielfeld [Umwandlungsfigur]
[en passant]``, pawn moves with or without "Bauer", the long form with the full departure square
always, "Kurze/Lange Rochade" and "König Gustav eins". A short form that two legal moves share is
simply left out, so every phrase in a :class:`PhraseTable` names exactly one move; the canonical
form (the one the program says) carries exactly the disambiguation SAN needs. "Schach"/"matt" are
never part of a table phrase: saying them is optional and costs nothing when matching.

The reverse direction, :func:`parse_intent`, reads words without looking at the board, so that
:func:`explain_refusal` can tell the player *why* what they said is not a legal move.

Pure: python-chess and the vocabulary only (the message catalogue is read only to word a refusal).
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType
from typing import Literal

import chess

from voice.resources import speech_models_dir
from voice.words.vocabulary import (
    CAPTURE_WORDS,
    CHECK_WORD,
    EN_PASSANT,
    FILLER_WORDS,
    LONG_CASTLING,
    MATE_WORD,
    PIECE_WORDS,
    PROMOTION_WORDS,
    SHORT_CASTLING,
    NamedMoves,
    Phrase,
    Vocabulary,
)

CAPTURE_WORD = CAPTURE_WORDS[0]
"""The capture word the program itself says ("schlägt")."""
PAWN_WORD = PIECE_WORDS[chess.PAWN]
KING_WORD = PIECE_WORDS[chess.KING]
FREE_WORDS: frozenset[str] = frozenset({CHECK_WORD, MATE_WORD})
"""Words that may end any move and carry no information for choosing it."""
WORD_PIECES: Mapping[str, chess.PieceType] = {word: piece for piece, word in PIECE_WORDS.items()}
PROMOTION_PIECES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

Castling = Literal["short", "long"]


# -- from a move to words -------------------------------------------------------------------


class PhraseTable:
    """All spoken forms of all legal moves of one position.

    ``phrases`` maps every acceptable phrase (no check/mate word) to its move; by construction no
    phrase maps to two moves. ``forms(move)`` lists a move's phrases, canonical first.
    """

    def __init__(
        self,
        forms: Mapping[chess.Move, tuple[Phrase, ...]],
        suffixes: Mapping[chess.Move, Phrase] | None = None,
    ) -> None:
        self._forms = dict(forms)
        self._suffixes = dict(suffixes or {})
        self.phrases: Mapping[Phrase, chess.Move] = {
            phrase: move for move, phrases in self._forms.items() for phrase in phrases
        }
        self._words = frozenset(word for phrase in self.phrases for word in phrase) | FREE_WORDS
        self._named: NamedMoves | None = None

    def forms(self, move: chess.Move) -> list[Phrase]:
        return list(self._forms.get(move, ()))

    def moves(self) -> list[chess.Move]:
        return list(self._forms)

    def suffix(self, move: chess.Move) -> Phrase:
        """("schach",) after a move that gives check, ("matt",) after a mate, else ()."""
        return self._suffixes.get(move, ())

    def with_check_words(self, move: chess.Move | None = None) -> frozenset[Phrase]:
        """What a player may say for the moves (all, or only ``move``), for the recogniser's
        grammar: every phrase, and after a move that gives check also "... Schach", after a
        mate "... matt", "... Schach" and "... Schach matt".

        Only where it is true: a check word after a quiet move gave the recogniser a way to
        explain the end of an unrelated sentence ("... leider aus" heard as "Anna eins Anna
        drei matt")."""
        moves = self._forms if move is None else {move: self._forms.get(move, ())}
        spoken: set[Phrase] = set()
        for each, phrases in moves.items():
            suffix = self.suffix(each)
            tails: tuple[Phrase, ...] = ((),)
            if suffix == (CHECK_WORD,):
                tails = ((), suffix)
            elif suffix == (MATE_WORD,):
                tails = ((), suffix, (CHECK_WORD,), (CHECK_WORD, MATE_WORD))
            spoken.update((*phrase, *tail) for phrase in phrases for tail in tails)
        return frozenset(spoken)

    def named_moves(self) -> NamedMoves:
        """Every phrase of :meth:`with_check_words` with the move it names (what a recogniser
        needs to know which of its candidates are one move)."""
        if self._named is None:  # the table is shared between threads: it is never changed
            self._named = MappingProxyType(
                {
                    phrase: self.phrases[without_check_words(phrase)]
                    for phrase in self.with_check_words()
                }
            )
        return self._named

    def move_named(self, phrase: Phrase) -> chess.Move | None:
        """The move a phrase of :meth:`with_check_words` names ("Dame Bella fünf Schach" names
        the move of "Dame Bella fünf"), or None. The check and mate words say nothing more
        about the move; a tool that looks the phrase up in :attr:`phrases` alone takes a right
        hearing of a checking move for a wrong one."""
        return self.phrases.get(without_check_words(phrase))

    def words(self) -> frozenset[str]:
        """Every token used, plus "schach"/"matt" (for recogniser word lists and grammars)."""
        return self._words

    def __len__(self) -> int:
        return len(self.phrases)


def without_check_words(phrase: Phrase) -> Phrase:
    """The phrase without the check and mate words at its end ("… Schach", "… matt", "… Schach
    matt"): they say nothing more about the move (FIDE Appendix D announces the move, not the
    check), so every tool that asks "which move is this?" must drop all of them alike."""
    while phrase and phrase[-1] in (CHECK_WORD, MATE_WORD):
        phrase = phrase[:-1]
    return phrase


def _square(vocab: Vocabulary, square: chess.Square) -> Phrase:
    return vocab.square_words(square)


def _piece_forms(
    board: chess.Board, move: chess.Move, vocab: Vocabulary, rivals: list[chess.Square]
) -> list[Phrase]:
    """Forms of a king, queen, rook, bishop or knight move (no castling); canonical first."""
    origin = move.from_square
    piece = board.piece_type_at(origin) or chess.PAWN
    piece_word = PIECE_WORDS[piece]
    file_word = vocab.file_words[chess.square_file(origin)]
    rank_word = vocab.rank_words[chess.square_rank(origin)]
    # SAN's rule (python-chess `_algebraic_without_suffix`): file, else rank, else both.
    by_file = any(chess.square_rank(r) == chess.square_rank(origin) for r in rivals)
    by_rank = any(chess.square_file(r) == chess.square_file(origin) for r in rivals)
    if rivals and not by_rank:
        by_file = True
    canonical_origin: Phrase = (file_word,) * by_file + (rank_word,) * by_rank
    origins: list[Phrase] = [canonical_origin]
    # Beside SAN's own: no origin, the file (a common habit, needed or not) and the whole
    # square (long algebraic). Not a rank alone where SAN does not ask for it, nor half of a
    # king's square: no one says them, and each is one more phrase a misheard move can land
    # on ("König zwei Eva eins" was played for "Turm Hector Eva eins", session 15).
    extras: tuple[Phrase, ...] = ((), (file_word,), (file_word, rank_word))
    if piece == chess.KING:
        extras = ((), (file_word, rank_word))
    for extra in extras:
        if extra not in origins:
            origins.append(extra)
    captures: list[Phrase] = [(CAPTURE_WORD,), *((w,) for w in CAPTURE_WORDS[1:]), ()]
    if not board.is_capture(move):
        captures = [()]
    target = _square(vocab, move.to_square)
    forms = [(piece_word, *o, *c, *target) for o in origins for c in captures]
    # The coordinate form without a piece word ("Gustav eins Felix drei") is unambiguous too.
    forms.extend((file_word, rank_word, *c, *target) for c in captures)
    return forms


def _castling_forms(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> list[Phrase]:
    short = board.is_kingside_castling(move)
    rank = chess.square_rank(move.from_square)
    destination = chess.square(6 if short else 2, rank)
    origin, target = _square(vocab, move.from_square), _square(vocab, destination)
    return [
        SHORT_CASTLING if short else LONG_CASTLING,
        (KING_WORD, *target),
        (KING_WORD, *origin, *target),
        (*origin, *target),
    ]


def _pawn_forms(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> list[Phrase]:
    origin = _square(vocab, move.from_square)
    target = _square(vocab, move.to_square)
    tails: list[Phrase] = [()]
    if move.promotion:
        piece = PIECE_WORDS[move.promotion]
        tails = [(piece,), *((w, piece) for w in PROMOTION_WORDS)]
    if board.is_en_passant(move):
        tails = [(*EN_PASSANT,), ()]
    bodies: list[Phrase]
    if board.is_capture(move):
        captures: list[Phrase] = [(CAPTURE_WORD,), *((w,) for w in CAPTURE_WORDS[1:]), ()]
        bodies = [(origin[0], *c, *target) for c in captures]
        bodies += [(*origin, *c, *target) for c in captures]
        bodies += [(PAWN_WORD, origin[0], *c, *target) for c in captures]
        bodies += [(PAWN_WORD, *origin, *c, *target) for c in captures]
        bodies += [(PAWN_WORD, *c, *target) for c in captures]
    else:
        bodies = [target, (*origin, *target), (PAWN_WORD, *target), (PAWN_WORD, *origin, *target)]
    return [(*body, *tail) for body in bodies for tail in tails]


def _all_forms(board: chess.Board, vocab: Vocabulary) -> dict[chess.Move, list[Phrase]]:
    legal = list(board.legal_moves)
    destinations: dict[tuple[chess.PieceType, chess.Square], list[chess.Square]] = {}
    for move in legal:
        piece = board.piece_type_at(move.from_square)
        if piece is not None and piece != chess.PAWN:
            destinations.setdefault((piece, move.to_square), []).append(move.from_square)
    forms: dict[chess.Move, list[Phrase]] = {}
    for move in legal:
        piece = board.piece_type_at(move.from_square)
        if board.is_castling(move):
            forms[move] = _castling_forms(board, move, vocab)
        elif piece == chess.PAWN:
            forms[move] = _pawn_forms(board, move, vocab)
        else:
            assert piece is not None
            rivals = [s for s in destinations[(piece, move.to_square)] if s != move.from_square]
            forms[move] = _piece_forms(board, move, vocab, rivals)
    return forms


def _build_table(board: chess.Board, vocab: Vocabulary) -> PhraseTable:
    """Keep each move's canonical form (unique, as SAN is) and every other form that no other
    move shares. A canonical form wins over another move's variant ("König Gustav eins" is Kg1,
    not Chess960 castling, when both exist)."""
    candidates = _all_forms(board, vocab)
    canonical: dict[Phrase, chess.Move] = {}
    for move, phrases in candidates.items():
        if canonical.setdefault(phrases[0], move) != move:
            raise AssertionError(f"two moves are both said {phrases[0]}")
    owners: dict[Phrase, chess.Move | None] = dict(canonical)
    for move, phrases in candidates.items():
        for phrase in phrases[1:]:
            if phrase not in canonical:
                owner = owners.setdefault(phrase, move)
                owners[phrase] = move if owner == move else None
    unique = {
        move: tuple(dict.fromkeys(p for p in phrases if owners[p] == move))
        for move, phrases in candidates.items()
    }
    return PhraseTable(unique, {move: _suffix(board, move) for move in unique})


_CACHE: OrderedDict[tuple[object, ...], PhraseTable] = OrderedDict()
_CACHE_SIZE = 64
_CACHE_LOCK = threading.Lock()  # the recogniser's thread builds grammars from it too


def phrase_table(board: chess.Board, vocab: Vocabulary) -> PhraseTable:
    """The phrase table of ``board``'s position (cached: the session, the recogniser's grammar
    and the matcher all ask for the same position)."""
    key = (board.epd(), board.chess960, vocab.file_words, vocab.rank_words)
    with _CACHE_LOCK:
        table = _CACHE.get(key)
        if table is not None:
            _CACHE.move_to_end(key)
            return table
    table = _build_table(board, vocab)
    with _CACHE_LOCK:
        table = _CACHE.setdefault(key, table)
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return table


def _suffix(board: chess.Board, move: chess.Move) -> Phrase:
    if not board.gives_check(move):
        return ()
    board.push(move)
    try:
        return (MATE_WORD,) if board.is_checkmate() else (CHECK_WORD,)
    finally:
        board.pop()


def spoken_forms(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> list[Phrase]:
    """Every accepted spoken form of a legal move; the first is what the program says (with
    "schach"/"matt" when the move gives check or mate), the others carry no check word."""
    table = phrase_table(board, vocab)
    forms = table.forms(move)
    if not forms:
        raise ValueError(f"{move.uci()} is not a legal move in {board.fen()}")
    suffix = table.suffix(move)
    return [(*forms[0], *suffix), *forms[1:]] if suffix else forms


def render_move(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> str:
    """Display text of the canonical form: "Springer Felix drei", "Dame schlägt Hector sieben
    matt", "Eva acht Dame", "Eva schlägt David sechs en passant", "Kurze Rochade"."""
    return vocab.display(spoken_forms(board, move, vocab)[0])


# -- speech respelling ----------------------------------------------------------------------

# espeak-ng mispronounces some Appendix D words (the German voice reads "Cesar" as "Kesar";
# the Arabic, Persian and Hebrew voices need the words in their own script, the Hebrew one with
# vowel points). speech_models/respellings.toml holds one table per voice, each entry with the
# phonemes it was checked against; this is its only reader.
_COMBINING_MARKS = "\u0591-\u05c7\u0610-\u061a\u064b-\u065f"


@cache
def _respellings() -> dict[str, dict[str, str]]:
    with (speech_models_dir() / "respellings.toml").open("rb") as handle:
        tables: dict[str, dict[str, str]] = tomllib.load(handle)
    return tables


@cache
def _respelling_pattern(language: str) -> re.Pattern[str] | None:
    table = _respellings().get(language)
    if not table:
        return None
    keys = sorted(table, key=len, reverse=True)
    # \b does not see Arabic/Hebrew combining marks as part of a word ("ثوانٍ"), so the word
    # boundaries are spelt out: neither a word character nor a combining mark on either side.
    return re.compile(
        rf"(?<![\w{_COMBINING_MARKS}])("
        + "|".join(map(re.escape, keys))
        + rf")(?![\w{_COMBINING_MARKS}])",
        re.IGNORECASE,
    )


def speakable(text: str, language: str = "de") -> str:
    """``text`` respelt so that the text-to-speech voice of ``language`` says it right.

    No Unicode normalisation here: the Hebrew entries keep the dagesh before the vowel point,
    the order espeak-ng needs.

    >>> speakable("Läufer schlägt Cesar fünf")
    'Läufer schlägt Zäsar fünf'
    """
    pattern = _respelling_pattern(language)
    if pattern is None:
        return text
    table = _respellings()[language]
    return pattern.sub(lambda m: table[m.group(1).lower()], text)


# -- from words to what was meant -----------------------------------------------------------


@dataclass(frozen=True)
class MoveIntent:
    """What a phrase says about a move, read without the board.

    ``piece`` is None when no piece was named (a pawn move, or the coordinate form with a full
    departure square, which names whatever stands there).
    """

    piece: chess.PieceType | None = None
    from_file: int | None = None
    from_rank: int | None = None
    to_square: chess.Square | None = None
    capture: bool = False
    promotion: chess.PieceType | None = None
    promotion_word: bool = False
    castling: Castling | None = None
    en_passant: bool = False

    @property
    def from_square(self) -> chess.Square | None:
        if self.from_file is None or self.from_rank is None:
            return None
        return chess.square(self.from_file, self.from_rank)

    def mover(self) -> chess.PieceType | None:
        """The piece type that must move: named, or a pawn unless a full square was given."""
        if self.piece is not None:
            return self.piece
        return None if self.from_square is not None else chess.PAWN

    def matches(self, board: chess.Board, move: chess.Move, *, promotion: bool = True) -> bool:
        """Does ``move`` (pseudo-legal in ``board``) fit these words? ``promotion=False`` ignores
        the promotion piece (to find moves that only lack it)."""
        if self.castling is not None:
            if self.castling == "short":
                return board.is_kingside_castling(move)
            return board.is_queenside_castling(move)
        mover = self.mover()
        if mover is not None and board.piece_type_at(move.from_square) != mover:
            return False
        if self.from_file is not None and chess.square_file(move.from_square) != self.from_file:
            return False
        if self.from_rank is not None and chess.square_rank(move.from_square) != self.from_rank:
            return False
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            short = board.is_kingside_castling(move)
            if self.to_square != chess.square(6 if short else 2, rank):
                return False
        elif move.to_square != self.to_square:
            return False
        if promotion and move.promotion != self.promotion:
            return False
        if self.capture and not board.is_capture(move):
            return False
        return not (self.en_passant and not board.is_en_passant(move))


_IGNORED = FILLER_WORDS | FREE_WORDS


def parse_intent(phrase: Phrase, vocab: Vocabulary) -> MoveIntent | None:
    """Read a phrase as a move description, ignoring legality; None if it is not one.

    >>> words = ("springer", "gustav", "schlägt", "felix", "drei")
    >>> intent = parse_intent(words, Vocabulary.default())
    >>> (intent.piece, intent.from_file, intent.to_square, intent.capture)
    (2, 6, 21, True)
    """
    tokens = [t for t in vocab.normalize_words(phrase) if t not in _IGNORED]
    if tuple(tokens) == SHORT_CASTLING:
        return MoveIntent(castling="short")
    if tuple(tokens) == LONG_CASTLING:
        return MoveIntent(castling="long")
    piece = None
    if tokens and tokens[0] in WORD_PIECES:
        piece = WORD_PIECES[tokens.pop(0)]
    en_passant = tuple(tokens[-2:]) == EN_PASSANT
    if en_passant:
        del tokens[-2:]
    promotion = None
    if tokens and tokens[-1] in WORD_PIECES:
        promotion = WORD_PIECES[tokens.pop()]
    promotion_word = bool(tokens) and tokens[-1] in PROMOTION_WORDS
    if promotion_word:
        tokens.pop()
    kinds = "".join(_kind(vocab, t) for t in tokens)
    match = re.fullmatch(r"(f?)(r?)(c?)fr", kinds)
    if match is None:
        return None
    end = len(tokens)
    to_square = chess.square(
        vocab.file_words.index(tokens[end - 2]), vocab.rank_words.index(tokens[end - 1])
    )
    from_file = vocab.file_words.index(tokens[0]) if match.group(1) else None
    from_rank = None
    if match.group(2):
        from_rank = vocab.rank_words.index(tokens[1 if match.group(1) else 0])
    return MoveIntent(
        piece=piece,
        from_file=from_file,
        from_rank=from_rank,
        to_square=to_square,
        capture=bool(match.group(3)),
        promotion=promotion,
        promotion_word=promotion_word,
        en_passant=en_passant,
    )


def same_move(a: Phrase, b: Phrase, vocab: Vocabulary) -> bool:
    """Whether two phrases of one position's table name the same move, read without the board.

    True when both name the same mover (a piece word, else a pawn), target and promotion, and
    one says no more about the origin than the other ("Läufer Cesar vier", "Läufer schlägt
    Cesar vier", "Läufer Felix Cesar vier"; "Eva vier", "Bauer Eva vier"). That is sound for a
    table's phrases: each is kept only when no other legal move is said the same way, and every
    move of that piece to that square is said in the less specific form too (a pawn's push and
    capture never share a square), so the more specific phrase's move can only be that one.
    False where the words alone cannot tell (the coordinate form without a piece, castling),
    and for what is not a move: a recogniser then treats the two as rivals, as before."""
    first, second = parse_intent(a, vocab), parse_intent(b, vocab)
    if first is None or second is None or first.castling or second.castling:
        return False
    mover = first.mover()
    if mover is None or mover != second.mover():
        return False
    if (first.to_square, first.promotion) != (second.to_square, second.promotion):
        return False
    return _says_no_more(first, second) or _says_no_more(second, first)


def _says_no_more(less: MoveIntent, more: MoveIntent) -> bool:
    """Every origin coordinate ``less`` names, ``more`` names alike."""
    return all(
        mine is None or mine == theirs
        for mine, theirs in ((less.from_file, more.from_file), (less.from_rank, more.from_rank))
    )


def _kind(vocab: Vocabulary, token: str) -> str:
    if token in vocab.file_words:
        return "f"
    if token in vocab.rank_words:
        return "r"
    if token in CAPTURE_WORDS:
        return "c"
    return "?"


def intent_moves(board: chess.Board, intent: MoveIntent) -> list[chess.Move]:
    """The legal moves that fit ``intent``."""
    return [move for move in board.legal_moves if intent.matches(board, move)]


# -- why a move is refused ------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Why no legal move matches what was said: a message key under ``refusal.`` in the
    catalogues, and its parameters (words for display; ``piece_type`` is python-chess's name)."""

    reason: str
    params: Mapping[str, str] = field(default_factory=dict)
    squares: Mapping[str, chess.Square] = field(default_factory=dict)
    """The squares among ``params``, as squares: :meth:`algebraic` names them otherwise."""
    castling: Castling | None = None

    def algebraic(self) -> Refusal:
        """The same refusal with its squares as the board names them ("e7") and castling as
        "O-O" or "O-O-O", for the sighted opponent's page, which shows moves that way (Anna …
        Hector and "Lange Rochade" are the blind player's words)."""
        named = {key: chess.square_name(square) for key, square in self.squares.items()}
        if self.castling is not None:
            named["castling"] = "O-O" if self.castling == "short" else "O-O-O"
        return replace(self, params={**self.params, **named})

    def text(self, language: str = "de") -> str:
        """The sentence to say, with the piece nouns in the right grammatical form."""
        from voice.words.messages import message

        params = dict(self.params)
        piece_type = params.get("piece_type")
        if piece_type:
            for form in ("no", "the", "many"):
                params[f"{form}_piece"] = message(language, f"refusal.piece.{piece_type}.{form}")
        return message(language, f"refusal.{self.reason}", **params)


def _refusal(
    reason: str,
    vocab: Vocabulary,
    *,
    piece: chess.PieceType | None = None,
    square: chess.Square | None = None,
    origin: chess.Square | None = None,
    castling: Castling | None = None,
) -> Refusal:
    params: dict[str, str] = {}
    if piece is not None:
        params["piece_type"] = chess.piece_name(piece)
        params["piece"] = vocab.display((PIECE_WORDS[piece],))
    squares: dict[str, chess.Square] = {}
    if square is not None:
        params["square"] = vocab.display(vocab.square_words(square))
        squares["square"] = square
    if origin is not None:
        params["from_square"] = vocab.display(vocab.square_words(origin))
        squares["from_square"] = origin
    if castling is not None:
        params["castling"] = vocab.display(SHORT_CASTLING if castling == "short" else LONG_CASTLING)
    return Refusal(reason, params, squares, castling)


def explain_refusal(board: chess.Board, intent: MoveIntent, vocab: Vocabulary) -> Refusal:
    """Why no legal move fits ``intent`` (docs/rules.md §6.5: an illegal move is never made, the
    program says why). Raises ValueError when exactly one legal move fits (nothing to refuse)."""
    legal = intent_moves(board, intent)
    mover = intent.mover()
    target = intent.to_square
    if len(legal) > 1:
        pieces = {board.piece_type_at(m.from_square) for m in legal}
        piece = pieces.pop() if len(pieces) == 1 else mover
        return _refusal("several_can_reach", vocab, piece=piece, square=legal[0].to_square)
    if legal:
        raise ValueError(f"{legal[0].uci()} is a legal move for these words")
    if board.is_game_over():
        return Refusal("game_over")
    if intent.castling is not None:
        return _castling_refusal(board, intent.castling, vocab)
    assert target is not None
    castling = _castling_by_king(board, intent)
    if castling is not None:
        return _castling_refusal(board, castling, vocab)
    if intent.promotion in (chess.KING, chess.PAWN):
        return _refusal("promotion_piece_not_allowed", vocab)
    unpromoted = [m for m in board.legal_moves if intent.matches(board, m, promotion=False)]
    if intent.promotion is None and any(m.promotion for m in unpromoted):
        return _refusal("which_piece", vocab, square=target)
    if intent.promotion is not None and unpromoted:
        return _refusal("not_a_promotion", vocab, square=target)
    origin = intent.from_square
    if origin is not None:
        there = board.piece_at(origin)
        if there is None:
            return _refusal("no_piece_there", vocab, square=origin)
        if there.color != board.turn:
            return _refusal("not_your_piece", vocab, square=origin)
        if mover is not None and there.piece_type != mover:
            return _refusal("wrong_piece_there", vocab, piece=mover, square=origin)
    occupant = board.piece_at(target)
    if occupant is not None and occupant.color == board.turn:
        return _refusal("own_piece_there", vocab, square=target)
    if intent.en_passant and not any(
        board.is_en_passant(m) for m in board.generate_pseudo_legal_moves()
    ):
        return _refusal("no_en_passant", vocab)
    if intent.capture and occupant is None and board.ep_square != target:
        return _refusal("nothing_to_capture", vocab, square=target)
    if mover is not None and not board.pieces(mover, board.turn):
        return _refusal("no_such_piece", vocab, piece=mover)
    pseudo = [m for m in board.generate_pseudo_legal_moves() if intent.matches(board, m)]
    if pseudo:
        return _check_refusal(board, pseudo[0], vocab)
    if origin is not None:
        piece = board.piece_type_at(origin)
        return _refusal("cannot_move_there", vocab, piece=piece, origin=origin, square=target)
    return _refusal("no_piece_can_reach", vocab, piece=mover or chess.PAWN, square=target)


def _check_refusal(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> Refusal:
    """A pseudo-legal move that leaves the own king in check: pinned, in check, or walking in."""
    piece = board.piece_type_at(move.from_square)
    if piece == chess.KING:
        return _refusal("king_would_be_in_check", vocab)
    if board.is_pinned(board.turn, move.from_square) and not board.is_check():
        return _refusal("pinned", vocab, piece=piece, origin=move.from_square)
    if board.is_check():
        return _refusal("in_check", vocab)
    return _refusal("king_would_be_in_check", vocab)


def _castling_by_king(board: chess.Board, intent: MoveIntent) -> Castling | None:
    """ "König Gustav eins" from the king's home square asks for castling."""
    king = board.king(board.turn)
    home = chess.E1 if board.turn == chess.WHITE else chess.E8
    if intent.mover() not in (chess.KING, None) or king != home or intent.to_square is None:
        return None
    if intent.from_square not in (None, home) or intent.from_file not in (None, 4):
        return None
    rank = chess.square_rank(home)
    if intent.to_square == chess.square(6, rank):
        return "short"
    if intent.to_square == chess.square(2, rank):
        return "long"
    return None


def _castling_refusal(board: chess.Board, side: Castling, vocab: Vocabulary) -> Refusal:
    color = board.turn
    rights = (
        board.has_kingside_castling_rights(color)
        if side == "short"
        else board.has_queenside_castling_rights(color)
    )
    if not rights:
        return _refusal("castling_not_allowed", vocab, castling=side)
    if board.is_check():
        return _refusal("castling_in_check", vocab, castling=side)
    king = board.king(color)
    assert king is not None
    rank = chess.square_rank(king)
    rook_file = 7 if side == "short" else 0
    between = chess.SquareSet(chess.between(king, chess.square(rook_file, rank)))
    if any(board.piece_at(s) for s in between):
        return _refusal("castling_blocked", vocab, castling=side)
    return _refusal("castling_through_check", vocab, castling=side)
