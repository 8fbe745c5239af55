"""``voice-chess assist`` end to end: arbiter approval, a web opponent, the D.2.10 duties.

The program runs as a child process with typed input (``--text --no-speech``); the sighted
opponent and the arbiter are WebSocket clients of the real web board it serves. Checked: the
set-up is read out and approved before the clock starts (the approval is the journal's first
input, at game time zero), both players' moves are announced, time only on request, a touched
piece reported by the blind player reaches the arbiter's log, an arbiter action reaches the blind
player, and the deaf opponent's page shows the blind player's moves as large text (D.2.11).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from console import Console, socket_for, state_where
from pulse import PulseAudio, espeak

from voice.events import ArbiterAction, BlindSpeech
from voice.journal import read_journal


def test_tournament_board_with_web_opponent_and_arbiter(tmp_path: Path) -> None:
    journal = tmp_path / "board.jsonl"
    con = Console(
        "assist",
        "--text",
        "--no-speech",
        "--deaf-opponent",
        "--port",
        "0",
        "--control",
        "5400+30",
        "--journal",
        str(journal),
    )
    try:
        con.expect("voice-chess, Turnierbrett: getippte Züge und Befehle; Ausgabe nur als Text.")
        con.expect("Turnierprofil, Auskunft nur auf Anfrage, Bedenkzeit eine Stunde dreißig")
        summary = con.expect("Aufbau für den Schiedsrichter:")
        assert "Reihen: eins, zwei, drei, vier, fünf, sechs, sieben, acht." in summary
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        assert read_journal(journal).events == ()  # nothing happens before the approval
        con.type("")  # the arbiter presses Enter
        con.expect("Aufbau vom Schiedsrichter bestätigt.")
        opponent_url = con.expect("http://").strip()
        arbiter_url = con.expect("http://").strip()
        assert "/play?key=" in opponent_url and "/arbiter?key=" in arbiter_url
        con.expect("Das Brett des Gegners ist unter 127.0.0.1, Port")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")

        first = read_journal(journal).events[0]
        assert isinstance(first, ArbiterAction) and first.action == "approve_setup"
        assert first.t_ms == 0 and first.params["time_control"] == "5400+30"
        assert first.params["blind"] == "white" and len(first.params["rank_words"]) == 8

        with socket_for(opponent_url) as opponent, socket_for(arbiter_url) as arbiter:
            con.type("Eva vier")
            assert con.next_line() == "Eva vier"
            view = state_where(opponent, lambda v: v["ply"] == 1)
            assert view["large_text"] is True and view["last_blind"]["spoken"] == "Eva vier"
            opponent.send(json.dumps({"type": "move", "uci": "e7e5", "ply": 1}))
            assert con.next_line() == "Eva fünf"  # the sighted player's move, announced
            con.type("Zeit")
            con.expect("Gespielt: ein Zug.")
            con.type("berührt")
            con.expect("Für den Schiedsrichter: Gemeldet vom blinden Spieler: Schwarz hat")
            con.expect("Für den Schiedsrichter notiert: der Gegner hat eine Figur berührt.")
            log = state_where(arbiter, lambda v: any(e["kind"] == "touched" for e in v["log"]))
            assert [e["kind"] for e in log["log"]][:2] == ["approve_setup", "touched"]
            arbiter.send(
                json.dumps({"type": "add_time", "side": "white", "seconds": 120, "reason": "test"})
            )
            con.expect("Schiedsrichter: Weiß hat jetzt")
        con.end_input()
        con.expect("1. e4")
        assert con.wait() == 0
    finally:
        con.close()
    said = "\n".join(con.lines)
    assert "Noch " not in said  # tournament profile: no unsolicited low-time warnings
    spoken = [e for e in read_journal(journal).events if isinstance(e, BlindSpeech)]
    assert [e.nbest[0][0] for e in spoken] == ["Eva vier", "Zeit", "berührt"]


@pytest.mark.audio
def test_the_microphone_cannot_approve_the_set_up_only_the_arbiters_terminal(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    journal = tmp_path / "board.jsonl"
    con = Console("assist", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("voice-chess, Turnierbrett: Spracherkennung")
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        pulse.play(
            np.concatenate([espeak("ja", "de", 16000, 140), np.zeros(16000, np.int16)]), 16000
        )
        con.type("nein")  # not an approval either: asked again
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        assert read_journal(journal).events == ()
        con.type("")  # Enter on the arbiter's terminal
        con.expect("Aufbau vom Schiedsrichter bestätigt.")
        con.expect("Die Partie beginnt.")
        con.process.send_signal(2)
        assert con.wait() == 0
    finally:
        con.close()
    first = read_journal(journal).events[0]
    assert isinstance(first, ArbiterAction) and first.action == "approve_setup" and first.t_ms == 0
