"""Issue 18's memory target: what a decode freed goes back to the system
(:mod:`voice.speech.memory`)."""

from __future__ import annotations

from pathlib import Path

from voice.speech.memory import give_back


def _rss_mb() -> float:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_freed_heap_memory_is_returned_to_the_system() -> None:
    """Blocks freed below one still in use stay with the process (glibc keeps them for reuse,
    as after a Whisper decode) until they are given back."""
    blocks = [bytearray(4000) for _ in range(20_000)]  # 80 MB of malloc'd blocks
    kept = bytearray(4000)  # allocated above them: the heap's top cannot shrink by itself
    del blocks
    before = _rss_mb()
    assert give_back()
    after = _rss_mb()
    assert before - after > 40, (before, after)
    del kept
