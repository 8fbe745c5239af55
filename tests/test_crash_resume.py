"""Kill -9 at random moments during a journaled game, then resume: no made move is ever lost.

A real ``voice-chess simulate - --journal FILE`` process is fed a game through a pipe in real
time (every line stamped with the wall-clock time since the game started, as the live host does)
and killed with SIGKILL at a random instant. The journal it leaves is then resumed:

- every move the process printed before it died is in the resumed game (the journal is written
  and fsync'd before an input is handled, so nothing announced can be missing);
- the journal holds a prefix of what was sent, in order;
- the resumed clocks show the time of the last journaled input: compared with a game that had
  run on until the kill, each clock differs by at most the time since that input.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import chess
import pytest

from voice.config import Settings
from voice.game.session import GameSession
from voice.rules.events import Tick, parse_input, parse_setup
from voice.runtime.journal import read_journal
from voice.runtime.resume import resume
from voice.words.phrases import render_move
from voice.words.vocabulary import Vocabulary

# A Ruy Lopez, long enough to be killed anywhere in it.
GAME = [
    *("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"),
    *("Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7"),
]
SETUP: dict[str, object] = {"setup": {"mode": "game", "blind": "white", "time_control": "300+2"}}
SEEDS = range(20)


def _inputs(vocab: Vocabulary) -> list[dict[str, object]]:
    """The game as inputs without times: the blind side speaks, the sighted side plays."""
    board = chess.Board()
    inputs: list[dict[str, object]] = []
    for index, san in enumerate(GAME):
        move = board.parse_san(san)
        if board.turn == chess.WHITE:
            inputs.append({"blind": render_move(board, move, vocab)})
            if index % 6 == 4:
                inputs.append({"blind": "Zeit"})
        else:
            inputs.append({"sighted": san})
        board.push(move)
    return inputs


class _Reader(threading.Thread):
    """Collects the subprocess's output lines as they come."""

    def __init__(self, stream: object) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: list[dict[str, object]] = []
        self.first = threading.Event()

    def run(self) -> None:
        for raw in self.stream:  # type: ignore[attr-defined]
            text = raw.strip()
            if text:
                self.lines.append(json.loads(text))
                self.first.set()


def _play_and_kill(journal: Path, seed: int, vocab: Vocabulary) -> tuple[list[dict], list, int]:
    """Run the game in a subprocess, kill it at a random moment; return (printed, sent, t_kill)."""
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "voice", "simulate", "-", "--journal", str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    reader = _Reader(process.stdout)
    reader.start()
    start = time.monotonic()
    sent: list[dict[str, object]] = []

    def send(obj: dict[str, object]) -> None:
        assert process.stdin is not None
        process.stdin.write(json.dumps(obj, ensure_ascii=False) + "\n")
        process.stdin.flush()
        sent.append(obj)

    send(SETUP)
    send({"t": round(time.monotonic() - start, 3), "key": "time"})
    assert reader.first.wait(30), "the simulator did not start"
    inputs = _inputs(vocab)
    kill_after = rng.uniform(0.0, 0.012 * len(inputs))
    began = time.monotonic()
    for item in inputs:
        if time.monotonic() - began >= kill_after:
            break
        time.sleep(rng.uniform(0.0, 0.02))
        send({"t": round(time.monotonic() - start, 3), **item})
    if rng.random() < 0.5:
        time.sleep(rng.uniform(0.0, 0.02))  # else: killed while the last input is handled
    t_kill = round((time.monotonic() - start) * 1000)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    reader.join(10)
    return reader.lines, sent, t_kill


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_sigkill_at_a_random_moment_loses_no_made_move(
    seed: int, tmp_path: Path, settings: Settings, vocab: Vocabulary
) -> None:
    journal = tmp_path / "game.jsonl"
    printed, sent, t_kill = _play_and_kill(journal, seed, vocab)
    contents = read_journal(journal)  # a torn last line would be dropped with a warning
    # The journal is a prefix of what was sent, in order, with nothing invented (the setup
    # has the Laws edition and the settings that decide an input's effect written in, so that
    # a resume keeps them).
    extra = dict(contents.setup.extra)
    assert extra.pop("settings")["session"]["correction_window"] == 0
    assert replace(parse_setup(sent[0]), laws="2023") == replace(contents.setup, extra=extra)
    expected = [parse_input(obj) for obj in sent[1:]]
    assert list(contents.events) == expected[: len(contents.events)]

    resumed = resume(journal, settings)
    resumed.journal.close()
    session = resumed.core
    assert isinstance(session, GameSession)
    made = [line["move"]["uci"] for line in printed if "move" in line]
    kept = [move["uci"] for move in session.state()["moves"]]
    assert kept[: len(made)] == made, "a move the players saw was lost"

    # Clocks: as of the last journaled input; the game that ran on until the kill differs from
    # them by at most the time since that input (and only on the side whose clock ran).
    last = contents.last_ms
    announced = [line for line in resumed.announcement if type(line).__name__ == "ClockState"]
    assert announced and announced[-1].t_ms == last
    ran_on = GameSession.replay(contents.setup, contents.events, settings)
    ran_on.handle(Tick(max(t_kill, last)))
    gap = max(t_kill, last) - last
    for side in ("white", "black"):
        now = session.clock.remaining_ms(side, last)
        later = ran_on.clock.remaining_ms(side, max(t_kill, last))
        assert 0 <= now - later <= gap


def _torn_journal(folder: Path, vocab: Vocabulary, inputs: int) -> Path:
    """A journal of the first ``inputs`` inputs whose next line a crash tore."""
    journal = folder / "game.jsonl"
    lines = [json.dumps(SETUP)]
    for index, item in enumerate(_inputs(vocab)[:inputs]):
        lines.append(json.dumps({"t": index + 1, **item}, ensure_ascii=False))
    lines.append('{"t": 9.5, "blind": "Springer Fel')  # the write the crash tore
    journal.write_text("\n".join(lines), encoding="utf-8")
    return journal


def test_resume_through_the_command_line_says_where_the_game_stands(
    tmp_path: Path, settings: Settings, vocab: Vocabulary
) -> None:
    journal = _torn_journal(tmp_path, vocab, 6)
    done = subprocess.run(
        [sys.executable, "-m", "voice", "simulate", "--resume", str(journal)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert "torn write" in done.stderr
    assert out[0]["say"].startswith("Partie fortgesetzt. Schwarz ist am Zug.")
    assert "2... Nc6" in out[-1]["pgn"] and "3. Bb5" in out[-1]["pgn"]
    assert out[-1]["pgn"].endswith("*")  # the game goes on


def test_a_torn_last_line_is_named_in_the_players_language_on_resume(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    """``play --resume`` printed the journal reader's English ("line 8 is incomplete or
    corrupt (torn write?) and was ignored: Unterminated string …") in a German game (a
    review)."""
    journal = _torn_journal(tmp_path, vocab, 2)
    done = _resume_typed(journal)
    assert (
        f"{journal}: Zeile 4, die letzte, wurde nicht zu Ende geschrieben (das Programm endete "
        "beim Schreiben) und wird übergangen; nichts davor geht verloren."
    ) in done.stdout.splitlines()
    assert "torn write" not in done.stdout + done.stderr


def _resume_typed(journal: Path) -> subprocess.CompletedProcess[str]:
    """``voice-chess play --resume JOURNAL`` with typed input that ends at once."""
    return subprocess.run(
        [sys.executable, "-m", "voice", "play", "--resume", str(journal), "--text", "--no-speech"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


@pytest.mark.slow
def test_an_engine_reply_journaled_but_killed_before_it_was_said_is_announced_on_resume(
    tmp_path: Path, vocab: Vocabulary
) -> None:
    """Kill -9 as soon as the engine's reply is on disk (before or while it is announced):
    the resumed game says the last move of each side, so the reply nobody heard is said now."""
    journal = tmp_path / "game.jsonl"
    args = ["--text", "--no-speech", "--no-web", "--journal", str(journal)]
    game = subprocess.Popen(
        [sys.executable, "-m", "voice", "play", "--opponent", "engine", "--level", "1", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert game.stdin is not None
        game.stdin.write("Eva vier\n")
        game.stdin.flush()
        deadline = time.monotonic() + 60
        while '"sighted"' not in (journal.read_text() if journal.exists() else ""):
            assert time.monotonic() < deadline, "the engine never replied"
            time.sleep(0.001)
        game.send_signal(signal.SIGKILL)
    finally:
        game.kill()
        game.wait()
    reply = chess.Move.from_uci(json.loads(journal.read_text().splitlines()[-1])["sighted"])
    board = chess.Board()
    board.push_san("e4")
    words = render_move(board, reply, vocab)
    resumed = _resume_typed(journal)
    assert f"Zuletzt gespielt. Eins: Eva vier, {words}." in resumed.stdout, resumed.stdout
    assert "Weiß ist am Zug." in resumed.stdout


@pytest.mark.slow
def test_a_resumed_window_runs_again_from_when_the_resume_has_been_said(
    tmp_path: Path,
) -> None:
    """A game stopped inside a correction window: the resume is said while game time stands
    still, and then the journal marks the instant from which the window runs again in full
    (``resume_said``, at the game time the journal stopped at). The window had kept running
    while the resume was said, and closed before the player could say "Korrektur" (a
    review)."""
    journal = tmp_path / "game.jsonl"
    journal.write_text(
        '{"setup": {"mode": "game", "blind": "white", "time_control": "600", "app": "play", '
        '"correction_window": 3, "opponent_speaks": true}}\n'
        '{"t": 1, "blind": "Eva vier"}\n',
        encoding="utf-8",
    )
    resumed = _resume_typed(journal)
    assert "Offen war noch: Eva vier ist angesagt." in resumed.stdout, resumed.stdout
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert lines[2] == {"t": 1.0, "resume_said": True}


def test_ctrl_c_says_in_one_line_where_the_game_is_kept_and_how_to_go_on(tmp_path: Path) -> None:
    """A new user's trial: Ctrl-C printed the whole scoresheet with a clock mark after every
    move, and a screen reader read all of it out. One line says that the game is saved and the
    command that continues it (its journal's path in it); the scoresheet is in the journal."""
    from console import Console

    journal = tmp_path / "game-20261128-120000.jsonl"
    con = Console("play", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("Eva vier")
        assert con.next_line() == "Eva vier"
        con.type("Eva fünf")  # the opponent's move, passed on
        assert con.next_line() == "Eva fünf"
        con.process.send_signal(signal.SIGINT)
        assert con.wait() == 0
        said = con.lines[con.lines.index("Eva fünf") + 1 :]
    finally:
        con.close()
    assert said == [
        "Die Partie ist gespeichert. Fortsetzen mit: voice-chess play --text --no-speech "
        f"--no-web --resume {journal}"
    ]
    assert [type(e).__name__ for e in read_journal(journal).events] == ["BlindSpeech"] * 2


@pytest.mark.parametrize("keys", [b"\x04", b"q\nq\n"], ids=["ctrl-d", "q-twice"])
def test_leaving_a_game_at_a_terminal_prints_one_line_not_the_scoresheet(
    tmp_path: Path, keys: bytes
) -> None:
    """As after Ctrl-C: q twice and Ctrl-D printed the whole scoresheet with its clock marks
    on the terminal, for a screen reader to read out. Piped output still gets it (scripts)."""
    from console import PtyConsole

    journal = tmp_path / "game-20261128-120000.jsonl"
    con = PtyConsole("play", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type(b"Eva vier\n")
        con.expect("Eva vier\r\n")
        con.type(keys)
        shown = con.expect(
            f"Fortsetzen mit: voice-chess play --text --no-speech --no-web --resume {journal}"
        )
        assert con.wait() == 0
    finally:
        con.close()
    assert "1. e4" not in shown and "[Event" not in shown
