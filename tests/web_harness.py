"""A real game for the web tests: session, host and uvicorn on a loop in a background thread.

Nothing is replaced: the session is the real one, the host journals to a real file, the server
listens on 127.0.0.1 with an ephemeral port.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chess
import pytest
from websockets.sync.client import ClientConnection, connect

from voice.config import Settings
from voice.rules.events import BlindSpeech, OutputEvent, Setup, SightedMove
from voice.web.background import BackgroundGame
from voice.web.server import WebServer
from voice.words.phrases import render_move


class LiveGame(BackgroundGame):
    """A served game that keeps every output in :meth:`seen` and speaks for the blind side."""

    def __init__(
        self, settings: Settings, setup: Setup, journal_path: Path, *, bind: str = "127.0.0.1"
    ) -> None:
        super().__init__(settings, setup, journal_path, bind=bind)
        self._outputs: list[OutputEvent] = []
        self._lock = threading.Lock()
        self.subscribe(self._keep)

    def _keep(self, batch: Sequence[OutputEvent]) -> None:
        with self._lock:
            self._outputs.extend(batch)

    def seen(self) -> list[OutputEvent]:
        with self._lock:
            return list(self._outputs)

    def blind_says(self, text: str) -> list[OutputEvent]:
        """The blind player's speech as the recogniser would hand it over (certain)."""
        return self.submit(lambda t: BlindSpeech(t, ((text, 1.0),)))

    def blind_plays(self, uci: str) -> list[OutputEvent]:
        """Say ``uci`` in Appendix D words, as the blind player would."""
        board = chess.Board(self.state_fen())
        return self.blind_says(render_move(board, chess.Move.from_uci(uci), self.session.vocab))

    def play_moves(self, *ucis: str) -> None:
        """Moves in turn: the blind side's said in Appendix D words, the sighted side's as its
        board sends them."""
        for uci in ucis:
            if chess.Board(self.state_fen()).turn == (self.setup.blind == "white"):
                self.blind_plays(uci)
            else:
                self.submit(lambda t, move=uci: SightedMove(t, move))

    def state_fen(self) -> str:
        return str(self.state()["fen"])

    def stop_serving(self) -> None:
        """The web server goes away (as when the network drops); the game and clocks go on."""
        self.run(self.server.stop())

    def serve_again(self) -> None:
        """A new server for the same game on the same port and keys: open pages reconnect."""
        self.server = WebServer(
            self.host,
            self.settings,
            self.secrets,
            port=self.server.port,
            journal_path=self.journal.path,
        )
        self.run(self.server.start())


@contextmanager
def live_game(
    settings: Settings, tmp: Path, *, bind: str = "127.0.0.1", **setup: Any
) -> Iterator[LiveGame]:
    """A started game (White blind, 15 minutes + 10 s unless ``setup`` says otherwise)."""
    values: dict[str, Any] = {"mode": "game", "blind": "white", "time_control": "900+10"}
    values.update(setup)
    game = LiveGame(settings, Setup(**values), tmp / "journal.jsonl", bind=bind)
    game.start()
    try:
        yield game
    finally:
        game.stop()


@pytest.fixture
def game(settings: Settings, tmp_path: Path) -> Iterator[LiveGame]:
    """A started game in its initial position (import this fixture into a test module)."""
    with live_game(settings, tmp_path) as running:
        yield running


# -- talking to a page's WebSocket as a page (or an attacker) would ----------------------------


def snapshot(game: LiveGame) -> tuple[dict[str, Any], bytes]:
    """The session's whole state and the journal's bytes: equal before and after means the
    game is unchanged."""
    return game.call(game.session.state), game.journal.path.read_bytes()


def page_socket(game: LiveGame, page: str, key: str | None, **options: Any) -> ClientConnection:
    query = "" if key is None else f"?key={key}"
    return connect(f"{game.ws_base}/ws/{page}{query}", open_timeout=5, **options)


def receive(ws: ClientConnection, timeout: float = 5) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def receive_until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while (message := receive(ws))["type"] != kind:
        pass
    return message
