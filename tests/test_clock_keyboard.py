"""Terminal bytes to key names: what a keyboard or a USB foot switch sends."""

from __future__ import annotations

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
