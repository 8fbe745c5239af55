"""The recognition benchmark: its corpus, its outcome classes and one small real run."""

from __future__ import annotations

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak

from voice.bench import asr
from voice.config import Settings
from voice.matcher import Decision
from voice.vocabulary import Vocabulary


def test_the_corpus_is_repeatable_and_covers_every_special_kind_of_move(
    vocab: Vocabulary,
) -> None:
    items = asr.make_items(60, vocab, seed=11)
    assert items == asr.make_items(60, vocab, seed=11)
    kinds = {item.category for item in items}
    assert {"castling", "promotion", "en_passant", "disambiguated"} <= kinds
    assert len({item.voice for item in items}) >= 8
    for item in items:
        board = chess.Board(item.fen)
        move = chess.Move.from_uci(item.move or "")
        assert move in board.legal_moves
        assert asr.category(board, move) == item.category


def test_non_chess_sentences_are_said_by_several_voices_in_several_positions(
    vocab: Vocabulary,
) -> None:
    fens = [item.fen for item in asr.make_items(20, vocab, seed=3)]
    items = asr.non_chess_items(3, fens)
    assert len(items) == 3 * len(asr.NON_CHESS)
    assert all(item.move is None for item in items)
    assert len({item.voice for item in items}) >= 8
    assert len({item.fen for item in items}) > 3


def test_outcomes_count_a_confirmed_wrong_move_as_wrong_and_a_choice_as_neither() -> None:
    right, other = chess.Move.from_uci("g1f3"), chess.Move.from_uci("b1c3")
    assert asr.outcome(Decision.ACCEPT, right, "g1f3") == "correct"
    assert asr.outcome(Decision.CONFIRM, right, "g1f3") == "correct"
    assert asr.outcome(Decision.CONFIRM, other, "g1f3") == "wrong"
    assert asr.outcome(Decision.CHOOSE, None, "g1f3") == "choose"
    assert asr.outcome(Decision.REJECT, None, "g1f3") == "rejected"
    assert asr.outcome(Decision.CHOOSE, None, None) == "proposed"
    assert asr.outcome(Decision.REJECT, None, None) == "rejected"


def test_word_confusions_align_substitutions_and_missing_words() -> None:
    said = ("bauer", "bella", "schlägt", "cesar", "drei")
    heard = ("bauer", "eva", "cesar", "zwei")
    kinds = asr.word_kinds(Vocabulary.default())
    assert sorted(asr._word_confusions(said, heard, kinds)) == sorted(
        [("bella", "eva"), ("schlägt", "-"), ("drei", "zwei")]
    )


def test_noise_is_mixed_at_the_requested_signal_to_noise_ratio() -> None:
    rng = np.random.default_rng(0)
    speech = (np.sin(np.arange(16000) / 5) * 8000).astype(np.int16)
    noise = rng.normal(0, 0.1, 64000)
    mixed = asr.with_noise(speech, noise, 10.0, offset=123).astype(np.float64)
    added = mixed - speech
    snr = 20 * np.log10(np.sqrt(np.mean(speech.astype(np.float64) ** 2)) / np.std(added))
    assert snr == pytest.approx(10.0, abs=0.2)


@needs_espeak
@pytest.mark.slow
def test_a_small_run_reports_every_condition(settings: Settings, vocab: Vocabulary) -> None:
    report = asr.run(settings, vocab, count=4, seed=5)
    for condition in (*asr.CONDITIONS, "non-chess speech", "noise alone"):
        assert report.tallies[condition].count > 0, condition
    assert report.tallies["clean"].count == 4
    text = asr.format_report(report, backend="sphinx", seed=5, failures=3)
    assert "noise10db" in text
    assert "proposed a move" in text
    assert report.rss_mb > 0
