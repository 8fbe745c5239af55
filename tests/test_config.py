"""Configuration: defaults load, a user file overrides key by key, bad files are named precisely."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from voice.config import ConfigError, load_settings, override


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_load_and_hold_every_section() -> None:
    settings = load_settings(look_in_user_dir=False)
    assert settings.session.profile == "home"
    assert settings.vocabulary.rank_words[4] == "fünf"
    assert settings.web.host == "127.0.0.1"


def test_user_file_overrides_key_by_key(tmp_path: Path) -> None:
    path = write(tmp_path, '[session]\nprofile = "tournament"\n[matching]\naccept_cost = 0.2\n')
    settings = load_settings(path)
    assert settings.session.profile == "tournament"
    assert settings.matching.accept_cost == 0.2
    # keys not named keep their defaults
    assert settings.session.blind == "white"
    assert (
        settings.matching.confirm_cost
        == load_settings(look_in_user_dir=False).matching.confirm_cost
    )


def test_user_file_in_platformdirs_location_is_used(tmp_path: Path) -> None:
    from voice.config import user_config_path

    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[web]\nport = 9000\n", encoding="utf-8")
    assert load_settings().web.port == 9000


def test_rank_words_replaceable_by_the_arbiter(tmp_path: Path) -> None:
    words = '["one","two","three","four","five","six","seven","eight"]'
    settings = load_settings(write(tmp_path, f"[vocabulary]\nrank_words = {words}\n"))
    assert settings.vocabulary.rank_words[0] == "one"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[session]\nprofil = "home"\n', "key 'session.profil': unknown key"),
        ('[sesion]\nprofile = "home"\n', "key 'sesion': unknown key"),
        (
            '[session]\nprofile = "club"\n',
            "key 'session.profile': Input should be 'home' or 'tournament'",
        ),
        ('[web]\nport = "8765"\n', "key 'web.port': Input should be a valid integer"),
        ("[web]\nport = 70000\n", "key 'web.port': Input should be less than or equal to 65535"),
        ('[vocabulary]\nrank_words = ["eins"]\n', "key 'vocabulary.rank_words'"),
        (
            '[vocabulary]\nfile_words = ["Anna","zwei","Cesar","David","Eva","Felix","Gustav",'
            '"Hector"]\n',
            "zwei would name a file and a rank",
        ),
    ],
)
def test_bad_values_name_file_key_and_what_is_allowed(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(path) in str(caught.value)
    assert expected in str(caught.value)


def test_broken_toml_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, "[session\nprofile=")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(path)


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_settings(tmp_path / "nope.toml")


def test_override_validates_like_a_file() -> None:
    settings = load_settings(look_in_user_dir=False)
    assert override(settings, session={"profile": "tournament"}).session.profile == "tournament"
    with pytest.raises(ConfigError, match=r"<command line>: key 'session.profile'"):
        override(settings, session={"profile": "x"})


def test_command_line_reports_bad_config_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "[web]\nport = -1\n")
    result = subprocess.run(
        [sys.executable, "-m", "voice", "--config", str(path), "config", "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert f"{path}: key 'web.port'" in result.stderr


def _voice_chess(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "voice", *args],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def test_config_check_and_path_speak_the_language_of_the_settings(tmp_path: Path) -> None:
    """``config check`` said "settings are valid" in English to a German player (a new user's
    trial): it speaks ``[language] blind``, as every other command does."""
    checked = _voice_chess("config", "check")  # the defaults: German
    assert (checked.returncode, checked.stdout) == (0, "Die Einstellungen sind gültig.\n")
    english = write(tmp_path, '[language]\nblind = "en"\n')
    checked = _voice_chess("--config", str(english), "config", "check")
    assert checked.stdout == "The settings are valid.\n"
    where = _voice_chess("config", "path").stdout.splitlines()
    assert where[1].startswith("Voreinstellungen: ") and where[1].endswith("default.toml")


def test_the_clock_without_a_terminal_says_so_in_the_players_language(tmp_path: Path) -> None:
    refused = _voice_chess("clock", "--no-speech", "--no-listen")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        "voice-chess clock: Die Uhr braucht die Tastatur eines Terminals, und die "
        "Standardeingabe ist keines. Abhilfe: voice-chess clock in einem Terminal starten.\n"
    )
    persian = _voice_chess("clock", "--language", "fa")
    assert "ترمینال" in persian.stderr and "terminal" not in persian.stderr
