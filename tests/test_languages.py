"""Issue 8 end to end: each of the five languages reaches the blind player and the opponent.

- A scripted game (the same path as ``voice-chess simulate``) in German, English, Arabic,
  Persian or Hebrew says nothing but that language, the Appendix D words and the command words.
- Sentences that tell the player what to say name the words of the configured command set,
  German by default and English when selected, in every language.
- The shown text (terminal, web page) is the spoken text without Hebrew points and Arabic
  vowel marks; the spoken text keeps them.
- What is spoken goes through the espeak-ng voice of the language as speech: no switch to the
  English voice, no letter spelled out, German command words quoted in Arabic, Persian and
  Hebrew sentences included.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from console import Console
from espeak import espeak
from pulse import PulseAudio, similarity_in_parts
from test_clock_pty import Terminal

from voice.cli.clock import request_words
from voice.config import Settings, override
from voice.game.session import GameSession
from voice.game.simulate import run_script
from voice.rules.events import BlindSpeech, Say, Setup
from voice.runtime.journal import read_journal
from voice.speech.audio import resample
from voice.speech.speak import Speaker, SpeechEvent, _the_renderer, render
from voice.web.server import page_texts
from voice.wiring.app import Output
from voice.words.explore_words import EXPLORE_WORDS
from voice.words.messages import display_text, isolate_latin, message
from voice.words.phrases import speakable
from voice.words.vocabulary import NUMBER_WORDS, Vocabulary

LANGUAGES = ("de", "en", "ar", "fa", "he")

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")

# Everything the blind player can meet in one game: moves, a correction too late, refusals, a
# said move that is not the one played, time, moves, position, where, whose turn, scoresheet,
# last move, castling, a draw offer declined, "berührt", a repeat, help at several points,
# resignation with its question and the result.
GAME = """
{"t": 1, "blind": "Hilfe"}
{"t": 2, "blind": "Eva vier"}
{"t": 3, "blind": "Korrektur"}
{"t": 4, "blind": "Zeit"}
{"t": 8, "sighted": "e5"}
{"t": 9, "blind": "Springer Anna sechs"}
{"t": 10, "blind": "Dame Hector acht"}
{"t": 11, "blind": "Springer Felix drei"}
{"t": 14, "sighted": "Nc6"}
{"t": 15, "blind": "Zeit"}
{"t": 16, "blind": "Züge"}
{"t": 17, "blind": "Stellung"}
{"t": 18, "blind": "wo ist der Springer"}
{"t": 19, "blind": "wer ist am Zug"}
{"t": 20, "blind": "Partie"}
{"t": 21, "blind": "letzter Zug"}
{"t": 22, "blind": "Läufer Bella fünf"}
{"t": 24, "sighted": "Nf6"}
{"t": 25, "blind": "Kurze Rochade"}
{"t": 26, "blind": "Remis"}
{"t": 27, "key": "sighted:draw_decline"}
{"t": 28, "sighted": "Nxe4"}
{"t": 30, "blind": "berührt"}
{"t": 31, "blind": "Turm Eva eins"}
{"t": 33, "sighted": "Nd6"}
{"t": 34, "blind": "Läufer schlägt Cesar sechs"}
{"t": 36, "sighted": "dxc6"}
{"t": 37, "blind": "wiederholen"}
{"t": 38, "blind": "Aufgabe"}
{"t": 39, "blind": "Hilfe"}
{"t": 40, "blind": "ja"}
{"t": 41, "blind": "Hilfe"}
"""

HEBREW_POINTS = "".join(map(chr, range(0x05B0, 0x05BD))) + "\u05c7"
"""Vowel points and dagesh: the speech needs them, a reader does not."""

HARAKAT = "".join(map(chr, range(0x064B, 0x0653)))
"""Arabic short vowels, tanween, shadda and sukun."""

PLURALS = {"könige", "damen", "türme", "bauern"}
"""The German plurals of the position read-out ("Türme Anna eins, Hector eins")."""

SCRIPT_OF = {
    "ar": re.compile("[\u0600-\u06ff]"),
    "fa": re.compile("[\u0600-\u06ff]"),
    "he": re.compile("[\u0590-\u05ff]"),
    "de": re.compile("[A-Za-z\u00c0-\u024f]"),
    "en": re.compile("[A-Za-z]"),
}

# Words of one catalogue that never belong in the other (the command and Appendix D words are
# removed before this check, so "ist" of "wo ist" or "Zug" of "letzter Zug" do not count).
STOP_WORDS = {
    "de": {"the", "is", "your", "move", "and", "you", "please", "white", "black", "played"},
    "en": {"der", "die", "das", "und", "sie", "bitte", "gegner", "weiß", "schwarz", "gespielt"},
}


ENGLISH_COMMANDS = {
    "Hilfe": "help",
    "Korrektur": "correction",
    "Zeit": "time",
    "Züge": "moves",
    "Stellung": "position",
    "wo ist der Springer": "where is Springer",
    "wer ist am Zug": "whose turn",
    "Partie": "scoresheet",
    "letzter Zug": "last move",
    "Remis": "draw",
    "berührt": "touched",
    "wiederholen": "repeat",
    "Aufgabe": "resign",
    "ja": "yes",
}
"""The game's German requests in the English command set (the moves stay Appendix D)."""


def game_lines(settings: Settings, language: str, commands: str = "de") -> list[dict[str, Any]]:
    """The output of the scripted game with both players speaking ``language`` (the
    opponent's page as well, so that nothing else is expected) and the given command set."""
    settings = override(
        settings, language={"blind": "de", "opponent": language, "commands": commands}
    )
    setup = {"mode": "game", "blind": "white", "time_control": "900+10", "language": language}
    lines = [json.dumps({"setup": setup})]
    for text in GAME.strip().splitlines():
        line = json.loads(text)
        if commands == "en" and line.get("blind") in ENGLISH_COMMANDS:
            line["blind"] = ENGLISH_COMMANDS[line["blind"]]
        lines.append(json.dumps(line, ensure_ascii=False))
    return list(run_script(lines, settings))


def game_says(settings: Settings, language: str, commands: str = "de") -> list[str]:
    """Every sentence of the scripted game, to anyone."""
    return [line["say"] for line in game_lines(settings, language, commands) if "say" in line]


def allowed_words(commands: str = "de") -> set[str]:
    """Appendix D words, the command words (with the words inside the requests that explore
    the board, "was steht auf …", as help gives them for examples) and the choice numbers:
    the same in every language (voice.words.vocabulary), lower case."""
    vocab = Vocabulary.default(commands)
    said = {*vocab.command_words(), *EXPLORE_WORDS[commands]}
    return {*vocab.move_words(), *said, *NUMBER_WORDS[commands], *PLURALS}


def foreign_letters(text: str, language: str, allowed: set[str]) -> str:
    """The letters of ``text`` outside the language's script, after the allowed words."""
    kept = re.sub(r"[^\W\d_]+", lambda m: "" if m[0].lower() in allowed else m[0], text)
    letters = (c for c in kept if unicodedata.category(c).startswith("L"))
    return "".join(c for c in letters if not SCRIPT_OF[language].match(c))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_scripted_game_speaks_only_its_language(settings: Settings, language: str) -> None:
    says = game_says(settings, language)
    assert len(says) > 30
    allowed = allowed_words()
    for text in says:
        assert foreign_letters(text, language, allowed) == "", text
    if language in STOP_WORDS:
        words = {w.lower() for text in says for w in re.findall(r"[^\W\d_]+", text)} - allowed
        assert words & STOP_WORDS[language] == set()


@pytest.mark.parametrize("language", ("ar", "fa", "he"))
def test_with_english_commands_no_german_command_word_is_left(
    settings: Settings, language: str
) -> None:
    """The English command set: the sentences name English words (the Appendix D words stay
    German); none of the German command words remains."""
    says = game_says(settings, language, commands="en")
    assert len(says) > 30
    english = allowed_words("en")
    for text in says:
        assert foreign_letters(text, language, english) == "", text


# -- the help says which words to use ------------------------------------------------------


def help_sentences(settings: Settings, language: str, commands: str) -> dict[str, str]:
    """The help at the start, during the resignation question, and the question itself."""
    by_time: dict[float, str] = {}
    for line in game_lines(settings, language, commands):
        if "say" in line and line["to"] in ("blind", "all"):
            by_time.setdefault(line["t"], line["say"])
    return {"move": by_time[1.0], "resign": by_time[38.0], "resign_help": by_time[39.0]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_names_the_german_command_words_by_default(settings: Settings, language: str) -> None:
    said = help_sentences(settings, language, "de")
    for word in ("zeit", "züge", "stellung", "remis", "aufgabe", "hilfe"):
        assert re.search(rf"\b{word}\b", said["move"].lower()), (word, said["move"])
    for key in ("resign", "resign_help"):
        assert re.search(r"\bja\b", said[key]) and re.search(r"\bnein\b", said[key]), said[key]


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_names_the_english_command_words_when_selected(
    settings: Settings, language: str
) -> None:
    said = help_sentences(settings, language, "en")
    for word in ("time", "moves", "position", "draw", "resign", "help"):
        assert re.search(rf"\b{word}\b", said["move"].lower()), (word, said["move"])
    for key in ("resign", "resign_help"):
        text = said[key].lower()
        assert re.search(r"\byes\b", text) and re.search(r"\bno\b", text), said[key]
        assert not re.search(r"\b(ja|nein)\b", text), said[key]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_names_command_words_only_by_placeholder(language: str) -> None:
    """No sentence that tells the player what to say hard-codes a German or English command
    word: the placeholders give the configured set's words."""
    keys = {
        "game.help.confirm": {"yes_word", "no_word"},
        "game.help.choose": {"one_word", "no_word"},
        "game.help.correction": {"correction_word"},
        "game.help.resign": {"yes_word", "no_word"},
        "game.resign.question": {"yes_word", "no_word"},
        "game.draw.how_to_answer": {"draw_word", "no_word"},
        "game.correction.move_pending": {"correction_word"},
        "game.choose.out_of_range": {"one_word"},
        "app.engine.ask": {"one_word", "yes_word"},
        "app.assist.approve": {"yes_word"},
        "app.assist.approve_web": {"yes_word"},
        "clock.listening": {"request_words"},
    }
    from voice.words.messages import catalogue

    table = catalogue(language)
    for key, names in keys.items():
        for name in names:
            assert "{" + name + "}" in table[key], (key, name)
        if language not in ("de", "en"):
            assert not re.search(r"\b(ja|nein|Korrektur|Remis|eins|Zeit)\b", table[key]), key


def test_the_clock_lists_the_words_it_listens_for_in_the_command_set() -> None:
    assert (
        request_words(Vocabulary.default("de"), "de") == "Zeit, Uhr, Züge, Pause, Stopp oder Ruhe"
    )
    assert (
        request_words(Vocabulary.default("en"), "ar") == "time، clock، moves، pause، stop أَوْ quiet"
    )


# -- what is shown -------------------------------------------------------------------------


def test_hebrew_is_shown_without_points_but_keeps_its_maqaf() -> None:
    pointed = "הַשָעוֹן מו\u05bcכָן. שַח\u05beמַט"
    assert display_text(pointed, "he") == "השעון מוכן. שח\u05beמט"
    shown = display_text(message("he", "game.help.correction", correction_word="Korrektur"), "he")
    assert not re.search("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]", shown)


@pytest.mark.parametrize(
    ("pointed", "plene"),
    [
        ("שַחְקָן עִוֵר", "שחקן עיוור"),  # not עור, "skin"
        ("זִהוּי", "זיהוי"),
        ("הֻכְרַז", "הוכרז"),
        ("הִסְתַיֵם", "הסתיים"),
        ("שְנִיָה", "שנייה"),
        ("תׇכְנִית", "תוכנית"),
        ("מְיֻחָד", "מיוחד"),
        ("הַיָרִיב", "היריב"),
        ("מִסְפ\u05bcָר", "מספר"),
        ("אִם", "אם"),
        ("לׇא", "לא"),
        ("כׇל", "כל"),
    ],
)
def test_hebrew_is_shown_in_plene_spelling(pointed: str, plene: str) -> None:
    """Without points the defective spelling of the pointed catalogue reads wrongly; the
    display writes the vowel letters adults expect."""
    assert display_text(pointed, "he") == plene


def test_arabic_is_shown_without_harakat_and_persian_as_written() -> None:
    assert display_text("اِنْتَهَتِ المُبَارَاة. بِٱلفِعْل", "ar") == "انتهت المباراة. بالفعل"
    persian = message("fa", "game.help.move", commands="zeit")
    assert display_text(persian, "fa") == persian
    assert display_text("Weiß: König Eva eins.", "de") == "Weiß: König Eva eins."


def test_speech_keeps_the_marks_the_voice_needs() -> None:
    """speakable() works on the pointed sentence; only the display drops the points."""
    pointed = message("he", "game.help.correction", correction_word="Korrektur")
    spoken = speakable(pointed, "he")
    assert "\u05b0" in spoken or "\u05b7" in spoken
    assert "Korrektur" not in spoken  # respelt in Hebrew letters


def test_the_terminal_prints_the_display_text(settings: Settings) -> None:
    out = io.StringIO()
    Output(out, "he").say("הַמִשְחָק הִסְתַיֵם.")
    assert out.getvalue() == "המשחק הסתיים.\n"


def test_the_opponent_page_texts_are_unpointed(settings: Settings) -> None:
    for language in ("he", "ar"):
        for key, text in page_texts(language).items():
            assert text == display_text(text, language), key


def test_latin_runs_are_isolated_in_right_to_left_text() -> None:
    text = isolate_latin("الأَبْيَض: Eva vier، Eva fünf.")
    assert text == "الأَبْيَض: \u2066Eva vier\u2069، \u2066Eva fünf\u2069."


# -- what is spoken ------------------------------------------------------------------------

_LETTER_NAME = re.compile(r"^Found: '_?[^\W\d_]'\s", re.MULTILINE)
"""A letter looked up by its name: how espeak-ng spells what it cannot read. (It also looks
up the names of quotation marks, but says them only when told to speak punctuation.)"""


@needs_espeak
@pytest.mark.parametrize(
    ("language", "commands"),
    [
        ("ar", "de"),
        ("fa", "de"),
        ("he", "de"),
        ("en", "de"),
        ("ar", "en"),
        ("fa", "en"),
        ("he", "en"),
    ],
)
def test_help_sentences_are_spoken_as_words_in_the_language_s_voice(
    settings: Settings, language: str, commands: str
) -> None:
    """The command words quoted in an Arabic, Persian or Hebrew help sentence (German, or
    English when selected; and the German ones listed in an English sentence) are respelt:
    the voice neither switches to English ("(en)") nor spells letters out (a letter looked
    up by name). ("_:" is no sign here: espeak-ng pauses at the quotation marks.)"""
    said = help_sentences(settings, language, commands)
    for text in said.values():
        spoken = speakable(text, language)
        phonemes = espeak(language, spoken, "-x")
        if language != "en":
            assert "(en)" not in phonemes, (text, spoken, phonemes)
        assert not _LETTER_NAME.search(espeak(language, spoken, "-X")), spoken


@needs_espeak
def test_persian_nein_is_not_read_as_english_nine() -> None:
    """The Persian translator's report: espeak fa read "nein" as English "niːn"."""
    phonemes = espeak("fa", speakable("«ja» یا «nein»", "fa"), "-x")
    assert "(en)" not in phonemes and "n'Ajn" in phonemes


@pytest.mark.parametrize(
    ("language", "voice"),
    [("de", "gmw/de"), ("en", "gmw/en"), ("ar", "sem/ar"), ("fa", "ira/fa"), ("he", "sem/he")],
)
def test_an_empty_voice_setting_takes_the_voice_of_the_language(
    settings: Settings, language: str, voice: str
) -> None:
    """espeak-ng's British English voice lists "en-gb": "en" must not pick the Caribbean one."""
    assert _the_renderer().voice_for("", language) == voice


@pytest.mark.parametrize("language", ("ar", "fa", "he"))
def test_a_sentence_renders_as_speech_in_each_language(settings: Settings, language: str) -> None:
    text = speakable(message(language, "game.help.resign", yes_word="ja", no_word="nein"), language)
    samples, rate = render(text, settings, language=language)
    assert 1.0 < len(samples) / rate < 10.0
    assert np.abs(samples).max() > 8000


def test_the_speaker_speaks_with_the_voice_of_its_language(
    pulse: PulseAudio, settings: Settings
) -> None:
    """A Speaker for Hebrew (a --language option) plays the Hebrew voice's rendering, not the
    settings file's German one."""
    text = speakable(message("he", "game.resign.question", yes_word="ja", no_word="nein"), "he")
    sent, rate = render(text, settings, language="he")
    german, german_rate = render(text, settings, language="de")
    assert len(german) != len(sent)
    with Speaker(settings, language="he") as speaker:
        events = speaker.subscribe()
        with pulse.record("speaker.monitor") as rec:
            speaker.say(text)
            seen: list[SpeechEvent] = []
            while not seen or seen[-1].kind not in ("end", "error"):
                seen.append(events.get(timeout=15))
    assert seen[-1].kind == "end"
    # The whole recording, which holds nothing else, measured against both renderings, part by
    # part: on a loaded machine playback drops blocks, and one cross-correlation peak over the
    # whole then covers only the stretch before the first drop (CI runs: 0.68 in a half-second
    # window, 0.79 whole, and once 0.58 whole against German 0.05). What the test is about holds
    # however many blocks were dropped: it sounds like the Hebrew voice's rendering, far more
    # than like the German one's (half-second parts of another voice find chance matches of
    # about 0.35 somewhere in a long rendering).
    hebrew = similarity_in_parts(rec.audio, resample(sent, rate, 16000))
    other = similarity_in_parts(rec.audio, resample(german, german_rate, 16000))
    print(f"\nsimilarity: Hebrew rendering {hebrew:.2f}, German {other:.2f}")
    assert hebrew > 0.6 and hebrew > other + 0.2, (hebrew, other)


# -- the program at the terminal -------------------------------------------------------------


def shown(language: str, key: str, **params: object) -> str:
    return display_text(message(language, key, **params), language)


@pytest.mark.slow
def test_play_in_hebrew_prints_unpointed_hebrew_and_resumes_in_hebrew(tmp_path: Path) -> None:
    """--language he: every line for the blind player is Hebrew as it is read (no points), the
    journal records the language, and the resumed game (started without --language) goes on in
    Hebrew although the settings still say German."""
    journal = tmp_path / "game.jsonl"
    base = ("play", "--text", "--no-speech", "--no-web")
    begins = shown("he", "app.game.begins", side=message("he", "game.side.white"))
    con = Console(*base, "--language", "he", "--journal", str(journal))
    try:
        con.expect(begins)
        con.type("Eva vier")
        assert con.next_line() == "Eva vier"
        con.type("Hilfe")
        line = con.expect(shown("he", "game.help.wait", commands="Zeit")[:12])
        assert "Zeit" in line and not set(line) & set(HEBREW_POINTS)
        con.end_input()
        assert con.wait() == 0
        assert not set(con.output()) & set(HEBREW_POINTS)
    finally:
        con.close()
    assert read_journal(journal).setup.language == "he"
    con = Console(*base, "--resume", str(journal))
    try:
        con.expect(shown("he", "app.mode.play"))
        con.type("Zeit")
        line = con.next_line()
        assert any("\u05d0" <= c <= "\u05ea" for c in line), line
        con.end_input()
        con.expect(shown("he", "app.end.saved_spoken"))
        assert con.wait() == 0
    finally:
        con.close()


def test_a_finished_game_resumed_tells_each_player_the_result_in_their_language(
    settings: Settings,
) -> None:
    settings = override(settings, language={"blind": "ar", "opponent": "de"})
    session = GameSession(Setup(mode="game", blind="white", time_control="300"), settings)
    session.handle(BlindSpeech(1000, (("Aufgabe", 1.0),)))
    session.handle(BlindSpeech(2000, (("ja", 1.0),)))
    said = {out.to: out.text for out in session.resume_announcement() if isinstance(out, Say)}
    assert said["sighted"].startswith("Partie geladen") and "Schwarz gewinnt" in said["sighted"]
    assert foreign_letters(said["sighted"], "de", allowed_words()) == ""
    assert foreign_letters(said["blind"], "ar", allowed_words()) == ""


def test_the_clock_speaks_arabic_and_prints_it_unvocalised() -> None:
    """``voice-chess clock --language ar``: the announcements are Arabic, shown as they are
    read (the vocalisation is for the voice)."""
    term = Terminal("--language", "ar", "--no-listen", "--control", "600")
    try:
        ready = shown("ar", "clock.ready", control="", press_keys="", help_key="")
        printed = term.expect(ready.split(":")[0])  # "the clock is ready"
        term.type(b" ")
        printed += term.expect(shown("ar", "clock.started"))
        term.type(b"qq")
        printed += term.expect(shown("ar", "clock.quit"))
        assert term.wait() == 0
    finally:
        term.close()
    assert any("\u0621" <= c <= "\u064a" for c in printed)
    assert not set(printed) & set(HARAKAT)


def test_the_terminals_lines_for_the_arbiter_are_in_one_language_and_the_editions_words() -> None:
    """The blind player's English does not prefix a German arbiter line ("For the arbiter:
    Protokolliert …"): the whole line is in the arbiter's language, and under the 2001 Laws
    the arbiter is the controller (Appendix F)."""
    from console import run_command

    result = run_command(
        *("assist", "--text", "--no-speech", "--no-web", "--language", "en", "--laws", "2001"),
        stdin="\nberührt\n",
    )
    lines = result.stdout.splitlines()
    assert (
        "Für den Turnierleiter: Gemeldet vom blinden Spieler: Schwarz hat eine Figur berührt."
        in lines
    )
    assert not [line for line in lines if line.startswith("For the arbiter")]
