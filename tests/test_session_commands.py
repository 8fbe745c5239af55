"""Every command of the blind player reaches its handler in the session's command table."""

from __future__ import annotations

from voice.config import Settings
from voice.game.session import GameSession
from voice.rules.events import KeyPress, Say, Setup


def test_every_command_the_vocabulary_knows_is_answered_when_its_key_is_pressed(
    settings: Settings,
) -> None:
    names = sorted({*GameSession(Setup(mode="game", blind="white"), settings).vocab.commands})
    assert {"yes", "no", "time", "draw", "resign", "touched"} <= set(names)
    silent = {"stop"}  # stopping the speech is the speech adapter's job (nothing is said)
    for name in [*names, "choice"]:
        game = GameSession(Setup(mode="game", blind="white"), settings)
        said = [e for e in game.handle(KeyPress(1000, name)) if isinstance(e, Say)]
        assert bool(said) != (name in silent), name
