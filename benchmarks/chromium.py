"""Headless Chromium from Debian's packages (never a downloaded browser), for benches and tests.

Without the networking flags Chromium keeps trying to reach the internet, which an offline
machine cannot; a fresh profile directory keeps runs independent. Selenium is a test dependency,
so it is imported only here, when a browser is really wanted.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Selenium is a test extra: imported where a browser is really wanted
    from selenium.webdriver import Chrome

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--window-size=1280,900",
)


class BrowserUnavailable(RuntimeError):
    """Selenium, Chromium or chromedriver is missing; the message says what to install."""


def start_chromium(profile: Path) -> Chrome:
    """A Selenium driver for a new headless Chromium using ``profile`` as its user data."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise BrowserUnavailable(
            "selenium is not installed: install the test extras (pip install -e '.[test]')"
        ) from None
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    try:
        return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    except WebDriverException as error:
        raise BrowserUnavailable(
            f"headless Chromium does not start ({error.msg}); install the Debian packages "
            "chromium and chromium-driver"
        ) from None
