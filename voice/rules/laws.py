"""The edition of the FIDE Laws a game is played under: 2023 (default), 2018 or 2001.

One small, frozen policy object that the pure core consults wherever the editions decide
differently, so that the session, the talking clock and the arbiter's actions carry no edition
conditionals of their own (docs/laws-editions.md has the table, with the articles):

- illegal moves (7.5.5; 2001 7.4.b and C.3): how many lose, and whether two-handed moves and
  pressing the clock without a move count (2018 merged them in; 2001 had no such rule);
- penalties (7.5.5, 9.5.3, A.3, 2018 B.2, 2001 9.5.b): minutes given, in which categories;
- the FIDE category of a time control (A.1, B.1; 2001 B.1, C.1 drew the lines at 15 minutes);
- automatic draws (9.6: fivefold repetition, 75 moves; 2001: claims only);
- resignation where the opponent cannot mate (5.1.2: a draw from 2023 on);
- flags in rapid (A.5.5 from 2018: the arbiter calls them; 2001 B.6-B.8: only on a claim, and
  both flags down is a draw);
- a time deduction for a player who cannot keep score (2001 8.1; 8.1.6 exempts a player with a
  disability from 2018 on);
- Appendix F (2001) wording: the "controller", the retrace "move by move", promotion without a
  mandatory announcement of the piece (F.2.1 has no such sentence).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from voice.rules.timecontrol import Category, TimeControl

Edition = Literal["2023", "2018", "2001"]
EDITIONS: tuple[Edition, ...] = ("2023", "2018", "2001")
DEFAULT_EDITION: Edition = "2023"

# What the arbiter may record as a completed illegal move (the ``kind`` of ``illegal_move``).
IllegalKind = Literal["move", "two_hands", "clock_without_move"]
ILLEGAL_KINDS: tuple[IllegalKind, ...] = ("move", "two_hands", "clock_without_move")

_MINUTE_MS = 60_000


@dataclass(frozen=True)
class WrongClaim:
    """What an incorrect draw claim costs (9.5.3; 2001 9.5.b): time to each side."""

    opponent_gets_ms: int
    claimant_left_ms: int  # the claimant's time after the deduction (unchanged when none)


@dataclass(frozen=True)
class Laws:
    """What one edition decides (the defaults are the 2023 Laws); get it from :func:`laws_for`."""

    edition: Edition
    # Completed illegal moves by one player that lose the game (7.5.5: 2; 2001 7.4.b: 3).
    illegal_moves_to_lose: int = 2
    # What counts as an illegal move (7.5.1-7.5.4; 2001 knew only the move itself).
    illegal_kinds: frozenset[IllegalKind] = frozenset(ILLEGAL_KINDS)
    # 2001 C.3: in blitz an illegal move, once the clock was pressed, loses on the opponent's claim.
    blitz_illegal_move_loses: bool = False
    # 9.6.1 / 9.6.2 end the game without a claim (2018 and 2023).
    automatic_draws: bool = True
    # 5.1.2 (2023): resigning when the opponent cannot mate is a draw.
    resignation_draw: bool = True
    # A.5.5 (from 2018): the arbiter calls a flag in rapid and blitz; 2001 B.6: in rapid only a
    # claim makes a flag count.
    flags_called_in_rapid: bool = True
    # 8.1 (2001): the arbiter may deduct time from a player who cannot keep score, even a blind
    # one; 8.1.6 (2018, 2023): never from a player with a disability.
    deduct_for_scoresheet_of_disabled: bool = False
    # A.3 (2023): one minute instead of two in rapid and blitz; 2018 B.2: in blitz; 2001: never.
    reduced_penalty_in: frozenset[Category] = frozenset({"rapid", "blitz"})
    # 2001 B.1, C.1: rapid from 15 minutes (blitz below); from 2018 on more than 10 (A.1, B.1).
    rapid_from_15_minutes: bool = False
    # 2001 9.5.b: a wrong claim also takes time from the claimant, and gives three minutes.
    wrong_claim_deducts: bool = False
    # Appendix F (2001) in place of Appendix D: its wording and its promotion rule.
    appendix: Literal["D", "F"] = "D"

    @property
    def promotion_must_be_announced(self) -> bool:
        """D.2.1: "the player must announce the chosen piece"; F.2.1 (2001) has no such
        sentence, so the program asks for the piece instead of refusing the move."""
        return self.appendix == "D"

    # -- time controls ----------------------------------------------------------------------

    def category(self, control: TimeControl) -> Category:
        """A.1 / B.1: base + 60 × increment; 2001 (B.1, C.1): blitz under 15 minutes."""
        if not self.rapid_from_15_minutes:
            return control.category
        first = control.periods[0]
        total = first.base_ms + 60 * max(first.increment_ms, first.delay_ms)
        if total < 15 * _MINUTE_MS:
            return "blitz"
        if total < 60 * _MINUTE_MS:
            return "rapid"
        return "standard"

    def penalty_ms(self, control: TimeControl) -> int:
        """Time the opponent receives (7.5.5, 9.5.3): one minute instead of two in rapid and
        blitz from 2023 (A.3), in blitz only in 2018 (B.2), never in 2001 (7.4.b)."""
        return _MINUTE_MS if self.category(control) in self.reduced_penalty_in else 2 * _MINUTE_MS

    def wrong_claim(self, control: TimeControl, claimant_ms: int) -> WrongClaim:
        """9.5.3: the opponent gets the penalty time. 2001 9.5.b: three minutes, and the claimant
        loses half of his time up to three minutes when he has more than two, or is set to one
        minute when he has between one and two."""
        if not self.wrong_claim_deducts:
            return WrongClaim(self.penalty_ms(control), claimant_ms)
        if claimant_ms > 2 * _MINUTE_MS:
            left = claimant_ms - min(claimant_ms // 2, 3 * _MINUTE_MS)
        elif claimant_ms > _MINUTE_MS:
            left = _MINUTE_MS
        else:
            left = claimant_ms
        return WrongClaim(3 * _MINUTE_MS, left)

    def flag_needs_claim(self, control: TimeControl) -> bool:
        """2001 B.6: in rapid the arbiter does not call a flag; it counts when claimed."""
        return not self.flags_called_in_rapid and self.category(control) == "rapid"

    # -- illegal moves -------------------------------------------------------------------------

    def illegal_move_loses(self, control: TimeControl, count: int) -> bool:
        """Whether a player's ``count``-th completed illegal move loses (7.5.5; 2001 7.4, C.3)."""
        if self.blitz_illegal_move_loses and self.category(control) == "blitz":
            return True
        return count >= self.illegal_moves_to_lose

    # -- wording ---------------------------------------------------------------------------------

    def wording(self, key: str) -> str:
        """The session's key of a sentence in this edition's wording: Appendix F (2001) says
        "controller" where Appendix D says "arbiter", and retraces "move by move" (F.2.8); its
        variants carry the suffix ``.f``."""
        return f"{key}.f" if self.appendix == "F" and key in F_WORDING else key


# Session sentences (keys under ``game.``) whose 2001 wording differs: Appendix F's
# "controller", and the illegal move that loses.
F_WORDING = frozenset(
    {
        "paused",
        "correction.too_late",
        "correction.replied",
        "reason.arbiter",
        "arbiter.called",
        "arbiter.paused",
        "arbiter.resumed",
        "arbiter.retracted",
        "arbiter.time_set",
        "arbiter.moves_set",
        "arbiter.penalty",
        "arbiter.increment",
        "claim.wrong_logged",
        "sighted.paused",
        "touched.logged",
        # 2001 7.4.b and C.3: not the "second" illegal move
        "reason.illegal_moves",
        "reason.illegal_moves_draw",
    }
)

_EDITIONS: dict[Edition, Laws] = {
    "2023": Laws(edition="2023"),
    # 2018: as 2023 but for 5.1.2 (the resignation draw) and A.3 (1 minute in blitz only, B.2).
    "2018": Laws(edition="2018", resignation_draw=False, reduced_penalty_in=frozenset({"blitz"})),
    # 2001: its own Articles 7.4, 9.5, B and C, 8.1 and Appendix F throughout.
    "2001": Laws(
        edition="2001",
        illegal_moves_to_lose=3,
        illegal_kinds=frozenset({"move"}),
        blitz_illegal_move_loses=True,
        automatic_draws=False,
        resignation_draw=False,
        flags_called_in_rapid=False,
        deduct_for_scoresheet_of_disabled=True,
        reduced_penalty_in=frozenset(),
        rapid_from_15_minutes=True,
        wrong_claim_deducts=True,
        appendix="F",
    ),
}


class EditionError(ValueError):
    """Not an edition this program knows; the message lists those it does."""


def laws_for(edition: str | None) -> Laws:
    """The policy of ``edition`` ("2023", "2018", "2001"); ``None`` is the default, 2023."""
    name = DEFAULT_EDITION if edition is None else str(edition)
    if name not in _EDITIONS:
        raise EditionError(f"the Laws edition must be one of {', '.join(EDITIONS)}, not {name!r}")
    return _EDITIONS[name]
