"""Clock times and counts in words in Arabic, Persian and Hebrew, and all five languages at once.

The expected strings are grammar, not snapshots: Arabic dual and the 3–10 / 11–99 / 100+ noun
forms with gender polarity, Persian singular nouns joined with "و", Hebrew feminine time units
(one after the noun, "שתי"/"שעתיים", plural from three on).
"""

from __future__ import annotations

import hashlib
import re

import pytest

from voice.words.spoken_time import LANGUAGES, Unit, count_words, duration_words, number_words

UNITS: tuple[Unit, ...] = ("hour", "minute", "second", "move")
S = 1000
MIN = 60 * S
H = 60 * MIN

CASES = [
    # ms, Arabic, Persian, Hebrew
    (0, "صفر ثانية", "صفر ثانیه", "אפס שניות"),
    (100, "صفر فاصلة واحدة ثانية", "صفر ممیز یک ثانیه", "אפס נקודה אחת שניות"),
    (1 * S, "ثانية واحدة", "یک ثانیه", "שנייה אחת"),
    (1_500, "واحدة فاصلة خمس ثانية", "یک ممیز پنج ثانیه", "אחת נקודה חמש שניות"),
    (2 * S, "ثانيتان", "دو ثانیه", "שתי שניות"),
    (3 * S, "ثلاث ثوانٍ", "سه ثانیه", "שלוש שניות"),
    (8 * S, "ثماني ثوانٍ", "هشت ثانیه", "שמונה שניות"),
    (9_300, "تسع فاصلة ثلاث ثوانٍ", "نه ممیز سه ثانیه", "תשע נקודה שלוש שניות"),
    (9_999, "تسع فاصلة تسع ثوانٍ", "نه ممیز نه ثانیه", "תשע נקודה תשע שניות"),
    (10 * S, "عشر ثوانٍ", "ده ثانیه", "עשר שניות"),
    (11 * S, "إحدى عشرة ثانية", "یازده ثانیه", "אחת עשרה שניות"),
    (12 * S, "اثنتا عشرة ثانية", "دوازده ثانیه", "שתים עשרה שניות"),
    (18 * S, "ثماني عشرة ثانية", "هجده ثانیه", "שמונה עשרה שניות"),
    (20 * S, "عشرون ثانية", "بیست ثانیه", "עשרים שניות"),
    (21 * S, "إحدى وعشرون ثانية", "بیست و یک ثانیه", "עשרים ואחת שניות"),
    (22 * S, "اثنتان وعشرون ثانية", "بیست و دو ثانیه", "עשרים ושתיים שניות"),
    (28 * S, "ثمانٍ وعشرون ثانية", "بیست و هشت ثانیه", "עשרים ושמונה שניות"),
    (59 * S, "تسع وخمسون ثانية", "پنجاه و نه ثانیه", "חמישים ותשע שניות"),
    (1 * MIN, "دقيقة واحدة", "یک دقیقه", "דקה אחת"),
    (1 * MIN + 1 * S, "دقيقة واحدة وثانية واحدة", "یک دقیقه و یک ثانیه", "דקה אחת ושנייה אחת"),
    (2 * MIN, "دقيقتان", "دو دقیقه", "שתי דקות"),
    (2 * MIN + 30 * S, "دقيقتان وثلاثون ثانية", "دو دقیقه و سی ثانیه",
     "שתי דקות ושלושים שניות"),
    (3 * MIN, "ثلاث دقائق", "سه دقیقه", "שלוש דקות"),
    (10 * MIN, "عشر دقائق", "ده دقیقه", "עשר דקות"),
    (11 * MIN, "إحدى عشرة دقيقة", "یازده دقیقه", "אחת עשרה דקות"),
    (20 * MIN, "عشرون دقيقة", "بیست دقیقه", "עשרים דקות"),
    (21 * MIN, "إحدى وعشرون دقيقة", "بیست و یک دقیقه", "עשרים ואחת דקות"),
    (59 * MIN + 59_999, "تسع وخمسون دقيقة وتسع وخمسون ثانية",
     "پنجاه و نه دقیقه و پنجاه و نه ثانیه", "חמישים ותשע דקות וחמישים ותשע שניות"),
    (1 * H, "ساعة واحدة", "یک ساعت", "שעה אחת"),
    (1 * H + 59 * S, "ساعة واحدة", "یک ساعت", "שעה אחת"),  # from an hour on: no seconds
    (1 * H + 1 * MIN, "ساعة واحدة ودقيقة واحدة", "یک ساعت و یک دقیقه", "שעה אחת ודקה אחת"),
    (1 * H + 5 * MIN, "ساعة واحدة وخمس دقائق", "یک ساعت و پنج دقیقه", "שעה אחת וחמש דקות"),
    (2 * H, "ساعتان", "دو ساعت", "שעתיים"),
    (2 * H + 2 * MIN, "ساعتان ودقيقتان", "دو ساعت و دو دقیقه", "שעתיים ושתי דקות"),
    (2 * H + 12 * MIN, "ساعتان واثنتا عشرة دقيقة", "دو ساعت و دوازده دقیقه",
     "שעתיים ושתים עשרה דקות"),
    (3 * H, "ثلاث ساعات", "سه ساعت", "שלוש שעות"),
]  # fmt: skip


@pytest.mark.parametrize(("ms", "arabic", "persian", "hebrew"), CASES)
def test_clock_times_in_words(ms: int, arabic: str, persian: str, hebrew: str) -> None:
    assert duration_words(ms, "ar") == arabic
    assert duration_words(ms, "fa") == persian
    assert duration_words(ms, "he") == hebrew


@pytest.mark.parametrize(
    ("n", "arabic", "persian", "hebrew"),
    [
        (0, "صفر", "صفر", "אפס"),
        (1, "واحد", "یک", "אחת"),
        (2, "اثنان", "دو", "שתיים"),
        (3, "ثلاثة", "سه", "שלוש"),
        (11, "أحد عشر", "یازده", "אחת עשרה"),
        (12, "اثنا عشر", "دوازده", "שתים עשרה"),
        (21, "واحد وعشرون", "بیست و یک", "עשרים ואחת"),
        (100, "مئة", "صد", "מאה"),
        (101, "مئة وواحد", "صد و یک", "מאה ואחת"),
        (200, "مئتان", "دویست", "מאתיים"),
        (245, "مئتان وخمسة وأربعون", "دویست و چهل و پنج", "מאתיים ארבעים וחמש"),
        (1000, "ألف", "هزار", "אלף"),
        (2000, "ألفان", "دو هزار", "אלפיים"),
        (3000, "ثلاثة آلاف", "سه هزار", "שלושת אלפים"),
        (5400, "خمسة آلاف وأربعمئة", "پنج هزار و چهارصد", "חמשת אלפים וארבע מאות"),
        (11_000, "أحد عشر ألفًا", "یازده هزار", "אחד עשר אלף"),
        (21_000, "واحد وعشرون ألفًا", "بیست و یک هزار", "עשרים ואחד אלף"),
        (101_000, "مئة ألف وألف", "صد و یک هزار", "מאה ואחד אלף"),
    ],
)
def test_numbers_in_words(n: int, arabic: str, persian: str, hebrew: str) -> None:
    """Counting on its own: masculine in Arabic (ثلاثة), feminine in Modern Hebrew (שלוש)."""
    assert number_words(n, "ar") == arabic
    assert number_words(n, "fa") == persian
    assert number_words(n, "he") == hebrew


@pytest.mark.parametrize(
    ("n", "arabic", "persian", "hebrew"),
    [
        (1, "نقلة واحدة", "یک حرکت", "מסע אחד"),
        (2, "نقلتان", "دو حرکت", "שני מסעים"),
        (3, "ثلاث نقلات", "سه حرکت", "שלושה מסעים"),
        (10, "عشر نقلات", "ده حرکت", "עשרה מסעים"),
        (11, "إحدى عشرة نقلة", "یازده حرکت", "אחד עשר מסעים"),
        (12, "اثنتا عشرة نقلة", "دوازده حرکت", "שנים עשר מסעים"),
        (40, "أربعون نقلة", "چهل حرکت", "ארבעים מסעים"),
        (41, "إحدى وأربعون نقلة", "چهل و یک حرکت", "ארבעים ואחד מסעים"),
        (100, "مئة نقلة", "صد حرکت", "מאה מסעים"),
        (101, "مئة نقلة ونقلة", "صد و یک حرکت", "מאה ואחד מסעים"),
        (102, "مئة نقلة ونقلتان", "صد و دو حرکت", "מאה ושניים מסעים"),
        (103, "مئة وثلاث نقلات", "صد و سه حرکت", "מאה ושלושה מסעים"),
        (200, "مئتا نقلة", "دویست حرکت", "מאתיים מסעים"),
        (2000, "ألفا نقلة", "دو هزار حرکت", "אלפיים מסעים"),
        (11_000, "أحد عشر ألف نقلة", "یازده هزار حرکت", "אחד עשר אלף מסעים"),
    ],
)
def test_counted_moves(n: int, arabic: str, persian: str, hebrew: str) -> None:
    """A move is feminine in Arabic (نقلة) but masculine in Hebrew (מסע): the numerals follow.
    Arabic nouns after a round hundred or thousand are singular, and a construct dual loses its
    nun ("مئتا نقلة", "ألفا نقلة")."""
    assert count_words(n, "move", "ar") == arabic
    assert count_words(n, "move", "fa") == persian
    assert count_words(n, "move", "he") == hebrew


def test_arabic_gender_polarity_three_to_ten() -> None:
    """3–10 take the opposite gender of the counted noun: a feminine minute has no ة on the
    numeral; counting on its own (masculine) has it."""
    for n in range(3, 11):
        counted = count_words(n, "minute", "ar").split()[0]
        bare = number_words(n, "ar")
        assert bare.endswith("ة")
        assert not counted.endswith("ة")


# -- every time a clock can show, in every language ------------------------------------------

_ARABIC = "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي" + "\u064b\u064d"  # + tanween: ثوانٍ, ألفًا
_PERSIAN = "آابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی"
_HEBREW = "אבגדהוזחטיכךלמםנןסעפףצץקרשת"
SCRIPTS = {
    "de": re.compile(r"[a-zA-ZäöüÄÖÜß ]+"),
    "en": re.compile(r"[a-z -]+"),
    "ar": re.compile(f"[{_ARABIC} ]+"),
    "fa": re.compile(f"[{_PERSIAN} ]+"),
    "he": re.compile(f"[{_HEBREW} ]+"),
}


def _clock_times() -> list[int]:
    """Every tenth up to ten seconds, every second up to three hours."""
    return [t * 100 for t in range(100)] + [s * S for s in range(3 * 60 * 60 + 1)]


@pytest.mark.parametrize("language", sorted(SCRIPTS))
def test_every_clock_time_is_words_of_one_script(language: str) -> None:
    """Never a digit, never empty, only the letters of the language's script and spaces (the
    joining words "و", "ו", "and"-less German are letters of that script too)."""
    script = SCRIPTS[language]
    for ms in _clock_times():
        words = duration_words(ms, language)
        assert words, ms
        assert script.fullmatch(words), (ms, words)
        assert "  " not in words and words == words.strip(), (ms, words)


@pytest.mark.parametrize("language", ["ar", "fa", "he"])
def test_counts_and_numbers_are_words_of_one_script(language: str) -> None:
    script = SCRIPTS[language]
    for n in range(2_000):
        assert script.fullmatch(number_words(n, language)), n
        for unit in UNITS:
            assert script.fullmatch(count_words(n, unit, language)), (n, unit)


@pytest.mark.parametrize("language", ["ar", "fa", "he"])
def test_number_words_are_unambiguous(language: str) -> None:
    spoken = [number_words(n, language) for n in range(10_000)]
    assert len(set(spoken)) == len(spoken)


@pytest.mark.parametrize("language", ["ar", "fa", "he"])
def test_clock_times_are_unambiguous(language: str) -> None:
    """Two different clock readings never sound the same."""
    times = _clock_times()
    spoken = {duration_words(ms, language) for ms in times}
    readings = {
        ("tenths", t // 100) if t < 10 * S else ("s", t // S) if t < H else ("min", t // MIN)
        for t in times
    }
    assert len(spoken) == len(readings)


def test_persian_uses_persian_letters_not_arabic() -> None:
    """ی and ک, not ي and ك (espeak-ng's fa voice and Persian readers expect them)."""
    text = " ".join(duration_words(s * S, "fa") for s in range(0, 3 * 60 * 60, 7))
    assert not re.search("[يكة]", text)
    assert "ی" in text and "ک" in text


@pytest.mark.parametrize("language", ["ar", "fa", "he"])
def test_out_of_range_is_refused(language: str) -> None:
    with pytest.raises(ValueError):
        number_words(1_000_000, language)
    with pytest.raises(ValueError):
        count_words(-1, "move", language)


# -- German and English exactly as before --------------------------------------------------

# SHA-256 of every German/English reading below, computed with spoken_time.py before Arabic,
# Persian and Hebrew were added. A deliberate change of German or English wording changes these.
_BEFORE = {
    "de": "de5cc6a583615759082962b4743b0d97960fb153a0233b096b7cedadf3c8492a",
    "en": "1ea790602fca5eb949476c91ffad237aab12f19adaf423b1127e1025a1c31908",
}


@pytest.mark.parametrize("language", ["de", "en"])
def test_german_and_english_unchanged(language: str) -> None:
    readings = [duration_words(ms, language) for ms in _clock_times()]
    readings += [count_words(n, unit, language) for n in range(1000) for unit in UNITS]
    digest = hashlib.sha256("\n".join(readings).encode()).hexdigest()
    assert digest == _BEFORE[language]


def test_all_five_languages_are_in_the_table() -> None:
    assert {"de", "en", "ar", "fa", "he"} <= set(LANGUAGES)
