"""Learning the player's voice from games: which recordings are kept, how many, and learning
again in the background after a game (real espeak-ng speech, a real enrol process)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import chess
import numpy as np
import pytest
from speech_audio import needs_espeak, synthesize

from voice.cli import main
from voice.rules.events import MoveMade, Say
from voice.speech import learning
from voice.speech.learning import GameLearner, RecordingStore
from voice.speech.recognizers.adaptation import Adaptation, default_path
from voice.speech.wavio import load_for_recognition
from voice.words.phrases import spoken_forms
from voice.words.vocabulary import Phrase, Vocabulary


def _after(*moves: str) -> chess.Board:
    board = chess.Board()
    for move in moves:
        board.push_uci(move)
    return board


def _tone(seconds: float, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 3000, int(16000 * seconds)).astype(np.int16)


def test_a_move_said_then_confirmed_keeps_the_recording_of_the_move_with_its_words(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    """The move's utterance lies before the "ja" that confirmed it; its words are those the
    recogniser heard for the move that was played, not its first guess."""
    store = RecordingStore(tmp_path / "recordings")
    move_audio, yes_audio = _tone(1.5, 1), _tone(0.5, 2)
    recent = [
        ((("springer felix drei", 0.6), ("springer hector drei", 0.4)), move_audio),
        ((("ja", 0.9),), yes_audio),
    ]
    learner = GameLearner(store, vocab, lambda: recent)
    board = _after("g1h3")  # the recogniser's second reading was the move played
    learner.on_outputs([Say(5, "Springer h3"), MoveMade(5, "g1h3", "Nh3", "white")], board, "white")
    entries = store.entries()
    assert [entry["text"] for entry in entries] == ["springer hector drei"]
    assert np.array_equal(load_for_recognition(store.folder / entries[0]["wav"]), move_audio)
    assert learner.kept == 1


def test_the_opponents_moves_and_moves_not_said_are_not_kept(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    store = RecordingStore(tmp_path / "recordings")
    recent = [((("bauer eva vier", 0.9),), _tone(1.0, 3))]
    learner = GameLearner(store, vocab, lambda: recent)
    # The sighted opponent's move, although the player's last utterance named a move.
    learner.on_outputs([MoveMade(9, "e7e5", "e5", "black")], _after("e2e4", "e7e5"), "white")
    # A move of the player's that no recent utterance named (typed, keys, the web board).
    learner.on_outputs([MoveMade(9, "d2d4", "d4", "white")], _after("d2d4"), "white")
    assert store.entries() == [] and learner.kept == 0


def test_a_damaged_line_of_the_recordings_list_is_skipped_and_the_next_move_kept(
    tmp_path: Path,
) -> None:
    """A byte that is not UTF-8 (a damaged disk) must not take a game down at the next move."""
    store = RecordingStore(tmp_path / "recordings")
    store.folder.mkdir(parents=True)
    store.index.write_bytes(b'{"wav": "old.wav", "text": "k\xf6nig"}\n')
    store.add(_tone(1.0, 5), ("springer", "felix", "drei"), "game")
    assert [entry["text"] for entry in store.entries()] == ["springer felix drei"]


def test_only_the_latest_recordings_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(learning, "MAX_KEPT", 3)
    store = RecordingStore(tmp_path / "recordings")
    paths = [store.add(_tone(0.2, n), ("eva", str(n)), "game") for n in range(5)]
    assert [entry["text"] for entry in store.entries()] == ["eva 2", "eva 3", "eva 4"]
    assert [path.exists() for path in paths] == [False, False, True, True, True]


def test_a_game_with_too_few_new_moves_starts_no_learning(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    store = RecordingStore(tmp_path / "recordings")
    for n in range(learning.MIN_TO_LEARN):
        store.add(_tone(0.2, n), ("eva", "vier"), "enrol")
    recent: list[tuple[tuple[tuple[str, float], ...], np.ndarray]] = []
    learner = GameLearner(store, vocab, lambda: recent)
    audio = [_tone(0.5, n) for n in range(learning.MIN_NEW - 1)]
    _play_said_moves(learner, chess.Board(), recent, audio, vocab)
    assert learner.kept == learning.MIN_NEW - 1
    assert learner.finish() is None


@pytest.mark.slow
@needs_espeak
def test_a_game_with_enough_new_moves_learns_the_voice_in_the_background(
    tmp_path: Path, vocab: Vocabulary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What happens after a game: ``voice-chess enrol --from`` on the kept recordings, in its
    own process; the next game finds the voice where ``adaptation = "auto"`` looks."""
    monkeypatch.setattr(learning, "MIN_TO_LEARN", 12)  # twelve moves are quicker to make
    monkeypatch.setattr(learning, "MIN_NEW", 0)  # kept before this game
    store = RecordingStore()
    said = ["Springer Felix drei", "Bauer Eva vier", "Dame Hector fünf", "Turm David eins"]
    said += ["Läufer Cesar vier", "Bauer Bella drei", "Springer Anna sechs", "König Gustav zwei"]
    said += ["Lange Rochade", "Kurze Rochade", "Bauer Anna vier", "Dame David acht"]
    for text in said:
        store.add(synthesize(text, tmp_path), vocab.normalize(text), "game")
    learner = GameLearner(store, vocab, list)
    assert not default_path().exists()
    process = learner.finish()
    assert process is not None
    if shutil.which("nice"):  # it gives way to the next game
        wanted = min(os.nice(0) + learning.LEARNING_NICENESS, 19)
        deadline = time.monotonic() + 5  # ``nice`` sets it just after it starts
        while _niceness(process.pid) != wanted and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _niceness(process.pid) == wanted
    assert process.wait(timeout=300) == 0, (store.folder / "learning.log").read_text()
    Adaptation.load(default_path())  # a whole, readable transform
    log = (store.folder / "learning.log").read_text(encoding="utf-8")
    assert str(default_path()) in log
    assert [entry["text"] for entry in store.entries()] == [
        " ".join(vocab.normalize(t)) for t in said
    ]


def _play_said_moves(
    learner: GameLearner,
    board: chess.Board,
    recent: list[tuple[tuple[tuple[str, float], ...], np.ndarray]],
    audio: list[np.ndarray],
    vocab: Vocabulary,
) -> None:
    """The player (White) says each move, it is played and the opponent answers."""
    for n, pcm in enumerate(audio):
        move = next(iter(board.legal_moves))
        recent.append((((" ".join(spoken_forms(board, move, vocab)[0]), 0.9),), pcm))
        board.push(move)
        learner.on_outputs([MoveMade(n, move.uci(), "", "white")], board, "white")
        reply = next(iter(board.legal_moves))
        board.push(reply)
        learner.on_outputs([MoveMade(n, reply.uci(), "", "black")], board, "white")


def _spoken_moves(count: int, vocab: Vocabulary, folder: Path) -> list[tuple[Phrase, np.ndarray]]:
    """What ``_play_said_moves`` will play from the start, said by espeak-ng: the phrases and
    their audio."""
    board, said = chess.Board(), []
    for _ in range(count):
        move = next(iter(board.legal_moves))
        phrase = spoken_forms(board, move, vocab)[0]
        said.append((phrase, synthesize(vocab.display(phrase), folder)))
        board.push(move)
        board.push(next(iter(board.legal_moves)))
    return said


@pytest.mark.slow
@needs_espeak
def test_a_first_game_learns_the_voice_as_soon_as_it_can_and_hears_the_rest_with_it(
    tmp_path: Path, vocab: Vocabulary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player with no learnt voice should not wait for the next game: once enough moves are
    kept, the voice is learnt while the game goes on and handed over when ready; the end of
    the game learns again only if enough came after."""
    monkeypatch.setattr(learning, "MIN_TO_LEARN_IN_GAME", 12)  # twelve are quicker to make
    monkeypatch.setattr(learning, "MIN_NEW", 12)
    audio = [pcm for _, pcm in _spoken_moves(13, vocab, tmp_path)]
    learnt: list[Path] = []
    recent: list[tuple[tuple[tuple[str, float], ...], np.ndarray]] = []
    learner = GameLearner(RecordingStore(), vocab, lambda: recent, learnt.append)
    board = chess.Board()
    _play_said_moves(learner, board, recent, audio[:11], vocab)
    assert learner.learning is None  # eleven are not enough
    _play_said_moves(learner, board, recent, audio[11:12], vocab)
    process = learner.learning
    assert process is not None and learner.kept == 12
    assert process.wait(timeout=300) == 0
    assert learnt == []  # handed over at the next turn of the game, on the loop
    _play_said_moves(learner, board, recent, audio[12:], vocab)
    assert learnt == [default_path()] and learner.learning is None
    Adaptation.load(default_path())
    assert learner.finish() is None  # one move since: nothing new to learn from


@pytest.mark.slow
@needs_espeak
def test_a_learning_still_running_at_the_end_gives_way_to_one_with_the_later_moves(
    tmp_path: Path, vocab: Vocabulary, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Otherwise the older learning, ending later, would overwrite the newer voice."""
    monkeypatch.setattr(learning, "MIN_TO_LEARN_IN_GAME", 12)
    monkeypatch.setattr(learning, "MIN_TO_LEARN", 12)
    monkeypatch.setattr(learning, "MIN_NEW", 2)
    store = RecordingStore()
    for phrase, pcm in _spoken_moves(10, vocab, tmp_path):  # from earlier games
        store.add(pcm, phrase, "game")
    learnt: list[Path] = []
    recent: list[tuple[tuple[tuple[str, float], ...], np.ndarray]] = []
    learner = GameLearner(store, vocab, lambda: recent, learnt.append)
    board = chess.Board()
    audio = [pcm for _, pcm in _spoken_moves(4, vocab, tmp_path)]
    _play_said_moves(learner, board, recent, audio[:2], vocab)
    during = learner.learning
    assert during is not None
    _play_said_moves(learner, board, recent, audio[2:], vocab)  # two more while it learns
    assert during.poll() is None
    final = learner.finish()
    assert final is not None and final is not during
    assert during.returncode not in (None, 0)  # stopped
    assert final.wait(timeout=300) == 0
    assert learnt == []
    Adaptation.load(default_path())


def _niceness(pid: int) -> int:
    """A running process's nice value (Linux: field 19 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


def test_the_recording_of_a_move_the_arbiter_takes_back_is_forgotten(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    """D.2.9: when the boards disagreed and moves are taken back, a misheard move may be why;
    its recording must not teach the voice wrong words. Earlier moves stay."""
    store = RecordingStore(tmp_path / "recordings")
    recent: list[tuple[tuple[tuple[str, float], ...], np.ndarray]] = []
    learner = GameLearner(store, vocab, lambda: recent)
    recent.append(((("bauer eva vier", 0.9),), _tone(1.0, 5)))
    learner.on_outputs([MoveMade(1, "e2e4", "e4", "white")], _after("e2e4"), "white")
    recent.append(((("springer felix drei", 0.9),), _tone(1.0, 6)))
    board = _after("e2e4", "e7e5", "g1f3")
    learner.on_outputs([MoveMade(3, "g1f3", "Nf3", "white")], board, "white")
    assert learner.kept == 2
    second = store.folder / store.entries()[1]["wav"]
    assert second.exists()
    board.pop()  # the arbiter takes the last half-move back
    learner.on_outputs([Say(4, "Zurückgenommen")], board, "white")
    assert [entry["text"] for entry in store.entries()] == ["bauer eva vier"]
    assert not second.exists()
    assert learner.kept == 1
    board.pop()  # the opponent's move: nothing of the player's to forget
    learner.on_outputs([Say(5, "Zurückgenommen")], board, "white")
    assert learner.kept == 1


def test_forgetting_the_voice_also_deletes_the_kept_recordings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = RecordingStore()
    store.add(_tone(0.3, 1), ("eva", "vier"), "game")
    assert main(["enrol", "--forget", "--no-speech", "--language", "en"]) == 0
    assert not store.folder.exists()
    assert "No learned voice is saved." not in capsys.readouterr().out
