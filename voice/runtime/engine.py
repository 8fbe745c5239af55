"""The computer opponent: Stockfish (or any UCI engine) playing the sighted side.

The engine is an adapter like the web board: it watches the game's outputs and, when the sighted
side is to move, asks the engine for a move on a worker thread and submits it as a
:class:`~voice.rules.events.SightedMove`. The session treats it exactly like a move made on the
opponent's board (made and completed in one action, announced to the blind player). No chess
rule lives here: a move the position no longer allows (the arbiter took moves back while the
engine thought) is simply not sent.

Strength: eight levels a blind player can choose by saying a number. Each sets Stockfish's
``Skill Level`` and, for the weak levels, a search depth limit, because the skill level alone
still plays far too strong for a beginner.

Manners (:class:`Manners`): a blind player a queen and a rook up should not have to mate move by
move, and a dead-equal endgame should not have to be played out to bare kings. So the engine
resigns and offers draws as a sporting human opponent does, with the sighted player's own keys
(``sighted:resign``, ``sighted:draw_offer``): the session announces them, journals them and
writes the result exactly as it does for a person at the board. The evaluations it decides on
are its own (the score of the search that chose each move), kept per ply. They live only in
memory, so when a game is resumed (``--resume``) the engine first scores again the positions
before its own last turns, as far back as a streak can need, and the count goes on as if the
game had never stopped; when it last offered a draw is read from the scoresheet's "(=)" marks,
which a resumed game has too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from voice.config import EngineSettings
from voice.game.session import GameSession
from voice.game.session_base import color_of
from voice.rules.events import KeyPress, OutputEvent, Result, SightedMove
from voice.runtime.host import GameHost

log = logging.getLogger(__name__)

# Debian installs games (stockfish among them) here, outside the normal PATH.
_EXTRA_DIRS = (Path("/usr/games"), Path("/usr/local/games"))

# An engine that is losing by this much (centipawns, its own view) accepts a draw offer.
_ACCEPT_DRAW_BELOW_CP = -150

# The longest a resumed game's earlier turns are scored each (seconds): a short search, as the
# player waits for the game to go on.
_RECALL_S = 0.1

# Material for "nobody can win": a side needs at least a rook more than the other to win
# without pawns (knights and bishops 3, rooks 5, queens 9).
_PIECE_VALUES = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
_NO_WIN_MARGIN = 3


class EngineError(Exception):
    """The engine cannot be found or started; the message says how to fix it."""


@dataclass(frozen=True)
class Strength:
    """One of the levels offered to the player."""

    level: int
    skill: int
    depth: int | None


LEVELS: tuple[Strength, ...] = (
    Strength(1, 0, 1),
    Strength(2, 1, 2),
    Strength(3, 3, 3),
    Strength(4, 5, 5),
    Strength(5, 8, 8),
    Strength(6, 12, None),
    Strength(7, 16, None),
    Strength(8, 20, None),
)


@dataclass(frozen=True)
class Manners:
    """When the engine resigns or offers a draw, as a sporting human opponent would.

    Counts are the engine's own turns; scores are centipawns from its side (a mate as ±100000).
    """

    resigns: bool = True
    resign_at_cp: int = -600  # lost: at or below this (a forced mate against it is far below)
    resign_after: int = 3  # ... at this many of its turns in a row; it resigns on the last one
    resign_from_move: int = 20  # never before this move number (a blunder early is played on)
    offers_draws: bool = True
    draw_within_cp: int = 20  # dead equal: the score at most this far from 0
    draw_after: int = 10  # ... at this many of its turns in a row
    draw_from_move: int = 40  # ... and the move number at least this
    offer_gap: int = 10  # own moves after any draw offer in the game (either player's)
    after_decline: int = 20  # own moves after its own offer was declined

    @classmethod
    def from_settings(cls, settings: EngineSettings) -> Manners:
        """The player may switch either off; the thresholds are what a club player does."""
        return cls(resigns=settings.resigns, offers_draws=settings.offers_draws)


@dataclass(frozen=True)
class Choice:
    """The engine's move and its score of the position before it (None: it sent no score)."""

    move: chess.Move
    score_cp: int | None


def no_winning_material(board: chess.Board) -> bool:
    """No pawns left and neither side as much as a rook ahead: nobody can force a win."""
    if board.pawns:
        return False

    def material(color: chess.Color) -> int:
        return sum(v * len(board.pieces(piece, color)) for piece, v in _PIECE_VALUES.items())

    return abs(material(chess.WHITE) - material(chess.BLACK)) <= _NO_WIN_MARGIN


def strength(level: int) -> Strength:
    """The strength of ``level`` (1 to 8)."""
    if not 1 <= level <= len(LEVELS):
        raise ValueError(f"engine level must be 1 to {len(LEVELS)}, not {level}")
    return LEVELS[level - 1]


def find_engine(path: str) -> str:
    """The executable for ``[engine] path``: a path, a name on PATH, or a name in /usr/games."""
    candidate = Path(path).expanduser()
    if candidate.parent != Path(".") and candidate.is_file():
        return str(candidate)
    found = shutil.which(path)
    if found:
        return found
    for folder in _EXTRA_DIRS:
        if (folder / path).is_file():
            return str(folder / path)
    raise EngineError(
        f"the chess engine {path!r} was not found; install it (Debian: apt install stockfish) "
        "or set [engine] path to its file"
    )


class Engine:
    """A running UCI engine at one strength; thread-safe for one caller at a time."""

    def __init__(self, settings: EngineSettings, level: int) -> None:
        self.settings = settings
        self.strength = strength(level)  # checked before the engine is started
        executable = find_engine(settings.path)
        try:
            self._engine = chess.engine.SimpleEngine.popen_uci(executable, timeout=20)
        except (OSError, chess.engine.EngineError, TimeoutError) as error:
            raise EngineError(f"the chess engine {executable} did not start: {error}") from None
        self.name = str(self._engine.id.get("name", Path(executable).name))
        self.set_level(level)

    def set_level(self, level: int) -> None:
        """Play at ``level`` from the next move on."""
        self.strength = strength(level)
        if "Skill Level" in self._engine.options:
            self._engine.configure({"Skill Level": self.strength.skill})

    def limit(self, remaining_ms: int | None) -> chess.engine.Limit:
        """Think ``move_time`` seconds, never more than a thirtieth of the time left."""
        seconds = self.settings.move_time
        if remaining_ms is not None:
            seconds = max(0.05, min(seconds, remaining_ms / 1000 / 30))
        return chess.engine.Limit(time=seconds, depth=self.strength.depth)

    def choose(self, board: chess.Board, remaining_ms: int | None = None) -> Choice:
        """A move, with the score the same search gave the position (no second search)."""
        result = self._engine.play(board, self.limit(remaining_ms), info=chess.engine.INFO_SCORE)
        if result.move is None:
            raise EngineError("the engine returned no move")
        return Choice(result.move, _value(result.info, board))

    def evaluate(self, board: chess.Board) -> int | None:
        """The score of ``board`` for the side to move, as :meth:`choose` gives it (None: no
        score), from a short search at this level's depth: for positions whose search score is
        no longer known (a resumed game's turns before the stop)."""
        seconds = min(self.settings.move_time, _RECALL_S)
        limit = chess.engine.Limit(time=seconds, depth=self.strength.depth)
        return _value(self._engine.analyse(board, limit), board)

    def score_cp(self, board: chess.Board, color: chess.Color) -> int:
        """The position's value for ``color`` in centipawns (mates as ±100000)."""
        info = self._engine.analyse(board, chess.engine.Limit(time=0.2, depth=12))
        score = info.get("score")
        if score is None:
            return 0
        return score.pov(color).score(mate_score=100_000) or 0

    def close(self) -> None:
        try:
            self._engine.quit()
        except (chess.engine.EngineError, OSError, TimeoutError):
            self._engine.close()


def _value(info: chess.engine.InfoDict, board: chess.Board) -> int | None:
    """A search's score for the side to move in ``board`` (mates as ±100000; None: no score)."""
    score = info.get("score")
    return None if score is None else score.pov(board.turn).score(mate_score=100_000)


class EngineOpponent:
    """Plays the sighted side of a hosted game whenever it is that side's turn."""

    def __init__(self, host: GameHost, engine: Engine, manners: Manners | None = None) -> None:
        if not isinstance(host.core, GameSession):
            raise TypeError("the engine plays a game session, not a talking clock")
        self.host = host
        self.session: GameSession = host.core
        self.engine = engine
        self.manners = manners or Manners.from_settings(engine.settings)
        self._task: asyncio.Task[None] | None = None
        self._answered_offer: int | None = None
        self._scores: dict[int, int | None] = {}  # ply before its move -> its score there
        self._stopped = False
        self.moves_sent = 0

    def start(self) -> None:
        """Subscribe and make a first move if the engine begins (call from the loop).

        A resumed game first has the engine's last turns scored again (:meth:`_recall`); until
        that is done, nothing else is started, and then the engine moves or answers as usual.
        """
        self.host.subscribe(self._on_outputs)
        if self._turns_to_recall():
            self._task = asyncio.get_running_loop().create_task(self._recall_then_consider())
        else:
            self._consider()

    async def stop(self) -> None:
        """Play no more (the program ends, with Ctrl-D say, while the engine may be thinking).

        The running turn is cancelled and awaited here, so that its late move is dropped
        instead of reaching a closed host and being reported as "exception never retrieved".
        """
        self._stopped = True
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def _streaks_needed(self) -> list[tuple[Callable[[int], bool], int]]:
        """Each streak the manners count, and how many of the engine's earlier turns it needs
        (the turn it is at is scored by its own search)."""
        manners = self.manners
        needed: list[tuple[Callable[[int], bool], int]] = []
        if manners.resigns and manners.resign_after > 1:
            needed.append((self._lost_score, manners.resign_after - 1))
        if manners.offers_draws and manners.draw_after > 1:
            needed.append((self._equal_score, manners.draw_after - 1))
        return needed

    def _turns_to_recall(self) -> list[int]:
        """The plies of the engine's own last moves that a streak may need, latest first."""
        session = self.session
        if session.result is not None:
            return []
        longest = max((turns for _, turns in self._streaks_needed()), default=0)
        mine = [i for i, entry in enumerate(session.sheet.entries) if entry.by == session.sighted]
        return [ply for ply in reversed(mine) if ply not in self._scores][:longest]

    async def _recall_then_consider(self) -> None:
        await self._recall()
        self._task = None
        self._consider()

    async def _recall(self) -> None:
        """Score again the positions before the engine's last moves of a resumed game.

        The scores that the resign and draw streaks count are kept in memory only, so a
        resumed game would start every streak from nothing: an engine lost for its last turns
        before the stop would play several more moves before resigning. Each position is
        rebuilt from the game's start and the scoresheet's moves and searched briefly on a
        worker thread (the event loop goes on), latest turn first, until no streak can grow any
        longer. If the engine fails, the error is logged and the streaks start from nothing.
        """
        session = self.session
        plies = self._turns_to_recall()
        if not plies:
            return
        moves = [entry.uci for entry in session.sheet.entries]
        before: dict[int, chess.Board] = {}
        board = chess.Board(session.start_fen)
        for ply, uci in enumerate(moves[: max(plies)]):
            if ply in plies:
                before[ply] = board.copy()
            board.push_uci(uci)
        before[max(plies)] = board
        streaks = self._streaks_needed()
        recalled: dict[int, int] = {}
        for ply in plies:
            try:
                value = await asyncio.to_thread(self.engine.evaluate, before[ply])
            except (EngineError, chess.engine.EngineError) as error:
                log.error("engine failed: %s", error)
                return
            if value is None:
                break
            recalled[ply] = value
            streaks = [(holds, n - 1) for holds, n in streaks if holds(value) and n > 1]
            if not streaks:
                break
        # The arbiter may have taken moves back meanwhile: keep only positions still in the game.
        now = [entry.uci for entry in session.sheet.entries]
        for ply, value in recalled.items():
            if now[:ply] == moves[:ply]:
                self._scores.setdefault(ply, value)

    def _on_outputs(self, outputs: Sequence[OutputEvent]) -> None:
        if any(isinstance(out, Result) for out in outputs):
            return
        self._consider()

    def _my_turn(self) -> bool:
        session = self.session
        return (
            session.result is None
            and not session.clock.paused
            and session.board.turn == color_of(session.sighted)
        )

    def _offer_waiting(self) -> bool:
        """A draw offer by the blind player that the engine has not answered yet."""
        offer = self.session.offer
        return (
            offer is not None
            and offer.by == self.session.blind
            and self._answered_offer != offer.t_ms
            and self.session.result is None
        )

    def _consider(self) -> None:
        if self._stopped:
            return
        if self._task is not None and not self._task.done():
            return  # a running move looks at offers before it is sent
        loop = asyncio.get_running_loop()
        if self._offer_waiting():
            self._task = loop.create_task(self._answer_then_play())
        elif self._my_turn():
            self._task = loop.create_task(self._play())

    async def _answer_then_play(self) -> None:
        if not await self._answer_offer() and self._my_turn():
            await self._play()

    async def _play(self) -> None:
        session = self.session
        board = session.board.copy()
        ply = len(session.sheet.entries)
        remaining = session.clock.remaining_ms(session.sighted, self.host.now_ms())
        try:
            choice = await asyncio.to_thread(self.engine.choose, board, remaining)
        except (EngineError, chess.engine.EngineError) as error:
            log.error("engine failed: %s", error)
            return
        move = choice.move
        # An offer made after the blind player's move, while the engine thought (9.1.2.1).
        if self._offer_waiting() and await self._answer_offer():
            return
        # The game may have changed while the engine thought (arbiter, resignation, draw).
        stale = len(session.sheet.entries) != ply or move not in board.legal_moves
        if stale or not self._my_turn():
            self._task = None
            self._consider()
            return
        self._scores[ply] = choice.score_cp
        if self._lost(board, ply):
            await self.host.submit(lambda t: KeyPress(t, "sighted:resign"))
            return
        self.moves_sent += 1
        await self.host.submit(lambda t: SightedMove(t, move.uci()))
        if self._may_offer(board, ply):
            await self.host.submit(lambda t: KeyPress(t, "sighted:draw_offer"))

    # -- manners: resigning and offering draws ----------------------------------------------

    def _streak(self, ply: int, holds: Callable[[int], bool]) -> int:
        """How many of the engine's turns in a row, back from ``ply``, had a score that holds."""
        count = 0
        while ply >= 0:
            score = self._scores.get(ply)
            if score is None or not holds(score):
                break
            count += 1
            ply -= 2
        return count

    def _lost_score(self, score: int) -> bool:
        return score <= self.manners.resign_at_cp

    def _equal_score(self, score: int) -> bool:
        return abs(score) <= self.manners.draw_within_cp

    def _lost(self, board: chess.Board, ply: int) -> bool:
        """Resign: lost at ``resign_after`` turns in a row, and late enough in the game."""
        manners = self.manners
        if not manners.resigns or board.fullmove_number < manners.resign_from_move:
            return False
        return self._streak(ply, self._lost_score) >= manners.resign_after

    def _dead_equal(self, board: chess.Board, ply: int) -> bool:
        """A draw the engine would agree to: equal now, and nobody can win or long equal."""
        manners = self.manners
        score = self._scores.get(ply)
        if not manners.offers_draws or score is None or not self._equal_score(score):
            return False
        if no_winning_material(board):
            return True
        if board.fullmove_number < manners.draw_from_move:
            return False
        return self._streak(ply, self._equal_score) >= manners.draw_after

    def _may_offer(self, board: chess.Board, ply: int) -> bool:
        """Offer a draw after this move: dead equal, and not soon after another offer."""
        session = self.session
        if (
            session.result is not None
            or session.offer is not None
            or not self._dead_equal(board, ply)
        ):
            return False
        entries = session.sheet.entries
        if not any(entry.by == session.blind for entry in entries):
            return False  # an offer needs a move by each player first (the session says so)
        manners = self.manners
        for offered in session.sheet.offers:  # plies marked "(=)"
            moves_since = sum(1 for e in entries[offered:] if e.by == session.sighted)
            wait = manners.offer_gap
            if entries[offered - 1].by == session.sighted:
                # Its own offer, and the game went on: it was declined (9.1.2.1).
                wait = max(wait, manners.after_decline)
            if moves_since < wait:
                return False
        return True

    async def _answer_offer(self) -> bool:
        """Accept a draw offer when losing or dead equal (True); else play on: a move declines."""
        session = self.session
        offer = session.offer
        assert offer is not None
        self._answered_offer = offer.t_ms
        board = session.board.copy()
        ply = len(session.sheet.entries)
        me = color_of(session.sighted)
        try:
            value = await asyncio.to_thread(self.engine.score_cp, board, me)
        except (EngineError, chess.engine.EngineError) as error:
            log.error("engine failed: %s", error)
            return False
        if session.offer is None or session.result is not None:
            return False
        if len(session.sheet.entries) != ply:
            return False  # the arbiter changed the game while the engine looked
        self._scores[ply] = value
        # It accepts where it would offer a draw itself: refusing there would not be sporting.
        if value > _ACCEPT_DRAW_BELOW_CP and not self._dead_equal(board, ply):
            return False
        await self.host.submit(lambda t: KeyPress(t, "sighted:draw_accept"))
        return True
