"""speech_models/respellings.toml: every Appendix D move word, respelt per espeak-ng voice, is
said as speech by that voice — never letter by letter, never by switching to another voice — and
sounds like the German word where it matters; the Arabic and Hebrew time words are vocalised.

Checked with ``espeak-ng -x`` (the phonemes it would say) and ``-X`` (how it got them).
"""

from __future__ import annotations

import functools
import re
import shutil
import tomllib
from collections.abc import Mapping

import pytest
from catalogue_words import assert_every_key
from espeak import espeak as _espeak

from voice.resources import speech_models_dir
from voice.words.phrases import speakable
from voice.words.spoken_time import count_words, duration_words
from voice.words.vocabulary import EN_PASSANT, Vocabulary

PATH = speech_models_dir() / "respellings.toml"
VOICES = ("de", "en", "ar", "fa", "he")
FULL = ("ar", "fa", "he")
"""Voices that get every move word: none of them can read the Latin-script German words."""

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")


def _load() -> Mapping[str, Mapping[str, str]]:
    with PATH.open("rb") as file:
        return tomllib.load(file)


TABLES = _load()
ENTRIES = [(voice, word, text) for voice in VOICES for word, text in TABLES[voice].items()]


def _move_words() -> set[str]:
    words = set(Vocabulary.default().move_words()) - set(EN_PASSANT)
    return words | {" ".join(EN_PASSANT)}


VARIANTS = {"cessar", "caesar", "eve", "hektor", "fuenf"}
"""Spellings from docs/rules.md section 1 that may be configured as file or rank words."""
MOVE_ENTRIES = [e for e in ENTRIES if e[1] in _move_words() | VARIANTS]


def test_the_file_has_one_table_per_voice() -> None:
    assert set(TABLES) == set(VOICES)
    for voice, table in TABLES.items():
        for word, text in table.items():
            assert word == word.lower().strip(), (voice, word)
            assert isinstance(text, str) and text.strip(), (voice, word)


@pytest.mark.parametrize("voice", FULL)
def test_every_move_word_has_an_entry(voice: str) -> None:
    missing = _move_words() - set(TABLES[voice])
    assert not missing, f"{voice}: no respelling for {sorted(missing)}"


_SCRIPTS = {
    "ar": re.compile(r"[\u0621-\u064A\u064B-\u0652 ]+"),  # Arabic letters and short-vowel marks
    "fa": re.compile(r"[\u0621-\u064A\u064B-\u0652\u067E\u0686\u0698\u06A9\u06AF\u06CC ]+"),
    "he": re.compile(r"[\u05B0-\u05BC\u05C7\u05D0-\u05EA ]+"),  # letters and points, no shin dot
}


@pytest.mark.parametrize("voice", FULL)
def test_respellings_are_in_the_voice_s_own_script(voice: str) -> None:
    """Latin letters make espeak-ng's ar/fa voices switch to English and its he voice spell
    letter names; the own script is the whole point."""
    for word, text in TABLES[voice].items():
        assert _SCRIPTS[voice].fullmatch(text), (word, text)


def test_persian_entries_use_persian_letters() -> None:
    for word, text in TABLES["fa"].items():
        assert not re.search("[يكة]", text), (word, text)


def test_hebrew_entries_are_pointed_with_dagesh_first() -> None:
    """Unpointed Hebrew is read as bare consonants; a dagesh after its vowel point (Unicode's
    canonical order) makes espeak-ng spell the word out. So: points everywhere, dagesh only in
    ב פ ו and directly after the letter."""
    for word, text in TABLES["he"].items():
        assert re.search("[\u05b0-\u05bb]", text), f"{word}: no vowel points in {text!r}"
        for match in re.finditer("\u05bc", text):
            assert text[match.start() - 1] in "בפו", (word, text)


_LETTER_NAME = re.compile(r"^Found: '_?\S'\s", re.MULTILINE)


def _said_as_a_word(entry: tuple[str, str, str]) -> None:
    voice, word, text = entry
    phonemes = _espeak(voice, text, "-x").strip()
    assert phonemes, (voice, word)
    assert "(" not in phonemes and "_:" not in phonemes, (voice, word, phonemes)
    trace = _espeak(voice, text, "-X")
    assert not _LETTER_NAME.search(trace), (voice, word, trace)


@needs_espeak
def test_espeak_says_each_entry_as_a_word() -> None:
    """Phonemes come out; no switch to another voice ("(en)"), no foreign letter names ("_:"),
    no letter looked up by name (how espeak-ng spells what it cannot pronounce)."""
    assert_every_key(_said_as_a_word, ENTRIES)


def test_the_letter_check_catches_spelling() -> None:
    """The checks above do fire: Latin in the Arabic voice, a dagesh after its vowel in Hebrew,
    an unpronounceable English cluster."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("needs espeak-ng")
    assert "(en)" in _espeak("ar", "Anna", "-x")
    assert "_:" in _espeak("he", "\u05d1\u05b6\u05bc\u05dc\u05b7\u05d4", "-x")
    assert _LETTER_NAME.search(_espeak("en", "tsvai", "-X"))


# -- sounds like the German word ------------------------------------------------------------

_CLASSES = (
    ("r", r'Q"|r|R'),
    ("sibilant", r"ts|tS|dZ|s|z|S|Z"),
    ("velar", r"gH|k|g|x|X|q|Q|N"),
    ("labial", r"b|p|f|v|w|m"),
    ("coronal", r"t|d|n|l|T|D"),
)


def _onset(phonemes: str) -> str:
    """The kind of sound a word starts with. h counts as a vowel onset: espeak-ng's Hebrew voice
    drops it (as Israeli speech does), and a vowel onset with or without a glottal stop is one."""
    body = phonemes.lstrip("_!|'?, ")
    if not body or body[0] in "aeiouAEIOUVy@0369h":
        return "vowel"
    for name, pattern in _CLASSES:
        if re.match(pattern, body):
            return name
    return body[:2]


def test_onset_classes() -> None:
    assert _onset("k'e:zA:r") != _onset("ts'E:zA:r")  # "Kesar" is not "Zäsar"
    assert _onset("gH'u:sta:f") == _onset("g'UstA:f")
    assert _onset("_!'axt") == _onset("?'a:Xt") == _onset("'ektoQ\"") == "vowel"


def _starts_like_the_german_word(entry: tuple[str, str, str]) -> None:
    voice, word, text = entry
    german = _espeak("de", TABLES["de"].get(word, word), "-x").strip()
    said = _espeak(voice, text, "-x").strip()
    assert _onset(said) == _onset(german), (voice, word, said, german)


@needs_espeak
def test_each_entry_starts_like_the_german_word() -> None:
    """The first sound decides much of what a listener hears: Cesar must not start like "Kesar"
    in any voice. The German reference is the German voice's own respelling where it has one."""
    assert_every_key(_starts_like_the_german_word, [e for e in MOVE_ENTRIES if e[0] != "de"])


_CARRIERS = {
    "de": "Der Gegner sagt {} jetzt",
    "en": "The opponent says {} now",
    "ar": "قال الخصم {} الآن",
    "fa": "حریف گفت {} حالا",
    "he": "היריב אמר {} עכשיו",
}


def _bare(phonemes: str) -> str:
    return re.sub(r"[\s',_!|:;%=]", "", phonemes)


def _keeps_its_sound_inside_a_sentence(entry: tuple[str, str, str]) -> None:
    voice, word, text = entry
    alone = _bare(_espeak(voice, text, "-x"))
    inside = _bare(_espeak(voice, _CARRIERS[voice].format(text), "-x"))
    assert alone in inside, (voice, word, alone, inside)


@needs_espeak
def test_each_entry_keeps_its_sound_inside_a_sentence() -> None:
    """Said inside a sentence of the voice's language, the word keeps the phonemes it has alone
    (stress may move, the sounds may not)."""
    assert_every_key(_keeps_its_sound_inside_a_sentence, MOVE_ENTRIES)


def test_german_entries_match_what_speakable_says() -> None:
    """speakable() reads this file: what it says for a German word is the table entry."""
    for word, text in TABLES["de"].items():
        assert speakable(word, "de") == text, word


# -- the time words ------------------------------------------------------------------------

_MARKS = "\u0591-\u05c7\u0610-\u061a\u064b-\u065f"
"""Hebrew points and Arabic vowel marks: combining marks, which Python's \\w leaves out."""


@functools.cache
def _pattern(voice: str) -> re.Pattern[str]:
    keys = sorted(TABLES[voice], key=len, reverse=True)
    return re.compile(
        rf"(?<![\w{_MARKS}])(" + "|".join(map(re.escape, keys)) + rf")(?![\w{_MARKS}])",
        re.IGNORECASE,
    )


def _respell(text: str, voice: str) -> str:
    """Whole-word replacement, longest key first, where a word ends at neither a letter nor a
    combining mark (so "ثوانٍ" matches with its tanween). How speakable() should match."""
    return _pattern(voice).sub(lambda m: TABLES[voice][m.group(1).lower()], text)


def _spoken_times(language: str) -> list[str]:
    """Every clock reading up to three hours and every count of up to 300 moves."""
    texts = [duration_words(t * 100, language) for t in range(100)]
    texts += [duration_words(s * 1000, language) for s in range(3 * 60 * 60 + 1)]
    return texts + [count_words(n, "move", language) for n in range(301)]


_VOCALISED = {"ar": re.compile("[\u064b-\u0652]"), "he": re.compile("[\u05b0-\u05bc]")}


@pytest.mark.parametrize("voice", ["ar", "he"])
def test_every_spoken_time_word_is_vocalised(voice: str) -> None:
    """Unvocalised, espeak-ng guesses Arabic short vowels wrong and reads Hebrew as consonants
    only; after respelling, every word of every time and move count carries vowel marks."""
    for text in _spoken_times(voice):
        said = _respell(text, voice)
        bare = [word for word in said.split() if not _VOCALISED[voice].search(word)]
        assert not bare, (text, said, bare)


def test_persian_nine_is_not_no() -> None:
    """ "نه" is "noh" (nine) in a count, "na" (no) elsewhere; espeak-ng only knows "na"."""
    for text in _spoken_times("fa"):
        said = _respell(text, "fa")
        assert "نه" not in said.split(), (text, said)
    assert _respell("پنجاه و نه ثانیه", "fa") == "پنجاه و نُه ثانیه"
    assert _respell("نه، ممنون", "fa") == "نه، ممنون"


def test_hebrew_teens_are_read_as_teens() -> None:
    """עשר/עשרה alone are ten (eser, asara); in a teen the phrase entry wins (longest first)."""
    assert _respell("אחת עשרה דקות", "he") == TABLES["he"]["אחת עשרה"] + " דַקוֹת"
    assert _respell("עשר דקות", "he").startswith(TABLES["he"]["עשר"] + " ")
    assert _respell("עשרה מסעים", "he").startswith(TABLES["he"]["עשרה"] + " ")


@needs_espeak
@pytest.mark.parametrize("voice", ["ar", "fa", "he"])
def test_respelt_times_are_spoken_as_words(voice: str) -> None:
    """Whole respelt readings (a sample across the range) go through espeak-ng as speech."""
    for text in _spoken_times(voice)[::499]:
        said = _respell(text, voice)
        phonemes = _espeak(voice, said, "-x")
        assert phonemes.strip() and "(" not in phonemes and "_:" not in phonemes, (said, phonemes)
        assert not _LETTER_NAME.search(_espeak(voice, said, "-X")), said
