"""Real audio devices for tests: a private PulseAudio daemon with virtual sinks and sources.

The recipe is the one in ``docs/speech.md``: the program plays on the null sink
``speaker`` (tests record ``speaker.monitor``), tests play into the null sink ``mic_feed`` and the
program records the default source ``vmic`` (a remap of ``mic_feed.monitor``). The two loopback
"anchors" keep the null sinks running in small blocks; without them capture starts late.

Use the session-scoped fixture ``pulse`` (registered in ``conftest.py``)::

    def test_something(pulse: PulseAudio) -> None:
        with pulse.record("speaker.monitor") as rec:
            ...                                   # the program speaks
        audio = rec.audio                         # int16 mono at rec.rate
        pulse.play(samples, rate)                 # into the virtual microphone

Times are ``time.monotonic()`` seconds, estimated from PortAudio's ADC/DAC timestamps, so a test
can relate what it heard to when the program said it started or stopped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from speech_cache import cached_file, tool_version

VIRTUAL_PA = """\
.fail
load-module module-null-sink sink_name=speaker rate=48000 channels=1
load-module module-null-sink sink_name=mic_feed rate=48000 channels=1
load-module module-remap-source master=mic_feed.monitor source_name=vmic
load-module module-null-sink sink_name=blackhole
load-module module-loopback source=speaker.monitor sink=blackhole latency_msec=20
load-module module-loopback source=mic_feed.monitor sink=blackhole latency_msec=20
set-default-sink speaker
set-default-source vmic
load-module module-native-protocol-unix auth-anonymous=1 socket={socket}
"""


def _mono_time(stream_now: float, stream_then: float) -> float:
    """Monotonic time of the instant ``stream_then`` on the stream clock, seen at ``stream_now``."""
    delta = stream_then - stream_now if stream_then > 0 else 0.0
    if abs(delta) > 1.0:  # a backend without usable timestamps
        delta = 0.0
    return time.monotonic() + delta


@dataclass
class Recording:
    """Audio captured from a PulseAudio source, with the monotonic time of its first sample."""

    rate: int
    blocks: list[np.ndarray] = field(default_factory=list)
    started_at: float = 0.0
    first_block: threading.Event = field(default_factory=threading.Event)

    @property
    def audio(self) -> np.ndarray:
        if not self.blocks:
            return np.zeros(0, dtype=np.int16)
        return np.concatenate(self.blocks)

    def time_of(self, sample: int) -> float:
        """Monotonic time at which sample number ``sample`` was captured."""
        return self.started_at + sample / self.rate

    def sample_at(self, when: float) -> int:
        return max(0, round((when - self.started_at) * self.rate))

    def active_spans(self, threshold: int = 300, window: float = 0.01) -> list[tuple[float, float]]:
        """Monotonic (start, end) spans where the level exceeds ``threshold`` (int16 RMS)."""
        audio = self.audio.astype(np.float64)
        size = max(1, int(self.rate * window))
        frames = len(audio) // size
        if frames == 0:
            return []
        rms = np.sqrt(np.mean(audio[: frames * size].reshape(frames, size) ** 2, axis=1))
        active = rms > threshold
        spans: list[tuple[float, float]] = []
        start = None
        for i, on in enumerate(active):
            if on and start is None:
                start = i
            elif not on and start is not None:
                spans.append((self.time_of(start * size), self.time_of(i * size)))
                start = None
        if start is not None:
            spans.append((self.time_of(start * size), self.time_of(frames * size)))
        return spans


class PulseAudio:
    """A running private PulseAudio daemon; ``PULSE_SERVER`` points at it while it lives."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.runtime = base / "runtime"
        self.runtime.mkdir(mode=0o700, parents=True)
        self.socket = self.runtime / "native"
        self.server = f"unix:{self.socket}"
        self.log = base / "pulseaudio.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._saved_env: dict[str, str | None] = {}

    def start(self) -> None:
        script = self.base / "virtual.pa"
        script.write_text(VIRTUAL_PA.format(socket=self.socket))
        env = {
            **os.environ,
            "XDG_RUNTIME_DIR": str(self.runtime),
            "HOME": str(self.base),
            "XDG_CONFIG_HOME": str(self.base / "config"),
        }
        env.pop("PULSE_SERVER", None)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    "pulseaudio",
                    "-n",
                    "-F",
                    str(script),
                    "--daemonize=no",
                    "--exit-idle-time=-1",
                    "--use-pid-file=no",
                    "--disallow-exit",
                    # Ahead of the test workers for the CPU (root may raise it): a daemon that
                    # waits behind them underruns, and the recordings get gaps.
                    "--high-priority=yes",
                ],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 15
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"pulseaudio did not start:\n{self.log.read_text()}")
            time.sleep(0.05)
        for name in ("PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE"):
            self._saved_env[name] = os.environ.get(name)
            os.environ.pop(name, None)
        os.environ["PULSE_SERVER"] = self.server
        self._wait_ready()
        from voice.speech.audio import reinit_portaudio

        reinit_portaudio()
        self.warm_up()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 10
        while True:
            result = subprocess.run(["pactl", "info"], capture_output=True, check=False)
            if result.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"pulseaudio does not answer:\n{self.log.read_text()}")
            time.sleep(0.1)

    def warm_up(self) -> None:
        """Open and run one input and one output stream: the first stream waits up to ~2 s."""
        with self.record("vmic") as rec:
            self.play(np.zeros(4800, dtype=np.int16), 48000)
        assert rec.first_block.is_set(), "the virtual microphone delivered no audio"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        for name, value in self._saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        try:
            from voice.speech.audio import reinit_portaudio

            reinit_portaudio()
        except Exception:
            pass

    # -- helpers for tests ---------------------------------------------------------------------

    def pactl(self, *args: str) -> str:
        return subprocess.run(["pactl", *args], capture_output=True, text=True, check=True).stdout

    def _device(self, pulse_name: str, kind: str) -> Any:
        from voice.speech.audio import Device, resolve_device

        bridge = resolve_device("pulse", kind)  # type: ignore[arg-type]
        return Device(
            index=bridge.index,
            name=bridge.name,
            kind=bridge.kind,
            channels=1,
            default_samplerate=bridge.default_samplerate,
            pulse_name=pulse_name,
        )

    class _Recorder:
        def __init__(self, pulse: PulseAudio, source: str, rate: int) -> None:
            from voice.speech.audio import open_input

            self.recording = Recording(rate=rate)

            def callback(indata: np.ndarray, frames: int, when: Any, status: Any) -> None:
                if not self.recording.first_block.is_set():
                    self.recording.started_at = _mono_time(
                        when.currentTime, when.inputBufferAdcTime
                    )
                    self.recording.first_block.set()
                self.recording.blocks.append(indata[:, 0].copy())

            self.stream = open_input(
                pulse._device(source, "input"),
                samplerate=rate,
                dtype="int16",
                latency=0.02,
                callback=callback,
            )

    @contextlib.contextmanager
    def record(self, source: str = "speaker.monitor", rate: int = 16000) -> Iterator[Recording]:
        """Record ``source`` while the ``with`` block runs (starts only after audio flows)."""
        recorder = PulseAudio._Recorder(self, source, rate)
        recorder.stream.start()
        try:
            if not recorder.recording.first_block.wait(5):
                raise RuntimeError(f"no audio from {source} within 5 s")
            yield recorder.recording
        finally:
            recorder.stream.stop()
            recorder.stream.close()

    def play(self, samples: np.ndarray, rate: int, sink: str = "mic_feed") -> tuple[float, float]:
        """Play int16 mono ``samples`` into ``sink`` and wait; return (start, end) monotonic."""
        from voice.speech.audio import open_output

        data = np.ascontiguousarray(samples, dtype=np.int16)
        position = 0
        times: dict[str, float] = {}
        done = threading.Event()

        def callback(outdata: np.ndarray, frames: int, when: Any, status: Any) -> None:
            nonlocal position
            chunk = data[position : position + frames]
            outdata[: len(chunk), 0] = chunk
            outdata[len(chunk) :, 0] = 0
            dac = _mono_time(when.currentTime, when.outputBufferDacTime)
            if position == 0:
                times["start"] = dac
            position += len(chunk)
            if position >= len(data) and "end" not in times:
                times["end"] = dac + len(chunk) / rate
            if position >= len(data):
                done.set()

        stream = open_output(
            self._device(sink, "output"),
            samplerate=rate,
            dtype="int16",
            blocksize=rate // 100,
            latency=0.05,
            callback=callback,
        )
        with stream:
            done.wait(len(data) / rate + 10)
            time.sleep(max(0.0, times.get("end", 0.0) - time.monotonic()) + 0.05)
        return times.get("start", 0.0), times.get("end", 0.0)


def espeak(text: str, voice: str = "de", rate: int = 16000, speed: int = 150) -> np.ndarray:
    """``text`` spoken by espeak-ng as int16 mono at ``rate`` (sox resamples; kept on disk by
    :mod:`speech_cache` across runs)."""

    def make(out: Path) -> None:
        with tempfile.TemporaryDirectory() as folder:
            raw = Path(folder) / "raw.wav"
            subprocess.run(
                ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), text], check=True
            )
            subprocess.run(
                ["sox", str(raw), "-r", str(rate), "-c", "1", "-b", "16", str(out)], check=True
            )

    versions = [tool_version("espeak-ng"), tool_version("sox")]
    out = cached_file("pulse-espeak", [*versions, voice, speed, rate, text], ".wav", make)
    import wave

    with wave.open(str(out), "rb") as handle:
        return np.frombuffer(handle.readframes(handle.getnframes()), dtype=np.int16).copy()


def noise(kind: str, seconds: float, volume: float, rate: int = 16000) -> np.ndarray:
    """Repeatable sox noise (``pinknoise``, ``whitenoise``, ``brownnoise``) as int16 mono."""
    raw = subprocess.run(
        [
            *("sox", "-R", "-n", "-r", str(rate), "-c", "1", "-b", "16", "-t", "raw", "-"),
            *("synth", str(seconds), kind, "vol", str(volume)),
        ],
        capture_output=True,
        check=True,
    ).stdout
    return np.frombuffer(raw, dtype=np.int16)


def similarity(heard: np.ndarray, sent: np.ndarray) -> float:
    """Peak normalised cross-correlation of two int16 signals (1.0 = the same sound)."""
    a, b = heard.astype(np.float64), sent.astype(np.float64)
    size = len(a) + len(b)
    corr = np.fft.irfft(np.fft.rfft(a, size) * np.conj(np.fft.rfft(b, size)), size)
    return float(np.max(np.abs(corr)) / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.fixture(scope="session")
def pulse() -> Iterator[PulseAudio]:
    """A private PulseAudio with ``speaker``, ``mic_feed`` and ``vmic`` for the whole session."""
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip("pulseaudio/pactl are not installed (Debian: pulseaudio pulseaudio-utils)")
    # Not tmp_path: a unix socket path must stay under 108 bytes.
    base = Path(tempfile.mkdtemp(prefix="vc-pulse-"))
    server = PulseAudio(base)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)
