"""Real audio devices for tests: a private PulseAudio daemon with virtual sinks and sources
(the daemon itself: ``benchmarks/virtual_audio.py``, shared with the latency benchmark).

The recipe is the one in ``docs/speech.md``: the program plays on the null sink
``speaker`` (tests record ``speaker.monitor``), tests play into the null sink ``mic_feed`` and the
program records the default source ``vmic`` (a remap of ``mic_feed.monitor``). The two loopback
"anchors" keep the null sinks running in small blocks; without them capture starts late.

Use the session-scoped fixture ``pulse`` (registered in ``conftest.py``)::

    def test_something(pulse: PulseAudio) -> None:
        with pulse.record("speaker.monitor") as rec:
            ...                                   # the program speaks
        audio = rec.audio                         # int16 mono at rec.rate
        pulse.play(samples, rate)                 # into the virtual microphone

Times are ``time.monotonic()`` seconds, estimated from PortAudio's ADC/DAC timestamps, so a test
can relate what it heard to when the program said it started or stopped.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from speech_cache import cached_file, tool_version

from benchmarks.virtual_audio import PulseAudio, Recording

__all__ = [
    "PulseAudio",
    "Recording",
    "espeak",
    "noise",
    "pulse",
    "similarity",
    "similarity_in_parts",
]


def espeak(text: str, voice: str = "de", rate: int = 16000, speed: int = 150) -> np.ndarray:
    """``text`` spoken by espeak-ng as int16 mono at ``rate`` (sox resamples; kept on disk by
    :mod:`speech_cache` across runs)."""

    def make(out: Path) -> None:
        with tempfile.TemporaryDirectory() as folder:
            raw = Path(folder) / "raw.wav"
            subprocess.run(
                ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), text], check=True
            )
            subprocess.run(
                ["sox", str(raw), "-r", str(rate), "-c", "1", "-b", "16", str(out)], check=True
            )

    versions = [tool_version("espeak-ng"), tool_version("sox")]
    out = cached_file("pulse-espeak", [*versions, voice, speed, rate, text], ".wav", make)
    import wave

    with wave.open(str(out), "rb") as handle:
        return np.frombuffer(handle.readframes(handle.getnframes()), dtype=np.int16).copy()


def noise(kind: str, seconds: float, volume: float, rate: int = 16000) -> np.ndarray:
    """Repeatable sox noise (``pinknoise``, ``whitenoise``, ``brownnoise``) as int16 mono."""
    raw = subprocess.run(
        [
            *("sox", "-R", "-n", "-r", str(rate), "-c", "1", "-b", "16", "-t", "raw", "-"),
            *("synth", str(seconds), kind, "vol", str(volume)),
        ],
        capture_output=True,
        check=True,
    ).stdout
    return np.frombuffer(raw, dtype=np.int16)


def similarity(heard: np.ndarray, sent: np.ndarray) -> float:
    """Peak normalised cross-correlation of two int16 signals (1.0 = the same sound)."""
    a, b = heard.astype(np.float64), sent.astype(np.float64)
    size = len(a) + len(b)
    corr = np.fft.irfft(np.fft.rfft(a, size) * np.conj(np.fft.rfft(b, size)), size)
    return float(np.max(np.abs(corr)) / (np.linalg.norm(a) * np.linalg.norm(b)))


def similarity_in_parts(heard: np.ndarray, sent: np.ndarray, part: int = 8000) -> float:
    """How much ``heard`` sounds like ``sent`` when playback may have dropped blocks: each
    ``part`` samples of ``heard`` that carry sound are matched against ``sent`` at their own
    lag (peak normalised cross-correlation against the window of ``sent`` there), and the
    peaks are averaged, weighted by the parts' energy. One peak over the whole recording
    (:func:`similarity`) covers only the stretch before the first dropped block; here a
    dropped block costs only the part it falls in. 1.0 = the same sound; another voice
    saying the same text stays far lower."""
    a, b = heard.astype(np.float64), sent.astype(np.float64)
    energy = np.concatenate([[0.0], np.cumsum(b * b)])
    lags = np.arange(len(b))
    window = energy[np.minimum(lags + part, len(b))] - energy[lags]
    usable = window >= 0.01 * window.max()  # nearly silent stretches of ``sent`` match nothing
    size = len(b) + part
    spectrum = np.fft.rfft(b, size)
    loudest = max((float(np.sum(a[i : i + part] ** 2)) for i in range(0, len(a), part)), default=0)
    peaks, weights = [], []
    for start in range(0, len(a) - part + 1, part):
        piece = a[start : start + part]
        power = float(np.sum(piece * piece))
        if power < 0.01 * loudest or power == 0.0:
            continue  # the quiet before and after the words
        corr = np.fft.irfft(spectrum * np.conj(np.fft.rfft(piece, size)), size)[: len(b)]
        ncc = np.abs(corr) / np.sqrt(power * np.maximum(window, 1e-9))
        peaks.append(float(np.max(ncc[usable])))
        weights.append(power)
    return float(np.average(peaks, weights=weights)) if peaks else 0.0


@pytest.fixture(scope="session")
def pulse() -> Iterator[PulseAudio]:
    """A private PulseAudio with ``speaker``, ``mic_feed`` and ``vmic`` for the whole session."""
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip("pulseaudio/pactl are not installed (Debian: pulseaudio pulseaudio-utils)")
    # Not tmp_path: a unix socket path must stay under 108 bytes.
    base = Path(tempfile.mkdtemp(prefix="vc-pulse-"))
    server = PulseAudio(base)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)
