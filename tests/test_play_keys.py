"""Keys while the blind player speaks: ``voice-chess play`` on a real terminal with a microphone.

With a microphone (the virtual one) the player speaks; the terminal's keys ask what the command
words ask (``[session.keys]``): "t" the time, "b" reports a touched piece, "q" twice quits, and
the terminal gets its normal mode back.
"""

from __future__ import annotations

import termios
import time
from pathlib import Path

import numpy as np
import pytest
from console import PtyConsole
from pulse import PulseAudio, espeak

from voice.rules.events import BlindSpeech, KeyPress
from voice.runtime.journal import read_journal


def _quit_twice(con: PtyConsole) -> None:
    """The quit key twice: the game is saved and the command to resume it printed."""
    con.type(b"q")
    con.type(b"q")
    con.expect("Fortsetzen mit: voice-chess ")  # with the test's --config
    con.expect("play --no-speech --no-web --resume")
    assert con.wait() == 0


def _play(journal: Path) -> PtyConsole:
    """``voice-chess play`` against the engine on a terminal, printing instead of speaking."""
    options = ("--no-speech", "--no-web", "--opponent", "engine", "--level", "1")
    return PtyConsole("play", *options, "--journal", str(journal))


@pytest.mark.audio
def test_keys_ask_the_time_report_a_touched_piece_and_quit(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    journal = tmp_path / "game.jsonl"
    con = _play(journal)
    try:
        con.expect("Spracherkennung")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type(b"t")
        con.expect("Gespielt: null Züge.")
        con.type(b"b")
        con.expect("Für den Schiedsrichter notiert: der Gegner hat eine Figur berührt.")
        con.type(b"q")
        con.expect("Programm beenden? Die Taste noch einmal drücken.")
        con.type(b"q")
        con.expect("Fortsetzen mit: voice-chess ")  # with the test's --config
        con.expect("play --no-speech --no-web --resume")
        assert con.wait() == 0
        mode = termios.tcgetattr(con.slave)
        assert mode[3] & termios.ECHO and mode[3] & termios.ICANON  # the terminal was restored
    finally:
        con.close()
    keys = [e.key for e in read_journal(journal).events if isinstance(e, KeyPress)]
    assert keys == ["time", "touched"]


@pytest.mark.audio
def test_arrow_keys_move_a_cursor_that_reads_its_square(pulse: PulseAudio, tmp_path: Path) -> None:
    """Issue 22: a Braille-display user explores the board with keys alone."""
    journal = tmp_path / "game.jsonl"
    con = _play(journal)
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type(b"\x1b[A")  # up from Anna eins
        con.expect("Anna zwei: weißer Bauer.")
        con.type(b"\x1b[C")  # right
        con.expect("Bella zwei: weißer Bauer.")
        con.type(b"x")
        con.expect("Niemand greift Bella zwei an.")
        _quit_twice(con)
    finally:
        con.close()
    keys = [e.key for e in read_journal(journal).events if isinstance(e, KeyPress)]
    assert keys == ["cursor_up", "cursor_right", "cursor_attackers"]


@pytest.mark.audio
def test_press_to_talk_with_the_talk_key(pulse: PulseAudio, tmp_path: Path) -> None:
    """In a room too loud for the microphone to find where the player stopped, the player
    presses the talk key (Enter), says the move and presses it again. With ``push_to_talk`` the
    microphone hears nothing else: words said without the key are not taken."""
    config = tmp_path / "settings.toml"
    config.write_text("[audio]\npush_to_talk = true\n", encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    options = ("--no-speech", "--no-web", "--opponent", "engine", "--level", "1")
    con = PtyConsole("--config", str(config), "play", *options, "--journal", str(journal))
    move = np.concatenate([espeak("Springer Felix drei", "de", 16000, 140), np.zeros(8000)])
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        pulse.play(move.astype(np.int16), 16000)  # no key: not heard
        con.type(b"t")  # the key after it is answered first: the words were dropped
        con.expect("Gespielt: null Züge.")
        con.type(b"\r")
        time.sleep(0.3)
        pulse.play(move.astype(np.int16), 16000)
        con.type(b"\r")
        con.expect("Springer Felix drei")
        _quit_twice(con)
    finally:
        con.close()
    moves = [e for e in read_journal(journal).events if isinstance(e, BlindSpeech)]
    assert len(moves) == 1


@pytest.mark.audio
def test_after_two_not_understood_the_talk_key_is_named(pulse: PulseAudio, tmp_path: Path) -> None:
    """The player cannot read the README: when two things in a row were not understood (a loud
    room is the likeliest reason), the program names the talk key, once until a move is made."""
    con = _play(tmp_path / "game.jsonl")
    mumble = np.concatenate([espeak("Hmm, na ja, also gut.", "de", 16000, 150), np.zeros(12000)])
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        for _ in range(2):
            pulse.play(mumble.astype(np.int16), 16000)
            con.expect("Nicht verstanden.")
        con.expect("Im lauten Raum: Eingabetaste drücken, den Zug sagen, Eingabetaste noch")
        _quit_twice(con)
    finally:
        con.close()


def test_a_typed_line_of_arrow_keys_is_keys_and_any_other_line_is_words() -> None:
    from voice.keyboard import keys_typed

    assert keys_typed("\x1b[A\n") == ["up"]
    assert keys_typed("\x1b[C\x1b[D\r\n") == ["right", "left"]
    assert keys_typed("Eva vier\n") is None
    assert keys_typed("\x1b[Ax\n") is None  # a key and a letter: neither alone
    assert keys_typed("\n") is None
