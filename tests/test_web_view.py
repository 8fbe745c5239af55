"""What the pages are told, read from the session: clocks, legal moves, who sees what."""

from __future__ import annotations

from pathlib import Path

from web_harness import LiveGame, live_game

from voice.config import Settings
from voice.events import ArbiterAction
from voice.web.pairing import Role
from voice.web.protocol import View
from voice.web.view import GameView


def view_of(game: LiveGame, role: Role) -> View:
    builder = GameView(game.host, game.settings, "de")
    return game.call(lambda: builder.view_for(role))


def test_in_delay_mode_the_page_learns_how_long_the_running_display_stands_still(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, time_control="300d5") as game:
        clock = view_of(game, "opponent").clock
        assert clock.running == "white" and 0 < clock.delay_ms <= 5000
        assert clock.white_ms == 300_000  # nothing is charged during the delay
        game.submit(lambda t: ArbiterAction(t, "pause", {}))
        assert view_of(game, "opponent").clock.delay_ms == 0


def test_only_the_opponent_gets_legal_moves_and_only_on_its_turn(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path) as game:
        assert view_of(game, "opponent").legal == []  # White (blind) to move
        game.blind_plays("e2e4")
        opponent = view_of(game, "opponent")
        assert opponent.me == "black" and opponent.legal is not None
        assert len(opponent.legal) == 20 and "e7e5" in opponent.legal
        assert view_of(game, "spectator").legal is None
        assert view_of(game, "arbiter").legal is None


def test_the_arbiter_s_panel_lists_a_refused_analysis_request(
    settings: Settings, tmp_path: Path
) -> None:
    with live_game(settings, tmp_path, profile="tournament") as game:
        game.blind_says("wer greift David fünf an")  # an analysis aid (11.3.1): refused, logged
        arbiter = view_of(game, "arbiter")
        assert arbiter.log is not None and arbiter.log[-1].kind == "request_refused"
        assert "Abgelehnte Anfrage (Turnier)" in arbiter.log[-1].text
        assert "wer greift David fünf an" in arbiter.log[-1].text
        assert arbiter.illegal_attempts == {"white": 0, "black": 0}  # not a move attempt


def test_only_the_arbiter_gets_the_log_and_the_counts(settings: Settings, tmp_path: Path) -> None:
    with live_game(settings, tmp_path, profile="tournament") as game:
        game.blind_says("Springer Anna fünf")  # no knight can go there: logged, counted
        arbiter = view_of(game, "arbiter")
        assert arbiter.illegal_attempts == {"white": 1, "black": 0}
        assert arbiter.log is not None and arbiter.log[-1].kind == "illegal_attempt"
        assert "Abgelehnter Zugversuch" in arbiter.log[-1].text
        for role in ("opponent", "spectator"):
            other = view_of(game, role)
            assert other.log is None and other.illegal_attempts is None and other.pending is None
