"""The recognition benchmark: its corpus, its outcome classes and one small real run."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak

from voice.bench import asr
from voice.config import Settings
from voice.matcher import Decision
from voice.recognizers.adaptation import Adaptation, default_path
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


def test_heard_first_counts_utterances_whose_best_phrase_names_the_right_move(
    settings: Settings, vocab: Vocabulary
) -> None:
    """The ceiling of any decision rule: how often the recogniser's own first phrase was the
    right move. Clean synthesized moves are mostly heard first; what is not a move never is."""
    report = asr.run(settings, vocab, count=6, seed=5)
    clean = report.tallies["clean"]
    assert clean.outcomes["correct"] <= clean.first <= clean.count
    assert clean.first >= 4
    assert report.tallies["non-chess speech"].first == 0
    assert report.tallies["noise alone"].first == 0
    header, row = asr.format_report(report, backend="sphinx", seed=5).splitlines()[2:4]
    assert header.endswith("heard first")
    assert row.endswith(f"{100 * clean.first / clean.count:.1f}%")


def test_the_training_voices_are_real_variants_none_of_them_in_the_benchmark(
    vocab: Vocabulary,
) -> None:
    """Pronunciations are chosen on the training voices; the benchmark's figures stay figures
    of voices nothing was tuned on."""
    assert not set(asr.TRAINING_VOICES) & set(asr.VOICES)
    items = asr.make_items(40, vocab, seed=11, voices=asr.TRAINING_VOICES)
    assert {item.voice for item in items} <= set(asr.TRAINING_VOICES)
    sentences = asr.non_chess_items(11, [items[0].fen], voices=asr.TRAINING_VOICES)
    assert {item.voice for item in sentences} <= set(asr.TRAINING_VOICES)


@needs_espeak
def test_every_training_voice_is_an_espeak_ng_variant() -> None:
    import subprocess

    listing = subprocess.run(
        ["espeak-ng", "--voices=variant"], capture_output=True, text=True, check=True
    ).stdout
    variants = {line.split()[-1].removeprefix("!v/") for line in listing.splitlines()[1:] if line}
    for voice in asr.TRAINING_VOICES:
        assert voice.removeprefix("de+") in {v.split("/")[-1] for v in variants}, voice


@needs_espeak
@pytest.mark.slow
def test_a_candidate_pronunciation_file_is_tried_on_the_training_voices(
    settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    extra = tmp_path / "try.dict"
    extra.write_text("eva IY V AA\n", encoding="utf-8")
    report = asr.run(settings, vocab, count=3, seed=5, voices=asr.TRAINING_VOICES, lexicon=[extra])
    assert report.tallies["clean"].count == 3
    assert set(report.by_voice) == set(asr.TRAINING_VOICES)
    text = asr.format_report(report, backend="sphinx", seed=5, voices="training")
    assert "training voices" in text


def test_a_sentences_file_gives_one_sentence_a_line_safe_to_hand_to_espeak(
    tmp_path: Path,
) -> None:
    text = tmp_path / "talk.txt"
    text.write_text("# table talk\nNoch einen Kaffee?\n\n-A zeigt alle Namen\n", "utf-8")
    assert asr.read_sentences(text) == ["Noch einen Kaffee?", "A zeigt alle Namen"]
    (tmp_path / "empty.txt").write_text("\n# nothing\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="no sentences"):
        asr.read_sentences(tmp_path / "empty.txt")


@needs_espeak
def test_the_benchmark_measures_false_moves_on_the_sentences_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--sentences FILE: more text than the built-in 40 sentences, each said once."""
    from voice.cli import main

    text = tmp_path / "talk.txt"
    text.write_text("Möchtest du noch einen Kaffee\nDas Fenster ist offen\n", "utf-8")
    assert main(["bench", "asr", "--count", "1", "--sentences", str(text)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "non-chess" in line]
    assert rows and rows[0].split()[2] == "2"  # "non-chess speech   2 proposed a move ..."


def test_a_candidate_pronunciation_with_an_unknown_phone_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from voice.cli import main

    bad = tmp_path / "bad.dict"
    bad.write_text("eva EE V AA\n", encoding="utf-8")
    assert main(["bench", "asr", "--count", "1", "--lexicon", str(bad)]) == 1
    assert "unknown phones ['EE']" in capsys.readouterr().err


def test_the_benchmark_measures_the_shipped_recogniser_even_when_the_user_enrolled(
    settings: Settings, vocab: Vocabulary
) -> None:
    """[speech] adaptation = "auto" must not turn the benchmark into a measure of the user's
    own voice: a transform that ruins recognition, saved as the user's voice, is not used."""
    shipped = asr.run(settings, vocab, count=4, seed=5)
    ruinous = Adaptation(np.zeros((3, 13, 13)), np.zeros((3, 13)))
    ruinous.save(default_path())
    report = asr.run(settings, vocab, count=4, seed=5)
    for condition, tally in shipped.tallies.items():
        assert report.tallies[condition].outcomes == tally.outcomes, condition


def test_with_enrol_each_voice_is_heard_by_a_recogniser_adapted_to_it(
    settings: Settings, vocab: Vocabulary
) -> None:
    report = asr.run(settings, vocab, count=6, seed=5, voices=("de", "de+m3"), enrol=8)
    assert report.tallies["clean"].count == 6
    assert report.tallies["clean"].outcomes["correct"] >= 5
    text = asr.format_report(report, backend="sphinx", seed=5, enrol=8)
    assert "enrolled with 8 moves each" in text.splitlines()[0]


def test_learning_from_play_keeps_what_a_game_would_play_with_the_words_heard(
    settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    """--learn: moves accepted, asked back or picked from a choice are learnt with the words
    they were heard as; what a game would reject (small talk) is not."""
    from voice.phrases import phrase_table
    from voice.recognizers.adaptation import Sample
    from voice.recognizers.sphinx import SphinxRecognizer

    moves = asr.make_items(6, vocab, 5, voices=("de",))
    talk = asr.non_chess_items(5, [moves[0].fen], repeats=1, voices=("de",))[:2]
    items = [*moves, *talk]
    samples = [
        Sample(asr.load_for_recognition(asr._synthesize(item, tmp_path)), item.phrase)
        for item in items
    ]
    kept = asr._played(samples, items, vocab, SphinxRecognizer(vocab, parallel=False), settings)
    assert 4 <= len(kept) <= len(moves)
    talk_audio = [sample.pcm for sample in samples[len(moves) :]]
    assert not any(any(k.pcm is t for t in talk_audio) for k in kept)
    for sample in kept:
        item = items[[s.pcm is sample.pcm for s in samples].index(True)]
        words = tuple(w for w in sample.phrase if w not in asr.TRAILING_WORDS)
        assert words in phrase_table(chess.Board(item.fen), vocab).phrases  # a move there


def test_with_learn_the_heading_says_how_the_voices_were_learnt(
    settings: Settings, vocab: Vocabulary
) -> None:
    report = asr.run(settings, vocab, count=4, seed=5, voices=("de", "de+m3"), learn=8)
    assert report.tallies["clean"].count == 4
    text = asr.format_report(report, backend="sphinx", seed=5, learn=8)
    assert "learnt from 8 moves played each" in text.splitlines()[0]
