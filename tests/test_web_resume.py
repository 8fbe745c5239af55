"""A resumed game serves its board on the port it had, so the opponent's open page goes on.

With ``--port 0`` the system chooses the port; it is kept beside the game's secrets
(``game-….keys.json``) and asked for again on ``--resume``. When another program holds it by
then, the board moves to a free port and the program says so, with the new addresses; an
explicit ``--port`` always wins. Each case runs the real command as a player starts it.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from console import Console, socket_for, state_where

from voice.web.pairing import keys_path

pytestmark = pytest.mark.slow  # starts and resumes the program with its web board


def _serve(journal: Path, *args: str) -> tuple[Console, str]:
    """Start ``play`` with typed input; the opponent's address it prints."""
    con = Console("play", "--text", "--no-speech", *args)
    try:
        con.expect("Das Brett des Gegners (auf seinem Telefon")
        url = con.next_line().strip()
        assert "/play?key=" in url, url
        con.expect("Das Brett des Gegners ist unter")
        con.expect("Sie spielen Weiß" if "--resume" not in args else "Partie fortgesetzt")
    except BaseException:
        con.close()
        raise
    return con, url


def _stop(con: Console) -> None:
    try:
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()


def _port(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _first_game(journal: Path) -> str:
    """A game on a port the system chose, with one move made; its opponent's address."""
    con, url = _serve(journal, "--port", "0", "--journal", str(journal))
    con.type("Eva vier")
    assert con.next_line() == "Eva vier"
    _stop(con)
    return url


def test_a_resumed_game_keeps_the_port_the_system_chose_and_the_open_page_reconnects(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "game.jsonl"
    first = _first_game(journal)
    assert json.loads(keys_path(journal).read_text(encoding="utf-8"))["port"] == _port(first)

    con, again = _serve(journal, "--resume", str(journal))
    try:
        assert again == first  # same port, same key: the printed QR code still works
        with socket_for(first) as page:  # the opponent's page, opened before the restart
            assert state_where(page, lambda view: view["ply"] == 1)["turn"] == "black"
    finally:
        _stop(con)
    assert "belegt" not in con.output()


def test_when_the_old_port_is_taken_the_board_moves_and_says_so_with_the_new_address(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "game.jsonl"
    old = _port(_first_game(journal))
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", old))
        taken.listen()
        con = Console("play", "--text", "--no-speech", "--resume", str(journal))
        try:
            said = con.expect(f"Port {old}, auf dem das Brett des Gegners lief, ist jetzt belegt")
            con.expect("Das Brett des Gegners (auf seinem Telefon")
            url = con.next_line().strip()
            new = _port(url)
            assert new != old and f"auf Port {new} umgezogen" in said
            con.expect(f"Das Brett des Gegners ist unter 127.0.0.1, Port {new} erreichbar")
            with socket_for(url) as page:
                assert state_where(page, lambda view: view["ply"] == 1)["turn"] == "black"
        finally:
            _stop(con)
    # The next resume asks for the port the board moved to.
    assert json.loads(keys_path(journal).read_text(encoding="utf-8"))["port"] == new


def test_an_explicit_port_on_the_command_line_wins_over_the_kept_one(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    old = _port(_first_game(journal))
    wanted = _free_port()
    con, url = _serve(journal, "--resume", str(journal), "--port", str(wanted))
    _stop(con)
    assert _port(url) == wanted != old


def test_a_resumed_tournament_board_shows_the_arbiter_the_set_up_as_it_was_approved(
    tmp_path: Path,
) -> None:
    """The arbiter's panel keeps the approved set-up after a crash, with the rules beyond the
    clock: board descriptions, analysis aids, the hearing-impaired opponent (D.2.11), Laws."""
    journal = tmp_path / "game.jsonl"
    args = ("--text", "--no-speech", "--port", "0", "--deaf-opponent")
    con = Console("assist", *args, "--journal", str(journal))
    try:
        summary = con.expect("Aufbau für den Schiedsrichter:")
        assert "Hörgeschädigter Gegner (D.2.11)" in summary
        con.expect("Schiedsrichter: bitte den Aufbau prüfen")
        con.type("")
        con.expect("Die Partie beginnt.")
        con.type("Eva vier")
        assert con.next_line() == "Eva vier"
    finally:
        _stop(con)
    again = Console("assist", "--text", "--no-speech", "--resume", str(journal))
    try:
        again.expect("/play?key=")
        arbiter = again.expect("/arbiter?key=").strip()
        again.expect("Partie fortgesetzt")
        with socket_for(arbiter) as page:
            view = state_where(page, lambda v: v["ply"] == 1)
            approval = view["approval"]
            assert approval["approved"] and approval["via"] == "terminal"
            assert "Großschrift" in approval["rules"] and "FIDE-Regeln 2023" in approval["rules"]
    finally:
        _stop(again)
