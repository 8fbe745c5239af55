"""``voice-chess play`` with speech in and out through virtual audio devices, and a web opponent.

The program runs as a child process on the private PulseAudio daemon (``tests/pulse.py``): it
records the virtual microphone ``vmic`` and speaks on ``speaker``. The test plays synthesized
speech into ``mic_feed`` (what the blind player says), records ``speaker.monitor`` (what the
player hears), and moves for the sighted opponent through the web board's WebSocket. The
printed lines say what the program understood and announced; the recording proves it was
spoken aloud.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
from console import Console, socket_for, state_where
from pulse import PulseAudio, espeak

from voice.rules.events import BlindSpeech, SightedMove
from voice.runtime.journal import read_journal
from voice.speech.learning import RecordingStore
from voice.words.phrases import speakable

pytestmark = [pytest.mark.audio, pytest.mark.slow]

WAIT_S = 30.0


def say(pulse: PulseAudio, words: str) -> float:
    """The blind player says ``words`` into the microphone, followed by a pause; returns the
    monotonic time the last word ended (its last loud sample)."""
    speech = espeak(speakable(words, "de"), "de", 16000, 140)
    started, _ = pulse.play(np.concatenate([speech, np.zeros(16000, dtype=np.int16)]), 16000)
    loud = np.flatnonzero(np.abs(speech.astype(np.int32)) > 300)
    return started + (int(loud[-1]) + 1) / 16000


def wait_until_quiet(recording: object, quiet_s: float = 1.5) -> None:
    """Wait until the program has said everything (no sound for ``quiet_s``): while it speaks,
    the half-duplex microphone takes nothing but stop words."""
    deadline = time.monotonic() + 4 * WAIT_S
    while time.monotonic() < deadline:
        spans = recording.active_spans()  # type: ignore[attr-defined]
        last = spans[-1][1] if spans else recording.started_at  # type: ignore[attr-defined]
        if time.monotonic() - last > quiet_s:
            return
        time.sleep(0.2)
    raise AssertionError("the program never stopped speaking")


def heard_speech_after(recording: object, since: float) -> bool:
    """Whether the loudspeaker carried sound after the monotonic time ``since``."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if any(end > since for _, end in recording.active_spans()):  # type: ignore[attr-defined]
            return True
        time.sleep(0.2)
    return False


def test_spoken_moves_heard_back_and_a_web_opponent(pulse: PulseAudio, tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    con = Console("play", "--port", "0", "--journal", str(journal), "--control", "900+10")
    try:
        using = con.expect("voice-chess, Heimpartie: Spracherkennung")
        assert "am Mikrofon" in using and "Sprachausgabe über" in using
        opponent_url = con.expect("http://").strip()
        con.expect("Das Brett des Gegners ist unter 127.0.0.1, Port")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        with pulse.record("speaker.monitor") as heard:
            wait_until_quiet(heard)
            speech_end = say(pulse, "Springer Felix drei")
            assert con.next_line() == "Springer Felix drei"
            assert heard_speech_after(heard, speech_end), "the confirmation was never spoken"
            # Issue 5's figure (a report, not a limit): end of the player's words to the first
            # sound of the confirmation on the loudspeaker. Target 400 ms; run with -s to see it.
            answer = min(start for start, _ in heard.active_spans() if start > speech_end)
            print(f"\nend of speech -> confirmation audio: {(answer - speech_end) * 1000:.0f} ms")
            with socket_for(opponent_url) as opponent:
                state_where(opponent, lambda v: v["ply"] == 1)
                opponent.send(json.dumps({"type": "move", "uci": "d7d5", "ply": 1}))
                assert con.next_line() == "David fünf"
            wait_until_quiet(heard)
            say(pulse, "Züge")  # a request, answered only when asked
            con.expect("Gespielt: ein Zug.")
    finally:
        con.process.send_signal(2)  # Ctrl-C: the game is saved and the way to resume printed
        con.expect("Fortsetzen mit: voice-chess play --resume")
        assert con.wait() == 0
        con.close()
    events = read_journal(journal).events
    spoken = [e for e in events if isinstance(e, BlindSpeech)]
    assert spoken[0].nbest and spoken[0].nbest[0][0].lower() == "springer felix drei"
    assert any(isinstance(e, SightedMove) and e.move == "d7d5" for e in events)
    # The move said is kept with its words, to learn the voice PocketSphinx votes with as
    # Whisper's second opinion (the default); the opponent's move is not.
    kept = RecordingStore().entries()
    assert [entry["text"] for entry in kept] == ["springer felix drei"]
    assert (RecordingStore().folder / kept[0]["wav"]).is_file()


def test_strength_chosen_by_voice_then_a_spoken_game_against_stockfish(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    """A level said by voice is asked back (a number said alone is the likeliest word to be
    misheard, and the strength cannot be changed during the game): "nein" asks again."""
    journal = tmp_path / "engine.jsonl"
    con = Console("play", "--no-speech", "--opponent", "engine", "--journal", str(journal))
    try:
        con.expect("Spielstärke des Computers?")
        say(pulse, "zwei")
        con.expect("Stufe zwei?")
        say(pulse, "nein")
        con.expect("Spielstärke des Computers?")
        say(pulse, "zwei")
        con.expect("Stufe zwei?")
        say(pulse, "ja")
        con.expect("Der Computer spielt auf Stufe zwei.")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        say(pulse, "Springer Felix drei")
        assert con.next_line() == "Springer Felix drei"
        reply = con.next_line()  # Stockfish's move, in Appendix D words
        events = read_journal(journal).events
        assert isinstance(events[-1], SightedMove)
        assert reply and reply != "Nicht verstanden."
    finally:
        con.process.send_signal(2)
        con.expect("Fortsetzen mit:")
        con.wait()
        con.close()
    assert read_journal(journal).setup.extra["engine_level"] == 2


def test_the_clock_starts_once_the_start_up_sentences_are_said(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    """The start-up sentences (what is used, the time control, the Laws) take several seconds
    to say; the player's clock ran while they were said and before "Die Partie beginnt" was
    heard (a player's trial: 20 s of a 15-minute game gone)."""
    from voice.rules.events import BlindSpeech
    from voice.runtime.journal import read_journal

    journal = tmp_path / "game.jsonl"
    with pulse.record("speaker.monitor") as heard:
        con = Console(
            "play", "--text", "--no-web", "--opponent", "engine", "--level", "1",
            "--journal", str(journal),
        )  # fmt: skip
        try:
            con.expect("Die Partie beginnt.")
            wait_until_quiet(heard, quiet_s=0.5)
            spoken = sum(end - start for start, end in heard.active_spans())
            con.type("Eva vier")
            con.expect("Eva vier")
            con.end_input()
            assert con.wait() == 0
        finally:
            con.close()
    (move,) = [e for e in read_journal(journal).events if isinstance(e, BlindSpeech)]
    # "Die Partie beginnt. Sie spielen Weiß." and the typing (about 3 s), not the whole start-up
    assert move.t_ms < 6000 < spoken * 1000


def test_speech_that_names_no_legal_move_is_journaled_with_the_free_guess(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    """The microphone hands the recogniser's free transcription of speech that fitted no
    phrase to the game (which says why a move it names is illegal, tests/test_illegal_said.py),
    and the journal keeps it, so a resumed game replays the same answer."""
    from voice.rules.events import BlindSpeech
    from voice.runtime.journal import read_journal

    journal = tmp_path / "g.jsonl"
    con = Console("play", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("Die Partie beginnt.")
        speech = espeak("Das war ein guter Zug", "de", 16000, 140)
        pulse.play(np.concatenate([speech, np.zeros(16000, dtype=np.int16)]), 16000)
        assert con.next_line() == "Nicht verstanden."
    finally:
        con.close()
    (heard,) = [e for e in read_journal(journal).events if isinstance(e, BlindSpeech)]
    assert heard.nbest == () and heard.guess  # what Whisper wrote varies with the cut
