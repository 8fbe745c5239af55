"""Reading WAV files of any common format and resampling them to 16 kHz mono."""

from __future__ import annotations

import struct
import wave
from pathlib import Path

import numpy as np
import pytest

from voice.speech.wavio import WavError, as_pcm16, load_for_recognition, read_wav, resample


def _tone(rate: int, seconds: float = 0.5, hz: float = 440.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return 0.5 * np.sin(2 * np.pi * hz * t)


def _write_pcm(path: Path, samples: np.ndarray, rate: int, channels: int = 1) -> None:
    frames = np.repeat(samples[:, None], channels, axis=1)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes((frames * 32767).astype("<i2").tobytes())


def _write_float(path: Path, samples: np.ndarray, rate: int) -> None:
    data = samples.astype("<f4").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, rate, rate * 4, 4, 32)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


def test_stereo_44k_becomes_16k_mono_of_the_same_duration(tmp_path: Path) -> None:
    path = tmp_path / "stereo.wav"
    _write_pcm(path, _tone(44100), 44100, channels=2)
    audio = load_for_recognition(path)
    assert audio.dtype == np.int16
    assert abs(len(audio) - 8000) <= 1
    assert 0.45 < np.abs(audio).max() / 32768 < 0.55


def test_float_wav_files_are_read(tmp_path: Path) -> None:
    path = tmp_path / "float.wav"
    _write_float(path, _tone(8000), 8000)
    samples, rate = read_wav(path)
    assert rate == 8000
    assert np.allclose(samples, _tone(8000), atol=1e-6)


def test_downsampling_removes_what_lies_above_the_new_nyquist_frequency() -> None:
    high = _tone(48000, hz=12000)  # above 8 kHz: must not fold into the speech band
    low = _tone(48000, hz=1000)
    assert np.sqrt(np.mean(resample(high, 48000) ** 2)) < 0.01
    assert np.sqrt(np.mean(resample(low, 48000) ** 2)) > 0.3


def test_audio_held_in_memory_is_converted_like_a_file() -> None:
    floats = _tone(22050).astype(np.float32)
    pcm = as_pcm16(floats, 22050)
    assert pcm.dtype == np.int16
    assert abs(len(pcm) - 8000) <= 1
    same = np.zeros(100, np.int16)
    assert as_pcm16(same, 16000) is same


def test_a_file_that_is_not_a_wav_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mp3.wav"
    path.write_bytes(b"ID3\x03\x00" + bytes(100))
    with pytest.raises(WavError, match="not a WAV file"):
        read_wav(path)
