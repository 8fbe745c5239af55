"""A rough German spelling → ARPAbet rule set, for words the shipped lexicon does not know.

The arbiter may choose other rank or file words (docs/rules.md §6.8), users may add aliases; such a
word must still be recognisable without anyone writing phones by hand. These rules give one
plausible pronunciation in the phone set of PocketSphinx's en-us model; the shipped lexicon
(``speech_models/lexicon``) stays the better source for every word it holds.
"""

from __future__ import annotations

_VOWEL_LETTERS = frozenset("aeiouäöüy")

# Longest spellings first; each maps to phones. Context rules are handled in ``german_phones``.
_MULTI: tuple[tuple[str, str], ...] = (
    ("tsch", "CH"),
    ("sch", "SH"),
    ("chs", "K S"),
    ("eau", "OW"),
    ("ck", "K"),
    ("qu", "K V"),
    ("ph", "F"),
    ("th", "T"),
    ("tz", "T S"),
    ("ng", "NG"),
    ("nk", "NG K"),
    ("ei", "AY"),
    ("ai", "AY"),
    ("ey", "AY"),
    ("eu", "OY"),
    ("äu", "OY"),
    ("au", "AW"),
    ("ie", "IY"),
    ("oo", "OW"),
    ("ee", "EY"),
    ("aa", "AA"),
)

_SINGLE: dict[str, str] = {
    "a": "AA",
    "ä": "EH",
    "b": "B",
    "c": "K",
    "d": "D",
    "e": "EH",
    "f": "F",
    "g": "G",
    "h": "HH",
    "i": "IH",
    "j": "Y",
    "k": "K",
    "l": "L",
    "m": "M",
    "n": "N",
    "o": "OW",
    "ö": "ER",
    "p": "P",
    "r": "R",
    "s": "S",
    "ß": "S",
    "t": "T",
    "u": "UH",
    "ü": "UW",
    "v": "F",
    "w": "V",
    "x": "K S",
    "y": "IY",
    "z": "T S",
}

_FINAL_DEVOICING = {"B": "P", "D": "T", "G": "K", "Z": "S", "V": "F"}


def german_phones(word: str) -> str:
    """``"springer"`` → ``"SH P R IH NG ER"``: one pronunciation, good enough to be recognised."""
    text = word.lower()
    phones: list[str] = []
    i = 0
    while i < len(text):
        rest = text[i:]
        at_start = i == 0
        if at_start and rest[:2] in ("sp", "st"):
            phones += ["SH", "P" if rest[1] == "p" else "T"]
            i += 2
            continue
        if rest.startswith("ch"):
            after_back_vowel = i > 0 and text[i - 1] in "aou"
            phones.append("K" if after_back_vowel else "SH")
            i += 2
            continue
        if rest in ("er", "el", "en", "e") and i > 0:
            phones += {"er": ["ER"], "el": ["AH", "L"], "en": ["AH", "N"], "e": ["AH"]}[rest]
            break
        if rest == "ig" and i > 0:
            phones += ["IH", "K"]
            break
        for spelling, sound in _MULTI:
            if rest.startswith(spelling):
                phones += sound.split()
                i += len(spelling)
                break
        else:
            letter = text[i]
            if letter == "h" and i > 0 and text[i - 1] in _VOWEL_LETTERS:
                i += 1  # lengthening h ("Uhr", "Ruhe")
                continue
            if letter == "c" and rest[1:2] in ("e", "i", "ä"):
                phones += ["T", "S"]
            elif letter == "s" and rest[1:2] in _VOWEL_LETTERS and (at_start or phones):
                phones.append("Z")
            elif letter in _SINGLE:
                letter_phones = _SINGLE[letter].split()
                doubled = phones and phones[-1] == letter_phones[0]
                if doubled and letter not in _VOWEL_LETTERS:
                    i += 1  # doubled consonant: one sound
                    continue
                phones += letter_phones
            i += 1
    if phones and phones[-1] in _FINAL_DEVOICING:
        phones[-1] = _FINAL_DEVOICING[phones[-1]]
    return " ".join(phones)
