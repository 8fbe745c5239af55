"""A game with no board for the sighted opponent (``play --no-web``): the opponent's moves come
through the blind player's input too, heard and echoed like the player's own."""

from __future__ import annotations

from pathlib import Path

from console import Console
from session_scripts import clock_at, moves, run_text, says

from voice.config import Settings
from voice.runtime.journal import read_journal

SETUP = '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10", %s}}'


def test_the_opponents_move_said_on_their_turn_is_made_and_their_clock_pressed(
    settings: Settings,
) -> None:
    out = run_text(
        "\n".join(
            [
                SETUP % '"opponent_speaks": true',
                '{"t": 5, "blind": "Eva vier"}',
                '{"t": 7, "blind": "Hilfe"}',
                '{"t": 9, "blind": "Eva fünf"}',
                '{"t": 14, "blind": "Springer Felix drei"}',
            ]
        ),
        settings,
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
    out = run_text(
        "\n".join(
            [
                SETUP % '"opponent_speaks": true, "profile": "tournament"',
                '{"t": 0, "arbiter": {"action": "approve_setup"}}',
                '{"t": 5, "blind": "Eva vier"}',
                '{"t": 9, "blind": "König Eva sieben"}',
            ]
        ),
        settings,
    )
    logged = says(out, "arbiter", 9.0)
    assert logged and "Schwarz" in logged[0]


def test_without_the_setting_the_opponents_turn_still_refuses_a_move(settings: Settings) -> None:
    out = run_text(
        "\n".join([SETUP % '"profile": "home"', '{"t": 5, "blind": "Eva vier"}',
                   '{"t": 9, "blind": "Eva fünf"}']),
        settings,
    )  # fmt: skip
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
