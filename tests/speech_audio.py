"""Real synthesized speech for recogniser tests: espeak-ng → 16 kHz mono int16 (in tmp dirs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from voice.wavio import load_for_recognition

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="needs espeak-ng and sox",
)


def synthesize(text: str, folder: Path, voice: str = "de", rate: int = 150) -> np.ndarray:
    """``text`` spoken by espeak-ng, resampled by sox, as the recognisers take it."""
    raw = folder / "raw.wav"
    out = folder / "speech.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(raw), text], check=True)
    subprocess.run(
        ["sox", "-R", "-G", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(out)], check=True
    )
    return load_for_recognition(out)
