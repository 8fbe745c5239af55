"""``voice-chess devices``: which microphones and speakers exist, which ones the settings pick,
and a test of each (say a sentence; show what the microphone hears)."""

from __future__ import annotations

import argparse
import math
import queue
import sys
import time
from typing import TYPE_CHECKING

from voice.cli._values import number
from voice.config import Settings
from voice.speech.audio import AudioDeviceError, PortAudioMissing, list_devices, resolve_device
from voice.speech.native import ESPEAK, PORTAUDIO
from voice.words.matcher import Decision
from voice.words.messages import message
from voice.words.phrases import render_move, speakable
from voice.words.vocabulary import Vocabulary

if TYPE_CHECKING:
    import numpy as np

    from voice.speech.recognizers import Recognizer

NAME = "devices"
HELP = "list audio devices, show which ones the settings choose, test speaker and microphone"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--test-speaker",
        action="store_true",
        help="say a sentence on the configured output device",
    )
    parser.add_argument(
        "--test-microphone",
        type=number(0.1, 3600.0),
        metavar="SECONDS",
        help="listen this long on the configured input device; print every utterance heard",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        devices = list_devices()
    except PortAudioMissing:
        print(PORTAUDIO.sentence(settings.language.blind), file=sys.stderr)
        return 1
    if not devices:
        print("no audio devices found (is a sound card connected and the sound server running?)")
    else:
        print("index  in  out  name")
    for device in devices:
        index = "" if device.index is None else str(device.index)
        marks = []
        if device.is_default_input:
            marks.append("default input")
        if device.is_default_output:
            marks.append("default output")
        if device.source == "pulseaudio":
            marks.append("PulseAudio, choose by name")
        mark = f"  ({', '.join(marks)})" if marks else ""
        print(f"{index:>5}  {device.inputs:>2}  {device.outputs:>3}  {device.name}{mark}")
    status = 0
    for kind, spec in (
        ("input", settings.audio.input_device),
        ("output", settings.audio.output_device),
    ):
        try:
            chosen = resolve_device(spec, kind)  # type: ignore[arg-type]
            print(f"{kind}: {chosen.describe()}  ([audio] {kind}_device = {spec!r})")
        except AudioDeviceError as error:
            print(f"{kind}: {error}")
            status = 1
    if status == 0 and args.test_speaker:
        status = _test_speaker(settings)
    if status == 0 and args.test_microphone:
        status = _test_microphone(settings, args.test_microphone)
    return status


def _test_speaker(settings: Settings) -> int:
    from voice.speech.speak import Speaker

    if not ESPEAK.installed():
        print(ESPEAK.sentence(settings.language.blind), file=sys.stderr)
        return 1
    with Speaker(settings) as speaker:
        events = speaker.subscribe()
        language = settings.language.blind
        speaker.say(speakable(message(language, "audio.speaker_test"), language))
        kinds: list[str] = []
        while kinds[-1:] not in (["end"], ["error"], ["interrupted"]):
            try:
                kinds.append(events.get(timeout=15).kind)
            except queue.Empty:
                print("speaker test: the sentence did not finish playing", file=sys.stderr)
                return 1
    if kinds[-1:] == ["end"]:
        print("speaker test: the test sentence was played to its end; did you hear it?")
        return 0
    print(f"speaker test: the test sentence did not play to its end ({kinds[-1]})", file=sys.stderr)
    return 1


def _test_microphone(settings: Settings, seconds: float) -> int:
    from voice.speech.listen import Listener

    listener = Listener(settings)
    hearing = _Hearing.load(settings)
    heard = 0
    try:
        if hearing is not None:
            listener.endpointer.set_pre_roll(hearing.recognizer.pre_roll_s)
        listener.start()
        print(
            f"listening for {seconds:g} s on {listener.device.describe()}: "
            'say a move of the starting position, e.g. "Springer Felix drei"',
            flush=True,
        )
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                utterance = listener.utterances().get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            heard += 1
            print(
                f"heard {utterance.ended_at - utterance.started_at:.2f} s of speech "
                f"(noise floor {listener.noise_floor_db:.0f} dB)"
            )
            print(f"  {_level(utterance.audio, hearing)}")
            if hearing is not None:
                print(f"  {hearing.understood(utterance.audio)}", flush=True)
    finally:
        listener.stop()
        if hearing is not None:
            hearing.close()
    print(f"microphone test: {heard} utterance(s)")
    return 0


class _Hearing:
    """What the game would make of an utterance said at the start of a game: the move it would
    play, ask back, offer or refuse. A player tries the microphone where they will play, and
    learns whether it is close enough (with :func:`_level`)."""

    def __init__(self, settings: Settings, recognizer: Recognizer, vocab: Vocabulary) -> None:
        import chess

        from voice.speech.recognizers.grammar import position_phrases
        from voice.words.phrases import phrase_table

        self.settings = settings
        self.recognizer = recognizer
        self.vocab = vocab
        self.board = chess.Board()
        recognizer.set_context(
            position_phrases(self.board, vocab), phrase_table(self.board, vocab).named_moves()
        )

    @classmethod
    def load(cls, settings: Settings) -> _Hearing | None:
        """The recogniser the game would use; None (and why, printed) when it cannot start.
        Anything it raises is caught, as the game catches it at start-up: the level is still
        worth showing."""
        from voice.speech.recognizers import close_recognizer
        from voice.speech.speech_input import recognizer_for

        vocab = Vocabulary.of(settings)
        recognizer = None
        try:
            recognizer = recognizer_for(settings, vocab)
            return cls(settings, recognizer, vocab)
        except Exception as error:  # a missing model or library: one sentence, no traceback
            if recognizer is not None:
                close_recognizer(recognizer)
            print(f"no recogniser, so only the level is shown: {error}")
            return None

    def understood(self, audio: np.ndarray) -> str:
        """What a game would do with ``audio`` said as the first move: as the session does, the
        words are read as a request or command first, then as a move."""
        from voice.speech.recognizers import hypotheses
        from voice.speech.wavio import RATE
        from voice.words.matcher import match_move
        from voice.words.utterance import read_command

        try:
            transcript = self.recognizer.recognize(audio, RATE)
        except Exception as error:  # the game logs and goes on; so does the test
            return f"could not recognise it: {error}"
        heard = hypotheses(transcript, self.vocab)
        if heard and read_command(heard[0].words, self.vocab) is not None:
            return f"understood: {transcript.best!r} (a request or command, not a move)"
        result = match_move(self.board, heard, self.vocab, self.settings.matching)
        moves = [render_move(self.board, c.move, self.vocab) for c in result.candidates]
        at_once = result.decision == Decision.ACCEPT and not self.settings.session.always_confirm
        if at_once and moves:
            return f"understood: {moves[0]}, played at once"
        if result.decision in (Decision.ACCEPT, Decision.CONFIRM) and moves:
            return f'understood: {moves[0]}, asked back ("{moves[0]}?")'
        if result.decision == Decision.CHOOSE:
            return f"not sure: offered by number: {', '.join(moves)}"
        if transcript.best:
            return f"understood: {transcript.best!r} (no move of the starting position)"
        said = f" (it sounded like {transcript.partial!r})" if transcript.partial else ""
        return f"not understood{said}"

    @property
    def whisper(self) -> bool:
        """Whether Whisper decides (alone or with PocketSphinx's vote)."""
        from voice.speech.recognizers.second_opinion import SecondOpinion
        from voice.speech.recognizers.whisper import WhisperRecognizer

        return isinstance(self.recognizer, SecondOpinion | WhisperRecognizer)

    def close(self) -> None:
        from voice.speech.recognizers import close_recognizer

        close_recognizer(self.recognizer)


def _level(audio: np.ndarray, hearing: _Hearing | None) -> str:
    """How far the voice stands above the room (the level Whisper's decision uses), and what
    that means for Whisper: below ``play_level_db`` no move is played without a question."""
    from voice.speech.recognizers.whisper import CALIBRATION, YES_LEVEL_DB, speech_span
    from voice.speech.wavio import RATE, as_pcm16

    level = speech_span(as_pcm16(audio, RATE))[2]
    if level == 0.0:
        return "the voice does not stand out from the room: speak up or come closer"
    said = f"the voice stands {math.floor(level)} dB above the room"  # 19.7 is below 20
    if hearing is None or not hearing.whisper:
        return said
    needed = CALIBRATION.play_level_db
    if level < needed:
        return (
            f"{said}: below {needed:g} dB no move is played without a question; "
            "bring the microphone closer to your mouth or use a headset microphone"
        )
    enough = f"{said}: enough (from {needed:g} dB a move heard surely is played at once)"
    if level < YES_LEVEL_DB:
        return f"{enough}; below {YES_LEVEL_DB:g} dB a 'ja' is asked for twice"
    return enough
