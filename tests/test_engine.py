"""Stockfish as the sighted side of a real hosted game (no mocks: the engine, the session and
the host all run; the blind player's words are handed over as a recogniser would).

What the engine adapter must do: move as the sighted side when, and only when, that side is to
move and the clock runs; have its moves announced to the blind player in Appendix D words; answer
a draw offer by accepting when it is losing and by playing on otherwise.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import chess
import pytest

from voice.config import Settings, override
from voice.engine import LEVELS, Engine, EngineError, EngineOpponent, find_engine, strength
from voice.events import ArbiterAction, BlindSpeech, MoveMade, OutputEvent, Result, Say, Setup
from voice.host import GameHost
from voice.phrases import render_move
from voice.session import GameSession

pytestmark = pytest.mark.skipif(
    not any(Path(p).is_file() for p in ("/usr/games/stockfish", "/usr/bin/stockfish")),
    reason="Stockfish is not installed (Debian: apt install stockfish)",
)

WAIT_S = 60.0


class Game:
    """A hosted session with the engine opponent, and every output kept."""

    def __init__(self, settings: Settings, setup: Setup, level: int = 1) -> None:
        self.settings = override(settings, engine={"move_time": 0.1})
        self.session = GameSession(setup, self.settings)
        self.host = GameHost(self.session)
        self.outputs: list[OutputEvent] = []
        self.changed = asyncio.Event()
        self.host.subscribe(self._keep)
        self.engine = Engine(self.settings.engine, level)
        self.opponent = EngineOpponent(self.host, self.engine)

    def _keep(self, batch: Sequence[OutputEvent]) -> None:
        self.outputs.extend(batch)
        self.changed.set()

    async def until(self, check: Callable[[], bool]) -> None:
        async def wait() -> None:
            while not check():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), WAIT_S)

    def moves_by(self, side: str) -> list[MoveMade]:
        return [o for o in self.outputs if isinstance(o, MoveMade) and o.by == side]

    async def blind_plays(self, move: chess.Move | None = None, then: str = "") -> None:
        board = self.session.board
        chosen = move or sorted(board.legal_moves, key=lambda m: m.uci())[0]
        words = render_move(board, chosen, self.session.vocab)
        await self.host.submit(lambda t: BlindSpeech(t, ((words, 1.0),)))
        if then:
            await self.host.submit(lambda t: BlindSpeech(t, ((then, 1.0),)))

    def close(self) -> None:
        self.host.close()
        self.engine.close()


def test_the_engine_replies_and_its_move_is_announced_in_appendix_d_words(
    settings: Settings,
) -> None:
    async def scenario() -> None:
        game = Game(settings, Setup(blind="white", time_control="600+5"))
        try:
            game.host.start()
            game.opponent.start()
            await game.blind_plays(chess.Move.from_uci("e2e4"))
            await game.until(lambda: len(game.moves_by("black")) == 1)
            reply = game.moves_by("black")[0]
            before = chess.Board()
            before.push_uci("e2e4")
            spoken = render_move(before, chess.Move.from_uci(reply.uci), game.session.vocab)
            assert Say(reply.t_ms, spoken, "blind") in game.outputs
            assert game.session.board.turn == chess.WHITE
        finally:
            game.close()

    asyncio.run(scenario())


def test_the_engine_opens_when_the_blind_player_has_black_but_not_while_paused(
    settings: Settings,
) -> None:
    async def scenario() -> None:
        game = Game(settings, Setup(blind="black", time_control="600"))
        try:
            game.host.start()
            await game.host.submit(lambda t: ArbiterAction(t, "pause", {}))
            game.opponent.start()
            await asyncio.sleep(0)  # a move would be under way now if one had been started
            assert game.opponent.moves_sent == 0 and not game.moves_by("white")
            await game.host.submit(lambda t: ArbiterAction(t, "resume", {}))
            await game.until(lambda: len(game.moves_by("white")) == 1)
            assert len(game.session.board.move_stack) == 1
        finally:
            game.close()

    asyncio.run(scenario())


def test_a_draw_offer_is_accepted_only_when_the_engine_is_losing(settings: Settings) -> None:
    async def scenario(fen: str, expect_draw: bool) -> None:
        game = Game(settings, Setup(blind="white", time_control="600", fen=fen), level=8)
        try:
            game.host.start()
            game.opponent.start()
            await game.blind_plays()
            await game.until(lambda: len(game.moves_by("black")) == 1)
            await game.blind_plays(then="Remis")  # a move, then the offer (9.1.2.1)
            await game.until(
                lambda: game.session.result is not None or len(game.moves_by("black")) == 2
            )
            results = [o for o in game.outputs if isinstance(o, Result)]
            if expect_draw:
                assert results and results[0].reason == "agreement"
            else:
                assert not results and game.session.offer is None  # declined by moving
        finally:
            game.close()

    # White (the blind player) has king and queen against a lone king: Black is lost.
    asyncio.run(scenario("4k3/8/8/8/8/8/3QK3/8 w - - 0 1", expect_draw=True))
    # Equal material, nothing to fear: the engine plays on.
    asyncio.run(scenario("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", expect_draw=False))


def test_levels_and_engine_lookup() -> None:
    assert [s.level for s in LEVELS] == list(range(1, 9))
    assert strength(1).depth == 1 and strength(8).skill == 20 and strength(8).depth is None
    with pytest.raises(ValueError):
        strength(9)
    assert Path(find_engine("stockfish")).is_file()
    with pytest.raises(EngineError, match="apt install stockfish"):
        find_engine("no-such-engine")


def test_the_engine_never_thinks_longer_than_a_thirtieth_of_its_time(settings: Settings) -> None:
    engine = Engine(settings.engine, 3)
    try:
        assert engine.limit(None).time == settings.engine.move_time
        assert engine.limit(3_000).time == pytest.approx(0.1)
        assert engine.limit(10).time == 0.05
    finally:
        engine.close()
