"""Terminal bytes to key names: what a keyboard or a USB foot switch sends."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys

import pytest

from voice.config import ConfigError, Settings, override
from voice.keyboard import is_key_name, parse_keys


@pytest.mark.parametrize(
    ("data", "keys"),
    [
        (b" ", ["space"]),
        (b"\r", ["enter"]),
        (b"\n", ["enter"]),
        (b"tT", ["t", "t"]),  # Caps Lock or Shift does not change the binding
        (b"\x1b[6~", ["pagedown"]),  # a common foot-switch key
        (b"\x1b[5~\x1b[A", ["pageup", "up"]),
        (b"\x1bOP", ["f1"]),
        (b"\x1b[24~", ["f12"]),
        (b"\x1b", ["escape"]),
        (b"\x7f", ["backspace"]),
        (b"\x01", ["ctrl-a"]),
        ("ä".encode(), ["ä"]),
        (b"\x1b[99Zq", ["q"]),  # an unknown sequence is dropped whole
    ],
)
def test_bytes_become_key_names(data: bytes, keys: list[str]) -> None:
    assert parse_keys(data) == (keys, b"")


def test_incomplete_input_waits_for_the_rest() -> None:
    assert parse_keys(b"t\x1b[6") == (["t"], b"\x1b[6")
    assert parse_keys(b"\x1b[6" + b"~") == (["pagedown"], b"")
    assert parse_keys("ä".encode()[:1]) == ([], "ä".encode()[:1])


def test_bindable_names() -> None:
    assert is_key_name("space") and is_key_name("pagedown") and is_key_name("t")
    assert not is_key_name("T") and not is_key_name("tt") and not is_key_name(" ")


def test_settings_refuse_unknown_or_doubly_bound_keys(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="not a key name"):
        override(settings, clock={"keys": {"press": ["spacebar"]}})
    with pytest.raises(ConfigError, match="bound to both"):
        override(settings, clock={"keys": {"time": ["p"]}})
    foot = override(settings, clock={"keys": {"press": ["space", "enter", "pagedown"]}})
    assert foot.clock.keys.press == ["space", "enter", "pagedown"]


def test_settings_refuse_an_unreadable_time_control(settings: Settings) -> None:
    with pytest.raises(ConfigError, match="time_control"):
        override(settings, clock={"time_control": "fast"})


def _as_a_shell_starts_it() -> None:
    """In the child: no signal blocked and SIGINT handled (the test process may run in a
    thread that blocks signals, and a child inherits its mask)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_delivered_to_another_thread_still_ends_a_long_key_wait() -> None:
    """SIGINT may reach a thread of a native library instead of the one waiting for a key; the
    wait must still end within moments (it used to last until the clock's next event: the
    talking clock once ran on for minutes after Ctrl-C)."""
    code = (
        "import signal, threading, time\n"
        "from voice.keyboard import KeyReader\n"
        "other = threading.Thread(target=time.sleep, args=(60,), daemon=True)\n"
        "other.start()\n"
        "def later():\n"
        "    time.sleep(0.5)\n"
        "    signal.pthread_kill(other.ident, signal.SIGINT)\n"
        "threading.Thread(target=later, daemon=True).start()\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    with KeyReader(0) as reader:\n"
        "        reader.read_key(60)\n"
        "except KeyboardInterrupt:\n"
        "    print(f'interrupted after {time.monotonic() - started:.1f} s', flush=True)\n"
    )
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            stdin=slave,
            capture_output=True,
            text=True,
            timeout=50,
            check=False,
            preexec_fn=_as_a_shell_starts_it,
        )
    finally:
        os.close(master)
        os.close(slave)
    assert done.stdout.startswith("interrupted after"), done.stdout + done.stderr
    assert float(done.stdout.split()[2]) < 10
