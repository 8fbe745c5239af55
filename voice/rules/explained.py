"""Refusals that a player or an arbiter is told in their own language.

The rules raise errors with an English message, for scripts and logs. An error that a person
meets (a time control typed wrongly, an arbiter's correction the clock cannot make) also names
its fault: ``reason`` and the ``params`` of the sentence, which the layers above look up in the
message catalogue (``time_control.{reason}``, ``game.why.{reason}``); the catalogue sits above
this layer, so the rules never choose words.
"""

from __future__ import annotations


class Explained(Exception):
    """An error with an English message and, where a person meets it, a ``reason`` key.

    ``reason`` "" has no sentence of its own: its English message is shown as it is."""

    def __init__(self, english: str, reason: str = "", /, **params: str | int) -> None:
        super().__init__(english)
        self.reason = reason
        self.params = params
