"""Headless Chromium for the web tests, from Debian's packages (never a downloaded browser).

Without the networking flags Chromium keeps trying to reach the internet, which this machine
cannot; a fresh profile directory keeps runs independent.
"""

from __future__ import annotations

from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

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


def start_chromium(profile: Path) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


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
