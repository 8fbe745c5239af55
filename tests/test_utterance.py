"""Reading commands from canonical tokens (docs/rules.md §7)."""

from __future__ import annotations

import chess
import pytest

from voice.words.utterance import Command, read_command
from voice.words.vocabulary import Vocabulary

DE = Vocabulary.default("de")
EN = Vocabulary.default("en")


@pytest.mark.parametrize(
    ("text", "vocab", "numbers", "command"),
    [
        ("Zeit", DE, False, Command("time")),
        ("Uhr", DE, False, Command("time")),
        ("äh Zeit", DE, False, Command("time")),
        ("letzter Zug", DE, False, Command("last_move")),
        ("letzte drei Züge", DE, False, Command("last_moves", count=3)),
        ("letzten 5 Züge", DE, False, Command("last_moves", count=5)),
        ("wo ist der Springer", DE, False, Command("where", piece=chess.KNIGHT)),
        ("wo sind die Bauern", DE, False, Command("where", piece=chess.PAWN)),
        ("wo sind die Türme", DE, False, Command("where", piece=chess.ROOK)),
        ("wer ist am Zug", DE, False, Command("whose_turn")),
        ("zurück", DE, False, Command("correction")),
        ("zurueck", DE, False, Command("correction")),
        ("zwei", DE, True, Command("choice", count=2)),
        ("Remis Turm Anna zwei", DE, False, Command("draw", rest=("turm", "anna", "zwei"))),
        ("where are the pawns", EN, False, Command("where", piece=chess.PAWN)),
        ("where is Springer", EN, False, Command("where", piece=chess.KNIGHT)),
        ("last three moves", EN, False, Command("last_moves", count=3)),
        ("three", EN, True, Command("choice", count=3)),
    ],
)
def test_section_7_command_words(
    text: str, vocab: Vocabulary, numbers: bool, command: Command
) -> None:
    assert read_command(vocab.normalize(text), vocab, numbers=numbers) == command


@pytest.mark.parametrize("text", ["zwei", "Springer Felix drei", "letzte Züge", "Eva vier"])
def test_a_move_or_a_number_outside_a_choice_is_no_command(text: str) -> None:
    assert read_command(DE.normalize(text), DE, numbers=False) is None


def test_where_without_a_piece_asks_which_piece() -> None:
    assert read_command(DE.normalize("wo ist"), DE) == Command("where")
