"""Set up a fresh Debian/Ubuntu machine and run voice-chess or its test suite.

This is what the README's two commands call::

    python3 tools/bootstrap.py run      # set everything up, then start the program
    python3 tools/bootstrap.py test     # set everything up, then lint, type-check and test

It uses only the standard library because it runs before anything is installed. It installs
Debian packages only when they are missing (with sudo when not root), creates ``.venv`` beside
this repository's ``pyproject.toml`` and installs the package into it in editable mode.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
# The folders ruff lints and format-checks (mypy's are in pyproject.toml).
CHECKED = ["voice", "benchmarks", "tools", "tests"]

# What the program needs at run time: speech output, audio I/O, the engine opponent.
RUN_PACKAGES = [
    "espeak-ng",
    "libespeak-ng1",
    "libportaudio2",
    # PortAudio reaches PulseAudio/PipeWire through ALSA's pulse plugin; pactl lists the sinks
    # and sources that `[audio] input_device`/`output_device` may name.
    "libasound2-plugins",
    "pulseaudio-utils",
    "stockfish",
]
# What the tests need on top: virtual audio devices, audio tools, a headless browser.
TEST_PACKAGES = [
    "pulseaudio",
    "pulseaudio-utils",
    "libasound2-plugins",
    "sox",
    "chromium",
    "chromium-driver",
]


def say(message: str) -> None:
    print(f"[voice-chess setup] {message}", flush=True)


def missing_debian_packages(packages: list[str]) -> list[str]:
    """Return the packages dpkg does not report as installed."""
    missing = []
    for package in packages:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package],
            capture_output=True,
            text=True,
            check=False,
        )
        if "install ok installed" not in result.stdout:
            missing.append(package)
    return missing


def install_debian_packages(packages: list[str]) -> None:
    if shutil.which("dpkg-query") is None:
        say("not a Debian/Ubuntu system: install espeak-ng and PortAudio yourself")
        return
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        packages = [*packages, "python3-venv"]
    missing = missing_debian_packages(packages)
    if not missing:
        return
    prefix: list[str] = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            sys.exit(f"these Debian packages are missing and I am not root: {' '.join(missing)}")
        prefix = ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    say(f"installing Debian packages: {' '.join(missing)}")
    subprocess.run([*prefix, "apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        [*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
        check=True,
        env=env,
    )


def venv_bin(name: str) -> str:
    return str(VENV / "bin" / name)


def install_python_packages(extras: str) -> None:
    if not (VENV / "bin" / "python").exists():
        say(f"creating the virtual environment {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    say("installing voice-chess and its Python dependencies")
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    subprocess.run(
        [
            venv_bin("python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-e",
            target,
        ],
        check=True,
    )


def run_tests(pytest_args: list[str]) -> int:
    """Lint, format check, type check, the layer contract, then the whole test suite; the first
    failure stops."""
    steps = [
        [venv_bin("ruff"), "check", *CHECKED],
        [venv_bin("ruff"), "format", "--check", *CHECKED],
        [venv_bin("mypy")],
        [venv_bin("lint-imports")],
        [venv_bin("python"), "-m", "pytest", "-n", "4", "--dist", "loadgroup", *pytest_args],
    ]
    for step in steps:
        say("running " + " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step)))
        code = subprocess.run(step, cwd=ROOT, check=False).returncode
        if code != 0:
            say(f"failed: {' '.join(step)} (exit {code})")
            return code
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print(__doc__)
        return 2
    what, rest = argv[0], argv[1:]
    if what == "run":
        install_debian_packages(RUN_PACKAGES)
        install_python_packages("")
        command = [venv_bin("voice-chess"), *rest]
        say("starting " + " ".join(["voice-chess", *rest]))
        os.execv(command[0], command)
    install_debian_packages(RUN_PACKAGES + TEST_PACKAGES)
    install_python_packages("test")
    return run_tests(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
