"""Starting ``play``/``assist``: what the program says it uses, and every failure with a way out.

Each case runs the real command as a child process, the way a player starts it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from console import Console
from pulse import PulseAudio

from voice.cli import build_parser


def test_without_a_microphone_play_takes_typed_moves_and_says_so(tmp_path: Path) -> None:
    con = Console(
        "play", "--no-speech", "--no-web", "--journal", str(tmp_path / "g.jsonl"), no_audio=True
    )
    try:
        con.expect(
            "Kein Mikrofon gefunden: ich nehme getippte Züge an. "
            "Mit --text startet dieses Verhalten direkt."
        )
        con.expect("voice-chess, Heimpartie: getippte Züge und Befehle; Ausgabe nur als Text.")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("Springer Felix drei")
        assert con.next_line() == "Springer Felix drei"
        con.type("Hilfe")
        con.expect("Ihr Gegner ist am Zug. Sie können sagen:")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()


def test_laws_chooses_the_edition_said_at_the_start_and_kept_in_the_journal(
    tmp_path: Path,
) -> None:
    from voice.runtime.journal import read_journal

    journal = tmp_path / "g.jsonl"
    con = Console(
        "play", "--text", "--no-speech", "--no-web", "--laws", "2001", "--journal", str(journal)
    )
    try:
        line = con.expect("Heimprofil, Bedenkzeit")
        assert line.strip().endswith(", FIDE-Regeln 2001 mit Anhang F.")
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert read_journal(journal).setup.laws == "2001"


def test_without_a_loudspeaker_everything_is_printed_and_said_why(tmp_path: Path) -> None:
    con = Console(
        "play", "--text", "--no-web", "--journal", str(tmp_path / "g.jsonl"), no_audio=True
    )
    try:
        line = con.expect("Kein Lautsprecher nutzbar")
        assert "--no-speech" in line and line.count("voice-chess devices") == 1
        # Why, in the player's language: not the English device error with its own advice.
        assert "(der eingestellte Lautsprecher oder Kopfhörer wurde nicht gefunden)" in line
        con.expect("voice-chess, Heimpartie: getippte Züge und Befehle; Ausgabe nur als Text.")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()


def test_a_busy_port_is_one_sentence_with_a_way_out_before_any_question(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        con = Console(
            "assist",
            "--text",
            "--no-speech",
            "--port",
            str(port),
            "--journal",
            str(tmp_path / "g.jsonl"),
        )
        try:
            con.expect(
                f"Port {port} ist schon belegt, vielleicht läuft voice-chess bereits. "
                "Abhilfe: --port 0 nimmt einen freien Port."
            )
            assert con.wait() == 2
        finally:
            con.close()
    assert "Schiedsrichter" not in con.output()  # nothing was asked
    assert not (tmp_path / "g.jsonl").exists()


def test_an_unreadable_time_control_and_a_missing_journal(tmp_path: Path) -> None:
    con = Console("play", "--text", "--no-speech", "--no-web", "--control", "5 Minuten")
    try:
        line = con.expect("Die Bedenkzeit ist nicht lesbar")
        assert "--control 900+10" in line
        assert con.wait() == 2
    finally:
        con.close()
    missing = tmp_path / "nowhere.jsonl"
    con = Console("play", "--text", "--no-speech", "--no-web", "--resume", str(missing))
    try:
        con.expect(f"Das Journal {missing} gibt es nicht. Abhilfe:")
        assert con.wait() == 2
    finally:
        con.close()


def test_a_bad_setting_names_the_key_and_a_way_out(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[engine]\nlevel = 12\n")
    result = subprocess.run(
        [sys.executable, "-m", "voice", "--config", str(config), "play", "--text"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "key 'engine.level'" in result.stderr and "To fix:" in result.stderr


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("play", ["--opponent", "--level", "--text", "--no-speech", "--resume", "--lan", "--port"]),
        ("assist", ["--deaf-opponent", "--text", "--resume", "--control", "--blind", "--laws"]),
        ("clock", ["--control", "--no-speech", "--no-listen", "--profile", "--laws"]),
        ("demo", ["--control", "--no-audio", "--recognizer", "--laws"]),
    ],
)
def test_help_describes_every_option(command: str, options: list[str]) -> None:
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    text = sub.format_help()
    for option in options:
        assert option in text
    for action in sub._actions:
        assert action.help, f"{command} {action.option_strings} has no help"


@pytest.mark.audio
def test_a_missing_speech_model_falls_back_to_typed_moves_with_a_way_out(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[speech]\nrecognizer = "vosk"\nvosk_model = "vosk-model-small-de-0.15"\n')
    con = Console(
        "--config",
        str(config),
        "play",
        "--no-speech",
        "--no-web",
        "--journal",
        str(tmp_path / "g.jsonl"),
    )
    try:
        line = con.expect("Die Spracherkennung kann nicht starten")
        assert "vosk-model-small-de-0.15" in line
        assert "ich nehme getippte Züge an" in line and "voice-chess models list" in line
        con.expect("voice-chess, Heimpartie: getippte Züge und Befehle")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()


@pytest.mark.audio
def test_a_resumed_game_listens_with_the_words_and_language_it_was_played_with(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    """A game begun with other file names and another language, resumed without that
    ``--config``: the journal's settings decide what the game hears, so the recogniser must be
    made with them too. It was made before the journal was read: it said its start-up words in
    today's language and wrote the files in lower case for Whisper ("emil fünf")."""
    from pulse import espeak

    config = tmp_path / "config.toml"
    config.write_text(
        '[language]\nblind = "en"\n[vocabulary]\nfile_words = ["Anton", "Berta", "Cäsar",'
        ' "Dora", "Emil", "Friedrich", "Gustav", "Heinrich"]\n',
        encoding="utf-8",
    )
    journal = tmp_path / "g.jsonl"
    con = Console(
        "--config", str(config), "play", "--text", "--no-speech", "--opponent", "engine",
        "--level", "1", "--journal", str(journal),
    )  # fmt: skip
    try:
        con.type("Emil vier")
        con.expect("Emil vier")
        con.next_line()  # the computer's reply
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    con = Console("play", "--resume", str(journal), "--no-speech")
    try:
        line = con.expect("voice-chess, home game: speech recognition")
        assert "Spracherkennung" not in line
        assert line.endswith("; text output only.")
        con.expect("Game resumed. White to move.")  # the computer's reply is in the journal
        said = espeak("Springer Friedrich drei", "de", 16000, 140)
        pulse.play(np.concatenate([said, np.zeros(16000, dtype=np.int16)]), 16000)
        con.expect("Springer Friedrich drei")  # played, or asked back
    finally:
        con.close()
