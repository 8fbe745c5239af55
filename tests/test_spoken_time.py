"""Clock times and counts in words, German and English, from 0.1 s to 3 hours."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from voice.words.spoken_time import count_words, duration_words, number_words

S = 1000
MIN = 60 * S
H = 60 * MIN

CASES = [
    # ms, German, English
    (0, "null Sekunden", "zero seconds"),
    (100, "null Komma eins Sekunden", "zero point one seconds"),
    (199, "null Komma eins Sekunden", "zero point one seconds"),  # a display rounds down
    (1 * S, "eine Sekunde", "one second"),
    (1_500, "eins Komma fünf Sekunden", "one point five seconds"),
    (2 * S, "zwei Sekunden", "two seconds"),
    (9_300, "neun Komma drei Sekunden", "nine point three seconds"),
    (9_999, "neun Komma neun Sekunden", "nine point nine seconds"),
    (10 * S, "zehn Sekunden", "ten seconds"),  # from ten seconds on: whole seconds
    (10_900, "zehn Sekunden", "ten seconds"),
    (21 * S, "einundzwanzig Sekunden", "twenty-one seconds"),
    (59 * S, "neunundfünfzig Sekunden", "fifty-nine seconds"),
    (1 * MIN, "eine Minute", "one minute"),
    (1 * MIN + 1 * S, "eine Minute eine Sekunde", "one minute one second"),
    (2 * MIN + 30 * S, "zwei Minuten dreißig Sekunden", "two minutes thirty seconds"),
    (4 * MIN + 10 * S, "vier Minuten zehn Sekunden", "four minutes ten seconds"),
    (5 * MIN, "fünf Minuten", "five minutes"),
    (17 * MIN + 45 * S, "siebzehn Minuten fünfundvierzig Sekunden",
     "seventeen minutes forty-five seconds"),
    (59 * MIN + 59_999, "neunundfünfzig Minuten neunundfünfzig Sekunden",
     "fifty-nine minutes fifty-nine seconds"),
    (1 * H, "eine Stunde", "one hour"),
    (1 * H + 59 * S, "eine Stunde", "one hour"),  # from an hour on: hours and minutes
    (1 * H + 1 * MIN, "eine Stunde eine Minute", "one hour one minute"),
    (1 * H + 5 * MIN, "eine Stunde fünf Minuten", "one hour five minutes"),
    (1 * H + 30 * MIN, "eine Stunde dreißig Minuten", "one hour thirty minutes"),
    (2 * H + 12 * MIN, "zwei Stunden zwölf Minuten", "two hours twelve minutes"),
    (3 * H, "drei Stunden", "three hours"),
]  # fmt: skip


@pytest.mark.parametrize(("ms", "german", "english"), CASES)
def test_clock_times_in_words(ms: int, german: str, english: str) -> None:
    assert duration_words(ms, "de") == german
    assert duration_words(ms, "en") == english


@given(st.integers(min_value=-5 * S, max_value=3 * H))
def test_never_digits_never_a_colon(ms: int) -> None:
    """docs/speech.md: '05:00' is heard as 'five o'clock'; times are always said in words."""
    for language in ("de", "en"):
        words = duration_words(ms, language)
        assert not re.search(r"[\d:]", words)
        assert words


def test_negative_times_are_said_as_zero() -> None:
    assert duration_words(-300, "de") == "null Sekunden"


@pytest.mark.parametrize(
    ("n", "german", "english"),
    [
        (0, "null", "zero"),
        (1, "eins", "one"),
        (12, "zwölf", "twelve"),
        (16, "sechzehn", "sixteen"),
        (17, "siebzehn", "seventeen"),
        (31, "einunddreißig", "thirty-one"),
        (40, "vierzig", "forty"),
        (77, "siebenundsiebzig", "seventy-seven"),
        (100, "hundert", "one hundred"),
        (101, "hunderteins", "one hundred one"),
        (245, "zweihundertfünfundvierzig", "two hundred forty-five"),
        (1000, "tausend", "one thousand"),
        (5400, "fünftausendvierhundert", "five thousand four hundred"),
        (21_000, "einundzwanzigtausend", "twenty-one thousand"),
        (101_000, "hunderteintausend", "one hundred one thousand"),
    ],
)
def test_numbers_in_words(n: int, german: str, english: str) -> None:
    assert number_words(n, "de") == german
    assert number_words(n, "en") == english


def test_number_words_are_unambiguous() -> None:
    for language in ("de", "en"):
        spoken = [number_words(n, language) for n in range(10_000)]
        assert len(set(spoken)) == len(spoken)


def test_counted_units_agree_with_one() -> None:
    """German 'eine Minute' but 'ein Zug'; plural from two on."""
    assert count_words(1, "move", "de") == "ein Zug"
    assert count_words(1, "minute", "de") == "eine Minute"
    assert count_words(2, "move", "de") == "zwei Züge"
    assert count_words(0, "move", "de") == "null Züge"
    assert count_words(1, "move", "en") == "one move"
    assert count_words(28, "move", "en") == "twenty-eight moves"


def test_unknown_language_falls_back_to_english() -> None:
    assert duration_words(61 * S, "xx") == "one minute one second"


def test_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        number_words(-1)
    with pytest.raises(ValueError):
        number_words(1_000_000)
