"""The blind and the sighted player's moves (D.2.1, D.2.3–D.2.5, D.2.8, docs/rules.md §6.1–6.5).

Every test runs a scenario script from ``tests/scripts`` through ``voice-chess simulate``'s
runner and checks the JSON lines it prints.
"""

from __future__ import annotations

import chess
import pytest
from session_scripts import (
    SCRIPTS,
    clock_at,
    final_board,
    move_lines,
    moves,
    pgn_text,
    refused,
    results,
    run,
    run_text,
    says,
)

from voice.config import Settings
from voice.game.session import GameSession
from voice.game.session_base import PendingChoice
from voice.rules.events import BlindSpeech, Say, parse_setup


def test_D_2_3_opponent_clock_does_not_move_between_announcement_and_acceptance(
    settings: Settings,
) -> None:
    out = run("d23_confirm_opponent_clock_waits", settings)
    # t=4: asked back; nothing made, White's clock runs, Black's stands.
    assert says(out, "blind", 4.0) == ["Springer Felix drei?"]
    asked = clock_at(out, 4.0)
    assert asked["running"] == "white" and asked["black"] == 300.0
    assert not [line for line in move_lines(out) if line["t"] < 9.0]
    # t=9: "ja" makes the move; only now does Black's clock start, untouched until then.
    made = clock_at(out, 9.0)
    assert move_lines(out)[0] == {
        "t": 9.0,
        "move": {"uci": "g1f3", "san": "Nf3", "by": "white", "spoken": "Springer Felix drei"},
    }
    assert made["running"] == "black"
    assert made["black"] == 300.0
    assert made["white"] == 300.0 - 9.0 + 5.0  # nine seconds used, increment after the move
    assert clock_at(out, 12.0)["black"] == 300.0 - 3.0 + 5.0


def test_D_2_8_correction_inside_window_leaves_no_trace(settings: Settings) -> None:
    out = run("d28_correction_inside_window", settings)
    # The slip is announced back at once, but not made: no move line, White's clock runs on.
    assert says(out, "blind", 5.0) == ["Springer Felix drei"]
    assert "g1f3" not in moves(out)
    assert clock_at(out, 6.0)["running"] == "white"
    assert clock_at(out, 6.0)["black"] == 300.0
    # The corrected move is made when its own window ends (8 s + 2 s) and the clock switches then.
    assert move_lines(out)[0]["t"] == 10.0
    assert move_lines(out)[0]["move"]["uci"] == "b1c3"
    assert clock_at(out, 8.0)["running"] == "white"
    switched = clock_at(out, 10.0)
    assert switched == {"t": 10.0, "white": 290.0, "black": 300.0, "running": "black", "moves": 1}
    # No trace on the scoresheet either.
    assert "Nf3" not in pgn_text(out)
    assert moves(out) == ["b1c3", "d7d5"]


def test_D_2_8_correction_after_clock_switch_is_an_arbiter_matter(settings: Settings) -> None:
    out = run("d28_correction_after_window", settings)
    assert move_lines(out)[0]["t"] == 6.5  # 5 s + 1.5 s window
    assert says(out, "blind", 7.0) == [
        "Zu spät: die Uhr des Gegners läuft schon. Bitte den Schiedsrichter rufen."
    ]
    assert moves(out) == ["e2e4"]


@pytest.mark.parametrize(
    ("profile", "said"),
    [
        ("home", "Zu spät: der Zug ist gemacht und gilt."),
        ("tournament", "Zu spät: der Zug ist gemacht. Bitte den Schiedsrichter rufen."),
    ],
)
def test_D_2_8_correction_after_the_opponents_reply_says_the_move_stands(
    profile: str, said: str, settings: Settings
) -> None:
    """Against the computer its reply comes at once, so "Korrektur" always comes after it: it
    was answered "Es gibt nichts zu korrigieren", as if the player's move had not been made. It
    stands (D.2.8); at a tournament board the arbiter can still take moves back, at home
    there is no one to call. Before the player's first move there is nothing to correct."""
    out = run_text(
        f"""
        {{"setup": {{"mode": "game", "blind": "white", "profile": "{profile}"}}}}
        {{"t": 1, "blind": "Korrektur"}}
        {{"t": 2, "blind": "Eva vier"}}
        {{"t": 3, "sighted": "e5"}}
        {{"t": 4, "blind": "Korrektur"}}
        """,
        settings,
    )
    assert says(out, "blind", 1.0) == ["Es gibt nichts zu korrigieren."]
    assert says(out, "blind", 4.0) == [said]
    assert moves(out) == ["e2e4", "e7e5"]


def test_6_5_illegal_spoken_move_changes_nothing_and_is_logged_in_tournament(
    settings: Settings,
) -> None:
    out = run("r65_illegal_spoken_move_changes_nothing", settings)
    assert says(out, "blind", 3.0) == ["Kein Springer kann nach Felix vier."]
    assert says(out, "blind", 4.0) == ["Keine Dame kann nach Hector fünf."]
    assert [r["reason"] for r in refused(out)] == ["no_piece_can_reach", "no_piece_can_reach"]
    for t in (3.0, 4.0):
        state = clock_at(out, t)
        assert state["running"] == "white" and state["black"] == 300.0 and state["moves"] == 0
    assert not [line for line in move_lines(out) if line["t"] < 6.0]
    # Logged for the arbiter, counted per player, not penalised.
    arbiter = says(out, "arbiter")
    assert arbiter[0].startswith("Regelwidriger Zugversuch von Weiß, Nummer eins")
    assert arbiter[1].startswith("Regelwidriger Zugversuch von Weiß, Nummer zwei")
    assert clock_at(out, 6.0)["black"] == 300.0
    assert moves(out) == ["e2e4"]


def test_D_2_5_sighted_move_validated_made_and_announced_with_mate(settings: Settings) -> None:
    out = run("sighted_move_announced_and_refused", settings)
    assert says(out, "blind", 1.0) == ["Ihr Gegner ist am Zug."]
    first = refused(out)[0]
    assert first == {"t": 2.0, "by": "white", "reason": "cannot_move_there"}
    # The sighted opponent's page names squares as the board does (Anna … Hector are the
    # blind player's words).
    assert says(out, "sighted", 2.0) == ["Der Bauer auf e2 kann nicht nach e5."]
    assert clock_at(out, 2.0)["running"] == "white"
    # SAN and UCI both work; the blind player hears the move in Appendix D words.
    assert says(out, "blind", 3.0) == ["Eva vier"]
    assert clock_at(out, 3.0)["running"] == "black"
    assert refused(out)[1] == {"t": 9.0, "by": "white", "reason": "not_your_turn"}
    assert says(out, "blind", 15.0)[0] == "Dame schlägt Felix sieben matt"
    assert results(out) == [{"t": 15.0, "result": "1-0", "reason": "checkmate"}]
    assert final_board(out).is_checkmate()


def test_D_2_1_choose_offers_candidates_by_number_and_the_number_picks(
    settings: Settings,
) -> None:
    out = run("d21_choose_by_number", settings)
    assert says(out, "blind", 1.0) == [
        "Eins: Eva vier. Zwei: Springer Felix drei. Welcher Zug? Bitte die Nummer."
    ]
    assert clock_at(out, 1.0)["running"] == "white"
    # Help while choosing says what can be said now; a number out of range changes nothing.
    assert says(out, "blind", 2.0)[0].startswith("Sagen Sie eine Nummer von eins bis zwei")
    assert says(out, "blind", 3.0) == ["Bitte eine Nummer von eins bis zwei."]
    assert not [line for line in move_lines(out) if line["t"] < 4.0]
    assert moves(out) == ["g1f3"]
    assert clock_at(out, 4.0)["running"] == "black"


def test_two_candidates_differing_in_one_word_are_asked_by_that_word(
    settings: Settings,
) -> None:
    """ "Springer Bella oder Felix David zwei?": the short question names only the difference,
    and that word alone picks the move."""
    out = run("d21_choose_by_difference", settings)
    assert says(out, "blind", 1.0) == ["Springer Bella oder Felix David zwei?"]
    assert says(out, "blind", 2.0) == ["Springer Bella oder Felix David zwei?"]  # Hilfe
    assert moves(out) == ["f3d2"]
    assert move_lines(out)[0]["t"] == 3.0


def test_when_the_difference_is_a_rank_its_number_is_the_rank_not_a_choice(
    settings: Settings,
) -> None:
    """ "Springer eins oder drei David zwei?" - "drei" is the knight on the third rank (as a
    choice number it would be out of range)."""
    out = run("d21_choose_by_differing_rank", settings)
    assert says(out, "blind", 1.0) == ["Springer eins oder drei David zwei?"]
    assert moves(out) == ["b3d2"]


def test_D_2_1_choose_a_fuller_move_picks_the_candidate(settings: Settings) -> None:
    out = run("d21_choose_by_fuller_move", settings)
    assert moves(out) == ["b1d2"]
    assert move_lines(out)[0]["move"]["san"] == "Nbd2"


def test_D_2_1_confirm_no_discards_and_a_new_phrase_replaces_the_question(
    settings: Settings,
) -> None:
    out = run("d21_confirm_yes_no_replace", settings)
    assert says(out, "blind", 1.0) == ["Springer Felix drei?"]
    assert says(out, "blind", 2.0) == ["Verworfen. Bitte Ihren Zug."]
    assert says(out, "blind", 3.0) == ["Springer Cesar drei?"]
    assert says(out, "blind", 4.0) == ["Eva vier?"]  # replaces the open question
    assert says(out, "blind", 5.0)[0].startswith("Mit ja spielen Sie Eva vier")
    assert moves(out) == ["e2e4"]
    assert move_lines(out)[0]["t"] == 6.0
    assert says(out, "blind", 7.0) == ["Es gibt gerade keine Frage zu beantworten."]
    for t in (1.0, 2.0, 3.0, 4.0, 5.0):
        assert clock_at(out, t)["running"] == "white"
        assert clock_at(out, t)["black"] == 900.0


def test_D_2_1_promotion_by_voice_needs_the_piece(settings: Settings) -> None:
    out = run("d21_promotion_by_voice", settings)
    assert says(out, "blind", 1.0) == ["Welche Figur?"]
    assert refused(out)[0] == {"t": 1.0, "by": "white", "reason": "which_piece"}
    assert clock_at(out, 1.0)["running"] == "white"
    # Capture and under-promotion in one phrase: asked back, however clearly heard.
    assert says(out, "blind", 2.0) == ["Eva schlägt David acht Springer?"]
    assert clock_at(out, 2.0)["running"] == "white"
    assert move_lines(out)[0]["t"] == 2.5
    assert move_lines(out)[0]["move"] == {
        "uci": "e7d8n",
        "san": "exd8=N",
        "by": "white",
        "spoken": "Eva schlägt David acht Springer",
    }
    # The sighted side must name the piece too; then the blind player hears it with the check.
    assert refused(out)[1] == {"t": 3.0, "by": "black", "reason": "which_piece"}
    assert says(out, "blind", 4.0) == ["Gustav eins Dame Schach"]
    assert moves(out) == ["e7d8n", "g2g1q", "h1g1"]


def test_D_2_1_promotion_with_the_word_wird(settings: Settings) -> None:
    out = run("d21_promotion_queen_by_voice", settings)
    assert move_lines(out)[0]["move"]["san"] == "a1=Q+"
    assert says(out, "blind", 1.0) == ["Anna eins Dame Schach"]


def test_D_2_1_en_passant_by_voice(settings: Settings) -> None:
    out = run("d21_en_passant_by_voice", settings)
    assert moves(out) == ["d7d5", "e5d6"]
    assert move_lines(out)[1]["move"]["san"] == "exd6"
    assert says(out, "blind", 2.0) == ["Eva schlägt David sechs en passant"]
    assert final_board(out).piece_at(chess.D5) is None


def test_D_2_1_both_castlings_by_voice(settings: Settings) -> None:
    short = run("d21_castling_by_voice", settings)
    assert says(short, "blind", 1.0) == ["Lange Rochade"]  # the sighted side's castling
    assert move_lines(short)[1]["move"] == {
        "uci": "e8g8",
        "san": "O-O",
        "by": "black",
        "spoken": "Kurze Rochade",
    }
    assert says(short, "blind", 4.0) == ["Lange Rochade ist nicht mehr erlaubt."]
    long = run("d21_castling_long_by_voice", settings)
    assert move_lines(long)[0]["move"]["san"] == "O-O-O"
    assert move_lines(long)[0]["move"]["uci"] == "e1c1"


def test_repeat_back_check_says_right_or_names_the_difference(settings: Settings) -> None:
    out = run("repeat_back_check", settings)
    assert says(out, "blind", 2.0) == ["Richtig."]
    assert says(out, "blind", 5.0) == [
        "Nicht ganz: gesagt Springer Hector drei, gespielt wurde Springer Felix drei."
    ]
    # Repeating is not a move: the board and the clock did not change.
    assert moves(out) == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert clock_at(out, 2.0)["running"] == "black"


REPEAT_OR_MOVE = "Wiederholung oder Ihr Zug? Sagen Sie Wiederholung oder Zug."
RECAPTURE = {"uci": "a1d1", "san": "Rxd1", "by": "white", "spoken": "Turm schlägt David eins"}


def test_words_that_repeat_the_opponents_move_and_recapture_ask_which_is_meant(
    settings: Settings,
) -> None:
    """A repeat never becomes a move, and a move is not left waiting with the clock running:
    "Turm schlägt David eins" after the opponent's Rxd1 is both, so the player is asked."""
    out = run("repeat_back_recapture", settings)
    assert says(out, "blind", 2.0) == [REPEAT_OR_MOVE]
    assert clock_at(out, 2.0)["running"] == "white"
    assert says(out, "blind", 3.0) == ["Richtig."]  # "Wiederholung": it was the repeat
    assert [line["move"] for line in move_lines(out)][1:] == [RECAPTURE]  # said again: a move
    assert move_lines(out)[1]["t"] == 4.0


def test_answering_zug_makes_the_recapture(settings: Settings) -> None:
    out = run("repeat_or_move_answered_move", settings)
    assert says(out, "blind", 2.0) == [REPEAT_OR_MOVE]
    assert move_lines(out)[1] == {"t": 3.0, "move": RECAPTURE}
    # "Zug" with no question open is not a move.
    assert says(out, "blind", 4.0) == ["Es gibt gerade keine Frage zu beantworten."]
    assert len(move_lines(out)) == 2


def test_zug_heard_unsurely_asks_back_the_recapture_by_name(settings: Settings) -> None:
    """ "Zug" makes a move like "ja" does, and is heard as "zurück" and back: heard unsurely,
    the recapture is asked back by name instead of made."""
    lines = (SCRIPTS / "repeat_or_move_answered_move.jsonl").read_text().splitlines()[:3]
    script = "\n".join([*lines, '{"t": 3, "blind_nbest": [["Zug", 0.3]]}'])
    out = run_text(script, settings)
    assert says(out, "blind", 3.0) == ["Turm schlägt David eins?"]
    assert len(move_lines(out)) == 1  # only the opponent's
    answered = run_text(script + '\n{"t": 4, "blind": "ja"}', settings)
    assert move_lines(answered)[1] == {"t": 4.0, "move": RECAPTURE}


def test_saying_the_words_again_makes_the_recapture(settings: Settings) -> None:
    out = run("repeat_or_move_said_again", settings)
    assert says(out, "blind", 2.0) == [REPEAT_OR_MOVE]
    assert move_lines(out)[1] == {"t": 3.0, "move": RECAPTURE}


def test_an_underpromotion_is_asked_back_and_a_queen_is_not(settings: Settings) -> None:
    """A promotion to a rook, bishop or knight is rare and final once made (4.4.4), and a
    spoken "Dame" at the end of a promotion is the word most often misheard as "Turm": it is
    asked back even when heard for sure, typed or said; a queen is made at once."""
    setup = (
        '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10",'
        ' "fen": "8/P7/7k/8/8/8/8/4K3 w - - 0 1"}}'
    )
    rook = run_text(
        setup + '\n{"t": 1, "blind": "Anna acht Turm"}\n{"t": 2, "blind": "ja"}', settings
    )
    assert says(rook, "blind", 1.0) == ["Anna acht Turm?"]
    assert moves(rook) == ["a7a8r"]
    refused_rook = run_text(
        setup + '\n{"t": 1, "blind": "Anna acht Turm"}\n{"t": 2, "blind": "nein"}', settings
    )
    assert moves(refused_rook) == []
    queen = run_text(setup + '\n{"t": 1, "blind": "Anna acht Dame"}', settings)
    assert moves(queen) == ["a7a8q"]


def test_a_yes_heard_unsurely_once_neither_plays_the_move_asked_back_nor_resigns(
    settings: Settings,
) -> None:
    """The move was asked back because the recogniser was unsure of it; a "ja" it is just as
    unsure of (below ``accept_confidence``: a neighbour talking, a cough) asks again how to
    answer, and nothing is played (Art. 4.7: a move once made stands) or resigned. A "ja"
    heard surely, or typed, answers; so does a second unsure one to the same question."""
    setup = '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}}\n'
    asked = '{"t": 1, "blind_nbest": [["Springer Felix drei", 0.4]]}\n'
    unsure = run_text(setup + asked + '{"t": 2, "blind_nbest": [["ja", 0.3]]}', settings)
    assert says(unsure, "blind", 1.0) == ["Springer Felix drei?"]
    assert says(unsure, "blind", 2.0) == [
        "Nicht sicher verstanden, ob Sie ja sagten.",
        "Mit ja spielen Sie Springer Felix drei, mit nein verwerfen Sie den Zug. "
        "Oder sagen Sie einen anderen Zug.",
    ]
    assert moves(unsure) == []
    again = run_text(
        setup + asked + '{"t": 2, "blind_nbest": [["ja", 0.3]]}\n{"t": 3, "blind": "ja"}',
        settings,
    )
    assert moves(again) == ["g1f3"]
    # Faint speech: a second unsure "ja" to the same question answers it.
    twice = '{"t": 2, "blind_nbest": [["ja", 0.3]]}\n{"t": 3, "blind_nbest": [["ja", 0.3]]}'
    assert moves(run_text(setup + asked + twice, settings)) == ["g1f3"]
    # ... but not one to an earlier question: a new move asked back starts afresh.
    other = (
        '{"t": 2, "blind_nbest": [["ja", 0.3]]}\n'
        '{"t": 3, "blind_nbest": [["Springer Cesar drei", 0.4]]}\n'
        '{"t": 4, "blind_nbest": [["ja", 0.3]]}'
    )
    assert moves(run_text(setup + asked + other, settings)) == []
    # ... nor one after anything else was heard in between (a player's trial in babble: noise
    # heard as "ja", a "Nicht verstanden", noise heard as "ja" again played the move).
    between = (
        '{"t": 2, "blind_nbest": [["ja", 0.49]]}\n'
        '{"t": 3, "blind_nbest": []}\n'
        '{"t": 4, "blind_nbest": [["ja", 0.49]]}'
    )
    late = run_text(setup + asked + between, settings)
    assert moves(late) == [] and says(late, "blind", 4.0)[0].startswith("Nicht sicher")
    # A journal of the rules before (revision 19) replays as it was played.
    old_rules = setup.replace('"900+10"', '"900+10", "app": "play", "revision": 19')
    assert moves(run_text(old_rules + asked + between, settings)) == ["g1f3"]
    sure = run_text(setup + asked + '{"t": 2, "blind_nbest": [["ja", 0.9]]}', settings)
    assert moves(sure) == ["g1f3"]
    resign = run_text(
        setup + '{"t": 1, "blind": "Aufgabe"}\n{"t": 2, "blind_nbest": [["ja", 0.3]]}', settings
    )
    assert [r["reason"] for r in results(resign)] == ["time_forfeit"]  # not resigned
    assert says(resign, "blind", 2.0)[0] == "Nicht sicher verstanden, ob Sie ja sagten."
    no = run_text(setup + asked + '{"t": 2, "blind_nbest": [["nein", 0.3]]}', settings)
    assert says(no, "blind", 2.0) == ["Verworfen. Bitte Ihren Zug."]  # "no" loses nothing


def test_a_number_heard_unsurely_asks_back_the_move_it_picks_instead_of_playing_it(
    settings: Settings,
) -> None:
    """The moves were offered because the recogniser could not tell them apart; a number it is
    unsure of ("drei" heard as "zwei" in a hall) must not pick one silently: the move it picks
    is asked back by name. A sure or typed number plays it."""
    setup = '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}}\n'
    offered = (
        '{"t": 1, "blind_nbest": [["Springer Felix drei", 0.3], ["Eva vier", 0.29],'
        ' ["David vier", 0.28]]}\n'
    )
    unsure = run_text(setup + offered + '{"t": 2, "blind_nbest": [["zwei", 0.3]]}', settings)
    assert says(unsure, "blind", 2.0) == ["Eva vier?"]
    assert moves(unsure) == []
    answered = run_text(
        setup + offered + '{"t": 2, "blind_nbest": [["zwei", 0.3]]}\n{"t": 3, "blind": "ja"}',
        settings,
    )
    assert moves(answered) == ["e2e4"]
    sure = run_text(setup + offered + '{"t": 2, "blind_nbest": [["zwei", 0.9]]}', settings)
    assert moves(sure) == ["e2e4"]
    typed = run_text(setup + offered + '{"t": 2, "blind": "drei"}', settings)
    assert moves(typed) == ["d2d4"]


def test_the_word_that_tells_two_moves_apart_heard_unsurely_asks_back_its_move(
    settings: Settings,
) -> None:
    """ "Springer Cesar oder Felix drei?" answered "Felix", heard unsurely: "Springer Felix
    drei?"."""
    setup = '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}}\n'
    offered = (
        '{"t": 1, "blind_nbest": [["Springer Cesar drei", 0.3], ["Springer Felix drei", 0.3]]}\n'
    )
    first = run_text(setup + offered, settings)
    question = says(first, "blind", 1.0)
    assert question and "oder" in question[0]
    unsure = run_text(setup + offered + '{"t": 2, "blind_nbest": [["Felix", 0.3]]}', settings)
    assert says(unsure, "blind", 2.0) == ["Springer Felix drei?"]
    assert moves(unsure) == []
    sure = run_text(setup + offered + '{"t": 2, "blind_nbest": [["Felix", 0.9]]}', settings)
    assert moves(sure) == ["g1f3"]


def test_a_number_out_of_range_after_a_question_by_word_asks_the_question_again(
    settings: Settings,
) -> None:
    """No numbers were offered ("Springer Bella oder Felix David zwei?"), so "drei" is not told
    "a number from one to two": it hears the question again."""
    text = (SCRIPTS / "d21_choose_by_difference.jsonl").read_text(encoding="utf-8")
    out = run_text(text.replace('"Hilfe"', '"drei"'), settings)
    assert says(out, "blind", 2.0) == ["Springer Bella oder Felix David zwei?"]
    assert moves(out) == ["f3d2"]


def test_the_opponents_page_names_castling_as_the_board_does(settings: Settings) -> None:
    """A castling the sighted opponent may no longer make is refused in their notation, not in
    the blind player's "Lange Rochade"."""
    script = """
{"setup": {"mode": "game", "time_control": "300", "fen": "r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1"}}
{"t": 1, "sighted": "e8c8"}
"""
    said = says(run_text(script, settings), "sighted", 1.0)
    assert len(said) == 1 and "O-O-O" in said[0] and "Rochade" not in said[0]


SIGHTED_PROMOTION = """
{"setup": {"mode": "game", "blind": "white", "fen": "3r2k1/4P3/8/8/8/8/6p1/4K2R b K - 0 1"}}
{"t": 1, "sighted": "g2g1"}
{"t": 2, "sighted": "gxh1"}
{"t": 3, "sighted": "g2f1"}
{"t": 4, "sighted": "g1=Q+"}
"""

CHOOSE_THE_PIECE = {
    "de": "Umwandlung auf g1: bitte die Figur wählen (Dame, Turm, Läufer oder Springer).",
    "en": "Promotion on g1: choose the piece (queen, rook, bishop or knight).",
}


@pytest.mark.parametrize("language", ["de", "en", "he", "ar", "fa"])
def test_3_7_5_1_a_sighted_promotion_sent_without_its_piece_asks_for_the_piece(
    language: str, settings: Settings
) -> None:
    """3.7.5.1: the new piece is part of the promotion. A promotion sent without it (the page's
    picker always sends one; a script or another client may not), in UCI as the page sends
    moves or in SAN, is refused telling the sighted player to choose the piece, in their
    language: not "Which piece?", the question the blind player answers by voice, nor "not a
    legal move". Any other illegal pawn move keeps its own reason."""
    from voice.words.messages import message

    setup = f'"opponent_language": "{language}", "fen"'
    out = run_text(SIGHTED_PROMOTION.replace('"fen"', setup), settings)
    assert [line["reason"] for line in refused(out)] == [
        "which_piece",
        "which_piece",
        "cannot_move_there",
    ]
    first, second = says(out, "sighted", 1.0), says(out, "sighted", 2.0)
    assert first == [message(language, "game.sighted.which_piece", square="g1")]
    assert second == [message(language, "game.sighted.which_piece", square="h1")]
    assert first[0] != message(language, "refusal.which_piece")
    if language in CHOOSE_THE_PIECE:
        assert first == [CHOOSE_THE_PIECE[language]]
    assert moves(out) == ["g2g1q"]  # with its piece named, the promotion is made


@pytest.mark.parametrize(("revision", "counted"), [(21, 1), (20, 3)])
def test_3_7_5_1_a_sighted_promotion_without_its_piece_is_no_illegal_move_attempt(
    revision: int, counted: int, settings: Settings
) -> None:
    """A promotion sent without its piece is input to complete ("choose the piece"), as "Welche
    Figur?" is for the blind player, and is not counted as an attempt at an illegal move: the
    arbiter's panel shows the count for each player. Only "g2f1" (no pawn move) counts. A
    journal of revision 20, which counted them, replays as it was played."""
    import json

    from voice.game.session import GameSession
    from voice.rules.events import SightedMove, parse_setup

    lines = SIGHTED_PROMOTION.strip().splitlines()
    setup = json.loads(lines[0])
    setup["setup"].update(app="play", revision=revision)
    game = GameSession(parse_setup(setup), settings)
    for line in lines[1:-1]:
        event = json.loads(line)
        game.handle(SightedMove(int(event["t"] * 1000), event["sighted"]))
    assert game.attempts == {"white": 0, "black": counted}


def test_words_that_name_no_move_on_the_opponents_turn_are_not_understood(
    settings: Settings,
) -> None:
    """ "Ihr Gegner ist am Zug" answers a move said out of turn; said for a misheard request it
    would tell the player that time cannot be asked for now (D.2.10.4 says it can). A request
    heard slightly wrong ("Zeid") is answered on either move; so while the clock stands."""
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "600"}}
        {"t": 1, "blind": "Zeid"}
        {"t": 2, "blind": "Eva vier"}
        {"t": 3, "blind": "Zeid"}
        {"t": 4, "blind": "xyzzy"}
        {"t": 5, "blind": "Springer Felix drei"}
        {"t": 6, "blind": "Pause"}
        {"t": 7, "blind": "xyzzy"}
        {"t": 8, "blind": "David vier"}
        """,
        settings,
    )
    assert says(out, "blind", 1.0)[0].endswith("Gespielt: null Züge.")
    assert says(out, "blind", 3.0)[0].endswith("Gespielt: ein Zug.")
    assert says(out, "blind", 4.0) == ["Nicht verstanden."]
    assert says(out, "blind", 5.0) == ["Ihr Gegner ist am Zug."]
    assert says(out, "blind", 7.0) == ["Nicht verstanden."]
    assert says(out, "blind", 8.0) == ["Die Uhr ist angehalten. Pause lässt sie weiterlaufen."]


def test_D_2_1_yes_to_moves_offered_by_number_says_how_to_pick_one(settings: Settings) -> None:
    """ "ja" to "Eins: … Zwei: … Welcher Zug?" picks nothing; the player hears how to pick, not
    "Es gibt gerade keine Frage zu beantworten." (there is one)."""
    setup = parse_setup({"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}})
    session = GameSession(setup, settings)
    heard = (("Springer Felix drei", 0.3), ("Eva vier", 0.29), ("David vier", 0.28))
    session.handle(BlindSpeech(1000, heard))
    assert isinstance(session.pending, PendingChoice)
    said = [e.text for e in session.handle(BlindSpeech(2000, (("ja", 0.9),))) if isinstance(e, Say)]
    assert said and said[0].startswith("Sagen Sie eine Nummer von eins bis drei")
    assert isinstance(session.pending, PendingChoice) and not session.sheet.entries


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ({"fen": "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"}, "Springer David zwei"),  # which knight?
        ({"laws": "2001", "fen": "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"}, "Eva acht"),  # which piece?
    ],
)
def test_D_2_1_yes_to_a_question_that_yes_does_not_answer_asks_it_again(
    settings: Settings, setup: dict[str, str], said: str
) -> None:
    """ "ja" to "Springer Bella oder Felix David zwei?" or, under the 2001 Laws, to "Welche
    Figur für Eva acht: …?" answers neither: the question is said again, nothing is played."""
    game = {"mode": "game", "blind": "white", "time_control": "900+10", **setup}
    session = GameSession(parse_setup({"setup": game}), settings)

    def heard(t: int, words: str) -> list[str]:
        return [
            e.text for e in session.handle(BlindSpeech(t, ((words, 0.9),))) if isinstance(e, Say)
        ]

    asked = heard(1000, said)
    pending = session.pending
    assert pending is not None and heard(2000, "ja") == asked[-1:]
    assert session.pending is pending and not session.sheet.entries
