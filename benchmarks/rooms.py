"""The rooms of the recognition benchmark: silence around an utterance, noise and babble at a
signal-to-noise ratio over the whole recording, a reverberant hall.

A signal-to-noise ratio here is what a room makes: the noise goes on through the pauses, so its
power is set against the average power of the *whole* recording, silences included (each
utterance is first padded with :data:`PAD_S` of silence at both ends, so that every recording
has a realistic share of it). The same mixture measured over the speech frames alone has a
higher ratio; :func:`speech_snr_db` says how much, and the benchmark prints it beside each
condition so that its figures can be compared with figures quoted either way.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from voice.speech.listen import PRE_ROLL, PTT_POST_ROLL, PTT_PRE_ROLL, EndPointer
from voice.speech.wavio import RATE, load_for_recognition, to_int16

PAD_S = 0.3
"""Silence added before and after every synthesized utterance (espeak-ng's own lead-in and
tail of about 0.2 s stay inside it)."""

HALL: tuple[str, ...] = ("reverb", "90", "50", "100", "100", "40", "0")
"""sox effect of a large reverberant hall: reverberance 90%, HF damping 50%, room scale 100%,
stereo depth 100%, pre-delay 40 ms, wet gain 0 dB (the direct sound stays in the mix)."""

HALL_TAIL_S = 0.8
"""Extra silence after the utterance for the hall's reverberation to ring out in."""

FRAME = RATE // 50
"""20 ms: the frame :func:`speech_snr_db` sorts into speech and pause."""

SPEECH_FLOOR_DB = 40.0
"""A frame is speech when its power is within this many dB of the loudest frame."""


def pad(pcm: np.ndarray, seconds: float = PAD_S) -> np.ndarray:
    """int16 ``pcm`` with ``seconds`` of silence before and after it.

    The silence is the faint hiss of the recording's own pauses (sox's dither: -1, 0 or +1,
    seeded by the length, so the same every run), not digital zeros: no microphone gives
    those, and PocketSphinx hears them wrongly (measured: 5 of 40 non-chess sentences became a
    move when padded with zeros, none when padded with this)."""
    pcm = np.asarray(pcm, dtype=np.int16)
    length = round(seconds * RATE)
    rng = np.random.default_rng(len(pcm))
    hiss = rng.integers(0, 2, (2, 2 * length)).sum(axis=0) - 1
    hiss = hiss.astype(np.int16)
    return np.concatenate([hiss[:length], pcm, hiss[length:]])


def mean_power(samples: np.ndarray) -> float:
    """Mean square of float samples (never exactly 0, so that ratios stay finite)."""
    values = np.asarray(samples, dtype=np.float64)
    if len(values) == 0:
        return 1e-18
    return max(float(np.mean(np.square(values))), 1e-18)


def _floats(pcm: np.ndarray) -> np.ndarray:
    return np.asarray(pcm, dtype=np.float64) / 32768


def scaled_noise(recording: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """``noise`` (float, at least as long as ``recording``) cut to length and scaled so that
    the average power of the whole int16 ``recording`` is ``snr_db`` above the noise's."""
    speech = _floats(recording)
    stretch = np.asarray(noise, dtype=np.float64)[: len(speech)]
    if len(stretch) < len(speech):
        raise ValueError("the noise is shorter than the recording")
    gain = float(np.sqrt(mean_power(speech) / (mean_power(stretch) * 10 ** (snr_db / 10))))
    return stretch * gain


def mix(recording: np.ndarray, added: np.ndarray) -> np.ndarray:
    """int16 ``recording`` plus float ``added`` as int16; a mixture that would clip is turned
    down as a whole (as a recorder's gain would), which leaves the ratio as it was."""
    mixed = _floats(recording) + added
    peak = float(np.max(np.abs(mixed))) if len(mixed) else 0.0
    if peak > 0.99:
        mixed *= 0.99 / peak
    return to_int16(mixed)


def mix_whole(recording: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """``recording`` (int16) with ``noise`` at ``snr_db`` below its whole-recording power."""
    return mix(recording, scaled_noise(recording, noise, snr_db))


def speech_snr_db(recording: np.ndarray, added: np.ndarray) -> float:
    """The ratio of ``recording`` to ``added`` over the recording's speech frames only (20 ms
    frames within :data:`SPEECH_FLOOR_DB` of its loudest): how loud the noise is while words
    are said. Higher than the whole-recording ratio by as much as the pauses weigh."""
    speech = _floats(recording)
    noise = np.asarray(added, dtype=np.float64)[: len(speech)]
    frames = len(speech) // FRAME
    if frames == 0:
        return float("nan")
    shape = (frames, FRAME)
    speech_power = np.mean(np.square(speech[: frames * FRAME].reshape(shape)), axis=1)
    noise_power = np.mean(np.square(noise[: frames * FRAME].reshape(shape)), axis=1)
    loud = speech_power >= speech_power.max() * 10 ** (-SPEECH_FLOOR_DB / 10)
    ratio = speech_power[loud].mean() / max(float(noise_power[loud].mean()), 1e-18)
    return float(10 * np.log10(ratio))


def loop_to(samples: np.ndarray, length: int, start: int) -> np.ndarray:
    """``samples`` repeated end to end from ``start`` on, cut to ``length``."""
    values = np.asarray(samples, dtype=np.float64)
    if len(values) == 0:
        return np.zeros(length)
    return values[(start + np.arange(length)) % len(values)]


def babble(talkers: Sequence[np.ndarray], length: int, starts: Sequence[int]) -> np.ndarray:
    """Several people talking at once: each int16 recording looped to ``length`` from its own
    start, brought to the same power, and summed (float; scale it with :func:`scaled_noise`)."""
    total = np.zeros(length)
    for pcm, start in zip(talkers, starts, strict=True):
        voice = _floats(pcm)
        total += loop_to(voice / np.sqrt(mean_power(voice)), length, start)
    return total


def hall(path: Path, folder: Path) -> np.ndarray:
    """The utterance in ``path`` said in a large hall: padded like every recording, then
    :data:`HALL_TAIL_S` more for the reverberation (sox ``-R``: the same every run)."""
    out = folder / f"{path.stem}.hall.wav"
    subprocess.run(
        [
            "sox",
            "-R",
            "-G",
            str(path),
            str(out),
            "pad",
            f"{PAD_S}",
            f"{PAD_S + HALL_TAIL_S}",
            *HALL,
        ],
        check=True,
        capture_output=True,
    )
    try:
        return load_for_recognition(out)
    finally:
        out.unlink()


# -- a room that is noisy before and after the words (for the end-pointer) -------------------

ROOM_LEAD_S = 5.0
"""Noise before the words: a room is noisy before anyone speaks, and the end-pointer's noise
floor follows it within a few seconds (with 2 s, noise that had just begun still kept some
utterances going until it stopped)."""

ROOM_PAUSE_S = 1.5
"""Quiet (or noise) after the words: longer than the end-pointer's longest pause."""


def in_room(
    words: np.ndarray, snr_db: float | None, noise: Callable[[int], np.ndarray]
) -> tuple[np.ndarray, int]:
    """(The sound, the sample where the words begin in it.) Quiet (``snr_db`` None): the words
    with :data:`ROOM_PAUSE_S` of faint hiss before and after them (:func:`pad`; the end-pointer
    must hear the room before the words, or it takes their first syllable for its floor). With
    noise (``noise(length)`` gives it as floats):
    :data:`ROOM_LEAD_S` of noise, the words, the pause, the noise going on throughout, at
    ``snr_db`` below the power of the words and the pause (a ratio over a recording, as
    everywhere in this module)."""
    if snr_db is None:
        return pad(words, ROOM_PAUSE_S), round(ROOM_PAUSE_S * RATE)
    whole = np.concatenate([words, np.zeros(int(ROOM_PAUSE_S * RATE), dtype=np.int16)])
    lead = int(ROOM_LEAD_S * RATE)
    stretch = noise(lead + len(whole))
    added = scaled_noise(whole, stretch[lead:], snr_db)
    gain = float(np.std(added)) / max(float(np.std(stretch[lead:])), 1e-12)
    silent = np.zeros(lead, dtype=np.int16)
    return mix(np.concatenate([silent, whole]), stretch * gain), lead


LOUD = 300
"""int16 level above which a sample belongs to the words (espeak-ng's own pauses are below)."""


def words_span(words: np.ndarray) -> tuple[int, int]:
    """(first, end) sample of the loud part of a recording of words (the whole if none is)."""
    loud = np.flatnonzero(np.abs(words.astype(np.int32)) > LOUD)
    return (int(loud[0]), int(loud[-1]) + 1) if len(loud) else (0, len(words))


def heard_in_room(
    words: np.ndarray,
    snr_db: float | None,
    noise: Callable[[int], np.ndarray],
    pre_roll: float = PRE_ROLL,
    completion: Callable[[np.ndarray], bool] | None = None,
    presses: random.Random | None = None,
) -> np.ndarray | None:
    """``words`` said in a room (:func:`in_room`) and heard as the program hears them
    (:func:`heard`)."""
    first, last = words_span(words)
    sound, lead = in_room(words, snr_db, noise)
    words_from, words_to = (lead + first) / RATE, (lead + last) / RATE
    return heard(sound, words_from, words_to, pre_roll, completion, presses)


def heard(
    sound: np.ndarray,
    words_from: float,
    words_to: float,
    pre_roll: float = PRE_ROLL,
    completion: Callable[[np.ndarray], bool] | None = None,
    presses: random.Random | None = None,
) -> np.ndarray | None:
    """The words said from ``words_from`` to ``words_to`` seconds into ``sound`` as the program
    hears them: cut by the end-pointer (:func:`endpoint`), or, with ``presses`` (when the
    player presses the talk key), recorded through the talk key (:func:`talk_key`)."""
    if presses is not None:
        return talk_key(sound, words_from, words_to, presses)
    return endpoint(sound, words_from, words_to, pre_roll, completion)


def endpoint(
    sound: np.ndarray,
    words_from: float,
    words_to: float,
    pre_roll: float = PRE_ROLL,
    completion: Callable[[np.ndarray], bool] | None = None,
) -> np.ndarray | None:
    """The utterance the program's end-pointer (:class:`voice.speech.listen.EndPointer`, fed
    20 ms at a time as the microphone would) cuts around the words said from ``words_from`` to
    ``words_to`` seconds into ``sound`` (``pre_roll``: the recogniser's, and ``completion``:
    whether the words so far make a phrase, as the program sets them); None when the words
    started none, or it was still going on at the end of ``sound`` (more than
    :data:`ROOM_PAUSE_S` after the words, the room as loud as before): a move the player would
    say in vain, or wait long for."""
    pointer = EndPointer(pre_roll=pre_roll, completion=completion)
    found: list[np.ndarray] = []
    for start in range(0, len(sound), FRAME):
        for utterance in pointer.push(sound[start : start + FRAME], start / RATE):
            if utterance.started_at <= words_to and utterance.ended_at >= words_from:
                found.append(utterance.audio)
    return found[0] if found else None


# -- the talk key: a recording from one press to the next ------------------------------------

TALK_KEY_PRESS_S = (0.3, 1.0)
"""How long before the words the player presses the talk key, and how long after them they
press it again (each drawn evenly from this range): a press, a breath, the words; the words
heard out, then the second press. The README asks for the second press "as soon as you have
said it"; a blind player finding the key again takes a moment."""


def talk_key(
    sound: np.ndarray, words_from: float, words_to: float, rng: random.Random
) -> np.ndarray:
    """What the talk key records of the words said from ``words_from`` to ``words_to`` seconds
    into ``sound``: everything from the first press to the second, with the listener's own
    rolls (:data:`voice.speech.listen.PTT_PRE_ROLL` before the press,
    :data:`~voice.speech.listen.PTT_POST_ROLL` after the release), the room's noise and other
    voices included: nothing is cut by the end-pointer."""
    pressed = words_from - rng.uniform(*TALK_KEY_PRESS_S) - PTT_PRE_ROLL
    released = words_to + rng.uniform(*TALK_KEY_PRESS_S) + PTT_POST_ROLL
    return sound[max(0, round(pressed * RATE)) : round(released * RATE)]
