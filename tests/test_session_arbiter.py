"""Arbiter actions (D.2.9, 6.10, 6.11, 7.1, 7.5): applied, logged with their reason, echoed."""

from __future__ import annotations

import pytest
from session_scripts import clock_at, moves, pgn_text, results, run, run_text, says

from voice.config import Settings
from voice.rules.arbiter import (
    ArbiterError,
    IllegalMove,
    Malformed,
    Retraction,
    SetMoves,
    read_action,
)
from voice.rules.events import ArbiterAction, input_to_json, loads, parse_input


def test_6_11_player_calls_the_arbiter_and_arbiter_adjusts_clocks_and_counter(
    settings: Settings,
) -> None:
    out = run("arbiter_actions", settings)
    assert says(out, "arbiter", 0.0) == [
        "Aufbau vom Schiedsrichter bestätigt.",
        "Protokolliert: Aufbau genehmigt (Grund: checked before the start).",
    ]
    # "Schiedsrichter" stops both clocks (6.11.1); a move attempt while stopped changes nothing.
    assert says(out, "all", 30.0) == ["Weiß ruft den Schiedsrichter. Die Uhr ist angehalten."]
    assert clock_at(out, 30.0)["running"] is None
    assert clock_at(out, 40.0)["white"] == clock_at(out, 30.0)["white"]
    # 6.10.2 / 7.1: time added, time set, move counter set; each logged with its reason.
    assert clock_at(out, 50.0)["black"] == clock_at(out, 40.0)["black"] + 120
    assert says(out, "arbiter", 50.0) == [
        "Protokolliert: Zeit gutgeschrieben (Grund: disturbance)."
    ]
    assert clock_at(out, 60.0)["white"] == 3000.0
    assert says(out, "all", 60.0) == ["Schiedsrichter: Weiß hat jetzt fünfzig Minuten."]
    assert clock_at(out, 70.0)["moves"] == 5
    assert says(out, "all", 70.0) == ["Schiedsrichter: der Zugzähler steht auf fünf."]
    assert clock_at(out, 80.0)["running"] == "white"
    assert says(out, "blind", 90.0) == [
        "Gespielt: fünf Züge. Bis zur Zeitkontrolle: fünfunddreißig Züge."
    ]
    # A malformed action is refused and changes nothing, in the arbiter's words: it was
    # refused in English inside the German sentence (a review).
    assert says(out, "arbiter", 100.0)[0].startswith(
        "Aktion fly_away abgelehnt: eine Aktion fly_away gibt es nicht; bekannt sind: pause, "
    )
    assert says(out, "arbiter", 101.0)[0].startswith(
        'Aktion Zeit gutgeschrieben abgelehnt: side darf nicht "green" sein; erlaubt: white, black'
    )
    assert clock_at(out, 101.0)["black"] == clock_at(out, 90.0)["black"]
    # A declared result ends the game and is announced to both sides.
    assert results(out) == [{"t": 110.0, "result": "0-1", "reason": "arbiter"}]
    assert "Schwarz gewinnt: Entscheidung des Schiedsrichters." in says(out, "all", 110.0)


def test_D_2_9_retract_to_an_agreed_point_with_clocks_readjusted(settings: Settings) -> None:
    out = run("d29_retract_to_agreed_point", settings)
    assert says(out, "all", 7.0) == [
        "Schiedsrichter: die Partie ist zurückgesetzt. Letzter Zug: Springer Felix drei. "
        "Schwarz ist am Zug."
    ]
    assert clock_at(out, 7.0) == {
        "t": 7.0,
        "white": 880.0,
        "black": 890.0,
        "running": "black",
        "moves": 2,
    }
    assert says(out, "blind", 8.0) == ["Letzter Zug, Weiß: Springer Felix drei."]
    # Play goes on from there on both boards; a retraction by half-moves works too.
    assert moves(out)[-2:] == ["d7d6", "f1c4"]
    assert clock_at(out, 11.0)["running"] == "white"
    assert clock_at(out, 11.0)["moves"] == 1
    assert pgn_text(out).endswith("1. e4 { [%clk 0:15:09] } 1... e5 { [%clk 0:15:09] } *")


def test_D_2_9_a_retraction_after_the_result_says_the_game_goes_on(settings: Settings) -> None:
    """Both players heard the result; a retraction past it must tell them it no longer
    stands, or the blind player would think the game still over."""
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "900", "language": "en"}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "sighted": "e5"}
        {"t": 3, "arbiter": {"action": "result", "result": "1-0", "reason": "forfeit"}}
        {"t": 4, "arbiter": {"action": "retract", "ply": 1}}
        {"t": 5, "arbiter": {"action": "retract", "ply": 0}}
        """,
        settings,
    )
    assert says(out, "blind", 4.0) == [
        "Arbiter: the game is taken back. Last move: Eva vier. Black to move.",
        "The game goes on.",
    ]
    assert says(out, "blind", 5.0) == [
        "Arbiter: the game is taken back. Last move: -. White to move."
    ]


SET_MOVES_ON_BLACKS_TURN = """
{"setup": {"mode": "game", "blind": "black", "time_control": "40/5400+30:1800+30"EXTRA}}
{"t": 2, "sighted": "e4"}
{"t": 15, "arbiter": {"action": "set_moves", "moves": 30}}
{"t": 16, "key": "moves"}
{"t": 17, "arbiter": {"action": "pause"}}
"""


def test_6_10_2_set_moves_without_a_side_leaves_black_one_behind_on_its_move(
    settings: Settings,
) -> None:
    """The number is the counter as the clock shows it, the moves White completed: Black, to
    move, has completed one fewer and reaches its control after its own fortieth move (both
    counters took the number, and Black reached it a move early), as the talking clock counts.
    A journal of revision 22 replays as it was played."""
    out = run_text(SET_MOVES_ON_BLACKS_TURN.replace("EXTRA", ""), settings)
    assert says(out, "blind", 16.0) == [
        "Gespielt: neunundzwanzig Züge. Bis zur Zeitkontrolle: elf Züge."
    ]
    assert clock_at(out, 15.0)["moves"] == 30  # White's
    older = ', "app": "play", "revision": 22'
    out = run_text(SET_MOVES_ON_BLACKS_TURN.replace("EXTRA", older), settings)
    assert says(out, "blind", 16.0) == ["Gespielt: dreißig Züge. Bis zur Zeitkontrolle: zehn Züge."]


def test_6_10_2_set_moves_without_a_side_counts_from_the_side_that_moved_first(
    settings: Settings,
) -> None:
    """From a position with Black to move, Black moved first: White, to move, is the one
    behind."""
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    out = run_text(
        f"""
        {{"setup": {{"mode": "game", "blind": "white", "time_control": "40/5400+30:1800+30",
          "fen": "{fen}"}}}}
        {{"t": 2, "sighted": "Kd7"}}
        {{"t": 15, "arbiter": {{"action": "set_moves", "moves": 30}}}}
        {{"t": 16, "key": "moves"}}
        {{"t": 17, "arbiter": {{"action": "pause"}}}}
        """.replace("\n          ", " "),
        settings,
    )
    assert says(out, "blind", 16.0) == [
        "Gespielt: neunundzwanzig Züge. Bis zur Zeitkontrolle: elf Züge."
    ]


def test_7_5_5_first_illegal_move_gives_the_opponent_time_the_second_loses(
    settings: Settings,
) -> None:
    out = run("r75_illegal_move_penalty_then_loss", settings)
    assert says(out, "all", 3.0)[0] == "Schiedsrichter: Weiß erhält eine Minute dazu."
    assert clock_at(out, 3.0)["white"] == clock_at(out, 2.0)["white"] + 60 - 1
    assert says(out, "all", 5.0)[0].startswith("Schiedsrichter: die Partie ist zurückgesetzt.")
    assert results(out) == [{"t": 5.0, "result": "1-0", "reason": "illegal_moves"}]


def test_7_5_5_second_illegal_move_when_the_opponent_cannot_mate_is_a_draw(
    settings: Settings,
) -> None:
    out = run("r75_second_illegal_move_against_lone_king_draws", settings)
    assert results(out) == [{"t": 2.0, "result": "1/2-1/2", "reason": "illegal_moves_draw"}]


def test_arbiter_action_while_window_open_the_move_completes_without_time(
    settings: Settings,
) -> None:
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "300", "correction_window": 2}}
        {"t": 5, "blind": "Eva vier"}
        {"t": 6, "arbiter": {"action": "pause"}}
        {"t": 9, "arbiter": {"action": "resume"}}
        {"t": 10, "arbiter": {"action": "pause"}}
        """,
        settings,
    )
    # The window ends at 7 s while the clock is stopped: the move is made, no time passes.
    assert [line["t"] for line in out if "move" in line] == [7.0]
    assert clock_at(out, 7.0)["white"] == 294.0
    assert clock_at(out, 10.0)["black"] == 299.0


@pytest.mark.parametrize(
    ("action", "params", "error"),
    [
        ("add_time", {"side": "white"}, "'seconds' must be a number"),
        ("set_time", {"side": "white", "seconds": -5}, "must lie in"),
        ("set_moves", {"moves": 2.5}, "'moves' must be a whole number"),
        ("retract", {}, "needs 'ply'"),
        ("retract", {"ply": 2, "to_move": 3}, "not both"),
        ("declare_result", {"result": "2-0"}, "'result' must be one of"),
        ("illegal_move", {}, "'side' must be"),
        ("pause", {"reason": 7}, "'reason' must be text"),
    ],
)
def test_arbiter_actions_are_validated(action: str, params: dict, error: str) -> None:
    with pytest.raises(ArbiterError, match=error):
        read_action(action, params)


def test_arbiter_input_is_read_once_into_its_typed_action_and_journalled_as_given() -> None:
    line = '{"t": 2, "arbiter": {"action": "illegal", "side": "black", "ply": 3, "reason": "7.5"}}'
    event = parse_input(loads(line))
    assert isinstance(event, ArbiterAction)
    assert event.command == IllegalMove("black", "move", Retraction(ply=3), "7.5")
    # The journal keeps the short name and the parameters word for word.
    assert input_to_json(event) == {
        "t": 2.0,
        "arbiter": {"action": "illegal", "side": "black", "ply": 3, "reason": "7.5"},
    }
    assert ArbiterAction(0, "set_moves", {"moves": 4}).command == SetMoves(4, None)
    bad = ArbiterAction(0, "set_moves", {"moves": 2.5}).command
    assert isinstance(bad, Malformed) and "'moves' must be a whole number" in bad.error


def test_arbiter_penalty_and_guideline_III_4_increment(settings: Settings) -> None:
    out = run("arbiter_penalty_and_increment", settings)
    assert clock_at(out, 20.0)["white"] == clock_at(out, 10.0)["white"] + 60  # blitz: 1 min
    assert says(out, "all", 20.0) == ["Schiedsrichter: Weiß erhält eine Minute dazu."]
    # From the next completed move on, 5 s are added for both.
    assert clock_at(out, 35.0)["black"] == clock_at(out, 30.0)["black"] - 5 + 5
    assert says(out, "arbiter", 36.0)[0].startswith("Aktion Inkrement für beide Spieler abgelehnt")


def test_every_arbiter_action_is_logged_with_its_reason_even_when_refused(
    settings: Settings,
) -> None:
    from voice.game.session import GameSession
    from voice.rules.events import ArbiterAction, Setup

    game = GameSession(Setup(mode="game", blind="white", time_control="600+5"), settings)
    game.handle(ArbiterAction(1000, "increment", {"seconds": 5, "reason": "III.4"}))
    game.handle(ArbiterAction(2000, "illegal", {"side": "black", "reason": "7.5.1"}))
    game.handle(ArbiterAction(3000, "result", {"result": "1-0", "reason": "forfeit"}))
    log = game.state()["log"]
    assert log[0]["kind"] == "refused:increment"  # the game has an increment already
    assert "without increment" in log[0]["detail"]
    assert log[1] == {
        "t": 2.0,
        "kind": "illegal_move",
        "side": "black",
        "detail": "7.5.1",
        "params": {"side": "black", "reason": "7.5.1"},
    }
    assert log[2]["kind"] == "declare_result" and log[2]["detail"] == "forfeit"
    assert game.state()["result"] == {"result": "1-0", "reason": "arbiter"}
    assert game.state()["clock"]["white"] == 600.0 - 3.0 + 60.0  # 7.5.5: one minute in rapid


HOME_PAUSE = """
{"setup": {"mode": "game", "time_control": "300", "profile": "home"}}
{"t": 1, "blind": "Eva vier"}
{"t": 2, "sighted": "e7e5"}
{"t": 3, "blind": "Pause"}
{"t": 4, "blind": "Springer Felix drei"}
{"t": 20, "blind": "Pause"}
{"t": 21, "blind": "Springer Felix drei"}
"""


def test_6_11_at_home_the_players_pause_also_starts_the_clock_again(settings: Settings) -> None:
    """No arbiter at home (none at all against the computer or without the web board): the
    stopped clock is started again by the player's own "Pause", and a move said meanwhile is
    told how, instead of "wait for the arbiter" for good."""
    out = run_text(HOME_PAUSE, settings)
    assert says(out, "blind", 3.0) == ["Weiß hält die Uhr an. Pause lässt sie weiterlaufen."]
    # The opponent's page has no such word: told only that the clock stands.
    assert says(out, "sighted", 3.0) == ["Weiß ruft den Schiedsrichter. Die Uhr ist angehalten."]
    assert says(out, "blind", 4.0) == ["Die Uhr ist angehalten. Pause lässt sie weiterlaufen."]
    assert says(out, "all", 20.0) == ["Die Uhr läuft weiter."]
    assert moves(out) == ["e2e4", "e7e5", "g1f3"]
    assert clock_at(out, 20.0)["white"] == clock_at(out, 3.0)["white"]  # stopped meanwhile


def test_6_11_at_a_tournament_only_the_arbiter_starts_the_clock_again(
    settings: Settings,
) -> None:
    out = run_text(HOME_PAUSE.replace('"home"', '"tournament"'), settings)
    assert says(out, "all", 3.0) == ["Weiß ruft den Schiedsrichter. Die Uhr ist angehalten."]
    assert "Die Uhr läuft weiter." not in says(out, "all", 20.0)
    assert moves(out) == ["e2e4", "e7e5"]


def test_a_game_resumed_with_its_clock_stopped_says_so(settings: Settings) -> None:
    from voice.game.session import GameSession
    from voice.rules.events import Say, parse_input, parse_setup

    lines = [loads(line) for line in HOME_PAUSE.strip().splitlines()[:5]]
    session = GameSession.replay(
        parse_setup(lines[0]), [parse_input(obj) for obj in lines[1:]], settings
    )
    said = [o.text for o in session.resume_announcement() if isinstance(o, Say)]
    assert said[-1] == "Die Uhr ist angehalten. Pause lässt sie weiterlaufen."


def test_a_game_resumed_before_its_first_move_tells_the_player_their_colour(
    settings: Settings,
) -> None:
    """Killed before the first move (a tournament board waiting for the arbiter's approval),
    the game never said "Sie spielen Schwarz"; after a move the player knows it."""
    from voice.game.session import GameSession
    from voice.rules.events import Say, Setup, parse_input

    setup = Setup(mode="game", blind="black", time_control="600")
    session = GameSession.replay(setup, [], settings)
    said = [o.text for o in session.resume_announcement() if isinstance(o, Say)]
    assert said[1] == "Sie spielen Schwarz."
    played = GameSession.replay(setup, [parse_input({"t": 1, "sighted": "e2e4"})], settings)
    said = [o.text for o in played.resume_announcement() if isinstance(o, Say)]
    assert "Sie spielen Schwarz." not in said


def test_6_11_at_home_a_clock_the_arbiter_stopped_waits_for_the_arbiter(
    settings: Settings,
) -> None:
    """A home game with the arbiter's page: what the arbiter stopped, only the arbiter starts."""
    paused = '{"t": 3, "arbiter": {"action": "pause"}}'
    out = run_text(HOME_PAUSE.replace('{"t": 3, "blind": "Pause"}', paused), settings)
    assert says(out, "blind", 4.0) == ["Die Uhr ist angehalten. Warten Sie auf den Schiedsrichter."]
    assert "Die Uhr läuft weiter." not in says(out, "all", 20.0)
    assert moves(out) == ["e2e4", "e7e5"]


def test_a_journal_the_app_wrote_before_the_home_pause_rule_replays_as_played(
    settings: Settings,
) -> None:
    """An older journal (the app's, without the settings it was played with): "Pause" twice
    and a move replay as they were played (the move refused), not with today's rule."""
    script = HOME_PAUSE.replace('"profile": "home"', '"profile": "home", "app": "play"')
    out = run_text(script, settings)
    assert moves(out) == ["e2e4", "e7e5"]


def test_6_10_2_a_clock_correction_that_leaves_no_time_is_refused_not_a_flag(
    settings: Settings,
) -> None:
    """ "-600" typed for "-60" ended the game on time at once (6.9 is about a player's own time
    running out), and the panel's Undo, "+600", gave back more than was taken. Refused now, and
    so is a clock set to zero (the panel's default); a correction that leaves time works and its
    Undo restores the clock exactly. An arbiter who means to end the game declares the result."""
    out = run_text(
        """
        {"setup": {"mode": "game", "profile": "tournament", "time_control": "600"}}
        {"t": 0, "arbiter": {"action": "approve_setup"}}
        {"t": 10, "arbiter": {"action": "add_time", "side": "black", "seconds": -600}}
        {"t": 11, "arbiter": {"action": "set_time", "side": "white", "seconds": 0}}
        {"t": 12, "arbiter": {"action": "add_time", "side": "black", "seconds": -60}}
        {"t": 13, "arbiter": {"action": "add_time", "side": "black", "seconds": 60}}
        {"t": 14, "blind": "Eva vier"}
        """,
        settings,
    )
    assert says(out, "arbiter", 10.0) == [
        "Aktion Zeit gutgeschrieben abgelehnt: Schwarz hätte keine Zeit mehr; um die Partie zu "
        "beenden, das Ergebnis festlegen"
    ]
    assert says(out, "arbiter", 11.0)[0].startswith("Aktion Zeit gesetzt abgelehnt: Weiß hätte")
    assert clock_at(out, 11.0)["black"] == 600.0 and clock_at(out, 11.0)["white"] <= 600.0
    assert says(out, "all", 12.0) == ["Schiedsrichter: Schwarz hat jetzt neun Minuten."]
    assert clock_at(out, 13.0)["black"] == 600.0
    assert [r for r in results(out) if r["t"] <= 14.0] == [] and moves(out) == ["e2e4"]


def test_a_journal_of_the_rules_before_replays_a_correction_to_zero_as_it_was_played(
    settings: Settings,
) -> None:
    """Written by the app before revision 19 (a set-up with its settings, no revision), such
    a journal ended on time when the arbiter took all the time: it must come back so."""
    out = run_text(
        """
        {"setup": {"mode": "game", "profile": "tournament", "time_control": "600", "app": "assist", "settings": {}}}
        {"t": 0, "arbiter": {"action": "approve_setup"}}
        {"t": 10, "arbiter": {"action": "add_time", "side": "black", "seconds": -600}}
        {"t": 14, "blind": "Eva vier"}
        """,  # noqa: E501
        settings,
    )
    assert [(r["t"], r["result"]) for r in results(out)] == [(14.0, "1-0")]


def test_6_11_a_question_left_open_while_the_clock_stood_is_asked_again_when_it_runs(
    settings: Settings,
) -> None:
    """ "ja" while the arbiter stopped the clock is refused; when the clock runs again the
    player must hear that the question still waits for an answer."""
    out = run_text(
        """
        {"setup": {"mode": "game", "time_control": "600", "profile": "tournament"}}
        {"t": 1, "blind": "Eva fier"}
        {"t": 2, "arbiter": {"action": "pause"}}
        {"t": 3, "blind": "ja"}
        {"t": 4, "arbiter": {"action": "resume"}}
        {"t": 5, "blind": "ja"}
        """,
        settings,
    )
    assert says(out, "blind", 1.0) == ["Eva vier?"]
    assert says(out, "blind", 4.0)[-1] == "Eva vier?"
    assert moves(out) == ["e2e4"]
