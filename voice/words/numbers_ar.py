"""Arabic numbers and counted nouns (Modern Standard Arabic), for :mod:`voice.words.spoken_time`.

An Arabic count is not "number + noun", which is why it has a module of its own. The noun's form
depends on the number, and so does the numeral's gender:

- 1: the singular, the numeral after it as an adjective ("دقيقة واحدة");
- 2: the dual alone ("دقيقتان");
- 3 to 10: the numeral takes the *opposite* gender of the noun's singular, and the noun follows in
  the genitive plural ("ثلاث دقائق" for the feminine دقيقة, "ثلاثة آلاف" for the masculine ألف);
- 11 to 99: accusative singular ("إحدى عشرة دقيقة", "عشرون دقيقة", "أحد عشر ألفًا");
- a round hundred or thousand: genitive singular ("مئة دقيقة", "ألف دقيقة");
- otherwise the noun follows the last part of the number ("مئة وثلاث دقائق"); after a hundred
  or thousand plus one or two, the noun is repeated ("مئة دقيقة ودقيقتان").

Thousands are themselves a counted (masculine) noun — ألف, ألفان, ثلاثة آلاف, أحد عشر ألفًا —
so the same function builds the big numbers. Everything is in the nominative, because a time is
said on its own or as a subject ("بقي لك دقيقتان"), and without short-vowel marks except where
the spelling itself carries a vowel ending: the tanween of "ثمانٍ", "ثوانٍ" and "ألفًا".

Why not num2words (``lang="ar"``), which Hebrew and Persian use: its Arabic is not the words
said here. It writes "و" as a word of its own ("واحد و عشرون", where the conjunction is joined
to the next word, "واحد وعشرون"), spells "مائة" for "مئة", gives the construct "مئتا" and
"ألفا" for a standalone 200 and 2000 ("مئتان", "ألفان"), leaves the accusative off the counted
thousand ("أحد عشر ألف" for "أحد عشر ألفًا"), has no feminine forms ("ثلاث", "إحدى عشرة"),
and says 101 000 as "مائة و ألف ألف".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DECIMAL_POINT = "فاصلة"
AND = "و"
"""Joins the parts of a number and of a time; written on the next word ("وخمس دقائق")."""


@dataclass(frozen=True)
class Noun:
    """The forms of a counted noun that the rules above pick from."""

    feminine: bool
    one: str
    """One of it: "دقيقة واحدة"; for a thousand just "ألف"."""
    two: str
    """The dual: "دقيقتان"."""
    plural: str
    """After 3 to 10: "دقائق"."""
    singular: str
    """After a round hundred or thousand, and repeated after one: "دقيقة"."""
    tamyiz: str
    """After 11 to 99 (accusative): "دقيقة", "ألفًا"."""
    two_construct: str = ""
    """The dual before another noun ("ألفا دقيقة"); empty when it is never followed by one."""


_THOUSAND = Noun(
    feminine=False,
    one="ألف",
    two="ألفان",
    plural="آلاف",
    singular="ألف",
    tamyiz="ألفًا",
    two_construct="ألفا",
)

NOUNS: Mapping[str, Noun] = {
    "hour": Noun(True, "ساعة واحدة", "ساعتان", "ساعات", "ساعة", "ساعة"),
    "minute": Noun(True, "دقيقة واحدة", "دقيقتان", "دقائق", "دقيقة", "دقيقة"),
    "second": Noun(True, "ثانية واحدة", "ثانيتان", "ثوانٍ", "ثانية", "ثانية"),
    # نقلة: a move in a game (the word of the Arabic FIDE Laws); feminine like the time units.
    "move": Noun(True, "نقلة واحدة", "نقلتان", "نقلات", "نقلة", "نقلة"),
}

# Indexed by [noun is feminine][n]. Standing alone, as in counting or in "ثمانٍ وعشرون".
_UNITS = (
    ("صفر", "واحد", "اثنان", "ثلاثة", "أربعة", "خمسة", "ستة", "سبعة", "ثمانية", "تسعة", "عشرة"),
    ("صفر", "واحدة", "اثنتان", "ثلاث", "أربع", "خمس", "ست", "سبع", "ثمانٍ", "تسع", "عشر"),
)
# 3 to 10 directly before the plural noun: only the feminine-noun eight differs ("ثماني دقائق").
_BEFORE_PLURAL = (_UNITS[0], (*_UNITS[1][:8], "ثماني", *_UNITS[1][9:]))
# The units inside 21…99 ("إحدى وعشرون", "ثمانٍ وعشرون").
_IN_TENS = (_UNITS[0], (_UNITS[1][0], "إحدى", *_UNITS[1][2:]))
_TEENS = (
    ("أحد عشر", "اثنا عشر", *(f"{_UNITS[0][u]} عشر" for u in range(3, 10))),
    ("إحدى عشرة", "اثنتا عشرة", *(f"{_BEFORE_PLURAL[1][u]} عشرة" for u in range(3, 10))),
)
_TENS = ("", "", "عشرون", "ثلاثون", "أربعون", "خمسون", "ستون", "سبعون", "ثمانون", "تسعون")
_HUNDREDS = (
    "",
    "مئة",
    "مئتان",
    "ثلاثمئة",
    "أربعمئة",
    "خمسمئة",
    "ستمئة",
    "سبعمئة",
    "ثمانمئة",
    "تسعمئة",
)


def _and(parts: list[str]) -> str:
    return f" {AND}".join(parts)


def _below_hundred(n: int, feminine: bool) -> str:
    if n <= 10:
        return _UNITS[feminine][n]
    if n < 20:
        return _TEENS[feminine][n - 11]
    tens, ones = divmod(n, 10)
    return _TENS[tens] if ones == 0 else _and([_IN_TENS[feminine][ones], _TENS[tens]])


def _below_thousand(n: int, feminine: bool, construct: bool) -> str:
    hundreds, rest = divmod(n, 100)
    parts = []
    if hundreds:
        # "مئتان" loses its nun before the counted noun: "مئتا دقيقة".
        parts.append("مئتا" if hundreds == 2 and construct and not rest else _HUNDREDS[hundreds])
    if rest:
        parts.append(_below_hundred(rest, feminine))
    return _and(parts)


def number(n: int, feminine: bool = False, construct: bool = False) -> str:
    """``n`` in words, in the gender that counts a noun of that gender (masculine: counting).

    ``construct``: a noun follows directly, so a final dual or accusative thousand takes its
    construct form ("ألفا دقيقة", "أحد عشر ألف دقيقة").
    """
    if n == 0:
        return _UNITS[0][0]
    thousands, rest = divmod(n, 1000)
    if thousands >= 1000:
        raise ValueError(f"{n} is too large to say")
    parts = []
    if thousands:
        parts.append(_counted(thousands, _THOUSAND, construct=construct and not rest))
    if rest:
        parts.append(_below_thousand(rest, feminine, construct))
    return _and(parts)


def _counted(n: int, noun: Noun, construct: bool = False) -> str:
    if n == 0:
        return f"{_UNITS[0][0]} {noun.singular}"  # zero takes the singular: "صفر ثانية"
    if n == 1:
        return noun.one
    if n == 2:
        return noun.two_construct if construct and noun.two_construct else noun.two
    if n <= 10:
        return f"{_BEFORE_PLURAL[noun.feminine][n]} {noun.plural}"
    if n < 100:
        return f"{_below_hundred(n, noun.feminine)} {noun.singular if construct else noun.tamyiz}"
    rest = n % 100
    whole = n - rest
    if rest == 0:
        return f"{number(whole, noun.feminine, construct=True)} {noun.singular}"
    if rest <= 2:
        again = noun.singular if rest == 1 else _counted(2, noun, construct)
        return _and([_counted(whole, noun), again])
    return _and([number(whole, noun.feminine), _counted(rest, noun, construct)])


def count(n: int, unit: str) -> str:
    """``n`` of a time unit or of moves: "دقيقة واحدة", "دقيقتان", "ثلاث دقائق"."""
    if n >= 1_000_000:
        raise ValueError(f"{n} is too large to say")
    return _counted(n, NOUNS[unit])


def decimal(whole: int, tenth: int, unit: str) -> str:
    """Under ten seconds: "تسع فاصلة ثلاث ثوانٍ".

    The digits agree with the (feminine) noun; the noun follows the whole part, since that is
    what is heard first: the plural after 3 to 9, otherwise the singular, which is also how Arabic
    writes a decimal count ("٠٫٥ ثانية") and what follows zero.
    """
    noun = NOUNS[unit]
    form = noun.plural if 3 <= whole <= 10 else noun.singular
    digits = (_below_hundred(d, noun.feminine) if d else _UNITS[0][0] for d in (whole, tenth))
    return f" {DECIMAL_POINT} ".join(digits) + f" {form}"
