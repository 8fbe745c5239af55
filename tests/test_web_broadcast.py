"""The live PGN address: what tournament broadcasts (Lichess and others) poll for the game."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import httpx
from web_harness import LiveGame, game, live_game

from voice.config import Settings, override
from voice.rules.events import ArbiterAction

__all__ = ["game"]  # the shared fixture this module uses


def read(url: str) -> chess.pgn.Game:
    response = httpx.get(url)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-chess-pgn")
    assert response.headers["cache-control"] == "no-store"  # a poll always gets the game now
    parsed = chess.pgn.read_game(io.StringIO(response.text))
    assert parsed is not None
    return parsed


def test_the_live_pgn_always_holds_the_game_so_far_with_clock_comments(game: LiveGame) -> None:
    url = game.server.live_pgn_url()
    assert url.endswith(f"/live.pgn?key={game.secrets.spectator}")
    assert read(url).headers["Result"] == "*" and list(read(url).mainline_moves()) == []
    game.play_moves("e2e4", "e7e5", "g1f3")
    live = read(url)
    assert [node.san() for node in live.mainline()] == ["e4", "e5", "Nf3"]
    clocks = [node.clock() for node in live.mainline()]
    assert all(clock is not None and 900 < clock <= 930 for clock in clocks)  # 900+10
    game.submit(lambda t: ArbiterAction(t, "declare_result", {"result": "1-0"}))
    assert read(url).headers["Result"] == "1-0"


def test_the_live_pgn_needs_the_spectators_key_unless_spectators_are_open(
    settings: Settings, tmp_path: Path, game: LiveGame
) -> None:
    base = f"{game.base}/live.pgn"
    assert httpx.get(base).status_code == 403
    assert httpx.get(f"{base}?key={game.secrets.opponent}").status_code == 403
    with live_game(
        override(settings, web={"open_spectators": True}), tmp_path / "open"
    ) as open_game:
        assert open_game.server.live_pgn_url() == f"{open_game.base}/live.pgn"
        assert httpx.get(open_game.server.live_pgn_url()).status_code == 200
