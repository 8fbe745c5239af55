"""Speaker adaptation: a short enrolment teaches the embedded recogniser one voice."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak, synthesize

from benchmarks import asr
from voice.speech.recognizers import RecognizerError, adaptation, sphinx
from voice.speech.recognizers.adaptation import (
    Adaptation,
    AdaptationError,
    Sample,
    chosen_adaptation,
    default_path,
    estimate,
    features,
)
from voice.speech.recognizers.grammar import TRAILING_WORDS, position_phrases
from voice.speech.recognizers.lexicon import Lexicon
from voice.speech.recognizers.sphinx import SphinxRecognizer
from voice.speech.recognizers.sphinx_decoder import model_dir
from voice.speech.wavio import load_for_recognition
from voice.words.phrases import phrase_table
from voice.words.vocabulary import Vocabulary


def _transform(scale: float = 1.0) -> Adaptation:
    rng = np.random.default_rng(3)
    a = np.stack([np.eye(13) * scale + 0.01 * rng.standard_normal((13, 13)) for _ in range(3)])
    return Adaptation(a, rng.standard_normal((3, 13)), utterances=12, frames=2400)


def test_a_saved_adaptation_loads_back_with_its_description(tmp_path: Path) -> None:
    saved = _transform()
    path = tmp_path / "voice" / "voice.mllr"
    saved.save(path)
    loaded = Adaptation.load(path)
    assert np.allclose(loaded.a, saved.a) and np.allclose(loaded.b, saved.b)
    description = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert description["utterances"] == 12 and description["frames"] == 2400
    assert not list(path.parent.glob("*.part")), "no temporary file is left behind"


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],
        lambda text: text.replace("1", "x", 3),
        lambda text: "2\n" + text,
        lambda text: text.replace(text.split()[5], "nan", 1),
    ],
    ids=["cut-short", "not-numbers", "other-model", "not-finite"],
)
def test_a_damaged_transform_is_named_instead_of_crashing_the_recogniser(
    tmp_path: Path, vocab: Vocabulary, damage
) -> None:
    path = tmp_path / "voice.mllr"
    _transform().save(path)
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(AdaptationError, match=r"voice adaptation .*voice\.mllr"):
        Adaptation.load(path)
    with pytest.raises(RecognizerError, match=r"voice\.mllr"):
        SphinxRecognizer(vocab, adaptation=path)


def test_auto_uses_the_enrolled_voice_only_when_there_is_a_sound_one(tmp_path: Path) -> None:
    """[speech] adaptation: "auto" → the enrolled voice if any (a damaged one is left out, the
    game goes on), "off" → none, a path → that file, which must exist."""
    assert chosen_adaptation("auto") is None  # nobody enrolled (the tests' own data folder)
    path = default_path()
    _transform().save(path)
    assert chosen_adaptation("auto") == path
    assert chosen_adaptation("off") is None
    assert chosen_adaptation(str(path)) == path
    path.write_text("damaged", encoding="utf-8")
    assert chosen_adaptation("auto") is None
    with pytest.raises(AdaptationError, match="no file"):
        chosen_adaptation(str(tmp_path / "missing.mllr"))


def test_features_are_normalised_cepstra_with_deltas_and_double_deltas() -> None:
    """1s_c_d_dd: mean removed; delta = c[t+2] - c[t-2]; double delta = d[t+1] - d[t-1]."""
    ramp = np.outer(np.arange(20.0), np.ones(13))
    out = features(ramp)
    assert out.shape == (20, 3, 13)
    assert np.allclose(out[:, 0].mean(axis=0), 0)
    assert np.allclose(out[5:15, 1], 4.0)
    assert np.allclose(out[5:15, 2], 0.0)


@needs_espeak
def test_too_little_speech_is_refused_with_a_clear_message(vocab: Vocabulary) -> None:
    quiet = np.random.default_rng(0).normal(0, 30, 16000).astype(np.int16)
    with pytest.raises(AdaptationError, match="too little speech"):
        estimate([Sample(quiet, ("springer", "felix", "drei"))], vocab)


def _top1(recognizer: SphinxRecognizer, items: list[asr.Item], folder: Path) -> int:
    """How many utterances the recogniser's best phrase names the right move of."""
    right = 0
    for item in items:
        board = chess.Board(item.fen)
        recognizer.set_context(position_phrases(board, Vocabulary.default()))
        heard = recognizer.recognize(load_for_recognition(folder / f"{item.ident}.wav"), 16000)
        words = tuple(w for w in heard.best.split() if w not in TRAILING_WORDS)
        move = phrase_table(board, Vocabulary.default()).phrases.get(words)
        right += move is not None and move.uci() == item.move
    return right


@needs_espeak
@pytest.mark.slow
def test_enrolment_with_twelve_moves_teaches_the_recogniser_a_voice(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    """Twelve enrolment moves of one voice, then twenty other moves of it in other positions:
    the adapted recogniser hears more of them right (measured: 18 → 20 of 20)."""
    voice = "de+anika"  # a training voice, not one of the benchmark's
    enrol = asr.make_items(12, vocab, 11, voices=[voice])
    test = [
        asr.Item(**{**item.__dict__, "ident": f"test-{item.ident}"})
        for item in asr.make_items(20, vocab, 12, voices=[voice])
    ]
    for item in [*enrol, *test]:
        asr.synthesize(item, tmp_path)
    samples = [
        Sample(load_for_recognition(tmp_path / f"{item.ident}.wav"), item.phrase) for item in enrol
    ]
    adaptation = estimate(samples, vocab)
    # One of the twelve may be left out when its words cannot be aligned with the speech
    # (here the coordinate form "Bella sechs David sechs", since the corpus draws only phrases
    # players say): it is named, never learnt from wrongly.
    assert adaptation.utterances >= 11
    assert adaptation.utterances + len(adaptation.skipped) == 12
    before, after = adaptation.log_likelihood
    assert after > before, "the transform makes the enrolment speech more likely"
    path = tmp_path / "voice.mllr"
    adaptation.save(path)
    base = _top1(SphinxRecognizer(vocab), test, tmp_path)
    adapted = _top1(SphinxRecognizer(vocab, adaptation=path), test, tmp_path)
    assert adapted > base, (base, adapted)
    assert adapted >= 19


@needs_espeak
def test_long_enrolment_moves_are_aligned_not_skipped(tmp_path: Path, vocab: Vocabulary) -> None:
    """A five-word move and an en passant, slowly said: the recogniser's own beams lost their
    alignment and the recordings were wasted; alignment searches wider."""
    items = [
        asr.Item(
            "slow-en-passant",
            chess.STARTING_FEN,
            "c5b6",
            ("cesar", "nimmt", "bella", "sechs", "en", "passant"),
            "Zäsar nimmt Bella sechs ang passang",
            "de+anika",
            140,
            60,
            "en_passant",
        ),
        asr.Item(
            "slow-five-words",
            chess.STARTING_FEN,
            "f8d6",
            ("läufer", "felix", "acht", "david", "sechs"),
            "Läufer Felix acht Dahvitt sechs",
            "de+anika",
            130,
            35,
            "piece",
        ),
    ]
    samples = [Sample(load_for_recognition(asr.synthesize(i, tmp_path)), i.phrase) for i in items]
    model = adaptation._model(model_dir())
    results = adaptation._align(samples, vocab, Lexicon.load(), model)
    assert len(results) == 2 and None not in results


def test_the_noisy_enrolment_copies_have_pink_noise_at_the_asked_level() -> None:
    """Enrolment also learns from copies with pink noise at 10 and 20 dB, so that a voice
    learnt in a quiet room does not make a noisy one worse: the level is the one asked for,
    the power falls about 3 dB per octave, and the same seed gives the same copy."""
    tone = (3000 * np.sin(np.arange(32000) * 2 * np.pi * 440 / 16000)).astype(np.int16)
    for snr in (10.0, 20.0):
        noisy = adaptation.with_pink_noise(tone, snr, seed=4)
        noise = noisy.astype(float) - tone
        measured = 20 * np.log10(np.sqrt(np.mean(tone.astype(float) ** 2)) / noise.std())
        assert abs(measured - snr) < 0.2
        assert np.array_equal(noisy, adaptation.with_pink_noise(tone, snr, seed=4))
    pink = adaptation.with_pink_noise(np.full(64000, 1000, np.int16), 0.0, seed=7)
    power = np.abs(np.fft.rfft(pink.astype(float))) ** 2
    freqs = np.fft.rfftfreq(len(pink), 1 / 16000)
    band = [power[(freqs >= f) & (freqs < 2 * f)].sum() for f in (250, 500, 1000, 2000)]
    # Pink: equal power per octave (white noise would double it each octave).
    assert max(band) / min(band) < 1.6


@needs_espeak
def test_a_recording_of_other_words_is_not_learnt_from(tmp_path: Path, vocab: Vocabulary) -> None:
    """The player said another move than the one asked for: learning from it would teach the
    model wrong sounds, so it is skipped like an unusable recording."""
    texts = ("Dame Hector acht", "Turm Anna eins", "Springer Felix drei", "Läufer Zäsar vier")
    said = {text: synthesize(text, tmp_path, voice="de") for text in texts}
    right = [
        Sample(said["Dame Hector acht"], ("dame", "hector", "acht")),
        Sample(said["Turm Anna eins"], ("turm", "anna", "eins")),
        Sample(said["Springer Felix drei"], ("springer", "felix", "drei")),
        Sample(said["Läufer Zäsar vier"], ("läufer", "cesar", "vier")),
    ]
    other = [
        Sample(said["Dame Hector acht"], ("bauer", "bella", "zwei")),
        Sample(said["Turm Anna eins"], ("könig", "eva", "sieben")),
    ]
    model = adaptation._model(model_dir())
    results = adaptation._align([*right, *other], vocab, Lexicon.load(), model)
    used = [result is not None for result in results]
    assert used == [True, True, True, True, False, False]  # the two of other words are skipped


@needs_espeak
def test_an_adapted_recogniser_trusts_score_gaps_more_when_the_room_is_quiet(
    tmp_path: Path, vocab: Vocabulary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the player's voice learnt and nothing masking it, a rival move's score gap counts
    for more (CONFIDENCE_SCALE_QUIET_ADAPTED); in noise, or without adaptation, it does not."""
    path = tmp_path / "voice.mllr"
    _transform().save(path)
    clean = synthesize("Springer Felix drei", tmp_path)
    noisy = adaptation.with_pink_noise(clean, 10.0, seed=1)
    assert sphinx.dynamic_range_db(clean) >= sphinx.QUIET_DB > sphinx.dynamic_range_db(noisy)
    monkeypatch.setattr(sphinx, "CONFIDENCE_SCALE_QUIET_ADAPTED", 10_000.0)  # rivals vanish
    context = position_phrases(chess.Board(), vocab)
    heard = {}
    for name, recognizer, audio in [
        ("adapted, quiet", SphinxRecognizer(vocab, adaptation=path, parallel=False), clean),
        ("adapted, noisy", SphinxRecognizer(vocab, adaptation=path, parallel=False), noisy),
        ("not adapted, quiet", SphinxRecognizer(vocab, parallel=False), clean),
    ]:
        recognizer.set_context(context)
        heard[name] = recognizer.recognize(audio, 16000).nbest
    assert all(nbest[0][0] == "springer felix drei" for nbest in heard.values())
    assert all(confidence == 0.0 for _, confidence in heard["adapted, quiet"][1:])
    assert any(confidence > 0.0 for _, confidence in heard["not adapted, quiet"][1:])
    assert any(confidence > 0.0 for _, confidence in heard["adapted, noisy"][1:])


def test_saving_a_voice_onto_a_folder_fails_and_leaves_no_partial_file(tmp_path: Path) -> None:
    """``enrol --output FOLDER``: the error is reported by the command; nothing is left over."""
    folder = tmp_path / "voice.mllr"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        adaptation.write_atomically(folder, "transform")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["voice.mllr"]
    assert list(folder.iterdir()) == []
