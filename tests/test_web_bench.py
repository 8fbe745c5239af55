"""The latency bench runs end to end and reports its figures (it asserts no timing)."""

from __future__ import annotations

import pytest

from benchmarks.cli import main

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_click_to_announcement_bench_prints_p50_and_p95(
    capfd: pytest.CaptureFixture[str],
) -> None:
    assert main(["web", "--moves", "3"]) == 0
    lines = capfd.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "webdriver click sent -> Say to the blind player",
        "browser click event -> Say to the blind player",
    ]
    assert all(" n=3 " in line and " p50=" in line and " p95=" in line for line in lines)
