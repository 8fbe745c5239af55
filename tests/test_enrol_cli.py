"""``voice-chess enrol``: the embedded recogniser learns a voice from moves said after the program.

Real audio throughout: espeak-ng speaks the moves, PocketSphinx aligns and recognises them, and
the interactive runs go through the private PulseAudio daemon (``tests/pulse.py``): the program
speaks each phrase on the virtual loudspeaker and records the virtual microphone, into which
the test says the move once the program has fallen silent. The user's data folder is a
temporary one (``conftest.py`` points ``XDG_DATA_HOME`` there) and every run writes to a
temporary ``--output``.
"""

from __future__ import annotations

import json
import time
import wave
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from console import Console, PtyConsole
from pulse import PulseAudio, espeak, noise
from speech_audio import needs_espeak, synthesize

from voice.cli import main
from voice.cli.enrol import adapts_a_voice, enrolment_phrases, heard_right
from voice.config import Settings, override
from voice.speech.learning import RecordingStore
from voice.speech.recognizers.adaptation import Adaptation, Sample, default_path
from voice.speech.recognizers.sphinx import SphinxRecognizer
from voice.words.phrases import speakable
from voice.words.vocabulary import LONG_CASTLING, PIECE_WORDS, SHORT_CASTLING, Vocabulary

VOICE = "de+m7"
"""The voice variant enrolled: one the unadapted recogniser hears worst
(docs/recognition-figures.md, bench asr)."""


def write_wav(path: Path, pcm: np.ndarray, rate: int = 16000) -> None:
    with wave.open(str(path), "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(np.asarray(pcm, dtype=np.int16).tobytes())


def recordings(folder: Path, items: list[tuple[str, np.ndarray]]) -> Path:
    """A ``--from`` file listing ``(text, audio)`` pairs, the WAV files beside it."""
    lines = []
    for number, (text, pcm) in enumerate(items):
        write_wav(folder / f"{number}.wav", pcm)
        lines.append(json.dumps({"wav": f"{number}.wav", "text": text}, ensure_ascii=False))
    listing = folder / "enrolment.jsonl"
    listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return listing


def said(vocab: Vocabulary, phrase: tuple[str, ...], folder: Path, voice: str = VOICE) -> Sample:
    return Sample(synthesize(speakable(vocab.display(phrase)), folder, voice), phrase)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home and data folder of the test's own: the real user's voice is never touched."""
    folder = tmp_path / "home"
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "config"))
    assert str(default_path()).startswith(str(folder))
    return folder


# -- the phrases ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ranks",
    [None, ["one", "two", "three", "four", "five", "six", "seven", "eight"]],
    ids=["appendix-d", "configured-rank-words"],
)
def test_the_phrases_say_every_file_rank_and_piece_word_twice_and_both_castlings(
    settings: Settings, ranks: list[str] | None
) -> None:
    if ranks is not None:
        settings = override(settings, vocabulary={"rank_words": ranks})
    vocab = Vocabulary.from_settings(settings.vocabulary)
    phrases = enrolment_phrases(vocab)
    assert 18 <= len(phrases) <= 24
    words = Counter(word for phrase in phrases for word in phrase)
    for word in (*vocab.file_words, *vocab.rank_words, *PIECE_WORDS.values()):
        assert words[word] >= 2, word
    assert SHORT_CASTLING in phrases and LONG_CASTLING in phrases
    # Move-like: piece + square, a pawn's square, piece + square + square, or a castling.
    files, rank_words, pieces = (
        set(vocab.file_words),
        set(vocab.rank_words),
        set(PIECE_WORDS.values()),
    )
    for phrase in phrases:
        if phrase in (SHORT_CASTLING, LONG_CASTLING):
            continue
        squares = phrase[1:] if phrase[0] in pieces else phrase
        assert len(squares) in (2, 4), phrase
        assert all(w in files for w in squares[::2]) and all(w in rank_words for w in squares[1::2])
    assert len(set(phrases)) == len(phrases), "no phrase twice"
    assert enrolment_phrases(vocab, 3) == phrases[:3]


# -- learning from recordings (--from) -----------------------------------------------------------


@needs_espeak
@pytest.mark.slow
def test_recordings_of_one_voice_make_a_transform_that_hears_that_voice_better(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vocab = Vocabulary.default()
    phrases = enrolment_phrases(vocab, 44)
    enrol, other = phrases[:12], phrases[20:44]  # the other moves are never enrolled
    audio = tmp_path / "audio"
    audio.mkdir()
    listing = recordings(
        audio, [(vocab.display(s.phrase), s.pcm) for s in (said(vocab, p, audio) for p in enrol)]
    )
    output = tmp_path / "voice" / "anna.mllr"
    assert main(["enrol", "--from", str(listing), "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "Ihre Stimme ist gelernt:" in printed and "von 12 Zügen verwendet" in printed
    assert "Bei diesen Übungszügen selbst hat die Spracherkennung vorher" in printed
    description = json.loads(output.with_suffix(".json").read_text(encoding="utf-8"))
    assert description["utterances"] + len(description["skipped"]) == 12
    Adaptation.load(output)
    assert not default_path().exists(), "--output, not the data folder"
    # Other moves of the same voice, in a context of all 44 phrases. Measured: 16 of 24 heard
    # right before, 24 after.
    tests = [said(vocab, p, audio) for p in other]
    before = heard_right(SphinxRecognizer(vocab), tests, phrases, vocab)
    after = heard_right(SphinxRecognizer(vocab, adaptation=output), tests, phrases, vocab)
    print(f"\nother moves of {VOICE} heard right: {before} before, {after} after, of {len(tests)}")
    assert after >= before + 4
    assert after >= 0.85 * len(tests)


@needs_espeak
def test_too_little_speech_says_so_and_keeps_the_saved_voice(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vocab = Vocabulary.default()
    one = said(vocab, ("springer", "felix", "drei"), tmp_path)
    listing = recordings(
        tmp_path,
        [
            ("Springer Felix drei", one.pcm),  # one move: not enough speech
            ("Dame David fünf", noise("pinknoise", 2.0, 0.3)),  # no speech at all
        ],
    )
    output = tmp_path / "voice.mllr"
    output.write_text("the voice enrolled last week\n", encoding="utf-8")
    assert main(["enrol", "--from", str(listing), "--output", str(output)]) == 1
    printed = capsys.readouterr()
    assert "Zu wenig von dem Gesprochenen passte zu den verlangten Wörtern" in printed.out
    assert "Es wurde nichts gespeichert." in printed.out
    assert "too little speech" in printed.err
    assert output.read_text(encoding="utf-8") == "the voice enrolled last week\n"
    assert not output.with_suffix(".json").exists()


def test_a_bad_recordings_file_names_the_line(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "list.jsonl"
    listing.write_text('# made by hand\n{"wav": "missing.wav", "text": "Eva vier"}\n')
    assert main(["enrol", "--from", str(listing), "--output", str(tmp_path / "v.mllr")]) == 2
    assert "list.jsonl, line 2: " in capsys.readouterr().err
    assert not (tmp_path / "v.mllr").exists()
    listing.write_text("[" * 100_000 + "]" * 100_000 + "\n")  # nested beyond recursion
    assert main(["enrol", "--from", str(listing), "--output", str(tmp_path / "v.mllr")]) == 2
    assert "list.jsonl, line 1: not JSON (nested too deeply)" in capsys.readouterr().err


def test_forget_deletes_the_saved_voice_and_says_so(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = default_path()
    path.parent.mkdir(parents=True)
    path.write_text("1\n3\n", encoding="utf-8")
    path.with_suffix(".json").write_text("{}\n", encoding="utf-8")
    half_written = [path.with_name(path.name + ".part"), path.with_name("voice.json.part")]
    for file in half_written:  # a crash while saving
        file.write_text("1\n", encoding="utf-8")
    assert main(["enrol", "--forget", "--no-speech"]) == 0
    assert "Ihre gelernte Stimme ist gelöscht" in capsys.readouterr().out
    assert not path.exists() and not path.with_suffix(".json").exists()
    assert not any(file.exists() for file in half_written)
    assert main(["enrol", "--forget", "--no-speech", "--language", "en"]) == 0
    assert "No learned voice is saved." in capsys.readouterr().out


def test_another_recogniser_is_told_that_only_the_embedded_one_learns(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "vosk.toml"
    config.write_text('[speech]\nrecognizer = "vosk"\n', encoding="utf-8")
    status = main(
        ["--config", str(config), "enrol", "--no-speech", "--output", str(tmp_path / "v")]
    )
    assert status == 2
    printed = capsys.readouterr()
    assert "hilft nur der eingebauten Spracherkennung PocketSphinx; eingestellt ist Vosk" in (
        printed.out
    )
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize(
    ("recognizer", "second_opinion", "adapts"),
    [
        ("sphinx", False, True),
        ("auto", True, True),  # Whisper's second opinion hears with the voice
        ("auto", False, True),  # where Whisper cannot load, PocketSphinx listens alone
        ("whisper", True, True),
        ("whisper", False, False),  # Whisper alone is never adapted
        ("vosk", True, False),
    ],
)
def test_the_voice_is_learnt_wherever_pocketsphinx_hears_alone_or_as_the_vote(
    settings: Settings, recognizer: str, second_opinion: bool, adapts: bool
) -> None:
    chosen = override(settings, speech={"recognizer": recognizer, "second_opinion": second_opinion})
    assert adapts_a_voice(chosen) is adapts


@pytest.mark.slow
def test_without_a_microphone_it_says_so(home: Path, tmp_path: Path) -> None:
    con = Console("enrol", "--no-speech", "--output", str(tmp_path / "v"), no_audio=True)
    try:
        con.expect("Kein Mikrofon gefunden: Zum Lernen Ihrer Stimme braucht das Programm eines.")
        assert con.wait() == 2
    finally:
        con.close()
    assert not (tmp_path / "v").exists()


# -- at the microphone ---------------------------------------------------------------------------

WAIT_S = 30.0


def wait_until_said(recording: object, since: float, quiet_s: float = 1.2) -> None:
    """Wait until the program has spoken after ``since`` (monotonic; the line is printed when
    the sentence is queued, the sound follows) and then fallen silent: only then does it take
    an answer."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        spans = recording.active_spans()  # type: ignore[attr-defined]
        if spans and spans[-1][1] > since and time.monotonic() - spans[-1][1] > quiet_s:
            return
        time.sleep(0.1)
    raise AssertionError("the program did not speak, or never stopped speaking")


def say(pulse: PulseAudio, words: str) -> None:
    speech = espeak(speakable(words, "de"), "de", 16000, 140)
    pulse.play(np.concatenate([speech, np.zeros(8000, dtype=np.int16)]), 16000)


@pytest.mark.audio
@pytest.mark.slow
def test_stopping_with_the_stop_key_after_a_move_saves_nothing(
    pulse: PulseAudio, home: Path, tmp_path: Path
) -> None:
    output = tmp_path / "voice.mllr"
    con = PtyConsole("enrol", "--output", str(output))
    try:
        with pulse.record("speaker.monitor") as heard:
            con.expect("Ich lerne jetzt Ihre Stimme")
            con.expect("Taste r: den Zug noch einmal; Taste q: abbrechen.")
            con.expect("Sagen Sie: Springer Felix drei.")
            wait_until_said(heard, time.monotonic())
            say(pulse, "Springer Felix drei")
            con.expect("Sagen Sie: Läufer Cesar sechs.")
            con.type(b"q")
            con.expect("Abgebrochen: Es wurde nichts gespeichert.")
        assert con.wait() == 1
    finally:
        con.close()
    assert not output.exists() and not default_path().exists()


@pytest.mark.audio
@pytest.mark.slow
def test_a_short_spoken_enrolment_saves_a_voice_the_recogniser_loads(
    pulse: PulseAudio, home: Path, tmp_path: Path
) -> None:
    vocab = Vocabulary.default()
    phrases = [vocab.display(p) for p in enrolment_phrases(vocab, 5)]
    output = default_path()  # where games look for it
    con = Console("enrol", "--count", "5")
    try:
        con.expect("Ich lerne jetzt Ihre Stimme: Ich sage 5 Züge")
        with pulse.record("speaker.monitor") as heard:
            for number, phrase in enumerate(phrases):
                con.expect(f"Sagen Sie: {phrase}.")
                wait_until_said(heard, time.monotonic())
                if number == 1:  # the command word asks for the phrase again
                    say(pulse, "Wiederholen")
                    con.expect(f"Sagen Sie: {phrase}.")
                    wait_until_said(heard, time.monotonic())
                say(pulse, phrase)
        con.expect("Ich lerne Ihre Stimme, einen Moment bitte.")
        learned = con.expect("Ihre Stimme ist gelernt:")
        assert "von 5 Zügen verwendet" in learned
        con.expect(f"Gespeichert in {output}")
        check = con.expect("Bei diesen Übungszügen selbst")
        assert "von 5 richtig gehört" in check
        assert con.wait() == 0
    finally:
        con.close()
    Adaptation.load(output)
    SphinxRecognizer(vocab, adaptation=output)
    assert json.loads(output.with_suffix(".json").read_text(encoding="utf-8"))["utterances"] >= 4
    # The recordings stay, with those of games, for learning the voice again after a game.
    kept = RecordingStore().entries()
    assert [entry["text"] for entry in kept] == [" ".join(p) for p in enrolment_phrases(vocab, 5)]
    assert all(entry["wav"].startswith("enrol-") for entry in kept)
