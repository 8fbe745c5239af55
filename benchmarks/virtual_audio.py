"""A private PulseAudio daemon with virtual devices: a loudspeaker and a microphone in software.

The recipe is the one in ``docs/speech.md``: the program plays on the null sink ``speaker``
(record ``speaker.monitor`` to hear it), and what is played into the null sink ``mic_feed`` is
what the program hears on the default source ``vmic`` (a remap of ``mic_feed.monitor``). The two
loopback "anchors" keep the null sinks running in small blocks; without them capture starts
late. The tests (``tests/pulse.py``, the ``pulse`` fixture) and the latency benchmark
(:mod:`benchmarks.latency`) run the real program on it, on machines without a sound card.

Times are ``time.monotonic()`` seconds, estimated from PortAudio's ADC/DAC timestamps, so that
what was heard can be related to when it was played.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

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
