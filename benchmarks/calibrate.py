"""Fit Whisper's decision rule on the tuning voices: ``python -m benchmarks calibrate``.

:data:`voice.speech.recognizers.whisper.CALIBRATION` turns one utterance's evidence (the best
phrase's lead, its fit per token, the speech's level, the free guess's distance from it and how
much better the guess fits) into the probability that the best phrase is what was said, and
its thresholds decide: play at once, ask back, offer choices, or "say it again". This command
makes those constants reproducible. It hears moves said by the **tuning voices only**
(:data:`benchmarks.asr.TRAINING_VOICES`; the report voices stay unseen), in a quiet room, pink
noise at 10 and 5 dB and babble at 10 dB, each through the program's end-pointer as a room
makes it (:func:`benchmarks.rooms.endpoint` with the completion check of ``--room``: what the
program hears, not a padded clip), and
:data:`SMALL_TALK` (sentences that are neither moves nor the ASR benchmark's), fits a logistic
model by Newton's method, and chooses the thresholds:

- ``sure`` (play without a question): the lowest probability at which no wrong best phrase
  that could be played (:data:`WRONG_PLAYED`) reaches it, with a small margin;
- ``unsure`` (ask back from here): the lowest probability at which the wrong moves asked back
  stay within :data:`WRONG_ASKED` of the moves said.

It prints the constants to paste into ``whisper.py`` and what they do on the tuning set.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import chess
import numpy as np

from benchmarks import asr, rooms
from voice.config import Settings, override
from voice.game.session import is_underpromotion
from voice.speech.recognizers import make_recognizer
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.recognizers.whisper import CALIBRATION, Calibration, Features, WhisperRecognizer
from voice.speech.wavio import RATE, load_for_recognition
from voice.words.phrases import phrase_table
from voice.words.vocabulary import Vocabulary

CONDITIONS: dict[str, tuple[str, float] | None] = {
    "clean": None,
    "pink10": ("pink", 10.0),
    "pink5": ("pink", 5.0),
    "babble10": ("babble", 10.0),
}

SMALL_TALK: tuple[str, ...] = (
    "Ich hole mir schnell ein Glas Wasser.",
    "Wer spielt denn heute am ersten Brett?",
    "Die Heizung ist viel zu warm eingestellt.",
    "Hast du die Ergebnisse der letzten Runde gesehen?",
    "Mein Zug kommt erst um acht Uhr an.",
    "Kannst du bitte etwas Platz machen?",
    "Wir haben morgen früh ein Training.",
    "Ich finde meinen Stift nicht mehr.",
    "Das war eine lange Woche.",
    "Im Sommer fahren wir an die Ostsee.",
    "Der Kuchen ist wirklich gut geworden.",
    "Ruf mich später noch einmal an.",
    "Die Uhr an der Wand geht falsch.",
    "Ich habe heute keine Zeit für einen Spaziergang.",
    "Wo hast du das Auto geparkt?",
    "Meine Tochter lernt gerade Klavier.",
    "Wie spät ist es eigentlich?",
    "Ich glaube, es fängt gleich an zu regnen.",
    "Der Saal ist heute sehr voll.",
    "Kommst du nachher noch mit ins Café?",
    "Das Fenster klemmt schon wieder.",
    "Ich muss noch die Startgebühr bezahlen.",
    "Unser Verein hat einen neuen Vorsitzenden.",
    "Die Straßenbahn war heute pünktlich.",
    "Ich trinke lieber Tee als Kaffee.",
    "Hier ist es leider ziemlich laut.",
    "Das Turnier dauert bis Sonntag.",
    "Ich habe meine Jacke im Auto vergessen.",
    "Die Kinder spielen draußen im Garten.",
    "Am Wochenende besuchen wir meine Eltern.",
)
"""Sentences that are not moves (none is in :data:`benchmarks.asr.NON_CHESS`, so the benchmark's
measure of how often speech becomes a move stays unseen)."""

WRONG_ASKED = 0.03
"""Wrong moves asked back, as a share of the moves said. Issue 18 aims at 1%; on the tuning
set that asked back only 60 right moves of 435 (and so refused most the player said), 3% asks
back 121 right and 12 wrong. A wrong move asked back costs the player a "nein"; it is never
played."""

WRONG_PLAYED = 0.0
"""Wrong best phrases the recogniser alone would let be played, as a share of the moves said:
none. ``sure`` is the lowest probability above every wrong best phrase that could be played
(:meth:`Sample.playable`: not an underpromotion, a clear lead, speech well above the room),
plus :data:`SURE_MARGIN`. Before those rules were part of the decision, and while a right
"… Schach" counted as wrong, a single outlier set ``sure`` to 0.995 (session 8's refit, not
adopted)."""

SURE_MARGIN = 0.002
"""``sure`` lies at least this far above the likeliest playable wrong best phrase."""

SURE_RANGE = (0.95, 0.995)
"""``sure`` stays within these bounds."""

L2 = 0.01
"""Ridge penalty of the fit (the weights, not the bias)."""


@dataclass(frozen=True)
class Sample:
    features: Features
    right: bool
    """The best phrase names the move said (never, for small talk)."""
    move: bool
    """A move was said (False: small talk)."""
    condition: str
    askable_only: bool = False
    """The best phrase names a move that is always asked back, never played at once (an
    underpromotion: :func:`voice.game.session.is_underpromotion`)."""

    def playable(self, c: Calibration) -> bool:
        """Whether the recogniser's confidence alone would let the matcher play it."""
        return not self.askable_only and self.features.clear(c)


def collect(
    settings: Settings,
    vocab: Vocabulary,
    *,
    count: int,
    seed: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Sample]:
    """Every tuning utterance the end-pointer delivers, with its features and whether its best
    phrase was right."""
    # Whisper's own rule is fitted, without PocketSphinx's second opinion on top.
    alone = override(settings, speech={"second_opinion": False})
    recognizer = make_recognizer(alone, vocab, backend="whisper")
    if not isinstance(recognizer, WhisperRecognizer):  # pragma: no cover - make_recognizer's job
        raise RuntimeError("the calibration is Whisper's")
    voices = asr.VOICE_SETS["tuning"]
    folder = Path(tempfile.mkdtemp(prefix="voice-chess-calibrate-"))
    try:
        moves = asr.make_items(
            count, vocab, seed, voices=voices.voices, rates=voices.rates, pitches=voices.pitches
        )
        talk = asr.non_chess_items(
            seed,
            [m.fen for m in moves],
            1,
            voices.voices,
            SMALL_TALK,
            voices.rates,
            voices.pitches,
        )
        bank = asr.babble_bank(seed, vocab, voices.voices, voices.rates, voices.pitches)
        progress(f"synthesizing {len(moves) + len(talk) + len(bank)} utterances ...")
        audio = {
            item.ident: load_for_recognition(asr.synthesize(item, folder))
            for item in (*moves, *talk, *bank)
        }
        pink = asr.room_noise("pinknoise", 60.0, folder, seed)
        rng = random.Random(seed)
        samples: list[Sample] = []
        progress(f"hearing {len(moves)} moves in {len(CONDITIONS)} rooms and the small talk ...")
        for item in (*moves, *talk):
            conditions = (
                CONDITIONS if item.move else {k: CONDITIONS[k] for k in ("clean", "pink10")}
            )
            for condition, room in conditions.items():
                offset = rng.randrange(10**9)
                if room is not None and room[0] == "babble":
                    talkers = [audio[t.ident] for t in asr.babble_plan(item, bank, rng)]
                    starts = [rng.randrange(RATE * 4) for _ in talkers]
                    fill = partial(rooms.babble, talkers, starts=starts)
                else:
                    fill = partial(asr.pink_stretch, pink, offset=offset)
                sample = _hear(recognizer, vocab, item, audio[item.ident], room, fill, condition)
                if sample is not None:
                    samples.append(sample)
        return samples
    finally:
        recognizer.close()
        shutil.rmtree(folder, ignore_errors=True)


def _hear(
    recognizer: WhisperRecognizer,
    vocab: Vocabulary,
    item: asr.Item,
    words: np.ndarray,
    room: tuple[str, float] | None,
    fill: Callable[[int], np.ndarray],
    condition: str,
) -> Sample | None:
    board = chess.Board(item.fen)
    context = frozenset(position_phrases(board, vocab))
    moves = phrase_table(board, vocab).named_moves()
    cut = rooms.heard_in_room(
        words,
        room[1] if room else None,
        fill,
        recognizer.pre_roll_s,
        asr.completion_check(recognizer, context, moves),
    )
    if cut is None:
        return None
    recognizer.set_context(context, moves)
    judged = recognizer.judge(cut)
    if judged is None:
        return None
    evidence, features = judged
    heard = phrase_table(board, vocab).move_named(evidence.scored[0].phrase)
    right = item.move is not None and heard is not None and heard.uci() == item.move
    askable = heard is not None and is_underpromotion(heard)
    return Sample(features, right, item.move is not None, condition, askable)


def fit(samples: Sequence[Sample], l2: float = L2) -> tuple[np.ndarray, float]:
    """Logistic regression of "the best phrase is right" on the features (Newton's method)."""
    x = np.array([s.features.vector() for s in samples], dtype=np.float64)
    y = np.array([1.0 if s.right else 0.0 for s in samples])
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.diag([l2] * (z.shape[1] - 1) + [0.0])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    weights = w[:-1] / scale
    bias = float(w[-1] - np.sum(w[:-1] * mean / scale))
    return weights, bias


def calibrate(samples: Sequence[Sample], base: Calibration = CALIBRATION) -> Calibration:
    """The fitted weights with thresholds chosen as the module says."""
    weights, bias = fit(samples)
    fitted = replace(
        base,
        lead=round(float(weights[0]), 4),
        fit=round(float(weights[1]), 4),
        loudness=round(float(weights[2]), 4),
        distance=round(float(weights[3]), 4),
        gap=round(float(weights[4]), 4),
        bias=round(bias, 4),
    )
    p = np.array([s.features.probability(fitted) for s in samples])
    wrong = np.array([not s.right for s in samples])
    playable = np.array([s.playable(base) for s in samples])
    moves = sum(1 for s in samples if s.move)
    sure = SURE_RANGE[1]
    for candidate in sorted(set(np.round(p, 3)), reverse=True):
        played_wrong = np.sum(wrong & playable & (p >= candidate - SURE_MARGIN))
        if candidate < SURE_RANGE[0] or played_wrong > WRONG_PLAYED * moves:
            break
        sure = float(candidate)
    unsure = sure
    for candidate in sorted(set(np.round(p[p < sure], 3)), reverse=True):
        asked_wrong = int(np.sum(wrong & (p >= candidate) & (p < sure)))
        if asked_wrong > WRONG_ASKED * moves:
            break
        unsure = float(candidate)
    return replace(fitted, sure=round(sure, 3), unsure=round(min(unsure, sure), 3))


def outcomes(samples: Sequence[Sample], c: Calibration) -> dict[str, Counter[str]]:
    """Per condition: played / asked (right or wrong) / not, as the thresholds decide (the
    matcher may still ask back where two moves fit alike)."""
    table: dict[str, Counter[str]] = {}
    for s in samples:
        name = s.condition if s.move else f"talk {s.condition}"
        p = s.features.probability(c)
        played = p >= c.sure and s.playable(c)
        kind = "played" if played else "asked" if p >= c.unsure else "not"
        verdict = "right" if s.right else "wrong"
        table.setdefault(name, Counter())[f"{kind} {verdict}" if kind != "not" else kind] += 1
    return table


def format_report(samples: Sequence[Sample], fitted: Calibration) -> str:
    lines = [
        f"fitted on {len(samples)} utterances of the tuning voices "
        f"({sum(1 for s in samples if s.move)} moves, through the end-pointer)",
        "",
        "CALIBRATION = Calibration(",
        *(
            f"    {name}={getattr(fitted, name)!r},"
            for name in (
                "lead",
                "fit",
                "loudness",
                "distance",
                "gap",
                "bias",
                "sure",
                "unsure",
                "choices_from",
                "choices_distance",
            )
        ),
        ")",
        "",
    ]
    keys = ("played right", "played wrong", "asked right", "asked wrong", "not")
    for label, c in (("now", CALIBRATION), ("fitted", fitted)):
        lines.append(f"{label}: " + "  ".join(keys))
        for name, counts in outcomes(samples, c).items():
            figures = "  ".join(f"{counts[k]:>{len(k)}d}" for k in keys)
            lines.append(f"  {name:15s} {figures}")
    return "\n".join(lines)
