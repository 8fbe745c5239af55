"""What the program says or shows, by message key, in the player's language.

Catalogues are gettext PO files in ``voice/words/locales/`` (``de.po``, ``en.po``, ``ar.po``, ...),
read with Babel: ``msgid`` is the message key (``refusal.no_piece_can_reach``), ``msgstr`` the
whole sentence with named placeholders (``"Kein {piece} kann nach {square}."``), never a sentence
glued from fragments. Each entry shows translators the English text; the header carries the
language's CLDR plural rule. Counts and times come worded and inflected per language from
:mod:`voice.words.spoken_time`, so a sentence takes "دقيقتان" or "שתי דקות" as it is.
Tests check that every key exists in every catalogue with the same placeholders.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from voice.words.plene import plene

LOCALES = Path(__file__).resolve().parent / "locales"
FALLBACK = "en"


@cache
def catalogue(language: str) -> dict[str, str]:
    """The ``key -> template`` table of one language.

    Untranslated (empty) and fuzzy entries are left out, as gettext does: :func:`message` then
    falls back to English rather than saying nothing or a guess. The text is used exactly as
    written: no Unicode normalisation (the Hebrew entries keep the dagesh before the vowel point,
    the order espeak-ng needs).
    """
    with (LOCALES / f"{language}.po").open("rb") as handle:
        po = read_po(handle, locale=language)
    return {
        str(entry.id): str(entry.string)
        for entry in po
        if entry.id and isinstance(entry.string, str) and entry.string and not entry.fuzzy
    }


def languages() -> list[str]:
    return sorted(path.stem for path in LOCALES.glob("*.po"))


# The Hebrew catalogue is fully pointed and the Arabic one vocalised, because espeak-ng reads
# unpointed Hebrew as bare consonants and guesses Arabic short vowels wrong. Adults read neither
# language pointed: on a page or a terminal the marks only slow reading down. Hebrew first gets
# the vowel letters of plene spelling (voice.words.plene: the defective spelling that goes with the
# points reads wrongly without them, עור "skin" for עִוֵר "blind"), then loses its points but
# keeps its punctuation (maqaf, paseq, sof pasuq: not combining marks); Arabic keeps hamza and
# madda, which are letters there.
# Persian is left as the translator wrote it: a few marks that tell words apart (نُه nine, نه no)
# and tanween on alef (لطفاً), both of which Persian print keeps.
_HEBREW_POINTS = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
_ARABIC_HARAKAT = re.compile("[\u064b-\u0652\u0670]")
_ALEF_WASLA = "\u0671"


def display_text(text: str, language: str) -> str:
    """``text`` of ``language`` as it is shown rather than spoken: Hebrew in plene spelling
    without niqqud, Arabic without harakat (alef wasla as plain alef); other languages
    unchanged.

    Speech keeps the marks: only what is printed or sent to a page goes through here.

    >>> display_text("הַשָעוֹן מו\u05bcכָן", "he")
    'השעון מוכן'
    >>> display_text("שַחְקָן עִוֵר", "he")
    'שחקן עיוור'
    >>> display_text("اِنْتَهَتِ المُبَارَاة", "ar")
    'انتهت المباراة'
    """
    if language == "he":
        return _HEBREW_POINTS.sub("", plene(text))
    if language == "ar":
        return _ARABIC_HARAKAT.sub("", text).replace(_ALEF_WASLA, "\u0627")
    return text


RIGHT_TO_LEFT = frozenset({"ar", "fa", "he"})
_LATIN_RUN = re.compile(
    r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f0-9]*(?:[ '\-][A-Za-z\u00c0-\u024f0-9]+)*"
)


def isolate_latin(text: str) -> str:
    """Each run of Latin-script words ("Springer Felix drei", "voice-chess") as a bidi isolate
    (LRI … PDI), for right-to-left text on a page.

    Without it the Unicode bidi algorithm lets neutral characters between two such runs (an
    Arabic comma in "Eva vier، Eva fünf") join them into one left-to-right stretch, and
    a reader of the right-to-left sentence meets the list in the wrong order.

    >>> isolate_latin("إلى Hector acht.")
    'إلى \\u2066Hector acht\\u2069.'
    """
    return _LATIN_RUN.sub(lambda m: f"\u2066{m.group(0)}\u2069", text)


def message(language: str, key: str, **params: object) -> str:
    """The sentence for ``key`` in ``language`` with its placeholders filled in.

    >>> message("de", "not_understood")
    'Nicht verstanden.'
    """
    table = catalogue(language)
    template = table.get(key)
    if template is None:
        template = catalogue(FALLBACK)[key]
    return template.format(**params)
