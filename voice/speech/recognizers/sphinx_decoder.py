"""The PocketSphinx decoder as recognition and voice adaptation both set it up.

Shared by :mod:`voice.speech.recognizers.sphinx` (recognition) and
:mod:`voice.speech.recognizers.adaptation`
(forced alignment of the player's recordings), so that the two align the same audio the same
way; it lives below both so that neither imports the other's module back (the adapter once took
these from the recogniser, which imports the adapter).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from voice.speech.recognizers import RecognizerError
from voice.speech.recognizers.lexicon import Lexicon
from voice.speech.recognizers.second_decoder import Option, new_decoder
from voice.speech.wavio import RATE

FRAME = RATE // 100
"""Samples per decoder frame (10 ms)."""

TOP_N = 8
"""Gaussians scored per codebook: more than the default 4 was clearly more accurate here."""

PAD_S = 0.25
"""Quiet lead-in and tail added to each utterance: the decoder needs a little silence at both
ends to settle in and to reach the grammar's final state."""

SPEECH_LEVEL = 0.5
"""Where between the quiet floor and the loud peak of an utterance speech frames begin."""

MIN_DYNAMIC_DB = 9.0
"""An utterance whose loud and quiet frames differ by less than this holds no speech."""

SILENCE_PROB = 0.005
"""Prior of a silence between words (PocketSphinx's default)."""


def model_dir() -> Path:
    """The en-us acoustic model folder inside the pocketsphinx wheel."""
    import pocketsphinx

    folder = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"
    if not (folder / "mdef").is_file():
        raise RecognizerError(f"PocketSphinx acoustic model missing: {folder} has no 'mdef'")
    return folder


def make_decoder(words: Iterable[str], lexicon: Lexicon, **extra: Option) -> Any:
    """A PocketSphinx decoder as recognition uses it: the embedded acoustic model, ``words`` as
    ``lexicon`` spells them, silence as the only filler. ``extra`` adds PocketSphinx options
    (``mllr``: a speaker's transform; ``mfclogdir``: where to write the cepstra)."""
    try:
        return new_decoder(lexicon.dictionary(words), decoder_options(**extra))
    except (RuntimeError, ValueError) as error:
        raise RecognizerError(f"PocketSphinx could not start: {error}") from error


def decoder_options(**extra: Option) -> dict[str, Option]:
    """The PocketSphinx options of recognition (see :func:`make_decoder`)."""
    return {
        "hmm": str(model_dir()),
        "lm": None,
        "loglevel": "FATAL",
        "bestpath": False,
        "topn": TOP_N,
        "silprob": SILENCE_PROB,
        **extra,
    }


def speech_frames(pcm: np.ndarray) -> np.ndarray:
    """Which 10 ms frames hold speech, judged by energy within the utterance itself.

    A frame is speech when it lies above ``SPEECH_LEVEL`` between the quiet floor (10th
    percentile) and the loud peak (97th); an utterance with too small a range (steady noise,
    silence) has none. Relative, so it works at any recording level and with steady
    background noise.
    """
    energy = _frame_energy_db(pcm)
    if len(energy) == 0:
        return np.zeros(0, dtype=bool)
    low, high = float(np.percentile(energy, 10)), float(np.percentile(energy, 97))
    if high - low < MIN_DYNAMIC_DB:
        return np.zeros(len(energy), dtype=bool)
    return energy > low + SPEECH_LEVEL * (high - low)


def dynamic_range_db(pcm: np.ndarray) -> float:
    """How far the loud frames of an utterance stand above its quiet ones (97th and 10th
    percentile of frame energy, dB): large in a quiet room, small in noise."""
    energy = _frame_energy_db(pcm)
    if len(energy) == 0:
        return 0.0
    return float(np.percentile(energy, 97) - np.percentile(energy, 10))


def _frame_energy_db(pcm: np.ndarray) -> np.ndarray:
    count = len(pcm) // FRAME
    frames = pcm[: count * FRAME].astype(np.float64).reshape(count, FRAME)
    return np.asarray(10 * np.log10((frames**2).mean(axis=1) + 1.0))


def quiet_noise(count: int, seed: int) -> np.ndarray:
    """Barely audible noise: pure digital zeros upset the decoder's energy features."""
    return np.random.default_rng(seed).normal(0, 2.0, count).astype(np.int16)


def padded_utterance(pcm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The utterance with quiet lead-in and tail, and its speech frames on the padded timeline."""
    pad = int(PAD_S * RATE)
    padded = np.concatenate([quiet_noise(pad, 0), pcm, quiet_noise(pad, 1)])
    speech = speech_frames(pcm)
    margin = np.zeros(pad // FRAME, dtype=bool)
    return padded, np.concatenate([margin, speech, margin])
