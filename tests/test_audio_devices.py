"""Device selection against real (virtual PulseAudio) devices, and the fixture itself."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from pulse import PulseAudio, espeak

from voice.cli import main
from voice.speech.audio import (
    AudioDeviceError,
    NoInputDeviceError,
    list_devices,
    resolve_device,
)
from voice.speech.recognizers import adaptation

pytestmark = pytest.mark.audio


def tone(freq: float, seconds: float, rate: int = 16000, level: float = 0.3) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (level * 32767 * np.sin(2 * np.pi * freq * t)).astype(np.int16)


def test_a_tone_played_into_the_virtual_microphone_comes_back_from_vmic(pulse: PulseAudio) -> None:
    sent = tone(440, 0.5)
    with pulse.record("vmic") as rec:
        start, _end = pulse.play(sent, 16000)
    spans = rec.active_spans(threshold=2000)
    assert len(spans) == 1
    got = rec.audio[rec.sample_at(spans[0][0]) :][: len(sent)]
    spectrum = np.abs(np.fft.rfft(got.astype(np.float64)))
    peak_hz = np.argmax(spectrum) * 16000 / len(got)
    assert abs(peak_hz - 440) < 5
    print(f"tone heard {spans[0][0] - start:+.3f} s after its estimated start")


def test_default_devices_are_the_virtual_ones(pulse: PulseAudio) -> None:
    assert resolve_device("", "input").name in {"default", "pulse"}
    assert resolve_device(None, "output").channels > 0


def test_device_by_portaudio_name_and_by_index_are_the_same(pulse: PulseAudio) -> None:
    by_name = resolve_device("pulse", "input")
    assert resolve_device(by_name.index, "input") == by_name
    assert resolve_device(str(by_name.index), "input") == by_name


def test_pulseaudio_sink_and_source_are_found_by_name(pulse: PulseAudio) -> None:
    assert resolve_device("mic_feed", "output").pulse_name == "mic_feed"
    assert resolve_device("vmic", "input").pulse_name == "vmic"
    assert resolve_device("speaker.monitor", "input").pulse_name == "speaker.monitor"


def test_an_unknown_microphone_name_says_what_exists(pulse: PulseAudio) -> None:
    with pytest.raises(NoInputDeviceError) as caught:
        resolve_device("Headset that is not plugged in", "input")
    text = str(caught.value)
    assert "[audio] input_device" in text
    assert "'Headset that is not plugged in'" in text
    assert "pulse" in text and "vmic" in text


def test_an_index_out_of_range_is_refused_with_the_list(pulse: PulseAudio) -> None:
    with pytest.raises(NoInputDeviceError, match=r"no microphone .* with that number"):
        resolve_device(99, "input")
    with pytest.raises(AudioDeviceError, match=r"\[audio\] output_device = 99"):
        resolve_device(99, "output")


def test_an_ambiguous_name_lists_the_candidates(pulse: PulseAudio) -> None:
    with pytest.raises(AudioDeviceError, match="several devices") as caught:
        resolve_device(".monitor", "input")
    assert caught.value.key == "audio.device_ambiguous"


def test_the_listing_shows_portaudio_and_pulseaudio_devices(pulse: PulseAudio) -> None:
    names = {entry.name.split(" ")[0] for entry in list_devices()}
    assert {"pulse", "default", "speaker", "mic_feed", "vmic"} <= names


def test_the_devices_command_lists_devices_and_the_chosen_ones(
    pulse: PulseAudio, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    assert "vmic (" in out and "mic_feed (" in out
    assert "input: [" in out and "([audio] input_device = '')" in out


def test_the_devices_command_tests_the_speaker(
    pulse: PulseAudio, capsys: pytest.CaptureFixture[str]
) -> None:
    with pulse.record("speaker.monitor") as rec:
        assert main(["devices", "--test-speaker"]) == 0
    assert "speaker test: the test sentence was played to its end" in capsys.readouterr().out
    assert rec.active_spans()


def microphone_test(
    pulse: PulseAudio, sound: np.ndarray, seconds: float, *options: str
) -> tuple[int, str]:
    """``voice-chess [OPTIONS] devices --test-microphone SECONDS`` while ``sound`` is said into
    the virtual microphone; (exit status, printed lines)."""
    result: list[int] = []
    out = io.StringIO()

    def run() -> None:
        with contextlib.redirect_stdout(out):
            result.append(main([*options, "devices", "--test-microphone", f"{seconds:g}"]))

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while "listening for" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.1)  # the recogniser loads first
    time.sleep(0.5)
    pulse.play(sound, 16000)
    thread.join()
    return result[0], out.getvalue()


def test_the_devices_command_tests_the_microphone_and_says_what_the_game_would_do(
    pulse: PulseAudio,
) -> None:
    """A player tries the microphone where they will play: what it heard, how far the voice
    stands above the room, and what the game would make of a move said there."""
    said = np.concatenate([espeak("Springer Felix drei"), np.zeros(16000, np.int16)])
    status, out = microphone_test(pulse, said, 6)
    assert status == 0
    assert "microphone test: 1 utterance(s)" in out
    assert "dB above the room: enough (from 20 dB a move heard surely is played at once)" in out
    assert "understood: Springer Felix drei" in out


def test_the_microphone_test_reads_a_request_as_the_game_does_not_as_a_move(
    pulse: PulseAudio,
) -> None:
    """The session reads the words as a request or command first: "Zeit" asks for the
    clocks, and is not a move to ask back."""
    said = np.concatenate([espeak("Zeit"), np.zeros(16000, np.int16)])
    status, out = microphone_test(pulse, said, 6)
    assert status == 0
    assert "understood: 'zeit' (a request or command, not a move)" in out


def test_the_microphone_test_says_when_the_room_is_too_loud_for_a_move_to_be_played_at_once(
    pulse: PulseAudio,
) -> None:
    """Whisper plays a move at once only when the voice stands 20 dB above the room: a voice
    barely above a noisy room is told so, with what to do about it, and the move it says is
    not played at once (asked back, offered or refused)."""
    second = np.zeros(16000, np.int16)
    room = adaptation.with_pink_noise(
        np.concatenate([second, second, espeak("Springer Felix drei"), second]), 0.0, seed=3
    )
    status, out = microphone_test(pulse, room, 8)
    assert status == 0
    assert "below 20 dB no move is played without a question" in out
    assert "use a headset microphone" in out
    assert "played at once\n" not in out


def test_without_a_sound_server_there_is_a_clear_no_microphone_message(tmp_path: Path) -> None:
    env = {**os.environ, "PULSE_SERVER": f"unix:{tmp_path}/no-server"}
    done = subprocess.run(
        [sys.executable, "-m", "voice", "devices"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "input: no microphone (input device) found. Connect one" in done.stdout


def test_without_a_recogniser_the_microphone_test_still_shows_what_it_heard(
    pulse: PulseAudio, tmp_path: Path
) -> None:
    config = tmp_path / "settings.toml"
    config.write_text(
        f'[speech]\nrecognizer = "vosk"\nvosk_model = "{tmp_path / "no-model"}"\n',
        encoding="utf-8",
    )
    said = np.concatenate([espeak("Springer Felix drei"), np.zeros(16000, np.int16)])
    status, out = microphone_test(pulse, said, 5, "--config", str(config))
    assert status == 0
    assert "no recogniser, so only the level is shown:" in out
    assert "microphone test: 1 utterance(s)" in out
    assert re.search(r"the voice stands \d+ dB above the room\n", out)  # no Whisper: no advice
    assert "understood" not in out


def test_the_microphone_test_says_when_a_yes_will_be_asked_for_twice() -> None:
    """Between ``play_level_db`` (20 dB) and ``YES_LEVEL_DB`` (35 dB) a move heard surely is
    played, but a "ja" is asked again: the player learns it before the game."""
    from types import SimpleNamespace

    from voice.cli.devices import _level
    from voice.speech.recognizers.whisper import speech_span

    rng = np.random.default_rng(3)
    room = rng.normal(0, 300, 32000)
    room[8000:16000] += 9000 * np.sin(np.arange(8000) * 2 * np.pi * 220 / 16000)
    audio = room.astype(np.int16)
    assert 20 <= speech_span(audio)[2] < 35
    said = _level(audio, SimpleNamespace(whisper=True))  # type: ignore[arg-type]
    assert said.endswith("below 35 dB a 'ja' is asked for twice")
    assert "enough (from 20 dB a move heard surely is played at once)" in said
