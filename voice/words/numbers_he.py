"""Hebrew numbers and counted nouns (Modern Hebrew), for :mod:`voice.words.spoken_time`.

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

from num2words import num2words

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


def number(n: int, feminine: bool = True) -> str:
    """``n`` in words (feminine, as Hebrew counts, unless it counts a masculine noun).

    The words are num2words' (``lang="he"``): checked to be exactly the forms this module had
    spelled out itself for every n below a million in both genders (the construct thousands
    "שלושת אלפים", "ו" on the last part only). A million and more is refused, as before: no
    time or move count comes near it.
    """
    if n >= 1_000_000:
        raise ValueError(f"{n} is too large to say")
    words: str = num2words(n, lang="he", gender="f" if feminine else "m")
    return words


def count(n: int, unit: str) -> str:
    """``n`` of a time unit or of moves: "דקה אחת", "שתי דקות", "שעתיים", "שלוש דקות"."""
    noun = NOUNS[unit]
    if n == 1:
        return f"{noun.singular} {number(1, noun.feminine)}"
    if n == 2:
        return noun.dual or f"{'שתי' if noun.feminine else 'שני'} {noun.plural}"
    return f"{number(n, noun.feminine)} {noun.plural}"
