"""The Arabic catalogue (voice/locales/ar.toml): the keys and placeholders of the English one,
every sentence in Arabic script, vocalised in the order espeak-ng reads.

Latin script may appear only where the blind player hears or says the international words: the
Appendix D words (Anna … Hector, eins … acht, König … Bauer), the German command words in «…»,
and the names of the program, its options and files on the lines meant for a terminal.
"""

from __future__ import annotations

import re
import string

import pytest

from voice.messages import catalogue, message
from voice.vocabulary import FILLER_WORDS, Vocabulary

AR = catalogue("ar")
EN = catalogue("en")

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
    "voice/bootstrap.py",
    "run",
    "journal_dir",
    "[session]",
    "[clock.presets]",
    "900+10",
    "ctrl-d",
    "q",
    "file",
}

ARABIC_LETTER = re.compile("[\u0621-\u063a\u0641-\u064a\u0671]")
PERSIAN_LETTER = re.compile("[\u067e\u0686\u0698\u06a9\u06af\u06cc]")
HARAKAT = "\u064b-\u0650\u0652"
SHADDA = "\u0651"
LATIN_LETTER = re.compile("[A-Za-zÄÖÜäöüß]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
QUOTED = re.compile("«([^«»]*)»")
OPTION = re.compile(r"--[a-z][a-z-]*")
LATIN_TOKEN = re.compile(r"[\[A-Za-zÄÖÜäöüß0-9][\w./+\-\]]*")


def _english_words(value: str) -> bool:
    """Whether an English value has words beyond placeholders and the international names."""
    rest = PLACEHOLDER.sub(" ", value)
    words = [w.rstrip(".,:;)").lower() for w in LATIN_TOKEN.findall(rest)]
    return any(LATIN_LETTER.search(w) and w not in TECHNICAL | APPENDIX_D for w in words)


# Values that are only placeholders, punctuation and names, or the German piece names.
NO_ARABIC_NEEDED = {key for key, value in EN.items() if not _english_words(value)} | {
    key for key in EN if key.startswith("position.") and key.endswith(("_one", "_many"))
}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_the_same_keys_as_english() -> None:
    assert sorted(set(EN) - set(AR)) == [], "missing in ar.toml"
    assert sorted(set(AR) - set(EN)) == [], "not in en.toml"


@pytest.mark.parametrize("key", sorted(EN))
def test_the_same_placeholders_as_english(key: str) -> None:
    assert placeholders(AR[key]) == placeholders(EN[key])


@pytest.mark.parametrize("key", sorted(AR))
def test_format_works_with_dummy_values(key: str) -> None:
    params = {name: f"<{name}>" for name in placeholders(AR[key])}
    text = message("ar", key, **params)
    assert text.strip() or not EN[key].strip()  # a separator may be a space
    assert "{" not in text and "}" not in text


def _allowed_latin(word: str) -> bool:
    word = word.rstrip(".,:;)").lower()
    return (
        word in COMMAND_WORDS | FILLER_WORDS | APPENDIX_D | TECHNICAL
        or bool(OPTION.fullmatch(word))
        or not LATIN_LETTER.search(word)
    )


@pytest.mark.parametrize("key", sorted(AR))
def test_every_value_is_arabic_apart_from_the_international_words(key: str) -> None:
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


@pytest.mark.parametrize("key", sorted(AR))
def test_arabic_letters_not_persian_ones(key: str) -> None:
    # Persian yeh, keheh, peh, tcheh, jeh, gaf have no place in Modern Standard Arabic.
    assert not PERSIAN_LETTER.search(AR[key]), key


@pytest.mark.parametrize("key", sorted(AR))
def test_shadda_comes_before_its_vowel(key: str) -> None:
    # espeak-ng drops the vowel of "نَّ" (fatha, shadda: the Unicode canonical order) and reads
    # "نَّ" (shadda, fatha) right: a normalising editor must not reorder the marks.
    assert not re.search(f"[{HARAKAT}]{SHADDA}", AR[key]), key


@pytest.mark.parametrize("key", sorted(AR))
def test_no_stray_marks(key: str) -> None:
    # A short vowel or shadda must follow a letter, and two short vowels never stack.
    value = AR[key]
    assert not re.search(f"(^|[^\u0621-\u064a\u0671\u0651])[{HARAKAT}{SHADDA}]", value), key
    assert not re.search(f"[{HARAKAT}][{HARAKAT}]", value), key


def test_the_side_names_agree_everywhere() -> None:
    # The talking clock, the game and the web page name the sides alike (marks aside).
    def bare(text: str) -> str:
        return re.sub(f"[{HARAKAT}{SHADDA}]", "", text)

    for side in ("white", "black"):
        names = {bare(AR[f"clock.{side}"]), bare(AR[f"game.side.{side}"])}
        names.add(bare(AR[f"web.side.{side}"]))
        assert len(names) == 1, names
