"""``--resume [JOURNAL]``, shared by the commands that keep a journal (``play``, ``assist``,
``clock``): which file to continue.

A leading underscore: the command loader in ``voice/cli/__init__.py`` skips this module.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from voice.config import Settings
from voice.runtime.journal import JournalKind, journal_dir
from voice.runtime.resume import latest_unfinished

LATEST = Path("<latest>")
"""``--resume`` without a file: the most recent journal whose game is not over."""


def journal_to_resume(given: Path, settings: Settings, kind: JournalKind) -> Path:
    """The file ``--resume`` names: ``given`` itself, or for ``--resume`` alone the most
    recently written journal of ``kind`` in ``[session] journal_dir`` whose game is not over
    (for a folder: the same in it); a finished game is opened only when its file is named.
    When there is none, a pattern naming the folder searched, which the caller reports as
    missing (``voice.runtime.journal.none_saved``, ``only_finished``)."""
    if given != LATEST and not given.is_dir():
        return given
    folder = journal_dir(settings) if given == LATEST else given
    found = latest_unfinished(folder, settings, kind) if folder.is_dir() else None
    return found or folder / f"{kind}-*.jsonl"


def add_resume_argument(parser: argparse.ArgumentParser, kind: JournalKind) -> None:
    """``--resume [JOURNAL]`` for a command that keeps journals of ``kind``."""
    parser.add_argument(
        "--resume",
        type=Path,
        nargs="?",
        const=LATEST,
        metavar="JOURNAL",
        help=f"continue the {kind} in JOURNAL after a crash or power cut (without JOURNAL: the "
        f"latest unfinished {kind} in [session] journal_dir; a folder: the latest unfinished in "
        f"it; a finished {kind} is opened only by its file); the clocks go on from its last entry",
    )
