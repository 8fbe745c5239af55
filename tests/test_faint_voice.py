"""A voice too faint for the room is told why every move is asked back (voice/speech/faint_voice.py)
and the app says it in the game and in the questions before it."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace

import pytest

from voice.config import Settings
from voice.speech.faint_voice import FaintVoice
from voice.speech.recognizers import Transcript
from voice.wiring.app import App, Output, Startup, _Inbox
from voice.words.messages import message
from voice.words.vocabulary import Vocabulary

FAINT = Transcript((("springer felix drei", 0.49),), True, 200.0, held_back=frozenset({"level"}))


def test_a_faint_voice_is_told_once_after_three_moves_in_a_row_held_back_for_it() -> None:
    """Whisper plays no move without a question while the voice stands less than 20 dB above
    the room: after three such moves in a row the player is told why, once. A move played at
    once starts the count again; nothing heard, an answer, a move offered among choices or
    asked back for another reason neither count nor restart it."""
    also_torn = replace(FAINT, held_back=frozenset({"level", "lead"}))
    played = replace(FAINT, nbest=(("springer felix drei", 0.5),), held_back=frozenset())
    offered = replace(FAINT, nbest=(("springer felix drei", 0.3),), held_back=frozenset())
    asked_for_the_guess = replace(FAINT, held_back=frozenset({"guess"}))
    faint_yes = replace(FAINT, nbest=(("ja", 0.49),))
    nothing = Transcript((), True, 200.0, reason="silence")
    hint = FaintVoice(Vocabulary.default())
    assert not any(hint.heard(t) for t in (FAINT, also_torn, played, FAINT))
    assert not any(hint.heard(t) for t in (nothing, offered, asked_for_the_guess, faint_yes))
    assert hint.heard(FAINT) is False  # the second in a row since the move played at once
    assert hint.heard(FAINT) is True  # the third
    assert not any(hint.heard(FAINT) for _ in range(5))  # once a game


def _app(settings: Settings) -> tuple[App, io.StringIO]:
    out = io.StringIO()
    app = object.__new__(App)  # only what the inbox loops read
    app.settings, app.language, app.vocab = settings, "de", Vocabulary.default()
    app.output, app.source = Output(out, "de"), None
    app._inbox = _Inbox(asyncio.get_running_loop())
    return app, out


HINT = message("de", "app.faint_hint")


def test_the_app_says_the_faint_voice_hint_during_the_game(settings: Settings) -> None:
    async def run() -> str:
        app, out = _app(settings)
        app.host = object()  # type: ignore[assignment]  # nothing is submitted
        app._inbox.put("faint")
        app._inbox.put("end")
        await app._play()
        return out.getvalue()

    assert HINT.startswith("Ihre Stimme ist kaum lauter als der Raum")
    assert asyncio.run(run()).splitlines() == [HINT]


def test_the_app_says_the_faint_voice_hint_while_it_asks_before_the_game(
    settings: Settings,
) -> None:
    async def run() -> str:
        app, out = _app(settings)
        app._inbox.put("faint")
        app._inbox.put("end")
        with pytest.raises(Startup):
            await app._ask("Welche Stufe?", lambda heard: None)
        return out.getvalue()

    assert asyncio.run(run()).splitlines() == ["Welche Stufe?", HINT]
