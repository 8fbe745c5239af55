"""The two command-line tools of issue 2 item 7, run as a user runs them (a real subprocess)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from console import run_command

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PROMOTION = "1n2k1n1/PP4PP/8/8/8/8/pp4pp/1N2K1N1 w - - 0 1"


def voice_chess(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_command(*args, stdin=stdin)


# -- say-move -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "move", "words"),
    [
        (None, "g1f3", "Springer Felix drei"),
        (None, "Nf3", "Springer Felix drei"),
        (KIWIPETE, "O-O-O", "Lange Rochade"),
        (KIWIPETE, "e1g1", "Kurze Rochade"),
        (KIWIPETE, "Qxf6", "Dame schlägt Felix sechs"),
        (PROMOTION, "a7a8q", "Anna acht Dame"),
        (PROMOTION, "axb8=N", "Anna schlägt Bella acht Springer"),
    ],
)
@pytest.mark.slow
def test_say_move_prints_the_spoken_form(fen: str | None, move: str, words: str) -> None:
    args = ["say-move", move] if fen is None else ["say-move", "--fen", fen, move]
    done = voice_chess(*args)
    assert (done.returncode, done.stdout) == (0, words + "\n"), done.stderr


@pytest.mark.slow
def test_say_move_all_forms_and_speech_respelling() -> None:
    done = voice_chess("say-move", "--all", "Nc3")
    lines = done.stdout.splitlines()
    assert lines[0] == "Springer Cesar drei"
    assert "Springer Bella eins Cesar drei" in lines and "Bella eins Cesar drei" in lines
    assert voice_chess("say-move", "--speech", "Nc3").stdout == "Springer Zäsar drei\n"


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["say-move", "e2e5"], "illegal"),
        (["say-move", "Qh5"], "illegal"),
        (["say-move", "xyz"], "invalid"),
        (["say-move", "--fen", "not a fen", "e4"], "bad FEN"),
    ],
)
def test_say_move_refuses_bad_input_clearly(args: list[str], complaint: str) -> None:
    done = voice_chess(*args)
    assert done.returncode == 2
    assert complaint in done.stderr
    assert "Traceback" not in done.stderr


# -- parse -----------------------------------------------------------------------------------


def test_parse_prints_one_json_object_with_decision_move_and_candidates() -> None:
    done = voice_chess("parse", "Springer Felix drei")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["decision"] == "accept"
    assert out["move"] == "g1f3"
    assert out["candidates"][0] == {"uci": "g1f3", "cost": 0.0, "say": "Springer Felix drei"}


def test_parse_in_a_given_position_with_spelling_variants() -> None:
    out = json.loads(voice_chess("parse", "--fen", PROMOTION, "Bauer Anna acht wird Dame").stdout)
    assert (out["decision"], out["move"]) == ("accept", "a7a8q")
    out = json.loads(voice_chess("parse", "--fen", KIWIPETE, "Laeuffer Anna sechs").stdout)
    assert (out["decision"], out["move"]) == ("accept", "e2a6")


@pytest.mark.slow
def test_parse_reports_choices_and_refusals() -> None:
    out = json.loads(voice_chess("parse", "Springer drei").stdout)
    assert out["decision"] == "choose" and out["move"] is None
    assert {c["uci"] for c in out["candidates"]} == {"b1a3", "b1c3", "g1f3", "g1h3"}
    out = json.loads(voice_chess("parse", "--fen", PROMOTION, "Anna acht").stdout)
    assert out["decision"] == "reject"
    assert out["refusal"] == {"reason": "which_piece", "message": "Welche Figur?"}
    out = json.loads(voice_chess("parse", "Guten Morgen").stdout)
    assert out == {"decision": "reject", "move": None, "say": None, "candidates": []}


def test_parse_takes_an_nbest_list_with_confidences() -> None:
    done = voice_chess(
        "parse",
        "Springer Felix zwei",
        "Springer Felix drei",
        "--confidence",
        "0.5",
        "--confidence",
        "0.45",
    )
    assert json.loads(done.stdout)["move"] == "g1f3"


def test_parse_with_a_bad_fen_is_an_error_not_a_crash() -> None:
    done = voice_chess("parse", "--fen", "8/8/8 w", "Eva vier")
    assert done.returncode == 2
    assert "bad FEN" in json.loads(done.stdout)["error"]
    assert "Traceback" not in done.stderr


def test_parse_batch_writes_one_object_per_line_with_its_id(tmp_path: Path) -> None:
    lines = [
        {
            "id": 1,
            "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "text": "Eva vier",
        },
        {"id": "two", "fen": KIWIPETE, "text": "Kurze Rochade"},
        {"id": 3, "fen": "this is not a fen", "text": "Eva vier"},
        {"id": 4, "fen": PROMOTION, "nbest": [{"text": "Anna acht Dame", "confidence": 0.8}]},
        {"id": 5, "fen": "8/8/8/8/8/8/8/8 w - - 0 1", "text": "Eva vier"},
        {"id": 6, "text": 7},
    ]
    text = "\n".join(json.dumps(line) for line in lines)
    text += "\n{broken json\n\n"
    path = tmp_path / "heard.jsonl"
    path.write_text(text, encoding="utf-8")
    done = voice_chess("parse", "--batch", str(path))
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == [1, "two", 3, 4, 5, 6, None]
    assert (out[0]["decision"], out[0]["move"]) == ("accept", "e2e4")
    assert out[1]["move"] == "e1g1"
    assert "bad FEN" in out[2]["error"]
    assert out[3]["move"] == "a7a8q"
    assert "bad FEN" in out[4]["error"]  # no kings: not a legal position
    assert "text" in out[5]["error"]
    assert "JSON" in out[6]["error"]


def test_parse_batch_reads_standard_input() -> None:
    done = voice_chess("parse", "--batch", "-", stdin='{"id": 9, "text": "Springer Felix drei"}\n')
    assert json.loads(done.stdout) == {
        "id": 9,
        "decision": "accept",
        "move": "g1f3",
        "say": "Springer Felix drei",
        "candidates": [{"uci": "g1f3", "cost": 0.0, "say": "Springer Felix drei"}],
    }


def test_parse_benchmark_prints_its_figures() -> None:
    done = voice_chess("parse", "--benchmark", "3")
    assert done.returncode == 0, done.stderr
    assert "positions: 3" in done.stdout
    assert "match one utterance" in done.stdout and " ms" in done.stdout
    assert "exact words" in done.stdout and "played right 100.0%" in done.stdout
