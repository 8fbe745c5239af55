"""A voice too faint for the room: when to tell the player why every move is asked back.

Whisper plays no move without a question while the speech stands less than ``play_level_db``
(20 dB) above the room's quiet frames (issue 18 §3, "the audio is good"), and PocketSphinx's
second opinion cannot lift that. A player whose microphone lies far from the mouth then hears
every move asked back and cannot know that a microphone nearer the mouth would end it; the
program tells them, once (docs/speech.md §2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voice.speech.recognizers.second_opinion import PLAYED
from voice.words.phrases import parse_intent, without_check_words
from voice.words.vocabulary import Vocabulary

if TYPE_CHECKING:
    from voice.speech.recognizers import Transcript

FAINT_IN_A_ROW = 3
"""Moves held back in a row because the voice stood too little above the room before the
player is told why (:class:`FaintVoice`)."""


class FaintVoice:
    """When to tell the player that their voice stands too little above the room: Whisper then
    plays no move without a question (``play_level_db``, issue 18 §3), and a player who hears
    every move asked back cannot know that a microphone nearer the mouth would end it.

    Once per game (per run of the program: a resumed game may be told again), after
    :data:`FAINT_IN_A_ROW` moves in a row held back for that reason (among others, or alone).
    Only moves count: a faint "ja" is asked again anyway. A move played at once starts the
    count again; what neither counts nor restarts: nothing heard, a move offered among
    choices or asked back for another reason (its level is not known to have been enough)."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.in_a_row = 0
        self.told = False

    def heard(self, transcript: Transcript) -> bool:
        """Whether to tell the player now."""
        if not transcript.nbest:
            return False
        words = without_check_words(self.vocab.normalize(transcript.best))
        if parse_intent(words, self.vocab) is None:
            return False  # an answer, a request: not a move
        if "level" not in transcript.held_back:
            if not transcript.held_back and transcript.nbest[0][1] >= PLAYED:
                self.in_a_row = 0  # played at once: loud enough
            return False
        self.in_a_row += 1
        if self.in_a_row >= FAINT_IN_A_ROW and not self.told:
            self.told = True
            return True
        return False
