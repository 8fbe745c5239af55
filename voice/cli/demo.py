"""``voice-chess demo``: a short game through the real pipeline, on any machine.

No microphone and no model download: the blind player's words are rendered by the text-to-speech
engine, heard back from that audio by the embedded recogniser (told, as in a real game, only what
may be said in the position), matched and made by the session, with the clocks running in real
time through the game host; the opponent's moves are scripted and announced in Appendix D
words. The transcript shows for every utterance what was said, what was heard (the n-best list),
what was made and both clocks; the PGN follows. Where a loudspeaker exists the player's voice and
the announcements are also played; otherwise the audio is only rendered.

A move the recogniser does not get is said again, as a player would (up to three times, the
later ones slower); the demo fails, saying so, if a move is never recognised: nothing is typed
in for the player.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import chess

from voice.cli._laws import add_laws_argument
from voice.config import Settings, override
from voice.game.session import GameSession
from voice.rules.events import (
    BlindSpeech,
    ClockState,
    MoveMade,
    OutputEvent,
    Say,
    Setup,
    SightedMove,
)
from voice.runtime.host import GameHost
from voice.words.messages import display_text, message
from voice.words.phrases import render_move, speakable
from voice.words.spoken_time import duration_words

if TYPE_CHECKING:  # imported where used: the demo loads audio and speech only when it runs
    import numpy as np

    from voice.speech.recognizers import Transcript
    from voice.speech.speak import Speaker

NAME = "demo"
HELP = (
    "a short game through the real pipeline (speech rendered, recognised from audio, "
    "confirmed, clocks running), with a transcript and the PGN; needs no microphone"
)

# The demo game: the blind player (White) mates in four; every kind of phrase the program must
# understand appears once: pawn move, piece moves, a Cesar square, a capture with mate.
GAME: tuple[str, ...] = ("e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
# What the player says where it is not the program's own wording: the capture with "nimmt",
# which is accepted as well as "schlägt" (and said back as "schlägt"). Measured with the
# embedded recogniser and espeak-ng's German voice at 110-170 words per minute: "Dame nimmt
# Felix sieben matt" 7 of 7 recognised, "Dame schlägt Felix sieben matt" 5 of 7.
PLAYER_WORDS: dict[str, str] = {"h5f7": "Dame nimmt Felix sieben matt"}
# Words per minute of the demo player's voice, first try and each repetition: a clear, slightly
# slow speaker, as a player talking to a machine tends to be.
RATES = (150, 140, 120)
OPPONENT_THINKS_S = 0.8
SAMPLE_RATE = 16000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--control", default="300+3", metavar="TC", help="the demo's time control (default 300+3)"
    )
    add_laws_argument(parser)
    parser.add_argument(
        "--no-audio",
        dest="audio",
        action="store_false",
        help="never play sound, even where a loudspeaker exists",
    )
    parser.add_argument(
        "--recognizer",
        choices=("auto", "whisper", "sphinx", "vosk"),
        default="auto",
        help="the recogniser to hear the speech with (default: the best installed, as in a game)",
    )


@dataclass
class Line:
    """One step of the transcript."""

    said: str
    heard: tuple[tuple[str, float], ...]
    decode_ms: float
    answer: str
    made: str
    clocks: str


class Demo:
    """Runs the scripted game on a game host and prints the transcript as it goes."""

    def __init__(self, settings: Settings, args: argparse.Namespace) -> None:
        self.settings = override(
            settings, speech={"recognizer": args.recognizer}, session={"always_confirm": False}
        )
        self.language = settings.language.blind
        # The demo's blind player says the Appendix D words with the German voice (the English
        # one for an English speaker): the recogniser has German and English models only.
        self.player_language = self.language if self.language in ("de", "en") else "de"
        self.out = sys.stdout
        self.setup = Setup(
            mode="game",
            blind="white",
            time_control=args.control,
            language=self.language,
            laws=args.laws,
            extra={"event": "voice-chess demo", "white": "Demo (blind)", "black": "Demo"},
        )
        self.session = GameSession(self.setup, self.settings)
        self.host = GameHost(self.session)
        self.outputs: list[OutputEvent] = []
        self.host.subscribe(self.outputs.extend)
        self.speaker: Speaker | None = None
        self.audio = args.audio
        self.recognised = 0
        self.why = ""
        self.blind_moves = 0

    def text(self, key: str, **params: object) -> str:
        return message(self.language, f"demo.{key}", **params)

    def print(self, text: str) -> None:
        self.out.write(display_text(text, self.language) + "\n")
        self.out.flush()

    # -- parts ----------------------------------------------------------------------------

    def open(self) -> None:
        from voice.speech.speech_input import recognizer_for

        self.recognizer = recognizer_for(self.settings, self.session.vocab)
        if self.audio:
            try:
                from voice.speech.speak import Speaker

                self.speaker = Speaker(self.settings, language=self.language)
            except Exception:  # no loudspeaker: render only
                self.speaker = None
        device = self.speaker.device.name if self.speaker is not None else None
        self.print(
            self.text(
                "start",
                recognizer=self.recognizer.describe(),
                audio=self.text("audio.device", device=device)
                if device
                else self.text("audio.none"),
            )
        )

    def close(self) -> None:
        self.host.close()
        if self.speaker is not None:
            self.speaker.wait_idle(timeout=20)
            self.speaker.close()

    # -- the blind player's voice ---------------------------------------------------------

    def voice(self, words: str, attempt: int) -> np.ndarray:
        """The words as the text-to-speech engine says them, at 16 kHz for the recogniser."""
        from voice.speech.audio import resample
        from voice.speech.speak import render

        voiced = override(self.settings, speech={"rate": RATES[attempt]})
        language = self.player_language
        samples, sample_rate = render(speakable(words, language), voiced, language=language)
        if self.speaker is not None:
            self.speaker.wait_idle(timeout=20)
            self._play(self.speaker, samples, sample_rate)
        return resample(samples, sample_rate, SAMPLE_RATE)

    def _play(self, speaker: Speaker, samples: np.ndarray, rate: int) -> None:
        """The player's own voice on the loudspeaker (a demo has no microphone to hear it)."""
        from voice.speech.audio import open_output, resample

        device = speaker.device
        stream_rate = speaker.rate
        with open_output(device, samplerate=stream_rate, dtype="int16") as stream:
            stream.write(resample(samples, rate, stream_rate).reshape(-1, 1))

    async def say(self, words: str) -> Line:
        """Say ``words``, recognise them from the audio, hand them to the game."""
        for attempt in range(len(RATES)):
            audio = await asyncio.to_thread(self.voice, words, attempt)
            self.recognizer.set_context(self.session.phrases_now(), self.session.moves_now())
            transcript = await asyncio.to_thread(self.recognizer.recognize, audio, SAMPLE_RATE)
            # As in a game: what was heard goes on whether or not the recogniser thinks the
            # phrase was said to its end (that only tells the end-pointer to wait longer).
            heard = tuple((str(t), float(c)) for t, c in transcript.nbest)
            self.why = "" if heard else _why(transcript)
            start = len(self.outputs)
            await self.host.submit(partial(BlindSpeech, nbest=heard))
            batch = self.outputs[start:]
            line = self._line(words, heard, transcript.decode_ms, batch)
            self._print_line(line, attempt)
            if not _refused(batch) or self._choosing():
                return line
        raise RuntimeError(self.text("never_recognised", words=words))

    def _line(
        self,
        said: str,
        heard: tuple[tuple[str, float], ...],
        decode_ms: float,
        batch: Sequence[OutputEvent],
    ) -> Line:
        answer = _sentences(
            o.text for o in batch if isinstance(o, Say) and o.to in ("blind", "all")
        )
        made = " ".join(f"{o.san}" for o in batch if isinstance(o, MoveMade))
        return Line(said, heard, decode_ms, answer, made, self._clocks(batch))

    def _clocks(self, batch: Sequence[OutputEvent]) -> str:
        states = [o for o in batch if isinstance(o, ClockState)]
        if not states:
            return ""
        last = states[-1]
        return self.text(
            "clocks",
            white=_clock(last.white_ms),
            black=_clock(last.black_ms),
            running=message(self.language, f"game.side.{last.running}") if last.running else "-",
        )

    def _print_line(self, line: Line, attempt: int) -> None:
        heard = ", ".join(f"„{text}“ {conf:.2f}" for text, conf in line.heard[:3])
        if not heard:
            heard = self.text("nothing", why=self.why) if self.why else "—"
        prefix = self.text("again") if attempt else ""
        self.print(self.text("said", prefix=prefix, words=line.said))
        self.print(self.text("heard", heard=heard, ms=round(line.decode_ms)))
        self.print(self.text("answer", answer=line.answer or "—"))
        if line.made:
            self.print(self.text("made", san=line.made, clocks=line.clocks))
        if self.speaker is not None and line.answer:
            self.speaker.say(speakable(line.answer, self.language), append=True)

    # -- the game -------------------------------------------------------------------------

    async def run(self) -> int:
        self.host.start()
        board = chess.Board()
        for uci in GAME:
            move = chess.Move.from_uci(uci)
            words = PLAYER_WORDS.get(uci) or render_move(board, move, self.session.vocab)
            if board.turn == chess.WHITE:
                self.blind_moves += 1
                self.print(self.text("blind_turn", number=board.fullmove_number))
                line = await self.say(words)
                if not line.made:
                    line = await self._answer_question(line, move)
                if line.made != board.san(move):
                    raise RuntimeError(self.text("wrong_move", words=words, made=line.made))
                self.recognised += 1
            else:
                await asyncio.sleep(OPPONENT_THINKS_S)
                start = len(self.outputs)
                await self.host.submit(partial(SightedMove, move=uci))
                batch = self.outputs[start:]
                self.print(self.text("opponent", number=board.fullmove_number, san=board.san(move)))
                announced = _sentences(
                    o.text for o in batch if isinstance(o, Say) and o.to in ("blind", "all")
                )
                self.print(self.text("announced", answer=announced, clocks=self._clocks(batch)))
                if self.speaker is not None:
                    self.speaker.say(speakable(announced, self.language), append=True)
            board.push(move)
        return 0

    def _choosing(self) -> bool:
        """Moves are offered by number: a question the player answers."""
        from voice.game.session_base import PendingChoice

        return isinstance(self.session.pending, PendingChoice)

    async def _answer_question(self, line: Line, meant: chess.Move, tries: int = 2) -> Line:
        """The session asked back ("Eva vier?"): the player answers "ja", by voice too; offered
        a choice, they say the number of the move they meant (or, asked for the one word two moves
        differ in, that word), and "ja" when that move is then asked back by name. Asked about
        moves they did not mean, they say "nein" and the move again (``tries`` times)."""
        from voice.game.session_base import PendingChoice, PendingConfirm

        vocab = self.session.vocab
        words = vocab.commands["yes"][0][0]
        pending = self.session.pending
        asked = pending.moves if isinstance(pending, PendingChoice) else ()
        if isinstance(pending, PendingConfirm):
            asked = (pending.move,)
        if meant not in asked:
            # Asked back or offered a move that was not meant: "nein", and the move again.
            if tries == 0:
                return line
            await self.say(vocab.commands["no"][0][0])
            line = await self.say(line.said)
            return line if line.made else await self._answer_question(line, meant, tries - 1)
        if isinstance(pending, PendingChoice):
            number = pending.moves.index(meant)
            if pending.difference is not None:  # "Springer Felix fünf oder sechs?": "sechs"
                words = self.session.vocab.display((pending.difference[number],))
            else:
                words = self.session.vocab.display((self.session.vocab.number_words[number],))
        answer = await self.say(words)
        line = Line(
            line.said, line.heard, line.decode_ms, answer.answer, answer.made, answer.clocks
        )
        if not line.made and tries > 0 and self.session.pending is not None:
            # A number heard unsurely has its move asked back by name ("Eva vier?"): "ja".
            return await self._answer_question(line, meant, tries - 1)
        return line

    def summary(self) -> None:
        self.print("")
        self.print(
            self.text(
                "summary",
                recognised=self.recognised,
                moves=self.blind_moves,
                time=duration_words(self.host.now_ms(), self.language),
            )
        )
        self.print("")
        self.print(self.session.pgn())


def _refused(batch: Sequence[OutputEvent]) -> bool:
    """Nothing made and no question asked: the words were not understood or refused."""
    from voice.rules.events import Refused

    if any(isinstance(o, MoveMade) for o in batch):
        return False
    return any(isinstance(o, Refused) for o in batch) or not any(
        isinstance(o, Say) and o.text.endswith("?") for o in batch
    )


def _why(transcript: Transcript) -> str:
    """What the recogniser said about an utterance it could not take as a phrase."""
    reason = str(getattr(transcript, "reason", ""))
    partial = str(getattr(transcript, "partial", ""))
    return f"{reason}: {partial}" if partial else reason


def _clock(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def run(args: argparse.Namespace, settings: Settings) -> int:
    from voice.speech.native import ESPEAK

    demo = Demo(settings, args)
    if not ESPEAK.installed():  # the demo's player speaks through it
        print(display_text(ESPEAK.sentence(demo.language), demo.language), file=sys.stderr)
        return 1
    try:
        demo.open()
    except Exception as error:
        text = demo.text("fail.recognizer", error=str(error))
        print(display_text(text, demo.language), file=sys.stderr)
        return 1

    async def main() -> int:
        try:
            return await demo.run()
        finally:
            demo.summary()

    try:
        return asyncio.run(main())
    except RuntimeError as error:
        print(str(error), file=sys.stderr)
        return 1
    finally:
        demo.close()


def _sentences(texts: Iterable[str]) -> str:
    """What the player heard, one line: a move is said without a full stop ("Dame schlägt
    Felix sieben matt"), so one is put after it before the next sentence ("Weiß gewinnt:
    Schachmatt."), for the reader and for the voice's pause."""
    parts = [text.strip() for text in texts if text.strip()]
    return " ".join(
        part if index == len(parts) - 1 or part[-1] in ".!?:;؟" else part + "."
        for index, part in enumerate(parts)
    )
