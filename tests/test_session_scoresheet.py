"""The scoresheet (D.2.7, 9.1.2.2, Appendix C): PGN with clocks, headers and offers; read back."""

from __future__ import annotations

import io
import json

import chess.pgn
from session_scripts import run_text, says

from voice.config import Settings

SETUP = {
    "mode": "game",
    "blind": "black",
    "time_control": "40/5400+30:1800+30",
    "profile": "tournament",
    "event": "Stadtmeisterschaft",
    "site": "Bern",
    "date": "2026.01.21",
    "round": "3",
    "white": "Sehend, Sara",
    "black": "Blind, Ben",
}
GAME = (
    json.dumps({"setup": SETUP})
    + """
{"t": 30, "sighted": "d4"}
{"t": 95, "blind": "Springer Felix sechs"}
{"t": 96, "blind": "Remis"}
{"t": 150.5, "sighted": "c4"}
{"t": 200, "blind": "Eva sechs"}
{"t": 201, "blind": "Partie"}
{"t": 210, "key": "sighted:resign"}
"""
)


def test_pgn_has_headers_clock_on_every_move_offers_and_termination(settings: Settings) -> None:
    out = run_text(GAME, settings)
    game = chess.pgn.read_game(io.StringIO(out[-1]["pgn"]))
    assert game is not None
    headers = dict(game.headers)
    assert headers == {
        "Event": "Stadtmeisterschaft",
        "Site": "Bern",
        "Date": "2026.01.21",
        "Round": "3",
        "White": "Sehend, Sara",
        "Black": "Blind, Ben",
        "Result": "0-1",
        "TimeControl": "40/5400+30:1800+30",
        "Laws": "FIDE 2023",
        "Termination": "normal",
    }
    nodes = list(game.mainline())
    assert [node.san() for node in nodes] == ["d4", "Nf6", "c4", "e6"]
    # The mover's time after the move, increment included: 5400 - 30 + 30 for White's first;
    # in whole seconds, as a clock shows them (5374.5 is "1:29:34").
    assert [node.clock() for node in nodes] == [5400.0, 5365.0, 5374.0, 5345.0]
    assert "(=)" in nodes[1].comment  # Black offered a draw after 1... Nf6
    assert "(=)" not in nodes[0].comment
    assert says(out, "blind", 201.0) == [
        "Eins: David vier, Springer Felix sechs. Zwei: Cesar vier, Eva sechs."
    ]


def test_a_game_from_a_position_carries_the_fen(settings: Settings) -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    setup = {"mode": "game", "blind": "white", "time_control": "300", "fen": fen}
    out = run_text(
        json.dumps({"setup": setup})
        + """
        {"t": 1, "sighted": "Kd7"}
        {"t": 2, "blind": "Eva vier"}
        {"t": 3, "arbiter": {"action": "pause"}}
        """,
        settings,
    )
    pgn = out[-1]["pgn"]
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]' in pgn
    assert '[SetUp "1"]' in pgn
    assert "40... Kd7" in pgn and "41. e4" in pgn
    assert '[Result "*"]' in pgn
