"""Words said alone: the answers to a question and the requests, heard as the program hears them.

The move benchmark (:mod:`benchmarks.asr`) measures moves. A game needs short words as well:
"ja" or "nein" when a move is asked back, a number for the computer's strength, "Zeit",
"Stellung", "Korrektur". They are the hardest thing for Whisper to score (one or two tokens, no
context around them), and the one that plays a move is "ja". So each utterance is decided
as the program decides it:

- ``question``, before the game ("Spielstärke des Computers?"): "ja" takes the suggested level,
  a number picks one (:func:`voice.wiring.app_decisions.level_answer`); right when the level is
  the one said, none when the question would be asked again. (The program asks a spoken number
  back, "Stufe sieben?", so a wrong one here is a question the player answers "nein".)
- ``asked``, in a game while a move is asked back ("Springer Felix drei?"), and ``choice``, in a
  game while three moves are offered by number ("Eins: Springer Felix drei. Zwei: Eva vier.
  Drei: David vier. Welcher Zug?"): the recogniser listens for what the game listens for then
  (:meth:`voice.game.session.GameSession.phrases_now`), and a real session is handed the
  transcript; what it does is compared with what it does when it hears the words surely
  (:func:`game_outcome`). Nothing here restates the session's rules, so the figures follow
  them as they change.

And the sentences that are not chess (:data:`benchmarks.asr.NON_CHESS`) said while a move is
asked back: how many make the game play a move (a "ja" sure enough to play the move asked back,
or another move) or end. That must never happen.

Every utterance is heard in a room and cut by the program's end-pointer
(:func:`benchmarks.rooms.heard_in_room`), quiet or with pink noise 10 dB below the recording, or
said in a reverberant hall.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from benchmarks import asr, rooms
from voice.config import Settings
from voice.game.session import GameSession
from voice.game.session_base import PendingChoice, PendingConfirm
from voice.rules.events import BlindSpeech, MoveMade, OutputEvent, Refused, Result, parse_setup
from voice.speech.listen import PRE_ROLL
from voice.speech.recognizers import Recognizer, Transcript
from voice.speech.wavio import RATE, load_for_recognition
from voice.wiring.app_decisions import is_yes, level_answer, question_phrases
from voice.words.vocabulary import NUMBER_WORDS, NamedMoves, Phrase, Vocabulary

QUESTION_WORDS: tuple[str, ...] = ("ja", *NUMBER_WORDS["de"][:8])
"""The answers to "Spielstärke des Computers?": "ja" for the suggested level, or a level."""

SUGGESTED_LEVEL = 3
"""The level "ja" takes (``[engine] level``'s default)."""

ASKED_WORDS: tuple[str, ...] = (
    "ja",
    "nein",
    "zeit",
    "züge",
    "wiederholen",
    "letzter zug",
    "stellung",
    "partie",
    "remis",
    "aufgabe",
    "korrektur",
    "zurück",
    "hilfe",
    "pause",
    "stopp",
    "wer ist am zug",
)
"""What a player may say while a move is asked back: the answers and the requests."""

CHOICE_WORDS: tuple[str, ...] = NUMBER_WORDS["de"][:3]
"""The answers to "Eins: Springer Felix drei. Zwei: Eva vier. Drei: David vier. Welcher Zug?"."""

CHOICE_MOVES = (("Springer Felix drei", 0.3), ("Eva vier", 0.29), ("David vier", 0.28))
"""Three moves heard about equally unsurely: the game offers them by number."""

WORDS: dict[str, tuple[str, ...]] = {
    "question": QUESTION_WORDS,
    "asked": ASKED_WORDS,
    "choice": CHOICE_WORDS,
}
"""The words said in each context."""

CONTEXTS: tuple[str, ...] = tuple(WORDS)

ASKED_SETUP = '{"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}}'
ASKED_MOVE = "Springer Felix drei"
"""The game the ``asked`` words are said in: the first move, heard too unsurely to play."""

CONDITIONS: tuple[str, ...] = ("clean", "pink10", "hall", "babble10")
"""babble10: three other voices talking at once, 10 dB below the words over the recording (a
player's trial heard "nein" as a sure "ja" there, where the other rooms had shown none)."""

OUTCOMES: tuple[str, ...] = ("right", "asked", "wrong", "none")
"""Right (done at once), asked (again, or the move picked asked back by name: unsure), wrong
(done at once, and not what was said), none (nothing heard: "say it again")."""


@dataclass(frozen=True)
class Said:
    """One word said alone: in which context, by whom."""

    context: str
    words: str
    voice: str
    rate: int
    pitch: int
    ident: str


@dataclass
class Tally:
    """Outcomes of one context in one condition."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    wrong: list[str] = field(default_factory=list)
    doubted: list[str] = field(default_factory=list)
    """Words that were not "ja" heard as an unsure "ja" (asked again): counted as asked, but
    the same mishearing a second time answers the question (``GameSession._yes_unsure``)."""

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class Report:
    """Per condition: the contexts' tallies, and how many sentences that are not chess, said
    while a move was asked back, made the game play a move (a "ja", or another move) or end."""

    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    sentences: dict[str, int] = field(default_factory=dict)
    played_from_sentences: dict[str, int] = field(default_factory=dict)


def corpus(
    count: int, seed: int, voices: asr.VoiceSet, words: Mapping[str, Sequence[str]] = WORDS
) -> list[Said]:
    """Each word of every context (``words``) said ``count`` times, each time by a voice, rate
    and pitch drawn from ``voices``."""
    rng = random.Random(seed)
    said = []
    for context, texts in words.items():
        for text in texts:
            for index in range(count):
                said.append(
                    Said(
                        context,
                        text,
                        rng.choice(list(voices.voices)),
                        rng.randrange(*voices.rates),
                        rng.randrange(*voices.pitches),
                        f"{context}-{text.replace(' ', '_')}-{index}",
                    )
                )
    return said


def _game_after(settings: Settings, heard: tuple[tuple[str, float], ...]) -> GameSession:
    """A game at its first move, after the blind player was heard as ``heard``."""
    session = GameSession(parse_setup(json.loads(ASKED_SETUP)), settings)
    session.handle(BlindSpeech(1000, heard))
    return session


def asked_session(settings: Settings) -> GameSession:
    """A game at its first move, with :data:`ASKED_MOVE` heard unsurely and asked back."""
    session = _game_after(settings, ((ASKED_MOVE, 0.3),))
    assert isinstance(session.pending, PendingConfirm), "the move was not asked back"
    return session


def choice_session(settings: Settings) -> GameSession:
    """A game at its first move, with :data:`CHOICE_MOVES` offered by number."""
    session = _game_after(settings, CHOICE_MOVES)
    assert isinstance(session.pending, PendingChoice), "no choice was offered"
    return session


HEARD_AT_MS = 2000
"""When, in the game, the answer is heard."""


def _done(events: Sequence[OutputEvent]) -> bool:
    """Whether the game did something that stands: a move made, or the game ended."""
    return any(isinstance(e, MoveMade | Result) for e in events)


def game_outcome(
    game: Callable[[], GameSession], transcript: Transcript | None, words: Phrase
) -> tuple[str, str]:
    """(outcome, what was heard first) of ``words`` said in a game (``game`` makes it afresh),
    classified by what the session itself does with the transcript:

    - right: exactly what it does with the words heard surely (its outputs are the same);
    - asked: nothing done, a question asked instead (a "ja" asked again, the move picked or
      heard asked back by name, or moves heard alike offered by number: the player answers it);
    - none: nothing done and nothing asked ("nicht verstanden", or a refusal), or the
      end-pointer never delivered the words;
    - wrong: anything else: a move made or the game ended, or a request done, that was not
      what was said."""
    if transcript is None:
        return "none", ""
    heard = transcript.nbest[0][0] if transcript.nbest else ""
    expected = game().handle(BlindSpeech(HEARD_AT_MS, ((" ".join(words), 1.0),)))
    session = game()
    pending, doubted = session.pending, session.yes_doubted
    events = session.handle(BlindSpeech(HEARD_AT_MS, transcript.nbest))
    if events == expected:
        return "right", heard
    if not _done(events):
        asked_again = session.yes_doubted is not doubted
        question = isinstance(session.pending, PendingConfirm | PendingChoice)
        asked_back = question and session.pending is not pending
        # "ja" to moves offered by number picks none: the game says how to pick one, the
        # same question standing.
        yes_to_choice = isinstance(pending, PendingChoice) and session.pending is pending
        if asked_again or asked_back or (yes_to_choice and is_yes(session.vocab, ((heard, 1.0),))):
            return "asked", heard
        if session.pending is pending and any(isinstance(e, Refused) for e in events):
            return "none", heard
    return "wrong", heard


def doubted_yes(heard: str, words: Phrase, vocab: Vocabulary) -> bool:
    """Whether ``heard`` is a "ja" and the words said were not."""
    return is_yes(vocab, ((heard, 1.0),)) and words not in vocab.commands.get("yes", ())


def plays_a_move(game: Callable[[], GameSession], transcript: Transcript | None) -> bool:
    """Whether the session makes a move or ends the game on hearing ``transcript``."""
    if transcript is None:
        return False
    return _done(game().handle(BlindSpeech(HEARD_AT_MS, transcript.nbest)))


def question_outcome(
    transcript: Transcript | None, words: Phrase, vocab: Vocabulary
) -> tuple[str, str]:
    """(outcome, the level heard) of an answer to the strength question, as the program reads
    it: right or wrong by the level heard. (A spoken level is then asked back, "Stufe 7?", so
    a wrong one costs the player a "nein", not a game at the wrong strength.)"""
    if transcript is None or not transcript.nbest:
        return "none", ""  # "Nicht verstanden." (the app's question, before level_answer)
    level = level_answer(vocab, transcript.nbest, SUGGESTED_LEVEL, 8)
    if level is None:
        return "none", ""
    meant = SUGGESTED_LEVEL if words == ("ja",) else vocab.number_words.index(words[0]) + 1
    return ("right" if level == meant else "wrong"), f"level {level}"


NOISES = asr.NOISE_SNR
"""The noisy conditions: the kind of noise and its ratio below the recording (dB), as the move
benchmark has them."""

SELECTABLE: tuple[str, ...] = (*CONDITIONS, "pink5", "babble5")
"""Every condition ``--conditions`` may name; babble5, where other voices are only 5 dB below
the player's, is the room the talk key is for (``--talk-key``)."""


@dataclass
class Room:
    """One condition: how an utterance is heard before the end-pointer cuts it, or, with
    ``presses``, what the talk key records of it from one press to the next."""

    condition: str
    folder: Path
    noise: np.ndarray
    offset: int = 0
    talkers: Sequence[np.ndarray] = ()  # babble: the other voices' recordings
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    presses: random.Random | None = None
    """With the talk key, when it is pressed (its own draws: the noise drawn is the same
    either way)."""

    def hear(
        self,
        recognizer: Recognizer,
        path: Path,
        context: frozenset[Phrase],
        moves: NamedMoves | None = None,
    ) -> Transcript | None:
        """What the recogniser makes of the utterance in ``path`` said in this room, in
        ``context`` (``moves``: which of its phrases name which move); None when the
        end-pointer never delivered it."""
        recognizer.set_context(context, moves)
        complete = asr.completion_check(recognizer, context, moves)
        pre_roll = getattr(recognizer, "pre_roll_s", PRE_ROLL)
        kind, snr_db = NOISES.get(self.condition, ("", None))
        fill: Callable[[int], np.ndarray] = np.zeros
        if self.condition == "hall":
            words = rooms.hall(path, self.folder)
        else:
            words = load_for_recognition(path)
        if kind == "babble":
            chosen = self.rng.sample(list(self.talkers), min(3, len(self.talkers)))
            starts = [self.rng.randrange(RATE * 4) for _ in chosen]
            fill = partial(rooms.babble, chosen, starts=starts)
        elif kind == "pink":
            self.offset += 7919  # another stretch of the noise each time
            fill = partial(asr.pink_stretch, self.noise, offset=self.offset)
        cut = rooms.heard_in_room(words, snr_db, fill, pre_roll, complete, self.presses)
        if cut is None:
            return None
        recognizer.set_context(context, moves)
        return recognizer.recognize(cut, RATE)


def run(
    settings: Settings,
    vocab: Vocabulary,
    recognizer: Recognizer,
    *,
    count: int,
    seed: int,
    voices: asr.VoiceSet,
    conditions: Sequence[str] = CONDITIONS,
    sentences: Sequence[str] = asr.NON_CHESS,
    words: Mapping[str, Sequence[str]] = WORDS,
    talk_key: bool = False,
    progress: Callable[[str], None] = lambda _: None,
) -> Report:
    """Say the corpus and the sentences in every condition; tally what the program would do.
    ``talk_key``: every utterance is what the talk key records of it (:func:`rooms.talk_key`),
    not what the end-pointer cuts."""
    said = corpus(count, seed, voices, words)
    games: dict[str, Callable[[], GameSession]] = {
        "asked": lambda: asked_session(settings),
        "choice": lambda: choice_session(settings),
    }
    contexts = {
        "question": question_phrases(vocab),
        **{context: make().phrases_now() for context, make in games.items()},
    }
    moves = {context: make().moves_now() for context, make in games.items()}
    report = Report()
    rng = random.Random(seed)
    said_sentences = [
        asr.Item(
            f"sentence{i:02d}", "", None, (), text, rng.choice(list(voices.voices)), 150, 50, ""
        )
        for i, text in enumerate(sentences)
    ]
    with tempfile.TemporaryDirectory(prefix="voice-chess-answers-") as tmp:
        folder = Path(tmp)
        noise = asr.room_noise("pinknoise", 60.0, folder, seed)
        recordings = {}
        for item in said:
            text = asr.said_text(item.words, item.voice)
            path = asr.synthesize(
                asr.Item(item.ident, "", None, (), text, item.voice, item.rate, item.pitch, ""),
                folder,
            )
            recordings[item.ident] = path
        paths = {s.ident: asr.synthesize(s, folder) for s in said_sentences}
        talkers: list[np.ndarray] = []
        if any(NOISES.get(c, ("",))[0] == "babble" for c in conditions):  # small talk, no chess
            bank = asr.babble_bank(seed, vocab, voices.voices, voices.rates, voices.pitches)
            talkers = [load_for_recognition(asr.synthesize(t, folder)) for t in bank]
        progress(f"{len(said)} words and {len(paths)} sentences synthesized")
        for condition in conditions:
            room = Room(
                condition,
                folder,
                noise,
                talkers=talkers,
                rng=random.Random(seed + 5),
                presses=random.Random(seed + 7) if talk_key else None,
            )
            for context in words:
                report.tallies[(condition, context)] = Tally()
            for item in said:
                meant = vocab.normalize(item.words)
                transcript = room.hear(
                    recognizer,
                    recordings[item.ident],
                    contexts[item.context],
                    moves.get(item.context),
                )
                tally = report.tallies[(condition, item.context)]
                if item.context == "question":
                    outcome, read = question_outcome(transcript, meant, vocab)
                else:
                    outcome, read = game_outcome(games[item.context], transcript, meant)
                tally.counts[outcome] += 1
                if outcome == "wrong":
                    tally.wrong.append(f"{item.words} → {read} ({item.voice})")
                if outcome == "asked" and doubted_yes(read, meant, vocab):
                    tally.doubted.append(f"{item.words} → {read}? ({item.voice})")
            played = sum(
                plays_a_move(
                    games["asked"],
                    room.hear(recognizer, path, contexts["asked"], moves["asked"]),
                )
                for path in paths.values()
            )
            report.sentences[condition] = len(paths)
            report.played_from_sentences[condition] = played
            progress(f"{condition} done")
    return report


def format_report(
    report: Report, *, backend: str, seed: int, voices: str, count: int, talk_key: bool = False
) -> str:
    """The figures as a table: right / wrong / none per condition and context."""
    heard = (
        "recorded through the talk key, from one press to the next"
        if talk_key
        else "cut by the end-pointer"
    )
    lines = [
        f"Words said alone ({backend}; {voices} voices, each word {count} times, seed {seed}),"
        f" heard in a room and {heard}. right / asked / wrong / none:",
        "",
        "| condition | strength question (ja, eins … acht) | move asked back (ja, nein, requests) "
        "| choice by number (eins … drei) | sentences → a move played |",
        "|---|---|---|---|---|",
    ]
    conditions = sorted({c for c, _ in report.tallies}, key=SELECTABLE.index)
    for condition in conditions:
        cells = []
        for context in CONTEXTS:
            tally = report.tallies.get((condition, context), Tally())
            c = tally.counts
            cells.append(
                f"{c['right']} / {c['asked']} / {c['wrong']} / {c['none']} of {tally.total}"
            )
        played = report.played_from_sentences[condition]
        lines.append(
            f"| {condition} | {' | '.join(cells)} | {played} of {report.sentences[condition]} |"
        )
    lines.append("")
    for condition in conditions:
        for context in CONTEXTS:
            tally = report.tallies.get((condition, context), Tally())
            if tally.wrong:
                lines.append(f"wrong, {condition}, {context}: " + "; ".join(tally.wrong))
            if tally.doubted:
                lines.append(
                    f"asked again as an unsure ja (a second time would answer it), {condition},"
                    f" {context}: " + "; ".join(tally.doubted)
                )
    return "\n".join(lines)
