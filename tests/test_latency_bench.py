"""The latency benchmark (``python -m benchmarks latency``, issue 18 §4): end of speech to the
first sound of the spoken answer, through the whole program on the virtual devices.

The figures are measured, never asserted (the machines are shared); the tests prove that every
move said gets an answer that is timed, and that the noisy condition is built as a room makes it.
"""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from pulse import PulseAudio

from benchmarks import latency, rooms
from voice.config import load_settings, override
from voice.speech.wavio import RATE
from voice.words.vocabulary import Vocabulary


def _vocab() -> Vocabulary:
    settings = load_settings(look_in_user_dir=False)
    return Vocabulary.of(settings)


def test_noise_runs_before_during_and_after_the_words_at_the_ratio_named() -> None:
    words = (np.sin(np.arange(RATE) / 5.0) * 8000).astype(np.int16)
    rng = np.random.default_rng(1)

    def noise(length: int) -> np.ndarray:
        return rng.normal(0, 0.1, length)

    quiet, start = rooms.in_room(words, None, noise)
    pause = round(rooms.ROOM_PAUSE_S * RATE)
    assert start == pause and len(quiet) == RATE + 2 * pause
    assert np.abs(quiet[:start]).max() <= 1, "faint hiss before the words in a quiet room"
    noisy, start = rooms.in_room(words, 10.0, noise)
    assert start == int(rooms.ROOM_LEAD_S * RATE)
    lead = noisy[:start].astype(np.float64)
    assert np.sqrt(np.mean(lead**2)) > 100, "the room is noisy before the words"
    quiet = np.concatenate([words, np.zeros(pause, dtype=np.int16)]).astype(np.float64)
    added = noisy[start:].astype(np.float64) - quiet
    ratio = 10 * np.log10(np.mean(quiet.astype(np.float64) ** 2) / np.mean(added**2))
    assert abs(ratio - 10.0) < 0.5
    assert rooms.speech_snr_db(quiet, added / 32768) > 10.0  # the speech frames stand higher


def test_answers_are_told_apart_by_what_was_printed() -> None:
    vocab, board = _vocab(), chess.Board()
    assert latency.answer_kind("Springer Felix drei", "Springer Felix drei", board, vocab) == (
        "played"
    )
    assert latency.answer_kind("Springer Felix drei?", "Springer Felix drei", board, vocab) == (
        "asked"
    )
    assert latency.answer_kind("Springer Hector drei", "Springer Felix drei", board, vocab) == (
        "other move"
    )
    assert latency.answer_kind("Nicht verstanden.", "Springer Felix drei", board, vocab) == (
        "refused"
    )
    offer = "Eins: Springer Felix drei. Zwei: Springer Hector drei. Welcher Zug? Bitte die Nummer."
    assert latency.answer_kind(offer, "Springer Felix drei", board, vocab) == "offered"
    assert latency.answer_kind("", "Springer Felix drei", board, vocab) == "silent"


def test_the_wait_is_told_per_kind_of_answer() -> None:
    """A refusal waits for the full pause, a move heard whole for the short one: the report
    says each kind's wait apart, as well as over all."""
    trials = [
        latency.Trial("clean", "Eva vier", "Eva vier", "played", 400.0),
        latency.Trial("clean", "Eva vier", "Eva vier", "played", 300.0),
        latency.Trial("pink10", "Eva vier", "Eva vier?", "asked", 500.0),
        latency.Trial("pink10", "Eva vier", "Nicht verstanden.", "refused", 700.0),
        latency.Trial("pink10", "Eva vier", "", "silent", None),
    ]
    lines = latency.by_answer(trials)
    assert lines[1].split() == ["played", "2", "350", "400"]
    assert lines[2].split() == ["asked", "1", "500", "500"]
    assert lines[3].split() == ["refused", "1", "700", "700"]
    assert len(lines) == 4  # nothing for kinds that did not occur, nor for silence
    text = latency.format_report(latency.LatencyReport(tuple(trials), 300.0))
    assert "played       2     350     400" in text


@pytest.mark.audio
@pytest.mark.slow
def test_every_move_said_to_the_program_is_answered_aloud_and_timed(pulse: PulseAudio) -> None:
    settings = load_settings(look_in_user_dir=False)
    report = latency.run(settings, _vocab(), moves=2, pulse=pulse)
    assert [t.condition for t in report.trials] == ["clean", "pink10", "babble10"] * 2
    for trial in report.trials:
        if trial.condition == "clean":
            assert trial.answer != "silent", trial
        if trial.answer != "silent":  # in noise, words that start no utterance are a finding
            assert trial.latency_ms is not None and trial.latency_ms > 0, trial
    assert report.peak_rss_mb > 50
    text = latency.format_report(report)
    assert "babble10" in text and "pink10" in text and "target: p95 <= 400 ms" in text
    print("\n" + text)


def test_the_program_measured_hears_as_shipped_and_learns_nothing(tmp_path: Path) -> None:
    """The child game runs with the benchmark's own settings (the language it waits for, the
    words it says, the engine), except that it neither votes with a voice the user enrolled
    nor learns one from the benchmark's synthetic voices (which would start learning mid-run
    and save it as the user's)."""
    settings = override(
        load_settings(look_in_user_dir=False),
        language={"blind": "en"},
        speech={"adaptation": "auto", "learn_from_games": True},
    )
    command = latency.play_command(tmp_path / "game.jsonl", settings)
    child = load_settings(Path(command[command.index("--config") + 1]))
    assert child.speech.adaptation == "off" and not child.speech.learn_from_games
    assert child == override(settings, speech={"adaptation": "off", "learn_from_games": False})
