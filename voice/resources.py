"""Where the data folders ``config/`` and ``speech_models/`` are, in a wheel or a checkout.

An installed wheel carries them inside the package as ``voice/_config`` and
``voice/_speech_models`` (pyproject.toml maps them there); a source checkout and an editable
install read them at the top of the repository. The packaged copy is looked for first, so that
an installed program never takes an unrelated ``config`` folder beside it in site-packages for
its own.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    packaged = _PACKAGE / f"_{name}"
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name


def config_dir() -> Path:
    """The folder holding ``default.toml``."""
    return _data_dir("config")


def speech_models_dir() -> Path:
    """The folder holding lexicons, grammars and the model catalogue (never model binaries)."""
    return _data_dir("speech_models")
