"""Start the web board beside a running game and tell the players how to open it.

Used by ``voice-chess play`` and ``assist``: the URLs go to the terminal on
lines of their own, so they can be copied, and with ``--lan`` a QR code lets a phone open the
opponent's board without typing a secret.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TextIO

import qrcode

from voice.config import Settings
from voice.rules.approval import SetupApproval
from voice.runtime.host import GameHost
from voice.web.pairing import secrets_for_game
from voice.web.server import WebServer, lan_address, page_language
from voice.words.messages import message


def qr_text(url: str) -> str:
    """A QR code drawn with block characters, readable by a phone camera from a terminal."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def make_server(
    host: GameHost,
    settings: Settings,
    *,
    lan: bool = False,
    port: int | None = None,
    journal_path: Path | None = None,
    approval: SetupApproval | None = None,
) -> WebServer:
    """A server for this game: 127.0.0.1 unless ``lan``; the configured port unless given;
    ``approval``: the set-up the arbiter's page may approve before the game begins."""
    return WebServer(
        host,
        settings,
        secrets_for_game(journal_path, open_spectators=settings.web.open_spectators),
        bind=lan_address() if lan else settings.web.host,
        port=settings.web.port if port is None else port,
        journal_path=journal_path,
        approval=approval,
    )


def announce(
    server: WebServer, settings: Settings, *, qr: bool, out: TextIO, language: str | None = None
) -> None:
    """Print the addresses (opponent, arbiter, spectators, live PGN), each on its own line,
    and the opponent's QR code.

    ``language`` is that of whoever reads the terminal: the blind player's, when a game prints
    them (the page itself is in the opponent's language).
    """
    language = language or page_language(settings)
    lines = [
        message(language, "web.start.opponent"),
        server.url("opponent"),
        message(language, "web.start.arbiter"),
        server.url("arbiter"),
        message(language, "web.start.spectator"),
        server.url("spectator"),
        message(language, "web.start.live_pgn"),
        server.live_pgn_url(),
    ]
    out.write("\n".join(lines) + "\n")
    if qr:
        out.write(message(language, "web.start.qr") + "\n")
        out.write(qr_text(server.url("opponent")))
    out.flush()
