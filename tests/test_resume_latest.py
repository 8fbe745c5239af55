"""``--resume`` without a file: the newest game (or talking clock) that is not over.

The latest journal was the most recently written file, and opening a finished game with
``--resume FILE`` rewrote its file (nothing changed in it, but its time did): the next
``--resume`` alone then opened that old, finished game ("Partie geladen. Sie ist beendet …")
instead of the game the crash interrupted, or instead of saying there was none to continue.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest
from console import run_command

from voice.cli._resume import LATEST, journal_to_resume
from voice.config import Settings
from voice.rules.events import BlindSpeech, KeyPress, Setup, SightedMove
from voice.runtime.journal import Journal, journal_dir, none_saved, only_finished
from voice.runtime.resume import latest_unfinished

GAME = Setup(mode="game", blind="white", time_control="900+10", language="de")
CLOCK = Setup(mode="clock", time_control="600", language="de", extra={"start": "press"})


def _said(t_s: int, words: str) -> BlindSpeech:
    return BlindSpeech(t_s * 1000, ((words, 0.95),))


def _journal(path: Path, setup: Setup, events: list, age_s: int) -> Path:
    """A journal as the program leaves it, last written ``age_s`` seconds ago."""
    with Journal.create(path, setup) as journal:
        journal.extend(events)
    written = path.stat().st_mtime - age_s
    os.utime(path, (written, written))
    return path


def _unfinished(folder: Path, age_s: int) -> Path:
    """A game stopped by a crash: White played e4, Black to move."""
    return _journal(folder / "game-20261101-180000.jsonl", GAME, [_said(2, "Eva vier")], age_s)


def _finished(folder: Path, age_s: int, name: str = "game-20261020-180000.jsonl") -> Path:
    """A game White resigned."""
    return _journal(folder / name, GAME, [_said(2, "Aufgabe"), _said(3, "ja")], age_s)


def _in(settings: Settings, folder: Path) -> Settings:
    from voice.config import override

    return override(settings, session={"journal_dir": str(folder)})


def test_resume_alone_passes_a_finished_game_by_for_the_unfinished_one(
    tmp_path: Path, settings: Settings
) -> None:
    unfinished = _unfinished(tmp_path, age_s=3600)
    _finished(tmp_path, age_s=60)  # written later: opened again, or just ended
    mine = _in(settings, tmp_path)
    assert journal_to_resume(LATEST, mine, "game") == unfinished
    assert journal_to_resume(tmp_path, settings, "game") == unfinished  # --resume FOLDER


def test_resume_alone_with_only_finished_games_finds_none_to_continue(
    tmp_path: Path, settings: Settings
) -> None:
    _finished(tmp_path, age_s=60)
    _finished(tmp_path, age_s=3600, name="game-20261001-180000.jsonl")
    found = journal_to_resume(LATEST, _in(settings, tmp_path), "game")
    assert none_saved(found) and only_finished(found)  # the caller says so in a sentence
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = journal_to_resume(empty, settings, "game")
    assert none_saved(nothing) and not only_finished(nothing)  # "no game saved there yet"


def test_an_unreadable_latest_journal_is_taken_so_that_its_fault_is_said(
    tmp_path: Path, settings: Settings
) -> None:
    """Not skipped for an older game: resuming it names what is wrong with it."""
    _unfinished(tmp_path, age_s=3600)
    broken = tmp_path / "game-20261102-180000.jsonl"
    broken.write_text('{"setup": {"mode": "game"}}\n{"t": 1, "nonsense": 1}\n', encoding="utf-8")
    assert latest_unfinished(tmp_path, settings) == broken


def test_opening_a_journal_writes_nothing_until_a_new_input_comes(tmp_path: Path) -> None:
    """Reopening rewrote the file (cut to its own length and synced): its time changed, and an
    old finished game looked at again became the "latest"."""
    path = _finished(tmp_path, age_s=3600)
    before = path.read_bytes(), path.stat().st_mtime_ns
    journal, _ = Journal.reopen(path)
    journal.close()
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    # A torn tail stays too while nothing is added, and goes with the next line.
    with path.open("ab") as handle:
        handle.write(b'{"t": 4.0, "blin')
    torn = path.read_bytes(), path.stat().st_mtime_ns
    journal, contents = Journal.reopen(path)
    journal.close()
    assert contents.warnings and (path.read_bytes(), path.stat().st_mtime_ns) == torn
    journal, _ = Journal.reopen(path)
    journal.append(SightedMove(5000, "e7e5"))
    journal.close()
    assert path.read_bytes() == before[0] + b'{"t":5.0,"sighted":"e7e5"}\n'


def test_the_talking_clock_resumes_the_latest_clock_not_ended(
    tmp_path: Path, settings: Settings
) -> None:
    """``voice-chess clock --resume`` picks its journal the same way: a clock ended with Q
    twice is passed by, one stopped by a crash or Ctrl-C is continued."""
    running = _journal(
        tmp_path / "clock-20261101-180000.jsonl", CLOCK, [KeyPress(1000, "press")], age_s=3600
    )
    ended = _journal(
        tmp_path / "clock-20261102-180000.jsonl",
        CLOCK,
        [KeyPress(1000, "press"), KeyPress(5000, "quit"), KeyPress(6000, "quit")],
        age_s=60,
    )
    mine = _in(settings, tmp_path)
    assert journal_to_resume(LATEST, mine, "clock") == running
    running.unlink()
    assert none_saved(journal_to_resume(LATEST, mine, "clock"))
    assert ended.exists()


def test_the_talking_clock_says_when_every_clock_was_ended(
    tmp_path: Path, settings: Settings
) -> None:
    from voice.cli.clock import _Refused, _resumed

    folder = journal_dir(settings)  # the data folder of this test (conftest)
    _journal(
        folder / "clock-20261102-180000.jsonl",
        CLOCK,
        [KeyPress(1000, "press"), KeyPress(5000, "quit"), KeyPress(6000, "quit")],
        age_s=60,
    )
    args = argparse.Namespace(resume=LATEST, config=None, speech=True, listen=True)
    with pytest.raises(_Refused) as refused:
        _resumed(args, settings, "en")
    assert str(refused.value) == (
        f"Every clock saved in {folder} was ended: voice-chess clock starts a new one, and "
        "voice-chess clock --resume with an ended clock's file name opens that clock."
    )


# -- through the command line ---------------------------------------------------------------


def _play(*args: str) -> str:
    result = run_command("play", "--text", "--no-speech", "--no-web", *args)
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout + result.stderr


def test_play_resume_opens_a_finished_game_only_by_its_file_and_leaves_the_file_alone(
    settings: Settings,
) -> None:
    """The trial: a game resigned, another started and killed before its journal was made
    (while the computer's strength was asked); the finished game opened once by its file."""
    folder = journal_dir(settings)  # the data folder of this test (conftest)
    finished = _finished(folder, age_s=3600)
    before = finished.read_bytes(), finished.stat().st_mtime_ns
    shown = _play("--resume", str(finished))
    assert "Partie geladen. Sie ist beendet: Schwarz gewinnt: Weiß hat aufgegeben." in shown
    assert (finished.read_bytes(), finished.stat().st_mtime_ns) == before

    refused = _play("--resume")
    assert "Partie geladen" not in refused
    assert (
        f"Jede in {folder} gespeicherte Partie ist beendet: eine neue beginnt voice-chess play, "
        "eine beendete öffnet voice-chess play --resume mit dem Namen ihrer Datei."
    ) in refused
    assert (finished.read_bytes(), finished.stat().st_mtime_ns) == before

    unfinished = _unfinished(folder, age_s=7200)  # older than the finished game's file
    resumed = _play("--resume")
    assert "Partie fortgesetzt. Schwarz ist am Zug." in resumed
    command = "voice-chess play --text --no-speech --no-web"
    assert f"Fortsetzen mit: {command} --resume {unfinished}" in resumed
    assert (finished.read_bytes(), finished.stat().st_mtime_ns) == before


def test_resume_alone_replays_a_finished_game_once_not_at_every_search(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new user's review: with hundreds of finished games, ``--resume`` alone replayed every
    one of them each time to find the unfinished game (seconds). A journal found finished is
    remembered with its size and time: the next search replays only what it must, and picks
    the same game."""
    import voice.runtime.resume as resume_module

    replayed: list[Path] = []
    real_read = resume_module.read_journal

    def counting(path: Path) -> object:
        replayed.append(path)
        return real_read(path)

    monkeypatch.setattr(resume_module, "read_journal", counting)
    finished = [
        _finished(tmp_path, age_s=60 + n, name=f"game-20261020-18{n:04d}.jsonl") for n in range(120)
    ]
    unfinished = _unfinished(tmp_path, age_s=3600)  # older than every finished game
    assert latest_unfinished(tmp_path, settings) == unfinished
    assert len(replayed) == 121  # the first search has to look at each
    replayed.clear()
    assert latest_unfinished(tmp_path, settings) == unfinished
    assert replayed == [unfinished]
    # A finished game written to since (an arbiter may reopen one) is replayed again.
    with finished[7].open("a", encoding="utf-8") as handle:
        handle.write('{"t": 4.0, "blind": "Zeit"}\n')
    replayed.clear()
    assert latest_unfinished(tmp_path, settings) == unfinished
    assert replayed == [finished[7], unfinished]
    # A newer unfinished game is found at once; without the memory the pick is the same.
    newest = _journal(tmp_path / "game-20261103-180000.jsonl", GAME, [_said(2, "Eva vier")], 1)
    replayed.clear()
    assert latest_unfinished(tmp_path, settings) == newest and replayed == [newest]
    (tmp_path / resume_module.FINISHED).unlink()
    assert latest_unfinished(tmp_path, settings) == newest
    unfinished.unlink()
    newest.unlink()
    assert latest_unfinished(tmp_path, settings) is None  # every one finished: all looked at
    replayed.clear()
    assert latest_unfinished(tmp_path, settings) is None and replayed == []


def test_a_finished_journal_replaced_by_an_unfinished_one_of_its_size_and_time_is_found(
    tmp_path: Path, settings: Settings
) -> None:
    """A game put back in place of a finished one (a backup restored, a copy kept with its
    time) may have the same size and time; it was passed by as finished, and ``--resume``
    alone said there was nothing to continue."""
    finished = _finished(tmp_path, age_s=60)
    assert latest_unfinished(tmp_path, settings) is None  # noted as finished
    (tmp_path / "backup").mkdir()
    backup = _unfinished(tmp_path / "backup", age_s=0)
    padding = finished.stat().st_size - backup.stat().st_size - 2
    assert padding >= 0
    with backup.open("a", encoding="utf-8") as handle:  # a comment: read, never replayed
        handle.write("#" + "x" * padding + "\n")
    assert backup.stat().st_size == finished.stat().st_size
    stat = finished.stat()
    os.utime(backup, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(backup, finished)
    assert latest_unfinished(tmp_path, settings) == finished


def test_a_memory_of_finished_games_that_cannot_be_written_leaves_no_file_behind(
    tmp_path: Path, settings: Settings
) -> None:
    """With a folder in the way of the file (or a full disk), the half-made file stayed in
    the games folder, one more at every search."""
    import voice.runtime.resume as resume_module

    (tmp_path / resume_module.FINISHED).mkdir()
    _finished(tmp_path, age_s=60)
    assert latest_unfinished(tmp_path, settings) is None
    assert latest_unfinished(tmp_path, settings) is None
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        resume_module.FINISHED,
        "game-20261020-180000.jsonl",
    ]
