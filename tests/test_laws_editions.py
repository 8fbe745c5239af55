"""The Laws of other years (issue 23): each scenario under every edition where it differs.

Scripts in ``tests/scripts/laws_*.jsonl`` (and a few of the 2023 ones) are played with the setup's
``"laws"`` set to each edition; the test names cite the article that decides. The table of what
differs is docs/laws-editions.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from session_scripts import (
    SCRIPTS,
    clock_at,
    moves,
    pgn_game,
    refused,
    results,
    run_text,
    run_under,
    says,
)

from voice.config import ConfigError, Settings, load_settings, override
from voice.game.clock_mode import ClockSession
from voice.game.session import GameSession
from voice.rules.events import ScriptError, Setup
from voice.rules.laws import laws_for
from voice.rules.timecontrol import parse_time_control
from voice.runtime.resume import resume, run_journaled

BOTH_NEWER = ("2023", "2018")


def _result(out: list[dict]) -> tuple[float, str, str]:
    """When and how the game ended (the first result; later arbiter actions aside)."""
    line = results(out)[0]
    return line["t"], line["result"], line["reason"]


# -- selecting the edition ---------------------------------------------------------------------


def test_the_default_edition_is_2023_and_the_settings_choose_another(settings: Settings) -> None:
    assert settings.rules.edition == "2023"
    session = GameSession(Setup(), override(settings, rules={"edition": "2001"}))
    assert session.laws.edition == "2001"
    # The setup (a journal, --laws) wins over the settings.
    assert GameSession(Setup(laws="2018"), settings).laws.edition == "2018"


def test_an_unknown_edition_is_one_clear_sentence(tmp_path: Path, settings: Settings) -> None:
    user = tmp_path / "config.toml"
    user.write_text('[rules]\nedition = "1997"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"key 'rules.edition'.*'2023', '2018' or '2001'"):
        load_settings(user)
    with pytest.raises(ScriptError, match=r"setup\.laws must be one of 2023, 2018, 2001"):
        run_under("r9_stalemate", "1997", settings)


@pytest.mark.parametrize("edition", ["2023", "2018", "2001"])
def test_the_pgn_header_names_the_edition(edition: str, settings: Settings) -> None:
    out = run_under("r9_stalemate", edition, settings)
    assert pgn_game(out).headers["Laws"] == f"FIDE {edition}"


def test_the_talking_clock_says_the_edition_at_the_start(settings: Settings) -> None:
    clock = ClockSession(Setup(mode="clock", laws="2001"), settings, start_ms=None)
    [welcome] = clock.welcome(0)
    assert welcome.text.endswith(" FIDE-Regeln 2001 mit Anhang F.")  # type: ignore[union-attr]


def test_a_journal_keeps_its_edition_on_resume_whatever_the_settings_say(
    tmp_path: Path, settings: Settings
) -> None:
    path = tmp_path / "game.jsonl"
    lines = (Path(__file__).parent / "scripts" / "laws_fivefold_then_claim.jsonl").read_text()
    under_2001 = override(settings, rules={"edition": "2001"})
    script = lines.splitlines()[:-2]  # the fivefold repetition, not the claim
    list(run_journaled(script, under_2001, journal_path=path))
    resumed = resume(path, settings)  # the settings now say 2023
    resumed.journal.close()
    assert isinstance(resumed.core, GameSession)
    assert resumed.core.laws.edition == "2001"
    assert resumed.core.result is None  # 2001: a fivefold repetition does not end the game
    assert resumed.core.state()["laws"] == "2001"


# -- how the game ends, script by script and edition by edition ---------------------------------

ENDINGS = [
    # 7.5.5: the second completed illegal move loses (2018: all kinds count together).
    ("laws_illegal_moves_three", "2023", (5.0, "1-0", "illegal_moves"), "7_5_5_second_loses"),
    ("laws_illegal_moves_three", "2018", (5.0, "1-0", "illegal_moves"), "7_5_5_second_loses"),
    ("laws_illegal_moves_three", "2001", (8.0, "1-0", "illegal_moves"), "2001_7_4_b_third_loses"),
    # 2001 C.3: in blitz the first illegal move loses on the opponent's claim.
    ("laws_illegal_move_blitz", "2001", (3.0, "1-0", "illegal_moves"), "2001_c_3_blitz_first"),
    # 9.6.1 / 9.6.2: automatic from 2018 on; 2001 (9.2, 9.3): only the claim.
    ("laws_fivefold_then_claim", "2023", (16.0, "1/2-1/2", "fivefold_repetition"), "9_6_1"),
    ("laws_fivefold_then_claim", "2018", (16.0, "1/2-1/2", "fivefold_repetition"), "9_6_1"),
    ("laws_fivefold_then_claim", "2001", (17.0, "1/2-1/2", "threefold_repetition"), "2001_9_2"),
    ("laws_seventyfive_then_claim", "2023", (2.0, "1/2-1/2", "seventyfive_moves"), "9_6_2"),
    ("laws_seventyfive_then_claim", "2018", (2.0, "1/2-1/2", "seventyfive_moves"), "9_6_2"),
    ("laws_seventyfive_then_claim", "2001", (3.0, "1/2-1/2", "fifty_moves"), "2001_9_3"),
    # 5.1.2: resigning when the opponent cannot mate is a draw only from 2023.
    (
        LONE_KING := "r51_resignation_against_lone_king_is_draw",
        "2023",
        (2.0, "1/2-1/2", "resignation_draw"),
        "5_1_2_2023_draw",
    ),
    (LONE_KING, "2018", (2.0, "0-1", "resignation"), "5_1_2_2018_loses"),
    (LONE_KING, "2001", (2.0, "0-1", "resignation"), "5_1_2_2001_loses"),
    # A.5.5 (from 2018): the flag in rapid play is called at once; 2001 B.6-B.8: see below.
    ("laws_flag_rapid_claimed", "2023", (911.0, "0-1", "time_forfeit"), "a_5_5_called"),
    ("laws_flag_rapid_claimed", "2018", (911.0, "0-1", "time_forfeit"), "a_5_5_called"),
    ("laws_flag_rapid_claimed", "2001", (950.0, "0-1", "time_forfeit"), "2001_b_7_claimed"),
    ("laws_flag_rapid_both", "2023", (911.0, "0-1", "time_forfeit"), "a_5_5_first_flag"),
    ("laws_flag_rapid_both", "2001", (1859.0, "1/2-1/2", "both_flags"), "2001_b_8_both_flags"),
]


@pytest.mark.parametrize(
    ("script", "edition", "ending"),
    [pytest.param(*row[:3], id=f"{row[3]}-{row[1]}") for row in ENDINGS],
)
def test_how_the_game_ends_under_each_edition(
    script: str, edition: str, ending: tuple[float, str, str], settings: Settings
) -> None:
    assert _result(run_under(script, edition, settings)) == ending


# -- illegal moves (7.5.5; 2001 7.4.b and C.3) ---------------------------------------------------


def test_2001_7_4_b_two_minutes_for_the_first_and_second_illegal_move_the_third_loses(
    settings: Settings,
) -> None:
    out = run_under("laws_illegal_moves_three", "2001", settings)
    assert _result(out) == (8.0, "1-0", "illegal_moves")
    assert says(out, "all", 3.0) == ["Turnierleiter: Weiß erhält zwei Minuten dazu."]
    assert says(out, "all", 5.0) == ["Turnierleiter: Weiß erhält zwei Minuten dazu."]
    assert says(out, "all", 8.0) == [
        "Weiß gewinnt: regelwidriger Zug, der nach den Regeln von 2001 die Partie verliert."
    ]


@pytest.mark.parametrize(
    ("edition", "penalty"),
    [("2023", 60.0), ("2018", 120.0), ("2001", 120.0)],
)
def test_a_3_the_rapid_penalty_is_one_minute_from_2023_two_in_2018_b_2_and_2001(
    edition: str, penalty: float, settings: Settings
) -> None:
    """900+10 is rapid in every edition (2001 B.1 drew the line at 15 minutes)."""
    out = run_under("laws_illegal_moves_three", edition, settings)
    before = clock_at(out, 2.0)["white"] - 1  # White's clock runs from 2 to 3
    assert clock_at(out, 3.0)["white"] == before + penalty


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_b_2_a_3_in_blitz_the_first_illegal_move_costs_one_minute_under_2023_and_2018(
    edition: str, settings: Settings
) -> None:
    out = run_under("laws_illegal_move_blitz", edition, settings)
    assert results(out) == []
    assert clock_at(out, 3.0)["white"] == clock_at(out, 2.0)["white"] - 1 + 60


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_7_5_3_7_5_4_two_hands_and_a_clock_press_without_a_move_are_illegal_moves_from_2018(
    edition: str, settings: Settings
) -> None:
    out = run_under("laws_illegal_move_two_hands", edition, settings)
    assert clock_at(out, 3.0)["white"] == clock_at(out, 2.0)["white"] - 1 + 120
    assert _result(out) == (4.0, "1-0", "illegal_moves")  # both count together (2018)


def test_2001_7_4_two_hands_and_a_clock_press_are_no_illegal_moves(settings: Settings) -> None:
    out = run_under("laws_illegal_move_two_hands", "2001", settings)
    assert results(out) == []
    assert clock_at(out, 4.0)["white"] == clock_at(out, 2.0)["white"] - 2  # only time ran
    refusals = [line["say"] for line in out if line.get("to") == "arbiter"]
    assert any(
        "nach den FIDE-Regeln 2001 ist das kein regelwidriger Zug" in text for text in refusals
    )


# -- draws (9.6, 5.1.2, 9.5) ------------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_9_5_3_a_wrong_claim_gives_the_opponent_the_penalty_time(
    edition: str, settings: Settings
) -> None:
    out = run_under("r953_wrong_claim_home_penalised", edition, settings)
    penalty = {"2023": 60.0, "2018": 120.0}[edition]  # 900+10 is rapid: A.3 from 2023
    assert clock_at(out, 3.0)["black"] == clock_at(out, 2.0)["black"] + penalty


def test_2001_9_5_b_a_wrong_claim_gives_three_minutes_and_halves_the_claimants_time(
    settings: Settings,
) -> None:
    out = run_under("r953_wrong_claim_home_penalised", "2001", settings)
    assert clock_at(out, 3.0)["black"] == clock_at(out, 2.0)["black"] + 180
    # White had 15:08, more than two minutes: half of it is taken, at most three minutes.
    assert says(out, "all", 3.0)[1] == "Turnierleiter: Weiß hat jetzt zwölf Minuten acht Sekunden."


# -- flags (6.12, A.5.5; 2001 B.6-B.8) ----------------------------------------------------------


def test_2001_b_6_b_7_in_rapid_play_the_blind_players_flag_counts_when_claimed(
    settings: Settings,
) -> None:
    out = run_under("laws_flag_rapid_claimed", "2001", settings)
    assert {"t": 911.0, "flag": "white"} in out
    assert _result(out) == (950.0, "0-1", "time_forfeit")
    assert says(out, "all", 911.0) == []  # nobody calls it to the players


def test_2001_b_8_in_rapid_play_both_flags_fallen_is_a_draw(settings: Settings) -> None:
    out = run_under("laws_flag_rapid_both", "2001", settings)
    assert _result(out) == (1859.0, "1/2-1/2", "both_flags")
    assert "Beide Fahnen sind gefallen." in says(out, "all", 1859.0)


def test_a_flag_claim_with_no_fallen_flag_is_refused_with_one_sentence(settings: Settings) -> None:
    out = run_text(
        """
{"setup": {"mode": "game", "blind": "white", "time_control": "900+10", "laws": "2001"}}
{"t": 1, "blind": "Eva vier"}
{"t": 2, "key": "sighted:flag_claim"}
{"t": 3, "arbiter": {"action": "pause"}}
""",
        settings,
    )
    assert results(out) == []
    assert says(out, "sighted", 2.0) == ["Es ist keine Fahne gefallen, die Sie reklamieren können."]


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_the_talking_clock_stands_after_a_flag_in_rapid_play_under_2023_and_2018(
    edition: str, settings: Settings
) -> None:
    """A.5.5: the flag is called, the game is decided (6.9): a press after it leaves the clock
    standing, and no second flag falls."""
    out = run_under("laws_clock_rapid_both_flags", edition, settings)
    assert says(out, "blind", 950.0) == ["Zeit abgelaufen für Weiß. Die Uhr steht."]
    assert [line["flag"] for line in out if "flag" in line] == ["white"]


def test_the_talking_clock_on_the_second_flag_in_rapid_play_under_2001(
    settings: Settings,
) -> None:
    """2001 B.6: the flag counts when claimed, so the clock goes on; B.8: both flags down
    draws."""
    out = run_under("laws_clock_rapid_both_flags", "2001", settings)
    assert says(out, "blind", 1850.0) == [
        "Zeit abgelaufen auch für Schwarz. "
        "Beide Fahnen sind gefallen: nach den Regeln von 2001 ist die Schnellpartie remis."
    ]


# -- the scoresheet (8.1, 8.1.6) ------------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_8_1_6_no_deduction_from_the_blind_player_for_the_scoresheet_under_2023_and_2018(
    edition: str, settings: Settings
) -> None:
    out = run_under("laws_scoresheet_deduction", edition, settings)
    assert clock_at(out, 3.0)["white"] == clock_at(out, 2.0)["white"] - 1  # only time ran
    assert clock_at(out, 4.0)["black"] == clock_at(out, 3.0)["black"] - 300  # the sighted one


def test_2001_8_1_the_arbiter_deducts_time_from_a_player_who_cannot_keep_score(
    settings: Settings,
) -> None:
    out = run_under("laws_scoresheet_deduction", "2001", settings)
    assert clock_at(out, 3.0)["white"] == clock_at(out, 2.0)["white"] - 1 - 600
    assert says(out, "all", 3.0) == [
        "Zeitabzug, weil nicht mitgeschrieben werden kann (8.1): Weiß hat jetzt eine Stunde "
        "zwanzig Minuten."
    ]


# -- Appendix F wording (2001) ------------------------------------------------------------------


def test_2001_appendix_f_says_controller_and_retraces_move_by_move(settings: Settings) -> None:
    out = run_under("laws_appendix_f_wording", "2001", settings)
    assert says(out, "all", 3.0) == ["Weiß ruft den Turnierleiter. Die Uhr ist angehalten."]
    assert says(out, "all", 5.0) == [
        "Turnierleiter: die Partie ist Zug um Zug zurückgesetzt. Letzter Zug: Eva vier. "
        "Schwarz ist am Zug."
    ]
    assert says(out, "all", 6.0) == ["Remis: Entscheidung des Turnierleiters."]


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_d_2_9_appendix_d_says_arbiter(edition: str, settings: Settings) -> None:
    out = run_under("laws_appendix_f_wording", edition, settings)
    assert says(out, "all", 3.0) == ["Weiß ruft den Schiedsrichter. Die Uhr ist angehalten."]
    assert says(out, "all", 6.0) == ["Remis: Entscheidung des Schiedsrichters."]


# -- the policy itself ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("control", "categories"),
    [
        ("600", ("blitz", "blitz", "blitz")),
        ("720", ("rapid", "rapid", "blitz")),  # 12 minutes: under 15, blitz in 2001 (C.1)
        ("900+10", ("rapid", "rapid", "rapid")),
        ("5400+30", ("standard", "standard", "standard")),
    ],
)
def test_a_1_b_1_the_categories_of_each_edition(control: str, categories: tuple) -> None:
    parsed = parse_time_control(control)
    assert tuple(laws_for(e).category(parsed) for e in ("2023", "2018", "2001")) == categories


# -- promotion (D.2.1; 2001 F.2.1) ---------------------------------------------------------------


@pytest.mark.parametrize("edition", BOTH_NEWER)
def test_d_2_1_the_promotion_piece_must_be_announced_under_2023_and_2018(
    edition: str, settings: Settings
) -> None:
    out = run_under("laws_promotion_piece_asked", edition, settings)
    assert refused(out) == [{"t": 1.0, "by": "white", "reason": "which_piece"}]
    assert moves(out) == []  # "Turm" alone is only asked back: the move was not announced


def test_2001_f_2_1_a_promotion_without_its_piece_is_asked_for_and_the_piece_word_makes_it(
    settings: Settings,
) -> None:
    """The piece word answers the question; a rook, bishop or knight is then asked back, as
    when the promotion is said whole (Art. 4.4.4: final once made), a queen is made."""
    out = run_under("laws_promotion_piece_asked", "2001", settings)
    assert says(out, "blind", 1.0) == [
        "Welche Figur für Eva acht: Dame, Turm, Läufer oder Springer?"
    ]
    assert refused(out) == []
    assert says(out, "blind", 2.0) == ["Eva acht Turm?"]
    assert moves(out) == []
    setup = (SCRIPTS / "laws_promotion_piece_asked.jsonl").read_text().splitlines()[0]
    setup = setup.replace('"fen"', '"laws": "2001", "fen"')
    asked = '\n{"t": 1, "blind": "Eva acht"}\n'
    rook = run_text(setup + asked + '{"t": 2, "blind": "Turm"}\n{"t": 3, "blind": "ja"}', settings)
    assert moves(rook) == ["e7e8r"]
    queen = run_text(setup + asked + '{"t": 2, "blind": "Dame"}', settings)
    assert moves(queen) == ["e7e8q"]
    # Said unsurely, even the queen is asked back; a piece word among the unlikelier
    # hypotheses is not the answer.
    unsure = run_text(setup + asked + '{"t": 2, "blind_nbest": [["Dame", 0.3]]}', settings)
    assert says(unsure, "blind", 2.0) == ["Eva acht Dame?"]
    lower = run_text(
        setup + asked + '{"t": 2, "blind_nbest": [["Bauer", 0.6], ["Turm", 0.3]]}', settings
    )
    assert moves(lower) == []


def test_2001_f_2_1_the_promotion_question_survives_a_resume(
    tmp_path: Path, settings: Settings
) -> None:
    path = tmp_path / "game.jsonl"
    script = (Path(__file__).parent / "scripts" / "laws_promotion_piece_asked.jsonl").read_text()
    lines = script.splitlines()
    list(
        run_journaled(
            [lines[0].replace('"fen"', '"laws": "2001", "fen"'), lines[1]],
            settings,
            journal_path=path,
        )
    )
    resumed = resume(path, settings)
    resumed.journal.close()
    assert isinstance(resumed.core, GameSession)
    assert resumed.core.state()["pending"]["kind"] == "promotion"
    texts = [event.text for event in resumed.announcement if hasattr(event, "text")]
    assert any("Welche Figur für Eva acht" in text for text in texts)
