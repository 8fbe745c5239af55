"""Bad input (issue 19, section 3): one clear sentence, a non-zero exit where the command cannot
go on, no traceback, and nothing changed or deleted.

Every case runs the real command line in a child process, as a player or arbiter types it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from console import Console, run_command
from test_models import LAYOUT, model_zip, nothing_installed

from voice.runtime.journal import read_journal

pytestmark = pytest.mark.slow  # each test starts the program in a process of its own


def voice_chess(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return run_command(*args, stdin=stdin, cwd=cwd)


def one_sentence(result: subprocess.CompletedProcess[str]) -> str:
    """Standard error holds an explanation, never a traceback."""
    assert "Traceback" not in result.stderr, result.stderr
    assert "Error:" not in result.stderr.replace("configuration error", ""), result.stderr
    return result.stderr + result.stdout


# -- the settings file ----------------------------------------------------------------------


def test_a_settings_file_that_is_not_utf8_is_named_and_stops_the_command(tmp_path: Path) -> None:
    settings = tmp_path / "config.toml"
    settings.write_bytes('[session]\nprofile = "Turnier für Anna"\n'.encode("latin-1"))
    result = voice_chess("--config", str(settings), "parse", "Springer Felix drei")
    assert result.returncode == 2
    text = one_sentence(result)
    assert f"{settings}: not UTF-8 text (byte 0xfc at position 30)" in text
    assert "save it in the UTF-8 encoding" in text
    assert settings.read_bytes().endswith('Anna"\n'.encode("latin-1"))  # left as it was


def test_config_path_still_says_where_the_broken_settings_file_is(tmp_path: Path) -> None:
    settings = Path(os.environ["XDG_CONFIG_HOME"]) / "voice-chess" / "config.toml"  # conftest's
    settings.parent.mkdir(parents=True)
    settings.write_bytes(b'[session]\nprofile = "h\xe9me"\n')
    result = voice_chess("config", "path")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == str(settings)
    assert "not UTF-8 text" in one_sentence(result)


def test_a_settings_folder_instead_of_a_file_is_named(tmp_path: Path) -> None:
    result = voice_chess("--config", str(tmp_path), "config", "check")
    assert result.returncode == 2
    assert f"{tmp_path}: cannot be read: Is a directory" in one_sentence(result)


# -- time controls --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("control", "why"),
    [
        (
            "99999999999999999999",
            "99999999999999999999: eine Periode dauert höchstens vierundzwanzig Stunden.",
        ),
        (
            "900+99999999999999999999",
            "Verzögerung beträgt höchstens eine Stunde.",
        ),
        ("5400d86401", "5400d86401: ein Zeitzuschlag oder eine Verzögerung beträgt höchstens"),
        ("99999999999999999999/900", "eine Periode hat höchstens 200 Züge."),
        (":".join(["40/900"] * 11 + ["900"]), "nicht: höchstens 10 Perioden."),
        ("0+5", "die erste Periode braucht eine Grundzeit vor dem Zuschlag, zum Beispiel 300+5."),
        ("", '"" ist keine Bedenkzeit.'),  # not the default in silence
    ],
)
def test_an_absurd_time_control_is_refused_before_the_game(
    tmp_path: Path, control: str, why: str
) -> None:
    journal = tmp_path / "g.jsonl"
    result = voice_chess(
        "play", "--text", "--no-speech", "--no-web", "--control", control, "--journal", str(journal)
    )
    assert result.returncode == 2
    text = one_sentence(result)
    # Read, but no control a game can use: said so, not "nicht lesbar" (a review).
    assert "Diese Bedenkzeit geht nicht: " in text and why in text  # why in German too
    assert not journal.exists()


def test_an_absurd_time_control_in_the_settings_names_the_key(tmp_path: Path) -> None:
    settings = tmp_path / "config.toml"
    settings.write_text('[clock]\ntime_control = "99999999999999999999"\n', encoding="utf-8")
    result = voice_chess("--config", str(settings), "config", "check")
    assert result.returncode == 2
    text = one_sentence(result)
    assert "key 'clock'" in text and "time_control: time control '99999999999999999999'" in text
    assert "at most 86400 seconds (24 hours)\n" in text  # not followed by the section's dump


# -- the journal folder ---------------------------------------------------------------------


def journal_dir_is_a_file(tmp_path: Path) -> tuple[Path, Path]:
    """A settings file whose ``[session] journal_dir`` names an existing file."""
    a_file = tmp_path / "games"
    a_file.write_text("not a folder\n", encoding="utf-8")
    settings = tmp_path / "config.toml"
    settings.write_text(f'[session]\njournal_dir = "{a_file}"\n', encoding="utf-8")
    return settings, a_file


JOURNAL_DIR_IS_A_FILE = "ist eine Datei, kein Ordner. Abhilfe: [session] journal_dir auf einen"


def test_a_journal_dir_that_is_a_file_stops_a_new_game(tmp_path: Path) -> None:
    settings, a_file = journal_dir_is_a_file(tmp_path)
    result = voice_chess(
        "--config", str(settings), "play", "--text", "--no-speech", "--no-web", stdin="zeit\n"
    )
    assert result.returncode == 2
    text = one_sentence(result)
    assert (
        f"Der Ordner für die Partien {a_file} ([session] journal_dir) {JOURNAL_DIR_IS_A_FILE}"
        in (text)
    )
    assert "--resume" not in text  # there is no game to continue
    assert a_file.read_text(encoding="utf-8") == "not a folder\n"


def test_resume_with_a_journal_dir_that_is_a_file_says_so(tmp_path: Path) -> None:
    settings, a_file = journal_dir_is_a_file(tmp_path)
    result = voice_chess(
        "--config", str(settings), "play", "--resume", "--text", "--no-speech", "--no-web"
    )
    assert result.returncode == 2
    assert JOURNAL_DIR_IS_A_FILE in one_sentence(result)
    assert a_file.read_text(encoding="utf-8") == "not a folder\n"


def test_a_journal_inside_a_file_is_not_called_an_existing_game(tmp_path: Path) -> None:
    a_file = tmp_path / "games"
    a_file.write_text("not a folder\n", encoding="utf-8")
    journal = a_file / "g.jsonl"
    result = voice_chess("play", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    assert result.returncode == 2
    text = one_sentence(result)
    assert f"In {a_file} kann ich keine Partie speichern: Not a directory." in text
    assert "gibt es schon" not in text


# -- a start position that is already over ----------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "why"),
    [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "Schachmatt"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Patt"),
        ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", "keine Seite kann mehr mattsetzen"),
        (
            "8/8/4k3/8/8/3K4/8/7R w - - 150 90",
            "fünfundsiebzig Züge ohne Bauernzug und ohne Schlagen",
        ),
    ],
)
def test_a_fen_that_is_already_over_starts_no_game(tmp_path: Path, fen: str, why: str) -> None:
    """FIDE 5.1.1, 5.2.1, 5.2.2, 9.6.2: the game would have ended before its first move."""
    journal = tmp_path / "g.jsonl"
    result = voice_chess(
        "play", "--text", "--no-speech", "--no-web", "--fen", fen, "--journal", str(journal)
    )
    assert result.returncode == 2
    assert (
        f"Diese Stellung ist schon zu Ende ({why}), darum beginnt keine Partie. "
        "Abhilfe: --fen mit einer Stellung, die noch offen ist."
    ) in one_sentence(result)
    assert not journal.exists()


@pytest.mark.parametrize(
    ("fen", "said"),
    [
        ("xyz", "--fen xyz ist keine Stellung in FEN-Schreibweise. Abhilfe: eine wie die "),
        (
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "Die Stellung --fen 8/8/8/8/8/8/8/8 w - - 0 1 kann in keiner Partie vorkommen. "
            "Abhilfe: die Könige, die Bauern und wer am Zug ist prüfen.",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w KQk - 0 1",
            "passt das Rochaderecht KQk nicht zu den Königen und Türmen: für jede Rochade "
            "stehen der König und dieser Turm auf ihren Ausgangsfeldern. Abhilfe: K statt KQk "
            "angeben.",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - e3 0 1",
            "passt das En-passant-Feld e3 nicht zum letzten Zug: es liegt hinter einem Bauern, "
            "der gerade zwei Felder vorgerückt ist. Abhilfe: - statt e3 angeben.",
        ),
    ],
)
def test_a_bad_fen_option_is_one_sentence_in_the_players_words(
    tmp_path: Path, fen: str, said: str
) -> None:
    """It was the set-up's English inside German ("setup.fen: not a FEN: expected 8 rows …
    Abhilfe: die genannte Einstellung korrigieren"), naming a setting for an option (a new
    user's trial)."""
    journal = tmp_path / "g.jsonl"
    result = voice_chess(
        "play", "--text", "--no-speech", "--no-web", "--fen", fen, "--journal", str(journal)
    )
    assert result.returncode == 2
    assert said in one_sentence(result)
    assert "setup.fen" not in result.stdout + result.stderr
    assert not journal.exists()


def test_a_script_from_a_position_that_is_already_over_stops_at_its_setup(tmp_path: Path) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text(
        '{"setup": {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}}\n{"t": 1, "blind": "zeit"}\n',
        encoding="utf-8",
    )
    result = voice_chess("simulate", str(script))
    assert result.returncode == 2
    assert "line 1: setup.fen: the position is already over (stalemate)" in one_sentence(result)


# -- scripts and journals -------------------------------------------------------------------

SETUP = '{"setup": {"mode": "game", "blind": "black", "time_control": "900+10"}}\n'


def simulate_refuses(tmp_path: Path, content: bytes, *args: str) -> str:
    """``simulate`` of a script with ``content``: exit 2, one line on standard error."""
    script = tmp_path / "script.jsonl"
    script.write_bytes(content)
    result = voice_chess("simulate", *args, str(script))
    assert result.returncode == 2
    text = one_sentence(result)
    assert result.stderr.count("\n") == 1, result.stderr
    assert script.read_bytes() == content
    return text


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_script_time_that_is_not_a_number_is_refused(tmp_path: Path, constant: str) -> None:
    line = f'{{"t": {constant}, "sighted": "e4"}}\n'
    text = simulate_refuses(tmp_path, (SETUP + line).encode())
    assert f"line 2: {constant} is not a number: write it in digits" in text


def test_a_script_time_beyond_a_year_is_refused(tmp_path: Path) -> None:
    text = simulate_refuses(tmp_path, (SETUP + '{"t": 1e300, "sighted": "e4"}\n').encode())
    assert 'line 2: "t" must be from 0 to 31622400 seconds, not 1e+300' in text


def test_a_fen_that_is_not_a_string_is_refused(tmp_path: Path) -> None:
    text = simulate_refuses(tmp_path, b'{"setup": {"mode": "game", "fen": 42}}\n')
    assert "line 1: setup.fen must be a text in quotes, not 42" in text


@pytest.mark.parametrize("key", ["language", "opponent_language"])
def test_a_language_without_a_catalogue_is_refused(tmp_path: Path, key: str) -> None:
    text = simulate_refuses(tmp_path, f'{{"setup": {{"mode": "game", "{key}": "xx"}}}}\n'.encode())
    assert f"line 1: setup.{key} must be one of ar, de, en, fa, he, not 'xx'" in text


def test_a_misspelled_setup_key_is_named_with_the_key_meant(tmp_path: Path) -> None:
    text = simulate_refuses(tmp_path, b'{"setup": {"mode": "game", "corection_window": 2}}\n')
    assert "setup: unknown key 'corection_window' (did you mean 'correction_window'?)" in text


def test_a_script_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    content = SETUP.encode() + '{"t": 1, "blind": "Springer Felix drei, Jürgen"}\n'.encode(
        "latin-1"
    )
    text = simulate_refuses(tmp_path, content)
    assert "line 2 is not UTF-8 text; save the file in the UTF-8 encoding" in text


def test_a_script_that_is_a_folder_is_named(tmp_path: Path) -> None:
    result = voice_chess("simulate", str(tmp_path))
    assert result.returncode == 2
    assert f"voice-chess simulate: {tmp_path}: Is a directory" in one_sentence(result)


def test_a_script_saved_with_a_byte_order_mark_runs(tmp_path: Path) -> None:
    """Some editors start a UTF-8 file with one; it is UTF-8 all the same."""
    script = tmp_path / "s.jsonl"
    script.write_bytes(b"\xef\xbb\xbf" + SETUP.encode() + b'{"t": 1, "sighted": "e4"}\n')
    result = voice_chess("simulate", str(script))
    assert result.returncode == 0, result.stderr
    assert '"san": "e4"' in result.stdout


def test_resuming_a_journal_that_ends_with_a_comment_keeps_the_comment(tmp_path: Path) -> None:
    """A comment is not a torn write: resuming appends after it and deletes nothing."""
    journal = tmp_path / "game.jsonl"
    before = SETUP + '{"t": 1, "sighted": "e4"}\n# arbiter: board checked, game goes on\n'
    journal.write_text(before, encoding="utf-8")
    result = voice_chess(
        "simulate", "--resume", str(journal), "-", stdin='{"t": 5, "blind": "Eva fünf"}\n'
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    assert '"san": "e5"' in result.stdout
    after = journal.read_text(encoding="utf-8")
    assert after.startswith(before)
    assert after[len(before) :] == '{"t":5.0,"blind":"Eva fünf"}\n'


# -- recordings and batch files -------------------------------------------------------------


def test_recognize_given_a_folder_says_it_wants_a_recording(tmp_path: Path) -> None:
    result = voice_chess("recognize", "--backend", "sphinx", str(tmp_path))
    assert result.returncode == 1
    assert f"{tmp_path}: a folder, not a WAV file (give one recording)" in one_sentence(result)


def test_a_parse_batch_file_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    batch = tmp_path / "heard.jsonl"
    batch.write_bytes(b'{"id": 1, "text": "Springer Felix drei"}\n{"id": 2, "text": "K\xf6nig"}\n')
    result = voice_chess("parse", "--batch", str(batch))
    assert result.returncode == 2
    assert '"id": 1' in result.stdout  # the lines before it were answered
    assert f"cannot read {batch}: line 2 is not UTF-8 text" in one_sentence(result)


# -- model archives -------------------------------------------------------------------------


def install_refused(archive: Path, body: bytes) -> str:
    """``models install`` of a zip holding ``body``: exit 1, one sentence, nothing installed."""
    archive.write_bytes(body)
    result = voice_chess("models", "install", str(archive), "--quiet")
    assert result.returncode == 1
    assert nothing_installed()
    return one_sentence(result)


@pytest.mark.empty_models
def test_a_model_zip_with_a_corrupt_member_is_called_damaged(tmp_path: Path) -> None:
    body = bytearray(model_zip())
    name = f"vosk-model-test-0.1/{next(iter(LAYOUT))}".encode()
    start = body.index(name) + len(name)  # the first member's compressed data follows its name
    body[start : start + 8] = bytes(b ^ 0xFF for b in body[start : start + 8])
    archive = tmp_path / "vosk-model-test-0.1.zip"
    text = install_refused(archive, bytes(body))
    assert f"{archive} is damaged (" in text and "): copy or download it again" in text


@pytest.mark.empty_models
def test_a_model_zip_with_an_over_long_file_name_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "odd.zip"
    text = install_refused(archive, model_zip(files={**LAYOUT, "a" * 300 + ".txt": b"x"}))
    assert (
        f"{archive}: refusing the file name {'a' * 40!r}… in the zip: 304 bytes long, "
        "this file system takes at most 255; this is not a model archive"
    ) in text


@pytest.mark.empty_models
def test_a_model_zip_nested_deeper_than_the_file_system_allows_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "deep.zip"
    text = install_refused(archive, model_zip(files={**LAYOUT, "deep/" * 900 + "x.txt": b"x"}))
    assert f"{archive} cannot be unpacked: deep: File name too long" in text


# -- the end of input while the engine thinks ---------------------------------------------------


@pytest.mark.skipif(
    not any(Path(p).is_file() for p in ("/usr/games/stockfish", "/usr/bin/stockfish")),
    reason="Stockfish is not installed (Debian: apt install stockfish)",
)
def test_ctrl_d_while_the_engine_thinks_ends_quietly(tmp_path: Path) -> None:
    """The engine's late move is dropped; nothing is reported about a task or future."""
    settings = tmp_path / "config.toml"
    settings.write_text("[engine]\nmove_time = 5.0\n", encoding="utf-8")
    journal = tmp_path / "g.jsonl"
    con = Console(
        "--config",
        str(settings),
        "play",
        "--text",
        "--no-speech",
        "--no-web",
        "--opponent",
        "engine",
        "--level",
        "8",
        "--journal",
        str(journal),
    )
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("Eva vier")
        assert con.next_line() == "Eva vier"
        con.end_input()  # Ctrl-D: the engine has five seconds of thinking left
        assert con.wait() == 0
    finally:
        con.close()
    con._error_reader.join(timeout=10)
    assert con.errors == [], con.errors
    output = con.output()  # the command keeps the test's --config
    assert re.search(
        r"Fortsetzen mit: voice-chess (--config \S+ )?play --text --no-speech --no-web --resume",
        output,
    )
    assert [type(e).__name__ for e in read_journal(journal).events] == ["BlindSpeech"]


# -- options out of range -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("play", "--text", "--port", "99999"), "--port: must be a whole number from 0 to 65535"),
        (("assist", "--text", "--port", "-1"), "--port: must be a whole number from 0 to 65535"),
        (
            ("parse", "--confidence", "nan", "Eva vier"),
            "--confidence: must be a number from 0 to 1",
        ),
        (("parse", "--benchmark", "-5"), "--benchmark: must be a whole number from 1 to 100000"),
        (("enrol", "--count", "0"), "--count: must be a whole number from 1 to 200"),
        (("devices", "--test-microphone", "inf"), "--test-microphone: must be a number from 0.1"),
    ],
)
def test_an_option_out_of_range_is_refused_before_anything_starts(
    args: tuple[str, ...], why: str
) -> None:
    result = voice_chess(*args)
    assert result.returncode == 2
    assert why in one_sentence(result)


def test_a_journal_that_is_a_folder_is_not_called_an_existing_game(tmp_path: Path) -> None:
    result = voice_chess("play", "--text", "--no-speech", "--no-web", "--journal", str(tmp_path))
    assert result.returncode == 2
    text = one_sentence(result)
    assert (
        f"{tmp_path} ist ein Ordner; eine Partie wird in einer eigenen Datei gespeichert." in text
    )
    assert "--resume" not in text
    assert list(tmp_path.iterdir()) == []


def test_resuming_a_folder_without_games_says_none_is_there(tmp_path: Path) -> None:
    """``--resume FOLDER`` takes the latest game in FOLDER; with none, the folder searched is
    named (not "Is a directory")."""
    result = voice_chess("play", "--text", "--no-speech", "--no-web", "--resume", str(tmp_path))
    assert result.returncode == 2
    assert f"In {tmp_path} ist noch keine Partie gespeichert." in one_sentence(result)


def test_resuming_a_clock_as_a_game_names_the_command_that_resumes_it(tmp_path: Path) -> None:
    clock = tmp_path / "clock-20261127-120000.jsonl"
    clock.write_text('{"setup": {"mode": "clock", "time_control": "600"}}\n', encoding="utf-8")
    result = voice_chess("play", "--text", "--no-speech", "--no-web", "--resume", str(clock))
    assert result.returncode == 2
    assert f"Abhilfe: voice-chess clock --resume {clock} für die Uhr." in one_sentence(result)


def test_a_simulate_journal_that_is_a_folder_is_named(tmp_path: Path) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text(SETUP, encoding="utf-8")
    result = voice_chess("simulate", str(script), "--journal", str(tmp_path))
    assert result.returncode == 2
    assert f"voice-chess simulate: {tmp_path}: Is a directory" in one_sentence(result)


def test_an_enrolment_list_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    recordings = tmp_path / "moves.jsonl"
    recordings.write_bytes(b'{"wav": "1.wav", "text": "K\xf6nig Gustav eins"}\n')
    output = tmp_path / "voice.mllr"
    result = voice_chess("enrol", "--from", str(recordings), "--output", str(output))
    assert result.returncode == 2
    text = one_sentence(result)
    assert f"{recordings}: line 1 is not UTF-8 text; save the file in the UTF-8 encoding" in text
    assert not output.exists()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            '{"t": 1, "arbiter": {"action": "add_time", "side": "white", "seconds": 1e300}}',
            "add_time abgelehnt, die Uhr bleibt unverändert: seconds darf nicht 1e+300 sein; "
            "erlaubt: -36000..36000.",
        ),
        (
            '{"t": 1, "arbiter": {"action": "explode"}}',
            "explode abgelehnt, die Uhr bleibt unverändert: die sprechende Uhr kennt nur "
            "add_time, set_time, set_moves, penalty, increment.",
        ),
        (
            '{"t": 1, "arbiter": {"action": "declare_result", "result": "1-0"}}',
            "declare_result abgelehnt, die Uhr bleibt unverändert: die sprechende Uhr kennt nur",
        ),
    ],
)
def test_a_clock_scripts_correction_the_clock_cannot_make_is_refused_in_words(
    tmp_path: Path, line: str, said: str
) -> None:
    """As a game refuses it (README, "The arbiter"): bounded like a game's (a time beyond ten
    hours), named in the player's language, nothing changed, and the run goes on."""
    script = tmp_path / "script.jsonl"
    script.write_text('{"setup": {"mode": "clock", "language": "de"}}\n' + line + "\n")
    result = voice_chess("simulate", str(script))
    assert result.returncode == 0 and result.stderr == ""
    assert f'"say": "Schiedsrichter: {said}' in result.stdout


def test_a_clock_script_line_the_clock_cannot_carry_out_stops_the_run(tmp_path: Path) -> None:
    """The README: ``ask`` takes time or moves, and a bad line stops the run naming it."""
    line = '{"t": 1, "ask": "weather"}'
    text = simulate_refuses(tmp_path, ('{"setup": {"mode": "clock"}}\n' + line + "\n").encode())
    assert "line 2: the clock is asked for time, moves or pause, not 'weather'" in text


def test_a_lexicon_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    lexicon = tmp_path / "extra.dict"
    lexicon.write_bytes(b"k\xf6nig K OE N I C\n")
    command = ["asr", "--backend", "sphinx", "--lexicon", str(lexicon), "--count", "1", "--quick"]
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks", *command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parent.parent,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 1
    text = one_sentence(result)
    assert f"{lexicon}: not UTF-8 text (byte at position 1); save it as UTF-8" in text


# -- typed input ----------------------------------------------------------------------------


def test_a_typed_line_that_is_not_utf8_is_not_understood_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """A terminal or Braille keyboard set to Latin-1: with strict decoding (a de_DE.UTF-8
    locale) the first such byte used to end the input, and the game with it."""
    journal_option = ("--journal", str(tmp_path / "g.jsonl"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "voice",
            "play",
            "--text",
            "--no-speech",
            "--no-web",
            *journal_option,
        ],
        input=b"K\xf6nig Gustav eins\nEva vier \xe4\nSpringer Felix drei\n",
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
    )
    assert result.returncode == 0
    out = result.stdout.decode("utf-8")
    assert out.count("Nicht verstanden.") == 2  # not "Eva vier" either: the line is unread
    assert "\nSpringer Felix drei\n" in out  # the next line is still read and played
    assert "1. Nf3" in out
    assert b"Traceback" not in result.stderr


def test_a_parse_batch_confidence_that_is_not_a_number_is_answered_on_its_line(
    tmp_path: Path,
) -> None:
    batch = tmp_path / "heard.jsonl"
    batch.write_text(
        '{"id": 1, "nbest": [{"text": "Eva vier", "confidence": NaN}]}\n'
        '{"id": 2, "text": "Eva vier"}\n',
        encoding="utf-8",
    )
    result = voice_chess("parse", "--batch", str(batch))
    lines = result.stdout.splitlines()
    assert lines[0] == '{"id": 1, "error": "\\"confidence\\" must be a number from 0 to 1"}'
    assert '"move": "e2e4"' in lines[1]  # the next line is answered as usual
    one_sentence(result)


def test_a_script_confidence_outside_0_to_1_is_refused(tmp_path: Path) -> None:
    line = '{"t": 1, "blind_nbest": [["Eva fünf", 7]]}\n'
    text = simulate_refuses(tmp_path, (SETUP + line).encode())
    assert "line 2: " in text and "confidences 0 to 1" in text


# -- JSON nested beyond Python's recursion limit ---------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_script_line_nested_too_deeply_is_one_sentence_not_a_traceback(tmp_path: Path) -> None:
    script = tmp_path / "deep.jsonl"
    setup = '{"setup": {"mode": "clock", "time_control": "300"}}'
    script.write_text(f'{setup}\n{{"t": 1, "ask": {DEEP}}}\n', encoding="utf-8")
    result = voice_chess("simulate", str(script))
    assert result.returncode == 2
    assert "line 2: not JSON: nested too deeply" in one_sentence(result)


def test_a_parse_batch_line_nested_too_deeply_is_answered_on_its_line(tmp_path: Path) -> None:
    batch = tmp_path / "heard.jsonl"
    batch.write_text(
        f'{{"id": 1, "text": {DEEP}}}\n{{"id": 2, "text": "Springer Felix drei"}}\n',
        encoding="utf-8",
    )
    result = voice_chess("parse", "--batch", str(batch))
    assert "not a JSON object: nested too deeply" in one_sentence(result)
    assert '"id": 2' in result.stdout  # the lines after it are answered


def test_a_computer_strength_without_the_computer_is_refused_not_ignored() -> None:
    result = voice_chess("play", "--text", "--no-speech", "--no-web", "--level", "5")
    assert result.returncode == 2
    assert "--level is the computer's strength; give it with --opponent engine" in one_sentence(
        result
    )


def test_options_a_resumed_game_does_not_use_are_named_not_ignored(tmp_path: Path) -> None:
    """A game goes on as it began; a --control or --language given with --resume must not
    seem to have taken effect. The same value as the journal's is not named."""
    journal = tmp_path / "game-20261127-120000.jsonl"
    journal.write_text(
        '{"setup": {"mode": "game", "time_control": "600", "language": "de"}}\n'
        '{"t": 1.0, "blind": "Eva vier"}\n',
        encoding="utf-8",
    )
    result = voice_chess(
        *("play", "--resume", str(journal), "--text", "--no-speech", "--no-web"),
        *("--control", "300", "--language", "en", "--blind", "white"),
    )
    text = one_sentence(result)
    assert (
        "Die fortgesetzte Partie geht weiter, wie sie begann; nicht verwendet: --control 300, "
        "--language en." in text
    )


def test_a_corrupt_journal_given_to_simulate_resume_is_named_once(tmp_path: Path) -> None:
    journal = tmp_path / "j3.jsonl"
    journal.write_text(
        '{"setup": {"mode": "game", "time_control": "300"}}\n'
        '{"t": 1.0, "sighted": "e2e4"\n{"t": 2.0, "sighted": "e7e5"}\n',
        encoding="utf-8",
    )
    result = voice_chess("simulate", "--resume", str(journal))
    assert result.returncode == 2
    text = one_sentence(result)
    assert f"voice-chess simulate: {journal}: line 2 is not valid JSON" in text
    assert text.count(str(journal)) == 1


def test_the_way_out_of_a_bad_settings_file_is_given_only_where_keys_are_to_be_mended(
    tmp_path: Path,
) -> None:
    """A missing file or broken TOML says what is wrong in one sentence; the hint to mend or
    drop the named key follows a key that is not allowed, and only that."""
    missing = voice_chess("--config", str(tmp_path / "none.toml"), "parse", "Eva vier")
    assert "no such configuration file" in one_sentence(missing)
    assert "To fix" not in missing.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("[session\nprofile=", encoding="utf-8")
    assert "To fix" not in voice_chess("--config", str(broken), "parse", "Eva vier").stderr
    bad_key = tmp_path / "bad.toml"
    bad_key.write_text('[session]\nprofil = "home"\n', encoding="utf-8")
    result = voice_chess("--config", str(bad_key), "parse", "Eva vier")
    assert "key 'session.profil': unknown key" in one_sentence(result)
    assert "To fix: correct or remove the named key" in result.stderr


def test_resume_given_a_folder_continues_its_latest_game(tmp_path: Path) -> None:
    """``--resume FOLDER`` (a copy of the games folder, say): its latest game, not "Is a
    directory"."""
    from voice.rules.events import Setup, SightedMove
    from voice.runtime.journal import Journal

    older = tmp_path / "game-2026-11-01_10-00-00.jsonl"
    with Journal.create(older, Setup(time_control="300")) as journal:
        journal.append(SightedMove(1000, "e2e4"))
    latest = tmp_path / "game-2026-11-02_10-00-00.jsonl"
    with Journal.create(latest, Setup(time_control="300", blind="black")) as journal:
        journal.append(SightedMove(1000, "e2e4"))
    os.utime(older, (1, 1))
    con = Console("play", "--text", "--no-speech", "--no-web", "--resume", str(tmp_path))
    try:
        con.expect("Partie fortgesetzt. Schwarz ist am Zug.")  # the latest: Black to move
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert f"--resume {latest}" in con.output()


def test_input_ending_before_the_approval_does_not_say_start_again_beside_how_to_continue() -> None:
    """The tournament board's journal exists from the set-up on: the command that continues
    it is printed, so "Bitte neu starten" would contradict it."""
    result = voice_chess("assist", "--text", "--no-speech", "--no-web")
    text = one_sentence(result)
    assert "Die Eingabe ist zu Ende, bevor die Partie begann.\n" in text
    assert "Bitte neu starten" not in text and "Fortsetzen mit: voice-chess assist" in text
