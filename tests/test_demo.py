"""``voice-chess demo`` as a user runs it on a machine without any audio device.

The demo must finish its game with every one of the blind player's moves recognised from the
audio the text-to-speech engine rendered, and print the transcript and the PGN. Running plain
``voice-chess`` on such a machine must choose the demo and say so.
"""

from __future__ import annotations

import io
import re

import chess.pgn
import pytest
from console import Console
from pulse import PulseAudio

from voice.cli.demo import GAME


@pytest.mark.slow
def test_plain_voice_chess_without_audio_runs_the_demo_to_the_end() -> None:
    con = Console(no_audio=True)
    try:
        con.expect("Kein Mikrofon gefunden: ich zeige eine Vorführung (voice-chess demo).")
        start = con.expect("voice-chess demo: eine kurze Partie durch die echte Verarbeitung.")
        assert "Erkennung: Whisper base" in start and "Kein Audiogerät" in start
        assert con.wait() == 0
    finally:
        con.close()
    out = con.output()
    blind_moves = (len(GAME) + 1) // 2
    said = re.findall(r"^  gesagt:   (.*)$", out, re.MULTILINE)
    made = re.findall(r"^  gemacht:  (\S+)", out, re.MULTILINE)
    assert made == ["e4", "Bc4", "Qh5", "Qxf7#"], out
    assert len(said) >= blind_moves
    for line in re.findall(r"^  gehört:   (.*)$", out, re.MULTILINE):
        assert line != "—" or len(said) > blind_moves  # an unheard attempt is said again
    assert f"{blind_moves} von {blind_moves} Zügen des blinden Spielers aus dem Ton erkannt" in out
    assert "angesagt: Eva fünf" in out and "angesagt: Springer Cesar sechs" in out
    assert "Dame schlägt Felix sieben matt. Weiß gewinnt: Schachmatt." in out  # two sentences
    game = chess.pgn.read_game(io.StringIO(out[out.index("[Event") :]))
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == list(GAME)
    assert game.headers["Result"] == "1-0"
    assert "%clk" in out


@pytest.mark.audio
@pytest.mark.slow
def test_with_a_loudspeaker_the_demo_is_heard(pulse: PulseAudio) -> None:
    """Where a loudspeaker exists the player's voice and the announcements are played."""
    with pulse.record("speaker.monitor") as heard:
        con = Console("demo")
        try:
            con.expect("Ton über")
            con.expect("4 von 4 Zügen des blinden Spielers aus dem Ton erkannt")
            assert con.wait() == 0
        finally:
            con.close()
    assert len(heard.active_spans()) >= len(GAME)  # every move was said aloud


def test_the_transcript_keeps_sentences_apart_in_every_script() -> None:
    from voice.cli.demo import _sentences

    assert _sentences(["Dame Hector fünf", "Weiß gewinnt."]) == "Dame Hector fünf. Weiß gewinnt."
    assert _sentences(["Eva vier?", "Ja."]) == "Eva vier? Ja."
    assert _sentences(["إيفا أربعة؟", "نعم."]) == "إيفا أربعة؟ نعم."  # the Arabic question mark
