"""Persian numbers and counted nouns, for :mod:`voice.spoken_time`.

Persian is the simple one of the three: a noun stays singular after a number ("دو دقیقه"), the
numbers have no gender, and every part of a number and of a time is joined with "و" (said "o"):
"بیست و یک", "یک ساعت و پنج دقیقه". Written with the Persian letters ی and ک (not the Arabic
ي and ك), which is also what espeak-ng's ``fa`` voice expects.
"""

from __future__ import annotations

from collections.abc import Mapping

DECIMAL_POINT = "ممیز"
AND = "و"

_UNITS = (
    "صفر",
    "یک",
    "دو",
    "سه",
    "چهار",
    "پنج",
    "شش",
    "هفت",
    "هشت",
    "نه",
    "ده",
    "یازده",
    "دوازده",
    "سیزده",
    "چهارده",
    "پانزده",
    "شانزده",
    "هفده",
    "هجده",
    "نوزده",
)
_TENS = ("", "", "بیست", "سی", "چهل", "پنجاه", "شصت", "هفتاد", "هشتاد", "نود")
_HUNDREDS = ("", "صد", "دویست", "سیصد", "چهارصد", "پانصد", "ششصد", "هفتصد", "هشتصد", "نهصد")

NOUNS: Mapping[str, tuple[str, str, str]] = {
    # (the word for one, singular, the form after other numbers: the same singular)
    "hour": ("یک", "ساعت", "ساعت"),
    "minute": ("یک", "دقیقه", "دقیقه"),
    "second": ("یک", "ثانیه", "ثانیه"),
    "move": ("یک", "حرکت", "حرکت"),
}


def _and(parts: list[str]) -> str:
    return f" {AND} ".join(parts)


def _below_thousand(n: int) -> list[str]:
    hundreds, rest = divmod(n, 100)
    parts = [_HUNDREDS[hundreds]] if hundreds else []
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        parts.append(_TENS[tens])
        if ones:
            parts.append(_UNITS[ones])
    elif rest:
        parts.append(_UNITS[rest])
    return parts


def number(n: int) -> str:
    """``n`` in words: "بیست و یک", "هزار و دویست", "صد و یک هزار"."""
    if n == 0:
        return _UNITS[0]
    thousands, rest = divmod(n, 1000)
    if thousands >= 1000:
        raise ValueError(f"{n} is too large to say")
    parts = []
    if thousands:
        # "هزار" alone is a thousand; larger counts are said before it: "دو هزار".
        parts.append("هزار" if thousands == 1 else f"{_and(_below_thousand(thousands))} هزار")
    return _and(parts + _below_thousand(rest))
