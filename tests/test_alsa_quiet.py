"""ALSA's own messages stay off the player's terminal (a screen reader reads them out)."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys

import pytest

PROBE = """
import ctypes
{before}
alsa = ctypes.CDLL("libasound.so.2")
pcm = ctypes.c_void_p()
alsa.snd_pcm_open(ctypes.byref(pcm), b"no_such_device", 0, 0)
"""


@pytest.mark.skipif(ctypes.util.find_library("asound") is None, reason="no libasound")
def test_alsa_error_messages_do_not_reach_the_terminal() -> None:
    def stderr(before: str) -> str:
        code = PROBE.format(before=before)
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        return run.stderr

    assert "ALSA lib" in stderr("")  # what a player's terminal showed ("underrun occurred")
    assert stderr("from voice.speech.audio import _sounddevice; _sounddevice()") == ""
