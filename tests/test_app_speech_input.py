"""The microphone adapter of ``play``/``assist`` on the virtual audio devices.

Speech played into the virtual microphone comes out as the recogniser's n-best list for what may
be said now; "Stopp" said while the program speaks silences it and is not taken as input.
"""

from __future__ import annotations

import queue
import time

import numpy as np
import pytest
from pulse import PulseAudio, espeak

from voice.config import Settings
from voice.events import Setup
from voice.recognizers.adaptation import Adaptation, default_path
from voice.session import GameSession
from voice.speak import Speaker
from voice.speech_input import SpeechInput
from voice.text_input import Heard
from voice.vocabulary import Vocabulary

pytestmark = pytest.mark.audio

WAIT_S = 20.0


def spoken(words: str) -> np.ndarray:
    return np.concatenate([espeak(words, "de", 16000, 140), np.zeros(16000, dtype=np.int16)])


def test_a_spoken_move_arrives_as_the_recognisers_nbest(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    heard: queue.Queue[Heard] = queue.Queue()
    source = SpeechInput(settings, vocab)
    try:
        source.set_context(GameSession(Setup(), settings).phrases_now())
        source.start(heard.put, lambda: None)
        pulse.play(spoken("Springer Felix drei"), 16000)
        nbest = heard.get(timeout=WAIT_S)
        assert nbest[0][0] == "springer felix drei"
        assert all(0.0 <= confidence <= 1.0 for _, confidence in nbest)
    finally:
        source.close()


def test_stopp_during_our_own_speech_silences_it_and_is_no_input(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    heard: queue.Queue[Heard] = queue.Queue()
    with Speaker(settings) as speaker:
        events = speaker.subscribe()
        source = SpeechInput(settings, vocab, speaker)
        try:
            source.set_context(GameSession(Setup(), settings).phrases_now())
            source.start(heard.put, lambda: None)
            speaker.say(
                "Weiß: König Gustav eins; Dame David eins; Türme Anna eins, Hector eins; "
                "Läufer Cesar eins, Felix eins; Springer Bella eins, Gustav eins; Bauern Anna "
                "zwei, Bella zwei, Cesar zwei, David zwei, Eva zwei, Felix zwei, Gustav zwei."
            )
            deadline = time.monotonic() + WAIT_S
            while events.get(timeout=WAIT_S).kind != "start":
                assert time.monotonic() < deadline
            pulse.play(spoken("Stopp"), 16000)
            kinds = []
            while "interrupted" not in kinds and time.monotonic() < deadline:
                kinds.append(events.get(timeout=WAIT_S).kind)
            assert "interrupted" in kinds, kinds
            assert heard.empty()  # heard over our own voice: never normal input
        finally:
            source.close()


def test_the_enrolled_voice_is_used_by_the_microphone_and_named_at_start_up(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """[speech] adaptation = "auto": after voice-chess enrol the game hears with the player's
    transform, and the start-up sentence says so in the player's language."""
    Adaptation(np.stack([np.eye(13)] * 3), np.zeros((3, 13))).save(default_path())
    heard: queue.Queue[Heard] = queue.Queue()
    source = SpeechInput(settings, vocab)
    try:
        assert getattr(source.recognizer, "adaptation", None) == default_path()
        assert "an Ihre Stimme angepasst" in source.describe("de")
        source.set_context(GameSession(Setup(), settings).phrases_now())
        source.start(heard.put, lambda: None)
        pulse.play(spoken("Springer Felix drei"), 16000)
        assert heard.get(timeout=WAIT_S)[0][0] == "springer felix drei"
    finally:
        source.close()
