"""Typed events: what goes into the pure core and what comes out of it.

Every input from the world (speech, the opponent's board, keys, the arbiter, time passing) is
one timestamped :data:`InputEvent`; the core answers with :data:`OutputEvent` values. A script
for ``voice-chess simulate`` and a game journal are the same thing: one JSON object per line,
the setup first, then the inputs. Times are integer milliseconds inside the program and seconds
(with millisecond precision) in JSON, so every rule can be replayed to the millisecond.

Script line formats (JSON objects, one per line)::

    {"setup": {"mode": "game"|"clock", "blind": "white"|"black", "time_control": "900+10",
               "profile": "home"|"tournament", "fen": "...", "language": "de",
               "laws": "2023"|"2018"|"2001"}}
    {"t": 12.5, "blind": "Springer Felix drei"}
    {"t": 12.5, "blind_nbest": [["springer felix drei", 0.9], ["springer felix zwei", 0.4]]}
    {"t": 13.0, "blind_nbest": [], "guess": "Dame Hector fünf"}   (no phrase fitted)
    {"t": 20.0, "sighted": "e7e5"}            (UCI or SAN)
    {"t": 21.0, "key": "time"}
    {"t": 30.0, "arbiter": {"action": "add_time", "side": "white", "seconds": 120}}
    {"t": 40.0, "press": "white"}             (talking-clock mode)
    {"t": 41.0, "ask": "time"}
    {"t": 42.0, "pause": true} / {"t": 43.0, "resume": true}
    {"t": 50.0, "tick": true}                 (only time passing)
    {"t": 60.0, "resume_said": true}          (a resumed game's announcement has been said)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from voice.rules.arbiter import ArbiterCommand, Malformed, parse_action
from voice.rules.laws import EDITIONS
from voice.words.messages import languages

Side = Literal["white", "black"]
Audience = Literal["blind", "sighted", "all", "arbiter"]


def to_ms(seconds: float) -> int:
    """Seconds as written in scripts → integer milliseconds."""
    return round(float(seconds) * 1000)


def to_seconds(ms: int) -> float:
    """Integer milliseconds → seconds for JSON output, exact to the millisecond."""
    return round(ms / 1000, 3)


class ScriptError(ValueError):
    """A script or journal line that is not one of the known forms."""


class PositionOver(ScriptError):
    """The start position is already over (``reason``: checkmate, stalemate, a dead position or
    the 75-move rule, FIDE 5.1.1, 5.2.1, 5.2.2, 9.6.2): there is no game to play."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"setup.fen: the position is already over ({reason.replace('_', ' ')}); "
            "a game needs a position that is still open"
        )
        self.reason = reason


# -- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """The first line of a script or journal: how the game or clock is set up."""

    mode: Literal["game", "clock"] = "game"
    blind: Side = "white"
    time_control: str = ""
    profile: Literal["home", "tournament"] = "home"
    fen: str | None = None
    language: str | None = None
    # The FIDE Laws edition ("2023", "2018", "2001"); None: the settings' [rules] edition.
    laws: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BlindSpeech:
    """What the blind player was heard to say: an n-best list of (text, confidence).

    ``guess``: when no phrase of the position fitted (empty n-best), the recogniser's free
    transcription, if it had one. It never makes a move or a command; it only lets the game
    say why a move the player named is illegal ("Der König steht im Schach") instead of "Nicht
    verstanden": the recogniser listens for legal moves only (docs/speech.md §1)."""

    t_ms: int
    nbest: tuple[tuple[str, float], ...]
    guess: str = ""


@dataclass(frozen=True)
class SightedMove:
    """A move the sighted player made on their board (UCI or SAN)."""

    t_ms: int
    move: str


@dataclass(frozen=True)
class SightedClaim:
    """The sighted player claims a draw with the move they intend (9.2.1.1, 9.3.1.1): the
    move is written, not yet made on the board (UCI or SAN)."""

    t_ms: int
    move: str


@dataclass(frozen=True)
class KeyPress:
    """A key (or foot switch) by name: "press", "time", "pause", "help", "yes", ..."""

    t_ms: int
    key: str


@dataclass(frozen=True)
class ArbiterAction:
    """An arbiter's action with its parameters, e.g. ``add_time`` with side and seconds.

    ``action`` and ``params`` are the action as given, which the journal keeps word for word (a
    replay must refuse again what was refused); ``command`` is the same action read once, on
    arrival, into its typed form (:mod:`voice.rules.arbiter`), which is all the session applies.
    """

    t_ms: int
    action: str
    params: dict[str, Any] = field(default_factory=dict)
    command: ArbiterCommand | Malformed = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "command", parse_action(self.action, self.params))


@dataclass(frozen=True)
class OpponentLanguage:
    """The sighted opponent chose the language of their page: what the session says to them
    from now on is in it (journaled, so a resumed game goes on in the language chosen)."""

    t_ms: int
    language: str


@dataclass(frozen=True)
class ClockPress:
    """Talking-clock mode: the player of ``side`` pressed their clock button."""

    t_ms: int
    side: Side


@dataclass(frozen=True)
class Ask:
    """A request for information ("time", "moves", ...) not tied to a spoken phrase."""

    t_ms: int
    what: str


@dataclass(frozen=True)
class Pause:
    t_ms: int


@dataclass(frozen=True)
class Resume:
    t_ms: int


@dataclass(frozen=True)
class Tick:
    """Only time passing: lets the core notice flag falls and the end of a correction window."""

    t_ms: int


@dataclass(frozen=True)
class ResumeSaid:
    """A resumed game's "Partie fortgesetzt …" has been said: a correction window open at the
    stop runs again, in full, from here (D.2.8). The player could not say "Korrektur" before
    hearing that the move waits, and a window of two or three seconds had closed by then."""

    t_ms: int


InputEvent = (
    BlindSpeech
    | SightedMove
    | SightedClaim
    | KeyPress
    | ArbiterAction
    | OpponentLanguage
    | ClockPress
    | Ask
    | Pause
    | Resume
    | Tick
    | ResumeSaid
)

# -- outputs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Say:
    """Something to announce (spoken to the blind player, shown to the sighted one, or both)."""

    t_ms: int
    text: str
    to: Audience = "blind"


@dataclass(frozen=True)
class MoveMade:
    t_ms: int
    uci: str
    san: str
    by: Side
    spoken: str = ""


@dataclass(frozen=True)
class ClockState:
    t_ms: int
    white_ms: int
    black_ms: int
    running: Side | None
    moves: int


@dataclass(frozen=True)
class Flag:
    t_ms: int
    side: Side


@dataclass(frozen=True)
class Refused:
    t_ms: int
    by: Side
    reason: str


@dataclass(frozen=True)
class Result:
    t_ms: int
    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: str


OutputEvent = Say | MoveMade | ClockState | Flag | Refused | Result

# -- JSON lines -------------------------------------------------------------------------------


# The setup keys beyond the Setup fields: settings a script may override for its game, the PGN
# headers, and what the live program records for a resumed game (app, opponent, engine_level)
# or clock (start: "press", White's clock starts at the first press instead of at 0; bounce_ms:
# a second press of the one key within it is ignored).
SETUP_EXTRA_KEYS = frozenset(
    {
        "start",
        "bounce_ms",
        "opponent_language",
        "correction_window",
        "always_confirm",
        "repeat_back_check",
        "opponent_speaks",
        "revision",
        "warn_low_time",
        "event",
        "site",
        "date",
        "round",
        "white",
        "black",
        "app",
        "deaf_opponent",
        "opponent",
        "engine_level",
        "describe_board",
        "settings",
    }
)
# A script's times: seconds since the start, finite and within a year (a typo such as 1e300
# would otherwise overflow the clock's milliseconds).
MAX_T_S = 366 * 24 * 3600


def _reject_constant(name: str) -> Any:
    raise ScriptError(f"{name} is not a number: write it in digits")


def loads(text: str | bytes) -> Any:
    """JSON as scripts and journals are read: ``NaN`` and ``Infinity``, which Python's json
    would take, are refused (no clock can run on them), and so is nesting deeper than Python's
    recursion limit (``[[[[…``), as any other bad JSON, instead of ending the program."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        doc = text if isinstance(text, str) else text.decode("utf-8", "replace")
        raise json.JSONDecodeError("nested too deeply", doc, 0) from None


def _unknown_key(key: str, known: set[str]) -> ScriptError:
    """A misspelled setup key, named as the settings file names one."""
    import difflib

    close = difflib.get_close_matches(key, sorted(known), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ScriptError(
        f"setup: unknown key {key!r}{hint}; the keys that exist: {', '.join(sorted(known))}"
    )


def parse_setup(obj: dict[str, Any]) -> Setup:
    raw = obj.get("setup")
    if not isinstance(raw, dict):
        raise ScriptError('the first line must be {"setup": {...}}')
    known = {"mode", "blind", "time_control", "profile", "fen", "language", "laws"}
    for key in raw:
        if key not in known and key not in SETUP_EXTRA_KEYS:
            raise _unknown_key(key, known | SETUP_EXTRA_KEYS)
    for key in ("fen", "language", "opponent_language"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise ScriptError(f"setup.{key} must be a text in quotes, not {raw[key]!r}")
    for key in ("language", "opponent_language"):
        if raw.get(key) is not None and raw[key] not in languages():
            raise ScriptError(
                f"setup.{key} must be one of {', '.join(languages())}, not {raw[key]!r}"
            )
    control = raw.get("time_control", "")
    if not isinstance(control, str | int) or isinstance(control, bool):
        raise ScriptError(f"setup.time_control must be a text such as '900+10', not {control!r}")
    mode = raw.get("mode", "game")
    if mode not in ("game", "clock"):
        raise ScriptError(f"setup.mode must be 'game' or 'clock', not {mode!r}")
    blind = raw.get("blind", "white")
    if blind not in ("white", "black"):
        raise ScriptError(f"setup.blind must be 'white' or 'black', not {blind!r}")
    profile = raw.get("profile", "home")
    if profile not in ("home", "tournament"):
        raise ScriptError(f"setup.profile must be 'home' or 'tournament', not {profile!r}")
    laws = raw.get("laws")
    if laws is not None and laws not in EDITIONS:
        raise ScriptError(f"setup.laws must be one of {', '.join(EDITIONS)}, not {laws!r}")
    return Setup(
        mode=mode,
        blind=blind,
        time_control=str(control),
        profile=profile,
        fen=raw.get("fen"),
        language=raw.get("language"),
        laws=laws,
        extra={k: v for k, v in raw.items() if k not in known},
    )


def _side(value: Any, what: str) -> Side:
    if value not in ("white", "black"):
        raise ScriptError(f"{what} must be 'white' or 'black', not {value!r}")
    side: Side = value
    return side


def parse_input(obj: dict[str, Any]) -> InputEvent:
    """One script/journal line (already decoded from JSON) → an input event."""
    if "t" not in obj or not isinstance(obj["t"], int | float) or isinstance(obj["t"], bool):
        raise ScriptError('every line after the setup needs a number "t" (seconds)')
    if not 0 <= obj["t"] <= MAX_T_S:
        raise ScriptError(f'"t" must be from 0 to {MAX_T_S} seconds, not {obj["t"]!r}')
    t = to_ms(obj["t"])
    if "blind" in obj:
        return BlindSpeech(t, ((str(obj["blind"]), 1.0),))
    if "blind_nbest" in obj:
        nbest = obj["blind_nbest"]
        if not isinstance(nbest, list) or not all(
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[1], int | float)
            and 0 <= item[1] <= 1
            for item in nbest
        ):
            raise ScriptError(
                '"blind_nbest" must be a list of [TEXT, CONFIDENCE] pairs, confidences 0 to 1'
            )
        guess = obj.get("guess", "")
        if not isinstance(guess, str):
            raise ScriptError('"guess" must be a text in quotes')
        return BlindSpeech(t, tuple((str(text), float(conf)) for text, conf in nbest), guess)
    if "sighted" in obj:
        return SightedMove(t, str(obj["sighted"]))
    if "sighted_claim" in obj:
        return SightedClaim(t, str(obj["sighted_claim"]))
    if "key" in obj:
        return KeyPress(t, str(obj["key"]))
    if "arbiter" in obj:
        raw = obj["arbiter"]
        if not isinstance(raw, dict) or not isinstance(raw.get("action"), str):
            raise ScriptError('"arbiter" must be an object with an "action"')
        return ArbiterAction(t, raw["action"], {k: v for k, v in raw.items() if k != "action"})
    if "opponent_language" in obj:
        language = obj["opponent_language"]
        if language not in languages():
            raise ScriptError(
                f'"opponent_language" must be one of {", ".join(languages())}, not {language!r}'
            )
        return OpponentLanguage(t, language)
    if "press" in obj:
        return ClockPress(t, _side(obj["press"], '"press"'))
    if "ask" in obj:
        return Ask(t, str(obj["ask"]))
    if obj.get("pause") is True:
        return Pause(t)
    if obj.get("resume") is True:
        return Resume(t)
    if obj.get("tick") is True:
        return Tick(t)
    if obj.get("resume_said") is True:
        return ResumeSaid(t)
    raise ScriptError(f"unknown line: {json.dumps(obj, ensure_ascii=False)}")


def input_to_json(event: InputEvent) -> dict[str, Any]:
    """An input event → the script/journal line that reproduces it."""
    out: dict[str, Any] = {"t": to_seconds(event.t_ms)}
    match event:
        case BlindSpeech(nbest=nbest) if len(nbest) == 1 and nbest[0][1] == 1.0:
            out["blind"] = nbest[0][0]
        case BlindSpeech(nbest=nbest, guess=guess):
            out["blind_nbest"] = [[text, conf] for text, conf in nbest]
            if guess:
                out["guess"] = guess
        case SightedMove(move=move):
            out["sighted"] = move
        case SightedClaim(move=move):
            out["sighted_claim"] = move
        case KeyPress(key=key):
            out["key"] = key
        case ArbiterAction(action=action, params=params):
            out["arbiter"] = {"action": action, **params}
        case OpponentLanguage(language=language):
            out["opponent_language"] = language
        case ClockPress(side=side):
            out["press"] = side
        case Ask(what=what):
            out["ask"] = what
        case Pause():
            out["pause"] = True
        case Resume():
            out["resume"] = True
        case Tick():
            out["tick"] = True
        case ResumeSaid():
            out["resume_said"] = True
    return out


def setup_to_json(setup: Setup) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "mode": setup.mode,
        "blind": setup.blind,
        "time_control": setup.time_control,
        "profile": setup.profile,
    }
    if setup.fen is not None:
        raw["fen"] = setup.fen
    if setup.language is not None:
        raw["language"] = setup.language
    if setup.laws is not None:
        raw["laws"] = setup.laws
    raw.update(setup.extra)
    return {"setup": raw}


def output_to_json(event: OutputEvent) -> dict[str, Any]:
    """An output event → the JSON line ``voice-chess simulate`` prints."""
    t = to_seconds(event.t_ms)
    match event:
        case Say(text=text, to=to):
            return {"t": t, "say": text, "to": to}
        case MoveMade(uci=uci, san=san, by=by, spoken=spoken):
            move: dict[str, Any] = {"uci": uci, "san": san, "by": by}
            if spoken:
                move["spoken"] = spoken
            return {"t": t, "move": move}
        case ClockState(white_ms=w, black_ms=b, running=running, moves=moves):
            return {
                "t": t,
                "clock": {
                    "white": to_seconds(w),
                    "black": to_seconds(b),
                    "running": running,
                    "moves": moves,
                },
            }
        case Flag(side=side):
            return {"t": t, "flag": side}
        case Refused(by=by, reason=reason):
            return {"t": t, "refused": {"by": by, "reason": reason}}
        case Result(result=result, reason=reason):
            return {"t": t, "result": result, "reason": reason}
    raise TypeError(f"not an output event: {event!r}")
