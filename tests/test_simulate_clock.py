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


def test_both_flags_in_order_in_an_older_clocks_journal(settings: Settings) -> None:
    """Revision 1: a press after the flag switched the clock, and the second flag fell."""
    lines = script({"t": 70, "press": "white"}, {"t": 200, "ask": "moves"}, setup={"revision": 1})
    flags = [line for line in run(lines, settings) if "flag" in line]
    assert flags == [{"t": 60.0, "flag": "white"}, {"t": 130.0, "flag": "black"}]


def test_a_press_after_the_flag_leaves_the_clock_standing(settings: Settings) -> None:
    lines = script(
        {"t": 70, "press": "white"}, {"t": 200, "ask": "moves"}, setup={"language": "de"}
    )
    out = run(lines, settings)
    assert [line for line in out if "flag" in line] == [{"t": 60.0, "flag": "white"}]
    assert out[3:5] == [
        {"t": 70.0, "say": "Zeit abgelaufen für Weiß. Die Uhr steht.", "to": "blind"},
        clock(70.0, 0.0, 60.0, "white", 0),
    ]


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
        ([*script(), '{"t": 1, "ask": "weather"}'], "line 2:"),
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


# -- a refused arbiter's action is not journaled, and a journal resumes after it -----------------

CLOCK_JOURNAL = [
    {"setup": {"mode": "clock", "time_control": "600", "language": "de", "start": "press"}},
    {"t": 2, "key": "press"},
    {"t": 30, "key": "press"},
    {"t": 40, "key": "press"},
]
BAD_LINES = [
    {"t": 41, "arbiter": {"action": "set_moves", "moves": 5}},
    {"t": 41, "arbiter": {"action": "add_time", "side": "purple", "seconds": 60}},
]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _said(out: str) -> list[str]:
    return [line["say"] for line in map(json.loads, out.splitlines()) if "say" in line]


def test_a_bad_arbiter_line_on_resume_is_refused_in_words_and_the_clock_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new user's trial: one bad correction in a resume script was written to the clock's
    journal before the clock refused it, and from then on every resume failed with "Das
    Journal … kann nicht gelesen werden: arbiter set_moves: the talking clock needs 'side'":
    the clock was lost. Now it is refused with a sentence in the player's language, as a game
    refuses it, the run goes on, and nothing of it reaches the journal."""
    journal = _write(tmp_path / "cj.jsonl", CLOCK_JOURNAL)
    kept = journal.read_bytes()
    bad = _write(tmp_path / "bad.jsonl", [*BAD_LINES, {"t": 45, "ask": "time"}])
    assert main(["simulate", "--resume", str(journal), str(bad)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    said = _said(captured.out)
    assert said[1:3] == [
        "Schiedsrichter: set_moves abgelehnt, die Uhr bleibt unverändert: side fehlt; "
        "erlaubt: white, black.",
        "Schiedsrichter: add_time abgelehnt, die Uhr bleibt unverändert: side darf nicht "
        '"purple" sein; erlaubt: white, black.',
    ]
    assert said[3] == (  # 2 s to 30 s and 40 s to 45 s were White's
        "Weiß neun Minuten siebenundzwanzig Sekunden, Schwarz neun Minuten fünfzig Sekunden. "
        "Gespielt: ein Zug."
    )
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert journal.read_bytes().startswith(kept) and len(lines) == 5  # only the request
    assert json.loads(lines[-1]) == {"t": 45.0, "ask": "time"}
    assert main(["simulate", "--resume", str(journal)]) == 0  # and again
    assert _said(capsys.readouterr().out)[0].startswith("Partie fortgesetzt. Weiß ist am Zug.")


def test_a_line_that_stops_the_run_is_not_journaled_either(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ``ask`` the clock has no answer for still stops the run naming the line (README,
    "Clock scripts"), but before it is written: the clock resumes after it."""
    journal = _write(tmp_path / "cj.jsonl", CLOCK_JOURNAL)
    kept = journal.read_bytes()
    bad = _write(tmp_path / "bad.jsonl", [{"t": 41, "ask": "weather"}])
    assert main(["simulate", "--resume", str(journal), str(bad)]) == 2
    assert "line 1: the clock is asked for time, moves or pause" in capsys.readouterr().err
    assert journal.read_bytes() == kept
    assert main(["simulate", "--resume", str(journal)]) == 0


def test_a_journal_that_holds_a_refused_line_resumes_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A journal an older version wrote the bad line into is not lost: the resume passes over
    the line, says which it was and why, and goes on (its time passed all the same)."""
    poisoned = [*CLOCK_JOURNAL, *BAD_LINES, {"t": 42, "ask": "weather"}, {"t": 50, "key": "press"}]
    journal = _write(tmp_path / "cj.jsonl", poisoned)
    assert main(["simulate", "--resume", str(journal)]) == 0
    said = _said(capsys.readouterr().out)
    assert said[:3] == [
        "Zeile 5 des Journals übergangen (set_moves): side fehlt; erlaubt: white, black.",
        'Zeile 6 des Journals übergangen (add_time): side darf nicht "purple" sein; erlaubt: '
        "white, black.",
        'Zeile 7 des Journals übergangen (ask): ask darf nicht "weather" sein; erlaubt: time, '
        "moves, pause.",
    ]
    # 2 s to 30 s and 40 s to 50 s were White's: the lines passed over took no time from Black.
    assert said[3] == (
        "Partie fortgesetzt. Schwarz ist am Zug. Weiß neun Minuten zweiundzwanzig Sekunden, "
        "Schwarz neun Minuten fünfzig Sekunden. Gespielt: zwei Züge."
    )


def test_a_clock_ended_in_a_script_stands_still(settings: Settings) -> None:
    """Q twice ends the clock: no flag falls after "Uhr beendet.", and a press is refused."""
    lines = script(
        {"t": 2, "press": "white"},
        {"t": 3, "key": "quit"},
        {"t": 4, "key": "quit"},
        {"t": 9, "press": "black"},
        setup={"language": "de"},
    )
    out = run(lines, settings)
    assert [line for line in out if "flag" in line] == []
    assert out[-2:] == [
        {
            "t": 9.0,
            "say": "Diese Uhr wurde beendet und kann nicht fortgesetzt werden.",
            "to": "blind",
        },
        clock(9.0, 63.0, 58.0, None, 1),
    ]
