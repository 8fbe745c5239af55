"""The talking clock answers a spoken request: "Züge" into the virtual microphone.

``voice-chess clock`` runs on a real pseudo-terminal (as in ``test_clock_pty.py``) with the
private PulseAudio daemon as its audio: the test presses keys on the terminal, says "Züge" into
``mic_feed`` and reads the answer from the terminal, as a player would hear it.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from pulse import PulseAudio, espeak
from test_clock_pty import Terminal, start


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    made: list[Terminal] = []
    yield made
    for terminal in made:
        terminal.close()


@pytest.mark.audio
@pytest.mark.slow
def test_a_spoken_moves_request_is_answered(terminals: list[Terminal], pulse: PulseAudio) -> None:
    term = start(terminals, "--control", "600", speech=False)
    term.expect("Gesprochene Anfragen: Spracherkennung")
    term.expect("H für Hilfe.")
    term.type(b" ")
    term.expect("Die Uhr läuft. Weiß ist am Zug.")
    pulse.play(np.concatenate([espeak("Züge", "de", 16000, 140), np.zeros(16000, np.int16)]), 16000)
    term.expect("Gespielt: null Züge.")
    term.type(b"qq")
    term.expect("Uhr beendet.")
    assert term.wait() == 0


def test_without_a_microphone_the_clock_says_it_takes_keys_only(
    terminals: list[Terminal], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PULSE_SERVER", "unix:/nonexistent/voice-chess-test")
    term = start(terminals, "--control", "600")
    term.expect("Kein Mikrofon gefunden: die Uhr hört nur auf Tasten.")
    term.expect("H für Hilfe.")
    term.type(b"qq")
    term.expect("Uhr beendet.")
    assert term.wait() == 0
