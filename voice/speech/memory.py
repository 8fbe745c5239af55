"""Giving the memory a decode used back to the system (glibc's ``malloc_trim``).

Issue 18 allows the listening process 500 MB. A Whisper decode allocates and frees tens of
megabytes (the encoder's features, the beam, the batched scoring); glibc keeps what was freed
in its heaps for reuse instead of returning it, so the process grows decode after decode
(measured: 225 MB after loading Whisper base and PocketSphinx, 337 MB after 20 decodes, 265 MB
once trimmed). ``malloc_trim(0)`` returns the free pages; it takes a few milliseconds, so it is
called after an answer is delivered, never before. Elsewhere than glibc (musl, macOS) it does
nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        function: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    return function


def give_back() -> bool:
    """Return the heap's free pages to the system; whether it could be asked."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
