"""``voice-chess assist`` end to end: arbiter approval, a web opponent, the D.2.10 duties.

The program runs as a child process with typed input (``--text --no-speech``); the sighted
opponent and the arbiter are WebSocket clients of the real web board it serves. Checked: the
set-up is read out and approved before the clock starts (the approval is the journal's first
input, at game time zero), at the terminal or on the arbiter's page, whichever comes first, and
only with the arbiter's secret; both players' moves are announced, time only on request, a
touched piece reported by the blind player reaches the arbiter's log, an arbiter action reaches
the blind player, and the deaf opponent's page shows the blind player's moves as large text
(D.2.11).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from console import Console, socket_for, state_where
from pulse import PulseAudio, espeak
from websockets.sync.client import ClientConnection

from voice.rules.events import ArbiterAction, BlindSpeech
from voice.runtime.journal import read_journal


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
        # What the player may ask about the board (issue 22; 11.3.1 for analysis aids).
        describe = "Beschreibungen des Bretts auf Anfrage: erlaubt. Analysehilfen: abgelehnt"
        assert describe + " (Artikel 11.3)." in summary
        assert "Reihen: eins, zwei, drei, vier, fünf, sechs, sieben, acht." in summary
        assert summary.strip().endswith("FIDE-Regeln 2023.")  # the arbiter approves the Laws too
        # The pages are served before the approval: the arbiter may approve on them too.
        opponent_url = con.expect("http://").strip()
        arbiter_url = con.expect("http://").strip()
        assert "/play?key=" in opponent_url and "/arbiter?key=" in arbiter_url
        con.expect("Das Brett des Gegners ist unter 127.0.0.1, Port")
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        assert read_journal(journal).events == ()  # nothing happens before the approval
        con.type("")  # the arbiter presses Enter
        con.expect("Aufbau vom Schiedsrichter bestätigt.")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")

        first = read_journal(journal).events[0]
        assert isinstance(first, ArbiterAction) and first.action == "approve_setup"
        assert first.params["laws"] == "2023"
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


# -- the set-up approved on the arbiter's page ------------------------------------------------


def _assist_waiting_for_approval(journal: Path) -> tuple[Console, dict[str, str]]:
    """``assist`` with the web board, asking for the approval; the pages' addresses by role."""
    con = Console(
        "assist", "--text", "--no-speech", "--port", "0", "--control", "900+10",
        "--journal", str(journal),
    )  # fmt: skip
    try:
        con.expect("Aufbau für den Schiedsrichter:")
        urls = {role: con.expect("http://").strip() for role in ("play", "arbiter", "watch")}
        assert all(f"/{role}" in url for role, url in urls.items()), urls
        question = con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        assert "Schiedsrichter-Webseite" in question  # the prompt names the page's button
    except BaseException:
        con.close()
        raise
    return con, urls


def _error(ws: ClientConnection, message: dict[str, Any]) -> str:
    """The code of the error ``message`` is answered with (states in between are skipped)."""
    ws.send(json.dumps(message))
    while (reply := json.loads(ws.recv(timeout=30)))["type"] != "error":
        pass
    return str(reply["code"])


def test_the_arbiter_approves_the_set_up_on_the_web_page_and_the_terminal_is_told(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "board.jsonl"
    con, urls = _assist_waiting_for_approval(journal)
    try:
        with socket_for(urls["arbiter"]) as arbiter, socket_for(urls["play"]) as opponent:
            setup = state_where(arbiter, lambda v: "approval" in v)
            approval = setup["approval"]
            assert approval["approved"] is False and approval["blind"] == "white"
            assert approval["control"] == (
                "fünfzehn Minuten für die ganze Partie, plus zehn Sekunden pro Zug"
            )
            assert approval["ranks"][:3] == ["eins", "zwei", "drei"]
            assert approval["files"][:3] == ["Anna", "Bella", "Cesar"]
            assert "running" not in setup["clock"]  # the clocks stand still
            assert setup["clock"]["white_ms"] == 900_000
            # Before the approval nothing can be played or changed.
            assert state_where(opponent, lambda v: True)["legal"] == []
            assert _error(opponent, {"type": "move", "uci": "e7e5", "ply": 0}) == "not_started"
            assert _error(arbiter, {"type": "pause"}) == "not_started"
            assert read_journal(journal).events == ()

            arbiter.send(json.dumps({"type": "approve_setup"}))
            con.expect("Der Schiedsrichter hat den Aufbau auf der Webseite bestätigt.")
            con.expect("Die Partie beginnt. Sie spielen Weiß.")
            approved = state_where(arbiter, lambda v: v["approval"]["approved"])
            assert approved["approval"]["via"] == "web"
            assert approved["clock"]["running"] == "white"
            # The terminal no longer waits for an answer: a typed move is the blind player's.
            con.type("Eva vier")
            assert con.next_line() == "Eva vier"
            view = state_where(opponent, lambda v: v["ply"] == 1)
            assert "e7e5" in view["legal"]
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert "Aufbau vom Schiedsrichter bestätigt." not in con.lines  # the terminal's own words
    events = read_journal(journal).events
    first = events[0]
    assert isinstance(first, ArbiterAction) and first.action == "approve_setup"
    assert first.t_ms == 0 and first.params["via"] == "web"
    assert first.params["time_control"] == "900+10" and first.params["blind"] == "white"
    assert [e.action for e in events if isinstance(e, ArbiterAction)] == ["approve_setup"]


def test_only_the_arbiters_key_approves_the_set_up_not_the_opponents_or_a_spectators(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "board.jsonl"
    con, urls = _assist_waiting_for_approval(journal)
    try:
        with (
            socket_for(urls["play"]) as opponent,
            socket_for(urls["watch"]) as spectator,
            socket_for(urls["arbiter"]) as arbiter,
        ):
            assert _error(opponent, {"type": "approve_setup"}) == "not_allowed"
            assert _error(spectator, {"type": "approve_setup"}) == "not_allowed"
            assert read_journal(journal).events == ()
            sync = {"type": "sync"}
            arbiter.send(json.dumps(sync))
            assert state_where(arbiter, lambda v: True)["approval"]["approved"] is False

            con.type("")  # the arbiter's Enter at the terminal: the page shows it approved
            con.expect("Aufbau vom Schiedsrichter bestätigt.")
            approved = state_where(arbiter, lambda v: v["approval"]["approved"])
            assert approved["approval"]["via"] == "terminal"
            # A late click on the page changes nothing: approved once, from the terminal.
            arbiter.send(json.dumps({"type": "approve_setup"}))
            arbiter.send(json.dumps(sync))
            state_where(arbiter, lambda v: v["approval"]["via"] == "terminal")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert "auf der Webseite bestätigt" not in con.output()
    events = read_journal(journal).events
    assert [e.params["via"] for e in events if isinstance(e, ArbiterAction)] == ["terminal"]


@pytest.mark.browser
@pytest.mark.slow
def test_the_approve_button_on_the_arbiters_page_starts_the_game(tmp_path: Path) -> None:
    from browser import chromium
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    journal = tmp_path / "board.jsonl"
    con, urls = _assist_waiting_for_approval(journal)
    try:
        with chromium(tmp_path / "profile") as driver:
            driver.get(urls["arbiter"])
            wait = WebDriverWait(driver, 10, poll_frequency=0.05)
            card = wait.until(lambda d: d.find_element(By.ID, "setup").is_displayed() or None)
            assert card
            text = driver.find_element(By.ID, "setup").text
            assert "fünfzehn Minuten für die ganze Partie" in text and "Weiß" in text
            assert "eins, zwei, drei" in text and "Anna, Bella, Cesar" in text
            assert "die Uhren laufen noch nicht" in driver.find_element(By.ID, "banner").text
            button = driver.find_element(By.ID, "approve-setup")
            assert button.tag_name == "button" and button.text == "Aufbau bestätigen"
            button.click()
            con.expect("Der Schiedsrichter hat den Aufbau auf der Webseite bestätigt.")
            state = driver.find_element(By.ID, "setup-state")
            wait.until(lambda d: "auf der Schiedsrichter-Seite bestätigt" in state.text)
            assert not button.is_displayed()
            assert not driver.find_element(By.ID, "banner").is_displayed()
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    first = read_journal(journal).events[0]
    assert isinstance(first, ArbiterAction) and first.action == "approve_setup"
    assert first.params["via"] == "web" and first.t_ms == 0


# -- a tournament board killed before the approval --------------------------------------------


def test_a_board_killed_before_the_approval_asks_for_it_again_when_resumed(
    tmp_path: Path,
) -> None:
    """D.2.10: no clock runs and no move is made before the arbiter approved the set-up. A
    board killed while the question waited comes back asking it again, even when resumed with
    ``play`` (the journal says it is an assisted board), and nothing is played before it."""
    journal = tmp_path / "board.jsonl"
    con = Console("assist", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
    finally:
        con.close()  # killed: SIGKILL
    assert read_journal(journal).events == ()
    con = Console("play", "--text", "--no-speech", "--no-web", "--resume", str(journal))
    try:
        con.expect("voice-chess, Turnierbrett")
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        con.type("")  # Enter on the arbiter's terminal
        con.expect("Aufbau vom Schiedsrichter bestätigt.")
        con.type("Eva vier")
        con.expect("Eva vier")
        con.process.send_signal(2)
        assert con.wait() == 0
        resume = next(line for line in con.lines if "--resume" in line)
        assert "voice-chess assist --text --no-speech --no-web --resume" in resume
    finally:
        con.close()
    first, move = read_journal(journal).events
    assert isinstance(first, ArbiterAction) and first.action == "approve_setup"
    assert isinstance(move, BlindSpeech)
    con = Console("assist", "--text", "--no-speech", "--no-web", "--resume", str(journal))
    try:
        con.expect("Partie fortgesetzt")  # approved once: not asked again
        con.process.send_signal(2)
        assert con.wait() == 0
        assert "bitte den Aufbau prüfen" not in con.output()
    finally:
        con.close()


def test_a_tournament_game_under_way_is_not_stopped_for_the_approval_when_resumed(
    tmp_path: Path,
) -> None:
    """A journal with moves but no approval (written by ``simulate --journal`` with the
    tournament profile): the game is under way, so it goes on; no set-up question mid-game."""
    from voice.rules.events import Setup
    from voice.runtime.journal import Journal

    journal = tmp_path / "game.jsonl"
    with Journal.create(journal, Setup(profile="tournament", time_control="300")) as written:
        written.append(BlindSpeech(2000, (("Eva vier", 1.0),)))
    con = Console("assist", "--text", "--no-speech", "--no-web", "--resume", str(journal))
    try:
        con.expect("Partie fortgesetzt. Schwarz ist am Zug.")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert "bitte den Aufbau prüfen" not in con.output()
