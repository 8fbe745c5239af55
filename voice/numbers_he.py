"""Hebrew numbers and counted nouns (Modern Hebrew), for :mod:`voice.spoken_time`.

Why a module of its own: a Hebrew numeral agrees in gender with the noun it counts, and the time
units are all feminine (דקה, שנייה, שעה) while a move (מסע) is masculine. One follows the noun
("דקה אחת"); two is the construct form before it ("שתי דקות") unless the noun has a dual of its
own ("שעתיים"); from three on the numeral comes first and the noun is plural ("שלוש דקות",
"אחת עשרה דקות", "עשרים ואחת דקות"). Counting on its own uses the feminine forms, as Modern
Hebrew does ("אחת, שתיים, שלוש"). "ו" ("and") is written on the last part of a number and of a
time only: "אלף מאתיים שלושים וארבע", "שעה אחת וחמש דקות".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DECIMAL_POINT = "נקודה"
AND = "ו"


@dataclass(frozen=True)
class Noun:
    feminine: bool
    singular: str
    plural: str
    dual: str = ""
    """A dual form that replaces "two" ("שעתיים"); empty if the noun has none in use."""


NOUNS: Mapping[str, Noun] = {
    "hour": Noun(True, "שעה", "שעות", "שעתיים"),
    "minute": Noun(True, "דקה", "דקות"),
    "second": Noun(True, "שנייה", "שניות"),
    # מסע: a move in chess (as in time controls: "ארבעים מסעים בשעתיים").
    "move": Noun(False, "מסע", "מסעים"),
}

# Indexed by [feminine][n].
_UNITS = (
    ("אפס", "אחד", "שניים", "שלושה", "ארבעה", "חמישה", "שישה", "שבעה", "שמונה", "תשעה", "עשרה"),
    ("אפס", "אחת", "שתיים", "שלוש", "ארבע", "חמש", "שש", "שבע", "שמונה", "תשע", "עשר"),
)
_TEENS = (
    (
        "אחד עשר",
        "שנים עשר",
        "שלושה עשר",
        "ארבעה עשר",
        "חמישה עשר",
        "שישה עשר",
        "שבעה עשר",
        "שמונה עשר",
        "תשעה עשר",
    ),
    (
        "אחת עשרה",
        "שתים עשרה",
        "שלוש עשרה",
        "ארבע עשרה",
        "חמש עשרה",
        "שש עשרה",
        "שבע עשרה",
        "שמונה עשרה",
        "תשע עשרה",
    ),
)
_TENS = ("", "", "עשרים", "שלושים", "ארבעים", "חמישים", "שישים", "שבעים", "שמונים", "תשעים")
_HUNDREDS = (
    "",
    "מאה",
    "מאתיים",
    *(f"{_UNITS[1][h]} מאות" for h in range(3, 10)),
)
# 1 to 10 thousand: "אלף", "אלפיים", then the construct forms "שלושת אלפים" … "עשרת אלפים".
_THOUSANDS = (
    "",
    "אלף",
    "אלפיים",
    *(
        f"{word} אלפים"
        for word in ("שלושת", "ארבעת", "חמשת", "ששת", "שבעת", "שמונת", "תשעת", "עשרת")
    ),
)


def _parts(n: int, feminine: bool) -> list[str]:
    """The parts of ``n`` (1…999 999) that "ו" may stand between."""
    thousands, rest = divmod(n, 1000)
    parts = []
    if thousands:
        if thousands <= 10:
            parts.append(_THOUSANDS[thousands])
        else:  # אלף is masculine: "אחד עשר אלף", "עשרים ואחד אלף"
            parts.append(f"{number(thousands, feminine=False)} אלף")
    hundreds, rest = divmod(rest, 100)
    if hundreds:
        parts.append(_HUNDREDS[hundreds])
    if 0 < rest <= 10:
        parts.append(_UNITS[feminine][rest])
    elif 10 < rest < 20:
        parts.append(_TEENS[feminine][rest - 11])
    elif rest:
        tens, ones = divmod(rest, 10)
        parts.append(_TENS[tens])
        if ones:
            parts.append(_UNITS[feminine][ones])
    return parts


def number(n: int, feminine: bool = True) -> str:
    """``n`` in words (feminine, as Hebrew counts, unless it counts a masculine noun)."""
    if n == 0:
        return _UNITS[feminine][0]
    if n >= 1_000_000:
        raise ValueError(f"{n} is too large to say")
    *head, last = _parts(n, feminine)
    return " ".join([*head, AND + last]) if head else last


def count(n: int, unit: str) -> str:
    """``n`` of a time unit or of moves: "דקה אחת", "שתי דקות", "שעתיים", "שלוש דקות"."""
    noun = NOUNS[unit]
    if n == 1:
        return f"{noun.singular} {_UNITS[noun.feminine][1]}"
    if n == 2:
        return noun.dual or f"{'שתי' if noun.feminine else 'שני'} {noun.plural}"
    return f"{number(n, noun.feminine)} {noun.plural}"
