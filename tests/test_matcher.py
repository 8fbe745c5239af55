"""Heard words → candidate moves and a decision (issue 2 item 5): what a real speaker gets wrong."""

from __future__ import annotations

import chess
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from test_phrases_positions import PROPERTY, position_and_move, positions

from voice.config import MatchingSettings, Settings, load_settings, override
from voice.words.matcher import (
    NOT_AN_ATTEMPT,
    Decision,
    Hypothesis,
    MatchResult,
    match_move,
    phrase_cost,
    rank_phrases,
    sound_distance,
    sounds,
)
from voice.words.phrases import intent_moves, parse_intent, phrase_table, spoken_forms
from voice.words.vocabulary import COMMAND_WORDS, Vocabulary

VOCAB = Vocabulary.default()
THRESHOLDS: MatchingSettings = load_settings(look_in_user_dir=False).matching


def heard(board: chess.Board, *texts: str | tuple[str, float]) -> MatchResult:
    nbest = [
        Hypothesis(VOCAB.normalize(t))
        if isinstance(t, str)
        else Hypothesis(VOCAB.normalize(t[0]), t[1])
        for t in texts
    ]
    return match_move(board, nbest, VOCAB, THRESHOLDS)


def uci(result: MatchResult) -> list[str]:
    return [c.move.uci() for c in result.candidates]


# -- the distance --------------------------------------------------------------------------


def test_words_that_sound_alike_are_close_and_others_far() -> None:
    assert sounds("cesar") == sounds("zäsar") == sounds("cessar")
    assert sounds("hector") == sounds("hektor")
    assert sound_distance("zwei", "drei") < sound_distance("zwei", "acht")
    assert sound_distance("felix", "anna") > 0.6
    assert phrase_cost(("springer", "felix", "zwei"), ("springer", "felix", "drei"), VOCAB) < (
        phrase_cost(("springer", "felix", "acht"), ("springer", "felix", "drei"), VOCAB)
    )
    assert phrase_cost(("springer", "anna", "drei"), ("springer", "felix", "drei"), VOCAB) > 0.8


def test_fillers_and_check_words_cost_nothing() -> None:
    target = ("springer", "felix", "drei")
    assert phrase_cost(("äh", "springer", "nach", "felix", "drei", "schach"), target, VOCAB) == 0
    assert phrase_cost(("springer", "auf", "felix", "drei", "matt"), target, VOCAB) == 0


def test_a_dropped_or_extra_word_costs_about_half() -> None:
    target = ("springer", "felix", "drei")
    assert phrase_cost(("springer", "felix"), target, VOCAB) == pytest.approx(0.5)
    assert phrase_cost(("springer", "turm", "felix", "drei"), target, VOCAB) == pytest.approx(0.5)
    # a named piece's departure file is dropped more often than the destination
    long_form = ("springer", "gustav", "felix", "drei")
    assert phrase_cost(target, long_form, VOCAB) < phrase_cost(("springer", "felix"), target, VOCAB)


def test_a_word_outside_the_vocabulary_is_never_good_enough_to_play() -> None:
    cost = phrase_cost(("springer", "felicks", "drei"), ("springer", "felix", "drei"), VOCAB)
    assert THRESHOLDS.accept_cost < cost <= THRESHOLDS.confirm_cost


# -- decisions on clear and unclear speech -------------------------------------------------


def test_clear_move_is_accepted() -> None:
    result = heard(chess.Board(), "Springer Felix drei")
    assert (result.decision, result.move) == (Decision.ACCEPT, chess.Move.from_uci("g1f3"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Springer Felix", "g1f3"),  # destination rank dropped
        ("Springer Felicks drei", "g1f3"),  # misheard file, not a vocabulary word
        ("Springer Felix dreih", "g1f3"),
        ("Eva fier", "e2e4"),
        ("Springer Hektor drai", "g1h3"),
    ],
)
def test_one_misheard_or_dropped_word_asks_back_the_right_move(text: str, expected: str) -> None:
    result = heard(chess.Board(), text)
    assert result.decision == Decision.CONFIRM
    assert result.move == chess.Move.from_uci(expected)


def test_pawn_capture_without_its_file_is_asked_back() -> None:
    board = chess.Board()
    for san in ("e4", "d5"):
        board.push_san(san)
    result = heard(board, "schlägt David fünf")
    assert (result.decision, result.move) == (Decision.CONFIRM, chess.Move.from_uci("e4d5"))


def test_a_capture_without_a_piece_word_offers_the_pawn_captures_before_a_piece_s() -> None:
    """Appendix D: a move without a piece word is a pawn's. "schlägt David fünf" fits the pawns
    on c6 and e6 with their file dropped, and the knight on f6 with "Springer" dropped; the
    pawn captures come first (a Hypothesis example once ranked the knight beside them)."""
    board = chess.Board("2n1k2r/3pqpb1/BPp1pnp1/3PN3/4P3/1pN2Q1p/p1PBBPPP/2R1K2R b Kk - 1 9")
    result = heard(board, "schlägt David fünf")
    assert result.decision == Decision.CHOOSE
    best = [c for c in result.candidates if c.cost == result.candidates[0].cost]
    assert sorted(c.move.uci() for c in best) == ["c6d5", "e6d5"]


def test_two_knights_for_one_square_are_offered_as_a_choice() -> None:
    board = chess.Board("4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1")  # Nd2 and Ng1 both reach f3
    result = heard(board, "Springer Felix drei")
    assert result.decision == Decision.CHOOSE
    assert sorted(uci(result)) == ["d2f3", "g1f3"]
    assert result.move is None
    # naming the departure file settles it
    assert heard(board, "Springer David Felix drei").move == chess.Move.from_uci("d2f3")


def test_more_close_moves_than_can_be_offered_is_refused_with_the_reason() -> None:
    board = chess.Board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")
    result = heard(board, "Dame Eva vier")  # five queens reach e4
    assert result.decision == Decision.REJECT
    assert result.refusal is not None and result.refusal.reason == "several_can_reach"
    result = heard(chess.Board(), "vier")  # eight pawns could go to rank four
    assert result.decision == Decision.REJECT
    assert result.refusal is not None and result.refusal.reason == "say_whole_move"


def test_a_clearly_said_illegal_move_is_refused_not_bent_into_a_legal_one() -> None:
    """docs/rules.md §6.5: the player hears why, and is not asked about a different move."""
    result = heard(chess.Board(), "Springer Felix vier")
    assert result.decision == Decision.REJECT and result.move is None
    assert result.refusal is not None
    assert result.refusal.text("de") == "Kein Springer kann nach Felix vier."


def test_promotion_without_piece_asks_which_piece() -> None:
    board = chess.Board("1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1")
    result = heard(board, "Anna acht")
    assert result.decision == Decision.REJECT
    assert result.refusal is not None and result.refusal.text("de") == "Welche Figur?"
    assert heard(board, "Anna acht wird Dame").move == chess.Move.from_uci("a7a8q")
    assert heard(board, "Anna acht Umwandlung in Springer").move == chess.Move.from_uci("a7a8n")


@pytest.mark.parametrize(
    "text",
    [
        "Guten Morgen",
        "Ich habe Hunger",
        "Wie spät ist es",
        "Der Hund bellt laut",
        "Hallo",
        "äh hm",
        "und dann",
        "",
        "Schach",
    ],
)
def test_unrelated_words_and_noise_are_rejected(text: str) -> None:
    for fen in (
        chess.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ):
        result = heard(chess.Board(fen), text)
        assert (result.decision, result.move) == (Decision.REJECT, None), text


# -- the n-best list -------------------------------------------------------------------------


def test_a_legal_alternative_nearly_as_confident_beats_an_illegal_first_guess() -> None:
    """Filtering the recogniser's alternatives by legality (Gabsdil 2004)."""
    result = heard(chess.Board(), ("Springer Felix zwei", 0.5), ("Springer Felix drei", 0.45))
    assert (result.decision, result.move) == (Decision.ACCEPT, chess.Move.from_uci("g1f3"))


def test_a_far_less_confident_alternative_does_not_override_a_clear_first_guess() -> None:
    result = heard(chess.Board(), ("Springer Cesar drei", 0.9), ("Springer Felix drei", 0.1))
    assert (result.decision, result.move) == (Decision.ACCEPT, chess.Move.from_uci("b1c3"))


def test_a_weak_alternative_alone_is_only_asked_back() -> None:
    result = heard(chess.Board(), ("Guten Morgen", 0.9), ("Springer Felix drei", 0.3))
    assert (result.decision, result.move) == (Decision.CONFIRM, chess.Move.from_uci("g1f3"))


def test_hypotheses_below_min_confidence_are_ignored(settings: Settings) -> None:
    strict = override(settings, matching={"min_confidence": 0.5}).matching
    nbest = [Hypothesis(("springer", "felix", "drei"), 0.2)]
    assert match_move(chess.Board(), nbest, VOCAB, strict).decision == Decision.REJECT
    # Without the floor it is heard, but a recogniser that unsure has it asked back.
    assert match_move(chess.Board(), nbest, VOCAB, THRESHOLDS).decision == Decision.CONFIRM


def test_a_move_the_recogniser_is_unsure_of_is_asked_back_never_played() -> None:
    """accept_confidence: the exact phrase of one legal move, but with a confidence below the
    point where the recogniser is sure (Whisper's calibration), is a question, not a move."""
    phrase = ("springer", "felix", "drei")
    unsure = match_move(chess.Board(), [Hypothesis(phrase, 0.49)], VOCAB, THRESHOLDS)
    assert (unsure.decision, unsure.move) == (Decision.CONFIRM, chess.Move.from_uci("g1f3"))
    sure = match_move(chess.Board(), [Hypothesis(phrase, 0.5)], VOCAB, THRESHOLDS)
    assert (sure.decision, sure.move) == (Decision.ACCEPT, chess.Move.from_uci("g1f3"))


# -- properties over random positions -------------------------------------------------------


def _garble(word: str) -> str:
    """A recogniser's or typist's near miss that sounds the same ("drei" → "dreih")."""
    return word + "h" if word[-1] in "aeiouäöü" else word + word[-1]


@PROPERTY
@given(position_and_move(), st.data())
def test_one_garbled_word_gives_the_right_move_first_and_never_plays_it_unasked(
    board_and_move: tuple[chess.Board, chess.Move], data: st.DataObject
) -> None:
    board, move = board_and_move
    words = list(phrase_table(board, VOCAB).forms(move)[0])
    index = data.draw(st.integers(0, len(words) - 1))
    words[index] = _garble(words[index])
    result = match_move(board, [Hypothesis(tuple(words))], VOCAB, THRESHOLDS)
    assert result.decision != Decision.ACCEPT
    assert result.candidates[0].move == move, words
    if result.decision == Decision.CONFIRM:
        assert result.move == move
    elif result.decision == Decision.REJECT:
        assert result.refusal is not None and result.refusal.reason == "say_whole_move"


@PROPERTY
@given(position_and_move(), st.data())
def test_one_dropped_word_gives_the_right_move_among_the_best_or_says_why(
    board_and_move: tuple[chess.Board, chess.Move], data: st.DataObject
) -> None:
    board, move = board_and_move
    words = list(spoken_forms(board, move, VOCAB)[0])
    assume(len(words) >= 2)
    del words[data.draw(st.integers(0, len(words) - 1))]
    phrase = tuple(w for w in words if w not in ("schach", "matt"))
    result = match_move(board, [Hypothesis(phrase)], VOCAB, THRESHOLDS)
    table = phrase_table(board, VOCAB)
    if phrase in table.phrases:  # the words now name another move exactly
        assert (result.decision, result.move) == (Decision.ACCEPT, table.phrases[phrase])
        return
    assert result.decision != Decision.ACCEPT
    if result.decision == Decision.REJECT:
        assert result.refusal is not None  # an illegal move, a missing promotion piece, ...
        return
    best = [c.move for c in result.candidates if c.cost <= result.candidates[0].cost + 1e-9]
    intent = parse_intent(phrase, VOCAB)
    others = intent_moves(board, intent) if intent is not None else []
    if others:  # the words now describe other moves, ambiguously: those come first
        assert set(best) <= set(others), phrase
    else:
        assert move in best, phrase
    if result.decision == Decision.CONFIRM:
        assert result.move == move


UNRELATED = st.lists(
    st.sampled_from(
        [
            "guten",
            "morgen",
            "hund",
            "katze",
            "wetter",
            "heute",
            "hunger",
            "kaffee",
            "bitte",
            "danke",
            "schön",
            "äh",
            "hm",
            "also",
            "der",
            "die",
            "und",
            "wie",
            "spät",
            "es",
        ]
    ),
    max_size=5,
)


@PROPERTY
@given(positions(), UNRELATED)
def test_unrelated_german_words_are_rejected_in_any_position(
    board: chess.Board, words: list[str]
) -> None:
    result = match_move(board, [Hypothesis(tuple(words))], VOCAB, THRESHOLDS)
    assert (result.decision, result.move, result.candidates) == (Decision.REJECT, None, ())


# -- the same distance for command words ---------------------------------------------------


def test_rank_phrases_matches_command_words_too() -> None:
    table = {
        phrase: command for command, phrases in COMMAND_WORDS["de"].items() for phrase in phrases
    }
    ranked = rank_phrases([Hypothesis(("zurück",))], table)
    assert ranked[0][:2] == ("correction", 0.0)
    ranked = rank_phrases([Hypothesis(("korektur",))], table)
    assert ranked[0][0] == "correction" and 0 < ranked[0][1] < 1
    ranked = rank_phrases([Hypothesis(("wer", "ist", "zug"))], table)
    assert ranked[0][0] == "whose_turn"


@pytest.mark.parametrize(
    ("said", "rank"),
    [
        ("Eva neun", "neun"),
        ("Springer Felix neun", "neun"),
        ("Turm Anna 0", "null"),
        # Numbers without a counting word were the nearest rank: "Eva drei oder vier?"
        ("Eva null", "null"),
        ("Eva zehn", "zehn"),
        ("Dame David zwölf", "zwölf"),
    ],
)
def test_a_rank_beyond_the_board_is_named(said: str, rank: str) -> None:
    """ "Eva neun": there is no rank nine, and the player is told so. The nearest moves were
    offered ("Eva vier oder drei?"), asked back or answered "Mehrere Züge passen" (a
    review). It is no attempt at an illegal move."""
    result = heard(chess.Board(), said)
    assert result.decision == Decision.REJECT and result.refusal is not None
    assert result.refusal.text("de") == (
        f"Eine Reihe {rank} gibt es nicht: die Reihen gehen von eins bis acht."
    )
    assert result.refusal.reason in NOT_AN_ATTEMPT


def test_a_journal_of_revision_22_replays_a_rank_beyond_the_board_as_it_was_played(
    settings: Settings,
) -> None:
    """Before revision 23, "Eva neun" offered the nearest moves, and "vier" after it made
    Eva vier: the journal of such a game must make that move again on resume, not refuse
    "Eva neun" and leave "vier" without a question to answer."""
    from session_scripts import moves, run_text, says

    script = """
    {"setup": {"mode": "game", "blind": "white", "time_control": "600"REVISION}}
    {"t": 1, "blind": "Eva neun"}
    {"t": 2, "blind": "vier"}
    {"t": 9, "arbiter": {"action": "pause"}}
    """
    old = run_text(script.replace("REVISION", ', "app": "play", "revision": 22'), settings)
    assert says(old, "blind", 1.0) == ["Eva vier oder drei?"] and moves(old) == ["e2e4"]
    now = run_text(script.replace("REVISION", ""), settings)
    assert says(now, "blind", 1.0) == [
        "Eine Reihe neun gibt es nicht: die Reihen gehen von eins bis acht."
    ]
    assert moves(now) == []
