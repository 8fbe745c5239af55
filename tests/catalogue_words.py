"""What the ar/fa/he catalogue tests share: the words that stay Latin in every language, the
token patterns, and placeholder extraction. Keys and placeholders themselves are compared for
every language in tests/test_messages.py."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from voice.words.vocabulary import Vocabulary

_VOCAB = Vocabulary.default("de")
# The Appendix D words and the plural piece names of position.* (kept German in every language).
APPENDIX_D = {w.lower() for w in _VOCAB.move_words()} | {
    "könige",
    "damen",
    "türme",
    "bauern",
    "kurze",
    "lange",
    "rochade",
}
COMMAND_WORDS = {w.lower() for w in _VOCAB.command_words()} | set(_VOCAB.number_words)

K = TypeVar("K", str, tuple[Any, ...])
"""A catalogue key: a message key, or a tuple such as (voice, word, respelling)."""

LATIN_LETTER = re.compile("[A-Za-zÄÖÜäöüß]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
OPTION = re.compile(r"--[a-z][a-z-]*")
LATIN_TOKEN = re.compile(r"[\[A-Za-zÄÖÜäöüß0-9][\w./+\-\]]*")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def broken_keys(check: Callable[[K], object], keys: Iterable[K]) -> list[str]:
    """Every key for which ``check(key)`` fails an assertion, as "key: the first line of what
    failed": one rule checked over a whole catalogue names all its broken keys at once."""
    broken: list[str] = []
    for key in keys:
        try:
            check(key)
        except AssertionError as failure:
            first_line = (str(failure).strip().splitlines() or ["assertion failed"])[0]
            name = key if isinstance(key, str) else " ".join(map(str, key))
            broken.append(first_line if first_line.startswith(name) else f"{name}: {first_line}")
    return broken


def assert_every_key(check: Callable[[K], object], keys: Iterable[K]) -> None:
    """Fail, naming each broken key, unless ``check`` passes for every key."""
    broken = broken_keys(check, keys)
    assert not broken, f"{len(broken)} broken keys:\n" + "\n".join(broken)
