"""``voice-chess devices``: which microphones and speakers exist, which ones the settings pick,
and a test of each (say a sentence; show what the microphone hears)."""

from __future__ import annotations

import argparse
import queue
import sys
import time

from voice.cli._values import number
from voice.config import Settings
from voice.speech.audio import AudioDeviceError, PortAudioMissing, list_devices, resolve_device
from voice.speech.native import ESPEAK, PORTAUDIO
from voice.words.messages import message
from voice.words.phrases import speakable

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
    print(f"speaker test: {' '.join(kinds)}")
    return 0 if kinds[-1:] == ["end"] else 1


def _test_microphone(settings: Settings, seconds: float) -> int:
    from voice.speech.listen import Listener

    listener = Listener(settings)
    print(f"listening for {seconds:g} s on {listener.device.describe()}: say something")
    listener.start()
    heard = 0
    deadline = time.monotonic() + seconds
    try:
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
    finally:
        listener.stop()
    print(f"microphone test: {heard} utterance(s)")
    return 0
