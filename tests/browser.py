"""Finding things on the pages in headless Chromium (started by :mod:`benchmarks.chromium`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from benchmarks.chromium import start_chromium

__all__ = [
    "chromium",
    "driver",
    "square",
    "start_chromium",
    "wait_connected",
    "wait_for_ply",
]


@contextmanager
def chromium(profile: Path) -> Iterator[webdriver.Chrome]:
    """A headless Chromium for the time of a ``with`` block (quit even when a test fails)."""
    driver = start_chromium(profile)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """One headless Chromium for a test module (import this fixture into the module)."""
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as started:
        yield started


def square(driver: webdriver.Chrome, name: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'[data-square="{name}"]')


def wait_for_ply(driver: webdriver.Chrome, ply: int, timeout: float = 10) -> None:
    """Until the page has drawn the position after ``ply`` half-moves."""
    WebDriverWait(driver, timeout, poll_frequency=0.01).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ply") == str(ply)
    )


def wait_connected(driver: webdriver.Chrome, timeout: float = 10) -> None:
    WebDriverWait(driver, timeout, poll_frequency=0.01).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ply") is not None
    )
