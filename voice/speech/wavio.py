"""WAV files of any common format → 16 kHz mono int16, the recognisers' only input format.

Users hand ``voice-chess recognize`` recordings from phones, screen readers and audio editors:
8 to 48 kHz, mono or stereo, 8/16/24/32-bit integer or 32/64-bit float samples (the stdlib
``wave`` module reads integer PCM only, hence the small RIFF reader here). Resampling is a
windowed-sinc low-pass followed by interpolation: good enough for speech recognition, with no
dependency beyond numpy.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

RATE = 16000
"""The rate both recognisers decode at."""

_PCM = 1
_FLOAT = 3
_EXTENSIBLE = 0xFFFE


class WavError(ValueError):
    """The file is not a WAV file this program can read; the message says why."""


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """The samples of a WAV file as float32 in -1..1, channels averaged, and its sample rate."""
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise WavError(f"{path}: a folder, not a WAV file (give one recording)") from None
    except PermissionError as error:
        raise WavError(f"{path}: cannot be read: {error.strerror}") from None
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise WavError(f"{path}: not a WAV file (no RIFF/WAVE header)")
    fmt: tuple[int, int, int, int] | None = None
    payload: bytes | None = None
    offset = 12
    while offset + 8 <= len(data):
        chunk, size = struct.unpack_from("<4sI", data, offset)
        body = data[offset + 8 : offset + 8 + size]
        if chunk == b"fmt ":
            if len(body) < 16:
                raise WavError(f"{path}: truncated format chunk")
            tag, channels, rate, _, _, bits = struct.unpack_from("<HHIIHH", body)
            if tag == _EXTENSIBLE and len(body) >= 26:
                tag = struct.unpack_from("<H", body, 24)[0]
            fmt = (tag, channels, rate, bits)
        elif chunk == b"data":
            payload = body
        offset += 8 + size + (size & 1)
    if fmt is None or payload is None:
        raise WavError(f"{path}: no format or no data chunk")
    tag, channels, rate, bits = fmt
    if channels < 1 or rate < 1000:
        raise WavError(f"{path}: {channels} channels at {rate} Hz is not audio we can use")
    samples = _decode(payload, tag, bits, path)
    frames = len(samples) // channels
    mono = samples[: frames * channels].reshape(frames, channels).mean(axis=1)
    return mono.astype(np.float32), rate


def _decode(payload: bytes, tag: int, bits: int, path: str | Path) -> np.ndarray:
    if tag == _FLOAT and bits in (32, 64):
        kind = "<f4" if bits == 32 else "<f8"
        usable = len(payload) - len(payload) % (bits // 8)
        return np.frombuffer(payload[:usable], kind).astype(np.float64)
    if tag != _PCM:
        raise WavError(f"{path}: WAV encoding {tag:#x} is not supported (use PCM or float)")
    width = bits // 8
    usable = len(payload) - len(payload) % max(width, 1)
    raw = payload[:usable]
    if bits == 8:
        return (np.frombuffer(raw, np.uint8).astype(np.float64) - 128) / 128
    if bits == 16:
        return np.frombuffer(raw, "<i2").astype(np.float64) / 32768
    if bits == 24:
        triples = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        values = triples[:, 0] | (triples[:, 1] << 8) | (triples[:, 2] << 16)
        values = np.where(values >= 1 << 23, values - (1 << 24), values)
        return values.astype(np.float64) / (1 << 23)
    if bits == 32:
        return np.frombuffer(raw, "<i4").astype(np.float64) / (1 << 31)
    raise WavError(f"{path}: {bits}-bit samples are not supported")


def resample(samples: np.ndarray, from_rate: int, to_rate: int = RATE) -> np.ndarray:
    """Float samples at ``from_rate`` → float samples at ``to_rate``.

    Downsampling first removes what lies above the new Nyquist frequency (a Hann-windowed sinc,
    cut at 90% of it), else 44.1 kHz recordings would fold hiss into the speech band.
    """
    samples = np.asarray(samples, dtype=np.float64)
    if from_rate == to_rate or len(samples) == 0:
        return samples.astype(np.float32)
    if to_rate < from_rate:
        cutoff = 0.45 * to_rate / from_rate  # as a fraction of the old sample rate
        half = int(8 / cutoff) | 1
        taps = np.arange(-half, half + 1)
        kernel = 2 * cutoff * np.sinc(2 * cutoff * taps) * np.hanning(len(taps))
        samples = np.convolve(samples, kernel / kernel.sum(), mode="same")
    count = max(1, round(len(samples) * to_rate / from_rate))
    positions = np.arange(count) * (from_rate / to_rate)
    resampled: np.ndarray = np.interp(positions, np.arange(len(samples)), samples)
    return resampled.astype(np.float32)


def to_int16(samples: np.ndarray) -> np.ndarray:
    """Float samples in -1..1 → int16, clipped."""
    return np.clip(np.round(np.asarray(samples) * 32767), -32768, 32767).astype(np.int16)


def mix_at_snr(clean: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """``clean`` (int16) plus ``noise`` (float, as long) scaled to ``snr_db`` below the RMS of
    ``clean``: how the benchmark makes its noisy condition and enrolment its noisy copies."""
    speech = clean.astype(np.float64) / 32768

    def rms(samples: np.ndarray) -> float:
        return float(np.sqrt(np.mean(np.square(samples)))) or 1e-9

    gain = rms(speech) / (rms(noise) * 10 ** (snr_db / 20))
    return to_int16(speech + gain * noise)


def as_pcm16(audio: np.ndarray, sample_rate: int) -> np.ndarray:
    """Any mono audio the program holds (int16 or float in -1..1, any rate) → 16 kHz int16."""
    audio = np.asarray(audio)
    if audio.ndim > 1:
        audio = audio.mean(axis=1)
    if audio.dtype == np.int16 and sample_rate == RATE:
        return audio
    floats = audio.astype(np.float64) / 32768 if audio.dtype.kind in "iu" else audio
    return to_int16(resample(floats, sample_rate, RATE))


def load_for_recognition(path: str | Path) -> np.ndarray:
    """A WAV file as the recognisers want it: 16 kHz mono int16."""
    samples, rate = read_wav(path)
    return to_int16(resample(samples, rate, RATE))


def write_wav(path: str | Path, samples: np.ndarray, rate: int = RATE) -> None:
    """Mono int16 samples → a 16-bit PCM WAV file (tests and the benchmark corpus)."""
    import wave

    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(np.asarray(samples, dtype="<i2").tobytes())
