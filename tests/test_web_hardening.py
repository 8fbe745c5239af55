"""What no message can do: cut a page off, reach the blind player's terminal, or change the game.

A real game on 127.0.0.1; pages are plain WebSocket clients. Each page's places are its role's
own (voice.web.hub.Slots): spectators cannot lock out the opponent or the arbiter.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from console import Console, socket_for
from web_harness import LiveGame, live_game, page_socket, receive, receive_until, snapshot
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from voice.config import Settings, override
from voice.web.hub import CLOSE_FULL, CLOSE_REPLACED, Slots
from voice.web.logs import web_log_path
from voice.web.protocol import MAX_DEPTH, MAX_MESSAGE_BYTES

# Each is answered with an error and changes nothing (the list of the issue: types, nesting,
# sizes, encodings); the flood comes after.
MALFORMED: list[str | bytes] = [
    '{"type": {}}',
    '{"type": []}',
    '{"type": 1}',
    '{"type": true}',
    '{"type": "move", "uci": {"e2": "e4"}, "ply": 1}',
    '{"type": "move", "uci": ["e7e5"], "ply": 1}',
    '{"type": "move", "uci": "e7e5", "ply": {"$gt": 0}}',
    '{"type": "move", "uci": "e7e5", "ply": 1e400}',
    '{"type": "move", "uci": "e7e5", "ply": NaN}',
    '{"type": "draw", "action": null}',
    "[" * 1000,
    "{" * 1000,
    '{"a":' * 500 + "1" + "}" * 500,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "[" * 100_000,
    json.dumps({"type": "move", "uci": "e7e5", "ply": 1, "pad": "€" * MAX_MESSAGE_BYTES}),
    "x" * (MAX_MESSAGE_BYTES + 1),
    b"\xff\xfe\xfd",
    b'{"type": "move", "uci": "e7e5", "ply": 1, "x": "\xc3\x28"}',
    '{"type": "call_arbiter", "x": "\\ud800"}',
    '{"type": "move", "uci": "e7e5", "ply": 1}\x00',
    "\ufeff{}",
    "",
    " ",
    "null",
    "true",
    '"sync"',
    "1e999999",
    '{"type": "sync"',
]


class Kept(logging.Handler):
    """Keeps what reaches the root logger: whatever gets there can end up on the terminal
    (Python's last-resort handler prints warnings to it when nothing else is set up)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def terminal() -> Iterator[Kept]:
    kept = Kept()
    logging.getLogger().addHandler(kept)
    try:
        yield kept
    finally:
        logging.getLogger().removeHandler(kept)


@pytest.fixture
def game(settings: Settings, tmp_path: Path) -> Iterator[LiveGame]:
    opened = override(settings, web={"open_spectators": True})
    with live_game(opened, tmp_path) as running:
        running.blind_plays("e2e4")  # Black (the sighted side) to move
        yield running


def still_answers(ws: ClientConnection, ply: int) -> None:
    ws.send(json.dumps({"type": "sync"}))
    assert receive_until(ws, "state")["view"]["ply"] == ply


def test_a_replay_of_malformed_messages_is_answered_and_every_page_stays_connected(
    game: LiveGame, terminal: Kept
) -> None:
    before = snapshot(game)
    with (
        page_socket(game, "play", game.secrets.opponent) as board,
        page_socket(game, "arbiter", game.secrets.arbiter) as arbiter,
        page_socket(game, "watch", None) as spectator,
    ):
        for ws in (board, arbiter, spectator):
            receive_until(ws, "state")
            for raw in MALFORMED:
                ws.send(raw)
                error = receive_until(ws, "error")
                assert error["code"] in ("malformed", "too_large", "not_allowed"), raw
                assert error["message"]
            still_answers(ws, 1)
        # A flood: dropped beyond the rate, answered once, the page kept.
        for _ in range(500):
            board.send('{"type": {}}')
        codes = []
        with contextlib.suppress(TimeoutError):
            while True:  # until a second passes without an answer (the bucket refills)
                codes.append(receive(board, timeout=1)["code"])
        assert codes.count("rate_limited") == 1
        assert snapshot(game) == before
        # The game goes on: the opponent's move is made and every page sees it.
        board.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
        for ws in (board, arbiter, spectator):
            assert receive_until(ws, "state")["view"]["ply"] == 2
    assert terminal.records == []  # nothing that could be printed at the blind player's side


def test_spectators_beyond_their_places_are_refused_politely_and_the_players_still_connect(
    game: LiveGame,
) -> None:
    places = Slots().spectator
    with contextlib.ExitStack() as pages:
        for _ in range(places):
            receive_until(pages.enter_context(page_socket(game, "watch", None)), "state")
        with page_socket(game, "watch", None) as one_too_many:
            refusal = receive(one_too_many)
            assert refusal["type"] == "error" and refusal["code"] == "full"
            assert refusal["message"].startswith("Alle Zuschauerplätze sind belegt.")
            with pytest.raises(ConnectionClosed):
                receive(one_too_many)
            assert one_too_many.close_code == CLOSE_FULL
        with (
            page_socket(game, "play", game.secrets.opponent) as board,
            page_socket(game, "arbiter", game.secrets.arbiter) as arbiter,
        ):
            receive_until(arbiter, "state")
            receive_until(board, "state")
            board.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
            assert receive_until(arbiter, "state")["view"]["ply"] == 2


def test_the_newest_opponent_page_takes_over_and_the_older_one_is_told(game: LiveGame) -> None:
    with page_socket(game, "play", game.secrets.opponent) as older:
        receive_until(older, "state")
        with page_socket(game, "play", game.secrets.opponent) as newer:
            receive_until(newer, "state")
            told = receive_until(older, "error")
            assert told["code"] == "replaced"
            assert told["message"].startswith("Das Brett wurde in einem anderen Fenster geöffnet")
            with pytest.raises(ConnectionClosed):
                receive(older)
            assert older.close_code == CLOSE_REPLACED
            newer.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
            assert receive_until(newer, "state")["view"]["ply"] == 2


def test_arbiter_panels_beyond_their_places_take_over_from_the_oldest(game: LiveGame) -> None:
    with contextlib.ExitStack() as pages:
        panels = [
            pages.enter_context(page_socket(game, "arbiter", game.secrets.arbiter))
            for _ in range(Slots().arbiter + 1)
        ]
        for panel in panels:
            receive_until(panel, "state")
        assert receive_until(panels[0], "error")["code"] == "replaced"
        with pytest.raises(ConnectionClosed):
            receive(panels[0])
        for panel in panels[1:]:
            still_answers(panel, 1)


def test_the_servers_own_warnings_go_to_the_log_file_not_the_terminal(
    game: LiveGame, terminal: Kept
) -> None:
    """uvicorn's "Invalid HTTP request" would otherwise be printed (and read out) at the blind
    player's terminal; it goes to web.log in the data folder."""
    with socket.create_connection(("127.0.0.1", game.server.port), timeout=5) as raw:
        raw.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
        with contextlib.suppress(OSError):
            raw.recv(1024)
    log = web_log_path()
    assert "Invalid HTTP request" in log.read_text(encoding="utf-8")
    assert terminal.records == []


def test_the_real_program_shows_nothing_of_a_hostile_page_at_the_blind_players_terminal(
    tmp_path: Path,
) -> None:
    """``voice-chess play`` as a blind player starts it: malformed messages, a flood and a
    request that is not HTTP reach its web board; the terminal (what the screen reader reads
    and the voice says) shows only the game, the game goes on, the log file has the rest."""
    con = Console(
        "play", "--text", "--no-speech", "--port", "0", "--journal", str(tmp_path / "g.jsonl")
    )
    try:
        con.expect("Das Brett des Gegners (auf seinem Telefon")
        url = con.next_line().strip()
        con.expect("Sie spielen Weiß")
        shown = len(con.lines)
        with socket_for(url) as board:
            receive_until(board, "state")
            for raw in MALFORMED:
                board.send(raw)
                assert receive_until(board, "error")["code"] in ("malformed", "too_large")
            for _ in range(300):
                board.send("[" * 1000)
            port = int(url.split(":")[2].split("/")[0])
            with socket.create_connection(("127.0.0.1", port), timeout=5) as raw_socket:
                raw_socket.sendall(b"\x16\x03\x01 not http\r\n\r\n")
                with contextlib.suppress(OSError):
                    raw_socket.recv(1024)
            con.type("Eva vier")
            while receive(board, timeout=30).get("view", {}).get("ply") != 1:
                pass
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    terminal = "\n".join(con.lines[shown:] + con.errors)
    for noise in ("Traceback", "Exception", "uvicorn", "Invalid HTTP", "WARNING", "ERROR"):
        assert noise not in terminal, terminal
    assert "Invalid HTTP request" in web_log_path().read_text(encoding="utf-8")
