"""espeak-ng as the tests' ear: the phonemes it would say for a text in a voice."""

from __future__ import annotations

import functools
import subprocess


@functools.cache
def espeak(voice: str, text: str, flag: str) -> str:
    """espeak-ng's phonemes (``-x``) or its trace (``-X``), once per text."""
    result = subprocess.run(
        ["espeak-ng", "-q", "-v", voice, flag, text],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return result.stdout + result.stderr
