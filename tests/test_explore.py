"""Exploring the board by voice and keys (issue 22): a line, one square, attacks and cover,
where a piece can go, material, the cursor; and the tournament profile's rule (D.2.10.4 for
descriptions, FIDE 11.3.1 for analysis aids)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import pytest
from session_scripts import run, run_text, says
from speech_audio import needs_espeak, synthesize

from voice.config import Settings, override
from voice.game.explore import EXPLORE_KEYS, diagonal_between, longer_diagonal, material_words
from voice.game.session import GameSession
from voice.rules.events import BlindSpeech, KeyPress, Setup
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.recognizers.whisper import WhisperRecognizer
from voice.words.explore_words import EXPLORE_COMMANDS, every_explore_phrase, explore_phrases
from voice.words.matcher import Decision, Hypothesis, match_move
from voice.words.messages import message
from voice.words.phrases import phrase_table
from voice.words.utterance import read_command
from voice.words.vocabulary import Vocabulary

LANGUAGES = ("de", "en", "ar", "fa", "he")


def session(
    settings: Settings,
    *,
    blind: str = "white",
    profile: str = "home",
    fen: str | None = None,
) -> GameSession:
    setup = Setup(
        mode="game",
        blind=blind,  # type: ignore[arg-type]
        time_control="900+10",
        profile=profile,  # type: ignore[arg-type]
        fen=fen,
    )
    return GameSession(setup, settings)


def ask(game: GameSession, text: str, t: int = 1000) -> list[str]:
    """What the blind player hears after saying ``text``."""
    events = game.handle(BlindSpeech(t, ((text, 1.0),)))
    return [e.text for e in events if getattr(e, "to", None) == "blind"]


def key(game: GameSession, name: str, t: int = 1000) -> list[str]:
    events = game.handle(KeyPress(t, name))
    return [e.text for e in events if getattr(e, "to", None) == "blind"]


# -- scanning a line --------------------------------------------------------------------------


def test_a_file_is_read_from_the_own_side_with_empty_stretches_counted(
    settings: Settings,
) -> None:
    out = run("explore_home", settings)
    assert says(out, "blind", 10.0) == [
        "Eva eins weißer König, zwei Felder leer, Eva vier weißer Bauer, zwei Felder leer, "
        "Eva sieben schwarzer Bauer, Eva acht schwarzer König."
    ]
    assert says(out, "blind", 11.0) == [
        "vier Felder leer, Eva vier weißer Bauer, drei Felder leer."
    ]


def test_empty_squares_are_counted_the_same_way_whatever_their_number(
    settings: Settings,
) -> None:
    """ "drei leer" and then "ein Feld leer" in one answer read as two kinds of thing (a
    review): every count names the squares."""
    game = session(settings, fen="4k3/8/8/8/8/8/4P3/R3K2R w - - 0 1")
    assert ask(game, "Reihe eins") == [
        "Anna eins weißer Turm, drei Felder leer, Eva eins weißer König, zwei Felder leer, "
        "Hector eins weißer Turm."
    ]
    assert ask(game, "Linie Eva") == [
        "Eva eins weißer König, Eva zwei weißer Bauer, fünf Felder leer, Eva acht schwarzer König."
    ]
    assert ask(game, "Reihe zwei") == ["vier Felder leer, Eva zwei weißer Bauer, drei Felder leer."]
    assert ask(game, "Diagonale Anna eins") == ["Anna eins weißer Turm, sieben Felder leer."]


def test_a_full_rank_of_the_start_position_names_all_eight_pieces(settings: Settings) -> None:
    game = session(settings)
    assert ask(game, "Reihe eins") == [
        "Anna eins weißer Turm, Bella eins weißer Springer, Cesar eins weißer Läufer, "
        "David eins weiße Dame, Eva eins weißer König, Felix eins weißer Läufer, "
        "Gustav eins weißer Springer, Hector eins weißer Turm."
    ]
    assert ask(game, "Reihe fünf") == ["Anna fünf bis Hector fünf: alles leer."]


def test_the_black_player_hears_lines_from_their_own_side(settings: Settings) -> None:
    game = session(settings, blind="black")
    assert ask(game, "Linie Anna")[0].startswith("Anna acht schwarzer Turm, Anna sieben")
    assert ask(game, "Reihe acht")[0].startswith("Hector acht schwarzer Turm, Gustav acht")


def test_a_diagonal_named_by_its_ends_is_read_from_the_first_named(settings: Settings) -> None:
    game = session(settings)
    assert ask(game, "Diagonale Hector acht Anna eins") == [
        "Hector acht schwarzer Turm, Gustav sieben schwarzer Bauer, vier Felder leer, "
        "Bella zwei weißer Bauer, Anna eins weißer Turm."
    ]
    assert ask(game, "Diagonale Anna eins Hector sieben") == [
        "Anna eins und Hector sieben liegen nicht auf einer Diagonale."
    ]


def test_one_square_names_the_longer_of_its_two_diagonals() -> None:
    # Cesar eins: Cesar eins–Hector sechs (six squares), not Cesar eins–Anna drei (three).
    assert set(longer_diagonal(chess.C1)) == {
        chess.C1,
        chess.D2,
        chess.E3,
        chess.F4,
        chess.G5,
        chess.H6,
    }
    assert set(longer_diagonal(chess.F1)) == {
        chess.A6,
        chess.B5,
        chess.C4,
        chess.D3,
        chess.E2,
        chess.F1,
    }
    for square in chess.SQUARES:  # on 8×8 the two diagonals never have the same length
        rising = 8 - abs(chess.square_file(square) - chess.square_rank(square))
        falling = 8 - abs(chess.square_file(square) + chess.square_rank(square) - 7)
        assert len(longer_diagonal(square)) == max(rising, falling) != min(rising, falling)
    assert diagonal_between(chess.C1, chess.E3) == [chess.C1, chess.D2, chess.E3]
    assert diagonal_between(chess.C1, chess.C3) is None


# -- one square, attacks, where a piece can go, material --------------------------------------


def test_one_square_says_the_piece_or_empty(settings: Settings) -> None:
    out = run("explore_home", settings)
    assert says(out, "blind", 14.0) == ["David fünf: schwarzer Bauer."]
    game = session(settings)
    assert ask(game, "was steht auf David fünf") == ["David fünf: leer."]


def test_attackers_are_the_other_side_and_defenders_the_own(settings: Settings) -> None:
    out = run("explore_home", settings)
    assert says(out, "blind", 15.0) == ["Angriff auf David fünf: Weiß mit Bauer Eva vier."]
    assert says(out, "blind", 16.0) == ["Deckung für David fünf: Schwarz mit Dame David acht."]


def test_an_empty_square_names_what_covers_it_on_both_sides(settings: Settings) -> None:
    game = session(settings)
    assert ask(game, "wer greift Felix drei an") == [
        "Angriff auf Felix drei: Weiß mit Springer Gustav eins, Bauer Eva zwei, Bauer Gustav zwei."
    ]
    assert ask(game, "wer deckt Eva fünf") == ["Niemand deckt Eva fünf."]


def test_where_a_piece_can_go_in_appendix_d_words(settings: Settings) -> None:
    game = session(settings)
    expected = ["Springer Gustav eins: Felix drei, Hector drei."]
    assert ask(game, "Wohin kann der Springer auf Gustav eins?") == expected
    assert ask(game, "Springer Gustav eins wohin") == expected
    assert ask(game, "wohin Eva eins") == ["König Eva eins: kein Zug."]
    # A piece named wrongly: what stands there is said instead.
    assert ask(game, "wohin Läufer Gustav eins") == ["Gustav eins: weißer Springer."]


def test_a_pinned_piece_says_why_it_cannot_move(settings: Settings) -> None:
    fen = "4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1"  # the knight on d2 is pinned by the bishop a5
    game = session(settings, fen=fen)
    assert ask(game, "Springer David zwei wohin") == [
        "Der Springer auf David zwei ist gefesselt. Springer David zwei: kein Zug."
    ]
    fen = "3k4/8/8/8/8/8/4R3/4K2r w - - 0 1"  # in check along the rank: the rook cannot help
    game = session(settings, fen=fen)
    assert ask(game, "Turm Eva zwei wohin") == [
        "Der König steht im Schach. Turm Eva zwei: kein Zug."
    ]


def test_a_partly_pinned_piece_names_the_moves_along_the_pin(settings: Settings) -> None:
    fen = "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"  # the rook e2 may move on the e-file only
    game = session(settings, fen=fen)
    assert ask(game, "Turm Eva zwei wohin") == [
        "Der Turm auf Eva zwei ist gefesselt. Turm Eva zwei: Eva drei, Eva vier, Eva fünf, "
        "Eva sechs, Eva sieben, schlägt Eva acht."
    ]


def test_material_counts_captures_and_the_balance() -> None:
    board = chess.Board()
    for san in ("e4", "d5", "exd5", "Nf6", "c4", "c6", "dxc6", "Nxc6"):
        board.push_san(san)
    assert material_words(board, "de") == (
        "Weiß hat geschlagen: zwei Bauern. Schwarz hat geschlagen: Bauer. "
        "Weiß hat einen Punkt mehr."
    )
    promoted = chess.Board("4k3/8/8/8/8/8/8/4K2Q w - - 0 1")
    assert material_words(promoted, "de").endswith("Weiß hat neun Punkte mehr.")


def test_material_after_an_exchange_in_a_script(settings: Settings) -> None:
    out = run("explore_home", settings)
    assert says(out, "blind", 18.0) == [
        "Weiß hat geschlagen: nichts. Schwarz hat geschlagen: nichts. Material ausgeglichen."
    ]
    assert says(out, "blind", 25.0) == [
        "Weiß hat geschlagen: Bauer. Schwarz hat geschlagen: Bauer. Material ausgeglichen."
    ]


def test_a_request_without_its_square_asks_for_one(settings: Settings) -> None:
    game = session(settings)
    assert ask(game, "Linie") == ["Welches Feld oder welche Linie? Zum Beispiel: Linie Eva."]
    assert ask(game, "wer deckt") == [
        "Welches Feld oder welche Linie? Zum Beispiel: wer deckt David fünf."
    ]


def test_no_request_changes_the_game(settings: Settings) -> None:
    game = session(settings)
    before = game.board.fen()
    for text in ("Linie Eva", "wer greift Eva vier an", "Material", "Springer Gustav eins wohin"):
        ask(game, text)
    assert game.board.fen() == before
    assert game.sheet.entries == []


# -- the cursor -------------------------------------------------------------------------------


def test_the_cursor_moves_from_the_own_corner_and_reads_each_square(settings: Settings) -> None:
    game = session(settings)
    assert key(game, "cursor_up") == ["Anna zwei: weißer Bauer."]
    assert key(game, "cursor_right") == ["Bella zwei: weißer Bauer."]
    assert key(game, "cursor_down") == ["Bella eins: weißer Springer."]
    assert key(game, "cursor_destinations") == ["Springer Bella eins: Anna drei, Cesar drei."]
    assert key(game, "cursor_file")[0].startswith("Bella eins weißer Springer, Bella zwei")


def test_the_cursor_stops_at_the_edge_and_says_so(settings: Settings) -> None:
    game = session(settings)
    assert key(game, "cursor_left") == ["Rand. Anna eins: weißer Turm."]
    black = session(settings, blind="black")  # up is towards White for Black
    assert key(black, "cursor_down") == ["Rand. Hector acht: schwarzer Turm."]
    assert key(black, "cursor_up") == ["Hector sieben: schwarzer Bauer."]


def test_a_square_asked_by_voice_moves_the_cursor_there(settings: Settings) -> None:
    out = run("explore_home", settings)
    # "Wohin kann der Springer auf Gustav eins" at 17 s, then up, right, left.
    assert says(out, "blind", 26.0) == ["Gustav zwei: weißer Bauer."]
    assert says(out, "blind", 30.0) == ["Angriff auf Gustav zwei: Schwarz mit Dame David fünf."]


def test_the_default_keys_are_bound_and_distinct(settings: Settings) -> None:
    keys = settings.session.keys.model_dump()
    for action in ("cursor_up", "cursor_down", "cursor_left", "cursor_right", "material"):
        assert keys[action]
    assert keys["cursor_up"] == ["up"] and keys["cursor_left"] == ["left"]


# -- the tournament profile -------------------------------------------------------------------


def test_11_3_tournament_refuses_analysis_aids_and_logs_them(settings: Settings) -> None:
    out = run("explore_tournament", settings)
    refusal = (
        "Im Turnier nicht erlaubt: Artikel 11.3 der Schachregeln verbietet Hilfen zur Analyse."
    )
    for t in (12.0, 13.0, 14.0, 15.0, 17.0):
        assert says(out, "blind", t) == [refusal]
    assert says(out, "arbiter", 12.0) == [
        "Abgelehnte Anfrage von Schwarz (Turnierprofil): wer greift Eva vier an"
    ]
    assert says(out, "arbiter", 15.0) == [
        "Abgelehnte Anfrage von Schwarz (Turnierprofil): Material"
    ]


def test_D_2_10_4_tournament_answers_descriptions_on_request_by_default(
    settings: Settings,
) -> None:
    out = run("explore_tournament", settings)
    assert says(out, "blind", 10.0)[0].startswith("Eva acht schwarzer König")
    assert says(out, "blind", 10.5) == ["Hector fünf bis Anna fünf: alles leer."]
    assert says(out, "blind", 10.7)[0].startswith("Anna eins weißer Turm, Bella zwei weißer Bauer")
    assert says(out, "blind", 11.0) == ["Eva vier: weißer Bauer."]
    assert says(out, "arbiter", 10.0) == says(out, "arbiter", 10.5) == []
    help_text = says(out, "blind", 18.0)[0]
    assert "Linie Eva" in help_text and "wer greift" not in help_text


def test_the_arbiter_can_switch_board_descriptions_off(settings: Settings) -> None:
    out = run("explore_tournament_no_description", settings)
    refusal = "Der Schiedsrichter hat Beschreibungen des Bretts in dieser Partie nicht zugelassen."
    for t in (10.0, 11.0, 12.0, 13.0, 14.0):
        assert says(out, "blind", t) == [refusal]
    assert says(out, "arbiter", 10.0) == ["Abgelehnte Anfrage von Weiß (Turnierprofil): Stellung"]
    assert says(out, "blind", 15.0)[0].startswith("Weiß vierzehn Minuten")  # time still answered
    assert "stellung" not in says(out, "blind", 16.0)[0]
    assert "Erkunden" not in says(out, "blind", 16.0)[0]


def test_the_setting_switches_descriptions_off_for_every_tournament_game(
    settings: Settings,
) -> None:
    strict = override(settings, session={"describe_board": False})
    game = session(strict, profile="tournament")
    assert ask(game, "Linie Eva") == [
        "Der Schiedsrichter hat Beschreibungen des Bretts in dieser Partie nicht zugelassen."
    ]
    assert [entry.kind for entry in game.log] == ["request_refused"]
    home = session(strict, profile="home")  # at home the program is its own arbiter
    assert ask(home, "Linie Eva")[0].startswith("Eva eins weißer König")


def test_the_arbiter_s_log_names_the_piece_asked_about(settings: Settings) -> None:
    game = session(settings, profile="tournament")
    ask(game, "wohin Cesar eins", 1000)
    ask(game, "wohin Eva vier", 2000)  # an empty square
    assert [entry.detail for entry in game.log] == ["Läufer Cesar eins wohin", "wohin Eva vier"]


def test_a_refused_request_is_in_the_journal_state_for_the_arbiter(settings: Settings) -> None:
    game = session(settings, profile="tournament")
    ask(game, "Material", 5000)
    assert game.state()["log"] == [
        {"t": 5.0, "kind": "request_refused", "side": "white", "detail": "Material"}
    ]


# -- words and grammar ------------------------------------------------------------------------


@pytest.mark.parametrize("command_set", ["de", "en"])
def test_every_request_phrase_reads_back_as_its_request(command_set: str) -> None:
    vocab = Vocabulary.default(command_set)
    for phrase in every_explore_phrase(vocab):
        command = read_command(phrase, vocab)
        assert command is not None and command.name in EXPLORE_COMMANDS, phrase
        assert command.squares or command.name == "material", phrase


@pytest.mark.parametrize("command_set", ["de", "en"])
def test_no_request_phrase_is_a_move_phrase_and_moves_stay_moves(
    settings: Settings, command_set: str
) -> None:
    vocab = Vocabulary.default(command_set)
    board = chess.Board()
    board.push_san("e4")
    board.push_san("e5")
    moves = set(phrase_table(board, vocab).phrases)
    requests = explore_phrases(board, vocab)
    assert not moves & requests
    # "Eva vier" is no request; "Linie Eva" is no move.
    assert read_command(vocab.normalize("Eva vier"), vocab) is None
    assert read_command(vocab.normalize("Springer Felix drei"), vocab) is None
    linie = vocab.display(vocab.commands["file"][0]) + " Eva"
    heard = [Hypothesis(vocab.normalize(linie), 1.0)]
    assert match_move(board, heard, vocab, settings.matching).decision != Decision.ACCEPT


def test_the_recogniser_grammar_holds_the_requests(settings: Settings) -> None:
    game = session(settings)
    vocab = game.vocab
    grammar = game.phrases_now()
    assert ("linie", "eva") in grammar
    assert ("diagonale", "anna", "eins", "hector", "acht") in grammar
    assert ("was", "steht", "auf", "david", "fünf") in grammar
    assert ("wer", "greift", "david", "fünf", "an") in grammar
    assert ("springer", "gustav", "eins", "wohin") in grammar
    assert ("wohin", "kann", "die", "dame", "auf", "david", "eins") in grammar
    assert ("wohin", "kann", "der", "springer", "auf", "gustav", "drei") not in grammar  # empty
    assert explore_phrases(game.board, vocab) <= position_phrases(game.board, vocab)
    # Their bare beginnings are not listened for: alone they won over the whole request.
    for bare in (("linie",), ("reihe",), ("wer", "deckt"), ("wer", "greift"), ("wohin",)):
        assert bare not in grammar and bare not in position_phrases(game.board, vocab)
    assert ("material",) in grammar
    assert {"kann", "an", "auf"} <= game.words_now()


def test_a_typed_request_is_answered_like_a_spoken_one(settings: Settings) -> None:
    script = """
{"setup": {"mode": "game", "blind": "white", "time_control": "900+10"}}
{"t": 1, "blind": "linie eva"}
{"t": 2, "blind_nbest": [["Linie Eva", 0.9], ["Eva vier", 0.4]]}
{"t": 3, "arbiter": {"action": "pause"}}
"""
    out = run_text(script, settings)
    assert says(out, "blind", 1.0) == says(out, "blind", 2.0)
    assert not [line for line in out if "move" in line]


# -- every language -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_answers_are_in_the_player_s_language(settings: Settings, language: str) -> None:
    game = session(settings)
    game.language = language
    empty = message(language, "explore.square_empty", square="David fünf")
    assert ask(game, "was steht auf David fünf") == [empty]
    knight = message(language, "explore.piece.black_knight")
    assert ask(game, "was steht auf Gustav acht") == [
        message(language, "explore.square", square="Gustav acht", piece=knight)
    ]
    line = ask(game, "Linie Eva")[0]
    assert message(language, "explore.piece.white_king") in line
    assert message(language, "explore.empty_many", count=_number(4, language)) in line
    material = ask(game, "Material")[0]
    assert message(language, "explore.balance_even") in material
    tournament = session(settings, profile="tournament")
    tournament.language = language
    assert ask(tournament, "Material") == [message(language, "explore.refused_analysis")]


def _number(n: int, language: str) -> str:
    from voice.words.spoken_time import number_words

    return number_words(n, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_names_the_requests_in_every_language(settings: Settings, language: str) -> None:
    script = json.dumps(
        {
            "setup": {
                "mode": "game",
                "blind": "white",
                "time_control": "900+10",
                "language": language,
            }
        }
    )
    out = run_text(script + '\n{"t": 1, "blind": "Hilfe"}', settings)
    text = says(out, "blind", 1.0)[0]
    for example in ("Linie Eva", "Reihe vier", "wer greift David fünf an", "Material"):
        assert example in text, (language, text)


def test_the_english_command_set_explores_too(settings: Settings) -> None:
    english = override(settings, language={"commands": "en", "blind": "en"})
    game = session(english)
    assert ask(game, "file Eva") == [
        "Eva eins white König, Eva zwei white Bauer, four empty, Eva sieben black Bauer, "
        "Eva acht black König."
    ]
    assert ask(game, "what is on David fünf") == ["David fünf: empty."]
    assert ask(game, "who attacks Felix drei") == [
        "Attacking Felix drei: White with Springer Gustav eins, Bauer Eva zwei, Bauer Gustav zwei."
    ]
    assert ask(game, "where can the Springer on Gustav eins go") == [
        "Springer Gustav eins: Felix drei, Hector drei."
    ]
    assert ask(game, "material")[0].endswith("Material is level.")


# -- by voice -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def whisper(whisper_model: Path) -> WhisperRecognizer:
    return WhisperRecognizer(whisper_model, Vocabulary.default())


@needs_espeak
@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("Linie Eva", "Eva eins weißer König, Eva zwei weißer Bauer, vier Felder leer,"),
        ("was steht auf David fünf", "David fünf: leer."),
        ("Springer Gustav eins wohin", "Springer Gustav eins: Felix drei, Hector drei."),
        ("Material", "Weiß hat geschlagen: nichts."),
    ],
)
@pytest.mark.slow
def test_a_spoken_request_is_heard_and_answered(
    whisper: WhisperRecognizer, settings: Settings, tmp_path: Path, said: str, answer: str
) -> None:
    """Synthesized speech through the default recogniser, listening for what the session
    says may be said now, then the session's answer."""
    game = session(settings)
    whisper.set_context(game.phrases_now())
    transcript = whisper.recognize(synthesize(said, tmp_path), 16000)
    heard = tuple(transcript.nbest)
    assert heard and heard[0][0] == said.lower()
    events = game.handle(BlindSpeech(1000, heard))
    spoken = [e.text for e in events if getattr(e, "to", None) == "blind"]
    assert spoken[0].startswith(answer)
    assert game.sheet.entries == []


@pytest.mark.slow
def test_every_request_and_key_is_answered_in_random_positions(settings: Settings) -> None:
    """One sentence each, never a traceback: every request phrase of the position and every
    key, both sides, both profiles, in positions of random games."""
    rng = random.Random(7)
    for _ in range(12):
        board = chess.Board()
        for _ in range(rng.randint(0, 80)):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():  # a position already over starts no game
                board.pop()
                break
        for blind in ("white", "black"):
            for profile in ("home", "tournament"):
                game = session(settings, blind=blind, profile=profile, fen=board.fen())
                for phrase in sorted(explore_phrases(game.board, game.vocab)):
                    assert len(ask(game, " ".join(phrase))) == 1, phrase
                for name in sorted(EXPLORE_KEYS):
                    assert len(key(game, name)) == 1, name
