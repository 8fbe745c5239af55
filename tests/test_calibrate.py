"""``python -m benchmarks calibrate``: Whisper's decision rule fitted on the tuning voices only,
with thresholds that keep wrong moves from being played and rarely asked back (issue 18 §3)."""

from __future__ import annotations

import numpy as np
import pytest
from speech_audio import needs_espeak

from benchmarks import asr, calibrate
from voice.config import Settings
from voice.speech.recognizers.whisper import CALIBRATION, Features
from voice.words.vocabulary import Vocabulary


def _samples(seed: int = 1, n: int = 600) -> list[calibrate.Sample]:
    """Utterances whose rightness follows a known logistic law of the lead and the fit."""
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(n):
        lead, logp = rng.uniform(0, 12), rng.uniform(-4, 0)
        truth = 1 / (1 + np.exp(-(0.8 * lead + 1.5 * logp + 1.0)))
        features = Features(lead, logp, 30.0 + rng.normal(0, 3), rng.uniform(0, 0.5), 1.0, True)
        samples.append(calibrate.Sample(features, bool(rng.random() < truth), True, "clean"))
        if index % 10 == 0:  # small talk: never right, far from every phrase
            talk = Features(rng.uniform(0, 2), rng.uniform(-6, -3), 30.0, 0.8, 4.0, True)
            samples.append(calibrate.Sample(talk, False, False, "clean"))
    return samples


def test_the_fit_recovers_what_decides_rightness() -> None:
    weights, _ = calibrate.fit(_samples())
    lead, fit, loudness, _, _ = weights
    assert lead > 0.3 and fit > 0.5  # a larger lead and a better fit make a right move likelier
    assert abs(loudness) < 0.2  # the level was noise here


def test_no_wrong_move_of_the_tuning_set_would_be_played_and_few_are_asked_back() -> None:
    samples = _samples()
    fitted = calibrate.calibrate(samples)
    p = np.array([s.features.probability(fitted) for s in samples])
    wrong = np.array([not s.right for s in samples])
    playable = np.array([s.playable(fitted) for s in samples])
    moves = sum(s.move for s in samples)
    assert fitted.unsure <= fitted.sure
    assert not np.any(wrong & playable & (p >= fitted.sure - calibrate.SURE_MARGIN))
    # The lowest such point: one step below it a wrong move could be played.
    below = np.round(p[p < fitted.sure - 0.0005], 3)
    step = float(below.max(initial=0.0))
    if step >= calibrate.SURE_RANGE[0]:
        assert np.any(wrong & playable & (p >= step - calibrate.SURE_MARGIN))
    asked = (p >= fitted.unsure) & (p < fitted.sure)
    assert np.sum(wrong & asked) <= calibrate.WRONG_ASKED * moves
    assert np.sum(~wrong & (p >= fitted.unsure)) > 0  # and right moves do get through
    text = calibrate.format_report(samples, fitted)
    assert "CALIBRATION = Calibration(" in text and f"sure={fitted.sure!r}," in text
    assert "talk clean" in text


def test_small_talk_is_not_any_sentence_the_benchmark_reports_on() -> None:
    assert not set(calibrate.SMALL_TALK) & set(asr.NON_CHESS)
    assert len(set(calibrate.SMALL_TALK)) == len(calibrate.SMALL_TALK)


@needs_espeak
@pytest.mark.slow
def test_a_small_calibration_hears_tuning_voices_through_the_end_pointer(
    settings: Settings, vocab: Vocabulary
) -> None:
    samples = calibrate.collect(settings, vocab, count=2, seed=3)
    moves = [s for s in samples if s.move]
    assert moves and {s.condition for s in moves} <= set(calibrate.CONDITIONS)
    assert any(not s.move for s in samples) and not any(s.right for s in samples if not s.move)
    assert CALIBRATION.sure > 0.5  # the shipped constants are what the report compares with


def test_a_count_below_one_is_one_clear_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.cli import main

    assert main(["calibrate", "--count", "0"]) == 2
    assert main(["latency", "--moves", "0"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert errors == [
        "python -m benchmarks calibrate: --count must be at least 1",
        "python -m benchmarks latency: --moves must be at least 1",
    ]


def test_an_underpromotion_a_close_rival_or_faint_speech_is_never_counted_as_played() -> None:
    """The calibration's ``sure`` is set over what the recogniser could have played: the
    program asks back underpromotions, close rivals and speech hardly above the room anyway."""
    clear = Features(8.0, -0.5, 40.0, 0.0, 0.0, True)
    assert calibrate.Sample(clear, False, True, "clean").playable(CALIBRATION)
    assert not calibrate.Sample(clear, False, True, "clean", True).playable(CALIBRATION)
    close = Features(CALIBRATION.play_lead / 2, -0.5, 40.0, 0.0, 0.0, True)
    assert not calibrate.Sample(close, False, True, "clean").playable(CALIBRATION)
    faint = Features(8.0, -0.5, CALIBRATION.play_level_db - 1, 0.0, 0.0, True)
    assert not calibrate.Sample(faint, False, True, "pink5").playable(CALIBRATION)


def test_seeds_that_are_not_numbers_are_one_clear_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["calibrate", "--seed", "101,x"])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith("'101,x': whole numbers separated by commas, such as 101,102")
