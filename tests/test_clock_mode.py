"""The talking clock's state machine: what it says, when, and in which profile."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from voice.config import Settings, override
from voice.game.clock_mode import ClockSession, describe_control, describe_fault
from voice.game.simulate import make_core
from voice.rules.events import (
    ArbiterAction,
    Ask,
    ClockPress,
    ClockState,
    Flag,
    KeyPress,
    OutputEvent,
    Pause,
    Resume,
    Say,
    ScriptError,
    Setup,
    Tick,
)
from voice.rules.timecontrol import TimeControlError, parse_time_control
from voice.words.spoken_time import duration_words

S = 1000


def session(
    settings: Settings, control: str = "900+10", start_ms: int | None = 0, **setup: Any
) -> ClockSession:
    return ClockSession(Setup(mode="clock", time_control=control, **setup), settings,
                        start_ms=start_ms)  # fmt: skip


def said(outputs: list[OutputEvent]) -> list[str]:
    return [out.text for out in outputs if isinstance(out, Say)]


def test_every_event_ends_with_the_clock_state(settings: Settings) -> None:
    clock = session(settings)
    out = clock.handle(ClockPress(4 * S, "white"))
    assert out == [ClockState(4 * S, white_ms=906 * S, black_ms=900 * S, running="black", moves=1)]


def test_time_and_moves_only_on_request(settings: Settings) -> None:
    """D.2.10.4: the number of moves and both players' time are told only on request."""
    clock = session(settings, language="de")
    assert said(clock.handle(ClockPress(4 * S, "white"))) == []
    assert said(clock.handle(ClockPress(10 * S, "black"))) == []
    assert said(clock.handle(Ask(15_500, "time"))) == [
        "Weiß fünfzehn Minuten, Schwarz fünfzehn Minuten vier Sekunden. Gespielt: ein Zug."
    ]


def test_time_report_in_words(settings: Settings) -> None:
    clock = session(settings, control="300", language="de")
    clock.handle(ClockPress(70 * S, "white"))
    assert said(clock.handle(KeyPress(80 * S, "time"))) == [
        "Weiß drei Minuten fünfzig Sekunden, Schwarz vier Minuten fünfzig Sekunden."
        " Gespielt: ein Zug."
    ]


def test_time_report_in_english(settings: Settings) -> None:
    clock = session(settings, control="300", language="en")
    assert said(clock.handle(Ask(61 * S, "time"))) == [
        "White three minutes fifty-nine seconds, Black five minutes. Played: zero moves."
    ]


def test_moves_report_counts_the_blind_side_and_moves_to_the_control(settings: Settings) -> None:
    """D.2.6.1: the talking clock says the number of moves, and how many remain to the control."""
    clock = session(settings, control="40/5400+30:1800+30", blind="black", language="de")
    t = 0
    for _ in range(12):
        t += 10 * S
        clock.handle(ClockPress(t, "white"))
        t += 10 * S
        clock.handle(ClockPress(t, "black"))
    clock.handle(ClockPress(t + S, "white"))
    assert said(clock.handle(Ask(t + 2 * S, "moves"))) == [
        "Gespielt: zwölf Züge. Bis zur Zeitkontrolle: achtundzwanzig Züge."
    ]


def test_sudden_death_has_no_moves_to_control(settings: Settings) -> None:
    clock = session(settings, control="300", language="en")
    assert said(clock.handle(KeyPress(0, "moves"))) == ["Played: zero moves."]


def test_flag_is_announced_at_its_own_instant_in_every_profile(settings: Settings) -> None:
    """The assistant claims a flag fall at once (D.2.10.5), in the tournament profile too."""
    for profile in ("home", "tournament"):
        clock = session(settings, control="60", profile=profile, language="de")
        assert clock.next_wakeup_ms() == (30 * S if profile == "home" else 60 * S)
        out = clock.handle(Tick(60 * S))
        assert Flag(60 * S, "white") in out
        assert "Zeit abgelaufen für Weiß." in said(out)


def test_flag_found_late_keeps_its_instant(settings: Settings) -> None:
    clock = session(settings, control="60", profile="tournament")
    out = clock.handle(Ask(75 * S, "time"))
    assert out[0] == Flag(60 * S, "white")
    assert isinstance(out[1], Say) and out[1].t_ms == 60 * S


def test_flag_before_the_control_says_moves_played_and_required(settings: Settings) -> None:
    """6.4: after a flag fall, check whether the period's moves were completed."""
    clock = session(settings, control="40/60:60", language="de", profile="tournament")
    clock.handle(ClockPress(10 * S, "white"))
    clock.handle(ClockPress(20 * S, "black"))
    out = clock.handle(Tick(70 * S))
    assert said(out) == [
        "Zeit abgelaufen für Weiß. Gespielt: ein Zug, verlangt bis zur Zeitkontrolle: vierzig Züge."
    ]


def test_second_flag_says_which_fell_first(settings: Settings) -> None:
    """Guideline III.3.1 matters only when the order is unknown; here it is known and said.
    An older clock's journal (revision 1), where a press after the flag still switched the
    clock, replays as it was played."""
    clock = session(
        settings, control="10", language="en", profile="tournament", extra={"revision": 1}
    )
    clock.handle(Tick(10 * S))
    clock.handle(ClockPress(12 * S, "white"))
    out = clock.handle(Tick(22 * S))
    assert said(out) == ["Time is up for Black too. White ran out first."]
    assert clock.next_wakeup_ms() is None


def test_a_press_after_a_flag_fall_leaves_the_clock_standing(settings: Settings) -> None:
    """6.9: the flag decided the game, and the clock stands. A press switched it (a new
    user's trial): the opponent's clock ran, with an increment for a move made after the
    flag, and a second flag fell. It says that the time is up and the clock stands; the time
    and the moves are still answered."""
    clock = session(settings, control="10+2", language="de", profile="tournament")
    assert "Zeit abgelaufen für Weiß." in said(clock.handle(Tick(10 * S)))
    for t in (12 * S, 14 * S):
        out = clock.handle(ClockPress(t, "white"))
        assert said(out) == ["Zeit abgelaufen für Weiß. Die Uhr steht."]
        assert out[-1] == ClockState(t, white_ms=0, black_ms=10 * S, running="white", moves=0)
    assert said(clock.handle(KeyPress(15 * S, "press"))) == [
        "Zeit abgelaufen für Weiß. Die Uhr steht."
    ]
    assert said(clock.handle(KeyPress(16 * S, "pause"))) == [
        "Zeit abgelaufen für Weiß. Die Uhr steht."
    ]
    assert not clock.time_runs() and clock.next_wakeup_ms() is None
    assert said(clock.handle(Ask(60 * S, "time"))) == [
        "Weiß null Sekunden, Schwarz zehn Sekunden. Gespielt: null Züge. Zeit abgelaufen für Weiß."
    ]
    assert said(clock.handle(Ask(61 * S, "moves"))) == ["Gespielt: null Züge."]


def test_time_the_arbiter_gives_after_the_flag_lets_the_clock_go_on(settings: Settings) -> None:
    """The flag stays down until the arbiter gives that side time (6.10.2); then a press
    switches the clock again, as before the flag."""
    clock = session(settings, control="10+2", language="de", profile="tournament")
    clock.handle(Tick(10 * S))
    clock.handle(ArbiterAction(20 * S, "set_time", {"side": "white", "seconds": 60}))
    assert clock.time_runs()
    out = clock.handle(ClockPress(25 * S, "white"))
    assert said(out) == []
    assert out[-1] == ClockState(25 * S, white_ms=57 * S, black_ms=10 * S, running="black", moves=1)


def test_under_the_2001_laws_a_rapid_flag_counts_when_claimed_so_the_clock_goes_on(
    settings: Settings,
) -> None:
    """2001 B.6: in rapid play the flag counts only when claimed; the game goes on until then,
    and both flags down is a draw (B.8)."""
    clock = session(settings, control="900+10", language="en", laws="2001")
    clock.handle(Tick(900 * S))
    out = clock.handle(ClockPress(901 * S, "white"))
    assert said(out) == [] and out[-1].running == "black"  # type: ignore[union-attr]


def test_an_older_clock_journal_replays_a_press_after_the_flag_as_it_was_played(
    settings: Settings,
) -> None:
    """A journal of the interactive clock without a revision was written before the flag
    stood: its press after the flag switched the clock then, and does so when it is replayed."""
    older = session(settings, control="10+2", start_ms=None, extra={"start": "press"})
    assert older.revision == 1
    older.handle(KeyPress(0, "press"))
    older.handle(Tick(10 * S))
    out = older.handle(KeyPress(12 * S, "press"))
    assert out[-1] == ClockState(12 * S, white_ms=0, black_ms=10 * S, running="black", moves=1)
    current = session(
        settings, control="10+2", start_ms=None, extra={"start": "press", "revision": 2}
    )
    assert current.revision == 2


def test_low_time_warnings_in_home_profile_for_the_blind_player(settings: Settings) -> None:
    """docs/rules.md §6.4: home profile, configurable thresholds, on by default."""
    clock = session(settings, control="400", language="de")  # thresholds 300, 60, 30, 10
    assert clock.next_wakeup_ms() == 100 * S
    assert said(clock.handle(Tick(100 * S))) == ["Noch fünf Minuten."]
    assert clock.next_wakeup_ms() == 340 * S
    assert said(clock.handle(Tick(340 * S))) == ["Noch eine Minute."]
    assert said(clock.handle(Tick(370 * S))) == ["Noch dreißig Sekunden."]
    assert said(clock.handle(Tick(390 * S))) == ["Noch zehn Sekunden."]
    assert clock.next_wakeup_ms() == 400 * S


def test_no_warning_for_the_opponent_clock(settings: Settings) -> None:
    clock = session(settings, control="400", blind="black")
    assert clock.next_wakeup_ms() == 400 * S  # white runs: only its flag is due


def test_never_warnings_in_tournament_profile(settings: Settings) -> None:
    """docs/rules.md §6.4: tournament profile, no unsolicited time information."""
    clock = session(settings, control="400", profile="tournament")
    assert clock.next_wakeup_ms() == 400 * S
    assert said(clock.handle(Tick(399 * S))) == []


def test_warnings_can_be_switched_off_and_thresholds_changed(settings: Settings) -> None:
    quiet = override(settings, clock={"warn_low_time": False})
    assert session(quiet, control="400").next_wakeup_ms() == 400 * S
    custom = override(settings, clock={"low_time_warnings": [120]})
    clock = session(custom, control="400", language="en")
    assert said(clock.handle(Tick(280 * S))) == ["two minutes left."]


def test_a_warning_is_said_once_and_again_after_a_new_period(settings: Settings) -> None:
    clock = session(settings, control="2/100:100", language="de")
    assert said(clock.handle(Tick(40 * S))) == ["Noch eine Minute."]
    clock.handle(ClockPress(41 * S, "white"))
    clock.handle(ClockPress(42 * S, "black"))
    assert clock.next_wakeup_ms() == 42 * S + 29 * S  # 59 s left: the 30 s warning is next
    clock.handle(ClockPress(50 * S, "white"))  # move 2: 51 s + 100 s of the next period
    clock.handle(ClockPress(51 * S, "black"))
    assert clock.next_wakeup_ms() == 51 * S + 151 * S - 60 * S  # the minute warning again


def test_pause_and_resume(settings: Settings) -> None:
    """6.11: pausing stops the running display; the player hears what happened."""
    clock = session(settings, control="60", language="de")
    assert said(clock.handle(Pause(10 * S))) == ["Uhr angehalten."]
    assert clock.next_wakeup_ms() is None
    paused = clock.handle(KeyPress(20 * S, "press"))
    assert said(paused) == ["Die Uhr ist angehalten."]
    assert paused[-1] == ClockState(20 * S, 50 * S, 60 * S, None, 0)
    assert said(clock.handle(Resume(30 * S))) == ["Uhr läuft weiter."]
    assert said(clock.handle(KeyPress(35 * S, "pause"))) == ["Uhr angehalten."]
    assert said(clock.handle(KeyPress(40 * S, "pause"))) == ["Uhr läuft weiter."]
    assert said(clock.handle(Resume(41 * S))) == ["Uhr läuft weiter."]


def test_first_press_starts_whites_clock_when_waiting(settings: Settings) -> None:
    """6.6: White's clock is started at the start, whoever presses the button."""
    clock = session(settings, control="60", start_ms=None, language="de")
    assert clock.next_wakeup_ms() is None
    out = clock.handle(KeyPress(5 * S, "press"))
    assert said(out) == ["Die Uhr läuft. Weiß ist am Zug."]
    assert out[-1] == ClockState(5 * S, 60 * S, 60 * S, "white", 0)
    assert clock.next_wakeup_ms() == 35 * S  # the 30 s warning (60 s is not below the start)


def test_key_press_switches_the_running_side(settings: Settings) -> None:
    clock = session(settings, control="60")
    clock.handle(KeyPress(S, "press"))
    clock.handle(KeyPress(2 * S, "press"))
    assert clock.state(2 * S) == ClockState(2 * S, 59 * S, 59 * S, "white", 1)


def test_the_stopped_sides_button_does_nothing(settings: Settings) -> None:
    clock = session(settings, control="60")
    out = clock.handle(ClockPress(S, "black"))
    assert out == [ClockState(S, 59 * S, 60 * S, "white", 0)]


def test_help_mode_announces_keys_instead_of_acting(settings: Settings) -> None:
    clock = session(settings, control="60", language="de")
    assert said(clock.handle(KeyPress(0, "help"))) == [
        "Hilfemodus: jede Taste sagt, was sie tut, und tut es nicht. H beendet den Hilfemodus."
    ]
    assert said(clock.handle(KeyPress(S, "press"))) == [
        "Leertaste oder Eingabetaste: Uhr drücken für die Seite am Zug."
    ]
    assert clock.clock.running == "white"  # not pressed
    assert said(clock.handle(KeyPress(S, "time"))) == ["T: Zeit beider Seiten und Züge ansagen."]
    assert said(clock.handle(KeyPress(S, "none"))) == ["Diese Taste hat keine Funktion."]
    assert said(clock.handle(KeyPress(S, "quit"))) == ["Q: Uhr beenden."]
    assert not clock.finished
    assert said(clock.handle(KeyPress(2 * S, "help"))) == ["Hilfemodus beendet."]
    assert said(clock.handle(KeyPress(3 * S, "none"))) == []


def test_quit_needs_confirmation(settings: Settings) -> None:
    clock = session(settings, control="60", language="en")
    assert said(clock.handle(KeyPress(0, "quit"))) == [
        "Quit the clock? Press Q again. Any other key goes on."
    ]
    clock.handle(KeyPress(S, "press"))  # any other key goes on, and does its job
    assert clock.clock.running == "black" and not clock.finished
    clock.handle(KeyPress(2 * S, "quit"))
    assert said(clock.handle(KeyPress(3 * S, "quit"))) == ["Clock stopped."]
    assert clock.finished


def test_arbiter_corrections(settings: Settings) -> None:
    """6.10.2 and 7.1: times and the move counter; 7.5.5 with A.3: one minute in rapid."""
    clock = session(settings, control="900+10", language="de")
    out = clock.handle(ArbiterAction(10 * S, "penalty", {"side": "black"}))
    assert said(out) == ["Schiedsrichter: Schwarz hat jetzt sechzehn Minuten."]
    out = clock.handle(ArbiterAction(10 * S, "set_time", {"side": "white", "seconds": 125}))
    assert said(out) == ["Schiedsrichter: Weiß hat jetzt zwei Minuten fünf Sekunden."]
    out = clock.handle(ArbiterAction(10 * S, "add_time", {"side": "white", "seconds": 60}))
    assert clock.clock.remaining_ms("white", 10 * S) == 185 * S
    out = clock.handle(ArbiterAction(10 * S, "set_moves", {"side": "white", "moves": 21}))
    assert said(out) == ["Schiedsrichter: Zugzähler für Weiß auf einundzwanzig Züge."]
    assert out[-1] == ClockState(10 * S, 185 * S, 960 * S, "white", 21)


def test_the_arbiter_corrects_the_move_counter_without_naming_a_side(settings: Settings) -> None:
    """6.10.2: the arbiter corrects the move count, one number, as in a game's ``set_moves``
    (which the clock refused: "side fehlt"). It is the count the clock shows (the moves White
    completed); Black has completed one fewer while it is Black's move, so that its control
    comes after its own fortieth move, not its thirty-ninth."""
    clock = session(settings, control="40/5400+30:1800+30", language="de", blind="black")
    clock.handle(ClockPress(10 * S, "white"))  # Black to move
    out = clock.handle(ArbiterAction(20 * S, "set_moves", {"moves": 30}))
    assert said(out) == [
        "Schiedsrichter: Zugzähler beider Seiten korrigiert. Gespielt: neunundzwanzig Züge. "
        "Bis zur Zeitkontrolle: elf Züge."
    ]
    assert out[-1].moves == 30  # type: ignore[union-attr]
    assert clock.clock.moves_completed("black") == 29
    clock.handle(ClockPress(30 * S, "black"))  # White to move: both have made thirty
    out = clock.handle(ArbiterAction(40 * S, "set_moves", {"moves": 31}))
    assert [clock.clock.moves_completed(side) for side in ("white", "black")] == [31, 31]
    older = session(settings, control="600", language="de", extra={"revision": 1})
    refused = said(older.handle(ArbiterAction(0, "set_moves", {"moves": 5})))
    assert refused == [  # an older clock's journal replays as it was played
        f"Schiedsrichter: set_moves abgelehnt, die Uhr bleibt unverändert: side fehlt; {SIDES}."
    ]


def test_arbiter_introduces_an_increment_guideline_iii(settings: Settings) -> None:
    """Guideline III.4: 5 s per move for both, only in a game without increment."""
    clock = session(settings, control="300", language="de")
    out = clock.handle(ArbiterAction(10 * S, "increment", {"seconds": 5}))
    assert said(out) == ["Schiedsrichter: ab jetzt fünf Sekunden pro Zug für beide Seiten."]
    clock.handle(ClockPress(20 * S, "white"))
    assert clock.clock.remaining_ms("white", 20 * S) == 285 * S
    out = session(settings, language="de").handle(ArbiterAction(0, "increment", {"seconds": 5}))
    assert said(out) == [
        "Schiedsrichter: increment abgelehnt, die Uhr bleibt unverändert: die Bedenkzeit hat "
        "schon einen Zeitzuschlag oder eine Verzögerung."
    ]


SIDES = "erlaubt: white, black"
BAD_ACTIONS = [
    ("set_time", {"side": "green", "seconds": 5}, f'side darf nicht "green" sein; {SIDES}'),
    ("set_time", {"side": "white"}, "seconds fehlt; erlaubt: 0..36000"),
    ("add_time", {"side": "white", "seconds": -40_000},  # beyond ten hours
     "seconds darf nicht -40000 sein; erlaubt: -36000..36000"),
    ("set_moves", {"side": "white", "moves": 2.5}, "moves darf nicht 2.5 sein; erlaubt: 0..10000"),
    ("add_time", {"side": "purple", "seconds": 60}, f'side darf nicht "purple" sein; {SIDES}'),
    ("increment", {"seconds": 0}, "seconds darf nicht 0 sein; erlaubt: 0 < seconds <= 36000"),
    ("penalty", {"side": "white", "reason": 7}, 'reason darf nicht 7 sein; erlaubt: "…"'),
    ("explode", {"side": "white"},
     "die sprechende Uhr kennt nur add_time, set_time, set_moves, penalty, increment"),
    ("declare_result", {"result": "1-0"},  # needs a board
     "die sprechende Uhr kennt nur add_time, set_time, set_moves, penalty, increment"),
]  # fmt: skip


@pytest.mark.parametrize(("action", "params", "why"), BAD_ACTIONS)
def test_a_bad_arbiter_action_is_refused_in_words_and_changes_nothing(
    settings: Settings, action: str, params: dict[str, Any], why: str
) -> None:
    """As in a game (README, "The arbiter"): a malformed action, or one that needs a board, is
    refused with a sentence in the player's language and changes nothing; the run goes on."""
    clock = session(settings, control="600", language="de")
    clock.handle(ClockPress(5 * S, "white"))
    before = clock.state(9 * S)
    event = ArbiterAction(9 * S, action, params)
    refusal = f"Schiedsrichter: {action} abgelehnt, die Uhr bleibt unverändert: {why}."
    assert clock.screen(event) == refusal  # asked before the line is journaled
    out = clock.handle(event)
    assert said(out) == [refusal]
    assert out[-1] == before
    assert not re.search(r"\b(must|missing|not|the talking clock)\b", refusal)  # no English


@pytest.mark.parametrize("language", ["en", "he", "ar", "fa"])
def test_a_refused_arbiter_action_is_said_in_the_players_language(
    settings: Settings, language: str
) -> None:
    clock = session(settings, control="600", language=language)
    text = said(clock.handle(ArbiterAction(0, "set_time", {"seconds": 5})))[0]
    assert "side" in text and "white, black" in text
    if language != "en":
        assert not re.search(r"\b(must|missing|refused|allowed|needs)\b", text), text


def test_a_request_the_clock_has_no_answer_for_is_refused(settings: Settings) -> None:
    """A script's ``ask`` takes time or moves (the microphone's "Pause" too); a bad line stops
    the run, as the README says."""
    with pytest.raises(ScriptError, match="time, moves or pause, not 'weather'"):
        session(settings, language="en").handle(Ask(0, "weather"))


def test_the_arbiter_takes_time_away_with_a_negative_number_as_in_a_game(
    settings: Settings,
) -> None:
    """6.10.2, 7.1: ``add_time`` with negative seconds, read as the game's arbiter reads it."""
    clock = session(settings, control="900+10", language="de")
    out = clock.handle(ArbiterAction(10 * S, "add_time", {"side": "black", "seconds": -60}))
    assert said(out) == ["Schiedsrichter: Schwarz hat jetzt vierzehn Minuten."]


def test_a_move_count_written_as_a_whole_float_is_taken(settings: Settings) -> None:
    """Clock journals written before the clock read actions as a game does hold "3.0"."""
    clock = session(settings, language="de")
    out = clock.handle(ArbiterAction(10 * S, "set_moves", {"side": "white", "moves": 3.0}))
    assert said(out) == ["Schiedsrichter: Zugzähler für Weiß auf drei Züge."]


def test_a_resumed_paused_clock_says_whose_clock_a_press_of_pause_starts(
    settings: Settings,
) -> None:
    clock = session(settings, control="900+10", language="de")
    clock.handle(ClockPress(12 * S, "white"))
    clock.handle(Pause(60 * S))
    out = clock.resume_announcement()
    assert said(out) == [
        "Partie fortgesetzt. Schwarz ist am Zug. Weiß vierzehn Minuten achtundfünfzig "
        "Sekunden, Schwarz vierzehn Minuten zwölf Sekunden. Gespielt: ein Zug. Die Uhr ist "
        "angehalten."
    ]
    assert out[-1] == ClockState(60 * S, 898 * S, 852 * S, None, 1)


def test_a_resumed_running_clock_says_whose_clock_runs(settings: Settings) -> None:
    """Brought back after a crash, the game on the board goes on: the player must hear whose
    clock is running, not only the two times."""
    clock = session(settings, control="900+10", language="de")
    clock.handle(ClockPress(12 * S, "white"))
    clock.handle(Tick(40 * S))
    out = clock.resume_announcement()
    assert said(out) == [
        "Partie fortgesetzt. Schwarz ist am Zug. Weiß vierzehn Minuten achtundfünfzig "
        "Sekunden, Schwarz vierzehn Minuten zweiunddreißig Sekunden. Gespielt: ein Zug."
    ]


def test_a_resumed_clock_that_was_ended_says_so_first(settings: Settings) -> None:
    """Not "Partie fortgesetzt" nor "Uhr beendet." after the times, as if it ended now: that
    it was ended and cannot be continued, then how it stood (README, "The talking clock")."""
    clock = session(settings, control="900", language="de")
    clock.handle(KeyPress(5 * S, "quit"))
    clock.handle(KeyPress(6 * S, "quit"))
    assert said(clock.resume_announcement()) == [
        "Diese Uhr wurde beendet und kann nicht fortgesetzt werden. Weiß vierzehn Minuten "
        "vierundfünfzig Sekunden, Schwarz fünfzehn Minuten. Gespielt: null Züge."
    ]
    assert clock.leftovers(7 * S) == []


def test_an_ended_clock_stands_still_and_answers_only_for_its_times(settings: Settings) -> None:
    """Q twice ends the clock: its times stand still (no flag falls later in a script), the
    time and the moves are still said, anything else is refused and changes nothing."""
    clock = session(settings, control="60", language="de")
    clock.handle(ClockPress(2 * S, "white"))
    clock.handle(KeyPress(3 * S, "quit"))
    out = clock.handle(KeyPress(4 * S, "quit"))
    assert said(out) == ["Uhr beendet."]
    assert out[-1] == ClockState(4 * S, 58 * S, 58 * S, None, 1)
    assert clock.next_wakeup_ms() is None and not clock.time_runs()
    assert said(clock.handle(Ask(100 * S, "time"))) == [
        "Weiß achtundfünfzig Sekunden, Schwarz achtundfünfzig Sekunden. Gespielt: ein Zug."
    ]
    ended = "Diese Uhr wurde beendet und kann nicht fortgesetzt werden."
    for event in (
        ClockPress(101 * S, "black"),
        KeyPress(102 * S, "pause"),
        ArbiterAction(103 * S, "add_time", {"side": "white", "seconds": 60}),
    ):
        assert clock.screen(event) == ended
        out = clock.handle(event)
        assert said(out) == [ended]
        assert out[-1] == ClockState(event.t_ms, 58 * S, 58 * S, None, 1)


def test_a_resumed_clock_says_a_fallen_flag_again(settings: Settings) -> None:
    clock = session(settings, control="60", language="de")
    clock.handle(Tick(61 * S))
    assert said(clock.resume_announcement())[0].endswith("Zeit abgelaufen für Weiß.")


def test_a_resumed_clock_stands_until_a_press_starts_the_side_to_move(
    settings: Settings,
) -> None:
    """6.11: after an interruption the arbiter restarts the clock once the players sit again;
    it ran again at once, and the time it took to sit down was the player's (a new user's
    trial). It stands, says how to start it, and the press starts the side to move without
    completing a move, as a new clock's first press starts White's."""
    clock = session(settings, control="600+5", start_ms=None, language="de", blind="black")
    clock.handle(KeyPress(1 * S, "press"))  # White's clock starts
    clock.handle(KeyPress(5 * S, "press"))  # White's move: Black to move
    clock.handle(Tick(9 * S))  # the last journaled instant before the power cut
    (hold,) = clock.leftovers(9 * S)
    out = clock.handle(hold)
    assert said(out) == ["Die Uhr steht. Leertaste oder Eingabetaste startet die Uhr für Schwarz."]
    assert out[-1] == ClockState(9 * S, 601 * S, 596 * S, None, 1)
    assert not clock.time_runs() and clock.next_wakeup_ms() is None
    assert said(clock.resume_announcement())[0].endswith(  # resumed again while it stands
        "Die Uhr steht. Leertaste oder Eingabetaste startet die Uhr für Schwarz."
    )
    assert clock.leftovers(60 * S) == []
    assert said(clock.handle(KeyPress(90 * S, "time"))) == [
        "Weiß zehn Minuten eine Sekunde, Schwarz neun Minuten sechsundfünfzig Sekunden. "
        "Gespielt: null Züge. Die Uhr steht. Leertaste oder Eingabetaste startet die Uhr für "
        "Schwarz."
    ]
    out = clock.handle(KeyPress(120 * S, "press"))  # the players sat down: Black's clock
    assert said(out) == ["Die Uhr läuft. Schwarz ist am Zug."]
    assert out[-1] == ClockState(120 * S, 601 * S, 596 * S, "black", 1)
    out = clock.handle(KeyPress(130 * S, "press"))  # Black's move, ten seconds charged
    assert out[-1] == ClockState(130 * S, 601 * S, 591 * S, "white", 1)


def test_p_starts_a_resumed_clock_too_and_the_arbiters_pause_keeps_it_paused(
    settings: Settings,
) -> None:
    clock = session(settings, control="600", language="en")
    clock.handle(clock.leftovers(5 * S)[0])
    assert said(clock.handle(KeyPress(20 * S, "pause"))) == ["Clock running again."]
    assert clock.time_runs()
    clock.handle(clock.leftovers(25 * S)[0])
    assert said(clock.handle(Pause(30 * S))) == ["Clock paused."]  # the arbiter's
    assert said(clock.handle(KeyPress(40 * S, "press"))) == ["The clock is paused."]


def test_the_press_that_starts_a_resumed_clock_is_no_bounce(settings: Settings) -> None:
    """Game time stood still while the program was down, so the first press after it can come
    within the bounce time of the last press before: it is taken."""
    clock = session(settings, control="600", start_ms=None, language="en", extra={"bounce_ms": 300})
    clock.handle(KeyPress(1000, "press"))
    clock.handle(KeyPress(2000, "press"))
    clock.handle(clock.leftovers(2000)[0])
    assert said(clock.handle(KeyPress(2100, "press"))) == ["The clock is running. Black to move."]


@pytest.mark.parametrize(
    ("keys", "leftover"),
    [(("help",), "help"), (("quit",), "none"), (("quit", "help"), "help"), ((), None)],
)
def test_a_resumed_clock_leaves_help_mode_and_an_unconfirmed_quit(
    settings: Settings, keys: tuple[str, ...], leftover: str | None
) -> None:
    """Brought back in help mode, every press would only describe itself while the player's
    time runs; with a quit asked for, the next Q would end the clock at once. The inputs that
    end them are fed and journaled like any other, so that a later resume replays them."""
    clock = session(settings, control="600", language="de")
    for t, key in enumerate(keys, start=1):
        clock.handle(KeyPress(t * S, key))
    events = clock.leftovers(10 * S)
    assert [event.key for event in events if isinstance(event, KeyPress)] == (
        [leftover, "hold"] if leftover else ["hold"]
    )
    for event in events:
        clock.handle(event)
    assert not clock.help_mode and clock.leftovers(11 * S) == []
    out = clock.handle(KeyPress(12 * S, "quit"))
    assert not clock.finished and said(out)[0].startswith("Uhr beenden?")


def test_a_journal_of_the_interactive_clock_replays_with_its_first_press(
    settings: Settings,
) -> None:
    """6.6 on the interactive clock: White's clock starts at the first press, not when the
    program started; its journal says so (setup.start), so a resume replays the same times."""
    setup = Setup(mode="clock", time_control="600", language="de", extra={"start": "press"})
    replayed = make_core(setup, settings)
    for event in (KeyPress(30 * S, "time"), KeyPress(45 * S, "press"), Tick(50 * S)):
        replayed.handle(event)
    assert isinstance(replayed, ClockSession)
    assert replayed.state(50 * S) == ClockState(50 * S, 595 * S, 600 * S, "white", 0)
    script = make_core(replace(setup, extra={}), settings)  # a script's clock starts at 0
    assert isinstance(script, ClockSession)
    assert script.state(50 * S).white_ms == 550 * S


def test_an_unknown_clock_start_is_refused(settings: Settings) -> None:
    setup = Setup(mode="clock", time_control="600", extra={"start": "later"})
    with pytest.raises(ScriptError, match=r"setup\.start must be 'press'"):
        make_core(setup, settings)


def test_time_going_backwards_is_refused(settings: Settings) -> None:
    clock = session(settings)
    clock.handle(Tick(5 * S))
    with pytest.raises(ScriptError, match="backwards"):
        clock.handle(Tick(4 * S))


def test_welcome_describes_the_control_and_the_keys(settings: Settings) -> None:
    clock = session(settings, control="900+10", start_ms=None, language="de")
    assert said(clock.welcome(0)) == [
        "Uhr bereit: fünfzehn Minuten für die ganze Partie, plus zehn Sekunden pro Zug. "
        "Leertaste oder Eingabetaste startet die Uhr für Weiß. H für Hilfe. FIDE-Regeln 2023."
    ]


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        (
            "40/5400+30:1800+30",
            "de",
            "eine Stunde dreißig Minuten für vierzig Züge, plus dreißig Sekunden pro Zug, dann "
            "dreißig Minuten für den Rest der Partie, plus dreißig Sekunden pro Zug",
        ),
        ("5400d5", "en", "one hour thirty minutes for the whole game, with a delay of five "
         "seconds per move"),
        ("180+2", "en", "three minutes for the whole game, plus two seconds per move"),
    ],
)  # fmt: skip
def test_describe_control(text: str, language: str, words: str) -> None:
    assert describe_control(parse_time_control(text), language) == words


def test_the_talking_clocks_correction_that_leaves_no_time_is_refused_as_in_a_game(
    settings: Settings,
) -> None:
    """6.10.2: as a game's arbiter: "-600" for "-60" must not make a flag fall."""
    clock = session(settings, control="600", language="de")
    out = clock.handle(ArbiterAction(10 * S, "add_time", {"side": "black", "seconds": -600}))
    assert said(out) == [
        "Schiedsrichter: add_time abgelehnt, die Uhr bleibt unverändert: Schwarz hätte keine "
        "Zeit mehr; eine Fahne fällt nur, wenn die eigene Bedenkzeit abläuft."
    ]
    assert not any(isinstance(each, Flag) for each in out)
    out = clock.handle(ArbiterAction(11 * S, "set_time", {"side": "white", "seconds": 0}))
    assert said(out)[0].endswith("Weiß hätte keine Zeit mehr; eine Fahne fällt nur, wenn die "
                                 "eigene Bedenkzeit abläuft.")  # fmt: skip
    assert out[-1] == ClockState(11 * S, 589 * S, 600 * S, "white", 0)
    out = clock.handle(ArbiterAction(12 * S, "add_time", {"side": "black", "seconds": -60}))
    assert said(out) == ["Schiedsrichter: Schwarz hat jetzt neun Minuten."]


def test_the_time_asked_after_a_flag_fall_says_the_flag_is_down(settings: Settings) -> None:
    """A player who missed the flag's announcement (6.1: flag fall is the time expired) hears
    it with the time, not a bare "null Sekunden"; once the arbiter gives time it is no longer
    said."""
    clock = session(settings, control="60", language="de")
    clock.handle(Tick(61 * S))
    assert said(clock.handle(Ask(62 * S, "time")))[0].endswith(
        "Gespielt: null Züge. Zeit abgelaufen für Weiß."
    )
    clock.handle(ArbiterAction(63 * S, "add_time", {"side": "white", "seconds": 30}))
    assert "abgelaufen" not in said(clock.handle(Ask(64 * S, "time")))[0]


def test_a_resumed_clock_does_not_say_a_flag_the_arbiter_lifted(settings: Settings) -> None:
    clock = session(settings, control="60", language="de")
    clock.handle(Tick(61 * S))
    clock.handle(ArbiterAction(63 * S, "add_time", {"side": "white", "seconds": 30}))
    assert "abgelaufen" not in said(clock.resume_announcement())[0]


FAULTS = [
    ("?", "none"),
    ("-", "none"),
    ("*60", "sandclock"),
    ("abc", "unreadable"),
    ("0/300", "no_moves"),
    ("201/300", "too_many_moves"),
    ("86401", "too_long"),
    ("300+3601", "extra_too_long"),
    ("40/900:0", "no_time"),
    (":".join(["900"] * 11), "too_many_periods"),
    ("0+5", "base_first"),
    ("900:40/900", "last_only"),
]


@pytest.mark.parametrize(("control", "reason"), FAULTS)
@pytest.mark.parametrize("language", ["de", "en", "ar", "fa", "he"])
def test_a_time_control_fault_is_said_in_the_players_language(
    control: str, reason: str, language: str
) -> None:
    """A player told why their time control cannot be used hears it in their language, with
    the limit as a time in words; the English message stays for scripts and logs."""
    with pytest.raises(TimeControlError) as caught:
        parse_time_control(control)
    assert caught.value.reason == reason
    words = describe_fault(caught.value, language)
    if language != "en":
        assert not re.search(r"\b(period|time control|moves?|at most)\b", words), words
    if reason == "too_long":  # the limit said as a time, as the clock says times
        assert duration_words(24 * 3600 * 1000, language) in words, words


@pytest.mark.parametrize(("bounce_ms", "running"), [(300, "black"), (0, "white")])
def test_a_double_tap_of_the_one_press_key_is_one_press(
    settings: Settings, bounce_ms: int, running: str
) -> None:
    """One key presses for both sides: a double tap or a bouncing foot switch counted two moves
    and two increments (a new user's trial: "eine Stunde dreißig" became "einunddreißig
    Minuten" and "drei Züge"). A new clock's journal holds ``bounce_ms`` (300): a second press
    within it is ignored. Scripts and older journals without it count every press."""
    clock = session(settings, extra={"bounce_ms": bounce_ms})
    clock.handle(KeyPress(4 * S, "press"))
    out = clock.handle(KeyPress(4 * S + 150, "press"))  # the key bounced
    state = [o for o in out if isinstance(o, ClockState)][-1]
    assert state.running == running
    later = clock.handle(KeyPress(9 * S, "press"))  # the opponent's move, seconds later
    state = [o for o in later if isinstance(o, ClockState)][-1]
    assert state.running == ("white" if running == "black" else "black")


def test_a_bounce_setting_out_of_range_is_a_script_error(settings: Settings) -> None:
    with pytest.raises(ScriptError, match="bounce_ms"):
        session(settings, extra={"bounce_ms": -1})
