"""The Appendix D words: files Anna…Hector, ranks eins…acht, pieces, castling, commands.

Everything the blind player may say is reduced to *canonical tokens*: lower-case words with
their umlauts ("läufer", "fünf", "zurück"). Variants (docs/rules.md §1: Eve, Cessar, Hektor,
fuenf, Koenig, Laeufer, Laeuffer; accented forms such as "Justaf") map onto them, so the rest of
the program never has to know how a word was spelt or heard.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import chess

from voice.config import Settings, VocabularySettings

Phrase = tuple[str, ...]
"""A spoken phrase as canonical tokens, e.g. ``("springer", "felix", "drei")``."""

NamedMoves = Mapping[Phrase, chess.Move]
"""Which phrases listened for name which of the player's moves (a position's
:meth:`voice.words.phrases.PhraseTable.named_moves`): phrases naming one move are no rivals
of each other for a recogniser. A phrase that may also mean something else (the opponent's
move said back, with or without a check word) is left out."""

PIECE_WORDS: Mapping[chess.PieceType, str] = {
    chess.KING: "könig",
    chess.QUEEN: "dame",
    chess.ROOK: "turm",
    chess.BISHOP: "läufer",
    chess.KNIGHT: "springer",
    chess.PAWN: "bauer",
}

CAPTURE_WORDS: Phrase = ("schlägt", "nimmt")
CHECK_WORD = "schach"
MATE_WORD = "matt"
EN_PASSANT: Phrase = ("en", "passant")
PROMOTION_WORDS: Phrase = ("wird", "umwandlung")
SHORT_CASTLING: Phrase = ("kurze", "rochade")
LONG_CASTLING: Phrase = ("lange", "rochade")

# Words a speaker puts around a move that carry no meaning for it ("Springer nach Felix drei").
FILLER_WORDS: frozenset[str] = frozenset(
    {
        "äh",
        "ähm",
        "öhm",
        "ehm",
        "hm",
        "also",
        "und",
        "nach",
        "auf",
        "von",
        "in",
        "zu",
        "ich",
        "spiele",
    }
    | {"der", "die", "das", "den", "mit", "zum", "um", "uh", "to", "the", "a"}
)

# Spelling variants from docs/rules.md §1 and the official translations, plus ASCII spellings of the
# umlauts and the accented forms seen in the seeds. The key is what may be typed or heard.
BUILTIN_ALIASES: Mapping[str, str] = {
    # files
    "eve": "eva",
    "cessar": "cesar",
    "caesar": "cesar",
    "zäsar": "cesar",
    "hektor": "hector",
    "justaf": "gustav",
    "gustaf": "gustav",
    # ranks
    "fuenf": "fünf",
    "funf": "fünf",
    "tsfai": "zwei",
    "zfai": "zwei",
    "ziks": "sechs",
    # pieces
    "koenig": "könig",
    "konig": "könig",
    "laeufer": "läufer",
    "laeuffer": "läufer",
    "läuffer": "läufer",
    "laufer": "läufer",
    # move words
    "schlaegt": "schlägt",
    "schlagt": "schlägt",
    "schachmatt": "matt",
    "enpassant": "en passant",
    # commands
    "zurueck": "zurück",
    "zuruck": "zurück",
    "zuege": "züge",
    "zuge": "züge",
    "stop": "stopp",
    "beruehrt": "berührt",
    "beruhrt": "berührt",
}


def yes_no_phrases(vocab: Vocabulary) -> frozenset[Phrase]:
    """Only "ja" and "nein": what a question asked back ("Stufe 2?") listens for, so that
    "nein" cannot be heard as a number; and the two answers the Whisper recogniser always
    weighs against each other."""
    return frozenset([*vocab.commands.get("yes", ()), *vocab.commands.get("no", ())])


ANSWER_COMMANDS = frozenset({"yes", "no", "correction", "repetition", "my_move"})
"""Commands that answer a question or take a move back: listened for only while one is open
(a request misheard as "zurück" or "ja" must not find them in the grammar)."""

# Command words (docs/rules.md §7). Each command id maps to the phrases that ask for it.
COMMAND_WORDS: Mapping[str, Mapping[str, tuple[Phrase, ...]]] = {
    "de": {
        "yes": (("ja",),),
        "no": (("nein",),),
        "correction": (("korrektur",), ("zurück",)),
        "time": (("zeit",), ("uhr",)),
        "moves": (("züge",),),
        "repeat": (("wiederholen",),),
        "last_move": (("letzter", "zug"),),
        "position": (("stellung",), ("brett",)),
        "where": (("wo", "ist"), ("wo", "sind")),
        "file": (("linie",),),
        "rank": (("reihe",),),
        "diagonal": (("diagonale",),),
        "square": (("was", "steht"),),
        "attackers": (("wer", "greift"),),
        "defenders": (("wer", "deckt"),),
        "destinations": (("wohin",),),
        "material": (("material",),),
        "whose_turn": (("wer", "ist", "am", "zug"),),
        "scoresheet": (("partie",), ("notation",)),
        "draw": (("remis",),),
        "resign": (("aufgabe",),),
        "arbiter": (("schiedsrichter",),),
        "touched": (("berührt",),),
        "repetition": (("wiederholung",),),
        "my_move": (("zug",), ("mein", "zug")),
        "pause": (("pause",),),
        "stop": (("stopp",), ("ruhe",)),
        "help": (("hilfe",),),
    },
    "en": {
        "yes": (("yes",),),
        "no": (("no",),),
        "correction": (("correction",), ("back",)),
        "time": (("time",), ("clock",)),
        "moves": (("moves",),),
        "repeat": (("repeat",),),
        "last_move": (("last", "move"),),
        "position": (("position",), ("board",)),
        "where": (("where", "is"), ("where", "are")),
        "file": (("file",),),
        "rank": (("rank",),),
        "diagonal": (("diagonal",),),
        "square": (("what", "is", "on"),),
        "attackers": (("who", "attacks"),),
        "defenders": (("who", "defends"),),
        "destinations": (("where", "can"),),
        "material": (("material",),),
        "whose_turn": (("whose", "turn"),),
        "scoresheet": (("scoresheet",), ("score", "sheet")),
        "draw": (("draw",),),
        "resign": (("resign",),),
        "arbiter": (("arbiter",),),
        "touched": (("touched",),),
        "repetition": (("repetition",),),
        "my_move": (("move",), ("my", "move")),
        "pause": (("pause",),),
        "stop": (("stop",), ("quiet",)),
        "help": (("help",),),
    },
}

# Numbers for choosing among offered candidates ("eins" = the first one), 1 to 9.
NUMBER_WORDS: Mapping[str, Phrase] = {
    "de": ("eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"),
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
}

_WORD_RE = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)

# How a canonical token is written for people: nouns capitalised, numbers and verbs not.
_DISPLAY: Mapping[str, str] = {
    "könig": "König",
    "dame": "Dame",
    "turm": "Turm",
    "läufer": "Läufer",
    "springer": "Springer",
    "bauer": "Bauer",
    "kurze": "Kurze",
    "lange": "Lange",
    "rochade": "Rochade",
    "schach": "Schach",
    "umwandlung": "Umwandlung",
    "linie": "Linie",
    "reihe": "Reihe",
    "diagonale": "Diagonale",
    "material": "Material",
}


_COMMAND_NOUNS: Mapping[str, Mapping[str, str]] = {
    "de": {
        "korrektur": "Korrektur",
        "zeit": "Zeit",
        "uhr": "Uhr",
        "züge": "Züge",
        "zug": "Zug",
        "stellung": "Stellung",
        "brett": "Brett",
        "partie": "Partie",
        "notation": "Notation",
        "remis": "Remis",
        "aufgabe": "Aufgabe",
        "schiedsrichter": "Schiedsrichter",
        "wiederholung": "Wiederholung",
        "pause": "Pause",
        "ruhe": "Ruhe",
        "hilfe": "Hilfe",
    },
}
"""The nouns of a command set, capitalised as its language writes them. Whisper writes German
as it is spelt: a phrase it is asked to score in lower case ("zeit") costs it a spelling it
would never write, and a short answer lost to a rival spelt right (see
:func:`voice.speech.recognizers.whisper.written`). English writes none of its command words
with a capital ("pause" is a word of both sets)."""


@dataclass(frozen=True)
class Vocabulary:
    """The words of one game: configured file and rank words, aliases, one command set."""

    file_words: Phrase
    rank_words: Phrase
    aliases: Mapping[str, str]
    command_set: str = "de"
    commands: Mapping[str, tuple[Phrase, ...]] = field(default_factory=dict)
    number_words: Phrase = ()
    _display: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: VocabularySettings, command_set: str = "de") -> Vocabulary:
        """Build the vocabulary from the ``[vocabulary]`` section and the command-word set."""
        display = {**_DISPLAY, **_COMMAND_NOUNS.get(command_set, {})}
        files = tuple(word.strip().lower() for word in settings.file_words)
        for configured in settings.file_words:
            display[configured.strip().lower()] = configured.strip()
        ranks = tuple(word.strip().lower() for word in settings.rank_words)
        aliases = {**BUILTIN_ALIASES}
        aliases.update({k.strip().lower(): v.strip().lower() for k, v in settings.aliases.items()})
        # A configured word is never an alias of something else.
        for word in (*files, *ranks):
            aliases.pop(word, None)
        return cls(
            file_words=files,
            rank_words=ranks,
            aliases=aliases,
            command_set=command_set,
            commands=COMMAND_WORDS[command_set],
            number_words=NUMBER_WORDS[command_set],
            _display=display,
        )

    @classmethod
    def of(cls, settings: Settings) -> Vocabulary:
        """The vocabulary of a run: the ``[vocabulary]`` words with the command words of
        ``[language] commands``."""
        return cls.from_settings(settings.vocabulary, settings.language.commands)

    @classmethod
    def default(cls, command_set: str = "de") -> Vocabulary:
        """The Appendix D vocabulary with default settings (handy in tests and examples)."""
        from voice.config import load_settings

        return cls.from_settings(load_settings(look_in_user_dir=False).vocabulary, command_set)

    # -- words --------------------------------------------------------------------------

    def square_words(self, square: chess.Square) -> Phrase:
        """``chess.F3`` → ``("felix", "drei")``."""
        return (
            self.file_words[chess.square_file(square)],
            self.rank_words[chess.square_rank(square)],
        )

    def piece_word(self, piece_type: chess.PieceType) -> str:
        return PIECE_WORDS[piece_type]

    def move_words(self) -> frozenset[str]:
        """Every canonical token that can appear in a move phrase."""
        return frozenset(
            {*self.file_words, *self.rank_words, *PIECE_WORDS.values(), *CAPTURE_WORDS}
            | {
                CHECK_WORD,
                MATE_WORD,
                *EN_PASSANT,
                *PROMOTION_WORDS,
                *SHORT_CASTLING,
                *LONG_CASTLING,
            }
        )

    def command_words(self) -> frozenset[str]:
        return frozenset(
            word for phrases in self.commands.values() for phrase in phrases for word in phrase
        )

    def all_words(self) -> frozenset[str]:
        """Everything a recogniser may be asked to hear in this configuration."""
        return self.move_words() | self.command_words() | frozenset(self.number_words)

    # -- text ---------------------------------------------------------------------------

    def normalize(self, text: str) -> Phrase:
        """Split typed or recognised text into canonical tokens.

        >>> Vocabulary.default().normalize("Laeuffer Eve fuenf, Schach!")
        ('läufer', 'eva', 'fünf', 'schach')
        """
        tokens: list[str] = []
        for raw in _WORD_RE.findall(text.lower()):
            tokens.extend(self.aliases.get(raw, raw).split())
        return tuple(tokens)

    def normalize_words(self, words: Iterable[str]) -> Phrase:
        return self.normalize(" ".join(words))

    def display(self, phrase: Iterable[str]) -> str:
        """Canonical tokens → how they are written: ``Springer Felix drei``."""
        return " ".join(self._display.get(word, word) for word in phrase)

    def command_for(self, phrase: Phrase) -> str | None:
        """The command id a phrase asks for exactly, or None."""
        for command, phrases in self.commands.items():
            if phrase in phrases:
                return command
        return None
