"""Real synthesized speech for recogniser tests: espeak-ng → 16 kHz mono int16 (made in tmp dirs,
kept on disk by :mod:`speech_cache` across runs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from speech_cache import cached_file, tool_version

from voice.speech.wavio import load_for_recognition

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="needs espeak-ng and sox",
)


def synthesize(text: str, folder: Path, voice: str = "de", rate: int = 150) -> np.ndarray:
    """``text`` spoken by espeak-ng, resampled by sox, as the recognisers take it (``folder`` holds
    the espeak-ng output when the cache does not have it yet)."""

    def make(out: Path) -> None:
        raw = folder / "raw.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(raw), text], check=True
        )
        subprocess.run(
            ["sox", "-R", "-G", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(out)],
            check=True,
        )

    versions = [tool_version("espeak-ng"), tool_version("sox")]
    return load_for_recognition(
        cached_file("synthesize", [*versions, voice, rate, text], ".wav", make)
    )
