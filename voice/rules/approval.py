"""The arbiter's approval of a tournament board's set-up, from the terminal or the web page.

At a tournament (D.2.10) the arbiter approves the time control, the rank and file words, who
plays which side and the edition of the FIDE Laws before the clock starts. Arbiters stand at the
board with a phone or tablet as often as at the computer, so both the terminal prompt and the
arbiter's web page can approve: whichever comes first counts, and the other is told. The approval
itself goes into the journal once, at game time zero, from the program (:mod:`voice.wiring.app`),
whichever way it came.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from voice.rules.events import Side
from voice.rules.timecontrol import TimeControl

Via = Literal["terminal", "web"]


@dataclass
class SetupApproval:
    """The set-up waiting for approval, and by which way it was approved (None: not yet)."""

    control: TimeControl
    blind: Side
    rank_words: tuple[str, ...]
    file_words: tuple[str, ...]
    laws: str = "2023"  # the FIDE Laws edition (voice.rules.laws)
    describe_board: bool = False  # descriptions of the board on request (11.3.1)
    deaf_opponent: bool = False  # D.2.11: the blind player's moves in large text
    via: Via | None = None
    on_web: Callable[[], None] | None = field(default=None, repr=False)
    """Called when the web page approved first: the terminal prompt stops waiting."""

    @property
    def approved(self) -> bool:
        return self.via is not None

    def approve(self, via: Via) -> bool:
        """Approve by ``via``; False when it was approved already (the first one counts)."""
        if self.via is not None:
            return False
        self.via = via
        if via == "web" and self.on_web is not None:
            self.on_web()
        return True

    def params(self) -> dict[str, Any]:
        """What the journal records: the set-up as approved, and where it was approved."""
        return {
            "time_control": self.control.text,
            "blind": self.blind,
            "rank_words": list(self.rank_words),
            "file_words": list(self.file_words),
            "laws": self.laws,
            "via": self.via,
        }
