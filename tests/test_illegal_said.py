"""An illegal move said clearly is refused with its reason (docs/rules.md §6.5), though the
recogniser listens for legal moves only: its free transcription explains the refusal, and never
makes a move or a command."""

from __future__ import annotations

from session_scripts import moves, refused, run_text, says

from voice.config import Settings
from voice.rules.events import BlindSpeech, input_to_json, parse_input
from voice.speech.recognizers import Transcript
from voice.speech.speech_input import free_guess

IN_CHECK = "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5P2/PPPP2PP/RNBQKBNR w KQkq - 1 3"


def game(*lines: str, fen: str | None = None) -> str:
    where = f', "fen": "{fen}"' if fen else ""
    setup = '{"setup": {"mode": "game", "blind": "white"' + where + "}}"
    return "\n".join([setup, *lines])


def test_a_move_said_in_check_is_refused_with_the_reason(settings: Settings) -> None:
    out = run_text(
        game('{"t": 2, "blind_nbest": [], "guess": "Hector drei"}', fen=IN_CHECK), settings
    )
    assert says(out, "blind", 2.0) == ["Der König steht im Schach."]
    assert moves(out) == []
    assert [r["reason"] for r in refused(out)] == ["in_check"]


def test_a_blocked_piece_is_named_instead_of_not_understood(settings: Settings) -> None:
    out = run_text(game('{"t": 2, "blind_nbest": [], "guess": "Dame Hector fünf"}'), settings)
    assert says(out, "blind", 2.0) == ["Keine Dame kann nach Hector fünf."]


def test_a_guess_never_plays_a_legal_move_or_a_command(settings: Settings) -> None:
    """The closed-set scoring refused these words: the guess cannot overrule it."""
    out = run_text(
        game(
            '{"t": 2, "blind_nbest": [], "guess": "Eva vier"}',
            '{"t": 3, "blind_nbest": [], "guess": "Aufgabe"}',
            '{"t": 4, "blind_nbest": [], "guess": "Das war ein guter Zug"}',
        ),
        settings,
    )
    assert moves(out) == [] and not [line for line in out if line.get("reason") == "resignation"]
    assert says(out, "blind", 2.0) == says(out, "blind", 3.0) == says(out, "blind", 4.0)
    assert says(out, "blind", 2.0) == ["Nicht verstanden."]


def test_the_guess_is_journaled_so_a_resumed_game_replays_the_same() -> None:
    event = BlindSpeech(2000, (), "Hector drei")
    line = input_to_json(event)
    assert line == {"t": 2.0, "blind_nbest": [], "guess": "Hector drei"}
    assert parse_input(line) == event


def test_only_speech_refused_as_no_phrase_carries_its_first_free_sentence() -> None:
    refused_speech = Transcript((), True, 1.0, partial="Hector drei. Hector zwei.",
                                reason="out-of-grammar")  # fmt: skip
    assert free_guess(refused_speech) == "Hector drei"
    assert free_guess(Transcript((("eva vier", 0.9),), True, 1.0, partial="x")) == ""
    assert free_guess(Transcript((), True, 1.0, reason="silence")) == ""
