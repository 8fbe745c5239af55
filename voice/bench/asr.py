"""Recognition benchmark: synthesized German moves, sentences and noise through the recogniser.

The corpus is made on the spot (nothing generated is kept in git): positions from random legal
games with a fixed seed, one legal move per utterance chosen so that captures, promotions, en
passant, castling and disambiguated moves all occur, said in one of its accepted spoken forms by
one of several espeak-ng German voices at varied rate and pitch. Each utterance is decoded clean,
with pink noise at 10 dB SNR and with reverberation. German sentences that are not chess (each
said three times, by different voices in different positions) and noise alone measure how
often something that is not a move becomes one.

An utterance counts as **correct** when the matcher accepts or asks to confirm the right move,
**wrong** when it accepts or confirms another move, **choose** when it offers several moves (the
player picks one by number), and **rejected** when it proposes nothing.
"""

from __future__ import annotations

import random
import resource
import shutil
import statistics
import subprocess
import tempfile
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

from voice.config import Settings
from voice.matcher import Decision, match_move
from voice.phrases import PhraseTable, phrase_table, speakable, spoken_forms
from voice.recognizers import Recognizer, hypotheses, make_recognizer
from voice.recognizers.grammar import TRAILING_WORDS, position_phrases
from voice.recognizers.lexicon import Lexicon, lexicon_dir
from voice.vocabulary import PIECE_WORDS, Phrase, Vocabulary
from voice.wavio import RATE, load_for_recognition, mix_at_snr, to_int16

if TYPE_CHECKING:
    from voice.recognizers.adaptation import Sample

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

CONDITIONS: tuple[str, ...] = ("clean", "noise10db", "reverb")

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

    @property
    def count(self) -> int:
        return sum(self.outcomes.values())

    def share(self, outcome: str) -> float:
        return 100.0 * self.outcomes[outcome] / max(self.count, 1)


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
) -> list[Item]:
    """``count`` move utterances: each special category gets at least a tenth of them."""
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
        items.append(
            Item(
                ident=f"move{index:04d}",
                fen=fen,
                move=uci,
                phrase=phrase,
                text=speakable(vocab.display(phrase), language),
                voice=rng.choice(list(voices)),
                rate=rng.randrange(130, 191, 10),
                pitch=rng.randrange(30, 71, 5),
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
                    rng.randrange(130, 191, 10),
                    rng.randrange(30, 71, 5),
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


def _synthesize(item: Item, folder: Path) -> Path:
    """espeak-ng → 16 kHz mono WAV (sox resamples; -G avoids clipping, -R makes its dither
    repeatable, so that the same seed gives the same figures)."""
    raw = folder / f"{item.ident}.raw.wav"
    out = folder / f"{item.ident}.wav"
    espeak = ["espeak-ng", "-v", item.voice, "-s", str(item.rate), "-p", str(item.pitch)]
    subprocess.run([*espeak, "-w", str(raw), item.text], check=True, capture_output=True)
    subprocess.run(
        ["sox", "-R", "-G", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(out)],
        check=True,
        capture_output=True,
    )
    raw.unlink()
    return out


def _noise(kind: str, seconds: float, folder: Path, seed: int) -> np.ndarray:
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


def with_noise(clean: np.ndarray, noise: np.ndarray, snr_db: float, offset: int) -> np.ndarray:
    """``clean`` (int16) plus a stretch of ``noise`` scaled to ``snr_db`` below the speech RMS."""
    start = offset % max(1, len(noise) - len(clean))
    return mix_at_snr(clean, noise[start : start + len(clean)], snr_db)


def with_reverb(path: Path, folder: Path) -> np.ndarray:
    out = folder / f"{path.stem}.reverb.wav"
    subprocess.run(
        [
            "sox",
            "-R",
            "-G",
            str(path),
            str(out),
            "pad",
            "0",
            "0.8",
            "reverb",
            "80",
            "30",
            "100",
            "100",
            "20",
            "0",
        ],
        check=True,
        capture_output=True,
    )
    return load_for_recognition(out)


# -- running --------------------------------------------------------------------------------


@dataclass
class Report:
    tallies: dict[str, Tally]
    confusions: Counter[tuple[str, str]]
    by_category: dict[str, Counter[str]]
    by_voice: dict[str, Counter[str]]
    rss_mb: float
    utterances: int
    generate_s: float
    failures: list[str]
    helper_rss_mb: float = 0.0
    """Peak memory of PocketSphinx's second decoder process (the rival search's other half)."""


def outcome(decision: Decision, move: chess.Move | None, meant: str | None) -> str:
    """correct / wrong / choose / rejected; for non-moves: proposed / rejected."""
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
) -> Report:
    """Generate the corpus, decode every utterance in every condition, tally the outcomes.

    ``sentences``, if given, replace the built-in non-chess sentences (each said once, by the
    voices in turn), so that how often speech becomes a move can be measured on more text.

    ``voices`` says the corpus (:data:`TRAINING_VOICES` to try a change without looking at the
    benchmark's own voices); ``lexicon`` adds ``.dict`` files of candidate pronunciations to the
    shipped ones (PocketSphinx only). ``enrol`` > 0 first enrols every voice with that many
    moves of its own (other positions, another seed) and decodes each voice's utterances with
    its adaptation, as a player who ran ``voice-chess enrol``; otherwise no adaptation is used,
    whatever the settings say, so that the figures are those of the recogniser as shipped.
    ``learn`` > 0 instead has every voice first play that many moves of its own with the
    recogniser as shipped, and learns from the moves that would have been played, with the words
    they were heard as (wrong ones included), as after a game (:mod:`voice.learning`)."""
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        raise RuntimeError("the benchmark needs espeak-ng and sox (apt-get install espeak-ng sox)")
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
        )
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def _run(
    settings: Settings,
    vocab: Vocabulary,
    count: int,
    seed: int,
    backend: str | None,
    model_path: str | None,
    folder: Path,
    progress: Callable[[str], None],
    voices: Sequence[str] = VOICES,
    lexicon: Sequence[Path] = (),
    enrol: int = 0,
    learn: int = 0,
    sentences: Sequence[str] = (),
) -> Report:
    # First, so that a missing model or a bad lexicon file is reported before the corpus is made.
    shipped = settings.model_copy(
        update={"speech": settings.speech.model_copy(update={"adaptation": "off"})}
    )
    if (enrol or learn) and (backend or settings.speech.recognizer) != "sphinx":
        raise RuntimeError("--enrol and --learn only apply to the PocketSphinx recogniser")
    if enrol and learn:
        raise RuntimeError("--enrol or --learn, not both")
    words = _lexicon(lexicon) if lexicon else None
    recognizer = _recognizer(shipped, vocab, backend, model_path, words)
    started = time.perf_counter()
    moves = make_items(count, vocab, seed, voices=voices)
    fens = [m.fen for m in moves] or [chess.STARTING_FEN]
    if sentences:
        others = non_chess_items(seed, fens, repeats=1, voices=voices, sentences=sentences)
    else:
        others = non_chess_items(seed, fens, voices=voices)
    progress(f"synthesizing {len(moves) + len(others)} utterances with espeak-ng ...")
    with ThreadPoolExecutor(max_workers=2) as pool:
        paths = list(pool.map(lambda item: _synthesize(item, folder), [*moves, *others]))
    noise = _noise("pinknoise", 60.0, folder, seed)
    rng = np.random.default_rng(seed)
    enrolled: dict[str, Path] = {}
    if enrol or learn:
        words = words or Lexicon.load()
        player = (recognizer, settings) if learn else None
        enrolled = _enrol_voices(
            vocab, voices, enrol or learn, seed, folder, progress, words, played_by=player
        )
    listener, listening_to = recognizer, ""  # with --enrol: whose adapted recogniser is loaded
    generate_s = time.perf_counter() - started
    _warm(listener)
    helper_mb = 0.0  # the peak of the recognisers' second decoder processes

    tallies = {name: Tally() for name in [*CONDITIONS, "non-chess speech", "noise alone"]}
    confusions: Counter[tuple[str, str]] = Counter()
    by_category: dict[str, Counter[str]] = {c: Counter() for c in CATEGORIES}
    by_voice: dict[str, Counter[str]] = {v: Counter() for v in voices}
    failures: list[str] = []
    contexts: dict[str, frozenset[Phrase]] = {}
    table: tuple[str, PhraseTable] | None = None  # the last position's (kept: it is large)
    kinds = word_kinds(vocab)

    def decode(item: Item, audio: np.ndarray, condition: str) -> None:
        board = chess.Board(item.fen)
        if item.fen not in contexts:
            contexts[item.fen] = position_phrases(board, vocab)
        listener.set_context(contexts[item.fen])
        transcript = listener.recognize(audio, RATE)
        result = match_move(board, hypotheses(transcript, vocab), vocab, settings.matching)
        result_outcome = outcome(result.decision, result.move, item.move)
        tally = tallies[condition]
        tally.outcomes[result_outcome] += 1
        tally.decode_ms.append(transcript.decode_ms)
        if item.move is not None:
            nonlocal table
            if table is None or table[0] != item.fen:
                table = (item.fen, phrase_table(board, vocab))
            best = tuple(w for w in transcript.best.split() if w not in TRAILING_WORDS)
            move = table[1].phrases.get(best)
            tally.first += move is not None and move.uci() == item.move
        if item.move is not None and condition == "clean":
            by_category[item.category][result_outcome] += 1
            by_voice[item.voice][result_outcome] += 1
        if item.move is not None and result_outcome != "correct":
            heard = tuple(transcript.best.split()) or tuple(transcript.partial.split())
            confusions.update(_word_confusions(item.phrase, heard, kinds))
            failures.append(
                f"{condition:9s} {result_outcome:8s} {item.voice:10s} said "
                f"{' '.join(item.phrase)!r} heard {transcript.best or transcript.partial!r}"
                f"{' (' + transcript.reason + ')' if transcript.reason else ''}"
            )
        elif item.move is None and result_outcome == "proposed":
            failures.append(f"{condition:9s} proposed {item.text!r} heard {transcript.best!r}")

    # The work in corpus order (so that the noise drawn for each utterance does not depend on
    # --enrol); with --enrol it is done voice by voice, one adapted recogniser at a time.
    work: list[tuple[str, Callable[[], None]]] = []

    def move_work(item: Item, path: Path, offset: int) -> Callable[[], None]:
        def run() -> None:
            clean = load_for_recognition(path)
            decode(item, clean, "clean")
            decode(item, with_noise(clean, noise, 10.0, offset), "noise10db")
            decode(item, with_reverb(path, folder), "reverb")

        return run

    def sentence_work(item: Item, path: Path) -> Callable[[], None]:
        # Read when decoded: a long --sentences file held in memory at once would swell the
        # peak memory the benchmark reports.
        return lambda: decode(item, load_for_recognition(path), "non-chess speech")

    for item, path in zip(moves, paths, strict=False):
        work.append((item.voice, move_work(item, path, int(rng.integers(0, 10**9)))))
    for item, path in zip(others, paths[len(moves) :], strict=True):
        work.append((item.voice, sentence_work(item, path)))
    for index in range(max(10, count // 10)):
        kind = NOISES[index % len(NOISES)]
        clip = _noise(kind, 60.0, folder, seed + index)
        length = int(RATE * (1.0 + (index % 5) * 0.5))
        start = int(rng.integers(0, len(clip) - length))
        level = 0.05 + 0.9 * (index % 7) / 6
        audio = to_int16(clip[start : start + length] * level)
        fen = moves[index % len(moves)].fen if moves else chess.STARTING_FEN
        voice = voices[index % len(voices)]  # whose adapted recogniser hears it, with --enrol
        item = Item(f"noise{index:03d}", fen, None, (), kind, voice, 0, 0, "noise")
        work.append((voice, partial(decode, item, audio, "noise alone")))
    if enrolled:
        work.sort(key=lambda job: voices.index(job[0]))
    progress(f"decoding {len(moves)} moves in three conditions, then the rest ...")
    for voice, job in work:
        if enrolled and listening_to != voice:
            if listener is not recognizer:
                helper_mb = max(helper_mb, _close(listener))
            adapted = enrolled.get(voice)  # None: too little was played to learn from
            listener = recognizer if adapted is None else _adapted(settings, vocab, adapted, words)
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
    )


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
    from voice.recognizers.adaptation import Sample, TooLittleSpeech, estimate

    how = "playing" if played_by else "enrolling"
    progress(f"{how} {len(voices)} voices with {count} moves each ...")
    adapted: dict[str, Path] = {}
    for number, voice in enumerate(voices):
        items = [
            replace(item, ident=f"enrol{number:02d}-{item.ident}")
            for item in make_items(count, vocab, seed + 7919 + number, voices=[voice])
        ]
        with ThreadPoolExecutor(max_workers=2) as pool:
            paths = list(pool.map(lambda item: _synthesize(item, folder), items))
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
    """What a game keeps of these utterances (:mod:`voice.learning`): a move accepted or
    asked back is played, right or wrong, with the words it was heard as; from a choice the
    player picks the right move if offered; a rejected one is said again (not simulated)."""
    from voice.recognizers.adaptation import Sample

    kept = []
    for sample, item in zip(samples, items, strict=True):
        board = chess.Board(item.fen)
        recognizer.set_context(position_phrases(board, vocab))
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
    from voice.recognizers.sphinx import SphinxRecognizer

    if isinstance(recognizer, SphinxRecognizer):
        recognizer.wait_for_second_decoder()


def _close(recognizer: Recognizer) -> float:
    """Stop a recogniser's second decoder process; its peak memory in MB (0 without one)."""
    from voice.recognizers.sphinx import SphinxRecognizer

    if not isinstance(recognizer, SphinxRecognizer):
        return 0.0
    peak = recognizer.second_process_memory_mb()
    recognizer.close()
    return peak


def _adapted(
    settings: Settings, vocab: Vocabulary, path: Path, words: Lexicon | None
) -> Recognizer:
    from voice.recognizers.sphinx import SphinxRecognizer

    return SphinxRecognizer(vocab, nbest=settings.speech.nbest, lexicon=words, adaptation=path)


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
        raise RuntimeError("--lexicon only applies to the PocketSphinx recogniser")
    from voice.recognizers.sphinx import SphinxRecognizer

    return SphinxRecognizer(vocab, nbest=settings.speech.nbest, lexicon=words)


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else 0.0


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
    """The figures as the README describes them."""
    enrolled = f" enrolled with {enrol} moves each" if enrol else ""
    if learn:
        enrolled = f" learnt from {learn} moves played each"
    lines = [
        f"ASR benchmark: backend {backend}, seed {seed}, {voices} voices{enrolled}, "
        f"{report.utterances} decodes (corpus made in {report.generate_s:.1f} s)",
        "",
        f"{'condition':18s} {'n':>4s} {'correct':>8s} {'wrong':>7s} {'choose':>7s} "
        f"{'rejected':>9s} {'p50 ms':>7s} {'p95 ms':>7s} {'heard first':>12s}",
    ]
    for name, tally in report.tallies.items():
        if not tally.count:
            continue
        p50 = statistics.median(tally.decode_ms)
        p95 = _percentile(tally.decode_ms, 95)
        if name in CONDITIONS:
            lines.append(
                f"{name:18s} {tally.count:4d} {tally.share('correct'):7.1f}% "
                f"{tally.share('wrong'):6.1f}% {tally.share('choose'):6.1f}% "
                f"{tally.share('rejected'):8.1f}% {p50:7.0f} {p95:7.0f} "
                f"{100.0 * tally.first / tally.count:11.1f}%"
            )
        else:
            lines.append(
                f"{name:18s} {tally.count:4d} {'proposed a move':>15s} "
                f"{tally.share('proposed'):6.1f}% {'':8s} {p50:7.0f} {p95:7.0f}"
            )
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
        "",
        "clean, by kind of move (correct/total): "
        + ", ".join(
            f"{kind} {counts['correct']}/{sum(counts.values())}"
            for kind, counts in report.by_category.items()
            if counts
        ),
    ]
    lines.append(
        "clean, by voice (correct/total): "
        + ", ".join(
            f"{voice} {counts['correct']}/{sum(counts.values())}"
            for voice, counts in report.by_voice.items()
            if counts
        )
    )
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
