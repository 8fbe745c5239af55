"""What the ar/fa/he catalogue tests share: the words that stay Latin in every language, the
token patterns, and placeholder extraction. Keys and placeholders themselves are compared for
every language in tests/test_messages.py."""

from __future__ import annotations

import re
import string

from voice.vocabulary import Vocabulary

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

LATIN_LETTER = re.compile("[A-Za-zÄÖÜäöüß]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
OPTION = re.compile(r"--[a-z][a-z-]*")
LATIN_TOKEN = re.compile(r"[\[A-Za-zÄÖÜäöüß0-9][\w./+\-\]]*")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
