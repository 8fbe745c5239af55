"""The installable wheel (issue 21, part 1): built from the repository, installed with its
dependencies into a fresh virtual environment and run from another folder, it works.

`pip install .` once built a wheel without ``voice._config`` and ``voice._speech_models``
(setuptools' ``packages.find`` ignores package-dir mappings of sub-packages), so every command
but ``--help`` died with ``ModuleNotFoundError``. The wheel must also leave out what needs the
repository: the set-up script, the benchmarks and their Selenium/Chromium code.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What .gitignore keeps out of the repository, and so out of a wheel built from it.
NOT_IN_THE_REPOSITORY = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "test-artifacts",
    "*.wav",
    "*.zip",
)

BROWSER_IMPORT = re.compile(r"^\s*(from|import) selenium\b", re.MULTILINE)

CLOCK_SCRIPT = (
    '{"setup": {"mode": "clock", "time_control": "900+10"}}\n'
    '{"t": 12.5, "press": "white"}\n'
    '{"t": 20, "pause": true}\n'
)


def test_every_folder_under_voice_is_listed_for_the_wheel() -> None:
    """pyproject.toml lists the packages and data folders by hand; a folder missing there is
    missing from the wheel, so a new one must be added to the list."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(settings["tool"]["setuptools"]["packages"])
    folders = {"voice"} | {
        ".".join(folder.relative_to(ROOT).parts)
        for folder in (ROOT / "voice").rglob("*")
        if folder.name != "__pycache__" and any(path.is_file() for path in folder.glob("*"))
    }
    assert folders - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert {"voice._config", "voice._speech_models"} <= listed


def _run(
    command: list[str],
    *,
    timeout: float,
    stdin: str = "",
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> str:
    """Standard output of a command that must succeed without a traceback."""
    result = subprocess.run(
        command, input=stdin, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


def _build_wheel(tmp_path: Path) -> Path:
    """The wheel of a copy of the repository, so that no stale ``build/`` folder of an earlier
    build in the checkout can add files the repository no longer has."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_IN_THE_REPOSITORY)
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "wheel", "--no-deps", "-q", "-w", str(dist), str(source)], timeout=600)
    (wheel,) = dist.glob("voice_chess-*.whl")
    return wheel


def _files(folder: Path) -> set[str]:
    return {
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def _check_contents(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        sources = {name: archive.read(name).decode() for name in names if name.endswith(".py")}
    top = {name.split("/")[0] for name in names}
    assert {folder for folder in top if not folder.endswith(".dist-info")} == {"voice"}
    assert not [name for name in names if "bootstrap" in name or "bench" in name]
    assert not [name for name, text in sources.items() if BROWSER_IMPORT.search(text)]
    for folder, packed_as in (
        ("voice", "voice"),
        ("config", "voice/_config"),
        ("speech_models", "voice/_speech_models"),
    ):
        packed = {name.removeprefix(f"{packed_as}/") for name in names}
        assert _files(ROOT / folder) <= packed, f"{folder}/ is not all in the wheel"


@pytest.mark.slow
def test_the_wheel_installed_in_a_fresh_environment_runs_from_another_folder(
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    wheel = _build_wheel(tmp_path)
    built = time.monotonic()
    _check_contents(wheel)

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], timeout=300)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "install", "-q", str(wheel)], timeout=900)
    installed = time.monotonic()

    elsewhere = tmp_path / "elsewhere"
    home = elsewhere / "home"
    home.mkdir(parents=True)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
    }
    env |= {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    program = str(venv / "bin" / "voice-chess")

    def voice_chess(*args: str, stdin: str = "") -> str:
        return _run([program, *args], stdin=stdin, cwd=elsewhere, env=env, timeout=300)

    assert "say-move" in voice_chess("--help")
    decision = json.loads(voice_chess("parse", "Springer Felix drei"))
    assert (decision["decision"], decision["move"]) == ("accept", "g1f3")
    assert voice_chess("say-move", "Nf3").strip() == "Springer Felix drei"
    where = voice_chess("config", "path")
    assert f"{venv}/lib/" in where and "/voice/_config/default.toml" in where
    simulated = voice_chess("simulate", "-", stdin=CLOCK_SCRIPT)
    clock = [json.loads(line) for line in simulated.splitlines()]
    assert clock[0] == {
        "t": 12.5,
        "clock": {"white": 897.5, "black": 900.0, "running": "black", "moves": 1},
    }
    assert "Qxf7#" in voice_chess("demo")
    assert "1. Nf3" in voice_chess("play", "--text", "--port", "0", stdin="Springer Felix drei\n")
    finished = time.monotonic()
    print(
        f"\nwheel: built in {built - started:.1f} s, installed with its dependencies into a "
        f"fresh environment in {installed - built:.1f} s, commands ran in "
        f"{finished - installed:.1f} s"
    )
