"""Where the data folders ``config/`` and ``speech_models/`` are, in a checkout or a wheel.

In a source checkout (and an editable install) they sit at the top of the repository; an
installed wheel carries them as the packages ``voice._config`` and ``voice._speech_models``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _data_dir(name: str, package: str) -> Path:
    checkout = _REPO_ROOT / name
    if checkout.is_dir():
        return checkout
    return Path(str(resources.files(package)))


def config_dir() -> Path:
    """The folder holding ``default.toml``."""
    return _data_dir("config", "voice._config")


def speech_models_dir() -> Path:
    """The folder holding lexicons, grammars and the model catalogue (never model binaries)."""
    return _data_dir("speech_models", "voice._speech_models")
