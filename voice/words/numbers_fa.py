"""Persian numbers and counted nouns, for :mod:`voice.words.spoken_time`.

Persian is the simple one of the three: a noun stays singular after a number ("دو دقیقه"), the
numbers have no gender, and every part of a number and of a time is joined with "و" (said "o"):
"بیست و یک", "یک ساعت و پنج دقیقه". Written with the Persian letters ی and ک (not the Arabic
ي and ك), which is also what espeak-ng's ``fa`` voice expects.
"""

from __future__ import annotations

from collections.abc import Mapping

from num2words import num2words

DECIMAL_POINT = "ممیز"
AND = "و"

NOUNS: Mapping[str, tuple[str, str, str]] = {
    # (the word for one, singular, the form after other numbers: the same singular)
    "hour": ("یک", "ساعت", "ساعت"),
    "minute": ("یک", "دقیقه", "دقیقه"),
    "second": ("یک", "ثانیه", "ثانیه"),
    "move": ("یک", "حرکت", "حرکت"),
}


def number(n: int) -> str:
    """``n`` in words: "بیست و یک", "هزار و دویست", "صد و یک هزار".

    The words are num2words' (``lang="fa"``): checked to be exactly the words this module had
    spelled out itself for every n below a million (Persian letters, "و" between all parts,
    "هزار" alone for a thousand). A million and more is refused, as before.
    """
    if n >= 1_000_000:
        raise ValueError(f"{n} is too large to say")
    words: str = num2words(n, lang="fa")
    return words
