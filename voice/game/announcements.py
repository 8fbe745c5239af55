"""Answers to the blind player's requests (D.2.10.4: only on request).

Time of both players and the move count, the moves to the time control, the last moves, whose
turn it is, and help with the words that make sense in the current state. Each answer is whole
sentences from the message catalogue; numbers and times are words (never "05:00").
"""

from __future__ import annotations

from collections.abc import Sequence

from voice.game.scoresheet import Entry, Scoresheet
from voice.rules.approval import SetupApproval
from voice.rules.clock import Clock
from voice.rules.events import Side
from voice.rules.laws import laws_for
from voice.words.messages import message
from voice.words.spoken_time import count_words, duration_words
from voice.words.vocabulary import Vocabulary


def side_name(side: Side, language: str) -> str:
    return message(language, f"game.side.{side}")


def moves_words(clock: Clock, side: Side, language: str) -> str:
    """ "Zwölf Züge gespielt. Noch acht Züge bis zur Zeitkontrolle." for ``side``."""
    done = message(
        language,
        "game.moves.done",
        moves=count_words(clock.moves_completed(side), "move", language),
    )
    left = clock.moves_to_control(side)
    if left is None:
        return done
    return " ".join(
        (
            done,
            message(language, "game.moves.to_control", moves=count_words(left, "move", language)),
        )
    )


def time_words(clock: Clock, now_ms: int, side: Side, language: str) -> str:
    """Both players' time, then the move count of the asking player (D.2.6.1)."""
    times = message(
        language,
        "game.time.report",
        white=duration_words(clock.remaining_ms("white", now_ms), language),
        black=duration_words(clock.remaining_ms("black", now_ms), language),
    )
    sentences = [times]
    if clock.paused:
        sentences.append(message(language, "game.time.paused"))
    sentences.append(moves_words(clock, side, language))
    return " ".join(sentences)


def last_moves_words(sheet: Scoresheet, count: int, language: str) -> str:
    """The last ``count`` moves, numbered as on the scoresheet."""
    if not sheet.entries:
        return message(language, "scoresheet.empty")
    chosen: Sequence[Entry] = sheet.entries[-count:]
    return sheet.spoken_lines(language, list(chosen))


def last_move_words(sheet: Scoresheet, language: str) -> str:
    if not sheet.entries:
        return message(language, "scoresheet.empty")
    entry = sheet.entries[-1]
    return message(
        language, "game.last_move", side=side_name(entry.by, language), move=entry.spoken
    )


def command_list(vocab: Vocabulary, names: Sequence[str], language: str) -> str:
    """The first spoken form of each command, as a list: "Zeit, Züge, Stellung, …"."""
    words = [vocab.display(vocab.commands[name][0]) for name in names if vocab.commands.get(name)]
    return message(language, "position.separator").join(words)


def command_word(vocab: Vocabulary, name: str) -> str:
    """How a sentence names the command the player says: its first spoken form, German
    nouns capitalised ("Korrektur", "Remis", "Zeit"; "ja" and "nein" stay small)."""
    word = vocab.display(vocab.commands[name][0])
    if vocab.command_set == "de" and name not in ("yes", "no"):
        return word[:1].upper() + word[1:]
    return word


def command_words(vocab: Vocabulary) -> dict[str, str]:
    """The placeholders through which every catalogue names the words to say, so that a
    sentence in any language gives the words of the configured command set (German by
    default, English when ``[language] commands = "en"``), never words of its own."""
    return {
        "yes_word": command_word(vocab, "yes"),
        "no_word": command_word(vocab, "no"),
        "correction_word": command_word(vocab, "correction"),
        "draw_word": command_word(vocab, "draw"),
        "repetition_word": command_word(vocab, "repetition"),
        "move_word": command_word(vocab, "my_move"),
        "pause_word": command_word(vocab, "pause"),
        "one_word": vocab.number_words[0],
    }


def setup_rules(approval: SetupApproval, language: str) -> str:
    """What a tournament board's set-up says beyond the clock and the words, for the arbiter
    to approve: board descriptions on request (analysis aids never, 11.3.1), a hearing-impaired
    opponent (D.2.11) and the Laws edition."""
    key = "describe_on" if approval.describe_board else "describe_off"
    parts = [message(language, f"app.assist.{key}")]
    if approval.deaf_opponent:
        parts.append(message(language, "app.assist.deaf"))
    laws = laws_for(approval.laws)
    parts.append(message(language, f"app.laws.{laws.appendix.lower()}", edition=laws.edition) + ".")
    return " ".join(parts)
