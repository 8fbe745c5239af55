"""``voice-chess play --opponent engine`` as a player runs it: typed moves, real Stockfish.

The program runs as a child process with text input and output (``--text --no-speech``, the
Braille-keyboard set-up). The test reads the journal to know the position, types a legal move
in Appendix D words, and checks that the program confirms it, that Stockfish's reply is
announced in the same words, that requests and the touched-piece report are answered, and that
the journal resumes the game with the engine playing on.
"""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

import chess
import pytest
from console import Console, journal_board

from voice.config import Settings
from voice.rules.events import BlindSpeech, SightedMove
from voice.runtime.engine import find_engine
from voice.runtime.journal import read_journal
from voice.words.phrases import render_move
from voice.words.vocabulary import Vocabulary

pytestmark = pytest.mark.skipif(
    not any(Path(p).is_file() for p in ("/usr/games/stockfish", "/usr/bin/stockfish")),
    reason="Stockfish is not installed (Debian: apt install stockfish)",
)


def quiet_move(board: chess.Board) -> chess.Move:
    """A legal move that gives no check and captures nothing, if there is one."""
    moves = list(board.legal_moves)
    quiet = [m for m in moves if not board.is_capture(m) and not board.gives_check(m)]
    return sorted(quiet or moves, key=lambda m: m.uci())[0]


def play_one_move(con: Console, journal: Path, settings: Settings, vocab: Vocabulary) -> None:
    """Type a move, hear it confirmed, hear the engine's reply as the journal records it."""
    board = journal_board(journal, settings)
    words = render_move(board, quiet_move(board), vocab)
    con.type(words)
    assert con.next_line() == words
    reply = con.next_line()
    contents = read_journal(journal)
    last = contents.events[-1]
    assert isinstance(last, SightedMove), contents.events
    after_mine = journal_board(journal, settings)
    after_mine.pop()
    # Marked as the computer's: it comes at once after the player's move said back.
    assert reply == f"Computer: {render_move(after_mine, chess.Move.from_uci(last.move), vocab)}"


@pytest.mark.slow
def test_typed_game_against_stockfish_then_resumed(
    tmp_path: Path, settings: Settings, vocab: Vocabulary
) -> None:
    journal = tmp_path / "game.jsonl"
    base = ("play", "--text", "--no-speech", "--opponent", "engine")
    con = Console(*base, "--journal", str(journal), "--control", "600+5")
    try:
        con.expect("voice-chess, Heimpartie: getippte Züge und Befehle; Ausgabe nur als Text.")
        con.expect("Heimprofil, Bedenkzeit zehn Minuten für die ganze Partie, plus fünf Sekunden")
        con.expect("Spielstärke des Computers? Eine Zahl von eins bis acht")
        con.type("neun")  # out of range: the range is named (it asked again, saying nothing)
        con.expect("Stufe neun gibt es nicht: die Stufen gehen von eins bis acht. Mit ja oder")
        con.type("zehn")  # a number the answers do not know: out of range too
        con.expect("Stufe zehn gibt es nicht: die Stufen gehen von eins bis acht.")
        con.type("zwei")
        con.expect("Der Computer spielt auf Stufe zwei.")  # in words, as it is spoken
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        for _ in range(3):
            play_one_move(con, journal, settings, vocab)
        con.type("Zeit")
        con.expect("Gespielt: drei Züge.")
        con.type("berührt")
        con.expect("Für den Schiedsrichter notiert: der Gegner hat eine Figur berührt.")
        con.end_input()
        dated = con.expect('[Date "')
        con.expect('[Black "Stockfish, Stufe 2"]')
        con.expect(
            "Die Partie ist gespeichert. "
            f"Fortsetzen mit: voice-chess play --text --no-speech --resume {journal}"
        )
        assert con.wait() == 0
    finally:
        con.close()
    setup = read_journal(journal).setup
    assert setup.extra["engine_level"] == 2 and setup.extra["opponent"] == "engine"
    # The scoresheet carries the day the game was played, kept in the journal for a resume.
    played_on = datetime.strptime(setup.extra["date"], "%Y.%m.%d")
    assert abs((datetime.now() - played_on).days) <= 1
    assert f'[Date "{setup.extra["date"]}"]' in dated

    again = Console("play", "--text", "--no-speech", "--resume", str(journal))
    try:
        again.expect("voice-chess, Heimpartie")
        again.expect("Partie fortgesetzt. Weiß ist am Zug.")
        again.expect("Zuletzt gespielt. Drei: ")  # the last move of each side
        play_one_move(again, journal, settings, vocab)
        again.end_input()
        assert again.wait() == 0
    finally:
        again.close()
    board = journal_board(journal, settings)
    assert len(board.move_stack) == 8  # four moves each, the last pair after the resume


def test_a_missing_engine_is_one_sentence_with_a_way_out(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[engine]\npath = "no-such-engine"\n')
    con = Console(
        "--config",
        str(config),
        "play",
        "--text",
        "--no-speech",
        "--opponent",
        "engine",
        "--level",
        "1",
        "--journal",
        str(tmp_path / "g.jsonl"),
    )
    try:
        line = con.expect("Der Computergegner kann nicht starten")
        assert "apt install stockfish" in line and "[engine] path" in line
        assert con.wait() == 2
    finally:
        con.close()


def test_find_engine_looks_in_debian_games_folder() -> None:
    assert Path(find_engine("stockfish")).name == "stockfish"


def test_after_mate_the_game_can_still_be_asked_about_until_the_input_ends(
    tmp_path: Path,
) -> None:
    con = Console(
        "play",
        "--text",
        "--no-speech",
        "--opponent",
        "engine",
        "--level",
        "1",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--journal",
        str(tmp_path / "g.jsonl"),
    )
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("Turm Anna acht")
        con.expect("Weiß gewinnt: Schachmatt.")
        con.expect("1. Ra8#")
        con.expect("Strg-D beendet das Programm; die Partie ist gespeichert.")
        con.type("Partie")
        con.expect("Eins: Turm Anna acht matt.")
        con.end_input()
        assert con.wait() == 0
        assert "die Partie ist gespeichert" in con.output()
        assert "--resume" not in con.output()  # a finished game is not to be continued
    finally:
        con.close()


def test_a_board_game_resumed_with_opponent_engine_stays_a_board_game(tmp_path: Path) -> None:
    """The game goes on as it began: with the sighted opponent to move, the computer does not
    take over their side because ``--opponent engine`` was typed on resuming."""
    journal = tmp_path / "board.jsonl"
    con = Console("play", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("Eva vier")
        con.expect("Eva vier")
    finally:
        con.close()  # killed: the sighted opponent (Black) is to move
    base = ("play", "--text", "--no-speech", "--no-web", "--opponent", "engine", "--level", "8")
    con = Console(*base, "--resume", str(journal))
    try:
        con.expect("Partie fortgesetzt. Schwarz ist am Zug.")
        time.sleep(3)  # the computer (1 s a move) would have answered by now
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    assert "Computer" not in con.output()
    events = read_journal(journal).events
    assert len(events) == 1 and isinstance(events[0], BlindSpeech)


def test_arrow_keys_and_key_letters_work_in_typed_mode(tmp_path: Path) -> None:
    """Without a microphone the game reads whole typed lines. The README offers the arrow keys
    and the keys of ``[session.keys]`` for a Braille display without speech recognition:
    arrows sent with Enter were read as the text "[A" and a key's letter as a word, both
    answered "Nicht verstanden". Now a line of arrow keys moves the cursor, and a key's letter
    alone on a line does what the key does."""
    journal = tmp_path / "game.jsonl"
    base = ("play", "--text", "--no-speech", "--opponent", "engine", "--level", "1")
    con = Console(*base, "--journal", str(journal), "--control", "600")
    try:
        con.expect("Die Partie beginnt. Sie spielen Weiß.")
        con.type("\x1b[A")  # up, from the cursor's start on Anna eins
        assert con.next_line() == "Anna zwei: weißer Bauer."
        con.type("\x1b[C\x1b[C")  # right twice
        assert con.next_line() == "Bella zwei: weißer Bauer."
        assert con.next_line() == "Cesar zwei: weißer Bauer."
        con.type("t")
        assert con.next_line().endswith("Schwarz zehn Minuten. Gespielt: null Züge.")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
