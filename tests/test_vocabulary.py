"""Appendix D vocabulary (docs/rules.md §1): every seed spelling maps onto one canonical word."""

from __future__ import annotations

import chess
import pytest

from voice.words.vocabulary import Vocabulary


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("Eve", "eva"),
        ("Eva", "eva"),
        ("Cesar", "cesar"),
        ("Cessar", "cesar"),
        ("Hector", "hector"),
        ("Hektor", "hector"),
        ("fünf", "fünf"),
        ("fuenf", "fünf"),
        ("König", "könig"),
        ("Koenig", "könig"),
        ("Läufer", "läufer"),
        ("Laeufer", "läufer"),
        ("Laeuffer", "läufer"),
        ("Justaf", "gustav"),
        ("Tsfai", "zwei"),
        ("Zfai", "zwei"),
        ("Ziks", "sechs"),
        ("schlaegt", "schlägt"),
        ("zurueck", "zurück"),
    ],
)
def test_seed_spelling_variants_are_understood(
    vocab: Vocabulary, spelling: str, canonical: str
) -> None:
    assert vocab.normalize(spelling) == (canonical,)


def test_square_words_follow_appendix_d(vocab: Vocabulary) -> None:
    assert vocab.square_words(chess.A1) == ("anna", "eins")
    assert vocab.square_words(chess.H8) == ("hector", "acht")
    assert vocab.square_words(chess.C5) == ("cesar", "fünf")


def test_display_capitalises_names_not_numbers(vocab: Vocabulary) -> None:
    assert vocab.display(("springer", "felix", "drei")) == "Springer Felix drei"
    assert vocab.display(("läufer", "schlägt", "cesar", "fünf", "schach")) == (
        "Läufer schlägt Cesar fünf Schach"
    )


def test_en_passant_is_two_tokens(vocab: Vocabulary) -> None:
    assert vocab.normalize("Eva schlägt David sechs enpassant") == (
        "eva",
        "schlägt",
        "david",
        "sechs",
        "en",
        "passant",
    )


def test_command_words_german_and_english() -> None:
    german = Vocabulary.default("de")
    english = Vocabulary.default("en")
    assert german.command_for(("zurück",)) == "correction"
    assert german.command_for(("uhr",)) == "time"
    assert english.command_for(("back",)) == "correction"
    assert english.command_for(("zeit",)) is None


def test_configured_rank_words_replace_the_german_ones(settings) -> None:  # type: ignore[no-untyped-def]
    from voice.config import override

    english_ranks = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    changed = override(settings, vocabulary={"rank_words": english_ranks})
    vocab = Vocabulary.from_settings(changed.vocabulary)
    assert vocab.square_words(chess.E4) == ("eva", "four")
    assert "vier" not in vocab.move_words()


def test_a_runs_vocabulary_has_its_configured_words_and_command_set(settings) -> None:  # type: ignore[no-untyped-def]
    """``Vocabulary.of``: what every command builds from the settings, the ``[vocabulary]``
    words with the command words of ``[language] commands`` (English commands, German files)."""
    from voice.config import override

    english_ranks = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    changed = override(
        settings, vocabulary={"rank_words": english_ranks}, language={"commands": "en"}
    )
    vocab = Vocabulary.of(changed)
    assert vocab.square_words(chess.E4) == ("eva", "four")
    assert vocab.command_for(("back",)) == "correction"
    assert vocab.command_for(("zeit",)) is None
