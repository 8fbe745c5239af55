"""Headless Chromium from Debian's packages (never a downloaded browser), for benches and tests.

Without the networking flags Chromium keeps trying to reach the internet, which an offline
machine cannot; a fresh profile directory keeps runs independent. Selenium is a test dependency,
so it is imported only here, when a browser is really wanted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def start_chromium(profile: Path) -> Any:
    """A Selenium driver for a new headless Chromium using ``profile`` as its user data."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
