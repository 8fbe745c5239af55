"""The pages' texts come from the catalogues, and the start-up lines tell how to open them."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import get_args

import httpx
import pytest
from web_harness import live_game

from voice.config import Settings, override
from voice.web.protocol import ErrorCode
from voice.web.run import announce, qr_text
from voice.web.server import STATIC, direction, lan_address, render_page
from voice.words.messages import catalogue

PAGES = ("play.html", "arbiter.html", "watch.html")
LANGUAGES = ("de", "en")


def keys_the_pages_use() -> set[str]:
    """Every catalogue key named in a template or a script, with the ones built from parts."""
    keys: set[str] = set()
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\{\{t:([\w.-]+)\}\}", text))
        keys |= set(re.findall(r"[\"(]\s*(web\.[\w.-]+[\w-])\"", text))
    keys |= {f"web.piece.{c}.{p}" for c in ("white", "black") for p in "kqrbnp"}
    keys |= {f"web.side.{side}" for side in ("white", "black")}
    marks = ("last", "last-blind", "selected", "target", "check", "pending")
    keys |= {f"web.square.{mark}" for mark in marks}
    keys |= {f"web.error.{code}" for code in get_args(ErrorCode)}
    return keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_on_the_pages_is_in_the_catalogue(language: str) -> None:
    missing = keys_the_pages_use() - set(catalogue(language))
    assert not missing


@pytest.mark.parametrize("page", PAGES)
def test_a_rendered_page_has_its_language_and_no_placeholder_left(page: str) -> None:
    html = render_page(page, "en")
    assert '<html lang="en" dir="ltr">' in html
    assert "{{" not in html
    assert html.count('id="board"') == 1
    assert ('id="offer-draw"' in html) == (page == "play.html")


def test_the_arbiters_panel_opens_in_the_arbiters_language_when_one_is_set(
    settings: Settings, tmp_path: Path
) -> None:
    own = override(settings, language={"arbiter": "en"})
    with live_game(own, tmp_path) as game:
        assert '<html lang="en"' in httpx.get(game.url("arbiter")).text
        assert '<html lang="de"' in httpx.get(game.url("opponent")).text
        chosen = httpx.get(game.url("arbiter") + "&lang=fa").text  # the panel's chooser wins
        assert '<html lang="fa" dir="rtl"' in chosen
    with live_game(settings, tmp_path / "unset") as game:
        assert '<html lang="de"' in httpx.get(game.url("arbiter")).text


def test_right_to_left_languages_turn_the_page_around() -> None:
    assert [direction(language) for language in ("ar", "fa", "he", "de", "en")] == [
        "rtl",
        "rtl",
        "rtl",
        "ltr",
        "ltr",
    ]


def test_no_catalogue_text_can_end_the_script_block_it_travels_in() -> None:
    html = render_page("play.html", "de")
    data = html.split('<script type="application/json" id="i18n">')[1].split("</script>")[0]
    assert "<" not in data


def test_the_start_up_lines_give_each_page_its_own_address(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path) as game:
        out = io.StringIO()
        announce(game.server, settings, qr=True, out=out)
    lines = out.getvalue().splitlines()
    port = game.server.port
    assert f"http://127.0.0.1:{port}/play?key={game.secrets.opponent}" in lines
    assert f"http://127.0.0.1:{port}/arbiter?key={game.secrets.arbiter}" in lines
    assert f"http://127.0.0.1:{port}/watch?key={game.secrets.spectator}" in lines
    assert f"http://127.0.0.1:{port}/live.pgn?key={game.secrets.spectator}" in lines
    assert qr_text(game.url("opponent")) in out.getvalue()


def test_the_qr_code_is_drawn_with_blocks() -> None:
    drawing = qr_text("http://192.168.1.20:8765/play?key=abc").splitlines()
    assert len(drawing) > 10 and all(len(row) == len(drawing[0]) for row in drawing)
    assert set("".join(drawing)) <= {" ", "\xa0", "█", "▀", "▄"}


def test_on_the_local_network_the_pages_are_served_at_the_computers_address(
    settings: Settings, tmp_path: Path
) -> None:
    address = lan_address()
    with live_game(settings, tmp_path, bind=address) as game:
        url = game.url("opponent")
        assert url.startswith(f"http://{address}:{game.server.port}/play?key=")
        assert httpx.get(url).status_code == 200
        assert httpx.get(url.replace("/play?", "/arbiter?")).status_code == 403
