"""Recognition benchmark: synthesized German moves, sentences and noise through the recogniser.

The corpus is made on the spot (nothing generated is kept in git): positions from random legal
games with a fixed seed, one legal move per utterance chosen so that captures, promotions, en
passant, castling and disambiguated moves all occur, said in one of its accepted spoken forms by
one of several espeak-ng German voices at varied rate and pitch. Every utterance is padded with
0.3 s of silence at both ends (:mod:`benchmarks.rooms`) and heard in the :data:`CONDITIONS`:
clean; pink noise and babble (three other voices saying sentences that are not chess) at 10 and
5 dB signal-to-noise ratio, measured as a room makes it, over the *whole* recording with its
pauses; a large reverberant hall; and "accented", the same moves said by espeak-ng's Arabic and
Persian voices reading the words as the Arabic and Persian FIDE Laws spell them. German
sentences that are not chess (each said three times, by different voices in different
positions) and noise alone measure how often something that is not a move becomes one.

Voice sets (``--voices``): lexicon variants and thresholds may be tuned only on the
:data:`TRAINING_VOICES` (``tuning``, also called ``training``); :data:`VOICES` (``benchmark``,
the default) are the voices earlier figures were measured on, close to the tuning ones; **the
figures to report come from** ``--voices report``: :data:`REPORT_VOICES`, espeak-ng variants
used by neither set, at a wider range of rate and pitch.

An utterance counts as **correct** when the matcher accepts or asks to confirm the right move,
**wrong** when it accepts or confirms another move (**played** when it accepts another move
without a question: the worst outcome), **choose** when it offers several moves (the player
picks one by number; whether the right one was among them is counted too), and **rejected**
when it proposes nothing. When the recogniser's best phrase is a command, the game carries that
out and makes no move of it (it reads commands before moves), whatever move the matcher would
rank from its words: a **request** for information ("Reihe sieben", "Zeit";
``voice.game.session.REQUESTS``) counts as part of rejected, a **command** that changes the game
("Remis", "Aufgabe", "Schiedsrichter") as part of wrong (for small talk: of proposed).
:data:`TARGETS` are the aims each figure is printed against.
"""

from __future__ import annotations

import random
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import numpy as np

from benchmarks import rooms
from benchmarks.frontend import suppress
from voice.config import Settings
from voice.game.session import REQUESTS
from voice.speech.recognizers import Recognizer, close_recognizer, hypotheses, make_recognizer
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.recognizers.lexicon import Lexicon, lexicon_dir
from voice.speech.recognizers.second_opinion import pocketsphinx_in
from voice.speech.speech_input import free_guess
from voice.speech.wavio import RATE, load_for_recognition, to_int16, write_wav
from voice.words.matcher import Decision, guess_refusal, match_move
from voice.words.phrases import PhraseTable, phrase_table, speakable, spoken_forms
from voice.words.utterance import read_command
from voice.words.vocabulary import PIECE_WORDS, NamedMoves, Phrase, Vocabulary

if TYPE_CHECKING:
    from voice.speech.recognizers.adaptation import Sample

VOICES: tuple[str, ...] = (
    "de",
    "de+m1",
    "de+m3",
    "de+m7",
    "de+f2",
    "de+f4",
    "de+klatt2",
    "de+klatt4",
    "de+croak",
    "de+f5",
)
"""espeak-ng German voice variants (formant and Klatt synthesis, male and female)."""

TRAINING_VOICES: tuple[str, ...] = (
    "de+m2",
    "de+m4",
    "de+m5",
    "de+m6",
    "de+f1",
    "de+f3",
    "de+klatt",
    "de+klatt3",
    "de+klatt5",
    "de+klatt6",
    "de+max",
    "de+iven",
    "de+steph",
    "de+anika",
    "de+john",
    "de+paul",
)
"""Other variants, none of them in :data:`VOICES`: lexicon variants and thresholds are chosen
on a corpus said by these (``--voices training``), so that the benchmark's figures are not
figures of the corpus they were tuned on."""

REPORT_VOICES: tuple[str, ...] = (
    "de+Denis",
    "de+edward",
    "de+Gene",
    "de+Hugo",
    "de+Mario",
    "de+norbert",
    "de+robert",
    "de+victor",
    "de+grandpa",
    "de+Annie",
    "de+linda",
    "de+aunty",
    "de+shelby",
    "de+belinda",
    "de+Andrea",
    "de+zac",
)
"""espeak-ng variants in neither :data:`VOICES` nor :data:`TRAINING_VOICES`, for the figures
to report (``--voices report``): nine men, six women and a child (``zac``), said at a wider
range of rate and pitch than the others. Chosen by what they are, not by how well they are
recognised: variants of ``espeak-ng --voices=variant`` (most suggested in the issue, more women
added for balance) whose vowel formants F1 to F3 stay within 75-150% of the default voice's,
as a human speaker's would, and no effect voices (whisper, robots). Suggested but left out for
that reason: Andy (no F3), boris, Jacky, Lee and Michael (F3 at 9-59%). Variant names are
case-sensitive, and espeak-ng says an unknown one silently with the plain voice."""

RATES: tuple[int, int, int] = (130, 191, 10)
"""words per minute, as ``random.randrange`` arguments: 130 to 190 in steps of 10."""
PITCHES: tuple[int, int, int] = (30, 71, 5)
"""espeak-ng pitch (0-99), as ``random.randrange`` arguments: 30 to 70 in steps of 5."""
REPORT_RATES: tuple[int, int, int] = (115, 216, 10)
"""The report set's wider range: 115 to 215 words per minute."""
REPORT_PITCHES: tuple[int, int, int] = (20, 81, 5)
"""The report set's wider range: pitch 20 to 80."""


@dataclass(frozen=True)
class VoiceSet:
    """Who says the corpus, and how fast and how high."""

    voices: tuple[str, ...]
    rates: tuple[int, int, int] = RATES
    pitches: tuple[int, int, int] = PITCHES


PICO_VOICE = "pico"
"""SVOX Pico's German voice (``py-nanotts``, its lingware in the package): another synthesizer
altogether, an HMM voice trained on one woman's recordings rather than espeak-ng's formant
rules, so the nearest to a human voice that the package registries offer. Nothing is tuned on
it; it is said at the report set's rates and pitches (:func:`pico_prosody`)."""

VOICE_SETS: dict[str, VoiceSet] = {
    "benchmark": VoiceSet(VOICES),
    "training": VoiceSet(TRAINING_VOICES),
    "tuning": VoiceSet(TRAINING_VOICES),
    "report": VoiceSet(REPORT_VOICES, REPORT_RATES, REPORT_PITCHES),
    "pico": VoiceSet((PICO_VOICE,), REPORT_RATES, REPORT_PITCHES),
}
"""``--voices``: ``tuning`` (= ``training``) is what thresholds and pronunciations may be tuned
on; ``report`` is what figures are reported from; ``benchmark`` is the earlier default."""

ACCENTS: tuple[str, ...] = ("ar", "fa")
"""espeak-ng voices of the "accented" condition, each reading the German words as its
language's FIDE Laws spell them (:func:`voice.words.phrases.speakable`); they take turns."""

CONDITIONS: tuple[str, ...] = (
    "clean",
    "pink10",
    "pink5",
    "babble10",
    "babble5",
    "hall",
    "accented",
)
"""How every move utterance is heard (:mod:`benchmarks.rooms`)."""

NOISE_SNR: Mapping[str, tuple[str, float]] = {
    "pink10": ("pink", 10.0),
    "pink5": ("pink", 5.0),
    "babble10": ("babble", 10.0),
    "babble5": ("babble", 5.0),
}
"""The conditions with noise: its kind and the whole-recording signal-to-noise ratio in dB."""

SPEECH = "non-chess speech"
NOISE = "noise alone"
SELECTABLE: Mapping[str, str] = {
    **{name: name for name in CONDITIONS},
    "non-chess": SPEECH,
    "noise": NOISE,
}
"""``--conditions`` names → the tallies they fill (default: all)."""

BABBLE_TALKERS = 3

TARGETS: Mapping[str, float] = {
    "clean": 97.0,
    "pink10": 90.0,
    "babble10": 85.0,
    "hall": 90.0,
    "accented": 60.0,
}
"""Aims for the share of right moves (accepted or asked back), in percent."""
WRONG_TARGET = 1.0
"""Aim: at most this share (percent) of wrong moves proposed, in every condition."""
PLAYED_TARGET = 0
"""Aim: this many wrong moves played without a question, in all."""
NON_CHESS_TARGET = 1.0
"""Aim: at most this share (percent) of non-chess speech becomes a proposed move."""

NON_CHESS: tuple[str, ...] = (
    "Guten Tag, wie geht es Ihnen heute?",
    "Ich hätte gerne einen Kaffee mit Milch.",
    "Das Wetter ist heute sehr schön.",
    "Kannst du mir bitte das Salz geben?",
    "Wo ist der nächste Bahnhof?",
    "Morgen fahre ich nach Berlin.",
    "Die Katze schläft auf dem Sofa.",
    "Hast du das Spiel gestern gesehen?",
    "Ich muss noch einkaufen gehen.",
    "Es ist schon spät, ich gehe schlafen.",
    "Der Zug hat zehn Minuten Verspätung.",
    "Meine Schwester wohnt in Hamburg.",
    "Bitte schließen Sie die Tür.",
    "Das Essen war wirklich lecker.",
    "Wir treffen uns um halb neun am Eingang.",
    "Entschuldigung, ich habe nicht aufgepasst.",
    "Nein danke, das brauche ich nicht.",
    "Das war eine spannende Partie.",
    "Ich glaube, ich habe mich verrechnet.",
    "Möchtest du noch etwas trinken?",
    "Der Turnierleiter kommt gleich.",
    "Wie viele Runden spielen wir heute?",
    "Ich brauche eine kurze Pause.",
    "Gut gespielt, herzlichen Glückwunsch.",
    "Hmm, lass mich kurz nachdenken.",
    "Wann beginnt die nächste Runde?",
    "Mein Handy ist leider aus.",
    "Das Licht ist hier sehr hell.",
    "Kann ich das Fenster öffnen?",
    "Ich komme aus Österreich.",
    "Die Bedenkzeit ist fast vorbei.",
    "Hast du meine Brille gesehen?",
    "Wir sollten bald nach Hause gehen.",
    "Das Buch liegt auf dem Tisch.",
    "Heute Abend gibt es Nudeln.",
    "Vielen Dank für die Einladung.",
    "Ich verstehe die Frage nicht.",
    "Der Bus fährt alle zehn Minuten.",
    "Bitte etwas leiser sprechen.",
    "Schöne Grüße an deine Familie.",
)
"""Sentences a player might say at the board that are not moves or commands."""

NOISES: tuple[str, ...] = ("pinknoise", "whitenoise", "brownnoise")

CATEGORIES: tuple[str, ...] = (
    "castling",
    "promotion",
    "en_passant",
    "capture",
    "disambiguated",
    "pawn",
    "piece",
)


@dataclass(frozen=True)
class Item:
    """One utterance of the corpus."""

    ident: str
    fen: str
    move: str | None
    """UCI of the move said, None for non-chess speech and noise."""
    phrase: Phrase
    text: str
    """What the voice was asked to say (respelt for espeak-ng)."""
    voice: str
    rate: int
    pitch: int
    category: str


@dataclass
class Tally:
    """Outcomes of one condition."""

    outcomes: Counter[str] = field(default_factory=Counter)
    decode_ms: list[float] = field(default_factory=list)
    first: int = 0
    """Utterances whose recogniser's own best phrase names the right move, whatever was
    decided: no decision rule on the recogniser's answer can make more of them correct."""
    played: int = 0
    """Another move (for what is not a move: any move) accepted without a question: it would
    be played on the board, the player unaware."""
    at_once: int = 0
    """The right move accepted without a question (part of correct; the rest were asked back
    and needed a "ja")."""
    choose_right: int = 0
    """Choices offered with the right move among them."""
    speech_snr: list[float] = field(default_factory=list)
    """With noise: the signal-to-noise ratio over the speech frames alone, per utterance."""
    unheard: int = 0
    """With ``--room``: moves the end-pointer never delivered (part of rejected)."""
    told_illegal: int = 0
    """Refused utterances whose free transcription the game would explain as an illegal move
    ("Kein König kann nach Gustav fünf"): a move nobody said, as the corpus says legal moves
    and non-chess speech only (part of rejected)."""

    @property
    def count(self) -> int:
        return sum(self.outcomes.values())

    def share(self, outcome: str) -> float:
        return 100.0 * self.outcomes[outcome] / max(self.count, 1)

    @property
    def wrong(self) -> float:
        """Percent of moves heard as another move, or as a command that changes the game."""
        return self.share("wrong") + self.share("command")

    @property
    def proposed(self) -> float:
        """Percent of what is not a move heard as a move, or as a command that changes the
        game."""
        return self.share("proposed") + self.share("command")

    def percent(self, number: int) -> float:
        return 100.0 * number / max(self.count, 1)


# -- corpus ---------------------------------------------------------------------------------


def category(board: chess.Board, move: chess.Move) -> str:
    if board.is_castling(move):
        return "castling"
    if move.promotion:
        return "promotion"
    if board.is_en_passant(move):
        return "en_passant"
    if board.is_capture(move):
        return "capture"
    piece = board.piece_type_at(move.from_square)
    if piece != chess.PAWN:
        rivals = [
            m
            for m in board.legal_moves
            if m.to_square == move.to_square
            and m != move
            and board.piece_type_at(m.from_square) == piece
        ]
        if rivals:
            return "disambiguated"
        return "piece"
    return "pawn"


def _candidates(rng: random.Random, games: int) -> dict[str, list[tuple[str, str]]]:
    """(FEN, UCI) pairs by category from random games (captures preferred, so that games reach
    the endgame, promotions and en passant)."""
    found: dict[str, list[tuple[str, str]]] = {c: [] for c in CATEGORIES}
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(10, 160)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            for move in moves:
                kind = category(board, move)
                bucket = found[kind]
                if kind in ("promotion", "en_passant", "castling") or rng.random() < 0.02:
                    bucket.append((board.fen(), move.uci()))
            captures = [m for m in moves if board.is_capture(m)]
            pushes = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            roll = rng.random()
            pool = (
                captures if captures and roll < 0.4 else pushes if pushes and roll < 0.6 else moves
            )
            board.push(rng.choice(pool))
    return found


def make_items(
    count: int,
    vocab: Vocabulary,
    seed: int,
    language: str = "de",
    voices: Sequence[str] = VOICES,
    rates: tuple[int, int, int] = RATES,
    pitches: tuple[int, int, int] = PITCHES,
) -> list[Item]:
    """``count`` move utterances: each special category gets at least a tenth of them, said
    by ``voices`` at a rate drawn from ``rates`` and a pitch from ``pitches``."""
    rng = random.Random(seed)
    found = _candidates(rng, games=max(40, count // 3))
    quota = {"castling": 0.1, "promotion": 0.1, "en_passant": 0.1, "disambiguated": 0.1}
    chosen: list[tuple[str, str, str]] = []
    for kind, share in quota.items():
        pool = found[kind]
        picks = rng.sample(pool, min(len(pool), round(count * share)))
        chosen += [(fen, uci, kind) for fen, uci in picks]
    rest = [(f, u, k) for k in ("capture", "pawn", "piece") for f, u in found[k]]
    chosen += rng.sample(rest, max(0, count - len(chosen)))
    rng.shuffle(chosen)
    items = []
    for index, (fen, uci, kind) in enumerate(chosen):
        board = chess.Board(fen)
        forms = spoken_forms(board, chess.Move.from_uci(uci), vocab)
        # The canonical form half of the time, else any accepted form.
        phrase = forms[0] if rng.random() < 0.5 else rng.choice(forms)
        voice = rng.choice(list(voices))
        items.append(
            Item(
                ident=f"move{index:04d}",
                fen=fen,
                move=uci,
                phrase=phrase,
                text=said_text(vocab.display(phrase), voice, language),
                voice=voice,
                rate=rng.randrange(*rates),
                pitch=rng.randrange(*pitches),
                category=kind,
            )
        )
    return items


def non_chess_items(
    seed: int,
    fens: Sequence[str],
    repeats: int = 3,
    voices: Sequence[str] = VOICES,
    sentences: Sequence[str] = NON_CHESS,
    rates: tuple[int, int, int] = RATES,
    pitches: tuple[int, int, int] = PITCHES,
) -> list[Item]:
    """Each sentence ``repeats`` times, by different voices, in positions taken from ``fens``
    (the grammar, and so what speech could be mistaken for, changes with the position)."""
    rng = random.Random(seed + 1)
    items = []
    for round_ in range(repeats):
        for i, text in enumerate(sentences):
            items.append(
                Item(
                    f"speech{round_}-{i:03d}",
                    rng.choice(list(fens)),
                    None,
                    (),
                    text,
                    voices[(i + 3 * round_) % len(voices)],
                    rng.randrange(*rates),
                    rng.randrange(*pitches),
                    "speech",
                )
            )
    return items


def read_sentences(path: Path) -> list[str]:
    """Sentences that are not moves, one per line, for ``--sentences`` (blank lines and lines
    starting with ``#`` skipped; leading dashes dropped, which espeak-ng would take for an
    option)."""
    sentences = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip().lstrip("-–— ").strip()
        if text and not line.lstrip().startswith("#"):
            sentences.append(text)
    if not sentences:
        raise RuntimeError(f"{path}: no sentences (one per line)")
    return sentences


def accented_items(moves: Sequence[Item], vocab: Vocabulary) -> list[Item]:
    """The same moves said by the :data:`ACCENTS` voices in turn, each reading the German words
    as its language's Laws of Chess spell them."""
    items = []
    for index, item in enumerate(moves):
        accent = ACCENTS[index % len(ACCENTS)]
        text = speakable(vocab.display(item.phrase), accent)
        items.append(replace(item, ident=f"accent{index:04d}", voice=accent, text=text))
    return items


def babble_sentences(vocab: Vocabulary) -> list[str]:
    """The :data:`NON_CHESS` sentences with no word a move could be made of ("Ich brauche eine
    kurze Pause" has the "kurze" of "kurze Rochade"): babble must not say the moves."""
    moves = vocab.move_words()
    kept = []
    for text in NON_CHESS:
        words = {*vocab.normalize(text), *text.lower().replace(",", " ").split()}
        if not words & moves:
            kept.append(text)
    return kept


def babble_bank(
    seed: int,
    vocab: Vocabulary,
    voices: Sequence[str] = VOICES,
    rates: tuple[int, int, int] = RATES,
    pitches: tuple[int, int, int] = PITCHES,
) -> list[Item]:
    """The talkers babble is made of: every :func:`babble_sentences` sentence once, by
    ``voices`` in turn (a set of fewer than four is joined by benchmark and training voices,
    so that every target voice has :data:`BABBLE_TALKERS` others to be drowned by)."""
    pool = list(dict.fromkeys(voices))
    for voice in (*VOICES, *TRAINING_VOICES):
        if len(pool) > BABBLE_TALKERS:
            break
        if voice not in pool:
            pool.append(voice)
    rng = random.Random(seed + 3)
    return [
        Item(
            f"babble{index:03d}",
            chess.STARTING_FEN,
            None,
            (),
            text,
            pool[index % len(pool)],
            rng.randrange(*rates),
            rng.randrange(*pitches),
            "babble",
        )
        for index, text in enumerate(babble_sentences(vocab))
    ]


def babble_plan(target: Item, bank: Sequence[Item], rng: random.Random) -> list[Item]:
    """:data:`BABBLE_TALKERS` recordings of the bank to talk over ``target``: other voices than
    the target's, no voice twice (so no sentence twice either)."""
    chosen: list[Item] = []
    for talker in rng.sample(list(bank), len(bank)):
        if talker.voice != target.voice and all(c.voice != talker.voice for c in chosen):
            chosen.append(talker)
            if len(chosen) == BABBLE_TALKERS:
                break
    return chosen


def said_text(text: str, voice: str, language: str = "de") -> str:
    """What the voice is asked to say: espeak-ng gets the respellings checked against its own
    phonemes ("Zäsar", "Ro-schade"); Pico reads German as it is spelt, and those respellings
    were never checked against her."""
    return text if voice == PICO_VOICE else speakable(text, language)


def pico_prosody(rate: int, pitch: int) -> tuple[float, float]:
    """espeak-ng's rate (words per minute) and pitch (0-99) as Pico's speed and pitch factors:
    175 words per minute (espeak-ng's default) is Pico's own speed, and the report set's
    pitches 20 to 80 span a factor 0.75 to 1.25 of her voice (lower, within the range where
    she still sounds like a person, down to a man's register)."""
    return rate / 175, 0.75 + (min(max(pitch, 20), 80) - 20) / 120


def synthesize(item: Item, folder: Path) -> Path:
    """espeak-ng → 16 kHz mono WAV (sox resamples; -G avoids clipping, -R makes its dither
    repeatable, so that the same seed gives the same figures); the Pico voice writes 16 kHz
    itself."""
    out = folder / f"{item.ident}.wav"
    if item.voice == PICO_VOICE:
        return _synthesize_pico(item, out)
    raw = folder / f"{item.ident}.raw.wav"
    espeak = ["espeak-ng", "-v", item.voice, "-s", str(item.rate), "-p", str(item.pitch)]
    subprocess.run([*espeak, "-w", str(raw), item.text], check=True, capture_output=True)
    subprocess.run(
        ["sox", "-R", "-G", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(out)],
        check=True,
        capture_output=True,
    )
    raw.unlink()
    return out


_PICO_LOCK = threading.Lock()


def pico_available() -> None:
    """Raises RuntimeError with one sentence when the Pico voice cannot speak here."""
    try:
        import py_nanotts  # noqa: F401
    except ImportError as error:
        raise RuntimeError(
            "the Pico voice needs the py-nanotts package (pip install py-nanotts)"
        ) from error


def synthesize_all(items: Sequence[Item], folder: Path) -> list[Path]:
    """:func:`synthesize` for every item (paths in the same order): espeak-ng two at a time,
    Pico's items one after the other in their order. Pico's output for a text depends on what
    the library said before in the process (measured: the same sentence came out one way for
    the first three calls and another way after), so in the order two threads happened to
    take them the corpus differed from run to run, and so did the figures (session 15: a
    run played one wrong move that the next did not)."""
    pico = {item.ident: synthesize(item, folder) for item in items if item.voice == PICO_VOICE}
    others = [item for item in items if item.voice != PICO_VOICE]
    with ThreadPoolExecutor(max_workers=2) as pool:
        made = dict(
            zip(
                [item.ident for item in others],
                pool.map(lambda item: synthesize(item, folder), others),
                strict=True,
            )
        )
    return [pico.get(item.ident) or made[item.ident] for item in items]


def _synthesize_pico(item: Item, out: Path) -> Path:
    pico_available()
    from py_nanotts import NanoTTS

    speed, pitch = pico_prosody(item.rate, item.pitch)
    with _PICO_LOCK:  # one engine at a time: the C library's state is not known to be shared-safe
        pcm = NanoTTS().speak(item.text, voice="de-DE", speed=speed, pitch=pitch)
    write_wav(out, np.frombuffer(pcm, dtype="<i2"), RATE)
    return out


def room_noise(kind: str, seconds: float, folder: Path, seed: int) -> np.ndarray:
    """Repeatable sox noise (``-R``) at 16 kHz as float samples."""
    path = folder / f"{kind}-{seed}.wav"
    if not path.exists():
        subprocess.run(
            [
                "sox",
                "-R",
                "-n",
                "-r",
                str(RATE),
                "-c",
                "1",
                "-b",
                "16",
                str(path),
                "synth",
                f"{seconds}",
                kind,
                "vol",
                "0.5",
            ],
            check=True,
            capture_output=True,
        )
    return load_for_recognition(path).astype(np.float64) / 32768


def pink_stretch(noise: np.ndarray, length: int, offset: int) -> np.ndarray:
    """``length`` samples of the long ``noise`` clip, from a place chosen by ``offset``."""
    start = offset % max(1, len(noise) - length)
    return rooms.loop_to(noise, length, start)


# -- running --------------------------------------------------------------------------------


@dataclass
class Report:
    tallies: dict[str, Tally]
    """By condition (:data:`CONDITIONS`, then :data:`SPEECH` and :data:`NOISE`), only those run."""
    confusions: Counter[tuple[str, str]]
    by_category: dict[str, Counter[str]]
    """Clean outcomes by kind of move."""
    by_voice: dict[str, dict[str, Counter[str]]]
    """voice → condition → outcomes of its move utterances (the accented voices too)."""
    rss_mb: float
    utterances: int
    generate_s: float
    failures: list[str]
    helper_rss_mb: float = 0.0
    """Peak memory of PocketSphinx's second decoder process (the rival search's other half)."""
    recognizer: str = ""
    """What the recogniser calls itself (:meth:`Recognizer.describe`)."""
    frontend: str = "none"
    """The noise suppressor every utterance went through first (:mod:`benchmarks.frontend`)."""
    frontend_ms: list[float] = field(default_factory=list)
    """Its time per utterance."""
    room: bool = False
    """Moves heard as in a room, through the end-pointer (``--room``)."""
    talk_key: bool = False
    """Moves heard as in a room, recorded through the talk key instead (``--talk-key``)."""


def outcome(
    decision: Decision, move: chess.Move | None, meant: str | None, *, command: str | None = None
) -> str:
    """correct / wrong / choose / rejected; for non-moves: proposed / rejected. When the best
    phrase heard reads as a command (``command``, its name) the game carries that out instead,
    making no move of it, whatever the matcher would rank from its words ("Reihe sieben" is
    not "… sieben"; ``voice.game.session`` reads commands before moves): "request" for one that
    only asks for information (:data:`voice.game.session.REQUESTS`), "command" for one that
    changes the game (a draw, resigning, the arbiter)."""
    if command is not None:
        return "request" if command in REQUESTS else "command"
    if meant is None:
        return "rejected" if decision == Decision.REJECT else "proposed"
    if decision in (Decision.ACCEPT, Decision.CONFIRM):
        return "correct" if move is not None and move.uci() == meant else "wrong"
    return "choose" if decision == Decision.CHOOSE else "rejected"


def _word_confusions(
    said: Phrase, heard: Phrase, kinds: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """Aligned word substitutions (said → heard) by edit distance; missing or extra words pair
    with "-". A substitution between words of different ``kinds`` (a file word for a rank word)
    costs a little more, so that on a tie the table shows the confusion a listener would name."""
    kinds = kinds or {}

    def swap(x: str, y: str) -> float:
        if x == y:
            return 0.0
        return 1.0 if kinds.get(x, x) == kinds.get(y, y) else 1.2

    rows, cols = len(said) + 1, len(heard) + 1
    cost = [[0.0] * cols for _ in range(rows)]
    for i in range(rows):
        cost[i][0] = float(i)
    for j in range(cols):
        cost[0][j] = float(j)
    for i in range(1, rows):
        for j in range(1, cols):
            cost[i][j] = min(
                cost[i - 1][j] + 1,
                cost[i][j - 1] + 1,
                cost[i - 1][j - 1] + swap(said[i - 1], heard[j - 1]),
            )
    pairs = []
    i, j = len(said), len(heard)
    while i > 0 or j > 0:
        if i and j and cost[i][j] == cost[i - 1][j - 1] + swap(said[i - 1], heard[j - 1]):
            if said[i - 1] != heard[j - 1]:
                pairs.append((said[i - 1], heard[j - 1]))
            i, j = i - 1, j - 1
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            pairs.append((said[i - 1], "-"))
            i -= 1
        else:
            pairs.append(("-", heard[j - 1]))
            j -= 1
    return pairs


def word_kinds(vocab: Vocabulary) -> dict[str, str]:
    """file / rank / piece for the move words (for the confusion table)."""
    kinds = {word: "file" for word in vocab.file_words}
    kinds.update({word: "rank" for word in vocab.rank_words})
    kinds.update({word: "piece" for word in PIECE_WORDS.values()})
    return kinds


def run(
    settings: Settings,
    vocab: Vocabulary,
    *,
    count: int,
    seed: int,
    backend: str | None = None,
    model_path: str | None = None,
    keep: Path | None = None,
    progress: Callable[[str], None] = lambda _: None,
    voices: Sequence[str] = VOICES,
    lexicon: Sequence[Path] = (),
    enrol: int = 0,
    learn: int = 0,
    sentences: Sequence[str] = (),
    conditions: Sequence[str] = tuple(SELECTABLE),
    rates: tuple[int, int, int] = RATES,
    pitches: tuple[int, int, int] = PITCHES,
    repeats: int = 3,
    frontend: str = "none",
    room: bool = False,
    talk_key: bool = False,
) -> Report:
    """Generate the corpus, decode every utterance in every condition, tally the outcomes.

    ``conditions`` are names of :data:`SELECTABLE` (default: all); the corpus, and the noise
    and babble drawn for each utterance, are the same whichever are chosen, so the figures of
    a condition do not depend on the others.

    ``sentences``, if given, replace the built-in non-chess sentences (each said once, by the
    voices in turn), so that how often speech becomes a move can be measured on more text;
    otherwise each built-in sentence is said ``repeats`` times.

    ``voices`` says the corpus (:data:`TRAINING_VOICES` to try a change without looking at the
    benchmark's own voices, :data:`REPORT_VOICES` for figures to report, with their wider
    ``rates`` and ``pitches``: see :data:`VOICE_SETS`); ``lexicon`` adds ``.dict`` files of
    candidate pronunciations to the shipped ones (PocketSphinx only). ``enrol`` > 0 first
    enrols every voice (the accented ones too) with that many moves of its own (other
    positions, another seed) and decodes each voice's utterances with its adaptation, as a
    player who ran ``voice-chess enrol``; otherwise no adaptation is used, whatever the
    settings say, so that the figures are those of the recogniser as shipped. ``learn`` > 0
    instead has every voice first play that many moves of its own with the recogniser as
    shipped, and learns from the moves that would have been played, with the words they were
    heard as (wrong ones included), as after a game (:mod:`voice.speech.learning`).

    ``frontend`` names a noise suppressor (:data:`benchmarks.frontend.KINDS`) that every decoded
    utterance (moves in every condition, sentences, noise) goes through before the recogniser.

    ``room``: every move (clean, in noise, in the hall, accented) is heard as in a room, through
    the program's end-pointer: :func:`benchmarks.rooms.in_room` puts the noise 5 s before the
    words and 1.5 s after them, :func:`benchmarks.rooms.endpoint` cuts the utterance; a move it
    never delivers counts as rejected (and "unheard"). ``talk_key``: as ``room``, but every move
    is what the talk key records from one press to the next (:func:`benchmarks.rooms.talk_key`),
    nothing cut by the end-pointer."""
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        raise RuntimeError("the benchmark needs espeak-ng and sox (apt-get install espeak-ng sox)")
    if PICO_VOICE in voices:
        pico_available()
    unknown = [name for name in conditions if name not in SELECTABLE]
    if unknown or not conditions:
        raise RuntimeError(f"unknown conditions {unknown}: choose from {', '.join(SELECTABLE)}")
    folder = Path(tempfile.mkdtemp(prefix="voice-chess-bench-")) if keep is None else keep
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return _run(
            settings,
            vocab,
            count,
            seed,
            backend,
            model_path,
            folder,
            progress,
            voices,
            lexicon,
            enrol,
            learn,
            sentences,
            frozenset(conditions),
            rates,
            pitches,
            repeats,
            frontend,
            room or talk_key,
            talk_key,
        )
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)


ADAPTS_SPHINX = (
    "--enrol and --learn adapt PocketSphinx: alone (--backend sphinx) or as Whisper's second "
    "opinion ([speech] second_opinion = true)"
)


def _language(voice: str) -> str:
    """The language whose respellings a voice reads: an accent's own, else German."""
    base = voice.split("+")[0]
    return base if base in ACCENTS else "de"


def _run(
    settings: Settings,
    vocab: Vocabulary,
    count: int,
    seed: int,
    backend: str | None,
    model_path: str | None,
    folder: Path,
    progress: Callable[[str], None],
    voices: Sequence[str],
    lexicon: Sequence[Path],
    enrol: int,
    learn: int,
    sentences: Sequence[str],
    chosen: frozenset[str],
    rates: tuple[int, int, int],
    pitches: tuple[int, int, int],
    repeats: int,
    frontend: str,
    room: bool = False,
    talk_key: bool = False,
) -> Report:
    # First, so that a missing model or a bad lexicon file is reported before the corpus is made.
    shipped = settings.model_copy(
        update={"speech": settings.speech.model_copy(update={"adaptation": "off"})}
    )
    if (enrol or learn) and (backend or settings.speech.recognizer) == "vosk":
        raise RuntimeError(ADAPTS_SPHINX)
    if enrol and learn:
        raise RuntimeError("--enrol or --learn, not both")
    if frontend != "none" and (enrol or learn):
        raise RuntimeError("--frontend is measured without --enrol and --learn")
    try:
        suppress(np.zeros(RATE // 10, dtype=np.int16), frontend)  # its package is there
    except ValueError as error:
        raise RuntimeError(str(error)) from error
    words = _lexicon(lexicon) if lexicon else None
    recognizer = _recognizer(shipped, vocab, backend, model_path, words)
    if (enrol or learn) and pocketsphinx_in(recognizer) is None:
        close_recognizer(recognizer)
        raise RuntimeError(ADAPTS_SPHINX)
    started = time.perf_counter()
    moves = make_items(count, vocab, seed, voices=voices, rates=rates, pitches=pitches)
    fens = [m.fen for m in moves] or [chess.STARTING_FEN]
    others: list[Item] = []
    if "non-chess" in chosen:
        if sentences:
            others = non_chess_items(seed, fens, 1, voices, sentences, rates=rates, pitches=pitches)
        else:
            others = non_chess_items(seed, fens, repeats, voices, rates=rates, pitches=pitches)
    accented = accented_items(moves, vocab) if "accented" in chosen else []
    bank = babble_bank(seed, vocab, voices, rates, pitches)
    babbling = any(name.startswith("babble") for name in chosen)
    talkers = bank if babbling else []
    spoken = [*moves, *others, *accented, *talkers]
    progress(f"synthesizing {len(spoken)} utterances ...")
    paths = dict(zip([item.ident for item in spoken], synthesize_all(spoken, folder), strict=True))
    talker_audio = {item.ident: load_for_recognition(paths[item.ident]) for item in talkers}
    noise = room_noise("pinknoise", 60.0, folder, seed)
    rng = np.random.default_rng(seed)
    babble_rng = random.Random(seed + 2)
    speakers = [*voices, *(ACCENTS if accented else ())]
    enrolled: dict[str, Path] = {}
    if enrol or learn:
        words = words or Lexicon.load()
        player = (recognizer, settings) if learn else None
        enrolled = _enrol_voices(
            vocab, speakers, enrol or learn, seed, folder, progress, words, played_by=player
        )
    listener, listening_to = recognizer, ""  # with --enrol: whose adapted recogniser is loaded
    generate_s = time.perf_counter() - started
    _warm(listener)
    helper_mb = 0.0  # the peak of the recognisers' second decoder processes

    names = [c for c in CONDITIONS if c in chosen]
    names += [SELECTABLE[c] for c in ("non-chess", "noise") if c in chosen]
    tallies = {name: Tally() for name in names}
    confusions: Counter[tuple[str, str]] = Counter()
    by_category: dict[str, Counter[str]] = {c: Counter() for c in CATEGORIES}
    by_voice: dict[str, dict[str, Counter[str]]] = {
        v: {c: Counter() for c in CONDITIONS if c in chosen} for v in speakers
    }
    failures: list[str] = []
    contexts: dict[str, frozenset[Phrase]] = {}
    table: tuple[str, PhraseTable] | None = None  # the last position's (kept: it is large)
    kinds = word_kinds(vocab)
    frontend_ms: list[float] = []

    def context_of(fen: str) -> frozenset[Phrase]:
        if fen not in contexts:
            contexts[fen] = position_phrases(chess.Board(fen), vocab)
        return contexts[fen]

    def moves_of(fen: str) -> NamedMoves:
        return phrase_table(chess.Board(fen), vocab).named_moves()

    def decode(
        item: Item, audio: np.ndarray | None, condition: str, snr: float | None = None
    ) -> None:
        if audio is None:  # --room: the end-pointer never delivered the words
            tallies[condition].outcomes["rejected"] += 1
            tallies[condition].unheard += 1
            by_voice[item.voice][condition]["rejected"] += 1
            if condition == "clean":
                by_category[item.category]["rejected"] += 1
            failures.append(
                f"{condition:9s} unheard  {item.voice:10s} said {' '.join(item.phrase)!r}"
            )
            return
        board = chess.Board(item.fen)
        listener.set_context(context_of(item.fen), moves_of(item.fen))
        cleaning = time.perf_counter()
        audio = suppress(audio, frontend)
        if frontend != "none":
            frontend_ms.append(1000 * (time.perf_counter() - cleaning))
        transcript = listener.recognize(audio, RATE)
        result = match_move(board, hypotheses(transcript, vocab), vocab, settings.matching)
        asked = read_command(vocab.normalize(transcript.best), vocab) if transcript.nbest else None
        result_outcome = outcome(
            result.decision, result.move, item.move, command=asked.name if asked else None
        )
        tally = tallies[condition]
        tally.outcomes[result_outcome] += 1
        tally.decode_ms.append(transcript.decode_ms)
        if snr is not None:
            tally.speech_snr.append(snr)
        if result.decision == Decision.ACCEPT and result_outcome in ("wrong", "proposed"):
            tally.played += 1
        if result.decision == Decision.ACCEPT and result_outcome == "correct":
            tally.at_once += 1
        if result_outcome == "choose" and any(c.move.uci() == item.move for c in result.candidates):
            tally.choose_right += 1
        if not transcript.nbest and guess_refusal(
            board, free_guess(transcript), vocab, settings.matching
        ):
            tally.told_illegal += 1
            failures.append(
                f"{condition:9s} told     {item.voice:10s} said {item.text!r}: the guess "
                f"{free_guess(transcript)!r} explained as an illegal move"
            )
        if item.move is not None:
            nonlocal table
            if table is None or table[0] != item.fen:
                table = (item.fen, phrase_table(board, vocab))
            move = table[1].move_named(vocab.normalize(transcript.best))
            tally.first += move is not None and move.uci() == item.move
            by_voice[item.voice][condition][result_outcome] += 1
        if item.move is not None and condition == "clean":
            by_category[item.category][result_outcome] += 1
        if item.move is not None and result_outcome != "correct":
            heard = vocab.normalize(transcript.best) or vocab.normalize(transcript.partial)
            confusions.update(_word_confusions(item.phrase, heard, kinds))
            played = " PLAYED" if result.decision == Decision.ACCEPT else ""
            failures.append(
                f"{condition:9s} {result_outcome:8s} {item.voice:10s} said "
                f"{' '.join(item.phrase)!r} heard {transcript.best or transcript.partial!r}"
                f"{' (' + transcript.reason + ')' if transcript.reason else ''}"
                f"{played if result_outcome == 'wrong' else ''}"
            )
        elif item.move is None and result_outcome in ("proposed", "request", "command"):
            failures.append(
                f"{condition:9s} {result_outcome} {item.text!r} heard {transcript.best!r}"
            )

    # The work in corpus order (so that the noise drawn for each utterance does not depend on
    # --enrol); with --enrol it is done voice by voice, one adapted recogniser at a time.
    work: list[tuple[str, Callable[[], None]]] = []

    def move_work(
        item: Item, path: Path, offset: int, plan: list[Item], starts: list[int]
    ) -> Callable[[], None]:
        def run() -> None:
            if room:
                in_a_room(item, path, offset, plan, starts)
                return
            clean = rooms.pad(load_for_recognition(path))
            if "clean" in chosen:
                decode(item, clean, "clean")
            for condition, (kind, snr_db) in NOISE_SNR.items():
                if condition not in chosen:
                    continue
                if kind == "pink":
                    stretch = pink_stretch(noise, len(clean), offset)
                else:
                    voices_heard = [talker_audio[t.ident] for t in plan]
                    stretch = rooms.babble(voices_heard, len(clean), starts)
                added = rooms.scaled_noise(clean, stretch, snr_db)
                snr = rooms.speech_snr_db(clean, added)
                decode(item, rooms.mix(clean, added), condition, snr)
            if "hall" in chosen:
                decode(item, rooms.hall(path, folder), "hall")

        return run

    def in_a_room(item: Item, path: Path, offset: int, plan: list[Item], starts: list[int]) -> None:
        """--room: each condition as a room makes it, cut by the end-pointer (or recorded
        through the talk key: --talk-key)."""
        words = load_for_recognition(path)
        complete = completion_check(listener, context_of(item.fen), moves_of(item.fen))
        for condition in ("clean", *NOISE_SNR):
            if condition not in chosen:
                continue
            kind, snr_db = NOISE_SNR.get(condition, ("", None))
            if kind == "babble":
                voices_heard = [talker_audio[t.ident] for t in plan]
                fill = partial(rooms.babble, voices_heard, starts=starts)
            else:
                fill = partial(pink_stretch, noise, offset=offset)
            pressed = presses(item, condition)
            cut = rooms.heard_in_room(words, snr_db, fill, listener.pre_roll_s, complete, pressed)
            decode(item, cut, condition)
        if "hall" in chosen:
            pause = np.zeros(int(rooms.ROOM_PAUSE_S * RATE), dtype=np.int16)
            sound = np.concatenate([rooms.hall(path, folder), pause])
            first, last = rooms.words_span(words)
            span = ((first / RATE) + rooms.PAD_S, (last / RATE) + rooms.PAD_S)
            pressed = presses(item, "hall")
            cut = rooms.heard(sound, *span, listener.pre_roll_s, complete, pressed)
            decode(item, cut, "hall")

    def presses(item: Item, condition: str) -> random.Random | None:
        """With --talk-key, when the talk key is pressed around ``item`` in ``condition``: the
        same draws whichever conditions are chosen."""
        return random.Random(f"{seed}-{item.ident}-{condition}") if talk_key else None

    def accented_work(item: Item, path: Path) -> Callable[[], None]:
        if not room:
            return padded_work(item, path, "accented")

        def run() -> None:
            words = load_for_recognition(path)
            complete = completion_check(listener, context_of(item.fen), moves_of(item.fen))
            pressed = presses(item, "accented")
            cut = rooms.heard_in_room(words, None, np.zeros, listener.pre_roll_s, complete, pressed)
            decode(item, cut, "accented")

        return run

    def padded_work(item: Item, path: Path, condition: str) -> Callable[[], None]:
        # Read when decoded: a long --sentences file held in memory at once would swell the
        # peak memory the benchmark reports.
        return lambda: decode(item, rooms.pad(load_for_recognition(path)), condition)

    for item in moves:
        # Drawn for every move whatever the conditions, so that each draws the same noise.
        offset = int(rng.integers(0, 10**9))
        plan = babble_plan(item, bank, babble_rng)
        starts = [babble_rng.randrange(RATE * 4) for _ in plan]
        job = move_work(item, paths[item.ident], offset, plan, starts)
        work.append((item.voice, job))
    for item in accented:
        work.append((item.voice, accented_work(item, paths[item.ident])))
    for item in others:
        work.append((item.voice, padded_work(item, paths[item.ident], SPEECH)))
    for index in range(max(10, count // 10)):
        kind = NOISES[index % len(NOISES)]
        length = int(RATE * (1.0 + (index % 5) * 0.5))
        start = int(rng.integers(0, RATE * 60 - length))
        if NOISE not in names:
            continue
        clip = room_noise(kind, 60.0, folder, seed + index)
        level = 0.05 + 0.9 * (index % 7) / 6
        audio = to_int16(clip[start : start + length] * level)
        fen = moves[index % len(moves)].fen if moves else chess.STARTING_FEN
        voice = voices[index % len(voices)]  # whose adapted recogniser hears it, with --enrol
        item = Item(f"noise{index:03d}", fen, None, (), kind, voice, 0, 0, "noise")
        work.append((voice, partial(decode, item, audio, NOISE)))
    if enrolled:
        work.sort(key=lambda job: speakers.index(job[0]))
    progress(f"decoding {len(moves)} moves in {len(names)} conditions ...")
    for voice, job in work:
        if enrolled and listening_to != voice:
            if listener is not recognizer:
                helper_mb = max(helper_mb, _close(listener))
            adapted = enrolled.get(voice)  # None: too little was played to learn from
            listener = recognizer
            if adapted is not None:
                listener = _adapted(recognizer, settings, vocab, adapted, words)
            listening_to = voice
            _warm(listener)
        job()
    helper_mb = max(helper_mb, _close(listener), _close(recognizer))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    utterances = sum(t.count for t in tallies.values())
    return Report(
        tallies,
        confusions,
        by_category,
        by_voice,
        rss_mb,
        utterances,
        generate_s,
        failures,
        helper_mb,
        recognizer.describe(),
        frontend,
        frontend_ms,
        room,
        talk_key,
    )


def completion_check(
    recognizer: Recognizer, context: frozenset[Phrase], moves: NamedMoves | None = None
) -> Callable[[np.ndarray], bool]:
    """The program's completion check (``SpeechInput._complete``) for the end-pointer of
    ``--room``: the words so far, decoded in ``context``, make a whole phrase."""

    def complete(audio: np.ndarray) -> bool:
        recognizer.set_context(context, moves)
        transcript = recognizer.recognize(audio, RATE)
        return bool(transcript.complete and transcript.nbest)

    return complete


def _enrol_voices(
    vocab: Vocabulary,
    voices: Sequence[str],
    count: int,
    seed: int,
    folder: Path,
    progress: Callable[[str], None],
    words: Lexicon,
    played_by: tuple[Recognizer, Settings] | None = None,
) -> dict[str, Path]:
    """Each voice enrolled with ``count`` moves of its own (another seed, so other positions and
    phrases than the corpus): the path of its adaptation. With ``played_by`` (the recogniser as
    shipped, the settings), only the moves a game would have played are learnt, with the words
    they were heard as; a voice with too little of that gets no adaptation."""
    from voice.speech.recognizers.adaptation import Sample, TooLittleSpeech, estimate

    how = "playing" if played_by else "enrolling"
    progress(f"{how} {len(voices)} voices with {count} moves each ...")
    adapted: dict[str, Path] = {}
    for number, voice in enumerate(voices):
        items = [
            replace(item, ident=f"enrol{number:02d}-{item.ident}")
            for item in make_items(
                count, vocab, seed + 7919 + number, language=_language(voice), voices=[voice]
            )
        ]
        paths = synthesize_all(items, folder)
        samples = [
            Sample(load_for_recognition(path), item.phrase)
            for item, path in zip(items, paths, strict=True)
        ]
        if played_by is not None:
            samples = _played(samples, items, vocab, *played_by)
        path = folder / f"voice-{number:02d}.mllr"
        try:
            estimate(samples, vocab, lexicon=words).save(path)
        except TooLittleSpeech:
            continue
        adapted[voice] = path
    return adapted


def _played(
    samples: Sequence[Sample],
    items: Sequence[Item],
    vocab: Vocabulary,
    recognizer: Recognizer,
    settings: Settings,
) -> list[Sample]:
    """What a game keeps of these utterances (:mod:`voice.speech.learning`): a move accepted or
    asked back is played, right or wrong, with the words it was heard as; from a choice the
    player picks the right move if offered; a rejected one is said again (not simulated)."""
    from voice.speech.recognizers.adaptation import Sample

    kept = []
    for sample, item in zip(samples, items, strict=True):
        board = chess.Board(item.fen)
        moves = phrase_table(board, vocab).named_moves()
        recognizer.set_context(position_phrases(board, vocab), moves)
        transcript = recognizer.recognize(sample.pcm, RATE)
        result = match_move(board, hypotheses(transcript, vocab), vocab, settings.matching)
        if result.decision in (Decision.ACCEPT, Decision.CONFIRM) and result.heard:
            kept.append(Sample(sample.pcm, result.heard))
        elif result.decision == Decision.CHOOSE:
            right = [c for c in result.candidates if c.move.uci() == item.move]
            if right:
                kept.append(Sample(sample.pcm, right[0].phrase))
    return kept


def _warm(recognizer: Recognizer) -> None:
    """Let PocketSphinx's second decoder process start before the clock runs, as it has in a
    game by the time the first move is said."""
    sphinx = pocketsphinx_in(recognizer)
    if sphinx is not None:
        sphinx.wait_for_second_decoder()


def _close(recognizer: Recognizer) -> float:
    """Stop a recogniser's second decoder process; its peak memory in MB (0 without one)."""
    sphinx = pocketsphinx_in(recognizer)
    if sphinx is None:
        return 0.0
    peak = sphinx.second_process_memory_mb()
    sphinx.close()
    return peak


def _adapted(
    shipped: Recognizer, settings: Settings, vocab: Vocabulary, path: Path, words: Lexicon | None
) -> Recognizer:
    """``shipped`` with its PocketSphinx adapted to one voice (``path``): PocketSphinx alone,
    or Whisper (the same, shared) with the adapted PocketSphinx as its second opinion."""
    from voice.speech.recognizers.second_opinion import SecondOpinion
    from voice.speech.recognizers.sphinx import SphinxRecognizer

    sphinx = SphinxRecognizer(vocab, nbest=settings.speech.nbest, lexicon=words, adaptation=path)
    return shipped.with_second(sphinx) if isinstance(shipped, SecondOpinion) else sphinx


def _lexicon(extra: Sequence[Path]) -> Lexicon:
    """The shipped lexicon, plus ``extra`` .dict files of candidate pronunciations."""
    return Lexicon.load([*sorted(lexicon_dir().glob("*.dict")), *extra])


def _recognizer(
    settings: Settings,
    vocab: Vocabulary,
    backend: str | None,
    model_path: str | None,
    words: Lexicon | None,
) -> Recognizer:
    """The configured recogniser; with ``words`` (the shipped lexicon plus candidate
    pronunciations to try), PocketSphinx with those."""
    if words is None:
        return make_recognizer(settings, vocab, backend=backend, model_path=model_path)
    if (backend or settings.speech.recognizer) != "sphinx":
        raise RuntimeError(
            "--lexicon only applies to the PocketSphinx recogniser (--backend sphinx)"
        )
    from voice.speech.recognizers.sphinx import SphinxRecognizer

    return SphinxRecognizer(vocab, nbest=settings.speech.nbest, lexicon=words)


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else 0.0


@dataclass(frozen=True)
class Target:
    """One aim, what was measured against it, and whether it was met."""

    aim: str
    measured: str
    met: bool
    value: float


def targets(report: Report) -> list[Target]:
    """The :data:`TARGETS` and the aims on wrong and false moves, for the conditions run."""
    found = []
    for name, aim in TARGETS.items():
        tally = report.tallies.get(name)
        if tally is not None and tally.count:
            value = tally.share("correct")
            found.append(
                Target(f"{name}: right move ≥ {aim:g}%", f"{value:.1f}%", value >= aim, value)
            )
    moves = [(name, t) for name, t in report.tallies.items() if name in CONDITIONS and t.count]
    if moves:
        worst_name, worst = max(moves, key=lambda pair: pair[1].wrong)
        value = worst.wrong
        found.append(
            Target(
                f"wrong move proposed ≤ {WRONG_TARGET:g}%, every condition",
                f"{value:.1f}% (worst: {worst_name})",
                value <= WRONG_TARGET,
                value,
            )
        )
        played = sum(t.played for _, t in moves)
        where = ", ".join(f"{name} {t.played}" for name, t in moves if t.played)
        found.append(
            Target(
                f"wrong move played without a question = {PLAYED_TARGET}",
                f"{played}" + (f" ({where})" if where else ""),
                played <= PLAYED_TARGET,
                float(played),
            )
        )
    speech = report.tallies.get(SPEECH)
    if speech is not None and speech.count:
        value = speech.proposed
        found.append(
            Target(
                f"non-chess speech → a move ≤ {NON_CHESS_TARGET:g}%",
                f"{value:.1f}%",
                value <= NON_CHESS_TARGET,
                value,
            )
        )
    return found


VOICE_COLUMNS: tuple[str, ...] = ("clean", "pink10", "accented")
"""The conditions of the by-voice table."""


def format_report(
    report: Report,
    *,
    backend: str,
    seed: int,
    failures: int = 0,
    voices: str = "benchmark",
    enrol: int = 0,
    learn: int = 0,
) -> str:
    """The figures as the README describes them, each aim beside its figure."""
    enrolled = f" enrolled with {enrol} moves each" if enrol else ""
    if learn:
        enrolled = f" learnt from {learn} moves played each"
    lines = [
        f"ASR benchmark: backend {backend}"
        + (f" ({report.recognizer})" if report.recognizer else "")
        + f", front end {report.frontend}"
        + (
            f" ({statistics.median(report.frontend_ms):.0f} ms an utterance)"
            if report.frontend_ms
            else ""
        )
        + f", seed {seed}, {voices} voices{enrolled}, "
        f"{report.utterances} decodes (corpus made in {report.generate_s:.1f} s)",
        "",
        f"{'condition':16s} {'n':>4s} {'correct':>8s} {'at once':>8s} {'wrong':>7s} {'played':>7s} "
        f"{'choose':>7s} {'(right)':>8s} {'rejected':>9s} {'p50 ms':>7s} {'p95 ms':>7s} "
        f"{'SNR sp.':>8s} {'heard first':>12s}",
    ]
    for name, tally in report.tallies.items():
        if not tally.count:
            continue
        p50 = statistics.median(tally.decode_ms) if tally.decode_ms else 0.0
        p95 = _percentile(tally.decode_ms, 95) if tally.decode_ms else 0.0
        if name in CONDITIONS:
            snr = f"{statistics.median(tally.speech_snr):.1f} dB" if tally.speech_snr else "-"
            lines.append(
                f"{name:16s} {tally.count:4d} {tally.share('correct'):7.1f}% "
                f"{tally.percent(tally.at_once):7.1f}% "
                f"{tally.wrong:6.1f}% {tally.percent(tally.played):6.1f}% "
                f"{tally.share('choose'):6.1f}% {tally.percent(tally.choose_right):7.1f}% "
                f"{tally.share('rejected') + tally.share('request'):8.1f}% "
                f"{p50:7.0f} {p95:7.0f} {snr:>8s} "
                f"{100.0 * tally.first / tally.count:11.1f}%"
            )
        else:
            lines.append(
                f"{name:16s} {tally.count:4d} {'proposed a move':>15s} "
                f"{tally.proposed:6.1f}%, played {tally.percent(tally.played):5.1f}%"
                f", a request {tally.share('request'):4.1f}% {p50:7.0f} {p95:7.0f}"
            )
    lines += [
        "",
        "correct: the right move accepted or asked back · at once: accepted without a question",
        "(part of correct) · wrong: another move accepted or asked back · played: another move",
        "accepted without a question (part of wrong) · choose: moves",
        "offered by number, (right): the right one among them · SNR sp.: median signal-to-noise",
        "ratio over the speech frames alone (the names give it over the whole recording)",
        "explained as an illegal move nobody said (a refused utterance's free guess, part of "
        "rejected): "
        + ", ".join(f"{name} {tally.told_illegal}" for name, tally in report.tallies.items()),
        "heard as a request for information (part of rejected: answered, no move): "
        + ", ".join(
            f"{name} {tally.outcomes['request']}" for name, tally in report.tallies.items()
        ),
        "heard as a command that changes the game, a draw, resigning, the arbiter (part of wrong;",
        "for what is not a move, of proposed): "
        + ", ".join(
            f"{name} {tally.outcomes['command']}" for name, tally in report.tallies.items()
        ),
    ]
    if report.talk_key:
        lines += [
            "moves heard as in a room through the talk key (--talk-key): noise 5 s before the",
            "words and 1.5 s after; the recording runs from the first press (0.3-1 s before",
            "the words) to the second (0.3-1 s after), nothing cut by the end-pointer",
        ]
    elif report.room:
        unheard = ", ".join(
            f"{name} {tally.unheard}"
            for name, tally in report.tallies.items()
            if name in CONDITIONS
        )
        lines += [
            "moves heard as in a room (--room): noise 5 s before the words and 1.5 s after, the",
            f"end-pointer cuts them; never delivered (part of rejected): {unheard}",
            "decode times near 0: the answer was ready from the completion check at the pause",
            "(the wait a player hears: python -m benchmarks latency)",
        ]
    found = targets(report)
    if found:
        lines += ["", f"{'targets':48s} measured"]
        lines += [f"  {t.aim:46s} {t.measured:30s} {'met' if t.met else 'NOT met'}" for t in found]
    all_ms = [ms for tally in report.tallies.values() for ms in tally.decode_ms]
    lines += [
        "",
        f"decode time over all: median {statistics.median(all_ms):.0f} ms, "
        f"p95 {_percentile(all_ms, 95):.0f} ms; peak resident memory {report.rss_mb:.0f} MB"
        + (
            f" (second decoder process: {report.helper_rss_mb:.0f} MB)"
            if report.helper_rss_mb
            else ""
        ),
    ]
    if any(report.by_category.values()):
        lines += [
            "",
            "clean, by kind of move (correct/total): "
            + ", ".join(
                f"{kind} {counts['correct']}/{sum(counts.values())}"
                for kind, counts in report.by_category.items()
                if counts
            ),
        ]
    lines += _voice_table(report)
    if report.confusions:
        lines += ["", "most frequent word confusions (said → heard, '-' = missing/extra):"]
        lines += [
            f"  {said:>12s} → {heard:<12s} {times:4d}"
            for (said, heard), times in report.confusions.most_common(15)
        ]
    if failures and report.failures:
        lines += ["", f"first {failures} failures:"]
        lines += [f"  {line}" for line in report.failures[:failures]]
    return "\n".join(lines)


def _voice_table(report: Report) -> list[str]:
    """correct / wrong per voice in the :data:`VOICE_COLUMNS` conditions that were run."""
    columns = [c for c in VOICE_COLUMNS if c in report.tallies]
    rows = []
    for voice, by_condition in report.by_voice.items():
        cells = []
        for condition in columns:
            counts = by_condition.get(condition, Counter())
            total = sum(counts.values())
            right, wrong = (100 * counts[k] / max(total, 1) for k in ("correct", "wrong"))
            cells.append(f"{right:5.1f}% / {wrong:4.1f}% of {total:3d}" if total else "")
        if any(cells):
            rows.append(f"  {voice:12s} " + " ".join(f"{cell:22s}" for cell in cells).rstrip())
    if not rows:
        return []
    heading = f"  {'voice':12s} " + " ".join(f"{c:22s}" for c in columns)
    return ["", "by voice: correct / wrong of n utterances", heading.rstrip(), *rows]


def figures(
    report: Report, *, backend: str, seed: int, voices: str = "benchmark"
) -> dict[str, object]:
    """Every figure of the report, for ``--json``: shares in percent, times in ms. Each
    outcome is its own share here; the printed table adds "request" into rejected and
    "command" into wrong (for small talk: into proposed)."""
    conditions: dict[str, object] = {}
    for name, tally in report.tallies.items():
        conditions[name] = {
            "n": tally.count,
            **{
                key: round(tally.share(key), 2)
                for key in (
                    "correct",
                    "wrong",
                    "choose",
                    "rejected",
                    "proposed",
                    "request",
                    "command",
                )
            },
            "played_without_question": round(tally.percent(tally.played), 2),
            "right_at_once": round(tally.percent(tally.at_once), 2),
            "played_without_question_count": tally.played,
            "choose_with_right_move": round(tally.percent(tally.choose_right), 2),
            "heard_first": round(tally.percent(tally.first), 2),
            "decode_ms_median": round(statistics.median(tally.decode_ms), 1)
            if tally.decode_ms
            else 0.0,
            "decode_ms_p95": round(_percentile(tally.decode_ms, 95), 1) if tally.decode_ms else 0.0,
            "unheard": tally.unheard,
            "told_illegal_count": tally.told_illegal,
            "speech_frame_snr_db_median": round(statistics.median(tally.speech_snr), 2)
            if tally.speech_snr
            else None,
        }
    return {
        "backend": backend,
        "recognizer": report.recognizer,
        "frontend": report.frontend,
        "room": report.room,
        "talk_key": report.talk_key,
        "frontend_ms_median": round(statistics.median(report.frontend_ms), 1)
        if report.frontend_ms
        else 0.0,
        "frontend_ms_p95": round(_percentile(report.frontend_ms, 95), 1),
        "seed": seed,
        "voices": voices,
        "decodes": report.utterances,
        "generate_s": round(report.generate_s, 1),
        "conditions": conditions,
        "targets": [
            {"aim": t.aim, "measured": t.measured, "value": round(t.value, 2), "met": t.met}
            for t in targets(report)
        ],
        "by_voice": {
            voice: {condition: dict(counts) for condition, counts in by_condition.items() if counts}
            for voice, by_condition in report.by_voice.items()
        },
        "by_category_clean": {k: dict(v) for k, v in report.by_category.items() if v},
        "confusions": [
            {"said": said, "heard": heard, "times": times}
            for (said, heard), times in report.confusions.most_common(30)
        ],
        "rss_mb": round(report.rss_mb, 1),
        "helper_rss_mb": round(report.helper_rss_mb, 1),
    }
