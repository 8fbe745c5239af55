"""A disk cache for the speech the tests synthesise (espeak-ng, sox), shared by runs and workers.

espeak-ng and sox are deterministic for a given version, voice, rate and text, so their output is
made once and kept outside the repository, in ``$VOICE_CHESS_TEST_CACHE`` or else
``~/.cache/voice-chess-tests``. The versions of both tools are part of every key: an upgrade makes
the speech again. A file is written under a temporary name and renamed into place, so parallel
pytest-xdist workers that make the same entry at once never read half a file (the last rename
wins, and both wrote the same bytes). Delete the folder to start afresh.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path


def cache_dir() -> Path:
    configured = os.environ.get("VOICE_CHESS_TEST_CACHE")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "voice-chess-tests"


# XDG_CACHE_HOME is read once, at import: the tests' autouse fixture points XDG folders at
# temporary ones, and the cache must stay where it was.
CACHE = cache_dir()


@functools.cache
def tool_version(tool: str) -> str:
    """``tool --version`` (first line), or "" when the tool is missing."""
    try:
        result = subprocess.run(
            [tool, "--version"], capture_output=True, text=True, check=False, timeout=30
        )
    except FileNotFoundError:
        return ""
    text = (result.stdout or result.stderr).strip()
    return text.splitlines()[0] if text else ""


def cached_file(kind: str, key: list[object], suffix: str, make: Callable[[Path], None]) -> Path:
    """The cached file for ``key``; ``make(path)`` writes it there the first time."""
    digest = hashlib.sha256(json.dumps([kind, *key], ensure_ascii=False).encode()).hexdigest()
    path = CACHE / kind / f"{digest}{suffix}"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".making-") as folder:
        made = Path(folder) / f"made{suffix}"
        make(made)
        os.replace(made, path)
    return path


def cached_text(kind: str, key: list[object], make: Callable[[], str]) -> str:
    """Text (such as espeak-ng's phonemes) for ``key``, made by ``make()`` the first time."""

    def write(path: Path) -> None:
        path.write_text(make(), encoding="utf-8")

    return cached_file(kind, key, ".txt", write).read_text(encoding="utf-8")
