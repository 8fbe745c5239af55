"""Pointed Hebrew to the plene spelling (ktiv male) that adults read without points.

The Hebrew catalogue is fully pointed for espeak-ng, in the defective spelling that goes with
points: עִוֵר "blind", זִהוּי "recognition", הֻכְרַז "was announced". Stripping the points alone
leaves עור (read "skin"), זהוי, הכרז (read "announce!"). Before the points go, the vowels they
stood for are written with the letters that carry them in plene spelling, following the main
rules of the Academy of the Hebrew Language:

- qubuts and qamats qatan become ו (הֻכְרַז → הוכרז, תׇכְנִית → תוכנית; not in כׇל, or
  before א as in לֹא);
- holam on a letter other than ו is followed by ו (כֹּחַ → כוח; not before א or ו);
- hiriq in an open syllable is followed by י (זִהוּי → זיהוי, עִוֵר → עיור); not before a
  letter with sheva (מִסְפָּר stays מספר) or a closed word end (אִם stays אם);
- a consonant ו inside a word is doubled (עיור → עיוור), a consonant י inside a word too
  (הִסְתַיֵם → הסתיים), unless a vowel letter is already next to it (מְיֻחָד → מיוחד) or it
  follows the first letter (a prefix: הַיָרִיב → היריב).

These rules cover the catalogue's sentences; words whose defective form is already the usual
one (the translator writes עַכְשָו) stay as written.
"""

from __future__ import annotations

import re

_MARKS = "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
_UNIT = re.compile(f"([\u05d0-\u05ea])([{_MARKS}]*)")
_WORD = re.compile(f"(?:[\u05d0-\u05ea][{_MARKS}]*)+")

SHEVA, HIRIQ, HOLAM, QUBUTS, DAGESH, QAMATS_QATAN = (
    "\u05b0",
    "\u05b4",
    "\u05b9",
    "\u05bb",
    "\u05bc",
    "\u05c7",
)
VOWELS = frozenset("\u05b1\u05b2\u05b3\u05b4\u05b5\u05b6\u05b7\u05b8\u05b9\u05bb\u05c7")
"""Vowel points (sheva excluded: it closes a syllable or is barely heard)."""


def _sounded(letter: str, marks: str) -> bool:
    """Whether a letter carries a vowel: a vowel point, or a shuruk (ו with only a dagesh)."""
    return bool(set(marks) & VOWELS) or (letter == "ו" and marks == DAGESH)


def _consonant(letter: str, marks: str, index: int, units: list[tuple[str, str]], done: str) -> str:
    """The letter itself, doubled where it is a consonant ו or י inside the word (``done``:
    the word so far, points included)."""
    points = set(marks)
    last = re.sub(f"[{_MARKS}]", "", done)[-1:]
    following = units[index + 1][0] if index + 1 < len(units) else ""
    if letter == "ו" and index > 0 and points & VOWELS and HOLAM not in points:
        return letter if last == "ו" else "וו"
    if (
        letter == "י"
        and 1 < index < len(units) - 1
        and points & (VOWELS - {HOLAM, QUBUTS, HIRIQ})
        and last not in ("ו", "י")
        and following not in ("ו", "י")
    ):
        return "יי"
    return letter


def _vowel_letter(letter: str, marks: str, index: int, units: list[tuple[str, str]]) -> str:
    """The ו or י that plene spelling writes after this letter for its vowel, or nothing."""
    points = set(marks)
    following = units[index + 1] if index + 1 < len(units) else None
    after = units[index + 2] if index + 2 < len(units) else None
    next_letter = following[0] if following else ""
    if QUBUTS in points:
        return "ו"
    if QAMATS_QATAN in points:
        kol = letter == "כ" and next_letter == "ל"
        return "" if next_letter == "א" or kol else "ו"
    if HOLAM in points:
        return "" if letter == "ו" or next_letter in ("א", "ו") else "ו"
    if HIRIQ in points and following is not None and next_letter != "י":
        open_syllable = SHEVA not in following[1] and (
            _sounded(*following) or (after is not None and after[0] == "ו" and _sounded(*after))
        )
        return "י" if open_syllable else ""
    return ""


def _word(word: str) -> str:
    units = _UNIT.findall(word)
    done = ""
    for index, (letter, marks) in enumerate(units):
        done += _consonant(letter, marks, index, units, done) + marks
        done += _vowel_letter(letter, marks, index, units)
    return done


def plene(text: str) -> str:
    """``text`` with the vowel letters of plene spelling added; the points stay (strip them
    afterwards for display).

    >>> import re
    >>> re.sub("[\u05b0-\u05c7]", "", plene("הַשַחְקָן הָעִוֵר הֻכְרַז"))
    'השחקן העיוור הוכרז'
    """
    return _WORD.sub(lambda match: _word(match.group(0)), text)
