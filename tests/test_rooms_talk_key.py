"""The benchmarks' talk key (:func:`benchmarks.rooms.talk_key`, ``--talk-key``) against the
listener's own: what the benchmark hands the recogniser must be what
:class:`voice.speech.listen.Listener` records between two presses in the same room, or its
figures say nothing about the key a player uses."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

from benchmarks import rooms
from voice.config import Settings
from voice.speech import listen
from voice.speech.listen import FRAME, RATE, Listener, Utterance


class _Presses(random.Random):
    """How long before the words the key is pressed, and after them pressed again."""

    def __init__(self, before: float, after: float) -> None:
        super().__init__(0)
        self.draws = iter((before, after))

    def uniform(self, a: float, b: float) -> float:
        value = next(self.draws)
        assert a <= value <= b
        return value


def _listener(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Listener:
    """A listener with no device: frames are handed to it as the microphone would."""
    monkeypatch.setattr(listen, "resolve_device", lambda spec, kind: SimpleNamespace())
    monkeypatch.setattr(listen, "supported_rate", lambda device, rate: RATE)
    return Listener(settings)


def _feed(listener: Listener, sound: np.ndarray, start: int, end: int) -> None:
    """Frames ``start`` to ``end`` of ``sound``, each heard at its place in it."""
    for index in range(start, end):
        samples = sound[index * FRAME : (index + 1) * FRAME]
        listener._blocks.put((samples, index * FRAME / RATE))
    listener._blocks.put(None)
    listener._process()


@pytest.mark.parametrize("snr_db", [None, 5.0])
def test_the_benchmarks_talk_key_records_what_the_listener_records_between_the_presses(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, snr_db: float | None
) -> None:
    """The words said in a room (others talking 5 dB below them, or silence), the key pressed
    0.43 s before them and again 0.61 s after: the listener's recording (its pre-roll before
    the first press, its post-roll after the second, the room and all) is the benchmark's, to
    within the 20 ms frames the presses fall in."""
    rng = np.random.default_rng(5)
    tone = np.sin(np.arange(RATE // 2) * 2 * np.pi * 180 / RATE) * 9000
    words = np.concatenate([np.zeros(RATE // 4), tone, np.zeros(RATE // 4)]).astype(np.int16)

    def talk(length: int) -> np.ndarray:
        result: np.ndarray = rng.normal(0, 3000, length)
        return result

    sound, lead = rooms.in_room(words, snr_db, talk if snr_db is not None else np.zeros)
    first, last = rooms.words_span(words)
    words_from, words_to = (lead + first) / RATE, (lead + last) / RATE
    before, after = 0.43, 0.61
    expected = rooms.talk_key(sound, words_from, words_to, _Presses(before, after))

    listener = _listener(settings, monkeypatch)
    delivered: list[Utterance] = []
    monkeypatch.setattr(listener, "_deliver", delivered.append)
    pressed, released = words_from - before, words_to + after
    frames = len(sound) // FRAME
    press_frame = int(np.ceil(pressed * RATE / FRAME))
    release_frame = int(np.ceil(released * RATE / FRAME))
    _feed(listener, sound, 0, press_frame)
    listener.ptt_down()
    _feed(listener, sound, press_frame, release_frame)
    monkeypatch.setattr(listen, "time", SimpleNamespace(monotonic=lambda: released))
    listener.ptt_up()
    _feed(listener, sound, release_frame, frames)

    assert len(delivered) == 1 and delivered[0].push_to_talk
    recorded = delivered[0].audio
    begins = (press_frame - int(listen.PTT_PRE_ROLL * RATE / FRAME + 1e-9)) * FRAME
    assert abs(begins - round((pressed - listen.PTT_PRE_ROLL) * RATE)) <= FRAME
    assert np.array_equal(recorded, sound[begins : begins + len(recorded)])
    assert abs(len(recorded) - len(expected)) <= 2 * FRAME
    # The listener keeps the frame in which its post-roll ends: at most two frames more.
    ends = begins + len(recorded) - round((released + listen.PTT_POST_ROLL) * RATE)
    assert 0 <= ends <= 2 * FRAME
