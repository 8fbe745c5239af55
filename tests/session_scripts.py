"""Helpers for the scenario tests: run a script from ``tests/scripts`` and look at its output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess.pgn

from voice.config import Settings
from voice.game.simulate import run_script

SCRIPTS = Path(__file__).resolve().parent / "scripts"

Line = dict[str, Any]


def run(name: str, settings: Settings) -> list[Line]:
    """The output lines of ``tests/scripts/NAME.jsonl``."""
    text = (SCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8")
    return list(run_script(text.splitlines(), settings))


def run_under(name: str, edition: str, settings: Settings) -> list[Line]:
    """``tests/scripts/NAME.jsonl`` played under the FIDE Laws ``edition`` (its setup's "laws")."""
    import json

    lines = (SCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["setup"]["laws"] = edition
    return list(run_script([json.dumps(first), *lines[1:]], settings))


def run_text(text: str, settings: Settings) -> list[Line]:
    return list(run_script(text.strip().splitlines(), settings))


def says(out: list[Line], to: str | None = None, t: float | None = None) -> list[str]:
    return [
        line["say"]
        for line in out
        if "say" in line
        and (to is None or line["to"] == to or (line["to"] == "all" and to in ("blind", "sighted")))
        and (t is None or line["t"] == t)
    ]


def moves(out: list[Line]) -> list[str]:
    return [line["move"]["uci"] for line in out if "move" in line]


def move_lines(out: list[Line]) -> list[Line]:
    return [line for line in out if "move" in line]


def clocks(out: list[Line]) -> list[Line]:
    """Every clock line as {"t", "white", "black", "running", "moves"}."""
    return [{"t": line["t"], **line["clock"]} for line in out if "clock" in line]


def clock_at(out: list[Line], t: float) -> Line:
    """The last clock line at time ``t``."""
    found = [c for c in clocks(out) if c["t"] == t]
    assert found, f"no clock line at {t}"
    return found[-1]


def refused(out: list[Line]) -> list[Line]:
    return [{"t": line["t"], **line["refused"]} for line in out if "refused" in line]


def results(out: list[Line]) -> list[Line]:
    return [line for line in out if "result" in line]


def pgn_text(out: list[Line]) -> str:
    assert "pgn" in out[-1], "the last line must be the PGN"
    text: str = out[-1]["pgn"]
    return text


def pgn_game(out: list[Line]) -> chess.pgn.Game:
    import io

    game = chess.pgn.read_game(io.StringIO(pgn_text(out)))
    assert game is not None
    return game


def final_board(out: list[Line]) -> chess.Board:
    return pgn_game(out).end().board()
