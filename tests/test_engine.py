"""Stockfish as the sighted side of a real hosted game (no mocks: the engine, the session and
the host all run; the blind player's words are handed over as a recogniser would).

What the engine adapter must do: move as the sighted side when, and only when, that side is to
move and the clock runs; have its moves announced to the blind player in Appendix D words; answer
a draw offer by accepting when it is losing or the position is dead equal and by playing on
otherwise; resign a hopelessly lost game and offer a draw in a dead-equal one, as a sporting
opponent at the board does (through the same keys, so announced, journaled and on the PGN).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import chess
import pytest

from voice.config import Settings, override
from voice.game.session import GameSession
from voice.rules.events import (
    ArbiterAction,
    BlindSpeech,
    KeyPress,
    MoveMade,
    OutputEvent,
    Result,
    Say,
    Setup,
)
from voice.runtime.engine import (
    LEVELS,
    Engine,
    EngineError,
    EngineOpponent,
    Manners,
    find_engine,
    no_winning_material,
    strength,
)
from voice.runtime.host import GameHost
from voice.runtime.journal import Journal, read_journal
from voice.runtime.resume import resume
from voice.words.phrases import render_move

pytestmark = pytest.mark.skipif(
    not any(Path(p).is_file() for p in ("/usr/games/stockfish", "/usr/bin/stockfish")),
    reason="Stockfish is not installed (Debian: apt install stockfish)",
)

WAIT_S = 60.0


class Game:
    """A hosted session with the engine opponent, and every output kept."""

    def __init__(
        self,
        settings: Settings,
        setup: Setup,
        level: int = 1,
        manners: Manners | None = None,
        journal: Path | None = None,
        *,
        resumed: bool = False,
    ) -> None:
        """``resumed``: the game of ``journal`` (set up as ``setup``) comes back from it, as
        ``voice-chess play --resume`` brings it back, and goes on in the same journal."""
        self.settings = override(settings, engine={"move_time": 0.1})
        start_ms = 0
        if resumed:
            assert journal is not None
            back = resume(journal, self.settings)
            assert isinstance(back.core, GameSession) and back.contents.setup == setup
            self.session = back.core
            self.journal: Journal | None = back.journal
            start_ms = back.contents.last_ms
        else:
            self.session = GameSession(setup, self.settings)
            self.journal = None if journal is None else Journal.create(journal, setup)
        record = None if self.journal is None else self.journal.append
        self.host = GameHost(self.session, record=record, start_ms=start_ms)
        self.outputs: list[OutputEvent] = []
        self.changed = asyncio.Event()
        self.host.subscribe(self._keep)
        self.engine = Engine(self.settings.engine, level)
        self.opponent = EngineOpponent(self.host, self.engine, manners)

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

    async def says(self, words: str) -> None:
        await self.host.submit(lambda t: BlindSpeech(t, ((words, 1.0),)))

    async def round(self) -> None:
        """The blind player makes a quiet new move, then the engine answers (or ends the game)."""
        mine = len(self.moves_by(self.session.sighted))
        await self.blind_plays(quiet_new_move(self.session.board))
        await self.until(
            lambda: (
                self.session.result is not None or len(self.moves_by(self.session.sighted)) > mine
            )
        )

    def offers_by(self, side: str) -> list[int]:
        """The plies after which ``side`` offered a draw, from the scoresheet's "(=)" marks."""
        entries = self.session.sheet.entries
        return sorted(p for p in self.session.sheet.offers if entries[p - 1].by == side)

    def close(self) -> None:
        self.host.close()
        self.engine.close()
        if self.journal is not None:
            self.journal.close()


@contextlib.asynccontextmanager
async def playing(game: Game) -> AsyncIterator[Game]:
    """``game`` with its host and the engine opponent running; closed afterwards."""
    try:
        game.host.start()
        game.opponent.start()
        yield game
    finally:
        game.close()


def quiet_new_move(board: chess.Board) -> chess.Move:
    """A move that captures nothing, gives no check, does not end the game and (if it can) leads
    to a position not seen before: the blind player keeps the game as it is, without repeating."""
    history = board.copy()
    seen = {history.epd()}
    while history.move_stack:
        history.pop()
        seen.add(history.epd())

    def rank(move: chess.Move) -> tuple[bool, bool, str]:
        after = board.copy()
        after.push(move)
        not_king = board.piece_type_at(move.from_square) != chess.KING
        return (after.epd() in seen, not_king, move.uci())

    fine = []
    for move in board.legal_moves:
        if board.is_capture(move) or board.gives_check(move):
            continue
        after = board.copy()
        after.push(move)
        if not after.is_game_over(claim_draw=False):
            fine.append(move)
    assert fine, board.fen()
    return min(fine, key=rank)


def test_the_engine_replies_and_its_move_is_announced_in_appendix_d_words(
    settings: Settings,
) -> None:
    async def scenario() -> None:
        async with playing(Game(settings, Setup(blind="white", time_control="600+5"))) as game:
            await game.blind_plays(chess.Move.from_uci("e2e4"))
            await game.until(lambda: len(game.moves_by("black")) == 1)
            reply = game.moves_by("black")[0]
            before = chess.Board()
            before.push_uci("e2e4")
            spoken = render_move(before, chess.Move.from_uci(reply.uci), game.session.vocab)
            assert Say(reply.t_ms, spoken, "blind") in game.outputs
            assert game.session.board.turn == chess.WHITE

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
        async with playing(
            Game(settings, Setup(blind="white", time_control="600", fen=fen), level=8)
        ) as game:
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


# -- manners: resigning and offering draws --------------------------------------------------------

# The blind player (White) has king, queen and rook against a bare king: Black is lost.
LOST_FOR_BLACK = "4k3/8/8/8/8/8/8/R2QK3 w - - 0 {move}"
# A blocked pawn each: dead equal, nobody can force a win; but not a dead position (5.2.2): a
# king can still take a pawn (a wall that no king can cross would end the game at once).
DEAD_EQUAL = "8/4k3/8/p7/P7/8/4K3/8 w - - 0 60"
# Knight against bishop, no pawns: nobody can win.
NO_WINNING_MATERIAL = "8/5k2/4b3/8/8/4N3/5K2/8 w - - 0 60"


def test_a_lost_engine_resigns_on_its_third_lost_turn_and_the_blind_player_wins(
    settings: Settings, tmp_path: Path
) -> None:
    journal = tmp_path / "game.jsonl"
    setup = Setup(blind="white", time_control="600", fen=LOST_FOR_BLACK.format(move=30))

    async def scenario() -> str:
        async with playing(Game(settings, setup, journal=journal)) as game:
            for _ in range(10):  # far more turns than it may take
                await game.round()
                if game.session.result is not None:
                    break
            assert game.session.result is not None, game.session.sheet.pgn()
            assert game.session.result.result == "1-0"
            assert game.session.result.reason == "resignation"
            # Lost at three turns in a row: two moves played, the third turn resigns.
            assert Manners().resign_after == 3 and len(game.moves_by("black")) == 2
            # Announced as any opponent's resignation is, to both players.
            won = "Weiß gewinnt: Schwarz hat aufgegeben."
            assert Say(game.session.result.t_ms, won, "all") in game.outputs
            pgn = game.session.sheet.pgn()
            assert '[Result "1-0"]' in pgn and "Schwarz hat aufgegeben." in pgn
            return pgn

    pgn = asyncio.run(scenario())
    # The journal holds the resignation as the opponent's key; replaying it ends the game alike.
    contents = read_journal(journal)
    assert contents.events[-1] == KeyPress(contents.events[-1].t_ms, "sighted:resign")
    replayed = GameSession(contents.setup, settings)
    for event in contents.events:
        replayed.handle(event)
    assert replayed.result is not None and replayed.result.result == "1-0"
    assert replayed.sheet.pgn() == pgn


@pytest.mark.parametrize(
    ("lost_turns_before_the_stop", "engine_to_move"),
    [(2, False), (2, True), (1, False)],
    ids=["lost-twice-blind-to-move", "lost-twice-engine-to-move", "lost-once"],
)
def test_a_resumed_engine_counts_its_lost_turns_from_before_the_stop_and_resigns_on_the_third(
    settings: Settings, tmp_path: Path, lost_turns_before_the_stop: int, engine_to_move: bool
) -> None:
    journal = tmp_path / "game.jsonl"
    setup = Setup(blind="white", time_control="600", fen=LOST_FOR_BLACK.format(move=30))

    async def before_the_stop() -> None:
        async with playing(Game(settings, setup, journal=journal)) as game:
            for _ in range(lost_turns_before_the_stop):
                await game.round()
            assert game.session.result is None
            assert len(game.moves_by("black")) == lost_turns_before_the_stop

    async def after_the_resume() -> None:
        game = Game(settings, setup, journal=journal, resumed=True)
        try:
            assert len(game.session.sheet.entries) == 2 * lost_turns_before_the_stop
            game.host.start()
            if engine_to_move:  # the blind player's move is in before the engine comes back
                await game.blind_plays(quiet_new_move(game.session.board))
                await game.until(lambda: game.session.board.turn == chess.BLACK)
            game.opponent.start()
            if engine_to_move:
                await game.until(
                    lambda: game.session.result is not None or bool(game.moves_by("black"))
                )
            for _ in range(10):  # far more turns than it may take
                if game.session.result is not None:
                    break
                await game.round()
            assert game.session.result is not None, game.session.sheet.pgn()
            assert game.session.result.result == "1-0"
            assert game.session.result.reason == "resignation"
            # The lost turns before the stop count: it resigns on its third lost turn in all,
            # which after two before the stop is its first turn after the resume.
            played = Manners().resign_after - 1 - lost_turns_before_the_stop
            assert len(game.moves_by("black")) == played
        finally:
            game.close()

    asyncio.run(before_the_stop())
    asyncio.run(after_the_resume())
    contents = read_journal(journal)
    assert contents.events[-1] == KeyPress(contents.events[-1].t_ms, "sighted:resign")


@pytest.mark.parametrize(
    ("fen", "manners", "why"),
    [
        ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 30", None, "balanced"),
        (LOST_FOR_BLACK.format(move=1), None, "before the minimum move number"),
        (LOST_FOR_BLACK.format(move=30), Manners(resigns=False), "resigning switched off"),
    ],
)
def test_the_engine_plays_on_when_balanced_too_early_or_when_resigning_is_off(
    settings: Settings, fen: str, manners: Manners | None, why: str
) -> None:
    async def scenario() -> None:
        async with playing(
            Game(settings, Setup(blind="white", time_control="600", fen=fen), 8, manners)
        ) as game:
            for _ in range(Manners().resign_after + 1):
                await game.round()
            assert game.session.result is None, why
            assert len(game.moves_by("black")) == Manners().resign_after + 1

    asyncio.run(scenario())


def test_the_engine_offers_a_draw_in_a_dead_equal_endgame_and_not_again_soon_after_a_decline(
    settings: Settings,
) -> None:
    manners = Manners(draw_after=2, offer_gap=2, after_decline=3)

    async def scenario() -> None:
        setup = Setup(blind="white", time_control="600", fen=DEAD_EQUAL)
        async with playing(Game(settings, setup, 8, manners)) as game:
            await game.round()
            assert game.session.offer is None  # equal once is not yet "for many moves"
            await game.round()
            # Equal at two turns in a row: after its second move it offers, and the blind
            # player hears it as a sighted opponent's offer.
            assert game.session.offer is not None and game.session.offer.by == "black"
            offer_said = Say(game.session.offer.t_ms, "Schwarz bietet Remis an.", "all")
            assert offer_said in game.outputs
            await game.says("nein")
            assert game.session.offer is None
            declined = "Weiß lehnt das Remisangebot ab."
            assert any(isinstance(o, Say) and o.text == declined for o in game.outputs)
            for _ in range(manners.after_decline - 1):
                await game.round()
                assert game.session.offer is None and game.session.result is None
            await game.round()  # the third move after the declined offer: it may offer again
            assert game.session.offer is not None and game.session.offer.by == "black"
            black_moves = [e.ply for e in game.session.sheet.entries if e.by == "black"]
            assert game.offers_by("black") == [black_moves[1], black_moves[4]]
            pgn = game.session.sheet.pgn()
            assert pgn.count("(=)") == 2

    asyncio.run(scenario())


def test_a_resumed_engine_counts_its_equal_turns_from_before_the_stop_and_offers_a_draw_on_time(
    settings: Settings, tmp_path: Path
) -> None:
    journal = tmp_path / "game.jsonl"
    manners = Manners(draw_after=2)
    setup = Setup(blind="white", time_control="600", fen=DEAD_EQUAL)

    async def before_the_stop() -> None:
        async with playing(Game(settings, setup, 8, manners, journal)) as game:
            await game.round()
            assert game.session.offer is None  # equal once is not yet "for many moves"

    async def after_the_resume() -> None:
        async with playing(Game(settings, setup, 8, manners, journal, resumed=True)) as game:
            await game.round()
            # Equal at two turns in a row, one of them before the stop: it offers now.
            assert game.session.offer is not None and game.session.offer.by == "black"
            assert game.offers_by("black") == [4]

    asyncio.run(before_the_stop())
    asyncio.run(after_the_resume())


def test_with_no_winning_material_the_engine_offers_at_once_and_the_blind_player_accepts(
    settings: Settings,
) -> None:
    async def scenario() -> None:
        setup = Setup(blind="white", time_control="600", fen=NO_WINNING_MATERIAL)
        async with playing(Game(settings, setup, 8)) as game:
            await game.round()
            assert game.session.offer is not None and game.session.offer.by == "black"
            await game.says("Remis")
            assert game.session.result is not None
            assert game.session.result.reason == "agreement"
            assert '[Result "1/2-1/2"]' in game.session.sheet.pgn()

    asyncio.run(scenario())


async def accepted_before_replying(game: Game) -> None:
    """The engine answers the blind player's offer by accepting it, with no move of its own
    after its first."""
    await game.until(lambda: game.session.result is not None or len(game.moves_by("black")) == 2)
    assert game.session.result is not None
    assert game.session.result.reason == "agreement"
    assert len(game.moves_by("black")) == 1


def test_the_engine_accepts_a_draw_offer_where_it_would_offer_one_itself(
    settings: Settings,
) -> None:
    async def scenario() -> None:
        setup = Setup(blind="white", time_control="600", fen=NO_WINNING_MATERIAL)
        async with playing(Game(settings, setup, 8)) as game:
            await game.round()  # an offer needs a move by each player; the engine's is declined
            await game.blind_plays(quiet_new_move(game.session.board), then="Remis")
            await accepted_before_replying(game)

    asyncio.run(scenario())


def test_9_1_2_2_remis_said_before_the_move_reaches_the_engine_with_the_move(
    settings: Settings,
) -> None:
    """The engine replies within milliseconds, so "Remis" said after the move finds its reply
    already made. Said before the move (or after the move's words), the offer is made with the
    move, and the engine weighs it before it replies: here it accepts."""

    async def scenario() -> None:
        setup = Setup(blind="white", time_control="600", fen=NO_WINNING_MATERIAL)
        async with playing(Game(settings, setup, 8)) as game:
            await game.round()  # an offer needs a move by each player
            if game.session.offer is not None:
                await game.says("nein")  # the engine offers at once here: declined
            await game.says("Remis")
            assert game.session.offer is None and game.session.offer_with_move
            await game.blind_plays(quiet_new_move(game.session.board))
            await accepted_before_replying(game)

    asyncio.run(scenario())


def test_no_winning_material_means_no_pawns_and_less_than_a_rook_ahead() -> None:
    assert no_winning_material(chess.Board(NO_WINNING_MATERIAL))
    assert no_winning_material(chess.Board("8/5k2/4r3/8/8/4R3/5K2/8 w - - 0 1"))
    assert not no_winning_material(chess.Board("8/5k2/8/8/8/4R3/5K2/8 w - - 0 1"))
    assert not no_winning_material(chess.Board(DEAD_EQUAL))  # pawns can still be won
