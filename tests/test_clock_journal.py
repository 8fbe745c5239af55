"""The talking clock's journal as ``voice-chess clock`` writes it (voice/cli/clock.py): every
input before the clock sees it, its time while it runs, and a disk that fills up in mid-game.

Driven with a scripted keyboard and a game time that the keyboard's waits advance, so nothing
here waits in real time. The pty tests (tests/test_clock_pty.py) run the real program.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from voice.cli import build_parser
from voice.cli.clock import _Announcer, _Keeper, _loop, _resumed, _saved
from voice.config import Settings
from voice.game.clock_mode import ClockSession
from voice.rules.events import KeyPress, OutputEvent, Say, Setup, Tick
from voice.runtime.journal import Journal, read_journal
from voice.runtime.resume import resume


class _Keys:
    """A keyboard that presses ``keys`` (game ms, key name) in order, advancing the game time
    by every wait; at the end the terminal closes (EOFError)."""

    def __init__(self, keys: list[tuple[int, str]]) -> None:
        self.keys = list(keys)
        self.ms = 0

    def now(self) -> int:
        return self.ms

    def read_key(self, timeout_s: float | None) -> str | None:
        if not self.keys:
            raise EOFError
        at, key = self.keys[0]
        if timeout_s is not None and self.ms + round(timeout_s * 1000) < at:
            self.ms += round(timeout_s * 1000)
            return None
        self.ms = max(self.ms, at)
        self.keys.pop(0)
        return key


def _clock(settings: Settings, path: Path) -> tuple[ClockSession, Journal]:
    setup = Setup(mode="clock", time_control="600", language="de", extra={"start": "press"})
    return ClockSession(setup, settings, start_ms=None), Journal.create(path, setup)


def test_the_running_clocks_time_is_written_every_ten_seconds(
    settings: Settings, tmp_path: Path
) -> None:
    """A crash or power cut while a player thinks gives back at most CHECKPOINT_MS of their
    time: the journal holds a tick that often while the clock runs, and none while it waits
    for its first press or stands paused."""
    path = tmp_path / "clock.jsonl"
    session, journal = _clock(settings, path)
    keys = _Keys([(30_000, "space"), (65_000, "p"), (120_000, "p"), (125_000, "t")])
    with journal:
        keeper = _Keeper(journal, "de")
        announcer = _Announcer(settings, False, "de")
        with pytest.raises(EOFError):
            _loop(session, keys, announcer, keys.now, None, keeper)  # type: ignore[arg-type]
    events = read_journal(path).events
    ticks = [event.t_ms for event in events if isinstance(event, Tick)]
    assert ticks == [40_000, 50_000, 60_000]  # running from 30 s, paused from 65 s to 120 s
    assert [event.key for event in events if isinstance(event, KeyPress)] == [
        "press", "pause", "pause", "time"
    ]  # fmt: skip
    replayed = resume(path, settings)
    try:
        assert isinstance(replayed.core, ClockSession)
        assert replayed.core.clock.remaining_ms("white", 125_000) == 600_000 - 35_000 - 5_000
    finally:
        replayed.journal.close()


def test_a_disk_that_fills_up_mid_game_stops_the_saving_not_the_clock() -> None:
    """The clock goes on and says once that it is no longer saved (it was a traceback)."""
    with Path("/dev/full").open("wb") as handle:  # every write: ENOSPC
        keeper = _Keeper(Journal(Path("/dev/full"), handle), "de")
        lost = keeper.write(KeyPress(5_000, "press"))
        assert [out.text for out in lost if isinstance(out, Say)] == [
            "Die Uhr wird nicht in /dev/full gespeichert: No space left on device."
        ]
        assert keeper.journal is None
        assert keeper.write(KeyPress(6_000, "press")) == []  # said once


# -- voice-chess clock --resume: an ended clock, a journal with a line the clock refuses --------


def _resume_args(path: Path, *options: str) -> argparse.Namespace:
    """``voice-chess clock --resume PATH OPTIONS`` as the command line reads it."""
    return build_parser().parse_args(["clock", "--resume", str(path), *options])


def _said_text(outputs: list[OutputEvent]) -> list[str]:
    return [out.text for out in outputs if isinstance(out, Say)]


def test_a_clock_ended_with_q_twice_says_so_and_how_to_start_a_new_one(
    settings: Settings, tmp_path: Path
) -> None:
    """A new user's trial: ``--resume`` on a clock ended with Q twice said "Die fortgesetzte
    Partie geht weiter, wie sie begann …", the times, "Uhr beendet." and stopped. It says that
    the clock was ended and cannot be continued, how it stood, and the command for a new clock;
    the options given are not named as unused, as if it went on (README, "The talking clock")."""
    path = tmp_path / "clock-20261102-180000.jsonl"
    setup = Setup(mode="clock", time_control="600", language="de", extra={"start": "press"})
    with Journal.create(path, setup) as journal:
        journal.extend([KeyPress(1000, "press"), KeyPress(5000, "quit"), KeyPress(6000, "quit")])
    kept = path.read_bytes()
    opened = _resumed(_resume_args(path, "--control", "300"), settings, "de")
    try:
        assert opened.session.finished
        assert _said_text(opened.greeting) == [
            "Diese Uhr wurde beendet und kann nicht fortgesetzt werden. Weiß neun Minuten "
            "fünfundfünfzig Sekunden, Schwarz zehn Minuten. Gespielt: null Züge.",
            "Eine neue Uhr starten mit: voice-chess clock",
        ]
    finally:
        if opened.journal is not None:
            opened.journal.close()
    assert path.read_bytes() == kept


def _pressed_clock(folder: Path, last: str) -> Path:
    """A German clock's journal, started at 2 s, and then the line ``last``."""
    path = folder / "clock-20261102-180000.jsonl"
    path.write_text(
        '{"setup":{"mode":"clock","time_control":"600","language":"de","start":"press"}}\n'
        '{"t":2.0,"key":"press"}\n' + last,
        encoding="utf-8",
    )
    return path


def test_a_clock_journal_holding_a_refused_correction_is_resumed_naming_the_line(
    settings: Settings, tmp_path: Path
) -> None:
    """Such a journal (written before the clock screened its inputs) failed every resume with
    "Das Journal … kann nicht gelesen werden: arbiter set_moves: the talking clock needs
    'side'": the line is passed over, named, and the clock goes on."""
    path = _pressed_clock(tmp_path, '{"t":41,"arbiter":{"action":"set_moves","moves":5}}\n')
    opened = _resumed(_resume_args(path), settings, "de")
    try:
        assert not opened.session.finished and opened.start_ms == 41_000
        assert _said_text(opened.greeting) == [
            "Zeile 3 des Journals übergangen (set_moves): side fehlt; erlaubt: white, black.",
            "Partie fortgesetzt. Weiß ist am Zug. Weiß neun Minuten einundzwanzig "
            "Sekunden, Schwarz zehn Minuten. Gespielt: null Züge.",
        ]
    finally:
        if opened.journal is not None:
            opened.journal.close()


def test_a_torn_last_line_of_a_clock_journal_is_named_in_the_clocks_language(
    settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The warning was the journal reader's English ("line 3 is incomplete or corrupt (torn
    write?) …") under a German clock (a review)."""
    path = _pressed_clock(tmp_path, '{"t":41,"key":"pre')
    opened = _resumed(_resume_args(path), settings, "de")
    if opened.journal is not None:
        opened.journal.close()
    assert capsys.readouterr().err == (
        f"voice-chess clock: {path}: Zeile 3, die letzte, wurde nicht zu Ende geschrieben (das "
        "Programm endete beim Schreiben) und wird übergangen; nichts davor geht verloren.\n"
    )


@pytest.mark.parametrize(
    ("options", "command"),
    [
        ((), "voice-chess clock"),
        (("--no-speech", "--no-listen"), "voice-chess clock --no-speech --no-listen"),
        (("--no-listen", "--control", "300", "--language", "en"), "voice-chess clock --no-listen"),
    ],
)
def test_the_command_printed_to_resume_a_clock_is_the_one_the_user_ran(
    settings: Settings, tmp_path: Path, options: tuple[str, ...], command: str
) -> None:
    """A new user's trial: started with --no-speech --no-listen, the clock printed "Fortsetzen
    mit: voice-chess clock --resume …", and the copied command brought back a clock that
    spoke and listened. What the journal keeps (the control, the language) is not repeated."""
    path = tmp_path / "clock-20261102-180000.jsonl"
    session, journal = _clock(settings, path)
    journal.close()
    args = build_parser().parse_args(["clock", *options])
    assert _saved(path, session, args) == (
        f"Die Uhr ist gespeichert in {path}. Fortsetzen mit: {command} --resume {path}"
    )
    mine = tmp_path / "mine.toml"
    args = build_parser().parse_args(["--config", str(mine), "clock", *options])
    assert f"Fortsetzen mit: voice-chess --config {mine} clock" in _saved(path, session, args)


def test_a_clock_journal_keeps_the_clock_rules_it_ran_by(
    settings: Settings, tmp_path: Path
) -> None:
    """A press after a flag fall switched the clock in the clocks before revision 2: a journal
    says which rules it ran by, so that it replays as it was played (the interactive clock's,
    and a script's journaled by ``simulate --journal``)."""
    from voice.cli.clock import _new
    from voice.game.clock_mode import REVISION
    from voice.runtime.resume import run_journaled

    opened = _new(build_parser().parse_args(["clock"]), settings, "de")
    assert opened.journal is not None
    opened.journal.close()
    assert read_journal(opened.journal.path).setup.extra["revision"] == REVISION == 2
    for given, kept in (({}, REVISION), ({"revision": 1}, 1)):
        path = tmp_path / f"clock-{kept}.jsonl"
        setup = {"mode": "clock", "time_control": "10", **given}
        lines = [json.dumps({"setup": setup}), '{"t": 12, "press": "white"}']
        list(run_journaled(lines, settings, journal_path=path))
        assert read_journal(path).setup.extra["revision"] == kept


def test_a_resumed_clock_that_stands_is_journaled_so_and_stands_when_resumed_again(
    settings: Settings, tmp_path: Path
) -> None:
    """The hold is an input like any other (written before the clock sees it): a clock cut off
    again before anyone pressed comes back standing, and says how to start it."""
    path = tmp_path / "clock-20261102-180000.jsonl"
    setup = Setup(mode="clock", time_control="600", language="de", extra={"start": "press"})
    with Journal.create(path, setup) as journal:
        journal.extend([KeyPress(1000, "press"), KeyPress(5000, "press")])
    opened = _resumed(_resume_args(path), settings, "de")
    keeper = _Keeper(opened.journal, "de")
    for event in opened.session.leftovers(opened.start_ms):
        keeper.write(event)
        opened.session.handle(event)
    keeper.close()
    assert read_journal(path).events[-1] == KeyPress(5000, "hold")
    again = _resumed(_resume_args(path), settings, "de")
    try:
        assert not again.session.time_runs() and again.session.leftovers(again.start_ms) == []
        assert _said_text(again.greeting)[-1].endswith(
            "Gespielt: ein Zug. Die Uhr steht. Leertaste oder Eingabetaste startet die Uhr für "
            "Schwarz."
        )
    finally:
        if again.journal is not None:
            again.journal.close()
