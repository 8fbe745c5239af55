"""On request only (D.2.10.4, D.2.6.1); unsolicited information per profile (docs/rules.md §6.4)."""

from __future__ import annotations

from session_scripts import clock_at, run, says

from voice.config import Settings


def test_D_2_10_4_requests_answer_time_moves_last_moves_position_where_turn_help(
    settings: Settings,
) -> None:
    out = run("d2104_requests", settings)
    time_answer = (
        "Weiß eine Stunde dreißig Minuten, Schwarz eine Stunde dreißig Minuten. "
        "Gespielt: zwei Züge. Bis zur Zeitkontrolle: achtunddreißig Züge."
    )
    assert says(out, "blind", 20.0) == [time_answer]
    assert says(out, "blind", 21.0) == [
        "Gespielt: zwei Züge. Bis zur Zeitkontrolle: achtunddreißig Züge."
    ]
    assert says(out, "blind", 22.0) == ["Letzter Zug, Schwarz: Springer Cesar sechs."]
    assert says(out, "blind", 23.0) == says(out, "blind", 22.0)  # "Wiederholen"
    assert says(out, "blind", 24.0) == [
        "Eins: …, Eva fünf. Zwei: Springer Felix drei, Springer Cesar sechs."
    ]
    position = says(out, "blind", 25.0)[0]
    assert position.startswith(
        "Weiß: König Eva eins; Dame David eins; Türme Anna eins, Hector eins; "
        "Läufer Cesar eins, Felix eins; Springer Bella eins, Felix drei; Bauern Anna zwei,"
    )
    assert "Schwarz: König Eva acht;" in position
    assert "Springer Cesar sechs, Gustav acht" in position
    assert says(out, "blind", 26.0) == [
        "Springer. Weiß: Bella eins, Felix drei. Schwarz: Cesar sechs, Gustav acht."
    ]
    assert says(out, "blind", 27.0) == [
        "Türme. Weiß: Anna eins, Hector eins. Schwarz: Anna acht, Hector acht."
    ]
    assert says(out, "blind", 28.0) == ["Sie sind am Zug, mit Weiß."]
    assert says(out, "blind", 29.0)[0].startswith("Sagen Sie Ihren Zug, etwa Springer Felix drei.")
    assert says(out, "blind", 30.0) == [
        "Eins: Eva vier, Eva fünf. Zwei: Springer Felix drei, Springer Cesar sechs."
    ]
    # A key asks the same; a command word heard slightly wrong still answers a request.
    assert says(out, "blind", 31.0) == [time_answer]
    assert says(out, "blind", 32.0) == [time_answer]
    # No request changes the game: the blind player's clock ran on throughout.
    assert clock_at(out, 32.0)["running"] == "white"
    assert clock_at(out, 32.0)["moves"] == 2


def test_6_4_home_profile_warns_on_low_time(settings: Settings) -> None:
    out = run("home_low_time_warnings", settings)
    assert says(out, "blind", 32.0) == ["Noch eine Minute."]
    assert says(out, "blind", 62.0) == ["Noch dreißig Sekunden."]


def test_6_4_tournament_profile_gives_no_unsolicited_information(settings: Settings) -> None:
    out = run("tournament_no_unsolicited_info", settings)
    spoken = [line for line in out if "say" in line]
    # Only the two moves announced and the arbiter's pause: no warnings, no hints.
    assert [line["say"] for line in spoken if line["to"] == "blind"] == [
        "Eva vier",
        "Eva fünf",
        "Springer Felix drei",
    ]
