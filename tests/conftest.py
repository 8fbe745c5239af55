"""Shared fixtures. Tests never read the developer's own settings file."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from pulse import pulse  # noqa: F401 - the session-scoped PulseAudio fixture (tests/pulse.py)

from voice.config import Settings, load_settings
from voice.words.vocabulary import Vocabulary


@pytest.fixture(scope="session")
def whisper_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Whisper model joined once per test run from its pip packages, as a fresh install
    does on first use (in a data folder of its own).

    Under pytest-xdist every worker is a session of its own: the workers share the run's
    temporary root, and a file lock lets the first one join the model while the others wait and
    then find it installed."""
    from voice.speech.models import DEFAULT_WHISPER, ensure_whisper_model

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own (popen-gw0, …)
    data = root / "whisper-data"
    with (root / "whisper-data.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data.mkdir(exist_ok=True)
        saved = os.environ.get("XDG_DATA_HOME")
        os.environ["XDG_DATA_HOME"] = str(data)
        try:
            return ensure_whisper_model(DEFAULT_WHISPER)
        finally:
            if saved is None:
                del os.environ["XDG_DATA_HOME"]
            else:
                os.environ["XDG_DATA_HOME"] = saved


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses the PulseAudio daemon ``audio`` and every test that drives
    Chromium ``browser`` (see the README's "For developers" for the tiers), so no such test
    slips into the fast tier for want of a marker; the audio tests run on one worker."""
    for item in items:
        if "pulse" in item.fixturenames:
            item.add_marker(pytest.mark.audio)
        if "driver" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("audio") is not None:
            # One worker plays and records at a time: real-time audio tests in parallel on two
            # cores underran and misheard (a CI run: "zwei" not understood).
            item.add_marker(pytest.mark.xdist_group("audio"))


@pytest.fixture(autouse=True)
def _no_user_settings(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
    whisper_model: Path,
) -> None:
    """Fresh settings and data folders per test; the data folder holds the Whisper model as
    installed (linked to the run's one copy: joining 145 MB per test would cost minutes),
    except for tests marked ``empty_models`` (model management starts from nothing)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    if request.node.get_closest_marker("empty_models") is not None:
        return
    models = home / "data" / "voice-chess" / "models"
    models.mkdir(parents=True)
    (models / whisper_model.name).symlink_to(whisper_model, target_is_directory=True)


@pytest.fixture(scope="session")
def settings() -> Settings:
    return load_settings(look_in_user_dir=False)


@pytest.fixture(scope="session")
def vocab(settings: Settings) -> Vocabulary:
    return Vocabulary.from_settings(settings.vocabulary)
