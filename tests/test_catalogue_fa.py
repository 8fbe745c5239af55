"""The Persian catalogue (voice/words/locales/fa.po): the keys and placeholders of the English one,
every sentence in Persian script, with Persian letters and the zero-width non-joiner.

Latin script may appear only where the blind player hears or says the international words: the
Appendix D words (Anna … Hector, eins … acht, König … Bauer), the German command words in «…»,
and the names of the program, its options and files on the lines meant for a terminal.
"""

from __future__ import annotations

import re

from catalogue_words import (
    APPENDIX_D,
    COMMAND_WORDS,
    LATIN_LETTER,
    LATIN_TOKEN,
    OPTION,
    PLACEHOLDER,
    assert_every_key,
)

from voice.words.messages import catalogue, message
from voice.words.vocabulary import FILLER_WORDS

FA = catalogue("fa")
EN = catalogue("en")

# Names on terminal lines and web labels, as written: the program, its commands, a FIDE label.
TECHNICAL = {
    "voice-chess",
    "Stockfish",
    "PGN",
    "III.4",
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

PERSIAN_LETTER = re.compile("[\u0621-\u063a\u0641-\u064a\u067e\u0686\u0698\u06a9\u06af\u06cc]")
QUOTED = re.compile("«([^«»]*)»")


def international_words_removed(value: str) -> str:
    """``value`` without its placeholders, «…» command words, options and allowed Latin words."""
    rest = QUOTED.sub(" ", PLACEHOLDER.sub(" ", value))
    rest = OPTION.sub(" ", rest)
    for token in LATIN_TOKEN.findall(rest):
        word = token.rstrip(".,:;)")
        if word.lower() in APPENDIX_D or word in TECHNICAL:
            rest = rest.replace(token, " ", 1)
    return rest


# Keys whose English value has no English word either: only placeholders, punctuation and the
# international words ("{move}?", ", ", "König").
NO_PERSIAN_NEEDED = {
    key for key, value in EN.items() if not LATIN_LETTER.search(international_words_removed(value))
}


def _every_value_is_persian_apart_from_the_international_words(key: str) -> None:
    value = FA[key]
    assert value != ""
    for quoted in QUOTED.findall(PLACEHOLDER.sub("", value)):
        words = quoted.lower().split()  # empty when the quotes hold a placeholder
        unknown = [w for w in words if w not in COMMAND_WORDS | FILLER_WORDS | APPENDIX_D]
        assert not unknown, f"{key}: {unknown} in «…» is not a German command word"
    latin = LATIN_LETTER.findall(international_words_removed(value))
    assert not latin, f"{key}: Latin script outside «…» and the international words"
    if key not in NO_PERSIAN_NEEDED:
        assert PERSIAN_LETTER.search(value), f"{key} has no Persian word"


def test_every_value_is_persian_apart_from_the_international_words() -> None:
    assert_every_key(_every_value_is_persian_apart_from_the_international_words, sorted(FA))


def _persian_letters_not_arabic_ones(key: str) -> None:
    # Arabic yeh, kaf and alef maksura; Persian writes ی and ک.
    assert not re.search("[\u064a\u0643\u0649]", FA[key]), key


def test_persian_letters_not_arabic_ones() -> None:
    assert_every_key(_persian_letters_not_arabic_ones, sorted(FA))


def _the_verb_prefix_mi_is_joined_with_a_zero_width_non_joiner(key: str) -> None:
    # "می خواهید" and "میخواهید" are both wrong: "می‌خواهید" (U+200C after می).
    words = re.split(r"[\s.،؛:؟!()«»]+", PLACEHOLDER.sub(" ", FA[key]))
    for word in words:
        assert word not in ("می", "نمی"), f"{key}: a detached می"
    assert "\u200c\u200c" not in FA[key]
    assert not re.search("(^|\\s)\u200c|\u200c($|\\s)", FA[key]), f"{key}: a stray ZWNJ"


def test_the_verb_prefix_mi_is_joined_with_a_zero_width_non_joiner() -> None:
    assert_every_key(_the_verb_prefix_mi_is_joined_with_a_zero_width_non_joiner, sorted(FA))


def test_a_refusal_reads_as_one_persian_sentence() -> None:
    text = message(
        "fa",
        "refusal.no_piece_can_reach",
        no_piece=message("fa", "refusal.piece.knight.no"),
        square="Felix drei",
    )
    assert text == "هیچ اسبی نمی\u200cتواند به Felix drei برود."


def test_times_from_spoken_time_fit_the_sentences() -> None:
    from voice.words.spoken_time import count_words, duration_words

    text = message("fa", "clock.warning", time=duration_words(65_000, "fa"))
    assert text == "یک دقیقه و پنج ثانیه وقت مانده است."
    text = message("fa", "game.moves.to_control", moves=count_words(20, "move", "fa"))
    assert text == "بیست حرکت تا کُنتْرُل وقت مانده است."
