"""The Hebrew catalogue (voice/words/locales/he.po): the keys and placeholders of the English one,
every sentence in Hebrew script and fully pointed the way espeak-ng's ``he`` voice reads it.

Latin script may appear only where the blind player hears or says the international words: the
Appendix D words (Anna … Hector, eins … acht, König … Bauer), the German command words in
quotes ("Korrektur"), and the names of the program, its options and files on the lines meant for
a terminal.

The pointing follows what espeak-ng 1.51 reads (measured with ``espeak-ng -v he -x``): unpointed
Hebrew comes out as bare consonants, and a shin or sin dot, a holam on a letter other than vav,
a hataf segol, a maqaf or a dagesh in a letter other than ב, כ, פ, ו (or written after the vowel
point) make it spell the word letter by letter.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess

import pytest
from catalogue_words import (
    APPENDIX_D,
    COMMAND_WORDS,
    LATIN_LETTER,
    LATIN_TOKEN,
    OPTION,
    PLACEHOLDER,
    assert_every_key,
    placeholders,
)

from voice.words.messages import catalogue, message
from voice.words.vocabulary import FILLER_WORDS

HE = catalogue("he")
EN = catalogue("en")
DE = catalogue("de")

# Names on terminal lines and web labels, as written: the program, its commands, a FIDE label.
TECHNICAL = {
    "voice-chess",
    "Stockfish",
    "PGN",
    "III.4",
    "9.5.3",
    "models",
    "list",
    "devices",
    "simulate",
    "clock",
    "demo",
    "play",
    "python3",
    "tools/bootstrap.py",
    "run",
    "journal_dir",
    "[session]",
    "[clock.presets]",
    "900+10",
    "Ctrl-D",
    "Ctrl-C",
    "Q",
}

HEBREW_LETTER = re.compile("[\u05d0-\u05ea]")
QUOTED = re.compile('"([^"]*)"|“([^”]*)”')

DAGESH = "\u05bc"
HOLAM = "\u05b9"
# Vowel points and the qamats katan; the dagesh, shin/sin dots and meteg are not vowels.
VOWEL_POINTS = set("\u05b0\u05b1\u05b2\u05b3\u05b4\u05b5\u05b6\u05b7\u05b8\u05b9\u05ba\u05bb\u05c7")


def international_words_removed(value: str) -> str:
    """``value`` without placeholders, quoted command words, options and allowed Latin words."""
    rest = QUOTED.sub(" ", PLACEHOLDER.sub(" ", value))
    rest = OPTION.sub(" ", rest)
    for token in LATIN_TOKEN.findall(rest):
        word = token.rstrip(".,:;)")
        if word.lower() in APPENDIX_D or word in TECHNICAL:
            rest = rest.replace(token, " ", 1)
    return rest


# Keys whose English value has no English word either: only placeholders, punctuation and the
# international words ("{move}?", ", ", "König").
NO_HEBREW_NEEDED = {
    key for key, value in EN.items() if not LATIN_LETTER.search(international_words_removed(value))
}


def hebrew_words(value: str) -> list[str]:
    """The Hebrew words of ``value``, each a run of letters and their points."""
    return re.findall("[\u05d0-\u05ea\u0591-\u05c7]+", PLACEHOLDER.sub(" ", value))


def letters_with_marks(word: str) -> list[tuple[str, str]]:
    """(letter, the points written after it, in order) for each letter of ``word``."""
    return re.findall("([\u05d0-\u05ea])([\u0591-\u05c7]*)", word)


def _every_value_is_hebrew_apart_from_the_international_words(key: str) -> None:
    value = HE[key]
    assert value != ""
    for match in QUOTED.finditer(PLACEHOLDER.sub("", value)):
        words = re.findall(r"[^\s.,;:?!]+", (match.group(1) or match.group(2) or "").lower())
        unknown = [w for w in words if w not in COMMAND_WORDS | FILLER_WORDS | APPENDIX_D]
        assert not unknown, f"{key}: {unknown} in quotes is not a German command word"
    latin = LATIN_LETTER.findall(international_words_removed(value))
    assert not latin, f"{key}: Latin script outside quotes and the international words"
    if key not in NO_HEBREW_NEEDED:
        assert HEBREW_LETTER.search(value), f"{key} has no Hebrew word"


def test_every_value_is_hebrew_apart_from_the_international_words() -> None:
    assert_every_key(_every_value_is_hebrew_apart_from_the_international_words, sorted(HE))


def _every_hebrew_letter_is_pointed_for_espeak(key: str) -> None:
    value = HE[key]
    for word in hebrew_words(value):
        pairs = letters_with_marks(word)
        for (letter, marks), (after, its_marks) in itertools.pairwise(pairs):
            # Fully pointed: every letter inside a word carries a point, unless it is a vowel
            # letter (א ה ו י) or the vowel is the holam or shuruk of the vav after it.
            vowel_vav = after == "ו" and bool(its_marks)
            assert marks or letter in "אהוי" or vowel_vav, f"{key}: {letter} in {word} unpointed"
        for letter, marks in pairs:
            where = f"{key}: {letter} in {word}"
            assert "\u05c1" not in marks and "\u05c2" not in marks, f"{where}: shin/sin dot"
            assert "\u05b1" not in marks, f"{where}: hataf segol"
            assert "\u05bd" not in marks, f"{where}: meteg"
            if DAGESH in marks:
                assert letter in "בכךפו", f"{where}: dagesh espeak-ng spells out"
                assert marks.startswith(DAGESH), f"{where}: dagesh after the vowel point"
            if HOLAM in marks:
                assert letter == "ו", f"{where}: holam without vav (a qamats katan reads o)"
    assert "\u05be" not in value, f"{key}: maqaf"


def test_every_hebrew_letter_is_pointed_for_espeak() -> None:
    assert_every_key(_every_hebrew_letter_is_pointed_for_espeak, sorted(HE))


def test_the_dagesh_stays_before_the_vowel_in_the_file() -> None:
    """Unicode's canonical order puts the dagesh after the vowel point, where espeak-ng spells
    the word out: in the file, and in what the loader returns, it stands right after its
    letter (an editor or a normaliser that reorders it breaks speech, and this test)."""
    from voice.words.messages import LOCALES

    raw = (LOCALES / "he.po").read_text(encoding="utf-8")
    assert DAGESH in raw
    for where in re.finditer(DAGESH, raw):
        letter = raw[where.start() - 1]
        assert letter in "בכפו", raw[where.start() - 8 : where.start() + 3]
    assert all(
        value[i - 1] in "בכפו"
        for value in HE.values()
        for i, char in enumerate(value)
        if char == DAGESH
    )


def test_a_refusal_reads_as_one_hebrew_sentence() -> None:
    text = message(
        "he",
        "refusal.no_piece_can_reach",
        no_piece=message("he", "refusal.piece.knight.no"),
        square="Felix drei",
    )
    assert text == "אֵין פ\u05bcָרָש עִם מַסָע אֶל Felix drei."
    text = message(
        "he",
        "refusal.pinned",
        the_piece=message("he", "refusal.piece.queen.the"),
        from_square="Gustav eins",
    )
    assert text.startswith("הַמַלְכ\u05bcָה ")
    assert text.endswith(" Gustav eins ב\u05bcְרִתוּק.")


def test_the_appendix_d_words_stand_apart_for_the_respelling() -> None:
    # speakable() only respells a word with neither a letter nor a point right before it, so no
    # Hebrew prefix (ב, ל, מ …) is ever glued to a placeholder of the spoken sentences.
    for key, value in HE.items():
        if key.startswith("web."):
            continue
        assert not re.search("[\u05d0-\u05ea\u0591-\u05c7]\\{", value), key


def test_times_and_counts_from_spoken_time_fit_the_sentences() -> None:
    from voice.words.spoken_time import count_words, duration_words

    text = message("he", "clock.warning", time=duration_words(65_000, "he"))
    assert text == "הַזְמַן שֶנוֹתַר: דקה אחת וחמש שניות."
    text = message("he", "game.moves.to_control", moves=count_words(2, "move", "he"))
    assert text == "נוֹתְרוּ עֲד ב\u05bcַקָרַת הַזְמַן: שני מסעים."
    period = message(
        "he",
        "clock.period_moves",
        time=duration_words(5_400_000, "he"),
        moves=count_words(40, "move", "he"),
    )
    assert period == "ארבעים מסעים תוֹךְ שעה אחת ושלושים דקות"


# Realistic values for the placeholders of the spoken sentences.
def _spoken_samples() -> dict[str, str]:
    from voice.words.spoken_time import count_words, duration_words, number_words

    return {
        "time": duration_words(65_000, "he"),
        "white": duration_words(3_725_000, "he"),
        "black": duration_words(542_000, "he"),
        "penalty": duration_words(120_000, "he"),
        "moves": count_words(12, "move", "he"),
        "done": count_words(38, "move", "he"),
        "required": count_words(40, "move", "he"),
        "count": number_words(3, "he"),
        "side": HE["game.side.black"],
        "by": HE["game.side.white"],
        "first": HE["game.side.white"],
        "white_side": HE["clock.white"],
        "black_side": HE["clock.black"],
        "square": "Felix drei",
        "from_square": "Gustav eins",
        "move": "Springer schlägt Felix drei",
        "heard": "Springer Eva drei",
        "no_piece": HE["refusal.piece.knight.no"],
        "the_piece": HE["refusal.piece.queen.the"],
        "many_piece": HE["refusal.piece.rook.many"],
        "castling": "Kurze Rochade",
        "last": "drei",
        "one_word": "eins",
        "yes_word": "ja",
        "no_word": "nein",
        "correction_word": "Korrektur",
        "draw_word": "Remis",
        "request_words": "Zeit, Uhr, Züge, Pause oder Stopp",
        "reason": HE["game.reason.stalemate"],
        "keys": HE["clock.key.space"],
        "press_keys": HE["clock.key.space"],
        "action": HE["clock.action.press"],
        "profile": HE["app.profile.home"],
        "mode": HE["app.mode.play"],
        "output": HE["app.output.terminal"],
    }


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_espeak_reads_every_spoken_sentence_without_spelling_it_out() -> None:
    # espeak-ng -x shows a letter or point it cannot read as "h'i:bru:" (it names the Hebrew
    # letter or the point in English); a sentence with one would be spelt out to the player.
    from voice.words.phrases import speakable

    samples = _spoken_samples()
    sentences = {}
    for key, template in HE.items():
        if key.startswith("web."):
            continue
        filled = template.format(**{name: samples.get(name, "") for name in placeholders(template)})
        sentences[key] = speakable(filled, "he")

    def phonemes(text: str) -> str:
        run = subprocess.run(
            ["espeak-ng", "-v", "he", "-q", "-x"], input=text, capture_output=True, text=True
        )
        return run.stdout

    if "h'i:bru:" in phonemes("\n".join(sentences.values())):
        spelt = [key for key, text in sentences.items() if "h'i:bru:" in phonemes(text)]
        assert not spelt, f"espeak-ng spells out: {spelt}"
