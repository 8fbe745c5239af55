"""End to end in headless Chromium: the real page, server, host and session.

The sighted player clicks on the board as a person would; the blind player's side is fed to the
host as the recogniser would hand over speech. What the blind player hears is the ``Say`` the
host delivers to its subscribers (the speech adapter is one of them).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from browser import driver, square, wait_connected, wait_for_ply
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from web_harness import LiveGame, game, live_game

from voice.config import Settings, override
from voice.rules.events import ArbiterAction, MoveMade, Result, Say, SightedMove

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["driver", "game"]  # the shared fixtures this module uses


def wait_until(condition: object, timeout: float = 10) -> None:
    """Poll a condition of the game (not of the page) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("the game never reached the expected state")
        time.sleep(0.01)


def open_board(driver: webdriver.Chrome, game: LiveGame) -> None:
    driver.get(game.url("opponent"))
    wait_connected(driver)


def test_a_clicked_move_is_made_by_the_session_and_announced_to_the_blind_player(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")
    wait_for_ply(driver, 1)

    square(driver, "e7").click()
    square(driver, "e5").click()

    def announced() -> bool:
        return any(
            isinstance(o, Say) and o.to == "blind" and o.text == "Eva fünf" for o in game.seen()
        )

    wait_until(announced)
    made = [o for o in game.seen() if isinstance(o, MoveMade)]
    assert [(m.uci, m.by) for m in made] == [("e2e4", "white"), ("e7e5", "black")]
    wait_for_ply(driver, 2)


def test_a_dragged_move_is_made_too(driver: webdriver.Chrome, game: LiveGame) -> None:
    open_board(driver, game)
    game.blind_plays("d2d4")
    wait_for_ply(driver, 1)

    webdriver.ActionChains(driver).drag_and_drop(
        square(driver, "g8"), square(driver, "f6")
    ).perform()

    wait_for_ply(driver, 2)
    assert game.state_fen().startswith("rnbqkb1r/pppppppp/5n2/")


def test_the_blind_players_move_appears_on_the_page_within_a_second(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    started = time.monotonic()
    game.blind_says("Springer Felix drei")

    wait_for_ply(driver, 1, timeout=1.0)
    print(f"blind move on the page after {(time.monotonic() - started) * 1000:.0f} ms")
    assert square(driver, "f3").get_attribute("aria-label") == "f3, weißer Springer, " + (
        "letzter Zug des blinden Spielers"
    )
    last = driver.find_element(By.ID, "last-blind")
    assert last.find_element(By.CLASS_NAME, "san").text == "Nf3"
    assert last.find_element(By.CLASS_NAME, "spoken").text == "„Springer Felix drei“"
    assert "last-blind" in (square(driver, "g1").get_attribute("class") or "")


def test_an_illegal_click_is_refused_on_the_page_with_the_reason_and_changes_nothing(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")
    wait_for_ply(driver, 1)
    journal_before = game.journal.path.read_bytes()

    square(driver, "e7").click()
    square(driver, "e4").click()

    status = driver.find_element(By.ID, "status")
    assert "error" in (status.get_attribute("class") or "")
    assert status.text == "Kein regelgemäßer Zug: schwarzer Bauer auf e7 kann nicht nach e4."
    square(driver, "d2").click()  # the blind player's piece
    assert status.text == "Wählen Sie zuerst eine eigene Figur (nicht d2)."
    assert game.journal.path.read_bytes() == journal_before
    assert len([o for o in game.seen() if isinstance(o, MoveMade)]) == 1


def test_the_arbiter_adds_time_and_the_clocks_on_both_pages_show_it(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")  # Black's clock runs, White's stands still
    wait_for_ply(driver, 1)
    board_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(game.url("arbiter"))
    wait_for_ply(driver, 1)

    form = driver.find_element(By.ID, "form-add-time")
    Select(form.find_element(By.NAME, "side")).select_by_value("white")
    seconds = form.find_element(By.NAME, "seconds")
    seconds.clear()
    seconds.send_keys("120")
    form.find_element(By.NAME, "reason").send_keys("Strafe")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.find_element(By.ID, "confirm-yes").click()

    wait_until(lambda: game.call(lambda: game.session.log[-1].kind) == "add_time")
    white_ms = game.call(lambda: game.session.clock.remaining_ms("white", game.host.now_ms()))
    assert white_ms > 1_020_000  # 15 min + 10 s increment + 2 min, less the first move's time

    def white_clock_reads(expected_ms: int) -> bool:
        clock = driver.find_element(By.ID, "clock-bottom")  # White at the bottom for the arbiter
        return clock.get_attribute("data-ms") == str(expected_ms)

    WebDriverWait(driver, 10).until(lambda d: white_clock_reads(white_ms))
    driver.switch_to.window(board_tab)
    # The opponent (Black) sees White's clock at the top of the board.
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "clock-top").get_attribute("data-ms") == str(white_ms)
    )
    black_ms = int(driver.find_element(By.ID, "clock-bottom").get_attribute("data-ms") or 0)
    assert 880_000 < black_ms <= 900_000  # Black's own clock is running down from 15 minutes


def test_resigning_asks_first_and_no_leaves_the_game_running(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")
    wait_for_ply(driver, 1)

    driver.find_element(By.ID, "resign").click()
    driver.find_element(By.ID, "resign-no").click()
    assert not driver.find_element(By.ID, "confirm-resign").is_displayed()
    assert not any(isinstance(o, Result) for o in game.seen())

    driver.find_element(By.ID, "resign").click()
    driver.find_element(By.ID, "resign-yes").click()
    wait_until(lambda: any(isinstance(o, Result) for o in game.seen()))
    result = next(o for o in game.seen() if isinstance(o, Result))
    assert (result.result, result.reason) == ("1-0", "resignation")
    banner = driver.find_element(By.ID, "banner")
    WebDriverWait(driver, 10).until(lambda d: banner.is_displayed())
    assert banner.text.startswith("Partie beendet: 1-0.")


def test_a_promotion_is_chosen_in_the_picker(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    with live_game(settings, tmp_path, fen="8/8/8/8/8/2K5/p7/7k w - - 0 1") as game:
        open_board(driver, game)
        game.blind_plays("c3d3")
        wait_for_ply(driver, 1)

        square(driver, "a2").click()
        square(driver, "a1").click()
        picker = driver.find_element(By.ID, "promotion")
        assert picker.is_displayed()
        picker.find_element(By.CSS_SELECTOR, '[data-piece="n"]').click()

        wait_for_ply(driver, 2)
        made = [o for o in game.seen() if isinstance(o, MoveMade)]
        assert (made[-1].uci, made[-1].san) == ("a2a1n", "a1=N")


def test_a_move_can_be_made_with_the_keyboard_alone(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")
    wait_for_ply(driver, 1)
    start = square(driver, "e7")
    assert start.get_attribute("tabindex") == "0"  # the one tab stop into the board

    start.send_keys(Keys.ENTER)
    assert "ausgewählt" in (start.get_attribute("aria-label") or "")
    assert "mögliches Ziel" in (square(driver, "e5").get_attribute("aria-label") or "")
    driver.switch_to.active_element.send_keys(Keys.ARROW_UP, Keys.ARROW_UP)
    assert driver.switch_to.active_element.get_attribute("data-square") == "e5"
    driver.switch_to.active_element.send_keys(Keys.ENTER)

    wait_for_ply(driver, 2)
    assert [o.uci for o in game.seen() if isinstance(o, MoveMade)] == ["e2e4", "e7e5"]


def test_the_blind_players_draw_offer_is_accepted_with_a_button(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")
    game.submit(lambda t: SightedMove(t, "e7e5"))
    game.blind_plays("g1f3")
    game.blind_says("Remis")
    accept = driver.find_element(By.ID, "accept-draw")
    WebDriverWait(driver, 10).until(lambda d: accept.is_displayed())
    assert driver.find_element(By.ID, "banner").text == "Weiß bietet Remis an."

    accept.click()

    wait_until(lambda: any(isinstance(o, Result) for o in game.seen()))
    result = next(o for o in game.seen() if isinstance(o, Result))
    assert (result.result, result.reason) == ("1/2-1/2", "agreement")


def test_calling_the_arbiter_stops_the_clocks_and_the_arbiter_restarts_them(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")
    wait_for_ply(driver, 1)

    driver.find_element(By.ID, "call-arbiter").click()

    banner = driver.find_element(By.ID, "banner")
    WebDriverWait(driver, 10).until(lambda d: banner.text == "Die Uhr ist angehalten.")
    assert game.state()["clock"]["paused"]
    square(driver, "e7").click()
    assert driver.find_element(By.ID, "status").text.startswith("Die Uhr ist angehalten")
    game.submit(lambda t: ArbiterAction(t, "resume", {}))
    WebDriverWait(driver, 10).until(lambda d: not banner.is_displayed())


def test_the_blind_players_moves_can_be_shown_in_large_text(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    deaf_opponent = override(settings, web={"large_text_moves": True})
    with live_game(deaf_opponent, tmp_path) as game:
        open_board(driver, game)
        game.blind_plays("g1f3")
        wait_for_ply(driver, 1)
        large = driver.find_element(By.ID, "large-text")
        assert large.is_displayed()
        assert large.text == "Springer Felix drei (Nf3)"
        driver.find_element(By.ID, "large-text-toggle").click()
        assert not large.is_displayed()


def test_the_arbiter_retracts_a_move_and_gives_penalty_time_after_confirming(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    game.blind_plays("e2e4")
    game.submit(lambda t: SightedMove(t, "e7e5"))
    driver.get(game.url("arbiter"))
    wait_for_ply(driver, 2)

    retract = driver.find_element(By.ID, "form-retract")
    Select(retract.find_element(By.NAME, "ply")).select_by_value("1")
    retract.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.find_element(By.ID, "confirm-yes").click()
    wait_for_ply(driver, 1)

    penalty = driver.find_element(By.ID, "form-penalty")
    Select(penalty.find_element(By.NAME, "side")).select_by_value("white")
    penalty.find_element(By.CSS_SELECTOR, 'button[value="penalty"]').click()
    driver.find_element(By.ID, "confirm-no").click()  # asked first: nothing happens on "no"
    assert [entry.kind for entry in game.call(lambda: list(game.session.log))] == ["retract"]
    penalty.find_element(By.CSS_SELECTOR, 'button[value="penalty"]').click()
    driver.find_element(By.ID, "confirm-yes").click()

    wait_until(lambda: game.call(lambda: game.session.log[-1].kind) == "penalty")
    log = driver.find_element(By.ID, "log")
    WebDriverWait(driver, 10).until(lambda d: "Weiß" in log.text.splitlines()[0])  # newest first
    assert game.state_fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/")


def test_on_a_phone_held_upright_the_board_fills_the_width_without_sideways_scrolling(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    driver.set_window_size(390, 844)
    try:
        open_board(driver, game)
        width = driver.execute_script("return document.documentElement.clientWidth;")
        scroll = driver.execute_script("return document.documentElement.scrollWidth;")
        board = driver.find_element(By.ID, "board").rect
        top = driver.find_element(By.ID, "clock-top").rect
        bottom = driver.find_element(By.ID, "clock-bottom").rect
    finally:
        driver.set_window_size(1280, 900)
    assert scroll <= width
    assert board["width"] > 0.9 * width and abs(board["width"] - board["height"]) < 2
    assert top["y"] < board["y"] < bottom["y"]  # the opponent's clock above, mine below


def test_the_arbiters_panel_names_the_laws_edition(
    driver: webdriver.Chrome, settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, laws="2018") as game:
        driver.get(game.url("arbiter"))
        wait_connected(driver)
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, "laws").text == "Schachregeln: FIDE 2018"
        )


def test_the_sighted_player_claims_a_draw_with_the_intended_move(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    """9.3.1.1: Black's next move completes fifty moves without a capture or a pawn move. The
    page offers the claim with that move; the move is declared with the claim, not made
    first, and the claim is right: a draw, with the move on the scoresheet."""
    fen = "4k3/p7/8/8/8/8/R7/4K3 w - - 98 80"
    with live_game(settings, tmp_path, fen=fen) as game:
        open_board(driver, game)
        claim = driver.find_element(By.ID, "claim-with-move")
        assert not claim.is_displayed()  # White (blind) to move
        game.blind_plays("e1d1")
        wait_for_ply(driver, 1)
        WebDriverWait(driver, 10).until(lambda d: claim.is_displayed())
        claim.click()
        assert claim.get_attribute("aria-pressed") == "true"
        assert "Remisreklamation" in driver.find_element(By.ID, "status").text

        square(driver, "a7").click()
        square(driver, "a6").click()  # a pawn move starts the count again: no claim
        assert "kein Remis zu reklamieren" in driver.find_element(By.ID, "status").text
        assert claim.get_attribute("aria-pressed") == "true"  # still armed
        square(driver, "e8").click()
        square(driver, "d7").click()

        wait_until(lambda: any(isinstance(o, Result) for o in game.seen()))
        result = next(o for o in game.seen() if isinstance(o, Result))
        assert (result.result, result.reason) == ("1/2-1/2", "fifty_moves")
        made = [o for o in game.seen() if isinstance(o, MoveMade)]
        assert [m.uci for m in made] == ["e1d1", "e8d7"]
