"""What the sighted side sees, in headless Chromium: the blind player's said move before it is
made, a lost connection, refusals that say the right thing and go away, check, castling onto the
rook, a dragged piece, large text for a deaf opponent (D.2.11) and the page's own language."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import driver, square, wait_connected, wait_for_ply
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from web_harness import LiveGame, game, live_game, page_socket, receive_until
from websockets.sync.client import connect

from voice.cli import build_parser
from voice.cli._game import with_options
from voice.config import Settings, override
from voice.rules.events import MoveMade, Say

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["driver", "game"]  # the shared fixtures this module uses


def open_board(driver: webdriver.Chrome, game: LiveGame, query: str = "") -> None:
    driver.get(game.url("opponent") + query)
    wait_connected(driver)


def text_of(driver: webdriver.Chrome, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def wait_text(
    driver: webdriver.Chrome, element_id: str, expected: str, timeout: float = 10
) -> None:
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(
        lambda d: d.find_element(By.ID, element_id).text == expected
    )


def classes(driver: webdriver.Chrome, name: str) -> list[str]:
    return (square(driver, name).get_attribute("class") or "").split()


# -- the blind player's move, said but not made -----------------------------------------------


def test_a_move_asked_back_shows_as_pending_on_both_pages_and_turns_into_the_move(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    with live_game(override(settings, session={"always_confirm": True}), tmp_path) as game:
        open_board(driver, game)
        game.blind_says("Springer Felix drei")
        wait_text(driver, "pending", "Weiß sagt: Springer Felix drei (Nf3) — wird nachgefragt")
        assert "pending" in classes(driver, "f3") and "pending" in classes(driver, "g1")
        board_tab = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(game.url("arbiter"))
        wait_text(driver, "pending", "Weiß sagt: Springer Felix drei (Nf3) — wird nachgefragt")
        game.blind_says("ja")
        wait_for_ply(driver, 1)
        assert not driver.find_element(By.ID, "pending").is_displayed()
        driver.close()
        driver.switch_to.window(board_tab)
        wait_for_ply(driver, 1)
        assert not driver.find_element(By.ID, "pending").is_displayed()
        assert "pending" not in classes(driver, "f3")


def test_a_move_in_the_correction_window_is_pending_and_disappears_when_withdrawn(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    with live_game(override(settings, session={"correction_window": 10.0}), tmp_path) as game:
        open_board(driver, game, "&lang=en")
        game.blind_says("Eva vier")
        wait_text(driver, "pending", "White says: Eva vier (e4) — being confirmed")
        game.blind_says("Korrektur")
        WebDriverWait(driver, 10).until(
            lambda d: not d.find_element(By.ID, "pending").is_displayed()
        )
        assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-ply") == "0"


# -- the connection --------------------------------------------------------------------------


def test_a_lost_connection_covers_the_page_stops_its_clocks_and_it_comes_back_by_itself(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.blind_plays("e2e4")  # Black's clock (the page's own, at the bottom) runs
    wait_for_ply(driver, 1)
    game.stop_serving()
    overlay = driver.find_element(By.ID, "offline")
    WebDriverWait(driver, 10).until(lambda d: overlay.is_displayed())
    assert overlay.text.startswith("Verbindung unterbrochen.")
    assert "stehen die Uhren auf dieser Seite still" in overlay.text
    assert driver.execute_script("return document.querySelector('.layout').inert") is True
    before = driver.find_element(By.ID, "clock-bottom").get_attribute("data-ms")
    time.sleep(1.0)
    assert driver.find_element(By.ID, "clock-bottom").get_attribute("data-ms") == before
    game.serve_again()
    WebDriverWait(driver, 15).until(lambda d: not overlay.is_displayed())
    assert text_of(driver, "connection") == "Wieder verbunden."
    assert driver.execute_script("return document.querySelector('.layout').inert") is False
    square(driver, "e7").click()
    square(driver, "e5").click()
    wait_for_ply(driver, 2)


def test_a_board_opened_in_another_window_takes_over_and_the_old_one_says_so(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    open_board(driver, game)
    driver.switch_to.window(first)
    overlay = driver.find_element(By.ID, "offline")
    WebDriverWait(driver, 10).until(lambda d: overlay.is_displayed())
    assert overlay.text.startswith("Das Brett wurde in einem anderen Fenster geöffnet")
    time.sleep(1.0)  # it does not take the board back by itself
    assert overlay.is_displayed()


# -- refusals, check, castling, dragging -------------------------------------------------------


def test_in_check_the_refusal_names_the_check_and_the_next_move_clears_it(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    game.play_moves("e2e4", "f7f6", "d1h5")  # check along h5-e8
    wait_for_ply(driver, 3)
    assert "check" in classes(driver, "e8")
    assert square(driver, "e8").get_attribute("aria-label") == "e8, schwarzer König, im Schach"

    square(driver, "b8").click()
    square(driver, "c6").click()
    status = driver.find_element(By.ID, "status")
    assert status.text == "Ihr König steht im Schach: b8 nach c6 hebt das Schach nicht auf."
    assert "error" in (status.get_attribute("class") or "")

    square(driver, "g7").click()
    square(driver, "g6").click()
    wait_for_ply(driver, 4)
    assert status.text == "Zug g6 gesendet."  # in notation, and the error is gone
    assert "error" not in (status.get_attribute("class") or "")
    assert "check" not in classes(driver, "e8")


def test_a_pinned_piece_is_refused_because_the_king_would_stand_in_check(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    pinned = "4k3/4n3/8/8/8/8/8/4RK2 w - - 0 1"  # the black knight on e7 shields its king
    with live_game(settings, tmp_path, fen=pinned) as game:
        open_board(driver, game)
        game.blind_plays("f1g1")
        wait_for_ply(driver, 1)
        square(driver, "e7").click()
        square(driver, "c6").click()
        assert text_of(driver, "status") == (
            "Kein regelgemäßer Zug: Bei e7 nach c6 stünde Ihr König im Schach."
        )


CASTLING = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"


@pytest.fixture
def castling(settings: Settings, tmp_path: Path, driver: webdriver.Chrome) -> Iterator[LiveGame]:
    """Black (the sighted side) to move, free to castle on both sides, its board open."""
    with live_game(settings, tmp_path, fen=CASTLING) as game:
        open_board(driver, game)
        game.blind_plays("a2a3")
        wait_for_ply(driver, 1)
        yield game


def test_castling_by_dragging_the_king_onto_its_rook_and_the_dragged_piece_follows_the_pointer(
    driver: webdriver.Chrome, castling: LiveGame
) -> None:
    king, rook = square(driver, "e8"), square(driver, "h8")
    webdriver.ActionChains(driver).click_and_hold(king).move_to_element(rook).perform()
    ghost = driver.find_element(By.CSS_SELECTOR, ".drag-ghost")
    assert ghost.text == "\u265a\ufe0e"
    centre = ghost.rect["x"] + ghost.rect["width"] / 2
    assert abs(centre - (rook.rect["x"] + rook.rect["width"] / 2)) < rook.rect["width"] / 2
    webdriver.ActionChains(driver).release().perform()
    wait_for_ply(driver, 2)
    assert driver.find_elements(By.CSS_SELECTOR, ".drag-ghost") == []
    made = [o for o in castling.seen() if isinstance(o, MoveMade)]
    assert (made[-1].uci, made[-1].san) == ("e8g8", "O-O")


def test_castling_queen_side_by_clicking_the_king_then_its_rook(
    driver: webdriver.Chrome, castling: LiveGame
) -> None:
    square(driver, "e8").click()
    assert "target" in classes(driver, "a8")  # the rook's square is offered
    square(driver, "a8").click()
    wait_for_ply(driver, 2)
    assert text_of(driver, "status") == "Zug O-O-O gesendet."
    made = [o for o in castling.seen() if isinstance(o, MoveMade)]
    assert made[-1].uci == "e8c8"


# -- large text, language --------------------------------------------------------------------


def test_large_text_breaks_lines_between_words_never_inside_one(
    settings: Settings, tmp_path: Path, driver: webdriver.Chrome
) -> None:
    with live_game(override(settings, web={"large_text_moves": True}), tmp_path) as game:
        game.blind_says("Springer Gustav eins Felix drei")
        try:
            for width, height in ((390, 844), (1000, 700), (1100, 1400), (1280, 900)):
                driver.set_window_size(width, height)
                open_board(driver, game)
                wait_for_ply(driver, 1)
                large = driver.find_element(By.ID, "large-text")
                assert large.text.replace("\n", " ") == "Springer Felix drei (Nf3)"
                split = driver.execute_script(WORDS_ON_MORE_THAN_ONE_LINE, large)
                assert split == [], (width, split)
                assert driver.execute_script(
                    "return arguments[0].scrollWidth <= arguments[0].clientWidth", large
                )
        finally:
            driver.set_window_size(1280, 900)


WORDS_ON_MORE_THAN_ONE_LINE = """
const node = arguments[0].firstChild;
const split = [];
const text = node.textContent;
for (const match of text.matchAll(/\\S+/g)) {
  const range = document.createRange();
  range.setStart(node, match.index);
  range.setEnd(node, match.index + match[0].length);
  const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  if (tops.size > 1) split.push(match[0]);
}
return split;
"""


def test_the_opponent_chooses_the_page_language_on_the_page(
    driver: webdriver.Chrome, game: LiveGame
) -> None:
    open_board(driver, game)
    assert driver.title == "voice-chess: Ihr Brett"
    Select(driver.find_element(By.ID, "language")).select_by_value("en")
    WebDriverWait(driver, 10).until(lambda d: d.title == "voice-chess: your board")
    wait_connected(driver)
    assert "lang=en" in driver.current_url and "key=" in driver.current_url
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    game.blind_plays("e2e4")
    wait_for_ply(driver, 1)
    driver.find_element(By.ID, "resign").click()
    driver.find_element(By.ID, "resign-yes").click()
    banner = driver.find_element(By.ID, "banner")
    WebDriverWait(driver, 10).until(lambda d: banner.is_displayed())
    assert banner.text.startswith("Game over: 1-0.")  # the reason comes from the server
    Select(driver.find_element(By.ID, "language")).select_by_value("he")
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
    )


def test_the_command_line_sets_the_opponents_language(settings: Settings) -> None:
    args = build_parser().parse_args(["play", "--opponent-language", "fa"])
    assert with_options(args, settings).language.opponent == "fa"
    default = build_parser().parse_args(["play"])
    assert with_options(default, settings).language.opponent == settings.language.opponent


def test_the_opponent_choosing_english_on_the_page_hears_the_game_in_english(
    game: LiveGame,
) -> None:
    """The language chosen on the opponent's page (``?lang=en``) is what the game says to them
    from then on, not only the page's own texts; the choice is journaled for a resume."""
    game.play_moves("e2e4", "e7e5")
    address = f"{game.ws_base}/ws/play?key={game.secrets.opponent}&lang=en"
    with connect(address, open_timeout=5) as board:
        receive_until(board, "state")
        deadline = time.monotonic() + 10
        while game.call(lambda: game.session.opponent_language) != "en":
            assert time.monotonic() < deadline, "the page's choice never reached the game"
            time.sleep(0.05)
    game.play_moves("g1f3")
    said = game.blind_says("Remis")  # offered after the own move (9.1.2.1)
    to_opponent = [o.text for o in said if isinstance(o, Say) and o.to == "sighted"]
    assert to_opponent == ["White offers a draw."]
    assert '"opponent_language":"en"' in game.journal.path.read_text(encoding="utf-8")


def test_a_page_without_a_chosen_language_changes_nothing(game: LiveGame) -> None:
    with page_socket(game, "play", game.secrets.opponent) as board:
        receive_until(board, "state")
    assert "opponent_language" not in game.journal.path.read_text(encoding="utf-8")
    assert game.call(lambda: game.session.opponent_language) == "de"


def test_an_unknown_page_language_changes_nothing_in_the_game(
    settings: Settings, tmp_path: Path
) -> None:
    """``?lang=xx`` shows the page in its default language and leaves the game's alone (here a
    game whose opponent hears English while the page's default is German)."""
    with live_game(settings, tmp_path, extra={"opponent_language": "en"}) as running:
        address = f"{running.ws_base}/ws/play?key={running.secrets.opponent}&lang=xx"
        with connect(address, open_timeout=5) as board:
            receive_until(board, "state")
        assert running.call(lambda: running.session.opponent_language) == "en"
