"""Properties over random games: what is said is what is made, and nothing else moves.

Random legal games are played through the session: the blind side speaks its moves in the
canonical Appendix D words (sometimes after an illegal or garbled attempt, sometimes with a
request in between), the sighted side enters SAN. Whatever happens, the session's board is the
game's board, the scoresheet holds exactly the made moves, a refused attempt changes neither the
board nor the opponent's clock, and replaying the inputs reproduces the state exactly.
"""

from __future__ import annotations

import chess
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from voice.config import Settings, load_settings
from voice.game.session import GameSession, color_of
from voice.game.session_base import PendingRepeatOrMove
from voice.rules.events import (
    BlindSpeech,
    InputEvent,
    KeyPress,
    MoveMade,
    Refused,
    Setup,
    Side,
    SightedMove,
)
from voice.words.phrases import render_move
from voice.words.vocabulary import Vocabulary

SETTINGS: Settings = load_settings(look_in_user_dir=False)
VOCAB = Vocabulary.from_settings(SETTINGS.vocabulary)
GARBLE = ["Dame Hector", "Bauer Bella", "Läufer", "Hallo", "Springer Felix Felix"]
REQUESTS = ["time", "position", "last_move", "help", "whose_turn"]


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[tuple[str, str, int, str]]]:
    """A blind side and the inputs (kind, text, pause ms, intended UCI) of a random game."""
    blind = draw(st.sampled_from(["white", "black"]))
    board = chess.Board()
    inputs: list[tuple[str, str, int, str]] = []
    for _ in range(draw(st.integers(1, 24))):
        # Mate, stalemate, dead position, fivefold repetition and the 75-move rule end the
        # game at once (Art. 5, 9.6): after them every move is rightly refused.
        if board.is_game_over():
            break
        moves = list(board.legal_moves)
        move = draw(st.sampled_from(moves))
        pause = draw(st.integers(100, 20_000))
        if board.turn == color_of(blind):  # type: ignore[arg-type]
            if draw(st.booleans()):
                inputs.append(("blind", draw(st.sampled_from(GARBLE)), pause, ""))
            if draw(st.integers(0, 3)) == 0:
                inputs.append(("key", draw(st.sampled_from(REQUESTS)), pause, ""))
            inputs.append(("blind", render_move(board, move, VOCAB), pause, move.uci()))
        else:
            inputs.append(("sighted", board.san(move), pause, move.uci()))
        board.push(move)
    return blind, inputs


def _events(inputs: list[tuple[str, str, int, str]]) -> list[InputEvent]:
    events: list[InputEvent] = []
    t = 0
    for kind, text, pause, _ in inputs:
        t += pause
        if kind == "blind":
            events.append(BlindSpeech(t, ((text, 1.0),)))
        elif kind == "key":
            events.append(KeyPress(t, text))
        else:
            events.append(SightedMove(t, text))
    return events


@pytest.mark.slow
@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_what_is_said_is_what_is_made_and_refusals_change_nothing(
    game: tuple[str, list[tuple[str, str, int, str]]],
) -> None:
    blind, inputs = game
    setup = Setup(mode="game", blind=blind, time_control="5400+30")  # type: ignore[arg-type]
    session = GameSession(setup, SETTINGS)
    expected = chess.Board()
    handled: list[InputEvent] = []
    for event, (_, _, _, intended) in zip(_events(inputs), inputs, strict=True):
        before_fen = session.board.fen()
        waiting: Side = "black" if session.board.turn == chess.WHITE else "white"
        waiting_ms = session.clock.remaining_ms(waiting, session.now)
        outputs = session.handle(event)
        handled.append(event)
        if not intended:  # a garbled attempt or a request: nothing made, no clock switched
            assert session.board.fen() == before_fen
            assert session.clock.remaining_ms(waiting, event.t_ms) == waiting_ms
            assert not any(isinstance(out, MoveMade) for out in outputs)
            continue
        if isinstance(session.pending, PendingRepeatOrMove):
            # The words were also the opponent's last move (a recapture): "Wiederholung oder
            # Ihr Zug?", nothing made; the player says the move again.
            assert session.board.fen() == before_fen
            assert isinstance(event, BlindSpeech)
            again = BlindSpeech(event.t_ms + 10, event.nbest)
            outputs = session.handle(again)
            handled.append(again)
        assert not any(isinstance(out, Refused) for out in outputs)
        expected.push(chess.Move.from_uci(intended))
        assert session.board.fen() == expected.fen()
    assert [entry.uci for entry in session.sheet.entries] == [m.uci() for m in expected.move_stack]
    replayed = GameSession.replay(setup, handled, SETTINGS)
    assert replayed.state() == session.state()
    assert replayed.pgn() == session.pgn()
