"""The benchmark of words said alone (``python -m benchmarks answers``): yes, no, the numbers and
the requests, read as the program reads them. The figures are measured, never asserted; the tests
prove what each outcome means and that a small run hears every word in every room it names."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

import pytest
from speech_audio import needs_espeak

from benchmarks import answers, asr
from benchmarks.cli import main
from voice.config import Settings, load_settings
from voice.speech.recognizers import Transcript
from voice.speech.recognizers.whisper import WhisperRecognizer
from voice.words.vocabulary import Vocabulary


def _heard(text: str, confidence: float) -> Transcript:
    return Transcript(((text, confidence),), True, 0.0)


def test_a_yes_plays_the_move_asked_back_only_when_heard_as_surely_as_a_move(
    settings: Settings,
) -> None:
    """What the session itself does: an unsure "ja" asks again, a sure one plays the move."""
    game = partial(answers.asked_session, settings)
    assert answers.game_outcome(game, _heard("ja", 0.3), ("ja",)) == ("asked", "ja")
    assert answers.game_outcome(game, _heard("ja", 0.9), ("ja",)) == ("right", "ja")
    assert answers.game_outcome(game, _heard("ja", 0.9), ("nein",)) == ("wrong", "ja")
    assert not answers.plays_a_move(game, _heard("ja", 0.3))
    assert answers.plays_a_move(game, _heard("ja", 0.9))
    assert not answers.plays_a_move(game, _heard("nein", 0.9))
    assert answers.plays_a_move(game, _heard("Eva vier", 0.9))  # another move, played


def test_a_request_is_right_by_what_the_game_does_and_a_move_instead_of_it_is_not(
    settings: Settings,
) -> None:
    """ "zurück" and "Korrektur" do the same; a move heard instead is played (wrong) or asked
    back (asked); nothing heard, or never delivered, is none."""
    game = partial(answers.asked_session, settings)
    said = ("korrektur",)
    assert answers.game_outcome(game, _heard("zurück", 0.4), said)[0] == "right"
    assert answers.game_outcome(game, _heard("zeit", 0.9), said)[0] == "wrong"
    assert answers.game_outcome(game, _heard("Eva vier", 0.9), said) == ("wrong", "Eva vier")
    assert answers.game_outcome(game, _heard("Eva vier", 0.3), said) == ("asked", "Eva vier")
    # Three moves heard alike are offered by number: a question too, nothing done.
    three = Transcript(
        (("Bauer Eva drei", 0.27), ("Bauer David drei", 0.25), ("Eva vier", 0.24)), True, 0.0
    )
    assert answers.game_outcome(game, three, said) == ("asked", "Bauer Eva drei")
    assert answers.game_outcome(game, Transcript((), True, 0.0), said)[0] == "none"
    assert answers.game_outcome(game, None, said)[0] == "none"


def test_another_word_heard_as_an_unsure_yes_is_listed_apart(vocab: Vocabulary) -> None:
    """Counted as asked (the game asks again), but listed: the same mishearing a second time
    would answer the question."""
    assert answers.doubted_yes("ja", ("nein",), vocab)
    assert not answers.doubted_yes("ja", ("ja",), vocab)
    assert not answers.doubted_yes("Eva vier", ("nein",), vocab)
    report = answers.Report()
    report.tallies[("clean", "asked")] = answers.Tally(doubted=["nein → ja? (de+f4)"])
    report.sentences["clean"] = report.played_from_sentences["clean"] = 0
    table = answers.format_report(report, backend="Whisper base", seed=1, voices="report", count=1)
    listed = "asked again as an unsure ja (a second time would answer it), clean, asked: nein"
    assert listed in table


def test_the_strength_question_takes_yes_for_the_suggested_level_and_a_number_for_its_own(
    vocab: Vocabulary,
) -> None:
    assert answers.question_outcome(_heard("ja", 0.9), ("ja",), vocab) == ("right", "level 3")
    assert answers.question_outcome(_heard("sieben", 0.9), ("zwei",), vocab)[0] == "wrong"
    assert answers.question_outcome(_heard("nein", 0.9), ("zwei",), vocab)[0] == "none"
    nothing = Transcript((), True, 0.0)  # "Nicht verstanden.", not Enter's suggestion
    assert answers.question_outcome(nothing, ("zwei",), vocab)[0] == "none"


def test_the_asked_context_is_a_game_with_its_first_move_asked_back(settings: Settings) -> None:
    session = answers.asked_session(settings)
    phrases = session.phrases_now()
    assert ("ja",) in phrases and ("springer", "felix", "drei") in phrases


def test_a_number_read_surely_as_another_chooses_another_move_and_an_unsure_one_asks(
    settings: Settings,
) -> None:
    """Three moves offered by number: "zwei" heard surely as "drei" plays another move
    (wrong); an unsure number has its move asked back by name."""
    phrases = answers.choice_session(settings).phrases_now()
    assert {("eins",), ("zwei",), ("drei",)} <= phrases
    game = partial(answers.choice_session, settings)
    said = ("zwei",)
    assert answers.game_outcome(game, _heard("zwei", 0.9), said)[0] == "right"
    assert answers.game_outcome(game, _heard("drei", 0.9), said)[0] == "wrong"
    assert answers.game_outcome(game, _heard("drei", 0.3), said)[0] == "asked"
    assert answers.game_outcome(game, _heard("ja", 0.9), said) == ("asked", "ja")  # how to pick
    assert answers.game_outcome(game, None, said)[0] == "none"


def _small_run(
    recognizer: WhisperRecognizer,
    settings: Settings,
    conditions: tuple[str, ...],
    sentences: Sequence[str],
    words: dict[str, tuple[str, ...]],
    *,
    talk_key: bool = False,
) -> answers.Report:
    """One of each word, by the tuning voices, seed 7."""
    return answers.run(
        settings,
        recognizer.vocab,
        recognizer,
        count=1,
        seed=7,
        voices=asr.VOICE_SETS["tuning"],
        conditions=conditions,
        sentences=sentences,
        words=words,
        talk_key=talk_key,
    )


@needs_espeak
def test_a_small_run_hears_every_word_in_every_room_named(
    whisper_model: Path, settings: Settings, vocab: Vocabulary
) -> None:
    report = _small_run(
        WhisperRecognizer(whisper_model, vocab),
        settings,
        ("clean", "babble10"),
        asr.NON_CHESS[:2],
        {"question": ("ja", "zwei"), "asked": ("nein", "zeit"), "choice": ("drei",)},
    )
    for condition in ("clean", "babble10"):
        assert report.tallies[(condition, "question")].total == 2
        assert report.tallies[(condition, "asked")].total == 2
        assert report.tallies[(condition, "choice")].total == 1
        assert report.sentences[condition] == 2
    table = answers.format_report(report, backend="Whisper base", seed=7, voices="tuning", count=1)
    assert "| clean |" in table and "| babble10 |" in table and "sentences → a move played" in table


@needs_espeak
def test_through_the_talk_key_the_words_are_heard_in_babble_five_db_below_the_player(
    whisper_model: Path, settings: Settings, vocab: Vocabulary
) -> None:
    """``--talk-key``: babble 5 dB below the player, the room the talk key is for, and each
    word recorded from press to press; the table says how the words were heard."""
    report = _small_run(
        WhisperRecognizer(whisper_model, vocab),
        settings,
        ("babble5",),
        asr.NON_CHESS[:1],
        {"question": ("ja",), "asked": ("nein",), "choice": ("drei",)},
        talk_key=True,
    )
    assert [report.tallies[("babble5", c)].total for c in answers.CONTEXTS] == [1, 1, 1]
    table = answers.format_report(
        report, backend="Whisper base", seed=7, voices="tuning", count=1, talk_key=True
    )
    assert "| babble5 |" in table and "through the talk key" in table


def test_a_count_below_one_is_refused_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["answers", "--count", "0"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "python -m benchmarks answers: --count must be at least 1"
    )


def test_the_corpus_says_every_word_of_every_context_the_times_asked() -> None:
    said = answers.corpus(2, 5, asr.VOICE_SETS["report"])
    assert len(said) == 2 * sum(len(words) for words in answers.WORDS.values())
    assert {s.voice for s in said} <= set(asr.REPORT_VOICES)
    assert said == answers.corpus(2, 5, asr.VOICE_SETS["report"])  # repeatable
    assert load_settings(look_in_user_dir=False).engine.level == answers.SUGGESTED_LEVEL


def test_the_words_are_heard_by_the_recogniser_as_shipped_not_the_users_voice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Like the ASR benchmark: a voice the user enrolled (or the program learnt) would make
    these figures the user's own."""
    import benchmarks.cli
    from voice.speech.recognizers import RecognizerError

    seen: list[Settings] = []

    def made(settings: Settings, *args: object, **kwargs: object) -> None:
        seen.append(settings)
        raise RecognizerError("enough")

    monkeypatch.setattr(benchmarks.cli, "make_recognizer", made)
    assert main(["answers", "--count", "1"]) == 1
    assert [s.speech.adaptation for s in seen] == ["off"]
