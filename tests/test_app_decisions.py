"""What the program decides around a game, without a terminal, microphone or loop."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from voice.config import Settings
from voice.game.session_base import REVISION
from voice.rules.events import MoveMade, Refused, Result, Say, Setup
from voice.rules.timecontrol import TimeControlError
from voice.wiring.app_decisions import (
    Line,
    Plan,
    QuitGuard,
    TalkKeyHint,
    journal_mode,
    level_answer,
    level_beyond,
    new_setup,
    resume_command,
    shown,
    unused_on_resume,
    with_engine,
)
from voice.words.vocabulary import Vocabulary


def test_quitting_takes_the_quit_key_twice_in_a_row() -> None:
    guard = QuitGuard()
    assert guard.key("quit") == "ask_quit"
    assert guard.key("quit") == "quit"


def test_another_key_or_words_cancel_a_quit_asked_before() -> None:
    guard = QuitGuard()
    guard.key("quit")
    assert guard.key("time") == "submit"
    assert guard.key("quit") == "ask_quit"
    guard.spoken()
    assert guard.key("quit") == "ask_quit"
    assert guard.key("stop") == "stop"
    assert guard.key("quit") == "ask_quit"
    assert guard.key("talk") == "talk"  # press to talk is the app's, not the game's
    assert guard.key("quit") == "ask_quit"


def test_the_talk_key_is_named_after_two_not_understood_in_a_row_once_until_a_move() -> None:
    hint = TalkKeyHint()
    miss = Refused(1, "white", "not_understood")
    assert not hint.on_outputs([miss], "white")
    assert hint.on_outputs([miss], "white")  # the second in a row
    assert not hint.on_outputs([miss], "white")  # said once
    assert not hint.on_outputs([Refused(2, "black", "not_understood")], "white")  # not ours
    assert not hint.on_outputs([MoveMade(3, "g1f3", "Nf3", "white")], "white")
    assert not hint.on_outputs([miss, Refused(4, "white", "illegal")], "white")  # not in a row
    assert not hint.on_outputs([miss], "white")
    assert hint.on_outputs([miss], "white")  # after a move, again


def test_the_talk_key_is_not_named_to_a_player_who_uses_it() -> None:
    """A player's trial heard "Eingabetaste drücken …" four times while pressing the talk key
    for every word."""
    hint = TalkKeyHint()
    hint.key_used = True
    miss = Refused(1, "white", "not_understood")
    assert not hint.on_outputs([miss], "white") and not hint.on_outputs([miss], "white")


def test_a_request_answered_between_two_misses_breaks_the_row() -> None:
    """A quiet room: a miss, "Zeit" answered, a miss: no reason to name the talk key."""
    hint = TalkKeyHint()
    miss = Refused(1, "white", "not_understood")
    assert not hint.on_outputs([miss], "white")
    assert not hint.on_outputs([Say(2, "Weiß zehn Minuten …", "blind")], "white")
    assert not hint.on_outputs([miss], "white")
    assert hint.on_outputs([miss], "white")


def test_the_strength_is_the_suggestion_on_enter_or_yes_and_a_number_in_range(
    vocab: Vocabulary,
) -> None:
    assert level_answer(vocab, (), 4, 8) == 4
    assert level_answer(vocab, (("ja", 1.0),), 4, 8) == 4
    assert level_answer(vocab, (("drei", 1.0),), 4, 8) == 3
    assert level_answer(vocab, (("neun", 1.0),), 4, 8) is None


def test_a_tournament_plan_becomes_a_tournament_setup_with_its_language_and_date(
    settings: Settings,
) -> None:
    plan = Plan(mode="assist", control="900+10", laws="2018", deaf_opponent=True)
    setup = new_setup(plan, settings, "en", "2026.11.26")
    assert setup.profile == "tournament" and setup.time_control == "900+10"
    assert setup.language == "en" and setup.laws == "2018"
    kept = setup.extra.pop("settings")
    assert setup.extra == {
        "app": "assist",
        "date": "2026.11.26",
        "deaf_opponent": True,
        "revision": REVISION,  # the rules it is played by, kept for its replay
    }
    assert kept["vocabulary"]["rank_words"][0] == "eins"  # replayed with the same words
    preset = new_setup(Plan(mode="play", control="rapid"), settings, "de", "2026.11.26")
    assert preset.time_control == "900+10"  # a preset kept as what it stood for
    with pytest.raises(TimeControlError):
        new_setup(Plan(mode="play", control="soon"), settings, "de", "2026.11.26")


def test_the_computer_plays_the_sighted_side_under_its_name(settings: Settings) -> None:
    setup = new_setup(Plan(mode="play", blind="black"), settings, "de", "2026.11.26")
    engine = with_engine(setup, 3, "Computer (Stufe drei)")
    assert engine.extra["white"] == "Computer (Stufe drei)"
    assert engine.extra["opponent"] == "engine" and engine.extra["engine_level"] == 3
    assert engine.blind == "black" and engine.time_control == setup.time_control


def test_the_terminal_shows_the_arbiters_lines_only_at_a_tournament_board() -> None:
    outputs = [
        Say(0, "Weiß bietet Remis an.", "all"),
        Say(0, "Protokolliert.", "arbiter"),
        Say(0, "White offers a draw.", "sighted"),
        Result(0, "1/2-1/2", "agreement"),
    ]
    assert shown(outputs, "play").lines == (Line("Weiß bietet Remis an."),)
    at_tournament = shown(outputs, "assist")
    assert at_tournament.lines == (
        Line("Weiß bietet Remis an."),
        Line("Protokolliert.", arbiter=True),
    )
    assert at_tournament.result
    assert not shown(outputs[:1], "assist").result


@pytest.mark.parametrize(
    ("extra", "profile", "mode"),
    [
        ({"app": "assist"}, "tournament", "assist"),
        ({"app": "play"}, "home", "play"),
        ({}, "tournament", "assist"),  # journals from before "app" was written
        ({}, "home", "play"),
        ({"app": "nonsense"}, "home", "play"),
    ],
)
def test_a_resumed_game_goes_on_under_the_command_it_began_with(
    extra: dict[str, str], profile: Literal["home", "tournament"], mode: str
) -> None:
    assert journal_mode(Setup(profile=profile, extra=extra)) == mode


@pytest.mark.parametrize(
    ("plan", "command"),
    [
        (Plan(mode="play"), "voice-chess play"),
        (
            Plan(mode="play", text=True, speech=False, web=False),
            "voice-chess play --text --no-speech --no-web",
        ),
        (Plan(mode="assist", lan=True), "voice-chess assist --lan"),
        (  # the settings the journal does not keep (the devices, [web], the keys)
            Plan(mode="play", config=Path("/home/a b/my.toml")),
            "voice-chess --config '/home/a b/my.toml' play",
        ),
    ],
)
def test_the_printed_resume_command_keeps_the_input_and_output_chosen(
    plan: Plan, command: str
) -> None:
    """A screen-reader user who started with ``--no-speech`` is not brought back speaking."""
    assert resume_command(plan) == command


def test_a_resumed_game_names_the_options_it_does_not_use(settings: Settings) -> None:
    """A game goes on as it began: options that differ from its journal's set-up are named;
    a preset and the control it stands for are the same control."""
    setup = Setup(time_control="900+10", blind="white", language="de", laws="2023")
    assert unused_on_resume(setup, settings, control="rapid", blind="white", laws="2023") == []
    assert unused_on_resume(
        setup, settings, control="300", blind="black", language="en", laws="2018", level=3
    ) == ["--control 300", "--blind black", "--language en", "--laws 2018"]
    with_level = Setup(extra={"engine_level": 2})
    assert unused_on_resume(with_level, settings, level=5) == ["--level 5"]
    assert unused_on_resume(setup, settings, profile="tournament") == ["--profile tournament"]
    assert unused_on_resume(setup, settings, profile="home") == []


def test_a_typed_letter_is_a_key_only_where_it_is_no_word_of_the_player(
    settings: Settings,
) -> None:
    """A key's letter alone on a typed line does what the key does ("t": the time), but not
    a letter the player's own [vocabulary] words make a word: with file words "a" … "h",
    "a" answering "Turm a oder f d eins?" called the arbiter and stopped the clock, and "f"
    read the cursor's file (a review)."""
    from voice import config
    from voice.wiring.app import App

    letters = config.override(settings, vocabulary={"file_words": list("abcdefgh")})
    app = App(Plan("play", text=True, speech=False), letters)
    assert app._typed_key((("a", 1.0),)) is None
    assert app._typed_key((("F", 1.0),)) is None
    assert app._typed_key((("t", 1.0),)) == "time"  # no word: the key
    default = App(Plan("play", text=True, speech=False), settings)
    assert default._typed_key((("a", 1.0),)) == "arbiter"  # "a" is only a filler there
    assert default._typed_key((("f", 1.0),)) == "cursor_file"
    assert default._typed_key((("tt", 1.0),)) is None
    aliased = config.override(settings, vocabulary={"aliases": {"e": "eva"}})
    assert App(Plan("play"), aliased)._typed_key((("e", 1.0),)) is None  # read as "Eva"


@pytest.mark.parametrize(
    ("said", "beyond"),
    [("zehn", 10), ("neun", 9), ("0", 0), ("12", 12), ("drei", None), ("ja", None), ("", None)],
)
def test_a_strength_out_of_range_is_known_as_a_number(said: str, beyond: int | None) -> None:
    """ "zehn" for the computer's strength is answered with the range; it was asked again as
    if nothing had been said (a review)."""
    heard = ((said, 1.0),) if said else ()
    assert level_beyond(Vocabulary.default(), heard, 8) == beyond
