"""PocketSphinx, for real: synthesized German speech, per-position word graphs, rejection."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak, synthesize

from voice.config import Settings
from voice.speech.recognizers import RecognizerError, hypotheses, make_recognizer
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.recognizers.sphinx import SphinxRecognizer
from voice.words.matcher import Decision, match_move
from voice.words.vocabulary import Vocabulary

pytestmark = needs_espeak


@pytest.fixture(scope="module")
def recognizer() -> SphinxRecognizer:
    return SphinxRecognizer(Vocabulary.default())


def test_a_spoken_move_in_the_start_position_is_accepted(
    recognizer: SphinxRecognizer, tmp_path: Path, settings: Settings, vocab: Vocabulary
) -> None:
    board = chess.Board()
    recognizer.set_context(position_phrases(board, vocab))
    transcript = recognizer.recognize(synthesize("Springer Felix drei", tmp_path), 16000)
    assert transcript.complete
    assert transcript.best == "springer felix drei"
    assert 0 < transcript.nbest[0][1] <= 1
    result = match_move(board, hypotheses(transcript, vocab), vocab, settings.matching)
    assert result.decision == Decision.ACCEPT
    assert result.move == chess.Move.from_uci("g1f3")


def test_the_grammar_only_holds_what_may_be_said_now(
    recognizer: SphinxRecognizer, tmp_path: Path
) -> None:
    """With only yes/no allowed, a move cannot be heard: the words are not in the graph."""
    recognizer.set_context([("ja",), ("nein",)])
    audio = synthesize("Springer Felix drei", tmp_path)
    transcript = recognizer.recognize(audio, 16000)
    assert all(text in ("ja", "nein") for text, _ in transcript.nbest)


def test_a_phrase_cut_short_is_incomplete_and_never_a_move(
    recognizer: SphinxRecognizer, tmp_path: Path
) -> None:
    recognizer.set_context([("turm", "anna", "eins"), ("turm", "hector", "acht")])
    transcript = recognizer.recognize(synthesize("Turm Anna", tmp_path), 16000)
    assert transcript.nbest == ()
    assert transcript.reason == "partial"
    assert not transcript.complete


def test_german_small_talk_is_not_turned_into_a_move(
    recognizer: SphinxRecognizer, tmp_path: Path, vocab: Vocabulary
) -> None:
    recognizer.set_context(position_phrases(chess.Board(), vocab))
    sentence = synthesize("Ich hätte gerne einen Kaffee mit Milch und Zucker.", tmp_path)
    transcript = recognizer.recognize(sentence, 16000)
    assert transcript.nbest == ()
    assert transcript.reason == "out-of-grammar"


def test_silence_and_steady_noise_are_nothing_heard(
    recognizer: SphinxRecognizer, vocab: Vocabulary
) -> None:
    recognizer.set_context(position_phrases(chess.Board(), vocab))
    rng = np.random.default_rng(7)
    for audio in (np.zeros(16000, np.int16), rng.normal(0, 2000, 24000).astype(np.int16)):
        transcript = recognizer.recognize(audio, 16000)
        assert transcript.nbest == ()
        assert transcript.reason == "silence"


def test_streamed_chunks_give_the_same_result_as_the_whole_utterance(
    recognizer: SphinxRecognizer, tmp_path: Path, vocab: Vocabulary
) -> None:
    recognizer.set_context(position_phrases(chess.Board(), vocab))
    audio = synthesize("Bauer Eva vier", tmp_path)
    recognizer.start()
    partials = [recognizer.accept(audio[i : i + 1600], 16000) for i in range(0, len(audio), 1600)]
    streamed = recognizer.finish()
    assert any(p for p in partials), "the words heard so far are reported while streaming"
    assert streamed.best == recognizer.recognize(audio, 16000).best == "bauer eva vier"


def test_audio_at_another_rate_is_resampled(
    recognizer: SphinxRecognizer, tmp_path: Path, vocab: Vocabulary
) -> None:
    recognizer.set_context(position_phrases(chess.Board(), vocab))
    audio = synthesize("Springer Felix drei", tmp_path).astype(np.float32) / 32768
    at_48k = np.interp(np.arange(len(audio) * 3) / 3, np.arange(len(audio)), audio)
    assert recognizer.recognize(at_48k, 48000).best == "springer felix drei"


def test_a_context_word_outside_the_lexicon_is_spelt_by_rules(
    recognizer: SphinxRecognizer, tmp_path: Path
) -> None:
    recognizer.set_context([("alpha", "drei"), ("bravo", "vier")])
    assert recognizer.recognize(synthesize("Alpha drei", tmp_path), 16000).best == "alpha drei"


def test_switching_back_to_an_earlier_context_reuses_its_search(
    recognizer: SphinxRecognizer, vocab: Vocabulary
) -> None:
    start = position_phrases(chess.Board(), vocab)
    recognizer.set_context(start)
    first = recognizer._searches[start]
    recognizer.set_context([("ja",), ("nein",)])
    recognizer.set_context(start)
    assert recognizer._searches[start] == first


def test_an_unknown_backend_is_a_clear_error(settings: Settings, vocab: Vocabulary) -> None:
    with pytest.raises(RecognizerError, match="unknown recogniser 'julius'"):
        make_recognizer(settings, vocab, backend="julius")


def test_the_rival_search_groups_the_forms_of_one_target(recognizer: SphinxRecognizer) -> None:
    """Forms of the same move share a target; another square or promotion piece does not."""
    target = recognizer._target
    assert target(("springer", "gustav", "felix", "drei")) == ("felix", "drei")
    assert target(("springer", "felix", "drei", "schach")) == ("felix", "drei")
    assert target(("springer", "felix", "zwei")) != ("felix", "drei")
    assert target(("cesar", "schlägt", "bella", "acht", "wird", "dame")) == (
        "bella",
        "acht",
        "dame",
    )
    assert target(("kurze", "rochade")) == ("kurze", "rochade")
    # A mate may be said "… Schach matt": castling that mates is still castling, not a rival.
    assert target(("kurze", "rochade", "schach", "matt")) == ("kurze", "rochade")


def test_a_clear_move_names_its_nearest_rival_move_with_less_confidence(
    recognizer: SphinxRecognizer, tmp_path: Path, vocab: Vocabulary
) -> None:
    """The second search adds the best *other* move to the n-best list, below the best."""
    recognizer.set_context(position_phrases(chess.Board(), vocab))
    transcript = recognizer.recognize(synthesize("Springer Felix drei", tmp_path), 16000)
    targets = {recognizer._target(tuple(text.split())) for text, _ in transcript.nbest}
    assert transcript.best == "springer felix drei"
    assert len(targets) >= 2
    assert transcript.nbest[0][1] > max(conf for _, conf in transcript.nbest[1:])


def test_the_end_of_utterance_check_skips_the_rival_search(
    recognizer: SphinxRecognizer, tmp_path: Path, vocab: Vocabulary
) -> None:
    """alternatives=False (the end-pointer's "is this a whole phrase?") hears the same move but
    spends no decodes on rivals: they sat between the player's words and the answer."""
    recognizer.set_context(position_phrases(chess.Board(), vocab))
    audio = synthesize("Springer Felix drei", tmp_path)
    quick = recognizer.recognize(audio, 16000, alternatives=False)
    full = recognizer.recognize(audio, 16000)
    assert quick.complete and quick.best == full.best == "springer felix drei"
    quick_targets = {recognizer._target(tuple(text.split())) for text, _ in quick.nbest}
    full_targets = {recognizer._target(tuple(text.split())) for text, _ in full.nbest}
    assert len(quick_targets) == 1 < len(full_targets)


def test_the_answer_after_the_completion_check_reuses_its_first_pass(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    """At a short pause the listener asks "is it a whole phrase?" (no rivals), then asks for
    the same utterance in full: only the rival search is new work, and the result is exactly
    what a fresh recogniser hears."""
    board = chess.Board()
    audio = synthesize("Springer Felix drei", tmp_path)
    fresh = SphinxRecognizer(vocab)
    fresh.set_context(position_phrases(board, vocab))
    expected = fresh.recognize(audio, 16000)

    checked = SphinxRecognizer(vocab)
    checked.set_context(position_phrases(board, vocab))
    first_passes: list[int] = []
    run = checked._run

    def counting(*args: object) -> object:
        first_passes.append(1)
        return run(*args)  # type: ignore[arg-type]

    checked._run = counting  # type: ignore[method-assign]
    assert checked.recognize(audio, 16000, alternatives=False).best == "springer felix drei"
    answer = checked.recognize(audio, 16000)
    assert len(first_passes) == 1
    assert answer.nbest == expected.nbest
    # Other audio, or another context, is decoded afresh.
    checked.recognize(synthesize("Springer Cesar drei", tmp_path), 16000)
    assert len(first_passes) == 2


def test_a_check_word_is_heard_only_after_a_move_that_gives_check(
    recognizer: SphinxRecognizer, tmp_path: Path, vocab: Vocabulary
) -> None:
    board = chess.Board()
    for san in ("e4", "f5"):
        board.push_san(san)
    recognizer.set_context(position_phrases(board, vocab))
    check = recognizer.recognize(synthesize("Dame Hector fünf Schach", tmp_path), 16000)
    assert check.best == "dame hector fünf schach"
    quiet = recognizer.recognize(synthesize("Springer Felix drei matt", tmp_path), 16000)
    assert all(not text.endswith(("schach", "matt")) for text, _ in quiet.nbest)
