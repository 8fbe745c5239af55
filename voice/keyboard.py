"""Keys from a terminal, one at a time, by name: the talking clock's buttons and a foot switch.

A USB foot switch is a keyboard that sends one key (often Enter, Space, a letter or Page Down),
so every key is reported by a stable name that the settings can bind: a single character in
lower case ("t", "ä", "1"; Caps Lock does not change the binding) or one of :data:`NAMED_KEYS`.
Decoding bytes into key names is pure (:func:`parse_keys`); :class:`KeyReader` only switches the
terminal to cbreak mode (no echo, no line buffering, Ctrl-C still works) and restores it.
"""

from __future__ import annotations

import os
import select
import time
from types import TracebackType
from typing import Any

_SIGNAL_SLICE_S = 0.2
"""The longest a key wait lasts before Python may handle a signal that reached another thread."""

_ESCAPES: dict[bytes, str] = {
    b"\x1b[A": "up",
    b"\x1b[B": "down",
    b"\x1b[C": "right",
    b"\x1b[D": "left",
    b"\x1b[H": "home",
    b"\x1b[F": "end",
    b"\x1bOH": "home",
    b"\x1bOF": "end",
    b"\x1b[1~": "home",
    b"\x1b[4~": "end",
    b"\x1b[2~": "insert",
    b"\x1b[3~": "delete",
    b"\x1b[5~": "pageup",
    b"\x1b[6~": "pagedown",
    b"\x1bOP": "f1",
    b"\x1bOQ": "f2",
    b"\x1bOR": "f3",
    b"\x1bOS": "f4",
    b"\x1b[15~": "f5",
    b"\x1b[17~": "f6",
    b"\x1b[18~": "f7",
    b"\x1b[19~": "f8",
    b"\x1b[20~": "f9",
    b"\x1b[21~": "f10",
    b"\x1b[23~": "f11",
    b"\x1b[24~": "f12",
}
_CONTROLS: dict[int, str] = {
    0x20: "space",
    0x0A: "enter",
    0x0D: "enter",
    0x09: "tab",
    0x7F: "backspace",
    0x08: "backspace",
}

NAMED_KEYS: frozenset[str] = (
    frozenset(_ESCAPES.values()) | frozenset(_CONTROLS.values()) | {"escape"}
)


def is_key_name(name: str) -> bool:
    """Whether ``name`` can be bound: a named key or one printable character (lower case)."""
    if name in NAMED_KEYS:
        return True
    return len(name) == 1 and name.isprintable() and not name.isspace() and name == name.lower()


def _utf8_length(lead: int) -> int:
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1


def parse_keys(buffer: bytes) -> tuple[list[str], bytes]:
    """Split terminal input into key names; return them and the incomplete tail to keep.

    An escape sequence that is not known is dropped whole; a lone ESC is the Escape key.
    """
    keys: list[str] = []
    i = 0
    while i < len(buffer):
        byte = buffer[i]
        if byte == 0x1B:
            rest = buffer[i:]
            match = next((seq for seq in _ESCAPES if rest.startswith(seq)), None)
            if match is not None:
                keys.append(_ESCAPES[match])
                i += len(match)
                continue
            if len(rest) == 1:
                keys.append("escape")
                i += 1
                continue
            if any(seq.startswith(rest) for seq in _ESCAPES):
                break  # the rest of the sequence has not arrived yet
            # Unknown sequence: skip to its final byte (a letter or '~').
            end = i + 2
            while end < len(buffer) and not (chr(buffer[end]).isalpha() or buffer[end] == 0x7E):
                end += 1
            i = end + 1
            continue
        if byte in _CONTROLS:
            keys.append(_CONTROLS[byte])
            i += 1
            continue
        if byte < 0x20:
            keys.append(f"ctrl-{chr(byte + 0x60)}")
            i += 1
            continue
        length = _utf8_length(byte)
        if i + length > len(buffer):
            break
        keys.append(buffer[i : i + length].decode("utf-8", errors="replace").lower())
        i += length
    return keys, buffer[i:]


def keys_typed(line: str) -> list[str] | None:
    """The keys of a typed line made only of a terminal's escape sequences (arrow keys, Home,
    … pressed where the terminal reads whole lines, and sent with Enter: without a microphone
    the game reads typed lines); None for any other line. The arrows were read as the text
    "[A" and answered "Nicht verstanden"."""
    text = line.rstrip("\r\n")
    if not text.startswith("\x1b"):
        return None
    keys, tail = parse_keys(text.encode("utf-8", errors="replace"))
    escapes = set(_ESCAPES.values())
    if tail or not keys or not all(key in escapes for key in keys):
        return None
    return keys


class KeyReader:
    """Read key names from a terminal file descriptor in cbreak mode (a context manager)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._saved: list[Any] | None = None
        self._pending: list[str] = []
        self._tail = b""

    def __enter__(self) -> KeyReader:
        import termios
        import tty

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        import termios

        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read_key(self, timeout_s: float | None) -> str | None:
        """The next key, or ``None`` when ``timeout_s`` passed first; EOFError when input ends.

        The wait is cut into slices of :data:`_SIGNAL_SLICE_S`: Ctrl-C's SIGINT may be delivered
        to a thread of a native library (PortAudio, CTranslate2) rather than to this one, and
        then interrupts nothing here; Python runs its handler (KeyboardInterrupt) at the end of
        the slice. Waiting in one piece, that would be the clock's next event, minutes away.
        """
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while not self._pending:
            wait = _SIGNAL_SLICE_S
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - time.monotonic()))
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                continue
            data = os.read(self.fd, 64)
            if not data:
                raise EOFError("the terminal closed")
            keys, self._tail = parse_keys(self._tail + data)
            self._pending.extend(keys)
        return self._pending.pop(0)
