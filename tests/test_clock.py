"""The clock engine, rule by rule, with fake time in exact milliseconds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voice.rules.clock import SIDES, Clock, ClockError, FlagFall, other
from voice.rules.timecontrol import parse_time_control

S = 1000
MIN = 60 * S


def clock(text: str, start: int | None = 0) -> Clock:
    made = Clock(parse_time_control(text))
    if start is not None:
        made.start(start)
    return made


def test_white_starts_and_only_one_display_runs() -> None:
    """6.1 and 6.6: White's clock is started at the start; the other display stands still."""
    c = clock("300", start=None)
    assert c.running is None and c.next_event_ms(0) is None
    c.start(1000)
    assert c.running == "white"
    assert c.remaining_ms("white", 11_000) == 290 * S
    assert c.remaining_ms("black", 11_000) == 300 * S


def test_press_completes_the_move_and_switches() -> None:
    """6.2.1: pressing completes the move; the counter counts completed moves."""
    c = clock("300")
    c.press(7_250)
    assert c.running == "black"
    assert c.moves_completed("white") == 1 and c.moves_completed("black") == 0
    assert c.remaining_ms("white", 20_000) == 292_750
    assert c.remaining_ms("black", 20_000) == 300_000 - 12_750


def test_increment_added_after_each_completed_move() -> None:
    """6.3.1: the increment is added to the side that completed the move."""
    c = clock("900+10")
    assert c.remaining_ms("white", 0) == 900 * S  # nothing before the first move
    c.press(4_000)
    assert c.remaining_ms("white", 4_000) == 906 * S
    c.press(9_000)
    assert c.remaining_ms("black", 9_000) == 905 * S


def test_delay_runs_first_and_a_press_within_it_leaves_main_time_unchanged() -> None:
    """6.3.2 delay mode: the main time only runs after the delay; unused delay is not banked."""
    c = clock("300d5")
    assert c.remaining_ms("white", 4_999) == 300 * S
    c.press(3_000)  # within the delay
    assert c.remaining_ms("white", 3_000) == 300 * S  # not 302 s: nothing banked
    assert c.remaining_ms("black", 3_000 + 7_500) == 300 * S - 2_500
    c.press(3_000 + 7_500)
    assert c.remaining_ms("black", 20_000) == 297_500


def test_delay_flag_falls_after_delay_plus_main_time() -> None:
    c = clock("10d5")
    assert c.next_event_ms(0) == 15 * S
    assert c.check_flags(14_999) == []
    assert c.check_flags(15_000) == [FlagFall(15_000, "white", 0, False)]


def test_time_saved_carries_into_the_next_period() -> None:
    """6.3.2: completing the period's moves adds the next period's time to what is left."""
    c = clock("2/60:30")
    c.press(10 * S)  # white move 1: 50 s left
    c.press(11 * S)  # black
    assert c.moves_to_control("white") == 1
    c.press(31 * S)  # white move 2: 30 s left + 30 s period two
    assert c.period_index("white") == 1
    assert c.remaining_ms("white", 31 * S) == 60 * S
    assert c.moves_to_control("white") is None


def test_increment_and_period_change_on_the_same_move() -> None:
    c = clock("40/5400+30:1800+30")
    now = 0
    for _ in range(40):
        now += 60 * S
        c.press(now)  # white thinks 60 s
        now += 1 * S
        c.press(now)  # black thinks 1 s
    # White: 5400 - 40 × 60 + 40 × 30 + 1800
    assert c.remaining_ms("white", now) == (5400 - 2400 + 1200 + 1800) * S
    assert c.remaining_ms("black", now) == (5400 - 40 + 1200 + 1800) * S
    assert c.moves_completed("black") == 40 and c.period_index("black") == 1


def test_no_carry_over_in_delay_mode() -> None:
    """6.3.2: '… except in time delay mode': the next period starts from its own time."""
    c = clock("1/60d5:30d5")
    c.press(15 * S)  # white used 10 s of main time, 50 s would be saved
    assert c.period_index("white") == 1
    assert c.remaining_ms("white", 15 * S) == 30 * S


def test_flag_falls_at_its_exact_instant_even_when_checked_later() -> None:
    c = clock("60")
    assert c.next_event_ms(0) == 60 * S
    assert c.check_flags(59_999) == []
    assert c.check_flags(95_000) == [FlagFall(60_000, "white", 0, False)]
    assert c.check_flags(99_000) == []  # each flag once
    assert c.remaining_ms("white", 99_000) == 0  # never negative
    assert c.next_event_ms(99_000) is None


def test_a_press_at_the_instant_the_time_runs_out_is_too_late() -> None:
    """6.1: flag fall is the expiration of the allotted time; zero left means it has expired."""
    c = clock("60")
    c.press(60 * S)
    assert c.check_flags(60 * S) == [FlagFall(60 * S, "white", 0, False)]


def test_a_repeating_last_period_adds_its_time_at_every_control() -> None:
    c = clock("1/60:1/30")
    for move in range(1, 4):
        c.press(move * 10 * S - 5 * S)  # White: 5 s per move
        c.press(move * 10 * S)  # Black: 5 s per move
    assert c.period_index("white") == 3
    assert c.remaining_ms("white", 30 * S) == (60 + 30 + 30 + 30 - 15) * S
    assert c.moves_to_control("white") == 1


def test_press_after_the_flag_reports_the_flag_at_its_instant() -> None:
    c = clock("60")
    c.press(61 * S)
    assert c.check_flags(61 * S) == [FlagFall(60 * S, "white", 0, False)]
    assert c.remaining_ms("white", 61 * S) == 0  # no increment, stays down
    assert c.running == "black"


def test_flag_in_a_period_with_move_requirement_checks_the_counter() -> None:
    """6.4: at flag fall, check whether the prescribed number of moves was completed."""
    c = clock("2/10:60")
    c.press(1 * S)
    c.press(2 * S)
    fall = c.check_flags(100 * S)
    assert fall == [FlagFall(11 * S, "white", 0, False)]
    assert c.moves_to_control("white") == 1


def test_corrected_counter_makes_the_flag_fall_with_requirement_met() -> None:
    """6.4 with 6.10.2: the counter (corrected by the arbiter) shows the control was reached."""
    c = clock("2/10:60")
    c.set_moves("white", 2)
    assert c.moves_to_control("white") == 0
    assert c.check_flags(10 * S) == [FlagFall(10 * S, "white", 0, True)]
    # The next press passes the control: the next period's time is added then.
    c.set_time("white", 0, 10 * S)
    c.press(10 * S)
    assert c.period_index("white") == 1


def test_both_flags_recorded_in_order() -> None:
    """Guideline III.3.1 needs to know which flag fell first: the clock timestamps both."""
    c = clock("10")
    c.press(12 * S)  # white's flag fell at 10 s; the game goes on in clock-only mode
    c.press(40 * S)
    assert c.flags == (
        FlagFall(10 * S, "white", 0, False),
        FlagFall(22 * S, "black", 0, False),
    )
    assert c.flags[0].t_ms < c.flags[1].t_ms


def test_pause_and_resume_stop_the_running_display() -> None:
    """6.11: the paused display does not run, and no flag falls while paused."""
    c = clock("60")
    c.pause(10 * S)
    assert c.paused and c.next_event_ms(10 * S) is None
    assert c.check_flags(500 * S) == []
    assert c.remaining_ms("white", 500 * S) == 50 * S
    with pytest.raises(ClockError):
        c.press(500 * S)
    c.resume(600 * S)
    assert c.next_event_ms(600 * S) == 650 * S
    assert c.time_used_ms("white", 610 * S) == 20 * S


def test_pause_during_the_delay_keeps_the_unused_delay() -> None:
    c = clock("60d5")
    c.pause(3 * S)
    c.resume(100 * S)
    assert c.remaining_ms("white", 102 * S) == 60 * S
    assert c.remaining_ms("white", 104 * S) == 58 * S


def test_arbiter_sets_times_and_the_move_counter() -> None:
    """6.10.2 and 7.1: the arbiter installs times and the move counter."""
    c = clock("40/5400+30:1800+30")
    c.press(100 * S)
    c.set_time("black", 3_000 * S, 150 * S)  # the running side
    assert c.remaining_ms("black", 150 * S) == 3_000 * S
    assert c.remaining_ms("black", 160 * S) == 2_990 * S
    c.set_time("white", 4_000 * S, 160 * S)
    assert c.remaining_ms("white", 170 * S) == 4_000 * S
    c.set_moves("white", 10)
    assert c.moves_completed("white") == 10 and c.moves_to_control("white") == 30
    with pytest.raises(ClockError):
        c.set_time("white", -1, 170 * S)
    with pytest.raises(ClockError):
        c.set_moves("white", -1)


def test_add_time_raises_a_fallen_flag_which_can_fall_again() -> None:
    c = clock("10")
    assert len(c.check_flags(20 * S)) == 1
    assert c.is_down("white")
    c.add_time("white", 5 * S, 20 * S)
    assert not c.is_down("white") and c.remaining_ms("white", 20 * S) == 5 * S
    assert c.check_flags(30 * S) == [FlagFall(25 * S, "white", 0, False)]
    assert len(c.flags) == 2


def test_add_time_cannot_go_below_zero() -> None:
    c = clock("60")
    c.add_time("black", -90 * S, 0)
    assert c.remaining_ms("black", 0) == 0


@pytest.mark.parametrize(("text", "penalty_s"), [("5400+30", 120), ("900+10", 60), ("180+2", 60)])
def test_penalty_gives_the_opponent_two_minutes_or_one_in_rapid_and_blitz(
    text: str, penalty_s: int
) -> None:
    """7.5.5 and 9.5: +2 minutes to the opponent; A.3/B.3: 1 minute in rapid and blitz."""
    c = clock(text)
    before = c.remaining_ms("black", 5 * S)
    c.apply_penalty("black", 5 * S)
    assert c.remaining_ms("black", 5 * S) == before + penalty_s * S


def test_arbiter_switches_the_running_side_without_a_move() -> None:
    """7.1 / D.2.9: a reinstated position with the other side to move; no increment, no move."""
    c = clock("2/60+5:60+5")
    c.switch_to("white", 1 * S)  # already running: nothing changes
    c.switch_to("black", 10 * S)
    assert c.running == "black"
    assert c.remaining_ms("white", 10 * S) == 50 * S
    assert c.moves_completed("white") == 0 and c.time_used_ms("white", 10 * S) == 10 * S
    c.pause(12 * S)
    c.switch_to("white", 20 * S)
    assert c.paused and c.running == "white"
    assert c.remaining_ms("black", 20 * S) == 58 * S


def test_guideline_iii_increment_introduced_during_the_game() -> None:
    """Guideline III.4: a player under two minutes asks for 5 s per move for both players."""
    c = clock("300")
    c.press(10 * S)
    c.introduce_increment(5 * S, 20 * S)
    c.add_time("white", 2 * MIN, 20 * S)  # the opponent of the requesting player: +2 minutes
    c.press(30 * S)
    assert c.remaining_ms("black", 30 * S) == 300 * S - 20 * S + 5 * S
    assert c.remaining_ms("white", 30 * S) == 290 * S + 120 * S
    assert c.control.category == "blitz"  # still the announced control
    with pytest.raises(ClockError):
        clock("900+10").introduce_increment(5 * S, 0)


def test_misuse_is_refused() -> None:
    c = clock("60", start=None)
    with pytest.raises(ClockError):
        c.press(0)
    with pytest.raises(ClockError):
        c.pause(0)
    c.start(10)
    with pytest.raises(ClockError):
        c.start(20)
    with pytest.raises(ClockError):
        c.resume(20)
    with pytest.raises(ClockError, match="backwards"):
        c.press(5)


def test_time_used_counts_thinking_time_and_delay() -> None:
    c = clock("60d5")
    c.press(3 * S)
    c.press(11 * S)
    assert c.time_used_ms("white", 12 * S) == 4 * S
    assert c.time_used_ms("black", 12 * S) == 8 * S


# -- the bookkeeping property -------------------------------------------------------------------

turns = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),  # share of the remaining time thought
        st.integers(min_value=0, max_value=120_000),  # a pause in the middle of the turn
    ),
    min_size=1,
    max_size=120,
)


@given(
    periods=st.lists(
        st.tuples(st.integers(1, 5), st.integers(1, 600)), min_size=1, max_size=3
    ),  # (moves, seconds) periods before the final one
    final_s=st.integers(1, 1800),
    increment_s=st.integers(0, 30),
    moves=turns,
)
@settings(max_examples=150, deadline=None)
def test_time_used_plus_time_left_equals_time_given(
    periods: list[tuple[int, int]], final_s: int, increment_s: int, moves: list[tuple[float, int]]
) -> None:
    """6.3: base + period additions + increments == used + left, to the millisecond."""
    text = ":".join(f"{m}/{s}+{increment_s}" for m, s in periods) + f":{final_s}+{increment_s}"
    control = parse_time_control(text)
    c = Clock(control)
    c.start(0)
    given_ms = {"white": control.periods[0].base_ms, "black": control.periods[0].base_ms}
    now = 0
    for share, pause_ms in moves:
        side = c.running
        assert side is not None
        think = int(share * max(0, c.remaining_ms(side, now) - 1))
        c.pause(now + think // 2)
        c.resume(now + think // 2 + pause_ms)
        now += think + pause_ms
        c.press(now)
        assert c.check_flags(now) == []
        done = c.moves_completed(side)
        given_ms[side] += increment_s * S
        for index in range(len(control.periods) - 1):
            if done == control.control_after(index):  # the move that reaches a time control
                given_ms[side] += control.periods[index + 1].base_ms
        for who in SIDES:
            assert c.time_used_ms(who, now) + c.remaining_ms(who, now) == given_ms[who]
        assert c.running == other(side)


@given(delay_s=st.integers(1, 30), thinks=st.lists(st.integers(0, 60_000), max_size=60))
@settings(max_examples=100, deadline=None)
def test_delay_mode_charges_only_time_beyond_the_delay(delay_s: int, thinks: list[int]) -> None:
    """6.3.2: main time left == base − Σ max(0, thinking − delay) per move."""
    c = clock(f"3600d{delay_s}")
    charged = {"white": 0, "black": 0}
    now = 0
    for think in thinks:
        side = c.running
        assert side is not None
        now += think
        c.press(now)
        charged[side] += max(0, think - delay_s * S)
    for who in SIDES:
        expected = max(0, 3_600_000 - charged[who])
        assert c.remaining_ms(who, now) == expected
