"""The pronunciation lexicon shipped in ``speech_models/lexicon/*.dict``.

PocketSphinx's embedded acoustic model is American English; it hears the German Appendix D words
only through pronunciations spelt in its own phone set (ARPAbet). Each word carries several
variants (German, English-accented, and accented forms such as "Justaf" or "Tsfai"); the decoder
picks whichever fits, and every variant maps back to the one canonical token. A word missing from
the files (a rank word the arbiter chose) gets a rule-based German pronunciation instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from voice.resources import speech_models_dir
from voice.speech.recognizers.g2p import german_phones

PHONES: frozenset[str] = frozenset(
    [
        "AA",
        "AE",
        "AH",
        "AO",
        "AW",
        "AY",
        "B",
        "CH",
        "D",
        "DH",
        "EH",
        "ER",
        "EY",
        "F",
        "G",
        "HH",
        "IH",
        "IY",
        "JH",
        "K",
        "L",
        "M",
        "N",
        "NG",
        "OW",
        "OY",
        "P",
        "R",
        "S",
        "SH",
        "T",
        "TH",
        "UH",
        "UW",
        "V",
        "W",
        "Y",
        "Z",
        "ZH",
    ]
)
"""The phones of PocketSphinx's en-us model (ARPAbet without stress marks)."""


class LexiconError(ValueError):
    """A lexicon line is malformed or uses a phone the acoustic model does not have."""


def lexicon_dir() -> Path:
    return speech_models_dir() / "lexicon"


@dataclass(frozen=True)
class Lexicon:
    """Canonical token → its pronunciations (phone strings), in file order."""

    entries: Mapping[str, tuple[str, ...]]

    @classmethod
    def load(cls, paths: Iterable[Path] | None = None) -> Lexicon:
        """Read the given ``.dict`` files (default: every one shipped), later files adding
        variants to earlier ones. Lines are ``word PHONE PHONE ...``; ``#`` starts a comment."""
        files = sorted(lexicon_dir().glob("*.dict")) if paths is None else list(paths)
        entries: dict[str, list[str]] = {}
        for path in files:
            try:
                text_of_file = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as error:
                raise LexiconError(
                    f"{path}: not UTF-8 text (byte at position {error.start}); save it as UTF-8"
                ) from None
            except OSError as error:
                raise LexiconError(f"{path}: cannot be read: {error.strerror}") from None
            for number, line in enumerate(text_of_file.splitlines(), 1):
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                word, *phones = text.split()
                unknown = [p for p in phones if p not in PHONES]
                if not phones or unknown:
                    raise LexiconError(
                        f"{path}:{number}: {word!r} has "
                        + (f"unknown phones {unknown}" if unknown else "no phones")
                    )
                variants = entries.setdefault(word.lower(), [])
                pronunciation = " ".join(phones)
                if pronunciation not in variants:
                    variants.append(pronunciation)
        return cls({word: tuple(variants) for word, variants in entries.items()})

    def __contains__(self, word: object) -> bool:
        return word in self.entries

    def pronunciations(self, word: str) -> tuple[str, ...]:
        """The lexicon's variants, or one rule-based German pronunciation for an unknown word."""
        known = self.entries.get(word)
        if known:
            return known
        guessed = german_phones(word)
        return (guessed,) if guessed else ()

    def missing(self, words: Iterable[str]) -> list[str]:
        """The words the shipped files do not hold (they fall back to spelling rules)."""
        return sorted(word for word in set(words) if word not in self.entries)

    def dictionary(self, words: Iterable[str]) -> str:
        """A PocketSphinx dictionary for ``words``: ``word``, ``word(2)``, ... per variant."""
        lines = []
        for word in sorted(set(words)):
            for index, phones in enumerate(self.pronunciations(word)):
                name = word if index == 0 else f"{word}({index + 1})"
                lines.append(f"{name} {phones}")
        return "\n".join(lines) + "\n"
