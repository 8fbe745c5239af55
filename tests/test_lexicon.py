"""The shipped pronunciation lexicon covers every word the program may listen for."""

from __future__ import annotations

import pytest

from voice.speech.recognizers.g2p import german_phones
from voice.speech.recognizers.lexicon import PHONES, Lexicon, LexiconError
from voice.words.vocabulary import FILLER_WORDS, Vocabulary


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load()


@pytest.mark.parametrize("command_set", ["de", "en"])
def test_every_vocabulary_word_has_a_shipped_pronunciation(
    lexicon: Lexicon, command_set: str
) -> None:
    vocab = Vocabulary.default(command_set)
    assert lexicon.missing(vocab.all_words() | FILLER_WORDS) == []


def test_every_pronunciation_uses_only_phones_of_the_acoustic_model(lexicon: Lexicon) -> None:
    for word, variants in lexicon.entries.items():
        for phones in variants:
            assert set(phones.split()) <= PHONES, word


def test_file_rank_and_piece_words_carry_several_variants(lexicon: Lexicon) -> None:
    vocab = Vocabulary.default()
    for word in (*vocab.file_words, *vocab.rank_words, "könig", "läufer", "springer"):
        assert len(lexicon.pronunciations(word)) >= 2, word


@pytest.mark.parametrize(
    ("word", "accented"),
    [
        ("gustav", "JH UH S T AA F"),  # "Justaf"
        ("zwei", "T S F AY"),  # "Tsfai"
        ("zwei", "Z F AY"),  # "Zfai"
        ("sechs", "Z IH K S"),  # "Ziks"
        ("cesar", "T S EY Z AA R"),  # "Zäsar", not "Kesar"
        ("hector", "HH EH K T OW R"),  # "Hektor"
    ],
)
def test_accented_forms_from_the_rules_are_variants_of_the_canonical_word(
    lexicon: Lexicon, word: str, accented: str
) -> None:
    assert accented in lexicon.pronunciations(word)


def test_a_word_outside_the_lexicon_gets_a_rule_based_german_pronunciation(
    lexicon: Lexicon,
) -> None:
    assert "alpha" not in lexicon
    (phones,) = lexicon.pronunciations("alpha")
    assert phones == german_phones("alpha") == "AA L F AA"
    assert german_phones("springer") == "SH P R IH NG ER"
    assert set(german_phones("schiedsrichterin").split()) <= PHONES


def test_a_line_with_an_unknown_phone_is_refused_with_file_and_line(tmp_path) -> None:
    bad = tmp_path / "bad.dict"
    bad.write_text("# comment\nturm T UH R M\nfünf F Ü N F\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"bad\.dict:3: 'fünf' has unknown phones"):
        Lexicon.load([bad])


def test_the_decoder_dictionary_numbers_the_variants(lexicon: Lexicon) -> None:
    text = lexicon.dictionary(["zwei"])
    lines = text.splitlines()
    assert lines[0].startswith("zwei ")
    assert lines[1].startswith("zwei(2) ")
    assert len(lines) == len(lexicon.pronunciations("zwei"))
