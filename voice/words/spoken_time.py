"""Times and counts in words, the way a person says them: never "05:00" (read as "five o'clock").

A clock display rounds down (it never shows time that is not there), so these words do too:

- one hour or more: hours and minutes ("eine Stunde fünf Minuten"); seconds would only lengthen
  the announcement at a time when they do not matter;
- under an hour: minutes and seconds ("vier Minuten zehn Sekunden");
- under ten seconds: tenths ("neun Komma drei Sekunden", "null Komma eins Sekunden").

Each language is one :class:`Words` entry in :data:`LANGUAGES`: a number speller and the
singular/plural forms of the counted units, because languages differ in more than vocabulary
(German "eine Minute" but "ein Zug"). Arabic and Hebrew have dual forms and numbers that agree in
gender with the noun, so their counts come from :mod:`voice.words.numbers_ar` and
:mod:`voice.words.numbers_he` (an :class:`Inflected` entry); Persian keeps the noun singular after a
number (:mod:`voice.words.numbers_fa`). All three join the parts of a time with "and" ("یک ساعت و
پنج دقیقه"), where German and English just leave a space. An unknown language falls back to English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from voice.words import numbers_ar, numbers_fa, numbers_he

Unit = Literal["hour", "minute", "second", "move"]

_HOUR_MS = 3_600_000
_MINUTE_MS = 60_000
_SECOND_MS = 1_000
_TENTHS_BELOW_MS = 10_000


@dataclass(frozen=True)
class Words:
    """How one language says numbers and counted units.

    ``nouns`` gives, per unit, the word for "one" in front of it, its singular and its plural.
    A language with dual forms or number agreement overrides :meth:`count` in a subclass.
    """

    number: Callable[[int], str]
    nouns: Mapping[Unit, tuple[str, str, str]]
    decimal_point: str
    joiner: str = " "
    """What stands between the parts of a time: a space in German and English; "and" where
    leaving it out is ungrammatical (Arabic and Hebrew write it on the next word: " و", " ו")."""

    def count(self, n: int, unit: Unit) -> str:
        one, singular, plural = self.nouns[unit]
        return f"{one} {singular}" if n == 1 else f"{self.number(n)} {plural}"

    def plural(self, unit: Unit) -> str:
        """The form used after a decimal number ("eins Komma fünf Sekunden")."""
        return self.nouns[unit][2]

    def decimal(self, whole: int, tenth: int, unit: Unit) -> str:
        """A decimal count takes the bare number words and the plural: "eins Komma fünf
        Sekunden"."""
        return f"{self.number(whole)} {self.decimal_point} {self.number(tenth)} {self.plural(unit)}"

    def join(self, counts: Sequence[str]) -> str:
        """The counts of a time with :attr:`joiner` between them: "eine Stunde fünf Minuten",
        "ساعة واحدة وخمس دقائق"."""
        return self.joiner.join(counts)


@dataclass(frozen=True, kw_only=True)
class Inflected(Words):
    """A language whose counted noun changes with the number in more ways than singular/plural
    (a dual, a numeral agreeing in gender, a noun before or after the numeral): its module says
    the whole counted phrase, and the decimal one if that differs too."""

    counter: Callable[[int, Unit], str]
    decimal_counter: Callable[[int, int, Unit], str] | None = None

    def count(self, n: int, unit: Unit) -> str:
        return self.counter(n, unit)

    def decimal(self, whole: int, tenth: int, unit: Unit) -> str:
        if self.decimal_counter is None:
            return super().decimal(whole, tenth, unit)
        return self.decimal_counter(whole, tenth, unit)


# -- German ------------------------------------------------------------------------------------

_DE_UNITS = [
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
    "dreizehn",
    "vierzehn",
    "fünfzehn",
    "sechzehn",
    "siebzehn",
    "achtzehn",
    "neunzehn",
]
_DE_TENS = [
    "_",
    "_",
    "zwanzig",
    "dreißig",
    "vierzig",
    "fünfzig",
    "sechzig",
    "siebzig",
    "achtzig",
    "neunzig",
]


def _de_below_thousand(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    head = (
        "" if hundreds == 0 else ("hundert" if hundreds == 1 else _DE_UNITS[hundreds] + "hundert")
    )
    if rest == 0:
        return head
    if rest < 20:
        return head + _DE_UNITS[rest]
    tens, ones = divmod(rest, 10)
    if ones == 0:
        return head + _DE_TENS[tens]
    one = "ein" if ones == 1 else _DE_UNITS[ones]
    return f"{head}{one}und{_DE_TENS[tens]}"


def _de_number(n: int) -> str:
    if n == 0:
        return "null"
    thousands, rest = divmod(n, 1000)
    if thousands >= 1000:
        raise ValueError(f"{n} is too large to say")
    head = ""
    if thousands:
        # In a compound, "eins" loses its s: "einundzwanzigtausend", "hunderteintausend".
        word = "" if thousands == 1 else _de_below_thousand(thousands)
        head = word.removesuffix("s") if word.endswith("eins") else word
        head += "tausend"
    return head + _de_below_thousand(rest)


_DE_NOUNS: Mapping[Unit, tuple[str, str, str]] = {
    # (the word for one, singular, plural)
    "hour": ("eine", "Stunde", "Stunden"),
    "minute": ("eine", "Minute", "Minuten"),
    "second": ("eine", "Sekunde", "Sekunden"),
    "move": ("ein", "Zug", "Züge"),
}

# -- English -----------------------------------------------------------------------------------

_EN_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _en_below_thousand(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    words = [f"{_EN_UNITS[hundreds]} hundred"] if hundreds else []
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        words.append(_EN_TENS[tens] + (f"-{_EN_UNITS[ones]}" if ones else ""))
    elif rest or not words:
        words.append(_EN_UNITS[rest])
    return " ".join(words)


def _en_number(n: int) -> str:
    thousands, rest = divmod(n, 1000)
    if thousands >= 1000:
        raise ValueError(f"{n} is too large to say")
    if not thousands:
        return _en_below_thousand(rest)
    head = f"{_en_below_thousand(thousands)} thousand"
    return head if rest == 0 else f"{head} {_en_below_thousand(rest)}"


_EN_NOUNS: Mapping[Unit, tuple[str, str, str]] = {
    unit: ("one", unit, f"{unit}s") for unit in ("hour", "minute", "second", "move")
}


# -- Arabic, Persian, Hebrew (right to left; the grammar lives in their modules) ---------------

_UNITS: tuple[Unit, ...] = ("hour", "minute", "second", "move")
# The (one, singular, plural) triples of Arabic and Hebrew only serve plural(): their counts are
# said by their modules.
_AR_NOUNS = {u: (n.one, n.singular, n.plural) for u in _UNITS for n in [numbers_ar.NOUNS[u]]}
_HE_NOUNS = {u: ("", n.singular, n.plural) for u in _UNITS for n in [numbers_he.NOUNS[u]]}

LANGUAGES: Mapping[str, Words] = {
    "de": Words(number=_de_number, nouns=_DE_NOUNS, decimal_point="Komma"),
    "en": Words(number=_en_number, nouns=_EN_NOUNS, decimal_point="point"),
    "ar": Inflected(
        number=numbers_ar.number,
        nouns=_AR_NOUNS,
        decimal_point=numbers_ar.DECIMAL_POINT,
        joiner=f" {numbers_ar.AND}",
        counter=numbers_ar.count,
        decimal_counter=numbers_ar.decimal,
    ),
    "fa": Words(
        number=numbers_fa.number,
        nouns={u: numbers_fa.NOUNS[u] for u in _UNITS},
        decimal_point=numbers_fa.DECIMAL_POINT,
        joiner=f" {numbers_fa.AND} ",
    ),
    "he": Inflected(
        number=numbers_he.number,
        nouns=_HE_NOUNS,
        decimal_point=numbers_he.DECIMAL_POINT,
        joiner=f" {numbers_he.AND}",
        counter=numbers_he.count,
    ),
}
FALLBACK = "en"


def _words(language: str) -> Words:
    return LANGUAGES.get(language, LANGUAGES[FALLBACK])


def number_words(n: int, language: str = "de") -> str:
    """A non-negative whole number in words: ``number_words(21) == "einundzwanzig"``."""
    if n < 0:
        raise ValueError("only non-negative numbers are spoken")
    return _words(language).number(n)


def count_words(n: int, unit: Unit, language: str = "de") -> str:
    """A counted unit with the right number form: "eine Minute", "ein Zug", "two moves"."""
    if n < 0:
        raise ValueError("only non-negative counts are spoken")
    return _words(language).count(n, unit)


def duration_words(ms: int, language: str = "de") -> str:
    """A time on the clock in words, rounded down like a clock display (negative = zero)."""
    words = _words(language)
    ms = max(0, ms)
    if ms < _TENTHS_BELOW_MS:
        whole, tenth = divmod(ms // 100, 10)
        if tenth == 0:
            return words.count(whole, "second")
        return words.decimal(whole, tenth, "second")
    parts: list[tuple[int, Unit]]
    if ms < _HOUR_MS:
        minutes, seconds = divmod(ms // _SECOND_MS, 60)
        parts = [(minutes, "minute"), (seconds, "second")]
    else:
        hours, minutes = divmod(ms // _MINUTE_MS, 60)
        parts = [(hours, "hour"), (minutes, "minute")]
    return words.join([words.count(n, unit) for n, unit in parts if n])
