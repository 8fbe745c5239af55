"""Who may do what: one unguessable secret per role, compared in constant time.

The opponent's and the arbiter's pages are reached by a URL that carries their secret, so a
phone on the same network can join by scanning a QR code but a stranger cannot move pieces or
stop clocks. The spectators' secret is only asked for when ``web.open_spectators`` is false.

The secrets and the port the board was served on are kept beside the game's journal: a resumed
game serves the same links, so an open page and a printed QR code go on working.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Role = Literal["opponent", "arbiter", "spectator"]
ROLES: tuple[Role, ...] = ("opponent", "arbiter", "spectator")

# What each role's page is called in URLs: /play, /arbiter, /watch.
PAGE_OF_ROLE: dict[Role, str] = {"opponent": "play", "arbiter": "arbiter", "spectator": "watch"}
ROLE_OF_PAGE: dict[str, Role] = {page: role for role, page in PAGE_OF_ROLE.items()}

TOKEN_BYTES = 18  # 144 bits: far beyond guessing, still short enough for a QR code


@dataclass(frozen=True)
class Secrets:
    """The secret of each role; ``open_spectators`` lets anyone watch without one."""

    opponent: str
    arbiter: str
    spectator: str
    open_spectators: bool = False

    @classmethod
    def generate(cls, *, open_spectators: bool = False) -> Secrets:
        """Fresh, distinct secrets for a new game."""
        return cls(
            opponent=secrets.token_urlsafe(TOKEN_BYTES),
            arbiter=secrets.token_urlsafe(TOKEN_BYTES),
            spectator=secrets.token_urlsafe(TOKEN_BYTES),
            open_spectators=open_spectators,
        )

    def secret_of(self, role: Role) -> str:
        return {"opponent": self.opponent, "arbiter": self.arbiter, "spectator": self.spectator}[
            role
        ]

    def allows(self, role: Role, key: str | None) -> bool:
        """Whether ``key`` opens ``role``'s page; each role has its own secret, none opens two."""
        if role == "spectator" and self.open_spectators:
            return True
        if not key:
            return False
        return hmac.compare_digest(key.encode(), self.secret_of(role).encode())


def keys_path(journal: Path) -> Path:
    """Where a game's secrets are kept: beside its journal (``game-….keys.json``)."""
    return journal.with_name(f"{journal.stem}.keys.json")


def secrets_for_game(journal: Path | None, *, open_spectators: bool) -> Secrets:
    """The game's secrets, kept beside its journal so that a resumed game keeps its links.

    After a crash the opponent's page reconnects by itself as soon as the program is back,
    without a new link to type. The file is readable by its owner only.
    """
    if journal is None:
        return Secrets.generate(open_spectators=open_spectators)
    path = keys_path(journal)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return Secrets(
            opponent=str(stored["opponent"]),
            arbiter=str(stored["arbiter"]),
            spectator=str(stored["spectator"]),
            open_spectators=open_spectators,
        )
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none yet (a new game) or unreadable: new secrets, new links
    fresh = Secrets.generate(open_spectators=open_spectators)
    _write(path, {role: fresh.secret_of(role) for role in ROLES})
    return fresh


def remembered_port(journal: Path) -> int | None:
    """The port this game's board was last served on, if one was kept (:func:`remember_port`)."""
    try:
        port = json.loads(keys_path(journal).read_text(encoding="utf-8")).get("port")
    except (OSError, ValueError, AttributeError):
        return None
    if isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536:
        return port
    return None


def remember_port(journal: Path, port: int) -> None:
    """Keep the port actually bound beside the secrets: with ``--port 0`` the system chose it,
    and a resumed game asks for it again so the opponent's open page reconnects by itself."""
    path = keys_path(journal)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # no secrets kept for this game: nothing to keep the port beside
    if isinstance(data, dict):
        _write(path, {**data, "port": port})


def _write(path: Path, data: dict[str, object]) -> None:
    """Write the keys file, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
