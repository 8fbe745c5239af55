"""The opponent's page in Arabic, in headless Chromium: right to left, with the board intact.

The page mirrors (text, buttons, clocks, move list) but the board keeps the geometry of the
board on the table: a1 at White's bottom left. Moves in the list stay left to right ("O-O",
never "O-O" turned around by the bidi algorithm), and the session's sentences show without
Arabic vowel marks. A screenshot is kept in ``test-artifacts/`` (not in git) for a look.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import chromium, square, wait_connected, wait_for_ply
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from web_harness import LiveGame, live_game

from voice.config import Settings, override

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
HARAKAT = "\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652"


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as browser:
        yield browser


def opened(driver: webdriver.Chrome, game: LiveGame) -> None:
    driver.get(game.url("opponent"))
    wait_connected(driver)


def play_opening(driver: webdriver.Chrome, game: LiveGame) -> None:
    """1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O: the page clicks White, the blind side (Black)
    speaks."""
    for ply, (sighted, blind) in enumerate(
        [("e2e4", "e7e5"), ("g1f3", "b8c6"), ("f1c4", "g8f6"), ("e1g1", None)]
    ):
        wait_for_ply(driver, 2 * ply)
        square(driver, sighted[:2]).click()
        square(driver, sighted[2:]).click()
        wait_for_ply(driver, 2 * ply + 1)
        if blind is not None:
            game.blind_plays(blind)
    wait_for_ply(driver, 7)


def rect(driver: webdriver.Chrome, element: Any) -> dict[str, float]:
    box: dict[str, float] = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {x: r.x, y: r.y, width: r.width, height: r.height};",
        element,
    )
    return box


def square_offsets(driver: webdriver.Chrome) -> dict[str, tuple[int, int]]:
    """Where a1, h1, a8 and h8 are drawn, measured from the board's top left corner."""
    board = rect(driver, driver.find_element(By.ID, "board"))
    offsets = {}
    for name in ("a1", "h1", "a8", "h8"):
        box = rect(driver, square(driver, name))
        offsets[name] = (round(box["x"] - board["x"]), round(box["y"] - board["y"]))
    return offsets


def computed(driver: webdriver.Chrome, css: str, prop: str) -> str:
    value: str = driver.execute_script(
        "return getComputedStyle(document.querySelector(arguments[0]))[arguments[1]];", css, prop
    )
    return value


def test_the_arabic_opponent_page_is_right_to_left_with_the_board_intact(
    driver: webdriver.Chrome, settings: Settings, tmp_path: Path
) -> None:
    german = override(settings, language={"opponent": "de"})
    with live_game(german, tmp_path / "de", blind="black") as game:
        opened(driver, game)
        assert driver.execute_script("return document.documentElement.dir") == "ltr"
        german_squares = square_offsets(driver)

    arabic = override(settings, language={"opponent": "ar"})
    with live_game(arabic, tmp_path / "ar", blind="black") as game:
        opened(driver, game)
        play_opening(driver, game)
        game.blind_plays("f8e7")
        wait_for_ply(driver, 8)
        game.blind_says("Remis")  # a draw offer: a sentence of the session on the page

        html = driver.find_element(By.TAG_NAME, "html")
        assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("ar", "rtl")
        assert driver.execute_script("return document.documentElement.dir") == "rtl"
        assert computed(driver, "h1", "direction") == "rtl"
        assert computed(driver, "#board", "direction") == "ltr"

        # The board, seen by White: the same squares in the same places as on the German
        # page, a1 at the bottom left, h8 at the top right.
        squares = square_offsets(driver)
        assert squares == german_squares
        assert squares["a1"][0] < squares["h1"][0] and squares["a1"][1] > squares["a8"][1]
        assert squares["h8"][0] > squares["a8"][0] and squares["h8"][1] < squares["h1"][1]

        # The rest mirrors: the clock's name at the right of its time, the first button at
        # the right of the second one.
        name = rect(driver, driver.find_element(By.CSS_SELECTOR, "#clock-bottom .clock-name"))
        time = rect(driver, driver.find_element(By.CSS_SELECTOR, "#clock-bottom .clock-time"))
        assert name["x"] > time["x"]
        buttons = driver.find_elements(By.CSS_SELECTOR, ".buttons button.action:not([hidden])")
        assert rect(driver, buttons[0])["x"] > rect(driver, buttons[1])["x"]

        # Moves read left to right inside the right-to-left list.
        halves = driver.find_elements(By.CSS_SELECTOR, "#moves .half[dir='ltr']")
        assert "O-O" in [half.text for half in halves]
        assert computed(driver, "#moves .half", "direction") == "ltr"
        assert computed(driver, "#moves", "direction") == "rtl"

        # The session's sentence (the blind player's draw offer) shows without vowel marks,
        # its Appendix D words, if any, isolated from the Arabic around them.
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, "notice").text.strip() != ""
        )
        notice = driver.find_element(By.ID, "notice").text
        assert any("\u0621" <= c <= "\u064a" for c in notice)
        assert not set(notice) & set(HARAKAT)
        title = driver.find_element(By.TAG_NAME, "h1").text
        assert title and not set(title) & set(HARAKAT)

        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "opponent-page-ar.png"
        assert driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
