"""Legal moves ⇄ Appendix D words (issue 2 items 5 and 6; docs/rules.md §1, §5, §6.3)."""

from __future__ import annotations

import re
import shutil
import subprocess

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_phrases_positions import PROPERTY, positions

from voice.config import MatchingSettings, Settings, override
from voice.words.matcher import Decision, Hypothesis, match_move
from voice.words.phrases import (
    MoveIntent,
    explain_refusal,
    intent_moves,
    parse_intent,
    phrase_table,
    render_move,
    same_move,
    speakable,
    spoken_forms,
)
from voice.words.vocabulary import PIECE_WORDS, Vocabulary

SAN = re.compile(
    r"^(?P<piece>[KQRBN])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<x>x)?(?P<to>[a-h][1-8])"
    r"(=(?P<promo>[QRBN]))?(?P<suffix>[+#])?$"
)


def expected_from_san(board: chess.Board, move: chess.Move, vocab: Vocabulary) -> tuple[str, ...]:
    """The canonical words, derived independently from python-chess' SAN (Appendix C)."""
    san = board.san(move)
    suffix = {"+": ("schach",), "#": ("matt",)}.get(san[-1], ())
    if san.startswith("O-O-O"):
        return ("lange", "rochade", *suffix)
    if san.startswith("O-O"):
        return ("kurze", "rochade", *suffix)
    parts = SAN.match(san)
    assert parts is not None, san
    words: list[str] = []
    if parts["piece"]:
        words.append(PIECE_WORDS[chess.PIECE_SYMBOLS.index(parts["piece"].lower())])
    if parts["file"]:
        words.append(vocab.file_words["abcdefgh".index(parts["file"])])
    if parts["rank"]:
        words.append(vocab.rank_words[int(parts["rank"]) - 1])
    if parts["x"]:
        words.append("schlägt")
    words.extend(vocab.square_words(chess.parse_square(parts["to"])))
    if parts["promo"]:
        words.append(PIECE_WORDS[chess.PIECE_SYMBOLS.index(parts["promo"].lower())])
    if board.is_en_passant(move):
        words += ["en", "passant"]
    return (*words, *suffix)


# -- properties over positions from random play ------------------------------------------------


@PROPERTY
@given(positions())
def test_canonical_form_carries_exactly_the_disambiguation_san_needs(board: chess.Board) -> None:
    vocab = Vocabulary.default()
    for move in board.legal_moves:
        assert spoken_forms(board, move, vocab)[0] == expected_from_san(board, move, vocab)


@PROPERTY
@given(positions())
def test_no_spoken_form_belongs_to_two_legal_moves(board: chess.Board) -> None:
    vocab = Vocabulary.default()
    table = phrase_table(board, vocab)
    seen: dict[tuple[str, ...], chess.Move] = {}
    for move in board.legal_moves:
        forms = table.forms(move)
        assert forms, f"{move} has no spoken form"
        for phrase in forms:
            assert seen.setdefault(phrase, move) == move, f"{phrase} names {seen[phrase]} too"
            assert table.phrases[phrase] == move
    assert len(seen) == len(table.phrases)


@PROPERTY
@given(positions())
def test_every_phrase_read_as_words_selects_only_its_own_move(board: chess.Board) -> None:
    """Independent of how the table was built: the grammar reading of each phrase, applied to
    the legal moves, finds exactly the move the table gives it."""
    vocab = Vocabulary.default()
    for phrase, move in phrase_table(board, vocab).phrases.items():
        intent = parse_intent(phrase, vocab)
        assert intent is not None, phrase
        assert intent_moves(board, intent) == [move], phrase


@PROPERTY
@given(positions())
def test_phrases_read_as_the_same_move_are_the_same_move(board: chess.Board) -> None:
    """Whisper measures how far its best phrase leads the next phrase naming something else
    (same_move): two phrases it takes for one move must never be two moves, or a close rival
    would look far behind."""
    vocab = Vocabulary.default()
    by_target: dict[chess.Square | None, list[tuple[tuple[str, ...], chess.Move]]] = {}
    for phrase, move in phrase_table(board, vocab).phrases.items():
        intent = parse_intent(phrase, vocab)
        by_target.setdefault(intent.to_square if intent else None, []).append((phrase, move))
    for phrases in by_target.values():  # same_move needs one target: compare within each
        for a, move_a in phrases:
            for b, move_b in phrases:
                if same_move(a, b, vocab):
                    assert move_a == move_b, (a, b)


def test_forms_of_one_move_are_one_move_and_the_rest_are_not() -> None:
    vocab = Vocabulary.default()

    def same(a: str, b: str) -> bool:
        return same_move(tuple(a.split()), tuple(b.split()), vocab)

    assert same("läufer cesar vier", "läufer schlägt cesar vier")
    assert same("läufer nimmt cesar vier", "läufer felix eins cesar vier")
    assert same("eva david fünf", "bauer eva schlägt david fünf")
    assert same("eva vier", "bauer eva vier")  # a push and a capture never share a square
    assert not same("turm anna dame eins", "turm hector dame eins")  # two rooks
    assert not same("dame anna bella zwei", "dame eins bella zwei")  # neither says less
    assert not same("läufer cesar vier", "läufer cesar fünf")
    assert not same("anna acht dame", "anna acht turm")  # promotions
    # Where the words alone cannot tell: the coordinate form without a piece, castling.
    assert not same("gustav eins felix drei", "springer felix drei")
    assert not same("kurze rochade", "könig gustav eins")
    assert not same("remis", "remis")


@pytest.mark.slow
@PROPERTY
@given(positions(), st.data())
def test_every_spoken_form_is_accepted_as_exactly_its_move(
    board: chess.Board, data: st.DataObject
) -> None:
    vocab = Vocabulary.default()
    thresholds = _thresholds()
    moves = sorted(board.legal_moves, key=chess.Move.uci)
    # Every move by its canonical words (with "Schach"/"matt") ...
    checked = [(move, spoken_forms(board, move, vocab)[0]) for move in moves]
    # ... and every accepted form of a few moves.
    for move in data.draw(st.lists(st.sampled_from(moves), max_size=3, unique=True)):
        checked += [(move, form) for form in spoken_forms(board, move, vocab)]
    for move, form in checked:
        result = match_move(board, [Hypothesis(form)], vocab, thresholds)
        assert (result.decision, result.move) == (Decision.ACCEPT, move), form


SPELLINGS = {
    "eva": ("Eve", "Eva"),
    "cesar": ("Cesar", "Cessar"),
    "fünf": ("fünf", "fuenf"),
    "läufer": ("Läufer", "Laeufer", "Laeuffer"),
    "könig": ("König", "Koenig"),
    "hector": ("Hector", "Hektor"),
}


@PROPERTY
@given(positions(), st.data())
def test_seed_spelling_variants_are_understood(board: chess.Board, data: st.DataObject) -> None:
    vocab = Vocabulary.default()
    thresholds = _thresholds()
    moves = sorted(board.legal_moves, key=chess.Move.uci)
    for move in data.draw(st.lists(st.sampled_from(moves), min_size=1, max_size=4, unique=True)):
        words = spoken_forms(board, move, vocab)[0]
        text = " ".join(data.draw(st.sampled_from(SPELLINGS.get(w, (w,)))) for w in words)
        result = match_move(board, [Hypothesis(vocab.normalize(text))], vocab, thresholds)
        assert (result.decision, result.move) == (Decision.ACCEPT, move), text


def test_every_seed_spelling_of_one_move() -> None:
    """Läufer/Laeufer/Laeuffer, Cesar/Cessar, fünf/fuenf in one move each."""
    vocab = Vocabulary.default()
    board = chess.Board("4k3/8/8/8/8/8/8/2B1K2R w K - 0 1")  # Bc1, Rh1, Ke1
    thresholds = _thresholds()
    for text, uci in [
        ("Läufer Hector sechs", "c1h6"),
        ("Laeufer Hektor sechs", "c1h6"),
        ("Laeuffer Hector sechs", "c1h6"),
        ("Koenig Eve zwei", "e1e2"),
        ("König Eva zwei", "e1e2"),
        ("Turm Hektor fuenf", "h1h5"),
    ]:
        result = match_move(board, [Hypothesis(vocab.normalize(text))], vocab, thresholds)
        assert (result.decision, result.move) == (Decision.ACCEPT, chess.Move.from_uci(uci))
    board = chess.Board("4k3/8/8/8/8/8/8/2R1K3 w - - 0 1")
    result = match_move(
        board, [Hypothesis(vocab.normalize("Turm Cessar fuenf"))], vocab, thresholds
    )
    assert result.move == chess.Move.from_uci("c1c5")


# -- the rendering (issue item 6) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "san", "words"),
    [
        (chess.STARTING_FEN, "Nf3", "Springer Felix drei"),
        (chess.STARTING_FEN, "e4", "Eva vier"),
        ("5rk1/5ppp/8/8/8/3B4/7Q/6K1 w - - 0 1", "Qxh7#", "Dame schlägt Hector sieben matt"),
        ("1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1", "a8=Q", "Anna acht Dame"),
        (
            "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1",
            "axb8=N",
            "Anna schlägt Bella acht Springer",
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "exf6",
            "Eva schlägt Felix sechs en passant",
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "Lange Rochade"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "Kurze Rochade"),
        # disambiguation: by file, by rank, by the full square
        ("k7/8/8/R6R/8/8/8/K7 w - - 0 1", "Rad5", "Turm Anna David fünf"),
        ("2k5/R7/8/8/8/8/8/R5K1 w - - 0 1", "R1a4", "Turm eins Anna vier"),
        ("8/8/8/7k/8/Q7/8/Q1Q3K1 w - - 0 1", "Qa1b2", "Dame Anna eins Bella zwei"),
    ],
)
def test_render_move_speaks_appendix_d_words(fen: str, san: str, words: str) -> None:
    board = chess.Board(fen)
    assert render_move(board, board.parse_san(san), Vocabulary.default()) == words


def test_pawn_and_capture_forms_are_all_accepted() -> None:
    """Pawn moves with or without "Bauer", captures with or without the capture word, the long
    form with the departure square, en passant with or without "en passant"."""
    vocab = Vocabulary.default()
    board = chess.Board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    table = phrase_table(board, vocab)
    exf6 = chess.Move.from_uci("e5f6")
    for text in [
        "Eva schlägt Felix sechs en passant",
        "Eva schlägt Felix sechs",
        "Eva nimmt Felix sechs",
        "Eva Felix sechs",
        "Eva Felix sechs en passant",
        "Bauer Eva schlägt Felix sechs",
        "Eva fünf schlägt Felix sechs",
        "Eva fünf Felix sechs en passant",
        "Bauer schlägt Felix sechs",
    ]:
        assert table.phrases[vocab.normalize(text)] == exf6, text
    for text, uci in [
        ("Eva sechs", "e5e6"),
        ("Bauer Eva sechs", "e5e6"),
        ("Eva fünf Eva sechs", "e5e6"),
    ]:
        assert table.phrases[vocab.normalize(text)] == chess.Move.from_uci(uci)


def test_promotion_requires_the_piece() -> None:
    vocab = Vocabulary.default()
    board = chess.Board("1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1")
    table = phrase_table(board, vocab)
    for text in [
        "Anna acht Dame",
        "Anna acht wird Dame",
        "Anna acht Umwandlung Dame",
        "Bauer Anna sieben Anna acht Turm",
    ]:
        assert table.phrases[vocab.normalize(text)].promotion is not None, text
    assert vocab.normalize("Anna acht") not in table.phrases
    assert all(
        p[-1] in {"dame", "turm", "läufer", "springer"}
        for p, m in table.phrases.items()
        if m.promotion
    )


def test_castling_by_name_and_by_king_square() -> None:
    vocab = Vocabulary.default()
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    table = phrase_table(board, vocab)
    for text, uci in [
        ("Kurze Rochade", "e1g1"),
        ("König Gustav eins", "e1g1"),
        ("König Eva eins Gustav eins", "e1g1"),
        ("Lange Rochade", "e1c1"),
        ("König Cesar eins", "e1c1"),
    ]:
        assert table.phrases[vocab.normalize(text)] == chess.Move.from_uci(uci), text


def test_chess960_castling_and_a_king_move_to_the_same_square_stay_apart() -> None:
    """King f1, rook h1: castling and Kg1 both end on g1; each keeps its own canonical form."""
    vocab = Vocabulary.default()
    board = chess.Board("k7/8/8/8/8/8/8/5K1R w H - 0 1", chess960=True)
    table = phrase_table(board, vocab)
    assert table.phrases[("kurze", "rochade")] == chess.Move.from_uci("f1h1")
    assert table.phrases[("könig", "gustav", "eins")] == chess.Move.from_uci("f1g1")


def test_ambiguous_short_forms_are_left_out_but_long_forms_stay() -> None:
    vocab = Vocabulary.default()
    board = chess.Board("8/8/8/7k/8/Q7/8/Q1Q3K1 w - - 0 1")
    table = phrase_table(board, vocab)
    assert ("dame", "bella", "zwei") not in table.phrases
    assert ("dame", "anna", "bella", "zwei") not in table.phrases  # a1 and a3
    assert ("dame", "eins", "bella", "zwei") not in table.phrases  # a1 and c1
    assert table.phrases[("dame", "anna", "eins", "bella", "zwei")] == chess.Move.from_uci("a1b2")
    assert table.phrases[("dame", "cesar", "bella", "zwei")] == chess.Move.from_uci("c1b2")
    assert table.phrases[("dame", "drei", "bella", "zwei")] == chess.Move.from_uci("a3b2")


def test_a_rank_alone_where_san_needs_none_and_half_a_king_s_square_are_not_accepted() -> None:
    """The closed set holds what players say: SAN's form, the piece and target alone, the file
    (a common habit) and the whole square. "Turm eins Eva eins" or "König zwei Eva eins" no
    one says, and each such phrase is one more that a misheard move can land on: "König zwei
    Eva eins" was played for "Turm Hector Eva eins" (session 15, pink noise)."""
    vocab = Vocabulary.default()
    board = chess.Board("4k3/8/8/8/8/8/4K3/7R w - - 0 1")
    table = phrase_table(board, vocab)
    rook, king = chess.Move.from_uci("h1e1"), chess.Move.from_uci("e2e1")
    for words in ("turm eva eins", "turm hector eva eins", "turm hector eins eva eins"):
        assert table.phrases[tuple(words.split())] == rook, words
    for words in ("könig eva eins", "könig eva zwei eva eins", "eva zwei eva eins"):
        assert table.phrases[tuple(words.split())] == king, words
    for words in ("turm eins eva eins", "könig zwei eva eins", "könig eva eva eins"):
        assert tuple(words.split()) not in table.phrases, words


def test_words_list_covers_every_phrase_and_check_words() -> None:
    vocab = Vocabulary.default()
    table = phrase_table(chess.Board(), vocab)
    assert {"springer", "felix", "drei", "schach", "matt", "bauer"} <= table.words()
    assert "dame" not in table.words()  # the queen cannot move in the start position


def test_configured_rank_words_are_spoken_and_understood(settings: Settings) -> None:
    ranks = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    vocab = Vocabulary.from_settings(
        override(settings, vocabulary={"rank_words": ranks}).vocabulary
    )
    board = chess.Board()
    assert render_move(board, chess.Move.from_uci("g1f3"), vocab) == "Springer Felix three"
    result = match_move(
        board, [Hypothesis(("springer", "felix", "three"))], vocab, settings.matching
    )
    assert result.move == chess.Move.from_uci("g1f3")


# -- intents and refusals (docs/rules.md §6.5: the program says why) ---------------------------


def test_parse_intent_reads_words_without_the_board() -> None:
    vocab = Vocabulary.default()
    intent = parse_intent(vocab.normalize("Springer Gustav schlägt Felix drei Schach"), vocab)
    assert intent == MoveIntent(piece=chess.KNIGHT, from_file=6, to_square=chess.F3, capture=True)
    assert parse_intent(vocab.normalize("äh Eva acht wird Dame"), vocab) == MoveIntent(
        to_square=chess.E8, promotion=chess.QUEEN, promotion_word=True
    )
    assert parse_intent(vocab.normalize("Lange Rochade"), vocab) == MoveIntent(castling="long")
    for nonsense in [
        "Springer",
        "Felix",
        "drei Felix",
        "Guten Morgen",
        "Springer Felix drei vier",
        "",
    ]:
        assert parse_intent(vocab.normalize(nonsense), vocab) is None, nonsense


@pytest.mark.parametrize(
    ("fen", "text", "reason", "german"),
    [
        # the knight on e2 is pinned by the rook on e7
        (
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "Springer Cesar drei",
            "pinned",
            "Der Springer auf Eva zwei ist gefesselt.",
        ),
        # the king may not step onto the rook's file
        (
            "3rk3/8/8/8/8/8/8/4K3 w - - 0 1",
            "König David zwei",
            "king_would_be_in_check",
            "Der König stünde im Schach.",
        ),
        (
            "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1",
            "Turm Anna fünf",
            "in_check",
            "Der König steht im Schach.",
        ),
        (
            chess.STARTING_FEN,
            "Dame Hector fünf",
            "no_piece_can_reach",
            "Keine Dame kann nach Hector fünf.",
        ),
        (
            chess.STARTING_FEN,
            "Springer Eva vier",
            "no_piece_can_reach",
            "Kein Springer kann nach Eva vier.",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "Läufer Cesar vier",
            "no_such_piece",
            "Kein Läufer mehr auf dem Brett.",
        ),
        (
            "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1",
            "Anna acht",
            "which_piece",
            "Welche Figur?",
        ),
        (
            "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1",
            "Anna acht König",
            "promotion_piece_not_allowed",
            "Umwandlung nur in Dame, Turm, Läufer oder Springer.",
        ),
        (
            chess.STARTING_FEN,
            "Eva vier Dame",
            "not_a_promotion",
            "Auf Eva vier gibt es keine Umwandlung.",
        ),
        (
            chess.STARTING_FEN,
            "Eva drei Eva vier",
            "no_piece_there",
            "Auf Eva drei steht keine Figur.",
        ),
        (
            chess.STARTING_FEN,
            "Eva sieben Eva fünf",
            "not_your_piece",
            "Auf Eva sieben steht eine gegnerische Figur.",
        ),
        (
            chess.STARTING_FEN,
            "Turm Gustav eins Felix drei",
            "wrong_piece_there",
            "Kein Turm auf Gustav eins.",
        ),
        (
            chess.STARTING_FEN,
            "Springer Gustav eins Gustav drei",
            "cannot_move_there",
            "Der Springer auf Gustav eins kann nicht nach Gustav drei.",
        ),
        (
            chess.STARTING_FEN,
            "Springer David zwei",
            "own_piece_there",
            "Auf David zwei steht eine eigene Figur.",
        ),
        (
            chess.STARTING_FEN,
            "Eva schlägt David drei",
            "nothing_to_capture",
            "Auf David drei ist nichts zu schlagen.",
        ),
        (
            chess.STARTING_FEN,
            "Eva schlägt David drei en passant",
            "no_en_passant",
            "En passant ist jetzt nicht möglich.",
        ),
        (
            "k7/8/8/R6R/8/8/8/K7 w - - 0 1",
            "Turm David fünf",
            "several_can_reach",
            "Mehrere Türme können nach David fünf. Bitte das Ausgangsfeld nennen.",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            "Kurze Rochade",
            "castling_not_allowed",
            "Kurze Rochade ist nicht mehr erlaubt.",
        ),
        (
            "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1",
            "Lange Rochade",
            "castling_blocked",
            "Lange Rochade geht nicht: zwischen König und Turm steht eine Figur.",
        ),
        (
            "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1",
            "König Gustav eins",
            "castling_through_check",
            "Kurze Rochade geht nicht: der König zöge über ein angegriffenes Feld oder ins Schach.",
        ),
        (
            "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1",
            "Kurze Rochade",
            "castling_in_check",
            "Im Schach ist keine Rochade erlaubt.",
        ),
    ],
)
def test_explain_refusal_says_why(fen: str, text: str, reason: str, german: str) -> None:
    vocab = Vocabulary.default()
    board = chess.Board(fen)
    intent = parse_intent(vocab.normalize(text), vocab)
    assert intent is not None
    refusal = explain_refusal(board, intent, vocab)
    assert refusal.reason == reason
    assert refusal.text("de") == german
    assert refusal.text("en")  # every reason is worded in English too


INTENTS = st.builds(
    MoveIntent,
    piece=st.none() | st.sampled_from(chess.PIECE_TYPES),
    from_file=st.none() | st.integers(0, 7),
    from_rank=st.none() | st.integers(0, 7),
    to_square=st.sampled_from(chess.SQUARES),
    capture=st.booleans(),
    promotion=st.none() | st.sampled_from(chess.PIECE_TYPES),
    en_passant=st.booleans(),
) | st.builds(MoveIntent, castling=st.sampled_from(["short", "long"]))


@PROPERTY
@given(positions(), INTENTS)
def test_any_words_that_are_not_one_legal_move_get_a_worded_reason(
    board: chess.Board, intent: MoveIntent
) -> None:
    vocab = Vocabulary.default()
    if len(intent_moves(board, intent)) == 1:
        with pytest.raises(ValueError):
            explain_refusal(board, intent, vocab)
        return
    refusal = explain_refusal(board, intent, vocab)
    for language in ("de", "en"):
        text = refusal.text(language)
        assert text and "{" not in text


def test_explain_refusal_refuses_to_refuse_a_legal_move() -> None:
    vocab = Vocabulary.default()
    intent = parse_intent(("springer", "felix", "drei"), vocab)
    assert intent is not None
    with pytest.raises(ValueError, match="g1f3"):
        explain_refusal(chess.Board(), intent, vocab)


# -- text to speech ----------------------------------------------------------------------------


def test_speakable_respells_what_espeak_says_wrong() -> None:
    assert speakable("Läufer schlägt Cesar fünf") == "Läufer schlägt Zäsar fünf"
    assert speakable("David vier, Kurze Rochade") == "Dahvitt vier, Kurze Ro-schade"
    assert speakable("Eva schlägt David sechs en passant").endswith("ang passang")
    assert speakable("Cesar", "xx") == "Cesar"  # no table: unchanged


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(
    ("word", "phonemes"), [("Cesar", "ts'E:zA:r"), ("David", "d'A:vIt"), ("Rochade", "S'A:d@")]
)
def test_espeak_pronounces_the_respelling_as_intended(word: str, phonemes: str) -> None:
    """Rendered by the real German voice: "Cesar" starts with ts (not k), "David" is stressed on
    its first syllable, "Rochade" has sch."""
    said = subprocess.run(
        ["espeak-ng", "-v", "de", "-x", "-q", speakable(word)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert phonemes in said


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(
    ("word", "phonemes"), [("Springer", "Spr'IN3"), ("Cesar", "ts'eIz"), ("Eva", "'eIv@")]
)
def test_english_voice_says_the_german_words_roughly_right(word: str, phonemes: str) -> None:
    """The English voice must not spell "Springer" out as letters or say "Seizar"."""
    said = subprocess.run(
        ["espeak-ng", "-v", "en", "-x", "-q", speakable(word, "en")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert phonemes in said


def _thresholds() -> MatchingSettings:
    from voice.config import load_settings

    return load_settings(look_in_user_dir=False).matching


def test_check_words_follow_only_the_moves_that_give_check_or_mate() -> None:
    """The recogniser's grammar offers "Schach" only after a check and "matt" only after a
    mate: a check word after a quiet move let the end of an unrelated sentence become one."""
    vocab = Vocabulary.default()
    board = chess.Board()
    for san in ("e4", "f5"):
        board.push_san(san)
    spoken = phrase_table(board, vocab).with_check_words()
    assert ("dame", "hector", "fünf", "schach") in spoken  # Qh5+
    assert ("dame", "hector", "fünf", "matt") not in spoken
    assert ("springer", "felix", "drei") in spoken
    assert not any(p[-1] in ("schach", "matt") and p[:2] == ("springer", "felix") for p in spoken)

    mate = chess.Board()
    for san in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"):
        mate.push_san(san)
    table = phrase_table(mate, vocab)
    qxf7 = chess.Move.from_uci("h5f7")
    tails = [(), ("matt",), ("schach",), ("schach", "matt")]
    expected = {(*form, *tail) for form in table.forms(qxf7) for tail in tails}
    assert table.with_check_words(qxf7) == expected


def test_a_phrase_with_its_check_word_names_the_same_move() -> None:
    """Every phrase the recogniser may hear names its move, "Schach"/"matt" after it included:
    the calibration and the learning of the player's voice once took a right hearing of a
    checking move for a wrong one, because the table's phrases carry no check word."""
    vocab = Vocabulary.default()
    mate = chess.Board()
    for san in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"):
        mate.push_san(san)
    table = phrase_table(mate, vocab)
    for phrase in table.with_check_words():
        assert table.move_named(phrase) is not None, phrase
    qxf7 = chess.Move.from_uci("h5f7")
    assert table.move_named((*table.forms(qxf7)[0], "schach", "matt")) == qxf7
    assert table.move_named(("schach",)) is None
    assert table.move_named(("dame", "hector", "neun")) is None
