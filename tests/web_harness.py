"""A real game for the web tests: session, host and uvicorn on a loop in a background thread.

Nothing is replaced: the session is the real one, the host journals to a real file, the server
listens on 127.0.0.1 with an ephemeral port. Tests (synchronous, like Selenium) reach the loop
through :meth:`LiveGame.call` and :meth:`LiveGame.submit`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import chess

from voice.config import Settings
from voice.events import BlindSpeech, InputEvent, OutputEvent, Setup
from voice.host import GameHost
from voice.journal import Journal
from voice.phrases import render_move
from voice.session import GameSession
from voice.vocabulary import Vocabulary
from voice.web.pairing import Role, Secrets
from voice.web.server import WebServer

T = TypeVar("T")


class LiveGame:
    """One game served on 127.0.0.1; every output batch is kept in :attr:`outputs`."""

    def __init__(self, settings: Settings, setup: Setup, journal_path: Path) -> None:
        self.settings = settings
        self.setup = setup
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.journal = Journal.create(journal_path, setup)
        self.session = GameSession(setup, settings)
        self.host = GameHost(self.session, record=self.journal.append)
        self.secrets = Secrets.generate(open_spectators=settings.web.open_spectators)
        self.server = WebServer(
            self.host, settings, self.secrets, port=0, journal_path=journal_path
        )
        self.outputs: list[OutputEvent] = []
        self._lock = threading.Lock()
        self.vocab = Vocabulary.from_settings(settings.vocabulary)

    def _keep(self, batch: Sequence[OutputEvent]) -> None:
        with self._lock:
            self.outputs.extend(batch)

    def start(self) -> None:
        self.thread.start()

        async def begin() -> None:
            self.host.subscribe(self._keep)
            self.host.start()
            await self.server.start()

        self.run(begin())

    def stop(self) -> None:
        self.run(self.server.stop())
        self.call(self.host.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.journal.close()

    def run(self, coroutine: Any, timeout: float = 10) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def call(self, function: Callable[[], T], timeout: float = 10) -> T:
        """Run ``function`` on the game's loop (the session is not thread-safe)."""
        future: Future[T] = Future()

        def run() -> None:
            try:
                future.set_result(function())
            except BaseException as error:  # handed back to the test
                future.set_exception(error)

        self.loop.call_soon_threadsafe(run)
        return future.result(timeout)

    def submit(self, make: Callable[[int], InputEvent]) -> list[OutputEvent]:
        return self.host.submit_threadsafe(make, self.loop).result(10)

    def blind_says(self, text: str) -> list[OutputEvent]:
        """The blind player's speech as the recogniser would hand it over (certain)."""
        return self.submit(lambda t: BlindSpeech(t, ((text, 1.0),)))

    def blind_plays(self, uci: str) -> list[OutputEvent]:
        """Say ``uci`` in Appendix D words, as the blind player would."""
        board = chess.Board(self.state_fen())
        return self.blind_says(render_move(board, chess.Move.from_uci(uci), self.vocab))

    def state_fen(self) -> str:
        return str(self.call(lambda: self.session.state()["fen"]))

    def seen(self) -> list[OutputEvent]:
        with self._lock:
            return list(self.outputs)

    def url(self, role: Role) -> str:
        return self.server.url(role)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}"


@contextmanager
def live_game(settings: Settings, tmp: Path, **setup: Any) -> Iterator[LiveGame]:
    """A started game (White blind, 15 minutes + 10 s unless ``setup`` says otherwise)."""
    values: dict[str, Any] = {"mode": "game", "blind": "white", "time_control": "900+10"}
    values.update(setup)
    game = LiveGame(settings, Setup(**values), tmp / "journal.jsonl")
    game.start()
    try:
        yield game
    finally:
        game.stop()
