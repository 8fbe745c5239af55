"""Typed input: the blind player types the same words they would say.

For a Braille keyboard, for a noisy room, or when speech recognition fails: each line typed
("Springer Felix drei", "zeit", "wo ist der Springer", "ja") becomes what the player was heard
to say, a :class:`~voice.rules.events.BlindSpeech` with one hypothesis of full confidence. The
session
reads it exactly like recognised speech, so every word, command and question works the same way
and the journal shows what was typed. An empty line is passed on as well (the caller decides:
before the game it confirms a question, during it it is ignored).

Lines are read on a thread of their own (a blocking ``readline`` works for terminals, pipes and
Braille devices alike); end of input (Ctrl-D, or the end of a piped file) is reported once.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable, Iterable
from typing import TextIO

from voice.keyboard import keys_typed
from voice.words.utterance import Heard
from voice.words.vocabulary import NamedMoves, Phrase

UNREADABLE = "\ufffd"
"""What a byte that is not UTF-8 was read as (standard input is read leniently, see
:func:`voice.cli._lenient_stdin`)."""


def typed(line: str) -> Heard:
    """One typed line as a single certain hypothesis; control characters are dropped.

    A line with a byte that was not UTF-8 (a terminal or Braille keyboard set to Latin-1) is
    passed on as that mark alone, which no word matches: "Eva vier \\xe4" must be answered
    "Nicht verstanden", not played as the words that happened to be readable."""
    if UNREADABLE in line:
        return ((UNREADABLE, 1.0),)
    text = unicodedata.normalize("NFC", line)
    text = "".join(ch for ch in text if ch.isprintable()).strip()
    return ((text, 1.0),) if text else ()


class TextInput:
    """Reads lines from ``stream`` and hands each to ``deliver`` (on the reader thread)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._thread: threading.Thread | None = None
        self._closed = threading.Event()

    def set_context(self, phrases: Iterable[Phrase], moves: NamedMoves) -> None:
        """Typed words need no grammar: every line is passed on as it was typed, and the
        session says what it cannot use."""

    def start(
        self,
        deliver: Callable[[Heard], None],
        on_end: Callable[[], None],
        on_keys: Callable[[list[str]], None] | None = None,
    ) -> None:
        """Start reading; ``on_end`` is called once when the input ends. ``on_keys`` gets the
        keys of a line made only of arrow keys and the like (:func:`voice.keyboard.keys_typed`),
        which are no words."""

        def run() -> None:
            try:
                while not self._closed.is_set():
                    line = self._stream.readline()
                    if line == "":
                        break
                    if self._closed.is_set():
                        continue
                    if on_keys is not None and (keys := keys_typed(line)) is not None:
                        on_keys(keys)
                    else:
                        deliver(typed(line))
            except (OSError, ValueError):  # the stream was closed under us
                pass
            finally:
                if not self._closed.is_set():
                    on_end()

        self._thread = threading.Thread(target=run, name="text-input", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop delivering; a ``readline`` in progress is abandoned (the thread is a daemon)."""
        self._closed.set()
