"""Shared fixtures. Tests never read the developer's own settings file."""

from __future__ import annotations

import pytest
from pulse import pulse  # noqa: F401 - the session-scoped PulseAudio fixture (tests/pulse.py)

from voice.config import Settings, load_settings
from voice.vocabulary import Vocabulary


@pytest.fixture(autouse=True)
def _no_user_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))


@pytest.fixture(scope="session")
def settings() -> Settings:
    return load_settings(look_in_user_dir=False)


@pytest.fixture(scope="session")
def vocab(settings: Settings) -> Vocabulary:
    return Vocabulary.from_settings(settings.vocabulary)
