"""PGN TimeControl parsing, the delay extension, presets and FIDE's A.1/B.1 classification."""

from __future__ import annotations

import pytest

from voice.config import Settings
from voice.rules.timecontrol import Period, TimeControlError, parse_time_control


def test_sudden_death_in_seconds() -> None:
    control = parse_time_control("300")
    assert control.periods == (Period(moves=None, base_ms=300_000),)
    assert control.text == "300"


def test_increment_form() -> None:
    assert parse_time_control("900+10").periods == (Period(None, 900_000, increment_ms=10_000),)


def test_fide_classical_two_periods_with_increment_from_move_one() -> None:
    """docs/rules.md §2 example: 40 moves in 90 min, then 30 min for the rest, 30 s from move 1."""
    control = parse_time_control("40/5400+30:1800+30")
    assert control.periods == (
        Period(40, 5_400_000, increment_ms=30_000),
        Period(None, 1_800_000, increment_ms=30_000),
    )
    assert control.control_after(0) == 40
    assert control.control_after(1) is None
    assert control.is_last_period(1) and not control.is_last_period(0)


def test_delay_extension() -> None:
    """6.3.2 time-delay mode, written with the documented 'd' extension."""
    assert parse_time_control("5400d30").periods == (Period(None, 5_400_000, delay_ms=30_000),)


def test_last_period_with_a_move_count_repeats() -> None:
    control = parse_time_control("40/7200:20/3600")
    assert [control.control_after(i) for i in range(4)] == [40, 60, 80, 100]
    assert control.period(5) == Period(20, 3_600_000)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("?", "unknown"),
        ("-", "no time control"),
        ("", "unknown"),
        ("*60", "sandclock"),
        ("5 min", "cannot read"),
        ("300+10d5", "cannot read"),
        ("0/300", "at least one move"),
        ("0", "no time at all"),
        ("300:40/1800", "only the last period"),
        ("nonsense", "preset name"),
    ],
)
def test_refused_forms_say_what_is_wrong_and_what_is_allowed(text: str, fragment: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        parse_time_control(text)
    assert fragment in str(caught.value)
    assert repr(text) in str(caught.value)


def test_presets_from_settings_resolve_case_insensitively(settings: Settings) -> None:
    presets = settings.clock.presets
    assert parse_time_control("Rapid", presets).text == presets["rapid"]
    for name, text in presets.items():
        assert parse_time_control(name, presets) == parse_time_control(text)


@pytest.mark.parametrize(
    ("text", "category", "penalty_s"),
    [
        ("600", "blitz", 60),  # B.1: 10 minutes or less
        ("180+2", "blitz", 60),  # 3 min + 60 × 2 s = 5 min
        ("300+5", "blitz", 60),  # exactly 10 min counts as blitz
        ("601", "rapid", 60),  # A.1: more than 10 minutes
        ("900+10", "rapid", 60),  # 25 minutes
        ("1500+10", "rapid", 60),
        ("3599", "rapid", 60),  # less than 60 minutes
        ("3600", "standard", 120),  # 60 minutes is not less than 60: standard
        ("1800+30", "standard", 120),  # 30 min + 30 min = 60 min
        ("40/5400+30:1800+30", "standard", 120),
        ("300d5", "blitz", 60),  # the delay counts like an increment
    ],
)
def test_fide_classification_and_penalty(text: str, category: str, penalty_s: int) -> None:
    """A.1/B.1 classify by base + 60 × increment; A.3: one minute penalties, else two (7.5.5)."""
    control = parse_time_control(text)
    assert control.category == category
    assert control.penalty_ms == penalty_s * 1000
