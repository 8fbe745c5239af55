"""Who may open what, and what a hostile or broken page can do: nothing to the game.

Each test runs a real game on 127.0.0.1 and talks to it with plain HTTP and WebSocket clients.
"The game is unchanged" means the session's whole snapshot and the journal's bytes are equal
before and after.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_harness import LiveGame, live_game, page_socket, receive, receive_until, snapshot
from websockets.exceptions import ConnectionClosed, InvalidStatus

from voice.config import Settings, override
from voice.rules.events import MoveMade
from voice.web.protocol import MAX_MESSAGE_BYTES, RATE_BURST, WS_MAX_BYTES


@pytest.fixture
def game(settings: Settings, tmp_path: Path) -> Iterator[LiveGame]:
    with live_game(settings, tmp_path) as running:
        running.blind_plays("e2e4")  # Black (the sighted side) to move
        yield running


def assert_refused_handshake(game: LiveGame, page: str, key: str | None, **options: Any) -> None:
    with pytest.raises(InvalidStatus) as refused:
        page_socket(game, page, key, **options)
    assert refused.value.response.status_code == 403


# -- secrets --------------------------------------------------------------------------------


def test_pages_and_downloads_without_a_secret_get_403(game: LiveGame) -> None:
    for path in ("/play", "/arbiter", "/watch", "/download/pgn", "/download/journal"):
        response = httpx.get(game.base + path)
        assert response.status_code == 403, path
        assert "Schlüssel" in response.text  # the page says what to do, in the page language


def test_a_wrong_secret_gets_403_and_no_websocket(game: LiveGame) -> None:
    right = game.secrets.opponent
    wrong = ("y" if right[0] == "x" else "x") + right[1:]  # one character off
    assert httpx.get(f"{game.base}/play?key={wrong}").status_code == 403
    for page in ("play", "arbiter", "watch"):
        assert_refused_handshake(game, page, None)
        assert_refused_handshake(game, page, wrong)


def test_the_opponents_secret_opens_no_arbiter_page_socket_or_download(game: LiveGame) -> None:
    key = game.secrets.opponent
    assert httpx.get(f"{game.base}/play?key={key}").status_code == 200
    assert httpx.get(f"{game.base}/arbiter?key={key}").status_code == 403
    assert httpx.get(f"{game.base}/download/pgn?key={key}").status_code == 403
    assert httpx.get(f"{game.base}/download/journal?key={key}").status_code == 403
    assert_refused_handshake(game, "arbiter", key)


def test_the_opponents_page_cannot_send_arbiter_actions_or_speak_for_the_blind_player(
    game: LiveGame,
) -> None:
    before = snapshot(game)
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        for message in (
            {"type": "add_time", "side": "black", "seconds": 600},
            {"type": "declare_result", "result": "0-1"},
            {"type": "retract", "ply": 0},
            {"type": "blind", "text": "Dame Hector fünf"},
            {"type": "key", "key": "resign"},
        ):
            ws.send(json.dumps(message))
            error = receive_until(ws, "error")
            assert error["code"] in ("not_allowed", "malformed"), message
    assert snapshot(game) == before


def test_a_websocket_opened_from_another_site_is_refused(game: LiveGame) -> None:
    assert_refused_handshake(
        game,
        "play",
        game.secrets.opponent,
        origin="http://evil.example",
    )
    with page_socket(
        game,
        "play",
        game.secrets.opponent,
        origin=game.base,
    ) as ws:
        assert receive(ws)["type"] == "state"


def test_a_foreign_host_name_is_refused(game: LiveGame) -> None:
    """DNS rebinding: a site that resolves its own name to 127.0.0.1 gets nothing."""
    response = httpx.get(
        f"{game.base}/play?key={game.secrets.opponent}", headers={"Host": "evil.example"}
    )
    assert response.status_code == 400


def test_the_arbiters_secret_opens_the_panel_and_the_downloads(game: LiveGame) -> None:
    key = game.secrets.arbiter
    assert httpx.get(f"{game.base}/arbiter?key={key}").status_code == 200
    pgn = httpx.get(f"{game.base}/download/pgn?key={key}")
    assert pgn.status_code == 200 and "1. e4" in pgn.text
    journal = httpx.get(f"{game.base}/download/journal?key={key}")
    assert journal.content == game.journal.path.read_bytes()


def test_spectators_need_a_secret_unless_the_settings_open_the_view(
    settings: Settings, tmp_path: Path, game: LiveGame
) -> None:
    assert httpx.get(f"{game.base}/watch?key={game.secrets.spectator}").status_code == 200
    assert httpx.get(f"{game.base}/watch?key={game.secrets.opponent}").status_code == 403
    opened = override(settings, web={"open_spectators": True})
    with live_game(opened, tmp_path / "open") as open_game:
        assert open_game.url("spectator").endswith("/watch")
        assert httpx.get(open_game.url("spectator")).status_code == 200
        before = snapshot(open_game)
        with page_socket(open_game, "watch", None) as ws:
            view = receive(ws)["view"]
            assert view["role"] == "spectator" and "legal" not in view and "log" not in view
            ws.send(json.dumps({"type": "move", "uci": "e2e4", "ply": 0}))
            assert receive_until(ws, "error")["code"] == "not_allowed"
        assert snapshot(open_game) == before


# -- malformed, oversized, out of turn, flood ----------------------------------------------


def test_malformed_messages_get_an_error_and_change_nothing(game: LiveGame) -> None:
    before = snapshot(game)
    bad: list[str | bytes] = [
        "not json",
        "[1, 2]",
        "null",
        json.dumps({"no": "type"}),
        json.dumps({"type": "fly"}),
        json.dumps({"type": "move", "uci": "e7e5"}),
        json.dumps({"type": "move", "uci": "e7e5", "ply": "1"}),
        json.dumps({"type": "move", "uci": "E7-E5", "ply": 1}),
        json.dumps({"type": "move", "uci": "e7e5", "ply": 1, "extra": True}),
        json.dumps({"type": "draw", "action": "maybe"}),
        json.dumps({"type": "resign"}),
        json.dumps({"type": "resign", "confirmed": "yes"}),
        b"\xff\xfe binary",
    ]
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        for raw in bad:
            ws.send(raw)
            error = receive_until(ws, "error")
            assert error["code"] == "malformed", raw
            assert error["message"]
    assert snapshot(game) == before


def test_out_of_turn_and_stale_moves_get_an_error_and_change_nothing(game: LiveGame) -> None:
    before = snapshot(game)
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        ws.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 0}))  # drawn for ply 0
        assert receive_until(ws, "error")["code"] == "stale"
        ws.send(json.dumps({"type": "draw", "action": "accept"}))  # nothing was offered
        assert receive_until(ws, "error")["code"] == "no_offer"
        # A claim with the intended move is meant for the position shown, as a move is.
        claim = {"type": "draw", "action": "claim", "uci": "e7e5"}
        ws.send(json.dumps({**claim, "ply": 0}))
        assert receive_until(ws, "error")["code"] == "stale"
        ws.send(json.dumps(claim))  # no position named at all
        assert receive_until(ws, "error")["code"] == "stale"
    assert snapshot(game) == before
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        ws.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
        assert receive_until(ws, "state")["view"]["ply"] == 2
        ws.send(json.dumps({"type": "move", "uci": "d7d5", "ply": 2}))  # White is to move
        assert receive_until(ws, "error")["code"] == "not_your_turn"


def test_an_oversized_message_gets_an_error_and_a_huge_frame_closes_only_that_page(
    game: LiveGame,
) -> None:
    before = snapshot(game)
    padding = "x" * MAX_MESSAGE_BYTES
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        ws.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1, "pad": padding}))
        assert receive_until(ws, "error")["code"] == "too_large"
        ws.send("[" * 100_000)  # 100 kB of nesting: answered, and the page stays
        assert receive_until(ws, "error")["code"] == "too_large"
        ws.send(json.dumps({"type": "sync"}))
        assert receive_until(ws, "state")["view"]["ply"] == 1
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        ws.send("y" * (WS_MAX_BYTES * 4))
        with pytest.raises(ConnectionClosed):
            while True:
                receive(ws)
    assert snapshot(game) == before
    with page_socket(game, "play", game.secrets.opponent) as ws:  # the server is still up
        assert receive(ws)["view"]["ply"] == 1


def test_a_flood_is_throttled_answered_once_and_the_page_stays_connected(
    game: LiveGame,
) -> None:
    """A stuck page repeating itself must not lose the sighted player's board: what is over the
    rate is dropped, told once, and the page's next message after a pause is handled."""
    before = snapshot(game)
    stale = json.dumps({"type": "move", "uci": "e7e5", "ply": 0})
    codes: list[str] = []
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        for _ in range(1000):
            ws.send(stale)
        with contextlib.suppress(TimeoutError):
            while True:
                codes.append(receive(ws, timeout=1).get("code", ""))
        assert codes.count("rate_limited") == 1  # told once, not once per dropped message
        assert RATE_BURST <= codes.count("stale") < RATE_BURST + 20
        assert snapshot(game) == before
        ws.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
        assert receive_until(ws, "state")["view"]["ply"] == 2


# -- reconnecting ---------------------------------------------------------------------------


def test_a_dropped_page_does_not_stop_the_game_and_a_reconnecting_page_gets_everything(
    game: LiveGame,
) -> None:
    with page_socket(game, "play", game.secrets.opponent) as ws:
        receive_until(ws, "state")
        ws.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
        receive_until(ws, "state")
    # The page is gone; the blind player plays on and the clocks keep running.
    outputs = game.blind_plays("g1f3")
    assert any(isinstance(o, MoveMade) and o.uci == "g1f3" for o in outputs)
    with page_socket(game, "play", game.secrets.opponent) as ws:
        view = receive(ws)["view"]
    assert [m["san"] for m in view["moves"]] == ["e4", "e5", "Nf3"]
    assert view["last_blind"]["spoken"] == "Springer Felix drei"
    assert view["turn"] == "black" and "b8c6" in view["legal"]
    assert view["clock"]["running"] == "black"
