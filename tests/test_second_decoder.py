"""The rival search's second decoder process: the same answers as one process, on two cores,
and nothing lost when the process cannot start or dies."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak, synthesize

from voice.speech.recognizers import Transcript
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.recognizers.second_decoder import SecondDecoder
from voice.speech.recognizers.sphinx import SphinxRecognizer
from voice.speech.recognizers.sphinx_decoder import padded_utterance
from voice.speech.wavio import as_pcm16, write_wav
from voice.words.vocabulary import Vocabulary

pytestmark = [needs_espeak, pytest.mark.slow]  # decodes real speech, in a second process too

ROOT = Path(__file__).resolve().parent.parent

SPOKEN = [
    (chess.STARTING_FEN, "Springer Felix drei"),
    (chess.STARTING_FEN, "Bauer Eva vier"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Lange Rochade"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "Bella acht Dame"),
]


def _without_time(transcript: Transcript) -> Transcript:
    return replace(transcript, decode_ms=0.0)


@pytest.fixture(scope="module")
def audio(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, np.ndarray]]:
    folder = tmp_path_factory.mktemp("second")
    return [(fen, synthesize(text, folder)) for fen, text in SPOKEN]


@pytest.fixture(scope="module")
def one_process(audio: list[tuple[str, np.ndarray]]) -> list[Transcript]:
    """What a recogniser without a second process hears."""
    vocab = Vocabulary.default()
    return _hear_all(SphinxRecognizer(vocab, parallel=False), audio, vocab)


def _hear_all(
    recognizer: SphinxRecognizer, audio: list[tuple[str, np.ndarray]], vocab: Vocabulary
) -> list[Transcript]:
    answers = []
    for fen, samples in audio:
        recognizer.set_context(position_phrases(chess.Board(fen), vocab))
        answers.append(_without_time(recognizer.recognize(samples, 16000)))
    return answers


def test_the_rival_search_on_two_processes_gives_the_same_answers_as_on_one(
    audio: list[tuple[str, np.ndarray]], one_process: list[Transcript], vocab: Vocabulary
) -> None:
    recognizer = SphinxRecognizer(vocab, parallel=True)
    try:
        assert recognizer.wait_for_second_decoder()
        assert _hear_all(recognizer, audio, vocab) == one_process
        assert recognizer._second is not None
        # Every move had its "every other move" search done in the other process.
        assert recognizer._second.answered == len(SPOKEN)
        assert all(answer.nbest for answer in one_process)
        assert recognizer.second_process_memory_mb() > 10
    finally:
        recognizer.close()


def test_a_second_process_that_dies_mid_game_loses_nothing(
    audio: list[tuple[str, np.ndarray]],
    one_process: list[Transcript],
    vocab: Vocabulary,
    caplog: pytest.LogCaptureFixture,
) -> None:
    recognizer = SphinxRecognizer(vocab, parallel=True)
    assert recognizer.wait_for_second_decoder()
    assert recognizer._second is not None
    first = _hear_all(recognizer, audio[:1], vocab)
    os.kill(recognizer._second.pid or 0, signal.SIGKILL)
    assert recognizer._second._process is not None
    recognizer._second._process.wait(timeout=5)
    with caplog.at_level(logging.WARNING):
        rest = _hear_all(recognizer, audio[1:], vocab)
    assert first + rest == one_process
    assert "second decoder process given up" in caplog.text
    assert not recognizer.wait_for_second_decoder(timeout=0)


def test_a_search_the_second_process_no_longer_holds_is_sent_again(
    audio: list[tuple[str, np.ndarray]], vocab: Vocabulary
) -> None:
    """The helper keeps only its latest searches; asked for one it dropped, it says so and
    gets the graph again instead of answering wrongly."""
    recognizer = SphinxRecognizer(vocab, parallel=True)
    try:
        assert recognizer.wait_for_second_decoder()
        second = recognizer._second
        assert second is not None
        fen, samples = audio[0]
        phrases = frozenset(position_phrases(chess.Board(fen), vocab))
        name, graph = recognizer._search(phrases)
        padded, _ = padded_utterance(as_pcm16(samples, 16000))
        second._sent.add(name)  # as if sent before and since dropped by the helper
        pending = second.submit(name, graph, recognizer._added, padded.tobytes())
        assert pending is not None
        words, _ = second.result(pending) or ("", 0.0)
        assert words.split() == ["springer", "felix", "drei"]
    finally:
        recognizer.close()


def test_one_core_means_one_process(monkeypatch: pytest.MonkeyPatch, vocab: Vocabulary) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0})
    recognizer = SphinxRecognizer(vocab)
    assert recognizer._second is None
    assert not recognizer.wait_for_second_decoder(timeout=0)
    assert recognizer.second_process_memory_mb() == 0.0


def test_a_recogniser_that_only_hears_commands_starts_no_second_process(
    vocab: Vocabulary, tmp_path: Path
) -> None:
    """The talking clock listens for commands only: the rival search never runs for them, so
    the helper (about 60 MB) is not started; the first context with a move starts it."""
    recognizer = SphinxRecognizer(vocab, parallel=True)
    try:
        recognizer.set_context([("zeit",), ("züge",), ("stopp",)])
        heard = recognizer.recognize(synthesize("Zeit", tmp_path), 16000)
        assert heard.best == "zeit"
        assert recognizer._second is None
        recognizer.set_context(position_phrases(chess.Board(), vocab))
        assert recognizer._second is not None
        assert recognizer.wait_for_second_decoder()
    finally:
        recognizer.close()


def test_closing_the_recognizer_ends_its_second_process(vocab: Vocabulary) -> None:
    recognizer = SphinxRecognizer(vocab, parallel=True)
    assert recognizer.wait_for_second_decoder()
    assert recognizer._second is not None
    process = recognizer._second._process
    assert process is not None
    recognizer.close()
    assert process.poll() is not None


def test_a_second_process_that_cannot_start_is_reported_and_left_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    second = SecondDecoder("springer S P R IH NG ER\n", {"hmm": str(tmp_path), "lm": None})
    with caplog.at_level(logging.WARNING):
        assert not second.ready(timeout=30)
    assert "second decoder process given up (could not start" in caplog.text
    assert second.submit("context1", (0, 1, ()), (), b"") is None


def test_a_script_without_a_main_guard_gets_the_second_process_and_runs_once(
    tmp_path: Path,
) -> None:
    """The helper is started as a script of its own, not with multiprocessing's "spawn",
    which would run a plain script's top level again in the helper."""
    wav = tmp_path / "move.wav"
    write_wav(wav, synthesize("Springer Felix drei", tmp_path))
    script = tmp_path / "script.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import chess
            from voice.speech.recognizers.grammar import position_phrases
            from voice.speech.recognizers.sphinx import SphinxRecognizer
            from voice.words.vocabulary import Vocabulary
            from voice.speech.wavio import load_for_recognition

            vocab = Vocabulary.default()
            recognizer = SphinxRecognizer(vocab, parallel=True)
            print("helper", recognizer.wait_for_second_decoder(timeout=30))
            recognizer.set_context(position_phrases(chess.Board(), vocab))
            print("heard", recognizer.recognize(load_for_recognition({str(wav)!r}), 16000).best)
            """
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["helper True", "heard springer felix drei"]
