"""The arbiter's panel in headless Chromium: every text in the arbiter's language and words,
confirmation before a clock, the board or the result changes, an undo for a clock change, and
the event log newest first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import driver, wait_for_ply
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from web_harness import LiveGame, game, live_game

from voice.config import Settings
from voice.rules.events import ArbiterAction, Result

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["driver", "game"]  # the shared fixtures this module uses

INTERNAL = re.compile(r"add_time|set_time|set_moves|retract|ply|=|\[|\]|Grund: -|reason: -")


def open_panel(driver: webdriver.Chrome, game: LiveGame, query: str = "") -> None:
    driver.get(game.url("arbiter") + query)
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connected") == "yes"
    )


def log_lines(driver: webdriver.Chrome) -> list[str]:
    return driver.find_element(By.ID, "log").text.splitlines()


def fill(
    driver: webdriver.Chrome, form_id: str, **fields: str
) -> webdriver.remote.webelement.WebElement:
    form = driver.find_element(By.ID, form_id)
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        if field.tag_name == "select":
            Select(field).select_by_value(value)
        else:
            field.clear()
            field.send_keys(value)
    return form


def wait_status(driver: webdriver.Chrome, expected: str) -> None:
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "status").text == expected)


def test_a_clock_change_is_asked_first_done_in_words_and_can_be_undone(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    game.blind_plays("e2e4")  # Black's clock runs, White's stands
    open_panel(driver, game)
    wait_for_ply(driver, 1)
    white_before = game.call(lambda: game.session.clock.remaining_ms("white", game.host.now_ms()))
    form = fill(driver, "form-add-time", side="white", seconds="120", reason="Störung")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert driver.find_element(By.ID, "confirm-text").text == "Die Uhr von Weiß um +2:00 ändern?"
    driver.find_element(By.ID, "confirm-no").click()
    assert game.call(lambda: list(game.session.log)) == []  # "no" changes nothing

    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.find_element(By.ID, "confirm-yes").click()
    wait_status(driver, "Ausgeführt: Zeit gutgeschrieben · Weiß · +2:00 · „Störung“")
    assert log_lines(driver)[0].endswith("Zeit gutgeschrieben · Weiß · +2:00 · „Störung“")

    undo = driver.find_element(By.ID, "undo")
    assert undo.is_displayed()
    undo.click()
    wait_status(driver, "Ausgeführt: Zeit gutgeschrieben · Weiß · \u22122:00 · „Rückgängig“")
    white_after = game.call(lambda: game.session.clock.remaining_ms("white", game.host.now_ms()))
    assert white_after == white_before  # White's clock stood still all along
    assert not undo.is_displayed()
    assert [line.split(" ", 1)[1] for line in log_lines(driver)] == [
        "Zeit gutgeschrieben · Weiß · \u22122:00 · „Rückgängig“",  # newest first
        "Zeit gutgeschrieben · Weiß · +2:00 · „Störung“",
    ]


def test_setting_a_clock_and_the_move_counter_ask_first_and_read_as_an_arbiter_writes(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_panel(driver, game)
    form = fill(driver, "form-set-time", side="black", minutes="10", seconds="5")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert (
        driver.find_element(By.ID, "confirm-text").text == "Die Uhr von Schwarz auf 10:05 stellen?"
    )
    driver.find_element(By.ID, "confirm-yes").click()
    wait_status(driver, "Ausgeführt: Zeit gesetzt · Schwarz · 10:05")
    assert (
        game.call(lambda: game.session.clock.remaining_ms("black", game.host.now_ms())) == 605_000
    )

    form = fill(driver, "form-set-moves", side="", moves="3")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    question = driver.find_element(By.ID, "confirm-text").text
    assert question == "Den Zugzähler von beide Seiten auf 3 stellen?"
    driver.find_element(By.ID, "confirm-yes").click()
    wait_status(driver, "Ausgeführt: Zugzähler gesetzt · beide Seiten · 3 Züge")
    for line in log_lines(driver):
        assert not INTERNAL.search(line), line


def test_a_retraction_and_a_result_are_confirmed_with_the_position_and_logged_in_words(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    game.play_moves("e2e4", "e7e5", "g1f3")
    open_panel(driver, game)
    wait_for_ply(driver, 3)
    form = fill(driver, "form-retract", ply="2", reason="falscher Zug")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert driver.find_element(By.ID, "confirm-text").text == (
        "Beide Bretter zurücknehmen: nach 1\u2026 e5?"
    )
    driver.find_element(By.ID, "confirm-yes").click()
    wait_for_ply(driver, 2)
    wait_status(driver, "Ausgeführt: Züge zurückgenommen · nach 1\u2026 e5 · „falscher Zug“")

    form = fill(driver, "form-result", result="1/2-1/2")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.find_element(By.ID, "confirm-yes").click()
    wait_status(driver, "Ausgeführt: Ergebnis festgelegt · ½-½")
    assert any(isinstance(o, Result) for o in game.seen())
    for line in log_lines(driver):
        assert not INTERNAL.search(line), line


def test_the_panel_reads_in_the_arbiters_own_language(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    game.submit(lambda t: ArbiterAction(t, "add_time", {"side": "black", "seconds": 30}))
    open_panel(driver, game, "&lang=en")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    WebDriverWait(driver, 10).until(lambda d: len(log_lines(d)) == 1)
    assert log_lines(driver)[0].endswith("Time added · Black · +0:30")
    game.submit(lambda t: ArbiterAction(t, "pause", {"reason": "phone rang"}))
    WebDriverWait(driver, 10).until(lambda d: len(log_lines(d)) == 2)
    assert log_lines(driver)[0].endswith("Clock paused · “phone rang”")
    assert "Protokolliert" not in driver.find_element(By.ID, "status").text


def test_penalty_time_is_logged_with_its_amount_and_can_be_undone(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_panel(driver, game)
    before = game.call(lambda: game.session.clock.remaining_ms("black", game.host.now_ms()))
    form = fill(driver, "form-penalty", side="black")
    form.find_element(By.CSS_SELECTOR, 'button[value="penalty"]').click()
    driver.find_element(By.ID, "confirm-yes").click()
    wait_status(driver, "Ausgeführt: Strafzeit gutgeschrieben · Schwarz · +1:00")  # rapid: 1 min
    driver.find_element(By.ID, "undo").click()
    wait_status(driver, "Ausgeführt: Zeit gutgeschrieben · Schwarz · \u22121:00 · „Rückgängig“")
    after = game.call(lambda: game.session.clock.remaining_ms("black", game.host.now_ms()))
    assert after == before  # Black's clock stood still (White to move)


def test_7_5_4_the_panel_records_a_move_made_with_two_hands_by_its_kind(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    """7.5.4: a move made with two hands counts as an illegal move. The arbiter chooses the
    kind on the panel; the question, what was done and the log name it."""
    game.blind_plays("e2e4")
    open_panel(driver, game)
    wait_for_ply(driver, 1)
    form = fill(driver, "form-illegal", side="black", kind="two_hands")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert driver.find_element(By.ID, "confirm-text").text == (
        "Zwei Hände für einen Zug (7.5.4). "
        "Einen vollendeten regelwidrigen Zug von Schwarz eintragen und die Strafe anwenden?"
    )
    driver.find_element(By.ID, "confirm-yes").click()
    wait_status(driver, "Ausgeführt: Vollendeter regelwidriger Zug: zwei Hände (7.5.4) · Schwarz")
    assert log_lines(driver)[0].endswith(
        "Vollendeter regelwidriger Zug: zwei Hände (7.5.4) · Schwarz"
    )
    assert game.call(lambda: dict(game.session.illegal_moves)) == {"white": 0, "black": 1}


def test_2001_7_4_the_panel_offers_no_other_kind_than_the_move_itself(
    driver: webdriver.Chrome, settings: Settings, tmp_path: Path
) -> None:
    """The 2001 Laws (7.4) know no illegal move but the move itself: the panel offers no
    choice of kind there, and records the move."""
    with live_game(settings, tmp_path, laws="2001") as game:
        open_panel(driver, game)
        assert not driver.find_element(By.ID, "illegal-kind-label").is_displayed()
        form = fill(driver, "form-illegal", side="white")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        assert driver.find_element(By.ID, "confirm-text").text == (
            "Einen vollendeten regelwidrigen Zug von Weiß eintragen und die Strafe anwenden?"
        )
        driver.find_element(By.ID, "confirm-yes").click()
        wait_status(driver, "Ausgeführt: Vollendeter regelwidriger Zug · Weiß")
        assert game.call(lambda: dict(game.session.illegal_moves)) == {"white": 1, "black": 0}


def counts(driver: webdriver.Chrome) -> dict[str, str]:
    return {
        name: driver.find_element(By.ID, name).text
        for name in ("attempts", "illegal-moves", "wrong-claims")
    }


def test_7_5_5_9_5_3_after_a_penalty_the_panel_shows_what_counts_for_each_player(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    """After a penalty the arbiter must see what counts towards the next: the completed illegal
    moves (7.5.5: the second loses) and the incorrect claims (9.5.3) of each player, beside
    the refused move attempts, next to the log."""
    game.blind_plays("e2e4")
    open_panel(driver, game)
    wait_for_ply(driver, 1)
    nothing = "Blinder Spieler: 0. Sehender Spieler: 0."
    assert counts(driver) == {
        "attempts": nothing,
        "illegal-moves": nothing,
        "wrong-claims": nothing,
    }
    form = fill(driver, "form-illegal", side="black")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.find_element(By.ID, "confirm-yes").click()
    WebDriverWait(driver, 10).until(
        lambda d: (
            d.find_element(By.ID, "illegal-moves").text
            == "Blinder Spieler: 0. Sehender Spieler: 1."
        )
    )
    form = fill(driver, "form-penalty", side="white")
    form.find_element(By.CSS_SELECTOR, 'button[value="wrong_claim"]').click()
    driver.find_element(By.ID, "confirm-yes").click()
    WebDriverWait(driver, 10).until(
        lambda d: (
            d.find_element(By.ID, "wrong-claims").text == "Blinder Spieler: 1. Sehender Spieler: 0."
        )
    )
    assert counts(driver) == {
        "attempts": nothing,
        "illegal-moves": "Blinder Spieler: 0. Sehender Spieler: 1.",
        "wrong-claims": "Blinder Spieler: 1. Sehender Spieler: 0.",
    }
    assert game.call(lambda: dict(game.session.wrong_claims)) == {"white": 1, "black": 0}
