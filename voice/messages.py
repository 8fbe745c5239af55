"""What the program says or shows, by message key, in the player's language.

Catalogues are TOML files in ``voice/locales/`` (``de.toml``, ``en.toml``, ...): one key per
sentence, with named placeholders (``"Kein {piece} kann nach {square}"``), never sentences glued
from fragments. A test checks that every key exists in every catalogue.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LOCALES = Path(__file__).resolve().parent / "locales"
FALLBACK = "en"


@cache
def catalogue(language: str) -> dict[str, str]:
    """The flat ``key -> template`` table of one language."""
    path = LOCALES / f"{language}.toml"
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    flat: dict[str, str] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{prefix}{key}.", value)
            else:
                flat[f"{prefix}{key}"] = str(value)

    walk("", data)
    return flat


def languages() -> list[str]:
    return sorted(path.stem for path in LOCALES.glob("*.toml"))


def message(language: str, key: str, **params: Any) -> str:
    """The sentence for ``key`` in ``language`` with its placeholders filled in.

    >>> message("de", "not_understood")
    'Nicht verstanden.'
    """
    table = catalogue(language)
    template = table.get(key)
    if template is None:
        template = catalogue(FALLBACK)[key]
    return template.format(**params)
