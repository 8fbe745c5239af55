"""The Arabic catalogue (voice/words/locales/ar.po): the keys and placeholders of the English one,
every sentence in Arabic script, vocalised in the order espeak-ng reads.

Latin script may appear only where the blind player hears or says the international words: the
Appendix D words (Anna … Hector, eins … acht, König … Bauer), the German command words in «…»,
and the names of the program, its options and files on the lines meant for a terminal.
"""

from __future__ import annotations

import re

import pytest
from catalogue_words import (
    APPENDIX_D,
    COMMAND_WORDS,
    LATIN_LETTER,
    LATIN_TOKEN,
    OPTION,
    PLACEHOLDER,
    assert_every_key,
    broken_keys,
)

from voice.words.messages import catalogue
from voice.words.vocabulary import FILLER_WORDS

AR = catalogue("ar")
EN = catalogue("en")

# Names on terminal lines and web labels: the program, its commands and options, a FIDE label.
TECHNICAL = {
    "voice-chess",
    "stockfish",
    "pgn",
    "iii.4",
    "models",
    "list",
    "devices",
    "simulate",
    "clock",
    "demo",
    "play",
    "python3",
    "tools/bootstrap.py",
    "run",
    "journal_dir",
    "[session]",
    "[clock.presets]",
    "900+10",
    "ctrl-d",
    "ctrl-c",
    "q",
    "file",
}

ARABIC_LETTER = re.compile("[\u0621-\u063a\u0641-\u064a\u0671]")
PERSIAN_LETTER = re.compile("[\u067e\u0686\u0698\u06a9\u06af\u06cc]")
HARAKAT = "\u064b-\u0650\u0652"
SHADDA = "\u0651"
QUOTED = re.compile("«([^«»]*)»")


def _english_words(value: str) -> bool:
    """Whether an English value has words beyond placeholders and the international names."""
    rest = PLACEHOLDER.sub(" ", value)
    words = [w.rstrip(".,:;)").lower() for w in LATIN_TOKEN.findall(rest)]
    return any(LATIN_LETTER.search(w) and w not in TECHNICAL | APPENDIX_D for w in words)


# Values that are only placeholders, punctuation and names, or the German piece names.
NO_ARABIC_NEEDED = {key for key, value in EN.items() if not _english_words(value)} | {
    key for key in EN if key.startswith("position.") and key.endswith(("_one", "_many"))
}


def _allowed_latin(word: str) -> bool:
    word = word.rstrip(".,:;)").lower()
    return (
        word in COMMAND_WORDS | FILLER_WORDS | APPENDIX_D | TECHNICAL
        or bool(OPTION.fullmatch(word))
        or not LATIN_LETTER.search(word)
    )


def _every_value_is_arabic_apart_from_the_international_words(key: str) -> None:
    value = AR[key]
    assert value != ""
    rest = PLACEHOLDER.sub(" ", value)
    for quoted in QUOTED.findall(rest):
        unknown = [w for w in quoted.split() if not _allowed_latin(w)]
        assert not unknown, f"{key}: {unknown} in «…» is not a command word or option"
    rest = QUOTED.sub(" ", rest)
    rest = OPTION.sub(" ", rest)
    for token in LATIN_TOKEN.findall(rest):
        if not LATIN_LETTER.search(token):
            continue  # a number such as the 9.5.3 of an article
        word = token.rstrip(".,:;)").lower()
        assert word in APPENDIX_D | TECHNICAL, f"{key}: Latin word {token!r} outside «…»"
    if key not in NO_ARABIC_NEEDED:
        assert ARABIC_LETTER.search(value), f"{key} has no Arabic word"


def test_every_value_is_arabic_apart_from_the_international_words() -> None:
    assert_every_key(_every_value_is_arabic_apart_from_the_international_words, sorted(AR))


def _arabic_letters_not_persian_ones(key: str) -> None:
    # Persian yeh, keheh, peh, tcheh, jeh, gaf have no place in Modern Standard Arabic.
    assert not PERSIAN_LETTER.search(AR[key]), key


def test_arabic_letters_not_persian_ones() -> None:
    assert_every_key(_arabic_letters_not_persian_ones, sorted(AR))


def _shadda_comes_before_its_vowel(key: str) -> None:
    # espeak-ng drops the vowel of "نَّ" (fatha, shadda: the Unicode canonical order) and reads
    # "نَّ" (shadda, fatha) right: a normalising editor must not reorder the marks.
    assert not re.search(f"[{HARAKAT}]{SHADDA}", AR[key]), key


def test_shadda_comes_before_its_vowel() -> None:
    assert_every_key(_shadda_comes_before_its_vowel, sorted(AR))


def _no_stray_marks(key: str) -> None:
    # A short vowel or shadda must follow a letter, and two short vowels never stack.
    value = AR[key]
    assert not re.search(f"(^|[^\u0621-\u064a\u0671\u0651])[{HARAKAT}{SHADDA}]", value), key
    assert not re.search(f"[{HARAKAT}][{HARAKAT}]", value), key


def test_no_stray_marks() -> None:
    assert_every_key(_no_stray_marks, sorted(AR))


def test_the_side_names_agree_everywhere() -> None:
    # The talking clock, the game and the web page name the sides alike (marks aside).
    def bare(text: str) -> str:
        return re.sub(f"[{HARAKAT}{SHADDA}]", "", text)

    for side in ("white", "black"):
        names = {bare(AR[f"clock.{side}"]), bare(AR[f"game.side.{side}"])}
        names.add(bare(AR[f"web.side.{side}"]))
        assert len(names) == 1, names


def test_a_catalogue_rule_names_every_broken_key_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """One test checks a rule over the whole catalogue: its failure lists each broken key, not
    only the first."""
    monkeypatch.setitem(AR, "test.first", "پ")  # Persian peh
    monkeypatch.setitem(AR, "test.second", "گ")  # Persian gaf
    keys = ["clock.white", "test.first", "test.second"]
    assert broken_keys(_arabic_letters_not_persian_ones, keys) == ["test.first", "test.second"]
    with pytest.raises(AssertionError, match=r"2 broken keys:\ntest\.first\ntest\.second"):
        assert_every_key(_arabic_letters_not_persian_ones, keys)
