"""PocketSphinx's second opinion (issue 18 §1, "both voting, disagreement asked back"): a move
Whisper would ask back is played at once when PocketSphinx heard the very same phrase; a move
Whisper would only offer among choices or refuse is asked back when PocketSphinx heard it;
anything else stays as Whisper decided."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import chess
import numpy as np
import pytest
from session_scripts import move_lines, run_text, says
from speech_audio import needs_espeak, synthesize

from voice.config import Settings, override
from voice.speech.recognizers import RecognizerError, Transcript, hypotheses, make_recognizer
from voice.speech.recognizers.adaptation import Adaptation, default_path
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.recognizers.second_opinion import (
    ASKED_FROM,
    PLAYED,
    SecondOpinion,
    agreed,
    asked_back,
    confirmed,
    doubted,
    pocketsphinx_in,
    retire,
)
from voice.speech.recognizers.sphinx import SphinxRecognizer
from voice.speech.recognizers.whisper import WhisperRecognizer
from voice.words.matcher import Decision, match_move
from voice.words.vocabulary import NamedMoves, Phrase, Vocabulary

VOCAB = Vocabulary.default()

# Whisper's transcripts as it reports them: a move asked back alone has a confidence between
# ASKED_FROM and PLAYED; its rivals trail far behind.
PROBABLY = frozenset({"probability"})
ASKED = Transcript(
    (("springer felix drei", 0.46), ("springer felix fünf", 0.002)), True, 200.0, held_back=PROBABLY
)


def asked(*nbest: tuple[str, float], held_back: frozenset[str] = PROBABLY) -> Transcript:
    """Whisper's transcript of a phrase it asks back, held back by ``held_back``."""
    return Transcript(nbest, True, 200.0, held_back=held_back)


def heard(text: str, confidence: float = 0.9, complete: bool = True) -> Transcript:
    """PocketSphinx's transcript of one phrase."""
    return Transcript(((text, confidence),), complete, 120.0)


def decision(transcript: Transcript, settings: Settings) -> tuple[Decision, str | None]:
    board = chess.Board()
    result = match_move(board, hypotheses(transcript, VOCAB), VOCAB, settings.matching)
    return result.decision, result.move.uci() if result.move else None


def test_a_move_asked_back_is_played_when_pocketsphinx_heard_the_same_phrase(
    settings: Settings,
) -> None:
    assert decision(ASKED, settings) == (Decision.CONFIRM, "g1f3")
    both = agreed(ASKED, heard("springer felix drei"), VOCAB)
    assert both is not None and both.nbest[0][1] == pytest.approx(PLAYED)
    assert decision(both, settings) == (Decision.ACCEPT, "g1f3")


@pytest.mark.parametrize(
    "second",
    [
        heard("springer felix fünf"),  # another move: the question stands
        heard("bauer felix drei"),  # another move with the same last words
        Transcript((), True, 120.0, reason="out-of-grammar"),  # nothing it could explain
        Transcript((), False, 120.0, partial="springer felix", reason="partial"),
        heard("springer felix drei", complete=False),  # cut short: no whole phrase heard
    ],
)
def test_disagreement_or_nothing_heard_leaves_the_question(
    settings: Settings, second: Transcript
) -> None:
    assert agreed(ASKED, second, VOCAB) is None


def test_the_same_move_in_other_words_is_not_agreement() -> None:
    """ "Bauer Eva vier" and "Eva vier" name one move, but two recognisers that wrote different
    words did not hear alike."""
    assert agreed(asked(("eva vier", 0.46)), heard("bauer eva vier"), VOCAB) is None


def test_check_words_count_for_nothing_in_the_agreement(settings: Settings) -> None:
    """As everywhere (``without_check_words``): "… Schach" heard by one and not the other."""
    check = asked(("springer felix drei schach", 0.46))
    assert agreed(check, heard("springer felix drei"), VOCAB) is not None


# Whisper's choices (below ASKED_FROM, the nearest few almost alike) and a refusal of speech
# whose nearest phrase fitted too weakly to be offered.
CHOICES = Transcript(
    tuple((text, ASKED_FROM * 0.9 * 0.95**i) for i, text in enumerate(("eva vier", "eva drei"))),
    True,
    200.0,
)
REFUSED = Transcript(
    (),
    True,
    200.0,
    partial="Springa Felix Tri.",
    reason="out-of-grammar",
    nearest="springer felix drei",
)


def test_only_a_move_whisper_would_ask_back_is_played() -> None:
    """Whisper's sure moves are its own, and its choices and refusals are never played:
    PocketSphinx hearing the same makes at most a question of them."""
    sure = Transcript((("springer felix drei", 0.7),), True, 200.0)
    for whisper in (sure, CHOICES, REFUSED):
        assert not asked_back(whisper, VOCAB)
        assert agreed(whisper, heard(whisper.best or whisper.nearest), VOCAB) is None
    assert asked_back(ASKED, VOCAB)
    assert confirmed(sure, heard("springer felix drei"), VOCAB) is None
    assert confirmed(ASKED, heard("springer felix drei"), VOCAB) is None  # agreed() plays it


def test_choices_become_one_question_when_pocketsphinx_heard_the_first(
    settings: Settings,
) -> None:
    """Appendix D players answer a question with "ja"; three numbered moves cost a number and
    a longer listen. Two recognisers that rank the same phrase best make a question."""
    assert decision(CHOICES, settings) == (Decision.CHOOSE, None)
    asking = confirmed(CHOICES, heard("eva vier"), VOCAB)
    assert asking is not None and asking.nbest == (("eva vier", ASKED_FROM),)
    assert decision(asking, settings) == (Decision.CONFIRM, "e2e4")
    assert asking.complete  # Whisper's own check of the choices: its guess reached the end
    # A question, for good: no vote raises it to the play point.
    assert not asked_back(asking, VOCAB) and agreed(asking, heard("eva vier"), VOCAB) is None


def test_speech_whisper_refused_is_asked_back_when_pocketsphinx_heard_its_nearest_phrase(
    settings: Settings,
) -> None:
    """Whisper refused it (its free guess far from every phrase), yet its nearest phrase is
    the one PocketSphinx heard whole: asked back ("Springer Felix drei?"), never played."""
    assert decision(REFUSED, settings)[0] == Decision.REJECT
    asking = confirmed(REFUSED, heard("springer felix drei", 0.99), VOCAB)
    assert asking is not None and not asking.reason and not asking.nearest
    assert decision(asking, settings) == (Decision.CONFIRM, "g1f3")
    # Whisper's guess never said it to the end: the end-pointer waits for the full pause.
    assert not asking.complete
    assert agreed(asking, heard("springer felix drei", 0.99), VOCAB) is None


def test_a_question_made_of_whisper_s_choices_waits_for_the_player_s_ja(
    settings: Settings,
) -> None:
    """The whole game, not only the matcher: the move is asked back, nothing is made and the
    clock runs on until "ja" (Appendix D: a move announced is made only once confirmed)."""
    asking = confirmed(CHOICES, heard("eva vier"), VOCAB)
    assert asking is not None
    nbest = json.dumps([[text, confidence] for text, confidence in asking.nbest])
    script = f"""
{{"setup": {{"mode": "game", "blind": "white", "time_control": "300+5"}}}}
{{"t": 2, "blind_nbest": {nbest}}}
{{"t": 6, "blind": "ja"}}
"""
    out = run_text(script, settings)
    assert says(out, "blind", 2.0) == ["Eva vier?"]
    assert [line["t"] for line in move_lines(out)] == [6.0]
    assert move_lines(out)[0]["move"]["uci"] == "e2e4"


@pytest.mark.parametrize(
    "second",
    [
        heard("eva drei"),  # the second of the choices: not the one Whisper ranked best
        heard("springer felix drei"),  # a phrase Whisper did not rank best
        Transcript((), True, 120.0, reason="out-of-grammar"),
        Transcript((), False, 120.0, partial="eva", reason="partial"),
        heard("eva vier", complete=False),
        Transcript((("eva vier", 0.3), ("eva drei", 0.29)), True, 120.0),  # torn between two
    ],
)
def test_disagreement_leaves_the_choices_and_the_refusal(second: Transcript) -> None:
    assert confirmed(CHOICES, second, VOCAB) is None
    refused = replace(REFUSED, nearest="eva vier")
    assert confirmed(refused, second, VOCAB) is None


def test_only_moves_whisper_doubted_are_asked_back() -> None:
    """Silence, an answer or a command Whisper was unsure of, and a refusal with no nearest
    phrase are not moves to ask back."""
    silence = Transcript((), True, 200.0, reason="silence", nearest="eva vier")
    answer = Transcript((("ja", 0.3), ("nein", 0.28)), True, 200.0)
    command = replace(REFUSED, nearest="remis")
    nameless = replace(REFUSED, nearest="")
    for whisper in (silence, answer, command, nameless):
        assert doubted(whisper, VOCAB) is None
        assert (
            confirmed(whisper, heard(whisper.best or whisper.nearest or "eva vier"), VOCAB) is None
        )
    assert doubted(CHOICES, VOCAB) == "eva vier"
    assert doubted(REFUSED, VOCAB) == "springer felix drei"


def test_a_move_whose_last_word_whisper_never_heard_stays_asked_back() -> None:
    """Whisper's free guess stopped before the last word (its transcript incomplete): "Springer
    Cesar" said alone. PocketSphinx's grammar ends only on whole phrases, so it "hears"
    "Springer Cesar drei" from those two words, and its agreement played a move whose last
    word was never said (a player's trial, session 19). It stays a question."""
    incomplete = Transcript(ASKED.nbest, False, 200.0, held_back=PROBABLY)
    assert not asked_back(incomplete, VOCAB)
    assert agreed(incomplete, heard("springer felix drei"), VOCAB) is None
    assert asked_back(Transcript(ASKED.nbest, True, 200.0, held_back=PROBABLY), VOCAB)


@pytest.mark.parametrize("answer", ["ja", "nein", "remis", "zeit"])
def test_answers_and_commands_stay_whisper_s_alone(answer: str) -> None:
    """A "ja" plays the move asked back: it is sure only by Whisper's own rule (the free guess
    says it alone), never because PocketSphinx heard "ja" too."""
    assert not asked_back(asked((answer, 0.46)), VOCAB)
    assert agreed(asked((answer, 0.46)), heard(answer), VOCAB) is None


def test_a_rival_whisper_heard_almost_as_well_still_makes_the_matcher_ask(
    settings: Settings,
) -> None:
    """The confidences are scaled together: two moves Whisper heard alike stay alike."""
    close = asked(("eva vier", 0.46), ("eva drei", 0.45))
    both = agreed(close, heard("eva vier"), VOCAB)
    assert both is not None
    assert decision(both, settings)[0] != Decision.ACCEPT


@pytest.mark.parametrize("held", [{"lead"}, {"level"}, {"probability", "lead"}, {"guess", "level"}])
def test_a_close_rival_or_faint_speech_keeps_the_question_whatever_pocketsphinx_heard(
    held: set[str],
) -> None:
    """Issue 18 §3: play at once only when the best is clearly ahead and the audio is good.
    Whisper torn between two moves ("lead") or speech little above the room ("level") is
    asked back even when PocketSphinx heard the same: its agreement stands in only for
    Whisper's probability and its free guesses."""
    whisper = asked(
        ("springer felix drei", 0.49), ("springer felix fünf", 0.1), held_back=frozenset(held)
    )
    assert not asked_back(whisper, VOCAB)
    assert agreed(whisper, heard("springer felix drei"), VOCAB) is None


def test_whisper_s_free_guesses_are_outvoted_by_pocketsphinx_agreeing(settings: Settings) -> None:
    guessed_otherwise = asked(("springer felix drei", 0.49), held_back=frozenset({"guess"}))
    both = agreed(guessed_otherwise, heard("springer felix drei"), VOCAB)
    assert both is not None and decision(both, settings) == (Decision.ACCEPT, "g1f3")


def test_pocketsphinx_torn_between_two_phrases_does_not_agree() -> None:
    """Its best must be one it would have played itself (at the play point)."""
    torn = Transcript((("springer felix drei", 0.3), ("springer felix fünf", 0.29)), True, 120.0)
    assert agreed(ASKED, torn, VOCAB) is None


def test_a_transcript_that_says_nothing_of_why_is_not_lifted() -> None:
    """A recogniser that does not say what held its best phrase back (``held_back`` empty)."""
    assert not asked_back(Transcript(ASKED.nbest, True, 200.0), VOCAB)


# -- for real: Whisper base and PocketSphinx on synthesized speech -----------------------------


class Counted:
    """The real PocketSphinx, counting how often it is asked."""

    def __init__(self, sphinx: SphinxRecognizer) -> None:
        self.sphinx = sphinx
        self.pre_roll_s = sphinx.pre_roll_s
        self.calls = 0
        self.rival_searches = 0

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        self.sphinx.set_context(allowed, moves)

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        self.calls += 1
        self.rival_searches += alternatives
        return self.sphinx.recognize(audio, sample_rate, alternatives=alternatives)

    def describe(self) -> str:
        return self.sphinx.describe()

    def close(self) -> None:
        self.sphinx.close()


@pytest.fixture(scope="module")
def listeners(whisper_model: Path) -> Iterable[tuple[WhisperRecognizer, Counted, SecondOpinion]]:
    whisper = WhisperRecognizer(whisper_model, VOCAB)
    sphinx = Counted(SphinxRecognizer(VOCAB))
    both = SecondOpinion(whisper, sphinx, VOCAB)  # type: ignore[arg-type]
    yield whisper, sphinx, both
    both.close()


@needs_espeak
def test_a_move_whisper_asks_back_and_pocketsphinx_hears_alike_is_played(
    listeners: tuple[WhisperRecognizer, Counted, SecondOpinion],
    settings: Settings,
    tmp_path: Path,
) -> None:
    """espeak-ng's German voice saying "Läufer Cesar zwei" (found on the tuning voices: asked
    back by Whisper for three voices, heard alike by PocketSphinx each time)."""
    whisper, sphinx, both = listeners
    board = chess.Board("1Rb2k2/8/7R/p3b1p1/B1p5/8/8/5K2 w - - 1 40")
    both.set_context(position_phrases(board, VOCAB))
    audio = synthesize("Läufer Cesar zwei", tmp_path)
    alone = whisper.recognize(audio, 16000)
    result = match_move(board, hypotheses(alone, VOCAB), VOCAB, settings.matching)
    assert (result.decision, result.move) == (Decision.CONFIRM, chess.Move.from_uci("a4c2"))
    calls = sphinx.calls
    agreed_on = both.recognize(audio, 16000)
    result = match_move(board, hypotheses(agreed_on, VOCAB), VOCAB, settings.matching)
    assert (result.decision, result.move) == (Decision.ACCEPT, chess.Move.from_uci("a4c2"))
    assert sphinx.calls == calls + 2  # its first pass, then (heard alike) the rival search
    both.recognize(audio, 16000)  # the utterance the completion check already decoded
    assert sphinx.calls == calls + 2


@needs_espeak
def test_a_move_said_without_its_last_word_is_never_played_by_the_vote(
    listeners: tuple[WhisperRecognizer, Counted, SecondOpinion], settings: Settings
) -> None:
    """ "Springer Felix" said alone: PocketSphinx ends on the whole phrase "Springer Felix
    drei" and agreed with Whisper's best, which played the move; now it is asked back."""
    _, _, both = listeners
    board = chess.Board()
    both.set_context(position_phrases(board, VOCAB))
    from pulse import espeak

    pause = np.zeros(8000, dtype=np.int16)
    audio = np.concatenate([pause, espeak("Springer Felix", "de", 16000, 140), pause])
    heard = both.recognize(audio, 16000)
    assert not heard.complete
    result = match_move(board, hypotheses(heard, VOCAB), VOCAB, settings.matching)
    assert result.decision != Decision.ACCEPT


@needs_espeak
@pytest.mark.parametrize(
    ("voice", "alone"),
    [("de+Denis", Decision.CHOOSE), ("de+linda", Decision.REJECT)],
)
def test_a_move_whisper_offers_or_refuses_and_pocketsphinx_hears_alike_is_asked_back(
    listeners: tuple[WhisperRecognizer, Counted, SecondOpinion],
    settings: Settings,
    tmp_path: Path,
    voice: str,
    alone: Decision,
) -> None:
    """espeak-ng's "Dame Eva drei" (found on the tuning corpus of seed 101): Whisper alone
    offers three moves for one voice and says "nicht verstanden" for another; PocketSphinx
    heard the phrase Whisper ranked best, so it is asked back, and not played."""
    whisper, _, both = listeners
    board = chess.Board("2rq2k1/6pp/5p2/2Pn4/p3r1PP/1Q3N2/1P3P2/1NB1KR2 w - - 0 22")
    both.set_context(position_phrases(board, VOCAB))
    audio = synthesize("Dame Eva drei", tmp_path, voice=voice)
    result = match_move(
        board, hypotheses(whisper.recognize(audio, 16000), VOCAB), VOCAB, settings.matching
    )
    assert result.decision == alone
    result = match_move(
        board, hypotheses(both.recognize(audio, 16000), VOCAB), VOCAB, settings.matching
    )
    assert (result.decision, result.move) == (Decision.CONFIRM, chess.Move.from_uci("b3e3"))


@needs_espeak
def test_pocketsphinx_is_not_asked_when_whisper_is_sure(
    listeners: tuple[WhisperRecognizer, Counted, SecondOpinion],
    settings: Settings,
    tmp_path: Path,
) -> None:
    """A move Whisper plays at once is answered as quickly as before."""
    _, sphinx, both = listeners
    board = chess.Board()
    both.set_context(position_phrases(board, VOCAB))
    calls = sphinx.calls
    transcript = both.recognize(synthesize("Springer Felix drei", tmp_path), 16000)
    assert transcript.nbest[0][1] >= settings.matching.accept_confidence
    assert sphinx.calls == calls


@needs_espeak
def test_pocketsphinx_is_not_asked_about_an_answer(
    listeners: tuple[WhisperRecognizer, Counted, SecondOpinion], tmp_path: Path
) -> None:
    """While a move is asked back, "ja" and "nein" are Whisper's alone: PocketSphinx's decode
    would only delay the answer."""
    _, sphinx, both = listeners
    both.set_context([("ja",), ("nein",), ("korrektur",)])
    calls = sphinx.calls
    for word in ("ja", "nein"):
        assert both.recognize(synthesize(word, tmp_path), 16000).best == word
    assert sphinx.calls == calls


class Said:
    """Whisper's part played by a fixed transcript: which of its answers make PocketSphinx
    listen is the point here, not how Whisper reached them."""

    pre_roll_s = 0.5

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript

    def set_context(self, allowed: Iterable[Phrase], moves: NamedMoves | None = None) -> None:
        pass

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        return self.transcript

    def describe(self) -> str:
        return "Whisper's answer"


@pytest.mark.parametrize(
    ("whisper", "asked"),
    [
        (Transcript((), True, 200.0, reason="silence"), False),
        (replace(REFUSED, nearest="remis"), False),  # a command: never asked back
        (replace(REFUSED, nearest=""), False),
        (Transcript((("springer felix drei", 0.7),), True, 200.0), False),  # sure: played
        (REFUSED, True),
        (CHOICES, True),
        (ASKED, True),
    ],
)
def test_pocketsphinx_listens_only_where_it_may_change_whisper_s_answer(
    whisper: Transcript, asked: bool
) -> None:
    sphinx = Counted(SphinxRecognizer(VOCAB))
    both = SecondOpinion(Said(whisper), sphinx, VOCAB)  # type: ignore[arg-type]
    try:
        both.set_context(position_phrases(chess.Board(), VOCAB))
        both.recognize(np.zeros(8000, dtype=np.int16), 16000)
        assert sphinx.calls == int(asked)
    finally:
        both.close()


@needs_espeak
@pytest.mark.parametrize(
    ("said", "searched"), [("Springer Cesar drei", 0), ("Springer Felix drei", 1)]
)
def test_pocketsphinx_searches_for_rivals_only_where_it_can_still_agree(
    tmp_path: Path, said: str, searched: int
) -> None:
    """Whisper asks "Springer Felix drei" back. When PocketSphinx's first pass already hears
    another move, the vote cannot agree, and its rival search (two decodes more) would only
    delay the question; when it hears the same phrase, the rival search decides whether it is
    sure enough to play."""
    sphinx = Counted(SphinxRecognizer(VOCAB))
    both = SecondOpinion(Said(ASKED), sphinx, VOCAB)  # type: ignore[arg-type]
    try:
        both.set_context(position_phrases(chess.Board(), VOCAB))
        transcript = both.recognize(synthesize(said, tmp_path), 16000)
        assert sphinx.rival_searches == searched
        assert (transcript.nbest[0][1] >= PLAYED) == bool(searched)
    finally:
        both.close()


class Failing(Counted):
    """The real PocketSphinx, failing when asked (a broken installation, a lost process)."""

    def recognize(
        self, audio: np.ndarray, sample_rate: int, *, alternatives: bool = True
    ) -> Transcript:
        self.calls += 1
        raise RuntimeError("the decoder is gone")


@needs_espeak
def test_a_failing_second_opinion_leaves_whisper_s_answer(
    whisper_model: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    whisper = WhisperRecognizer(whisper_model, VOCAB)
    failing = Failing(SphinxRecognizer(VOCAB))
    both = SecondOpinion(whisper, failing, VOCAB)  # type: ignore[arg-type]
    try:
        board = chess.Board("1Rb2k2/8/7R/p3b1p1/B1p5/8/8/5K2 w - - 1 40")
        both.set_context(position_phrases(board, VOCAB))
        audio = synthesize("Läufer Cesar zwei", tmp_path)
        with caplog.at_level(logging.ERROR):
            transcript = both.recognize(audio, 16000)
        assert failing.calls == 1 and "second opinion failed" in caplog.text
        assert transcript.nbest == whisper.recognize(audio, 16000).nbest  # asked back
    finally:
        both.close()


def test_whisper_listens_alone_when_pocketsphinx_cannot_start(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def cannot(*args: object, **kwargs: object) -> None:
        raise RecognizerError("the acoustic model is missing")

    monkeypatch.setattr(SphinxRecognizer, "__init__", cannot)
    with caplog.at_level(logging.WARNING):
        chosen = make_recognizer(settings, VOCAB)
    assert isinstance(chosen, WhisperRecognizer)
    assert "without PocketSphinx's second opinion: the acoustic model is missing" in caplog.text


def _a_voice() -> Adaptation:
    """A voice transform as ``voice-chess enrol`` saves one (here the identity)."""
    return Adaptation(np.stack([np.eye(13)] * 3), np.zeros((3, 13)))


def test_pocketsphinx_votes_with_the_players_voice_once_there_is_one(
    settings: Settings, vocab: Vocabulary
) -> None:
    """Enrolled or learnt from games ([speech] adaptation = "auto"): the vote hears with the
    player's voice (on the tuning voices it agreed with Whisper more often and played no wrong
    move); "off" keeps the voice as shipped, and Whisper itself is never adapted."""
    shipped = make_recognizer(settings, vocab)
    try:
        assert isinstance(shipped, SecondOpinion) and shipped.adaptation is None
    finally:
        shipped.close()
    _a_voice().save(default_path())
    enrolled = make_recognizer(settings, vocab)
    try:
        assert isinstance(enrolled, SecondOpinion)
        assert isinstance(enrolled.second, SphinxRecognizer)
        assert enrolled.second.adaptation == enrolled.adaptation == default_path()
        assert pocketsphinx_in(enrolled) is enrolled.second
    finally:
        enrolled.close()
    off = make_recognizer(override(settings, speech={"adaptation": "off"}), vocab)
    try:
        assert isinstance(off, SecondOpinion) and off.adaptation is None
    finally:
        off.close()


def test_a_voice_file_that_cannot_be_used_leaves_the_vote_as_shipped(
    settings: Settings, vocab: Vocabulary, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged or missing file named in [speech] adaptation is named in the log; Whisper
    keeps its second opinion, with the voice as shipped."""
    damaged = tmp_path / "voice.mllr"
    damaged.write_text("not a transform", encoding="utf-8")
    for path in (damaged, tmp_path / "missing.mllr"):
        with caplog.at_level(logging.WARNING):
            chosen = make_recognizer(override(settings, speech={"adaptation": str(path)}), vocab)
        try:
            assert isinstance(chosen, SecondOpinion) and chosen.adaptation is None
            assert "PocketSphinx votes without the learnt voice" in caplog.text
        finally:
            chosen.close()
        caplog.clear()


def test_only_pocketsphinx_learns_a_voice_alone_or_as_the_vote(whisper_model: Path) -> None:
    """What app._learner asks before keeping the recordings of a game: Whisper alone (and
    Vosk) hear no learnt voice, so keeping them would be for nothing."""
    whisper = WhisperRecognizer(whisper_model, VOCAB)
    sphinx = SphinxRecognizer(VOCAB)
    both = SecondOpinion(whisper, sphinx, VOCAB)
    try:
        assert pocketsphinx_in(sphinx) is sphinx
        assert pocketsphinx_in(both) is sphinx
        assert pocketsphinx_in(whisper) is None
    finally:
        both.close()


@needs_espeak
def test_a_new_voice_for_the_vote_keeps_whisper_loaded(whisper_model: Path, tmp_path: Path) -> None:
    """A voice learnt during a game replaces only PocketSphinx: the new second opinion shares
    Whisper (its model is not loaded twice), and retiring the old one leaves Whisper hearing."""
    whisper = WhisperRecognizer(whisper_model, VOCAB)
    old = SecondOpinion(whisper, SphinxRecognizer(VOCAB), VOCAB)
    voice = tmp_path / "voice.mllr"
    _a_voice().save(voice)
    new = old.with_second(SphinxRecognizer(VOCAB, adaptation=voice))
    try:
        assert new.first is whisper and new.adaptation == voice
        retire(old, new)
        new.set_context(position_phrases(chess.Board(), VOCAB))
        transcript = new.recognize(synthesize("Springer Felix drei", tmp_path), 16000)
        assert transcript.best == "springer felix drei"
    finally:
        new.close()
