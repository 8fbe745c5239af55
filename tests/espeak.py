"""espeak-ng as the tests' ear: the phonemes it would say for a text in a voice."""

from __future__ import annotations

import functools
import subprocess

from speech_cache import cached_text, tool_version


@functools.cache
def espeak(voice: str, text: str, flag: str) -> str:
    """espeak-ng's phonemes (``-x``) or its trace (``-X``), once per text (kept on disk by
    :mod:`speech_cache` across runs)."""

    def run() -> str:
        result = subprocess.run(
            ["espeak-ng", "-q", "-v", voice, flag, text],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return result.stdout + result.stderr

    return cached_text("espeak-phonemes", [tool_version("espeak-ng"), voice, flag, text], run)
