"""The journal: every input durable before its effects, torn tails tolerated, replay = resume."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from session_scripts import SCRIPTS

from voice.config import Settings
from voice.game.session import GameSession
from voice.rules.events import (
    BlindSpeech,
    InputEvent,
    ResumeSaid,
    ScriptError,
    Setup,
    SightedMove,
    Tick,
    parse_input,
    parse_setup,
)
from voice.runtime.journal import Journal, parse_journal, read_journal
from voice.runtime.resume import resume, run_journaled

SETUP = Setup(mode="game", blind="white", time_control="300+2", profile="tournament")


def _script(name: str) -> list[str]:
    return (SCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()


def test_journal_round_trip_is_the_same_script(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    events: list[InputEvent] = [
        BlindSpeech(1500, (("Springer Felix drei", 1.0),)),
        BlindSpeech(2000, (("springer felix drei", 0.8), ("springer felix zwei", 0.3))),
        SightedMove(4250, "e7e5"),
    ]
    with Journal.create(path, SETUP) as journal:
        journal.extend(events)
    contents = read_journal(path)
    assert contents.setup == SETUP
    assert list(contents.events) == events
    assert contents.warnings == ()
    assert contents.last_ms == 4250


def test_every_line_is_fsynced_before_append_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.jsonl"
    journal = Journal.create(path, SETUP)
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        synced.append(len(path.read_bytes().splitlines()))

    monkeypatch.setattr(os, "fsync", fsync)
    journal.append(SightedMove(1000, "e2e4"))
    journal.append(SightedMove(2000, "e7e5"))
    journal.close()
    assert synced == [2, 3]  # each line was complete on disk when its fsync ran


def test_journal_never_overwrites_an_existing_game(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    Journal.create(path, SETUP).close()
    with pytest.raises(FileExistsError):
        Journal.create(path, SETUP)


def test_torn_last_line_is_ignored_with_a_warning_and_nothing_earlier_is_lost() -> None:
    data = (
        b'{"setup": {"mode": "game", "blind": "white", "time_control": "300"}}\n'
        b'{"t": 1.0, "blind": "Eva vier"}\n'
        b'{"t": 2.0, "sighted": "e7e5"}\n'
        b'{"t": 3.0, "blind": "Springer Fe'
    )
    contents = parse_journal(data, "j")
    assert [e.t_ms for e in contents.events] == [1000, 2000]
    assert len(contents.warnings) == 1
    assert "line 4" in contents.warnings[0] and "torn" in contents.warnings[0]
    assert contents.good_bytes == data.index(b'{"t": 3.0')


def test_complete_last_object_without_its_newline_is_kept() -> None:
    data = b'{"setup": {"mode": "game", "time_control": "300"}}\n{"t": 1.0, "sighted": "e2e4"}'
    contents = parse_journal(data, "j")
    assert [e.t_ms for e in contents.events] == [1000]
    assert contents.warnings == ()


def test_corrupt_line_before_the_end_is_an_error_not_silently_dropped() -> None:
    data = (
        b'{"setup": {"mode": "game", "time_control": "300"}}\n'
        b'{"t": 1.0, "sighted": "e2e4"\n'
        b'{"t": 2.0, "blind": "Eva fuenf"}\n'
    )
    with pytest.raises(ScriptError, match="line 2"):
        parse_journal(data, "j")


def test_reopen_cuts_the_torn_tail_so_the_next_line_stands_alone(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with Journal.create(path, SETUP) as journal:
        journal.append(SightedMove(1000, "e2e4"))
    with path.open("ab") as handle:
        handle.write(b'{"t": 2.0, "sigh')
    journal, contents = Journal.reopen(path)
    assert contents.warnings
    journal.append(SightedMove(3000, "e7e5"))
    journal.close()
    again = read_journal(path)
    assert again.warnings == ()
    assert [e.t_ms for e in again.events] == [1000, 3000]


def test_simulate_journal_holds_the_script_inputs(tmp_path: Path, settings: Settings) -> None:
    lines = _script("d2104_requests")
    path = tmp_path / "j.jsonl"
    list(run_journaled(lines, settings, journal_path=path))
    written = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    original = [json.loads(line) for line in lines]
    # The journal pins the Laws edition the settings chose and the settings that decide an
    # input's effect (a resume keeps them).
    pinned = parse_setup(written[0])
    assert pinned.extra.pop("settings")["session"]["correction_window"] == 0
    assert pinned == replace(parse_setup(original[0]), laws="2023")
    assert [parse_input(obj) for obj in written[1:]] == [parse_input(o) for o in original[1:]]


@pytest.mark.parametrize(
    "name",
    [
        "d2104_requests",
        "d28_correction_inside_window",
        "r912_draw_offers_both_ways",
        "d29_retract_to_agreed_point",
        "r953_wrong_claim_home_penalised",
    ],
)
def test_replaying_a_journal_reproduces_the_state_exactly(
    name: str, tmp_path: Path, settings: Settings
) -> None:
    lines = _script(name)
    setup = parse_setup(json.loads(lines[0]))
    live = GameSession(setup, settings)
    path = tmp_path / "j.jsonl"
    with Journal.create(path, setup) as journal:
        for line in lines[1:]:
            event = parse_input(json.loads(line))
            journal.append(event)
            live.handle(event)
    contents = read_journal(path)
    replayed = GameSession.replay(contents.setup, contents.events, settings)
    assert replayed.state() == live.state()
    assert replayed.pgn() == live.pgn()
    # Resuming is the same replay, then the announcement of where the game stands.
    resumed = resume(path, settings)
    resumed.journal.close()
    assert isinstance(resumed.core, GameSession)
    assert resumed.core.pgn() == live.pgn()
    assert resumed.core.state()["fen"] == live.state()["fen"]
    assert resumed.core.state()["clock"] == live.state()["clock"]


STOPPED_IN_A_WINDOW = [
    '{"setup": {"mode": "game", "blind": "white", "time_control": "600", "correction_window": 3}}',
    '{"t": 1, "blind": "Eva vier"}',
    '{"t": 4, "sighted": "e5"}',
    '{"t": 6, "blind": "Springer Felix drei"}',
]
"""A game stopped at 6 s inside the three-second correction window of "Springer Felix drei"."""


def test_D_2_8_a_move_in_its_correction_window_at_the_stop_is_said_as_it_is_made(
    tmp_path: Path, settings: Settings
) -> None:
    """A stop inside the correction window: the resume says the move is announced and how to
    take it back, and when the window ends the move is said as it is made. It used to be made
    without a word, the opponent's reply following "Offen war noch: Springer Felix drei", and
    the player could not tell whether it had been played (a new user's trial)."""
    path = tmp_path / "j.jsonl"
    list(run_journaled(STOPPED_IN_A_WINDOW, settings, journal_path=path))
    out = list(run_journaled(['{"t": 10, "blind": "Zeit"}'], settings, resume_path=path))
    says = [line["say"] for line in out if "say" in line]
    assert (
        "Offen war noch: Springer Felix drei ist angesagt. Korrektur nimmt den Zug zurück." in says
    )
    made = [line for line in out if "move" in line]
    assert [line["move"]["uci"] for line in made] == ["g1f3"]
    said_then = [line["say"] for line in out if line.get("t") == made[0]["t"] and "say" in line]
    assert "Springer Felix drei" in said_then


def test_9_1_2_2_a_draw_offer_held_for_the_move_is_said_on_resume(
    tmp_path: Path, settings: Settings
) -> None:
    """ "Remis" said before the stop is still made with the player's move after it, so the
    resume says so (a review: it was made without a word of it on resume)."""
    path = tmp_path / "j.jsonl"
    script = [
        '{"setup": {"mode": "game", "blind": "white", "time_control": "600"}}',
        '{"t": 1, "blind": "Eva vier"}',
        '{"t": 2, "sighted": "e5"}',
        '{"t": 3, "blind": "Remis"}',
    ]
    list(run_journaled(script, settings, journal_path=path))
    out = list(run_journaled(None, settings, resume_path=path))
    says = [line["say"] for line in out if "say" in line]
    assert "Ihr Remisangebot wird mit Ihrem Zug gemacht." in says


def test_D_2_8_a_window_open_at_the_stop_runs_again_in_full_once_the_resume_is_said(
    tmp_path: Path, settings: Settings
) -> None:
    """The app journals when the resume has been said (``resume_said``): a correction window
    open at the stop runs again in full from there. With a window of two or three seconds it
    closed while the player still heard "Offen war noch: … Korrektur nimmt den Zug zurück",
    before "Korrektur" could be said (a review). The line replays as it was played."""
    path = tmp_path / "j.jsonl"
    list(run_journaled(STOPPED_IN_A_WINDOW, settings, journal_path=path))
    later = ['{"t": 8.5, "resume_said": true}', '{"t": 11, "blind": "Korrektur"}']
    out = list(run_journaled(later, settings, resume_path=path))
    assert [line for line in out if "move" in line] == []  # 6 + 3 s had passed: not made
    said = [line["say"] for line in out if "say" in line]
    assert "Korrigiert. Der Zug ist zurückgenommen; Sie sind am Zug." in said
    assert '{"t":8.5,"resume_said":true}' in path.read_text()
    again = list(run_journaled(None, settings, resume_path=path))  # replayed as played
    assert [line for line in again if "move" in line] == []
    assert next(line["say"] for line in again).startswith("Partie fortgesetzt. Weiß ist am Zug.")


def test_D_2_8_a_simulated_resume_restarts_the_window_as_the_live_one_does(
    tmp_path: Path, settings: Settings
) -> None:
    """``simulate --resume`` journals ``resume_said`` at the time it goes on from, as the app
    does: the window open at the stop (6 s + 3, the last input at 8 s) runs again until 11 s,
    so "Korrektur" at 10.5 s takes the move back, as it would in the live game. It closed at
    9 s, and the move was made."""
    path = tmp_path / "j.jsonl"
    list(
        run_journaled(
            [*STOPPED_IN_A_WINDOW, '{"t": 8, "key": "time"}'], settings, journal_path=path
        )
    )
    out = list(run_journaled(['{"t": 10.5, "blind": "Korrektur"}'], settings, resume_path=path))
    assert [line for line in out if "move" in line] == []
    said = [line["say"] for line in out if "say" in line]
    assert "Korrigiert. Der Zug ist zurückgenommen; Sie sind am Zug." in said
    assert read_journal(path).events[-2] == ResumeSaid(8000)


def test_resume_keeps_whose_turn_the_open_question_and_the_draw_offer(
    tmp_path: Path, settings: Settings
) -> None:
    path = tmp_path / "j.jsonl"
    script = [
        '{"setup": {"mode": "game", "blind": "black", "time_control": "600+5"}}',
        '{"t": 2, "sighted": "e4"}',
        '{"t": 5, "blind": "Eva fünf"}',
        '{"t": 9, "sighted": "Nf3"}',
        '{"t": 10, "key": "sighted:draw_offer"}',
        '{"t": 14, "blind": "Aufgabe"}',
    ]
    list(run_journaled(script[:1] + script[1:], settings, journal_path=path))
    out = list(run_journaled(None, settings, resume_path=path))
    says = [line["say"] for line in out if "say" in line]
    assert says[0] == (
        "Partie fortgesetzt. Schwarz ist am Zug. Weiß zehn Minuten vier Sekunden, "
        "Schwarz neun Minuten siebenundfünfzig Sekunden."
    )
    assert "Offen war noch: Wirklich aufgeben? Sagen Sie ja oder nein." in says
    assert "Das Remisangebot von Weiß steht noch." in says
    clock = [line for line in out if "clock" in line][-1]
    assert clock == {
        "t": 14.0,
        "clock": {"white": 604.0, "black": 597.0, "running": "black", "moves": 2},
    }
    # Going on after the resume: the pending question is answered, the journal grows.
    more = list(run_journaled(['{"t": 20, "blind": "nein"}'], settings, resume_path=path))
    assert "Nicht aufgegeben. Die Partie geht weiter." in [m.get("say") for m in more]
    assert read_journal(path).last_ms == 20000


def test_journal_files_are_named_by_start_time_and_never_reused(
    tmp_path: Path, settings: Settings
) -> None:
    from datetime import datetime

    from voice.config import override
    from voice.runtime.journal import journal_dir, latest_journal, new_journal_path

    assert journal_dir(settings).name == "games"  # the user data folder by default
    mine = override(settings, session={"journal_dir": str(tmp_path)})
    assert journal_dir(mine) == tmp_path
    started = datetime(2026, 1, 21, 19, 30, 0)
    first = new_journal_path(tmp_path, started)
    assert first.name == "game-20260121-193000.jsonl"
    Journal.create(first, SETUP).close()
    second = new_journal_path(tmp_path, started)
    assert second.name == "game-20260121-193000-2.jsonl"
    Journal.create(second, SETUP).close()
    assert latest_journal(tmp_path) == second
    assert latest_journal(tmp_path / "none") is None


def test_a_journal_replayed_by_simulate_gives_the_same_output_as_its_script(
    tmp_path: Path, settings: Settings
) -> None:
    from voice.game.simulate import run_script

    lines = _script("r912_draw_offers_both_ways")
    path = tmp_path / "j.jsonl"
    first = list(run_journaled(lines, settings, journal_path=path))
    again = list(run_script(path.read_text(encoding="utf-8").splitlines(), settings))
    assert again == first


DEEP = b"[" * 100_000 + b"]" * 100_000
"""JSON nested beyond Python's recursion limit: json.loads raises RecursionError on it."""


def test_a_torn_last_line_nested_too_deeply_is_ignored_like_any_torn_line() -> None:
    data = b'{"setup": {"mode": "game", "time_control": "300"}}\n{"t": 1.0, "sighted": "e2e4"}\n'
    contents = parse_journal(data + b"[" * 100_000, "j")
    assert [e.t_ms for e in contents.events] == [1000]
    assert "nested too deeply" in contents.warnings[0]


def test_a_line_nested_too_deeply_before_the_end_is_an_error_not_a_crash() -> None:
    data = (
        b'{"setup": {"mode": "game", "time_control": "300"}}\n'
        + b'{"t": 1.0, "ask": '
        + DEEP
        + b"}\n"
        + b'{"t": 2.0, "sighted": "e2e4"}\n'
    )
    with pytest.raises(ScriptError, match="line 2 is not valid JSON: nested too deeply"):
        parse_journal(data, "j")


def test_a_journal_saved_with_a_byte_order_mark_resumes(tmp_path: Path) -> None:
    """An arbiter opened the journal in an editor that writes a byte-order mark (Windows
    Notepad); the game resumes, and a torn tail is still cut at the right byte."""
    path = tmp_path / "game.jsonl"
    with Journal.create(path, SETUP) as journal:
        journal.append(SightedMove(1000, "e2e4"))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes() + b'{"t": 2.0, "sigh')
    journal, contents = Journal.reopen(path)
    assert contents.setup.profile == "tournament" and len(contents.warnings) == 1
    journal.append(SightedMove(3000, "e7e5"))
    journal.close()
    again = read_journal(path)
    assert again.warnings == ()
    assert [e.t_ms for e in again.events] == [1000, 3000]


def test_a_game_replays_with_the_settings_it_was_played_with(tmp_path: Path) -> None:
    """Started with ``--config`` (a move may be corrected for four seconds), resumed without
    (no correction window): "Korrektur" took the move back in the game, so it must on replay
    too, and the same move stand on the board. Replayed with the defaults, the correction was
    refused and the first move stayed."""
    from console import Console

    from voice.config import load_settings

    config = tmp_path / "config.toml"
    config.write_text("[session]\ncorrection_window = 4\n", encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    con = Console(
        "--config", str(config), "play", "--text", "--no-speech", "--no-web",
        "--journal", str(journal),
    )  # fmt: skip
    try:
        con.expect("Die Partie beginnt.")
        con.type("Eva vier")
        con.expect("Eva vier")
        con.type("Korrektur")
        con.type("David vier")
        con.expect("David vier")
        con.end_input()
        assert con.wait() == 0
    finally:
        con.close()
    defaults = load_settings(look_in_user_dir=False)
    assert defaults.session.correction_window == 0
    replayed = resume(journal, defaults)
    replayed.journal.close()
    assert isinstance(replayed.core, GameSession)
    replayed.core.handle(Tick(replayed.contents.last_ms + 10_000))  # past the window
    assert [m.uci() for m in replayed.core.board.move_stack] == ["d2d4"]
    assert read_journal(journal).setup.time_control == "900+10"  # the preset's value, kept


def test_a_script_journal_keeps_the_settings_too(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "game.jsonl"
    from voice.config import override

    window = override(settings, session={"correction_window": 3})
    list(run_journaled(_script("r51_resignation_confirmed"), window, journal_path=path))
    kept = read_journal(path).setup.extra["settings"]
    assert kept["session"]["correction_window"] == 3
    assert kept["vocabulary"]["file_words"][0] == "Anna"


def test_a_scripts_own_settings_win_key_by_key_over_the_kept_ones(
    tmp_path: Path, settings: Settings
) -> None:
    path = tmp_path / "game.jsonl"
    script = [
        '{"setup": {"mode": "game", "time_control": "rapid", '
        '"settings": {"session": {"correction_window": 2}}}}',
        '{"t": 1, "blind": "Eva vier"}',
    ]
    list(run_journaled(script, settings, journal_path=path))
    setup = read_journal(path).setup
    kept = setup.extra["settings"]
    assert kept["session"]["correction_window"] == 2  # the script's own
    assert kept["session"]["always_confirm"] is False  # the rest of the section, kept
    assert "accept_cost" in kept["matching"]
    assert setup.time_control == "900+10"  # the preset as what it stood for


def test_a_journal_in_use_by_a_running_game_is_not_reopened(tmp_path: Path) -> None:
    """One program writes a journal at a time: a second --resume of a game still running
    wrote over the first program's lines, and a crash brought back a move never played on the
    board. The lock goes with the program (here: with the file's close)."""
    from voice.runtime.journal import JournalInUse

    path = tmp_path / "game.jsonl"
    running = Journal.create(path, Setup())
    with pytest.raises(JournalInUse):
        Journal.reopen(path)
    running.append(BlindSpeech(1000, (("eva vier", 0.9),)))
    running.close()
    again, contents = Journal.reopen(path)
    with pytest.raises(JournalInUse):
        Journal.reopen(path)
    again.close()
    assert len(contents.events) == 1


def test_a_second_resume_of_a_running_game_is_refused_in_one_sentence(tmp_path: Path) -> None:
    from console import Console

    journal = tmp_path / "game.jsonl"
    first = Console("play", "--text", "--no-speech", "--no-web", "--journal", str(journal))
    try:
        first.expect("Die Partie beginnt.")
        first.type("Eva vier")
        first.expect("Eva vier")
        second = Console("play", "--resume", str(journal), "--text", "--no-speech", "--no-web")
        try:
            line = second.expect("ist in Gebrauch")
            assert line == (
                f"Das Journal {journal} ist in Gebrauch: voice-chess spielt diese Partie wohl "
                "noch. Abhilfe: jenes Programm beenden (Strg-C in seinem Fenster; die Partie ist "
                "gespeichert), dann fortsetzen."
            )
            assert second.wait() != 0
            assert not any("Traceback" in line for line in second.errors)
        finally:
            second.close()
        first.type("Zeit")  # the first game goes on, its journal whole
        first.expect("Minuten")
        first.end_input()
        assert first.wait() == 0
    finally:
        first.close()
    events = read_journal(journal).events
    assert [e.nbest[0][0] for e in events if isinstance(e, BlindSpeech)] == ["Eva vier", "Zeit"]


def test_a_file_system_without_locks_still_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NFS without its lock daemon answers flock with ENOLCK: the game is played unlocked
    rather than refused (a new game was refused and left an empty file that then 'existed
    already'; a resume was 'unreadable')."""
    import errno
    import fcntl

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    path = tmp_path / "game.jsonl"
    with Journal.create(path, Setup()) as journal:
        journal.append(SightedMove(1000, "e2e4"))
    again, contents = Journal.reopen(path)
    again.close()
    assert len(contents.events) == 1
