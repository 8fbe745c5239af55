"""The recognition benchmark: its corpus, its outcome classes and one small real run."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak

from benchmarks import asr
from voice.config import Settings, override
from voice.speech.recognizers.adaptation import Adaptation, default_path
from voice.words.matcher import Decision
from voice.words.vocabulary import Vocabulary

pytestmark = pytest.mark.slow  # benchmarks over synthesised corpora


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


def test_a_command_heard_is_counted_as_the_game_would_carry_it_out() -> None:
    """The game reads commands before moves: "Reihe sieben" heard for a move, or for small
    talk, is answered as a request, whatever move the matcher would rank from its words; a
    "Remis" or "Aufgabe" heard is a command that changes the game, counted with the wrong
    moves (for small talk: with the moves proposed)."""
    other = chess.Move.from_uci("b1c3")
    assert asr.outcome(Decision.CONFIRM, other, "g1f3", command="rank") == "request"
    assert asr.outcome(Decision.CHOOSE, None, None, command="time") == "request"
    assert asr.outcome(Decision.REJECT, None, "g1f3", command="draw") == "command"
    assert asr.outcome(Decision.REJECT, None, None, command="resign") == "command"
    tally = asr.Tally(Counter({"wrong": 1, "command": 1, "request": 1, "correct": 1}))
    assert tally.wrong == 50.0
    talk = asr.Tally(Counter({"proposed": 1, "command": 1, "request": 1, "rejected": 1}))
    assert talk.proposed == 50.0


def test_word_confusions_align_substitutions_and_missing_words() -> None:
    said = ("bauer", "bella", "schlägt", "cesar", "drei")
    heard = ("bauer", "eva", "cesar", "zwei")
    kinds = asr.word_kinds(Vocabulary.default())
    assert sorted(asr._word_confusions(said, heard, kinds)) == sorted(
        [("bella", "eva"), ("schlägt", "-"), ("drei", "zwei")]
    )


def test_noise_is_mixed_at_the_requested_power_ratio_over_the_whole_recording() -> None:
    """As a room makes it: the noise's power against the average power of the whole recording,
    its padded pauses included; over the speech frames alone the ratio is higher by as much as
    the pauses weigh (a 1 s tone in 0.6 s of pauses: 10 dB whole is 12.0 dB over the tone)."""
    tone = (np.sin(np.arange(16000) / 5) * 8000).astype(np.int16)
    recording = asr.rooms.pad(tone)
    assert len(recording) == 16000 + 2 * round(asr.rooms.PAD_S * 16000)
    noise = np.random.default_rng(0).normal(0, 0.1, 64000)
    mixed = asr.rooms.mix_whole(recording, noise, 10.0)
    added = (mixed.astype(np.float64) - recording) / 32768
    whole = np.mean((recording / 32768) ** 2) / np.mean(added**2)
    assert 10 * np.log10(whole) == pytest.approx(10.0, abs=0.02)
    scaled = asr.rooms.scaled_noise(recording, noise, 10.0)
    expected = 10.0 + 10 * np.log10(len(recording) / 16000)
    assert asr.rooms.speech_snr_db(recording, scaled) == pytest.approx(expected, abs=0.2)


def test_recordings_are_padded_with_faint_hiss_not_digital_zeros() -> None:
    """No microphone gives digital zeros, and PocketSphinx hears small talk as moves in them."""
    padded = asr.rooms.pad(np.full(800, 5000, dtype=np.int16))
    pause = padded[: round(asr.rooms.PAD_S * 16000)]
    assert set(np.unique(pause)) == {-1, 0, 1}
    assert np.array_equal(padded, asr.rooms.pad(np.full(800, 5000, dtype=np.int16)))


def test_babble_is_three_other_voices_saying_sentences_without_a_move_word(
    vocab: Vocabulary,
) -> None:
    moves = vocab.move_words()
    assert all(not set(vocab.normalize(text)) & moves for text in asr.babble_sentences(vocab))
    assert "Ich brauche eine kurze Pause." not in asr.babble_sentences(vocab)  # kurze Rochade
    corpus = asr.make_items(20, vocab, 5, voices=asr.REPORT_VOICES)
    for voices in (asr.REPORT_VOICES, ("de", "de+m3")):  # two voices: others join the babble
        bank = asr.babble_bank(5, vocab, voices)
        rng = random.Random(5)
        for index, said in enumerate(corpus):
            item = replace(said, voice=voices[index % len(voices)])
            plan = asr.babble_plan(item, bank, rng)
            assert len(plan) == asr.BABBLE_TALKERS
            assert len({talker.voice for talker in plan}) == asr.BABBLE_TALKERS
            assert item.voice not in {talker.voice for talker in plan}
            assert len({talker.text for talker in plan}) == asr.BABBLE_TALKERS
            for talker in plan:
                assert talker.text in asr.NON_CHESS and talker.move is None
                assert not set(vocab.normalize(talker.text)) & set(item.phrase)


def test_babble_loops_every_talker_to_the_length_at_the_same_power() -> None:
    rng = np.random.default_rng(1)
    quiet = (rng.normal(0, 300, 8000)).astype(np.int16)
    loud = (rng.normal(0, 9000, 5000)).astype(np.int16)
    mixed = asr.rooms.babble([quiet, loud], 20000, [100, 4000])
    assert len(mixed) == 20000
    alone = [asr.rooms.babble([pcm], 20000, [start]) for pcm, start in ((quiet, 100), (loud, 4000))]
    assert np.mean(alone[0] ** 2) == pytest.approx(np.mean(alone[1] ** 2), rel=0.05)
    assert np.allclose(mixed, alone[0] + alone[1])


@needs_espeak
@pytest.mark.slow
def test_a_small_run_tallies_the_chosen_conditions_and_moves_played_without_a_question(
    settings: Settings, vocab: Vocabulary
) -> None:
    report = asr.run(
        settings,
        vocab,
        count=4,
        seed=5,
        backend="sphinx",
        conditions=("clean", "babble10", "accented"),
    )
    assert list(report.tallies) == ["clean", "babble10", "accented"]
    for tally in report.tallies.values():
        assert tally.count == 4
        assert 0 <= tally.played <= tally.outcomes["wrong"]
        assert 0 <= tally.at_once <= tally.outcomes["correct"]
        assert 0 <= tally.choose_right <= tally.outcomes["choose"]
    assert report.tallies["clean"].at_once >= 1  # clean moves, heard clearly, are played
    babble = report.tallies["babble10"].speech_snr
    assert len(babble) == 4 and all(10.0 < snr < 16.0 for snr in babble)
    accented = {v: sum(report.by_voice[v]["accented"].values()) for v in asr.ACCENTS}
    assert accented == {"ar": 2, "fa": 2}
    text = asr.format_report(report, backend="sphinx", seed=5, failures=3)
    assert "at once" in text.splitlines()[2] and "played" in text.splitlines()[2]
    assert "non-chess" not in text
    for aim in ("clean: right move ≥ 97%", "babble10: right move ≥ 85%", "accented: right"):
        line = next(line for line in text.splitlines() if aim in line)
        assert line.endswith(" met")  # "met" or "NOT met"
    assert "wrong move played without a question = 0" in text
    figures = asr.figures(report, backend="sphinx", seed=5)
    conditions = json.loads(json.dumps(figures))["conditions"]
    assert (
        conditions["babble10"]["played_without_question_count"] == report.tallies["babble10"].played
    )
    clean = report.tallies["clean"]
    assert conditions["clean"]["right_at_once"] == pytest.approx(100 * clean.at_once / 4)
    assert report.rss_mb > 0


def test_heard_first_counts_utterances_whose_best_phrase_names_the_right_move(
    settings: Settings, vocab: Vocabulary
) -> None:
    """The ceiling of any decision rule: how often the recogniser's own first phrase was the
    right move. Clean synthesized moves are mostly heard first; what is not a move never is."""
    report = asr.run(
        settings,
        vocab,
        count=6,
        seed=5,
        backend="sphinx",
        conditions=("clean", "non-chess", "noise"),
        repeats=1,
    )
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
    assert asr.VOICE_SETS["tuning"] == asr.VOICE_SETS["training"]
    assert asr.VOICE_SETS["tuning"].voices == asr.TRAINING_VOICES
    assert asr.VOICE_SETS["benchmark"].voices == asr.VOICES
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
    report = asr.run(
        settings,
        vocab,
        count=3,
        seed=5,
        backend="sphinx",
        voices=asr.TRAINING_VOICES,
        lexicon=[extra],
        conditions=("clean",),
    )
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
    from benchmarks.cli import main

    text = tmp_path / "talk.txt"
    text.write_text("Möchtest du noch einen Kaffee\nDas Fenster ist offen\n", "utf-8")
    argv = ["asr", "--count", "1", "--backend", "sphinx", "--sentences", str(text)]
    assert main([*argv, "--conditions", "clean,non-chess"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "non-chess" in line]
    assert rows and rows[0].split()[2] == "2"  # "non-chess speech   2 proposed a move ..."


@needs_espeak
def test_a_request_said_is_counted_as_a_request_not_as_a_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The matcher ranks moves from "Reihe sieben" ("… sieben"); the game answers the request."""
    from benchmarks.cli import main

    text = tmp_path / "talk.txt"
    text.write_text("Reihe sieben\nWer deckt Hector drei\n", "utf-8")
    argv = ["asr", "--count", "1", "--backend", "whisper", "--sentences", str(text)]
    assert main([*argv, "--conditions", "non-chess", "--failures", "5"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("non-chess"))
    assert "proposed a move    0.0%" in row and "a request 100.0%" in row
    assert "request 'Reihe sieben' heard 'reihe sieben'" in out
    assert "request 'Wer deckt Hector drei' heard 'wer deckt hector drei'" in out


def test_a_candidate_pronunciation_with_an_unknown_phone_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.cli import main

    bad = tmp_path / "bad.dict"
    bad.write_text("eva EE V AA\n", encoding="utf-8")
    assert main(["asr", "--count", "1", "--backend", "sphinx", "--lexicon", str(bad)]) == 1
    assert "unknown phones ['EE']" in capsys.readouterr().err


def test_the_benchmark_measures_the_shipped_recogniser_even_when_the_user_enrolled(
    settings: Settings, vocab: Vocabulary
) -> None:
    """[speech] adaptation = "auto" must not turn the benchmark into a measure of the user's
    own voice: a transform that ruins recognition, saved as the user's voice, is not used."""
    conditions = ("clean", "pink10")
    shipped = asr.run(settings, vocab, count=4, seed=5, backend="sphinx", conditions=conditions)
    ruinous = Adaptation(np.zeros((3, 13, 13)), np.zeros((3, 13)))
    ruinous.save(default_path())
    report = asr.run(settings, vocab, count=4, seed=5, backend="sphinx", conditions=conditions)
    for condition, tally in shipped.tallies.items():
        assert report.tallies[condition].outcomes == tally.outcomes, condition


def test_with_enrol_each_voice_is_heard_by_a_recogniser_adapted_to_it(
    settings: Settings, vocab: Vocabulary
) -> None:
    """The accented voices too: each is enrolled with moves said its own way."""
    report = asr.run(
        settings,
        vocab,
        count=6,
        seed=5,
        backend="sphinx",
        voices=("de", "de+m3"),
        enrol=8,
        conditions=("clean", "accented"),
    )
    assert report.tallies["clean"].count == 6
    assert report.tallies["clean"].outcomes["correct"] >= 5
    assert report.tallies["accented"].count == 6
    text = asr.format_report(report, backend="sphinx", seed=5, enrol=8)
    assert "enrolled with 8 moves each" in text.splitlines()[0]


def test_with_enrol_whisper_s_second_opinion_hears_with_each_voice(
    settings: Settings, vocab: Vocabulary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--enrol with the default recogniser: each voice's utterances go to Whisper (the same
    model throughout) with a PocketSphinx adapted to that voice as its second opinion."""
    from voice.speech.recognizers.second_opinion import SecondOpinion

    made: list[SecondOpinion] = []
    adapted = asr._adapted

    def keep(*args: Any, **kwargs: Any) -> Any:
        listener = adapted(*args, **kwargs)
        made.append(listener)
        return listener

    monkeypatch.setattr(asr, "_adapted", keep)
    report = asr.run(
        settings, vocab, count=2, seed=5, voices=("de", "de+m3"), enrol=4, conditions=("clean",)
    )
    assert report.tallies["clean"].count == 2
    assert report.recognizer == "Whisper base + PocketSphinx"
    assert len(made) == 2 and all(isinstance(m, SecondOpinion) for m in made)
    assert made[0].first is made[1].first
    assert all(m.adaptation is not None for m in made)


def test_learning_from_play_keeps_what_a_game_would_play_with_the_words_heard(
    settings: Settings, vocab: Vocabulary, tmp_path: Path
) -> None:
    """--learn: moves accepted, asked back or picked from a choice are learnt with the words
    they were heard as; what a game would reject (small talk) is not."""
    from voice.speech.recognizers.adaptation import Sample
    from voice.speech.recognizers.sphinx import SphinxRecognizer
    from voice.words.phrases import phrase_table

    moves = asr.make_items(6, vocab, 5, voices=("de",))
    talk = asr.non_chess_items(5, [moves[0].fen], repeats=1, voices=("de",))[:2]
    items = [*moves, *talk]
    samples = [
        Sample(asr.load_for_recognition(asr.synthesize(item, tmp_path)), item.phrase)
        for item in items
    ]
    kept = asr._played(samples, items, vocab, SphinxRecognizer(vocab, parallel=False), settings)
    assert 4 <= len(kept) <= len(moves)
    talk_audio = [sample.pcm for sample in samples[len(moves) :]]
    assert not any(any(k.pcm is t for t in talk_audio) for k in kept)
    for sample in kept:
        item = items[[s.pcm is sample.pcm for s in samples].index(True)]
        assert phrase_table(chess.Board(item.fen), vocab).move_named(sample.phrase)  # a move


def test_with_learn_the_heading_says_how_the_voices_were_learnt(
    settings: Settings, vocab: Vocabulary
) -> None:
    report = asr.run(
        settings,
        vocab,
        count=4,
        seed=5,
        backend="sphinx",
        voices=("de", "de+m3"),
        learn=8,
        conditions=("clean",),
    )
    assert report.tallies["clean"].count == 4
    text = asr.format_report(report, backend="sphinx", seed=5, learn=8)
    assert "learnt from 8 moves played each" in text.splitlines()[0]


@needs_espeak
def test_report_voices_are_german_espeak_variants_used_in_no_other_set() -> None:
    """The figures to report come from voices nothing was tuned on, each a real variant: an
    unknown variant name is said silently with the plain voice, so each must sound different
    from it while reading the words with the German voice's phonemes."""
    report = asr.VOICE_SETS["report"]
    assert report.voices == asr.REPORT_VOICES
    assert len(set(asr.REPORT_VOICES)) == len(asr.REPORT_VOICES) >= 10
    assert not set(asr.REPORT_VOICES) & {*asr.VOICES, *asr.TRAINING_VOICES}
    low, high, _ = report.rates
    assert low < asr.RATES[0] and high > asr.RATES[1]
    low, high, _ = report.pitches
    assert low < asr.PITCHES[0] and high > asr.PITCHES[1]
    listing = subprocess.run(
        ["espeak-ng", "--voices=variant"], capture_output=True, text=True, check=True
    ).stdout
    files = {line.split()[-1].split("/")[-1] for line in listing.splitlines()[1:] if line}

    def espeak(*args: str) -> bytes:
        return subprocess.run(["espeak-ng", *args], capture_output=True, check=True).stdout

    words = "Springer Felix drei"
    german = espeak("-q", "-x", "-v", "de", words)
    plain = espeak("-v", "de", "--stdout", words)
    for voice in asr.REPORT_VOICES:
        assert voice.startswith("de+") and voice.removeprefix("de+") in files, voice
        assert espeak("-q", "-x", "-v", voice, words) == german, voice
        assert espeak("-v", voice, "--stdout", words) != plain, voice


def test_accented_moves_are_the_same_moves_said_half_in_arabic_half_in_persian_spelling(
    vocab: Vocabulary,
) -> None:
    from voice.words.phrases import speakable

    moves = asr.make_items(10, vocab, seed=3)
    accented = asr.accented_items(moves, vocab)
    assert [(a.fen, a.move, a.phrase) for a in accented] == [
        (m.fen, m.move, m.phrase) for m in moves
    ]
    assert [a.voice for a in accented].count("ar") == [a.voice for a in accented].count("fa")
    for item in accented:
        assert item.text == speakable(vocab.display(item.phrase), item.voice)
        assert item.text != vocab.display(item.phrase)


def test_the_command_offers_every_voice_set_and_condition_and_refuses_unknown_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import cli
    from benchmarks.cli import main

    assert tuple(asr.VOICE_SETS) == cli.VOICE_SET_NAMES
    assert tuple(asr.SELECTABLE) == cli.CONDITION_NAMES
    assert cli._conditions("hall, clean") == ("clean", "hall")
    with pytest.raises(SystemExit):
        main(["asr", "--conditions", "clean,kitchen"])
    assert "unknown condition kitchen" in capsys.readouterr().err


@pytest.mark.parametrize("backend", ["whisper", "vosk"])
def test_enrolment_and_learning_refuse_recognisers_without_pocketsphinx_in_one_sentence(
    settings: Settings, vocab: Vocabulary, backend: str
) -> None:
    """Vosk, and Whisper without its second opinion: there is no PocketSphinx to adapt."""
    alone = override(settings, speech={"second_opinion": False})
    for how in ({"enrol": 3}, {"learn": 3}):
        with pytest.raises(RuntimeError, match=r"^--enrol and --learn adapt PocketSphinx: alone"):
            asr.run(alone, vocab, count=1, seed=5, backend=backend, **how)  # type: ignore[arg-type]


@needs_espeak
def test_json_holds_every_condition_run_with_its_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.cli import main

    out = tmp_path / "figures.json"
    argv = ["asr", "--count", "2", "--backend", "sphinx", "--voices", "report"]
    assert main([*argv, "--conditions", "clean,hall", "--json", str(out)]) == 0
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["voices"] == "report" and figures["recognizer"] == "PocketSphinx"
    assert set(figures["conditions"]) == {"clean", "hall"}
    for condition in figures["conditions"].values():
        assert condition["n"] == 2
        assert {"correct", "wrong", "played_without_question", "choose_with_right_move"} <= set(
            condition
        )
    aims = [target["aim"] for target in figures["targets"]]
    assert aims[:2] == ["clean: right move ≥ 97%", "hall: right move ≥ 90%"]
    assert set(figures["by_voice"]) <= set(asr.REPORT_VOICES)
    assert "report voices" in capsys.readouterr().out


def test_in_a_room_a_move_is_cut_by_the_end_pointer_and_one_never_delivered_is_unheard() -> None:
    """``--room``: the end-pointer decides what the recogniser hears. Words in a quiet room
    come back as one utterance around them; words drowned from the first sample to the last
    in a noise that never pauses give none: the player said the move in vain."""
    rng = np.random.default_rng(7)
    vowel = np.sin(np.arange(int(0.8 * asr.RATE)) * 2 * np.pi * 140 / asr.RATE) * 9000
    words = vowel.astype(np.int16)
    sound, lead = asr.rooms.in_room(words, None, np.zeros)
    cut = asr.rooms.endpoint(sound, lead / asr.RATE, (lead + len(words)) / asr.RATE)
    assert cut is not None and len(words) <= len(cut) <= len(words) + asr.RATE // 2
    # A talker as loud as the words, voiced, never pausing: nothing ends, nothing is delivered.
    talker = np.sin(np.arange(30 * asr.RATE) * 2 * np.pi * 180 / asr.RATE) * 9000
    talker *= 1 + 0.05 * rng.standard_normal(len(talker))
    sound, lead = asr.rooms.in_room(words, -3.0, lambda n: talker[:n] / 32768)
    assert asr.rooms.endpoint(sound, lead / asr.RATE, (lead + len(words)) / asr.RATE) is None


def test_the_talk_key_records_from_one_press_to_the_next_with_the_listeners_rolls() -> None:
    """``--talk-key``: the recording is what the listener keeps between the two presses (its
    pre-roll before the first, its post-roll after the second), the room's noise included,
    whatever the end-pointer would have cut."""
    from voice.speech.listen import PTT_POST_ROLL, PTT_PRE_ROLL

    words = np.full(asr.RATE // 2, 9000, dtype=np.int16)
    sound, lead = asr.rooms.in_room(words, None, np.zeros)
    before, after = 0.4, 0.7

    class Presses(random.Random):
        draws = iter((before, after))

        def uniform(self, a: float, b: float) -> float:
            value = next(self.draws)
            assert a <= value <= b
            return value

    start, end = lead / asr.RATE, (lead + len(words)) / asr.RATE
    cut = asr.rooms.talk_key(sound, start, end, Presses())
    expected = (end - start) + before + after + PTT_PRE_ROLL + PTT_POST_ROLL
    assert len(cut) == pytest.approx(expected * asr.RATE, abs=2)
    # Drawn within TALK_KEY_PRESS_S, the same every time for the same seed.
    first = asr.rooms.heard_in_room(words, 10.0, np.ones, presses=random.Random(3))
    again = asr.rooms.heard_in_room(words, 10.0, np.ones, presses=random.Random(3))
    shortest = (len(words) / asr.RATE + 2 * 0.3 + PTT_PRE_ROLL + PTT_POST_ROLL) * asr.RATE
    assert np.array_equal(first, again) and shortest - 2 <= len(first) <= len(sound)


@needs_espeak
@pytest.mark.slow
def test_a_room_run_counts_moves_never_delivered_as_rejected_and_says_so(
    settings: Settings, vocab: Vocabulary
) -> None:
    report = asr.run(
        settings, vocab, count=3, seed=5, backend="sphinx", conditions=("clean", "pink5"), room=True
    )
    assert report.room and list(report.tallies) == ["clean", "pink5"]
    for tally in report.tallies.values():
        assert tally.count == 3 and tally.unheard <= tally.outcomes["rejected"]
    text = asr.format_report(report, backend="sphinx", seed=5)
    assert "never delivered (part of rejected): clean " in text
    figures = json.loads(json.dumps(asr.figures(report, backend="sphinx", seed=5)))
    assert figures["room"] is True and "unheard" in figures["conditions"]["pink5"]


def test_in_a_room_the_end_pointer_asks_the_recogniser_at_a_short_pause_as_the_program_does() -> (
    None
):
    """``--room`` hands the end-pointer the program's completion check: words that already make
    a phrase end at the short pause (0.25 s), not the full one (0.6 s) that would also take in
    what follows."""
    rate = asr.RATE
    tone = (np.sin(np.arange(int(0.8 * rate)) * 2 * np.pi * 140 / rate) * 9000).astype(np.int16)
    gap = np.zeros(int(0.35 * rate), dtype=np.int16)
    words = np.concatenate([tone, gap, tone])
    sound, lead = asr.rooms.in_room(words, None, np.zeros)
    span = (lead / rate, (lead + len(tone)) / rate)
    whole = asr.rooms.endpoint(sound, *span)
    first = asr.rooms.endpoint(sound, *span, completion=lambda audio: True)
    assert whole is not None and first is not None
    assert len(whole) > len(words) and len(first) < len(tone) + len(gap) + rate // 2


def test_the_pico_voice_is_another_synthesizer_at_the_report_rates_and_pitches(
    vocab: Vocabulary,
) -> None:
    """``--voices pico``: SVOX Pico, nothing tuned on it, at the report set's spread; its
    espeak-ng rate and pitch map to Pico's own speed and pitch factors."""
    pico = asr.VOICE_SETS["pico"]
    assert pico.voices == (asr.PICO_VOICE,)
    assert (pico.rates, pico.pitches) == (asr.REPORT_RATES, asr.REPORT_PITCHES)
    assert asr.PICO_VOICE not in {*asr.VOICES, *asr.TRAINING_VOICES, *asr.REPORT_VOICES}
    assert asr.pico_prosody(175, 50) == (1.0, 1.0)
    slow, low = asr.pico_prosody(115, 20)
    fast, high = asr.pico_prosody(215, 80)
    assert slow < 1 < fast and low == 0.75 and high == 1.25
    items = asr.make_items(20, vocab, seed=4, voices=pico.voices)
    assert {item.voice for item in items} == {asr.PICO_VOICE}
    # Pico reads German as spelt; espeak-ng's respellings ("Zäsar") were checked only for it.
    assert all(item.text == vocab.display(item.phrase) for item in items)
    assert asr.said_text("Cesar fünf", "de+Hugo") != "Cesar fünf"
    assert asr.said_text("Cesar fünf", asr.PICO_VOICE) == "Cesar fünf"


def test_pico_says_the_corpus_in_its_order_whatever_espeak_ng_does_beside_it(
    vocab: Vocabulary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pico's output for a text depends on what it said before in the process (the same
    sentence came out one way for its first three calls, another way after), so its items are
    said one after the other in corpus order, never in the order two threads happen to take
    them: two runs of the benchmark then hear the very same audio and report the same figures
    (session 15: one run played a wrong move that the next did not)."""
    said: list[tuple[str, int]] = []
    draw = random.Random(3)

    def slow(item: asr.Item, folder: Path) -> Path:
        time.sleep(draw.random() / 50)  # espeak-ng and Pico take their own times
        said.append((item.ident, threading.get_ident()))
        return folder / item.ident

    monkeypatch.setattr(asr, "synthesize", slow)
    items = asr.make_items(12, vocab, seed=4, voices=(asr.PICO_VOICE, "de", "de+m3"))
    paths = asr.synthesize_all(items, tmp_path)
    assert [p.name for p in paths] == [item.ident for item in items]
    pico = [item.ident for item in items if item.voice == asr.PICO_VOICE]
    assert len(pico) >= 3
    assert [ident for ident, _ in said if ident in pico] == pico
    assert len({thread for ident, thread in said if ident in pico}) == 1


@pytest.mark.slow
def test_whisper_hears_a_move_said_by_the_pico_voice(whisper_model: Path, tmp_path: Path) -> None:
    """The Pico voice speaks German a recogniser can hear: faster is shorter, and Whisper
    (the default recogniser) names the move said."""
    pytest.importorskip("py_nanotts", reason="py-nanotts (test extras) has wheels for Linux")
    from voice.speech.recognizers.grammar import position_phrases
    from voice.speech.recognizers.whisper import WhisperRecognizer
    from voice.speech.wavio import load_for_recognition

    vocab = Vocabulary.default()
    board = chess.Board()
    phrase = ("springer", "felix", "drei")

    def said(rate: int) -> np.ndarray:
        item = asr.Item(
            f"pico{rate}", board.fen(), "g1f3", phrase, "Springer Felix drei", "pico", rate, 50, ""
        )
        return load_for_recognition(asr.synthesize(item, tmp_path))

    slow, fast = said(130), said(200)
    assert len(fast) < len(slow) and np.abs(slow).max() > 3000  # int16: a voice, not hiss
    whisper = WhisperRecognizer(whisper_model, vocab)
    whisper.set_context(position_phrases(board, vocab))
    transcript = whisper.recognize(slow, 16000)
    assert transcript.nbest and transcript.nbest[0][0] == "springer felix drei"
