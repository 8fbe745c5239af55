"""What the program decides around a game, apart from the adapters :mod:`voice.wiring.app` wires.

The command line's plan becomes the game's set-up; an answer before the game (the computer's
strength, the arbiter's approval) is read from what was typed or heard; the game keys are sorted
into quitting, silencing and keys for the session; the session's outputs are sorted into what the
blind player hears and what the terminal shows the arbiter. Pure: no terminal, microphone,
loudspeaker, loop or clock in here, so each decision is tested without them.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from voice.config import Settings
from voice.game.session_base import REVISION, settings_snapshot
from voice.rules.events import (
    MoveMade,
    OutputEvent,
    Refused,
    Result,
    Say,
    Setup,
    Side,
)
from voice.rules.timecontrol import TimeControlError, parse_time_control
from voice.words.explore_words import EXPLORE_WORDS
from voice.words.spoken_time import number_words
from voice.words.utterance import Heard, read_command
from voice.words.vocabulary import Phrase, Vocabulary, yes_no_phrases

Mode = Literal["play", "assist"]
Opponent = Literal["board", "engine"]


@dataclass(frozen=True)
class Plan:
    """What the user asked for on the command line."""

    mode: Mode
    opponent: Opponent = "board"
    text: bool = False
    speech: bool = True
    web: bool = True
    lan: bool = False
    port: int | None = None
    qr: bool = False
    resume: Path | None = None
    journal: Path | None = None
    level: int | None = None
    blind: Side | None = None
    control: str | None = None
    language: str | None = None
    fen: str | None = None
    laws: str | None = None  # --laws: the FIDE Laws edition (default [rules] edition)
    deaf_opponent: bool = False
    config: Path | None = None  # --config: the settings file it was started with


# -- the set-up ---------------------------------------------------------------------------------


def new_setup(plan: Plan, settings: Settings, language: str, date: str) -> Setup:
    """A new game's set-up; raises TimeControlError when the time control cannot be read.

    The language and the Laws are written into the journal's set-up line, so that a resumed
    game goes on in the language and under the Laws it began with; so is the date (the
    scoresheet's Date header).
    """
    extra: dict[str, Any] = {"app": plan.mode, "date": date, "revision": REVISION}
    if plan.deaf_opponent:
        extra["deaf_opponent"] = True
    if plan.opponent == "board" and not plan.web:
        extra["opponent_speaks"] = True  # no board for the opponent: their moves come by voice
    # What decides an input's effect is kept, so that the game replays the same after a
    # crash whatever settings are in use then; a preset's name is kept as what it stood for.
    extra["settings"] = settings_snapshot(settings)
    control = settings.clock.time_control if plan.control is None else plan.control
    control = parse_time_control(control, settings.clock.presets).text
    return Setup(
        mode="game",
        blind=plan.blind or settings.session.blind,
        time_control=control,
        profile="tournament" if plan.mode == "assist" else "home",
        fen=plan.fen,
        language=language,
        laws=plan.laws or settings.rules.edition,
        extra=extra,
    )


def journal_mode(setup: Setup) -> Mode:
    """The command a journal's game was started with: ``voice-chess play`` or ``assist``.

    Written into the set-up line since ``extra["app"]``; older journals tell it by the profile
    (an assisted board is always a tournament one). A resumed game goes on as it began,
    whichever command resumed it: an assisted board must not come back as a home game, nor a
    home game against the computer as a tournament board.
    """
    app = setup.extra.get("app")
    if app in ("play", "assist"):
        return "assist" if app == "assist" else "play"
    return "assist" if setup.profile == "tournament" else "play"


def command_of(name: str, config: Path | None) -> str:
    """ "voice-chess play", with the settings file it was started with: a resumed game or
    clock needs the settings its journal does not keep (the devices, ``[web]``, the keys)."""
    if config is None:
        return f"voice-chess {name}"
    return f"voice-chess --config {shlex.quote(str(config.absolute()))} {name}"


def resume_command(plan: Plan) -> str:
    """The command that resumes this game as it was started (the journal's path follows):
    with the same kind of input and output, so that a player who chose a terminal without
    speech or without the web board is not brought back with them."""
    words = [command_of(plan.mode, plan.config)]
    if plan.text:
        words.append("--text")
    if not plan.speech:
        words.append("--no-speech")
    if not plan.web:
        words.append("--no-web")
    elif plan.lan:
        words.append("--lan")
    return " ".join(words)


def unused_on_resume(
    setup: Setup,
    settings: Settings,
    *,
    control: str | None = None,
    blind: Side | None = None,
    language: str | None = None,
    laws: str | None = None,
    fen: str | None = None,
    level: int | None = None,
    profile: str | None = None,
) -> list[str]:
    """The options of the command line a resumed game or clock does not use because it goes
    on as it began (its journal's set-up), written as they were given: "--control 300". The
    same value as the journal's is no contradiction and is not named."""
    presets = settings.clock.presets

    def read(text: str) -> str:
        try:
            return parse_time_control(text, presets).text
        except TimeControlError:
            return text

    unused = []
    if control and read(control) != read(setup.time_control):
        unused.append(f"--control {control}")
    if blind and blind != setup.blind:
        unused.append(f"--blind {blind}")
    if language and setup.language and language != setup.language:
        unused.append(f"--language {language}")
    if laws and setup.laws and laws != setup.laws:
        unused.append(f"--laws {laws}")
    if fen and fen != setup.fen:
        unused.append(f"--fen {fen}")
    played = setup.extra.get("engine_level")
    if level is not None and played is not None and level != played:
        unused.append(f"--level {level}")
    if profile and profile != setup.profile:
        unused.append(f"--profile {profile}")
    return unused


def with_engine(setup: Setup, level: int, player: str) -> Setup:
    """The set-up with the computer as the sighted side, named ``player`` on the scoresheet."""
    sighted = "black" if setup.blind == "white" else "white"
    extra = {**setup.extra, "opponent": "engine", "engine_level": level, sighted: player}
    return replace(setup, extra=extra)


# -- answers before the game --------------------------------------------------------------------


def question_phrases(vocab: Vocabulary) -> frozenset[Phrase]:
    """What a question before the game is answered with: yes, no and the numbers."""
    return yes_no_phrases(vocab) | {(word,) for word in vocab.number_words}


def is_yes(vocab: Vocabulary, heard: Heard) -> bool:
    if not heard:
        return True  # Enter alone takes the suggestion
    words = vocab.normalize(heard[0][0])
    return words in vocab.commands.get("yes", ())


def yes_or_no(vocab: Vocabulary, heard: Heard) -> bool | None:
    """True for "ja" (or Enter), False for "nein", None for anything else."""
    if is_yes(vocab, heard):
        return True
    if vocab.normalize(heard[0][0]) in vocab.commands.get("no", ()):
        return False
    return None


def level_answer(vocab: Vocabulary, heard: Heard, default: int, levels: int) -> int | None:
    """The strength asked for: "yes" (or Enter) takes ``default``, a number from one to
    ``levels`` picks one; anything else is no answer (None), and the question is asked again."""
    if is_yes(vocab, heard):
        return default
    for text, _ in heard:
        command = read_command(vocab.normalize(text), vocab, numbers=True)
        count = command.count if command is not None else None
        if count is not None and 1 <= count <= levels:
            return count
    return None


def level_beyond(vocab: Vocabulary, heard: Heard, levels: int) -> int | None:
    """The number said for the strength when it is none of the ``levels`` ("zehn", "0",
    "neun"): its question is then answered with the range, not asked again as if nothing had
    been said (a review). None for anything else."""
    for text, _ in heard[:1]:
        words = vocab.normalize(text)
        if len(words) != 1:
            return None
        number = _number_said(words[0], vocab)
        if number is not None and not 1 <= number <= levels:
            return number
    return None


def _number_said(word: str, vocab: Vocabulary) -> int | None:
    """A whole number written in digits or in the words of the command set (up to 99)."""
    if word.isdigit():
        return int(word)
    if word in vocab.number_words:
        return vocab.number_words.index(word) + 1
    spelled = {number_words(n, vocab.command_set): n for n in range(100)}
    return spelled.get(word)


# -- during the game ----------------------------------------------------------------------------


def typed_key(text: str, key_actions: dict[str, str], vocab: Vocabulary) -> str | None:
    """The action of a key's letter typed alone on a line ("t", Enter), as the key would do
    it; None for any other line. Not a letter the player's words make a word: with
    ``[vocabulary] file_words`` "a" … "h", "a" alone answers "Turm a oder f d eins?" and
    "f" is a file, and as keys they called the arbiter and read the cursor's file (a
    review). The words are read as the game reads them (aliases too)."""
    letter = text.strip().lower()
    if len(letter) != 1:
        return None
    words = vocab.all_words() | EXPLORE_WORDS[vocab.command_set]
    if any(word in words for word in vocab.normalize(letter)):
        return None
    return key_actions.get(letter)


KeyDecision = Literal["quit", "ask_quit", "stop", "talk", "submit"]


class TalkKeyHint:
    """When to name the talk key: after two "not understood" in a row from the blind player,
    once until a move is made. Other people talking are the likeliest reason, and the talk key
    (press, speak, press) is the way past them; the player cannot see the README."""

    def __init__(self) -> None:
        self.misses = 0
        self.told = False
        self.key_used = False
        """The player has pressed the talk key: they know it (a player's trial heard the hint
        four times while pressing it for every word)."""

    def on_outputs(self, outputs: Sequence[OutputEvent], blind: Side) -> bool:
        """Whether the hint is due now. Words that were understood (a request answered)
        break the row: a quiet room where one miss came before "Zeit" and one after is no
        reason to name the talk key (a player's trial, session 19)."""
        refused = any(isinstance(e, Refused) and e.by == blind for e in outputs)
        if not refused and any(isinstance(e, Say) for e in outputs):
            self.misses = 0
        due = False
        for event in outputs:
            if isinstance(event, MoveMade):
                self.misses, self.told = 0, False
            elif isinstance(event, Refused) and event.by == blind:
                if event.reason != "not_understood":
                    self.misses = 0
                    continue
                self.misses += 1
                if self.misses >= 2 and not self.told and not self.key_used:
                    self.told = due = True
        return due


class QuitGuard:
    """Quitting takes the quit key twice in a row; any other key or words in between cancel."""

    def __init__(self) -> None:
        self.asked = False

    def key(self, action: str) -> KeyDecision:
        """What a game key does: quit, ask to confirm, silence the speech, press to talk, or go
        to the game."""
        if action == "quit":
            if self.asked:
                return "quit"
            self.asked = True
            return "ask_quit"
        self.asked = False
        if action == "stop":
            return "stop"
        return "talk" if action == "talk" else "submit"

    def spoken(self) -> None:
        """The player said something: a quit asked before is no longer meant."""
        self.asked = False


@dataclass(frozen=True)
class Line:
    """A sentence the blind player hears (and the terminal prints), or, with ``arbiter``, a line
    of the arbiter's log that the terminal shows at a tournament board."""

    text: str
    arbiter: bool = False


@dataclass(frozen=True)
class Shown:
    """What the terminal shows of one batch of the session's outputs, in order, and whether
    the batch holds the result."""

    lines: tuple[Line, ...]
    result: bool


def shown(outputs: Sequence[OutputEvent], mode: Mode) -> Shown:
    """The sentences for the blind player; the arbiter's lines only in ``assist`` (tournament)."""
    lines: list[Line] = []
    result = False
    for out in outputs:
        if isinstance(out, Say):
            if out.to in ("blind", "all"):
                lines.append(Line(out.text))
            elif out.to == "arbiter" and mode == "assist":
                lines.append(Line(out.text, arbiter=True))
        elif isinstance(out, Result):
            result = True
    return Shown(tuple(lines), result)
