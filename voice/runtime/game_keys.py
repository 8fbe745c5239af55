"""The terminal's keys during a game: read on a thread of their own, reported by name.

While the blind player speaks, the keyboard (or a foot switch, which is a keyboard) asks what a
command word asks ("t" for the time, "b" to report a touched piece), silences the speech, or
quits; the bindings are ``[session.keys]`` and the app maps names to actions. Only a real
terminal is read; the terminal is restored when reading stops.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from voice.keyboard import KeyReader

_POLL_S = 0.2  # how often the reader looks whether it should stop


class GameKeyInput:
    """Key names from a terminal file descriptor, delivered on the reader thread."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, deliver: Callable[[str], None], on_end: Callable[[], None]) -> None:
        def run() -> None:
            try:
                with KeyReader(self.fd) as reader:
                    while not self._closed.is_set():
                        key = reader.read_key(_POLL_S)
                        if key is not None:
                            deliver(key)
            except EOFError:
                on_end()
            except OSError:
                pass

        self._thread = threading.Thread(target=run, name="game-keys", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reading and give the terminal back its normal mode."""
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
