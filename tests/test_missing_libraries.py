"""A machine without PortAudio or espeak-ng (issue 19, section 1): the commands that need no
sound run there, and the ones that do say in one sentence what to install.

Each command runs as a child process whose dynamic loader cannot find the libraries
(``tests/missing_libraries/sitecustomize.py``): ``sounddevice`` and pyttsx3 fail there by
themselves, as they do when libportaudio2 and espeak-ng are not installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from console import Console, run_command

HOOK = Path(__file__).parent / "missing_libraries"
SCRIPT = Path(__file__).parent / "scripts" / "d21_castling_by_voice.jsonl"
PORTAUDIO_SENTENCE = (
    "Die Tonbibliothek PortAudio ist nicht installiert, darum lassen sich weder Mikrofon noch "
    "Lautsprecher benutzen. Abhilfe: sudo apt install libportaudio2"
)
ESPEAK_SENTENCE = (
    "Die Sprachausgabe espeak-ng ist nicht installiert, darum kann nichts laut gesagt werden. "
    "Abhilfe: sudo apt install espeak-ng"
)


def without(missing: str) -> dict[str, str]:
    """The environment of a child on a machine without the ``missing`` libraries."""
    path = os.pathsep.join(p for p in (str(HOOK), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "VOICE_CHESS_TEST_MISSING": missing}


def run(*args: str, missing: str = "portaudio espeak") -> subprocess.CompletedProcess[str]:
    return run_command(*args, env=without(missing))


def test_the_hook_takes_the_libraries_away_as_a_machine_without_them_does() -> None:
    """Otherwise the tests below would prove nothing."""
    code = "import sounddevice"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=without("portaudio")
    )
    assert "OSError: PortAudio library not found" in result.stderr
    code = "import pyttsx3; pyttsx3.init()"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=without("espeak")
    )
    assert "do not have eSpeak or eSpeak-ng installed" in result.stderr


@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (("--help",), "COMMAND"),
        (("play", "--help"), "--text"),
        (("parse", "Springer Felix drei"), '"move": "g1f3"'),
        (("say-move", "Nf3"), "Springer Felix drei"),
        (("simulate", str(SCRIPT)), '"pgn"'),
        (("config", "path"), "config.toml"),
        (("config", "check"), ""),
    ],
)
def test_commands_that_need_no_sound_run_without_portaudio_and_espeak(
    args: tuple[str, ...], printed: str
) -> None:
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert printed in result.stdout


def test_a_typed_game_without_speech_runs_without_portaudio_and_espeak(tmp_path: Path) -> None:
    con = Console(
        "play",
        "--text",
        "--no-speech",
        "--port",
        "0",
        "--journal",
        str(tmp_path / "g.jsonl"),
        env=without("portaudio espeak"),
    )
    try:
        con.expect("Das Brett des Gegners")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("Springer Felix drei")
        assert con.next_line() == "Springer Felix drei"
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert not any("Traceback" in line for line in con.errors)
    assert "PortAudio" not in con.output()  # nothing needed it, so nothing is said about it


def test_a_spoken_game_without_portaudio_says_once_what_to_install(tmp_path: Path) -> None:
    con = Console(
        "play", "--no-web", "--journal", str(tmp_path / "g.jsonl"), env=without("portaudio")
    )
    try:
        con.expect(PORTAUDIO_SENTENCE)
        con.expect("voice-chess, Heimpartie: getippte Züge und Befehle; Ausgabe nur als Text.")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    # the loudspeaker and the microphone both need PortAudio: the player hears it once
    assert con.output().count("PortAudio") == 1


def test_devices_without_portaudio_is_one_sentence_and_fails() -> None:
    result = run("devices", missing="portaudio")
    assert result.returncode == 1
    assert result.stderr.strip() == PORTAUDIO_SENTENCE


def test_the_demo_without_espeak_is_one_sentence_and_fails() -> None:
    result = run("demo", missing="espeak")
    assert result.returncode == 1
    assert result.stderr.strip() == ESPEAK_SENTENCE


def test_speech_without_espeak_says_what_to_install_and_prints_instead(tmp_path: Path) -> None:
    con = Console(
        "play", "--text", "--no-web", "--journal", str(tmp_path / "g.jsonl"), env=without("espeak")
    )
    try:
        con.expect(ESPEAK_SENTENCE)
        con.expect("voice-chess, Heimpartie: getippte Züge und Befehle; Ausgabe nur als Text.")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
