"""The session's snapshot for the web board and the arbiter's panel, determinism, languages."""

from __future__ import annotations

import json

import pytest
from session_scripts import SCRIPTS, run, run_text, says

from voice.config import Settings, override
from voice.game.session import GameSession
from voice.rules.events import (
    BlindSpeech,
    KeyPress,
    ScriptError,
    Setup,
    SightedMove,
    Tick,
    parse_input,
)


def _session(settings: Settings, **extra: object) -> GameSession:
    setup = Setup(mode="game", blind="white", time_control="300+2", extra=dict(extra))
    return GameSession(setup, settings)


def test_state_holds_board_moves_clocks_pending_offer_counts_and_result(
    settings: Settings,
) -> None:
    game = _session(settings, correction_window=2, white="Anna", black="Bert")
    game.handle(BlindSpeech(1000, (("Eva vier", 1.0),)))
    state = game.state()
    assert state["pending"] == {
        "kind": "correction",
        "move": "e2e4",
        "spoken": "Eva vier",
        "until": 3.0,
    }
    assert state["next_wakeup"] == 3.0
    assert state["moves"] == [] and state["turn"] == "white"
    game.handle(Tick(3000))
    game.handle(SightedMove(4000, "e5"))
    game.handle(BlindSpeech(5000, (("Springer Felix vier", 1.0),)))
    game.handle(BlindSpeech(6000, (("Springer Felix drei", 1.0),)))
    game.handle(Tick(8000))
    game.handle(KeyPress(8500, "draw"))
    state = game.state()
    assert json.loads(json.dumps(state)) == state  # JSON-ready
    assert state["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert [(m["san"], m["spoken"], m["by"]) for m in state["moves"]] == [
        ("e4", "Eva vier", "white"),
        ("e5", "Eva fünf", "black"),
        ("Nf3", "Springer Felix drei", "white"),
    ]
    assert state["moves"][0]["clock"] == 299.0  # 300 - 3 s (window included) + 2 s increment
    assert state["moves"][2]["draw_offer"] is True
    assert state["draw_offer"] == {"by": "white"}
    assert state["illegal_attempts"] == {"white": 1, "black": 0}
    assert state["clock"]["running"] == "black"
    assert state["clock"]["moves"] == {"white": 2, "black": 1}
    assert state["result"] is None
    game.handle(KeyPress(9000, "sighted:draw_accept"))
    assert game.state()["result"] == {"result": "1/2-1/2", "reason": "agreement"}
    assert game.next_wakeup_ms() is None


def test_words_now_follow_the_state(settings: Settings) -> None:
    game = _session(settings)
    words = game.words_now()
    assert {"springer", "felix", "drei", "zeit", "remis"} <= words
    game.handle(BlindSpeech(1000, (("Springer David zwei", 1.0),)))  # not legal: no choice
    game = GameSession(
        Setup(
            mode="game", blind="white", time_control="300", fen="4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
        ),
        settings,
    )
    game.handle(BlindSpeech(1000, (("Springer David zwei", 1.0),)))
    assert {"eins", "zwei"} <= game.words_now()


def test_the_same_script_gives_the_same_output_every_time(settings: Settings) -> None:
    for name in ("d2104_requests", "r912_draw_offers_both_ways", "d28_correction_inside_window"):
        assert run(name, settings) == run(name, settings)
    assert len(list(SCRIPTS.glob("*.jsonl"))) >= 30


def test_english_commands_and_messages(settings: Settings) -> None:
    english = override(settings, language={"blind": "en", "opponent": "en", "commands": "en"})
    out = run_text(
        """
        {"setup": {"mode": "game", "blind": "white", "time_control": "600", "profile": "home"}}
        {"t": 1, "blind": "Eva vier"}
        {"t": 2, "sighted": "e5"}
        {"t": 3, "blind": "time"}
        {"t": 4, "blind": "where is Springer"}
        {"t": 5, "blind": "last two moves"}
        {"t": 6, "blind": "whose turn"}
        {"t": 7, "blind": "resign"}
        {"t": 8, "blind": "yes"}
        """,
        english,
    )
    assert says(out, "blind", 3.0) == [
        "White nine minutes fifty-eight seconds, Black nine minutes fifty-nine seconds. "
        "Played: one move."
    ]
    assert says(out, "blind", 4.0) == [
        "Springer. White: Bella eins, Gustav eins. Black: Bella acht, Gustav acht."
    ]
    assert says(out, "blind", 5.0) == ["One: Eva vier, Eva fünf."]
    assert says(out, "blind", 6.0) == ["It is your move, with White."]
    assert says(out, "blind", 7.0) == ["Really resign? Say yes or no."]
    assert says(out, "all", 8.0) == ["Black wins: White resigned."]  # who resigned, by name


def test_setup_errors_name_the_key(settings: Settings) -> None:
    import pytest

    from voice.rules.events import ScriptError

    bad: list[tuple[dict[str, object], str]] = [
        ({"fen": "not a fen"}, "setup.fen: not a FEN"),
        ({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "setup.fen: not a legal position"),
        ({"correction_window": "2"}, "setup.correction_window must be a number"),
        ({"correction_window": 11}, "from 0 to 10"),
        ({"always_confirm": 1}, "setup.always_confirm must be true or false"),
        ({"settings": "x"}, "setup.settings must map sections"),
        ({"settings": {"matching": "x"}}, "setup.settings must map sections"),
        ({"settings": {"matching": {"max_choices": 99}}}, "setup.settings: key 'matching"),
    ]
    for fields, error in bad:
        fen = fields.pop("fen", None)
        assert fen is None or isinstance(fen, str)
        setup = Setup(mode="game", time_control="300", fen=fen, extra=fields)
        with pytest.raises(ScriptError, match=error):
            GameSession(setup, settings)


def test_the_opponent_choosing_another_language_hears_the_game_in_it(settings: Settings) -> None:
    """An ``opponent_language`` input (the page's language menu) switches what is said to the
    sighted player; the blind player's sentences stay in theirs; it replays from the journal."""
    out = run("opponent_chooses_english", settings)
    assert says(out, "blind", 5.0) == ["Weiß bietet Remis an."]
    assert says(out, "sighted", 5.0) == ["White offers a draw."]
    assert says(out, "sighted", 6.0) == ["Arbiter: the clock is stopped."]


def test_an_opponent_language_without_a_catalogue_is_a_script_error() -> None:
    with pytest.raises(ScriptError, match="opponent_language"):
        parse_input({"t": 1, "opponent_language": "xx"})
