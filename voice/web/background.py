"""A game served from a thread of its own: session, host, journal and server on one loop.

For callers that are not asyncio code themselves (the latency bench, Selenium tests): they
reach the loop through :meth:`BackgroundGame.call` and :meth:`BackgroundGame.submit`, and the
session is only ever touched on the loop's thread, as in the program.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from voice.config import Settings
from voice.game.session import GameSession
from voice.rules.events import InputEvent, OutputEvent, Setup
from voice.runtime.host import GameHost, Subscriber
from voice.runtime.journal import Journal
from voice.web.pairing import Role, Secrets
from voice.web.server import WebServer

T = TypeVar("T")
TIMEOUT = 30.0


class BackgroundGame:
    """One game on ``bind`` (127.0.0.1) with an ephemeral port, journaled to ``journal_path``."""

    def __init__(
        self, settings: Settings, setup: Setup, journal_path: Path, *, bind: str = "127.0.0.1"
    ) -> None:
        self.settings = settings
        self.setup = setup
        self.journal = Journal.create(journal_path, setup)
        self.session = GameSession(setup, settings)
        self.host = GameHost(self.session, record=self.journal.append)
        self.secrets = Secrets.generate(open_spectators=settings.web.open_spectators)
        self.server = WebServer(
            self.host, settings, self.secrets, bind=bind, journal_path=journal_path
        )
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        """Receive every output batch from the start (call before :meth:`start`)."""
        self._subscribers.append(subscriber)

    def start(self) -> None:
        self._thread.start()

        async def begin() -> None:
            for subscriber in self._subscribers:
                self.host.subscribe(subscriber)
            self.host.start()
            await self.server.start()

        self.run(begin())

    def stop(self) -> None:
        self.run(self.server.stop())
        self.call(self.host.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self.journal.close()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(TIMEOUT)

    def call(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the game's loop (the session is not thread-safe)."""
        future: Future[T] = Future()

        def run() -> None:
            try:
                future.set_result(function())
            except BaseException as error:  # handed back to the caller
                future.set_exception(error)

        self.loop.call_soon_threadsafe(run)
        return future.result(TIMEOUT)

    def submit(self, make: Callable[[int], InputEvent]) -> list[OutputEvent]:
        """Stamp, journal and handle one input, as an adapter of the program would."""
        return self.host.submit_threadsafe(make, self.loop).result(TIMEOUT)

    def state(self) -> dict[str, Any]:
        return self.call(self.session.state)

    def url(self, role: Role) -> str:
        return self.server.url(role)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}"
