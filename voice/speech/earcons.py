"""Earcons: short sounds that tell a blind player what happened without words.

Each is made from a few sine tones with soft edges (no clicks), so nothing is shipped as a file
and the sound is exact at any sample rate. They are distinct in pitch direction and rhythm:

- ``listening``: two quick rising notes, "go ahead";
- ``not_understood``: two slower falling notes, "again, please";
- ``move_made``: one bright bell-like note that fades, "done".
"""

from __future__ import annotations

from functools import cache
from typing import Literal, get_args

import numpy as np

EarconName = Literal["listening", "not_understood", "move_made"]
EARCONS: tuple[str, ...] = get_args(EarconName)

_LEVEL = 0.35  # of full scale: clearly audible, below speech peaks
_EDGE = 0.005  # seconds of fade in and out


def _note(freq: float, seconds: float, rate: int, decay: float = 0.0) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    wave = np.sin(2 * np.pi * freq * t) + 0.25 * np.sin(4 * np.pi * freq * t)
    if decay:
        wave *= np.exp(-t / decay)
    edge = max(1, int(_EDGE * rate))
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, edge))
    wave[:edge] *= ramp
    wave[-edge:] *= ramp[::-1]
    return wave / 1.25


def _gap(seconds: float, rate: int) -> np.ndarray:
    return np.zeros(int(seconds * rate))


@cache
def _shape(name: str, rate: int) -> np.ndarray:
    if name == "listening":
        parts = [_note(660, 0.07, rate), _gap(0.03, rate), _note(990, 0.07, rate)]
    elif name == "not_understood":
        parts = [_note(440, 0.12, rate), _gap(0.05, rate), _note(330, 0.16, rate)]
    elif name == "move_made":
        parts = [_note(1320, 0.25, rate, decay=0.08)]
    else:
        raise ValueError(f"unknown earcon {name!r}; known: {', '.join(EARCONS)}")
    return np.concatenate(parts)


def earcon(name: str, rate: int, volume: float = 1.0) -> np.ndarray:
    """The earcon ``name`` as int16 mono samples at ``rate``."""
    samples = _shape(name, rate) * (_LEVEL * volume * 32767)
    return np.clip(np.round(samples), -32768, 32767).astype(np.int16)
