"""A game with no board for the sighted opponent (``play --no-web``): the opponent's moves come
through the blind player's input too, heard and echoed like the player's own."""

from __future__ import annotations

from pathlib import Path

from console import Console
from session_scripts import Line, clock_at, moves, run_text, says

from voice.config import Settings
from voice.runtime.journal import read_journal

SETUP = '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10", %s}}'
BACK_RANK = "3r2k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 30"


OFFERED_AND_REMIS_AGAIN = [
    '{"t": 2, "blind": "Eva vier"}',
    '{"t": 4, "blind": "Eva fünf"}',
    '{"t": 6, "blind": "Springer Felix drei"}',
    '{"t": 7, "blind": "Remis"}',  # White's offer, after White's move
    '{"t": 9, "blind": "Remis"}',  # Black accepting, or White again: asked of Black
]


def play(settings: Settings, setup: str, *lines: str) -> list[Line]:
    """The script of a game with ``setup``'s keys (and White blind, 15 minutes + 10 s)."""
    return run_text("\n".join([SETUP % setup, *lines]), settings)


def threefold() -> list[str]:
    """Both knights out and back twice: the start position a third time, White to move."""
    knights = ["Springer Felix drei", "Springer Felix sechs", "Springer Gustav eins",
               "Springer Gustav acht"] * 2  # fmt: skip
    return [f'{{"t": {i + 1}, "blind": "{move}"}}' for i, move in enumerate(knights)]


def test_the_opponents_move_said_on_their_turn_is_made_and_their_clock_pressed(
    settings: Settings,
) -> None:
    out = play(
        settings,
        '"opponent_speaks": true',
        '{"t": 5, "blind": "Eva vier"}',
        '{"t": 7, "blind": "Hilfe"}',
        '{"t": 9, "blind": "Eva fünf"}',
        '{"t": 14, "blind": "Springer Felix drei"}',
    )
    assert moves(out) == ["e2e4", "e7e5", "g1f3"]
    made = [line["move"] for line in out if "move" in line]
    assert [m["by"] for m in made] == ["white", "black", "white"]
    assert says(out, "blind", 9.0) == ["Eva fünf"]  # echoed once, as the player's own
    assert clock_at(out, 9.0)["running"] == "white"
    assert clock_at(out, 9.0)["black"] == 900 - 4 + 10  # black's own four seconds, and 6.3.1
    assert "Sagen Sie auch die Züge Ihres Gegners" in says(out, "blind", 7.0)[-1]


def test_an_illegal_move_on_the_opponents_turn_counts_against_the_opponent(
    settings: Settings,
) -> None:
    out = play(
        settings,
        '"opponent_speaks": true, "profile": "tournament"',
        '{"t": 0, "arbiter": {"action": "approve_setup"}}',
        '{"t": 5, "blind": "Eva vier"}',
        '{"t": 9, "blind": "König Eva sieben"}',
    )
    logged = says(out, "arbiter", 9.0)
    assert logged and "Schwarz" in logged[0]


def test_without_the_setting_the_opponents_turn_still_refuses_a_move(settings: Settings) -> None:
    out = play(settings, '"profile": "home"', '{"t": 5, "blind": "Eva vier"}',
               '{"t": 9, "blind": "Eva fünf"}')  # fmt: skip
    assert moves(out) == ["e2e4"]
    assert says(out, "blind", 9.0) == ["Ihr Gegner ist am Zug."]


def test_play_without_the_web_board_takes_both_sides_moves_and_says_so(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    con = Console("play", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("Sagen Sie auch die Züge Ihres Gegners, zum Beispiel Springer Felix drei.")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        for move in ("Eva vier", "Eva fünf"):
            con.type(move)
            assert con.next_line() == move
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert read_journal(journal).setup.extra["opponent_speaks"] is True
    # Resumed without --no-web, it goes on as it began: no board page beside the voice.
    con = Console("play", "--text", "--no-speech", "--resume", str(journal))
    try:
        con.expect("Sagen Sie auch die Züge Ihres Gegners")
        con.expect("Partie fortgesetzt.")
        con.type("Springer Felix drei")
        con.expect("Springer Felix drei")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert not any("http://" in line for line in con.lines)


def test_a_move_said_again_is_a_repeat_never_the_other_sides_move(settings: Settings) -> None:
    """Appendix D players repeat the opponent's move aloud; with one microphone that repeat
    must not become the next move. Rxd1+ said twice: the second is asked, not White's
    Ra1xd1 (a reviewer's script)."""
    out = play(
        settings,
        ('"opponent_speaks": true, "fen": ' + f'"{BACK_RANK}"'),
        '{"t": 5, "blind": "Turm nimmt David eins Schach"}',
        '{"t": 7, "blind": "Turm nimmt David eins Schach"}',
    )
    assert moves(out) == ["d8d1"]
    assert says(out, "blind", 7.0)[0].startswith("Wiederholung oder Ihr Zug?")


def test_a_move_said_while_the_players_move_is_asked_back_does_not_replace_it(
    settings: Settings,
) -> None:
    """The opponent's reply, said while the player's move is still a question, was made as
    the player's move (e4-e5 for the opponent's e7-e5): the question is asked again."""
    out = play(
        settings,
        '"opponent_speaks": true',
        '{"t": 2, "blind": "Eva vier"}',
        '{"t": 5, "blind": "David sechs"}',
        '{"t": 8, "blind_nbest": [["David vier", 0.3]]}',
        '{"t": 10, "blind": "Eva fünf"}',
        '{"t": 12, "blind": "ja"}',
    )
    assert says(out, "blind", 10.0) == says(out, "blind", 8.0) == ["David vier?"]
    assert moves(out) == ["e2e4", "d7d6", "d2d4"]


def test_remis_offers_for_the_side_that_moved_and_is_accepted_by_the_other_named(
    settings: Settings,
) -> None:
    """9.1.2.1 with one microphone: "Remis" after a move offers for the side that made it; a
    second "Remis" may be the other side accepting or the same player again, so it is asked
    back naming the side that would accept ("Schwarz: Remis annehmen?")."""
    out = play(
        settings,
        '"opponent_speaks": true',
        *OFFERED_AND_REMIS_AGAIN,
        '{"t": 11, "blind": "ja"}',
    )
    assert says(out, "all", 7.0) == ["Weiß bietet Remis an."]
    assert says(out, "blind", 9.0) == ["Schwarz: Remis annehmen? Sagen Sie ja oder nein."]
    assert [(r["t"], r["result"], r["reason"]) for r in out if "result" in r] == [
        (11.0, "1/2-1/2", "agreement")
    ]


def test_aufgabe_names_the_side_that_would_resign(settings: Settings) -> None:
    """The player who has just moved may say "Aufgabe" too: the question names the side to
    move, so "nein" catches it."""
    out = play(
        settings,
        '"opponent_speaks": true',
        '{"t": 2, "blind": "Eva vier"}',
        '{"t": 4, "blind": "Aufgabe"}',
        '{"t": 5, "blind": "nein"}',
    )
    assert says(out, "blind", 4.0) == ["Schwarz: Wirklich aufgeben? Sagen Sie ja oder nein."]
    assert not [line for line in out if line.get("reason") == "resignation"]


def test_aufgabe_resigns_for_the_side_to_move(settings: Settings) -> None:
    out = play(
        settings,
        '"opponent_speaks": true',
        '{"t": 2, "blind": "Eva vier"}',
        '{"t": 4, "blind": "Aufgabe"}',
        '{"t": 5, "blind": "ja"}',
    )
    assert [(r["result"], r["reason"]) for r in out if "result" in r] == [("1-0", "resignation")]
    assert "Weiß gewinnt: Schwarz hat aufgegeben." in says(out, "blind", 5.0)


def test_aufgabe_while_a_move_is_asked_back_brings_the_question_again(
    settings: Settings,
) -> None:
    """Black's "Aufgabe" during White's question resigned for White (a player's trial)."""
    out = play(
        settings,
        '"opponent_speaks": true',
        '{"t": 2, "blind": "Eva vier"}',
        '{"t": 4, "blind": "Eva fünf"}',
        '{"t": 6, "blind_nbest": [["springer felix drei", 0.4]]}',
        '{"t": 7, "blind": "Aufgabe"}',
        '{"t": 8, "blind": "ja"}',
    )
    assert says(out, "blind", 7.0) == ["Springer Felix drei?"]
    assert moves(out) == ["e2e4", "e7e5", "g1f3"]
    assert not [line for line in out if line.get("reason") == "resignation"]


def test_a_short_repeat_of_the_move_just_made_is_asked_not_played_for_the_other_side(
    settings: Settings,
) -> None:
    """ "Turm David eins" after Rad1 (a rook on f1 too) fits White's move only loosely, and
    Black's Rxd1 exactly: it was played for Black (a player's trial)."""
    out = play(
        settings,
        '"opponent_speaks": true, "fen": "3r2k1/5ppp/8/8/8/8/5PPP/R4RK1 w - - 0 1"',
        '{"t": 1, "blind": "Turm Anna David eins"}',
        '{"t": 3, "blind": "Turm David eins"}',
    )
    assert moves(out) == ["a1d1"]
    assert says(out, "blind", 3.0)[0].startswith("Wiederholung oder Ihr Zug?")


def test_an_unsure_remis_does_not_accept_an_offer(settings: Settings) -> None:
    """A "Remis" heard at 0.05 accepted the opponent's offer and ended the game; as for an
    unsure "ja", nothing happens (also with the web board)."""
    out = play(
        settings,
        '"profile": "home"',
        '{"t": 2, "blind": "Eva vier"}',
        '{"t": 4, "sighted": "e7e5"}',
        '{"t": 5, "key": "sighted:draw_offer"}',
        '{"t": 6, "blind_nbest": [["remis", 0.05], ["partie", 0.01]]}',
        '{"t": 7, "blind": "Remis"}',
    )
    results = [(r["t"], r["reason"]) for r in out if "result" in r]
    assert results == [(7.0, "agreement")]
    assert says(out, "blind", 6.0) == ["Nicht verstanden."]


def test_an_unsure_claim_with_its_move_is_not_taken(settings: Settings) -> None:
    """A claim names the move that is made when it fails (9.2.1.1): heard at 0.1 it made Nf3."""
    out = play(
        settings,
        '"profile": "home"',
        '{"t": 2, "blind": "Eva vier"}',
        '{"t": 4, "sighted": "e7e5"}',
        '{"t": 6, "blind_nbest": [["remis springer felix drei", 0.1]]}',
    )
    assert moves(out) == ["e2e4", "e7e5"]
    assert says(out, "blind", 6.0) == ["Nicht verstanden."]


def test_a_journal_of_the_rules_before_takes_an_unsure_remis_as_it_did(
    settings: Settings,
) -> None:
    """Journals of session 18 and older replay as they were played: there an unsure "Remis"
    accepted the offer (a reviewer's finding: the game came back running)."""
    out = run_text(
        "\n".join(
            [
                '{"setup": {"mode": "game", "blind": "white", "app": "play", "settings": {}}}',
                '{"t": 2, "blind": "Eva vier"}',
                '{"t": 5, "sighted": "e7e5"}',
                '{"t": 11, "key": "sighted:draw_offer"}',
                '{"t": 12, "blind_nbest": [["remis", 0.3]]}',
            ]
        ),
        settings,
    )
    assert [(r["t"], r["reason"]) for r in out if "result" in r] == [(12.0, "agreement")]


def test_a_valid_claim_by_voice_is_asked_of_the_side_to_move(settings: Settings) -> None:
    """9.2: the claim is the side to move's. With one microphone, "Remis" when a claim is valid
    asks that side by name, and "ja" claims (the claim with its move is no phrase the
    recogniser listens for)."""
    out = play(
        settings,
        '"opponent_speaks": true',
        *threefold(),
        '{"t": 9, "blind": "Remis"}',
        '{"t": 10, "blind": "ja"}',
    )
    assert says(out, "blind", 9.0) == ["Weiß: Remis annehmen? Sagen Sie ja oder nein."]
    assert [(r["result"], r["reason"]) for r in out if "result" in r] == [
        ("1/2-1/2", "threefold_repetition")
    ]


def test_an_unsure_ja_to_the_draw_question_is_asked_again(settings: Settings) -> None:
    """ "ja" at 0.05 to "Schwarz: Remis annehmen?" drew the game; as for an unsure "ja" to
    "Wirklich aufgeben?", the question comes again."""
    out = play(
        settings,
        '"opponent_speaks": true',
        *OFFERED_AND_REMIS_AGAIN,
        '{"t": 11, "blind_nbest": [["ja", 0.05]]}',
    )
    assert not [r for r in out if "result" in r and r["t"] <= 11.0]
    assert says(out, "blind", 11.0)[-1] == "Schwarz: Remis annehmen? Sagen Sie ja oder nein."


def test_nein_to_a_claim_question_declines_no_offer_that_was_never_made(
    settings: Settings,
) -> None:
    out = play(settings, '"opponent_speaks": true', *threefold(),
               '{"t": 9, "blind": "Remis"}', '{"t": 10, "blind": "nein"}')  # fmt: skip
    assert not any("Remisangebot" in line for line in says(out))
    assert not [r for r in out if "result" in r and r["t"] <= 10.0]
