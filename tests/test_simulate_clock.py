"""``voice-chess simulate`` with clock-only scripts: exact output, errors naming the line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voice.cli import main
from voice.config import Settings
from voice.game.simulate import run_script
from voice.rules.events import ScriptError


def script(*lines: dict[str, Any], setup: dict[str, Any] | None = None) -> list[str]:
    head = {"setup": {"mode": "clock", "time_control": "60+5", "profile": "tournament"}}
    if setup is not None:
        head["setup"].update(setup)
    return [json.dumps(line) for line in (head, *lines)]


def run(lines: list[str], settings: Settings) -> list[dict[str, Any]]:
    return list(run_script(lines, settings))


def clock(t: float, white: float, black: float, running: str | None, moves: int) -> dict[str, Any]:
    return {
        "t": t,
        "clock": {"white": white, "black": black, "running": running, "moves": moves},
    }


def test_press_ask_pause_resume(settings: Settings) -> None:
    """The issue's clock-only format: White's clock starts at t = 0 (6.6), 5 s increment."""
    lines = script(
        {"t": 12.25, "press": "white"},
        {"t": 20, "ask": "time"},
        {"t": 21, "pause": True},
        {"t": 50, "resume": True},
        {"t": 51.5, "press": "black"},
        {"t": 52, "pause": True},
        setup={"language": "en"},
    )
    assert run(lines, settings) == [
        clock(12.25, 52.75, 60.0, "black", 1),
        {
            "t": 20.0,
            "say": "White fifty-two seconds, Black fifty-two seconds. Played: one move.",
            "to": "blind",
        },
        clock(20.0, 52.75, 52.25, "black", 1),
        {"t": 21.0, "say": "Clock paused.", "to": "blind"},
        clock(21.0, 52.75, 51.25, None, 1),
        {"t": 50.0, "say": "Clock running again.", "to": "blind"},
        clock(50.0, 52.75, 51.25, "black", 1),
        clock(51.5, 52.75, 54.75, "white", 1),
        {"t": 52.0, "say": "Clock paused.", "to": "blind"},
        clock(52.0, 52.25, 54.75, None, 1),
    ]


def test_flag_is_emitted_at_its_own_instant_before_a_later_event(settings: Settings) -> None:
    lines = script({"t": 100, "ask": "time"}, setup={"language": "de"})
    out = run(lines, settings)
    assert out[:3] == [
        {"t": 60.0, "flag": "white"},
        {"t": 60.0, "say": "Zeit abgelaufen für Weiß.", "to": "blind"},
        clock(60.0, 0.0, 60.0, "white", 0),
    ]
    assert out[3]["t"] == 100.0 and "say" in out[3]


def test_after_the_last_line_the_clock_runs_until_a_flag(settings: Settings) -> None:
    out = run(script({"t": 1, "press": "white"}), settings)
    assert out[-3:] == [
        {"t": 61.0, "flag": "black"},
        {"t": 61.0, "say": "Zeit abgelaufen für Schwarz.", "to": "blind"},
        clock(61.0, 64.0, 0.0, "black", 1),
    ]


def test_a_final_pause_stops_time(settings: Settings) -> None:
    out = run(script({"t": 1, "pause": True}), settings)
    assert [line for line in out if "flag" in line] == []


def test_home_profile_warnings_appear_at_their_instants(settings: Settings) -> None:
    out = run(script({"t": 45, "pause": True}, setup={"profile": "home"}), settings)
    assert {"t": 30.0, "say": "Noch dreißig Sekunden.", "to": "blind"} in out
    assert out.index({"t": 30.0, "say": "Noch dreißig Sekunden.", "to": "blind"}) == 0


def test_both_flags_in_order(settings: Settings) -> None:
    lines = script({"t": 70, "press": "white"}, {"t": 200, "ask": "moves"})
    flags = [line for line in run(lines, settings) if "flag" in line]
    assert flags == [{"t": 60.0, "flag": "white"}, {"t": 130.0, "flag": "black"}]


def test_same_script_same_output(settings: Settings) -> None:
    lines = script(
        {"t": 3.2, "press": "white"},
        {"t": 9.9, "press": "black"},
        {"t": 10.001, "ask": "time"},
        {"t": 30, "tick": True},
        setup={"profile": "home"},
    )
    assert run(lines, settings) == run(lines, settings)


def test_comments_and_blank_lines_are_skipped(settings: Settings) -> None:
    lines = ["# a clock test", "", *script({"t": 1, "pause": True})]
    assert run(lines, settings)[-1] == clock(1.0, 59.0, 60.0, None, 0)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty"),
        (['{"setup": {"mode": "clock", "time_control": "?"}}'], "line 1: time control '?'"),
        (['{"t": 1, "press": "white"}'], "line 1: the first line must be"),
        ([*script(), "not json"], "line 2: not JSON"),
        ([*script(), "[1, 2]"], "line 2: expected a JSON object"),
        ([*script(), '{"t": 1, "press": "green"}'], 'line 2: "press" must be'),
        ([*script(), '{"t": 5, "pause": true}', '{"t": 4, "resume": true}'], "line 3:"),
        ([*script(), '{"t": 1, "arbiter": {"action": "fly"}}'], "line 2:"),
    ],
)
def test_bad_scripts_name_the_line(settings: Settings, lines: list[str], message: str) -> None:
    with pytest.raises(ScriptError, match=message.replace("?", r"\?")):
        run(lines, settings)


def test_cli_prints_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "clock.jsonl"
    path.write_text(
        "\n".join(script({"t": 2, "press": "white"}, {"t": 3, "pause": True})) + "\n",
        encoding="utf-8",
    )
    assert main(["simulate", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0] == clock(2.0, 63.0, 60.0, "black", 1)
    assert out[-1] == clock(3.0, 63.0, 59.0, None, 1)


def test_cli_stops_at_a_bad_line_with_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(script({"t": 2, "press": "white"}, {"t": 1})), encoding="utf-8")
    assert main(["simulate", str(path)]) == 2
    captured = capsys.readouterr()
    assert "line 3" in captured.err and str(path) in captured.err
    assert json.loads(captured.out.splitlines()[0])["t"] == 2.0  # output up to the bad line
