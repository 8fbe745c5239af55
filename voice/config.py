"""Settings: ``config/default.toml`` overridden key by key by the user's own TOML file.

The default file holds every tunable; the models below say which keys exist, their types and the
allowed values. Anything else (an unknown key, a wrong type, a value out of range) stops the
program with a :class:`ConfigError` that names the file, the key and what is allowed, because a
blind player cannot see a half-applied setting go wrong.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from voice.keyboard import NAMED_KEYS, is_key_name
from voice.resources import config_dir
from voice.rules.timecontrol import TimeControlError, parse_time_control

APP_NAME = "voice-chess"

Language = Literal["de", "en", "ar", "fa", "he"]
Side = Literal["white", "black"]
Profile = Literal["home", "tournament"]
Seconds = Annotated[float, Field(ge=0)]
Cost = Annotated[float, Field(ge=0, le=10)]


class Section(BaseModel):
    """Strict: no unknown keys, no silent type conversion."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LanguageSettings(Section):
    blind: Language
    opponent: Language
    commands: Literal["de", "en"]
    arbiter: Language | Literal[""] = ""  # the arbiter's panel; "" = the opponent's language


class VocabularySettings(Section):
    rank_words: list[str] = Field(min_length=8, max_length=8)
    file_words: list[str] = Field(min_length=8, max_length=8)
    aliases: dict[str, str]

    @field_validator("rank_words", "file_words")
    @classmethod
    def _distinct_words(cls, words: list[str]) -> list[str]:
        lowered = [w.strip().lower() for w in words]
        if any(not w or " " in w for w in lowered):
            raise ValueError("each entry must be one non-empty word")
        if len(set(lowered)) != len(lowered):
            raise ValueError("the eight words must all differ")
        return words

    @model_validator(mode="after")
    def _files_are_no_ranks(self) -> VocabularySettings:
        """A word that names a file and a rank makes "zwei drei" two squares' words at once:
        the player's move could be read either way."""
        ranks = {w.strip().lower() for w in self.rank_words}
        both = [w for w in self.file_words if w.strip().lower() in ranks]
        if both:
            raise ValueError(
                f"{', '.join(both)} would name a file and a rank: the file and rank words "
                "must all differ"
            )
        return self


class MatchingSettings(Section):
    accept_cost: Cost
    confirm_cost: Cost
    reject_cost: Cost
    ambiguity_margin: Cost
    max_choices: Annotated[int, Field(ge=2, le=9)]
    min_confidence: Annotated[float, Field(ge=0, le=1)]
    nbest_penalty: Cost = 0.25
    accept_confidence: Annotated[float, Field(ge=0, le=1)] = 0.5


def _check_key_bindings(bindings: dict[str, list[str]]) -> None:
    """Every key is a known key name and does one thing only."""
    seen: dict[str, str] = {}
    for action, keys in bindings.items():
        for key in keys:
            if not is_key_name(key):
                raise ValueError(
                    f"{action}: {key!r} is not a key name (one lower-case character, or "
                    f"one of {', '.join(sorted(NAMED_KEYS))})"
                )
            if key in seen:
                raise ValueError(f"key {key!r} is bound to both {seen[key]} and {action}")
            seen[key] = action


class GameKeys(Section):
    """Keys during a game with a terminal (``play``/``assist`` listening to the microphone).

    Each action is a command word's id (the key asks what the word asks), or ``stop`` (silence
    the speech now playing), ``talk`` (press to talk: silence, record until pressed again) or
    ``quit`` (end the program; asked back once).
    """

    time: list[str] = Field(default=["t"], min_length=1)
    moves: list[str] = Field(default=["m"], min_length=1)
    repeat: list[str] = Field(default=["r"], min_length=1)
    last_move: list[str] = Field(default=["l"], min_length=1)
    position: list[str] = Field(default=["p"], min_length=1)
    scoresheet: list[str] = Field(default=["n"], min_length=1)
    whose_turn: list[str] = Field(default=["w"], min_length=1)
    touched: list[str] = Field(default=["b"], min_length=1)
    arbiter: list[str] = Field(default=["a"], min_length=1)
    help: list[str] = Field(default=["h"], min_length=1)
    stop: list[str] = Field(default=["space"], min_length=1)
    talk: list[str] = Field(default=["enter"], min_length=1)
    quit: list[str] = Field(default=["q"], min_length=1)
    # Exploring the board (voice.game.explore): a cursor square and requests about it.
    cursor_up: list[str] = Field(default=["up"], min_length=1)
    cursor_down: list[str] = Field(default=["down"], min_length=1)
    cursor_left: list[str] = Field(default=["left"], min_length=1)
    cursor_right: list[str] = Field(default=["right"], min_length=1)
    cursor_square: list[str] = Field(default=["s"], min_length=1)
    cursor_file: list[str] = Field(default=["f"], min_length=1)
    cursor_rank: list[str] = Field(default=["g"], min_length=1)
    cursor_diagonal: list[str] = Field(default=["d"], min_length=1)
    cursor_attackers: list[str] = Field(default=["x"], min_length=1)
    cursor_defenders: list[str] = Field(default=["c"], min_length=1)
    cursor_destinations: list[str] = Field(default=["z"], min_length=1)
    material: list[str] = Field(default=["e"], min_length=1)

    @model_validator(mode="after")
    def _known_and_distinct(self) -> GameKeys:
        _check_key_bindings(self.model_dump())
        return self


class SessionSettings(Section):
    profile: Profile
    blind: Side
    correction_window: Annotated[float, Field(ge=0, le=10)]
    always_confirm: bool
    repeat_back_check: bool
    journal_dir: str
    describe_board: bool = True
    keys: GameKeys = GameKeys()


class ClockKeys(Section):
    """Talking-clock keys by name (voice.keyboard): each action has one or more keys."""

    press: list[str] = Field(default=["space", "enter"], min_length=1)
    time: list[str] = Field(default=["t"], min_length=1)
    moves: list[str] = Field(default=["m"], min_length=1)
    pause: list[str] = Field(default=["p"], min_length=1)
    help: list[str] = Field(default=["h"], min_length=1)
    quit: list[str] = Field(default=["q"], min_length=1)

    @model_validator(mode="after")
    def _known_and_distinct(self) -> ClockKeys:
        _check_key_bindings(self.model_dump())
        return self


class ClockSettings(Section):
    time_control: str
    low_time_warnings: list[Annotated[int, Field(gt=0)]]
    warn_low_time: bool
    presets: dict[str, str]
    keys: ClockKeys = ClockKeys()

    @model_validator(mode="after")
    def _controls_readable(self) -> ClockSettings:
        for name, text in self.presets.items():
            try:
                parse_time_control(text)
            except TimeControlError as error:
                raise ValueError(f"preset {name!r}: {error}") from None
        try:
            parse_time_control(self.time_control, self.presets)
        except TimeControlError as error:
            raise ValueError(f"time_control: {error}") from None
        return self


class SpeechSettings(Section):
    recognizer: Literal["auto", "whisper", "sphinx", "vosk"]
    whisper_model: str = "whisper-base"
    second_opinion: bool = True
    """Whisper asks PocketSphinx when it would ask a move back; heard alike, it is played
    (voice.speech.recognizers.second_opinion)."""
    vosk_model: str
    nbest: Annotated[int, Field(ge=1, le=20)]
    adaptation: str
    learn_from_games: bool
    voice: str
    rate: Annotated[int, Field(ge=60, le=400)]
    volume: Annotated[float, Field(ge=0, le=1)]
    earcons: bool


class AudioSettings(Section):
    input_device: str | int
    output_device: str | int
    sample_rate: Literal[8000, 16000, 22050, 44100, 48000]
    end_of_utterance: Annotated[float, Field(ge=0.1, le=5)]
    early_end_of_utterance: Annotated[float, Field(ge=0.1, le=5)]
    echo_tail: Annotated[float, Field(ge=0, le=3)]
    output_latency: Annotated[float, Field(ge=0.01, le=0.5)]
    push_to_talk: bool
    half_duplex: bool
    stop_words: list[str]


class WebSettings(Section):
    host: str
    port: Annotated[int, Field(ge=0, le=65535)]
    open_spectators: bool
    large_text_moves: bool


class EngineSettings(Section):
    path: str
    level: Annotated[int, Field(ge=1, le=8)]
    ask_level: bool
    move_time: Annotated[float, Field(gt=0, le=60)]
    resigns: bool
    offers_draws: bool


class RulesSettings(Section):
    """Which edition of the FIDE Laws the games follow (voice.rules.laws, docs/laws-editions.md)."""

    edition: Literal["2023", "2018", "2001"] = "2023"


class Settings(Section):
    language: LanguageSettings
    vocabulary: VocabularySettings
    matching: MatchingSettings
    session: SessionSettings
    clock: ClockSettings
    speech: SpeechSettings
    audio: AudioSettings
    web: WebSettings
    engine: EngineSettings
    rules: RulesSettings = RulesSettings()


class ConfigError(Exception):
    """A configuration file is unreadable or holds a key or value that is not allowed
    (``keys``: the second; then the way out is to mend or drop the named keys)."""

    def __init__(self, text: str, *, keys: bool = False) -> None:
        super().__init__(text)
        self.keys = keys


def default_config_path() -> Path:
    return config_dir() / "default.toml"


def user_config_path() -> Path:
    """Where the user's own settings file is looked for when no --config is given."""
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError as error:  # TOML is UTF-8 (an editor saved Latin-1, say)
        raise ConfigError(
            f"{path}: not UTF-8 text (byte 0x{error.object[error.start]:02x} at position "
            f"{error.start}); save it in the UTF-8 encoding"
        ) from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error.strerror}") from None


def _merge(
    base: dict[str, Any], override: dict[str, Any], origin: dict[str, Path], path: Path, prefix: str
) -> dict[str, Any]:
    """Override ``base`` key by key; remember which file each overridden key came from."""
    merged = dict(base)
    for key, value in override.items():
        dotted = f"{prefix}{key}"
        origin[dotted] = path
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and key != "aliases":
            merged[key] = _merge(merged[key], value, origin, path, dotted + ".")
        else:
            merged[key] = value
    return merged


def _explain(error: ValidationError, origin: dict[str, Path], default: Path) -> ConfigError:
    lines = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"])
        source = default
        for length in range(len(item["loc"]), 0, -1):
            candidate = ".".join(str(part) for part in item["loc"][:length])
            if candidate in origin:
                source = origin[candidate]
                break
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "unknown key (see config/default.toml for the keys that exist)"
        elif item["type"] == "missing":
            message = "missing key"
        # a whole section's dump names nothing more: the message names the key inside it
        quiet = item["type"] == "missing" or isinstance(item.get("input"), dict)
        got = "" if quiet else f" (got {item.get('input')!r})"
        lines.append(f"{source}: key '{key}': {message}{got}")
    return ConfigError("\n".join(lines), keys=True)


def load_settings(user_file: Path | None = None, *, look_in_user_dir: bool = True) -> Settings:
    """Read the defaults, apply ``user_file`` (or the platformdirs one if it exists), validate.

    >>> load_settings(look_in_user_dir=False).session.profile
    'home'
    """
    default = default_config_path()
    data = _read_toml(default)
    origin: dict[str, Path] = {}
    if user_file is None and look_in_user_dir and user_config_path().exists():
        user_file = user_config_path()
    if user_file is not None:
        data = _merge(data, _read_toml(user_file), origin, user_file, "")
    try:
        settings = Settings.model_validate(data)
    except ValidationError as error:
        raise _explain(error, origin, default) from None
    return settings


def override(settings: Settings, **sections: dict[str, Any]) -> Settings:
    """A copy of ``settings`` with some keys replaced, validated like a user file.

    Used by command-line options (``--profile tournament``) and tests.
    """
    data = settings.model_dump()
    origin: dict[str, Path] = {}
    data = _merge(data, sections, origin, Path("<command line>"), "")
    try:
        return Settings.model_validate(data)
    except ValidationError as error:
        raise _explain(error, origin, Path("<command line>")) from None
