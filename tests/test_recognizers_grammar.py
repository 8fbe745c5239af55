"""The per-position grammar: exactly the allowed phrases, folded into a small word graph."""

from __future__ import annotations

from collections import defaultdict

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voice.config import load_settings
from voice.game.session import GameSession
from voice.rules.events import BlindSpeech, Say, parse_setup
from voice.speech.recognizers.grammar import (
    WordGraph,
    command_phrases,
    jsgf,
    position_phrases,
    word_graph,
    word_list,
)
from voice.speech.recognizers.sphinx import SphinxRecognizer
from voice.words.phrases import phrase_table
from voice.words.vocabulary import Phrase, Vocabulary

KIWIPETE = "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def spelled(graph: WordGraph) -> set[Phrase]:
    """Every word sequence from start to final (the graph is acyclic)."""
    edges: dict[int, list[tuple[int, str | None]]] = defaultdict(list)
    for a, b, word in graph.transitions:
        edges[a].append((b, word))
    out: set[Phrase] = set()
    stack: list[tuple[int, Phrase]] = [(graph.start, ())]
    while stack:
        state, words = stack.pop()
        if state == graph.final:
            out.add(words)
        for nxt, word in edges[state]:
            stack.append((nxt, words if word is None else (*words, word)))
    return out


words = st.sampled_from(["anna", "bella", "drei", "vier", "turm", "dame", "ja"])


@settings(max_examples=60, deadline=None)
@given(st.sets(st.lists(words, min_size=1, max_size=4).map(tuple), min_size=1, max_size=12))
def test_the_graph_spells_exactly_the_phrases_with_optional_check_words(
    phrases: set[Phrase],
) -> None:
    plain = {p for p in phrases if p[0] == "ja"}
    expected = set(phrases)
    expected |= {(*p, w) for p in phrases if p not in plain for w in ("schach", "matt")}
    assert spelled(word_graph(phrases, plain=plain)) == expected


def test_a_position_graph_is_much_smaller_than_its_phrase_list() -> None:
    vocab = Vocabulary.default()
    phrases = position_phrases(chess.Board(KIWIPETE), vocab)
    graph = word_graph(phrases)
    assert len(phrases) > 500
    assert len(graph.transitions) < sum(len(p) for p in phrases) / 4


def test_position_phrases_are_the_moves_plus_the_requests() -> None:
    vocab = Vocabulary.default()
    board = chess.Board()
    phrases = position_phrases(board, vocab)
    assert set(phrase_table(board, vocab).phrases) <= phrases
    assert command_phrases(vocab, answers=False) <= phrases
    assert ("ja",) not in phrases and ("zurück",) not in phrases  # nothing to answer
    assert ("springer", "felix", "drei") in phrases
    assert position_phrases(board, vocab, commands=False) == frozenset(
        phrase_table(board, vocab).phrases
    )


def test_the_word_list_for_vosk_holds_every_word_once_with_the_check_words() -> None:
    listed = word_list([("läufer", "fünf"), ("läufer", "zwei")])
    assert listed == ["fünf", "läufer", "matt", "schach", "zwei"]


def test_the_jsgf_text_is_a_grammar_pocketsphinx_accepts() -> None:
    text = jsgf([("springer", "felix", "drei"), ("bauer", "eva", "vier")])
    assert "( springer felix drei )" in text
    recognizer = SphinxRecognizer(Vocabulary.default())  # its dictionary has the words
    recognizer._decoder.add_jsgf_string("check", text)


@pytest.mark.parametrize("fen", [chess.STARTING_FEN, "4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1"])
def test_the_benchmarks_listen_for_what_the_game_listens_for_on_the_players_turn(
    fen: str,
) -> None:
    """``position_phrases`` (the ASR benchmark, the calibration, ``voice-chess recognize``) is
    the game's own grammar when the blind player is to move and nothing is asked: with the
    answers in it, the benchmark scored "ja" and "nein" beside every move, as the game never
    does."""
    setup = parse_setup({"setup": {"mode": "game", "blind": "white", "fen": fen}})
    session = GameSession(setup, load_settings(look_in_user_dir=False))
    assert position_phrases(chess.Board(fen), session.vocab) == session.phrases_now()


def test_korrektur_is_heard_right_after_the_players_move_to_be_told_it_is_too_late() -> None:
    """D.2.8 with no correction window: "Korrektur" after the move gets "Zu spät …" (as typed),
    not "Nicht verstanden" because the recogniser was not listening for it."""
    setup = parse_setup({"setup": {"mode": "game", "blind": "white"}})
    session = GameSession(setup, load_settings(look_in_user_dir=False))
    assert ("korrektur",) not in session.phrases_now()
    session.handle(BlindSpeech(1000, (("Eva vier", 0.9),)))
    assert {("korrektur",), ("zurück",)} <= session.phrases_now()
    said = session.handle(BlindSpeech(2000, (("korrektur", 0.9),)))
    assert [o.text for o in said if isinstance(o, Say)] == [
        "Zu spät: die Uhr des Gegners läuft schon. Bitte den Schiedsrichter rufen."
    ]
