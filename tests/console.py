"""A ``voice-chess`` command run as a user runs it, with its terminal lines read as they come.

The child's standard input and output are pipes (or, for the keys, a pty); the test writes what
a player types and waits for what the program prints. Waiting has a generous deadline, but
nothing asserts how long anything took.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import chess
from websockets.sync.client import ClientConnection, connect

from voice.game.session import GameSession
from voice.runtime.journal import read_journal

DEADLINE_S = 60.0


class Console:
    """One running ``python -m voice ARGS`` with line-wise input and output."""

    def __init__(
        self,
        *args: str,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        no_audio: bool = False,
    ):
        """``no_audio``: the child sees no sound server, as on a machine without audio devices."""
        environment = {**os.environ, **(env or {})}
        if no_audio:
            for name in ("PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE"):
                environment.pop(name, None)
            environment["PULSE_SERVER"] = "unix:/nonexistent/voice-chess-test"
        self.lines: list[str] = []
        self._unread: queue.Queue[str | None] = queue.Queue()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=environment,
            cwd=cwd,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.errors: list[str] = []  # standard error (audio library noise, tracebacks)
        self._error_reader = threading.Thread(target=self._read_errors, daemon=True)
        self._error_reader.start()

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors.append(line.rstrip("\n"))

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._unread.put(line.rstrip("\n"))
        self._unread.put(None)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def end_input(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def expect(self, text: str) -> str:
        """The next printed line containing ``text`` (lines before it are kept in ``lines``)."""
        while True:
            try:
                line = self._unread.get(timeout=DEADLINE_S)
            except queue.Empty:
                raise AssertionError(self._report(f"never printed: {text!r}")) from None
            if line is None:
                raise AssertionError(self._report(f"ended before printing {text!r}"))
            self.lines.append(line)
            if text in line:
                return line

    def next_line(self) -> str:
        """The next printed line, whatever it says."""
        line = self._unread.get(timeout=DEADLINE_S)
        if line is None:
            raise AssertionError(self._report("ended while a line was expected"))
        self.lines.append(line)
        return line

    def wait(self) -> int:
        code = self.process.wait(timeout=DEADLINE_S)
        self._reader.join(timeout=5)
        while True:
            try:
                line = self._unread.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.lines.append(line)
        return code

    def output(self) -> str:
        return "\n".join(self.lines)

    def _report(self, what: str) -> str:
        return (
            f"{what}\n--- printed so far ---\n"
            + "\n".join(self.lines)
            + "\n--- standard error ---\n"
            + "\n".join(self.errors[-40:])
        )

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def run_command(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m voice ARGS`` run to its end: its exit status and what it printed."""
    return subprocess.run(
        [sys.executable, "-m", "voice", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def journal_board(path: Path, settings: object) -> chess.Board:
    """The position the journal at ``path`` leads to (replayed by the real session)."""
    contents = read_journal(path)
    session = GameSession.replay(contents.setup, contents.events, settings)  # type: ignore[arg-type]
    return session.board


def socket_for(url: str) -> ClientConnection:
    """The WebSocket of the page at ``url`` (the address the program printed)."""
    parts = urlsplit(url)
    return connect(f"ws://{parts.netloc}/ws{parts.path}?{parts.query}", open_timeout=10)


def state_where(ws: ClientConnection, check: Any) -> dict[str, Any]:
    """The first state message whose view passes ``check``."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and check(message["view"]):
            return dict(message["view"])


class PtyConsole:
    """``python -m voice ARGS`` on a pseudo-terminal: keys typed one by one, output read back."""

    def __init__(self, *args: str) -> None:
        import fcntl
        import pty
        import termios

        self.master, self.slave = pty.openpty()
        self.seen = ""

        def controlling_terminal() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice", *args],
            stdin=self.slave,
            stdout=self.slave,
            stderr=subprocess.DEVNULL,
            preexec_fn=controlling_terminal,
            close_fds=True,
        )

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def expect(self, text: str) -> str:
        """Read until ``text`` has been printed (after what earlier expectations consumed)."""
        import select

        waited = 0.0
        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    self.seen += os.read(self.master, 4096).decode("utf-8", errors="replace")
                except OSError:
                    break
            else:
                waited += 0.5
                if waited > DEADLINE_S or self.process.poll() is not None:
                    break
        if text not in self.seen:
            raise AssertionError(f"never printed: {text!r}\n--- so far ---\n{self.seen}")
        end = self.seen.index(text) + len(text)
        consumed, self.seen = self.seen[:end], self.seen[end:]
        return consumed

    def wait(self) -> int:
        return self.process.wait(timeout=DEADLINE_S)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)
