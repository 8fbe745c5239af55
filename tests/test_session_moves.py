"""The blind player's move and the sighted player's move (D.2.1, D.2.3–D.2.5, D.2.8, §6.1–6.5).

Every test runs a scenario script from ``tests/scripts`` through ``voice-chess simulate``'s
runner and checks the JSON lines it prints.
"""

from __future__ import annotations

from session_scripts import (
    clock_at,
    final_board,
    move_lines,
    moves,
    pgn_text,
    refused,
    results,
    run,
    says,
)

from voice.config import Settings


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
    assert arbiter[0].startswith("Regelwidriger Zugversuch von Weiß, Nummer 1")
    assert arbiter[1].startswith("Regelwidriger Zugversuch von Weiß, Nummer 2")
    assert clock_at(out, 6.0)["black"] == 300.0
    assert moves(out) == ["e2e4"]


def test_D_2_5_sighted_move_validated_made_and_announced_with_mate(settings: Settings) -> None:
    out = run("sighted_move_announced_and_refused", settings)
    assert says(out, "blind", 1.0) == ["Ihr Gegner ist am Zug."]
    first = refused(out)[0]
    assert first == {"t": 2.0, "by": "white", "reason": "cannot_move_there"}
    assert says(out, "sighted", 2.0) == ["Der Bauer auf Eva zwei kann nicht nach Eva fünf."]
    assert clock_at(out, 2.0)["running"] == "white"
    # SAN and UCI both work; the blind player hears the move in Appendix D words.
    assert says(out, "blind", 3.0) == ["Eva vier"]
    assert clock_at(out, 3.0)["running"] == "black"
    assert refused(out)[1] == {"t": 9.0, "by": "white", "reason": "not_your_turn"}
    assert says(out, "blind", 15.0)[0] == "Dame schlägt Felix sieben matt"
    assert results(out) == [{"t": 15.0, "result": "1-0", "reason": "checkmate"}]
    assert final_board(out).is_checkmate()
