"""Listening: microphone capture at 16 kHz, voice-activity detection and end-pointing.

The microphone runs all the time; a worker thread cuts what it hears into :class:`Utterance`
values. Voice activity is decided per 20 ms frame from two measures, so that steady noise (a fan,
traffic, pink noise) never starts an utterance:

- loudness above an adaptive noise floor (the floor follows quiet stretches, frozen in speech);
- voicing: the pitch-range autocorrelation peak of a 50 ms window; voiced speech scores high,
  noise of any colour stays below the threshold (measured: pink, white, brown noise < 0.31,
  espeak-ng German speech 0.4-0.95 in its voiced frames).

An utterance starts when enough loud frames, some of them voiced, fall in a short window, and
ends after ``[audio] end_of_utterance`` seconds without loud frames. When a recogniser says the
words so far already form a complete phrase (:meth:`Listener.set_completion_check`), a shorter
pause (``[audio] early_end_of_utterance``) ends it: that is what keeps the answer quick.

Half-duplex (``[audio] half_duplex``, the default): what the microphone hears while the program
speaks, and for ``[audio] echo_tail`` seconds after, is never normal input. Such utterances go
to :meth:`Listener.interruptions` (flagged ``during_speech``), cut at 2 s, so a recogniser can
still look for "Stopp" in them. Push-to-talk (:meth:`ptt_down`/:meth:`ptt_up`) records exactly
while the key is held; pressing it stops the program's speech first.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from voice.audio import Device, open_input, resolve_device, supported_rate
from voice.config import Settings

if TYPE_CHECKING:
    from voice.speak import Speaker

RATE = 16000  # what both recognisers want
FRAME = 320  # 20 ms
_WINDOW = 800  # 50 ms analysis window for voicing
_FRAME_SECONDS = FRAME / RATE

# Voice-activity constants (dB are of int16 mean square; 0 dB = one LSB RMS).
_MIN_LEVEL_DB = 35.0  # below this nothing is speech (about -55 dBFS)
_ONSET_DB = 12.0  # above the noise floor: a loud frame that may start an utterance
_SUSTAIN_DB = 8.0  # above the noise floor: a frame that keeps an utterance going
_VOICED = 0.4  # voicing score of a voiced frame
_ONSET_FRAMES = 10  # window (200 ms) in which the onset is decided
_ONSET_LOUD = 6  # loud frames needed in that window
_ONSET_VOICED = 2  # voiced loud frames needed in that window
_MIN_VOICED = 2  # fewer voiced frames in the whole utterance: a cough or a knock, dropped
_PRE_ROLL = 0.25  # seconds kept before the onset (soft first consonants)
_POST_ROLL = 0.15  # seconds kept after the last loud frame
_MAX_UTTERANCE = 10.0  # seconds; longer is noise that fooled the detector, the floor adapts
_MAX_INTERRUPTION = 2.0  # seconds: utterances during our own speech are cut this short
_PTT_PRE_ROLL = 0.1  # keys are pressed a little after the first sound
_PTT_POST_ROLL = 0.15  # and released a little before the last one
_FLOOR_UP = 0.02  # per quiet frame: the noise floor rises slowly (about 1 s)...
_FLOOR_DOWN = 0.3  # ...and falls quickly


@dataclass(frozen=True)
class Utterance:
    """One stretch of speech: int16 mono samples at 16 kHz.

    ``started_at``/``ended_at`` are the ``time.monotonic()`` times of the first and last speech
    frame; ``audio`` begins ``lead`` seconds before ``started_at`` (pre-roll) and ends a little
    after ``ended_at``. ``during_speech`` is True when the program itself was speaking: such
    audio may hold a stop word, never a move.
    """

    audio: np.ndarray
    started_at: float
    ended_at: float
    during_speech: bool = False
    lead: float = 0.0
    push_to_talk: bool = False

    @property
    def duration(self) -> float:
        return len(self.audio) / RATE


def frame_level_db(frame: np.ndarray) -> float:
    """Loudness of a frame in dB of int16 mean square."""
    values = frame.astype(np.float64)
    return float(10 * np.log10(np.mean(values * values) + 1.0))


_HANN = np.hanning(_WINDOW)
_HANN_AC = np.fft.irfft(np.abs(np.fft.rfft(_HANN, 2 * _WINDOW)) ** 2)[:_WINDOW]
_LAGS = np.arange(40, 230)  # pitch 70-400 Hz at 16 kHz


def voicing(window: np.ndarray) -> float:
    """Peak normalised autocorrelation in the pitch range (0 = noise, ~1 = a steady vowel)."""
    x = window.astype(np.float64)
    x = x - x.mean()
    x = np.append(x[0], x[1:] - 0.95 * x[:-1]) * _HANN  # pre-emphasis whitens coloured noise
    spectrum = np.fft.rfft(x, 2 * _WINDOW)
    ac = np.fft.irfft(np.abs(spectrum) ** 2)[:_WINDOW]
    if ac[0] <= 1e-9:
        return 0.0
    return float(np.max((ac[_LAGS] / ac[0]) / (_HANN_AC[_LAGS] / _HANN_AC[0])))


class _Resampler:
    """Streaming linear resampler for devices that cannot record at 16 kHz."""

    def __init__(self, from_rate: int) -> None:
        self.step = from_rate / RATE
        self.position = 0.0
        self.last = np.zeros(1, dtype=np.float64)

    def __call__(self, block: np.ndarray) -> np.ndarray:
        if self.step == 1.0:
            return block
        data = np.concatenate([self.last, block.astype(np.float64)])
        positions = np.arange(self.position, len(data) - 1, self.step)
        out = np.interp(positions, np.arange(len(data)), data)
        self.position = (positions[-1] + self.step - (len(data) - 1)) if len(positions) else 0.0
        self.last = data[-1:]
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)


@dataclass(eq=False)
class _Frame:
    samples: np.ndarray
    at: float  # monotonic time of its first sample
    level: float
    voiced: bool
    gated: bool  # the program was audible


class Listener:
    """Turns the microphone into utterances; see the module docstring for the policy."""

    def __init__(
        self,
        settings: Settings,
        *,
        device: str | int | None = None,
        speaker: Speaker | None = None,
        on_utterance: Callable[[Utterance], None] | None = None,
    ) -> None:
        audio = settings.audio
        self._settings = settings
        self.device: Device = resolve_device(
            audio.input_device if device is None else device, "input"
        )
        self.device_rate = supported_rate(self.device, RATE)
        self._speaker = speaker
        self._on_utterance = on_utterance
        self.end_of_utterance = audio.end_of_utterance
        self.early_end_of_utterance = min(audio.early_end_of_utterance, audio.end_of_utterance)
        self.echo_tail = audio.echo_tail
        self.half_duplex = audio.half_duplex
        self.push_to_talk = audio.push_to_talk
        self._utterances: queue.Queue[Utterance] = queue.Queue()
        self._interruptions: queue.Queue[Utterance] = queue.Queue()
        self._blocks: queue.SimpleQueue[tuple[np.ndarray, float] | None] = queue.SimpleQueue()
        self._completion: Callable[[np.ndarray], bool] | None = None
        self._stream: Any = None
        self._thread: threading.Thread | None = None
        self._first_block = threading.Event()
        self._ptt_lock = threading.Lock()
        self._ptt_held = False
        self._ptt_released_at: float | None = None
        self.level_db = 0.0  # loudness of the latest frame, for a level meter
        self.noise_floor_db = _MIN_LEVEL_DB - _ONSET_DB

    # -- public API ---------------------------------------------------------------------------

    def start(self, wait: float = 5.0) -> None:
        """Open the microphone; returns once audio flows (or after ``wait`` seconds)."""
        if self._stream is not None:
            return
        self._thread = threading.Thread(target=self._run, name="listener", daemon=True)
        self._thread.start()
        self._stream = open_input(
            self.device,
            samplerate=self.device_rate,
            dtype="int16",
            blocksize=self.device_rate // 50,
            latency=0.04,
            callback=self._callback,
        )
        self._stream.start()
        self._first_block.wait(wait)

    def stop(self) -> None:
        """Close the microphone; an utterance in progress is dropped."""
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
        if self._thread is not None:
            self._blocks.put(None)
            self._thread.join(timeout=5)
            self._thread = None
        self._first_block.clear()

    def utterances(self) -> queue.Queue[Utterance]:
        """Normal input: what the player said while the program was silent (or push-to-talk)."""
        return self._utterances

    def interruptions(self) -> queue.Queue[Utterance]:
        """Audio heard while the program spoke (half-duplex): check it for stop words only."""
        return self._interruptions

    def set_completion_check(self, check: Callable[[np.ndarray], bool] | None) -> None:
        """``check(audio_so_far)`` -> True when the words already form a complete phrase; then
        a pause of ``early_end_of_utterance`` ends the utterance. Runs on the listener thread."""
        self._completion = check

    def ptt_down(self) -> None:
        """The talk key went down: stop our speech, record until :meth:`ptt_up`."""
        if self._speaker is not None:
            self._speaker.stop()
        with self._ptt_lock:
            self._ptt_held = True
            self._ptt_released_at = None

    def ptt_up(self) -> None:
        """The talk key came up: what was recorded becomes one utterance."""
        with self._ptt_lock:
            if self._ptt_held:
                self._ptt_released_at = time.monotonic()

    def __enter__(self) -> Listener:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- capture --------------------------------------------------------------------------------

    def _callback(self, indata: np.ndarray, frames: int, when: Any, status: Any) -> None:
        """PortAudio's thread: hand the block on with the time its first sample was heard."""
        delay = when.currentTime - when.inputBufferAdcTime
        heard_at = time.monotonic() - (delay if 0 <= delay < 1 else frames / self.device_rate)
        self._blocks.put((indata[:, 0].copy(), heard_at))
        self._first_block.set()

    def _run(self) -> None:
        try:
            self._process()
        except Exception as error:
            print(f"voice-chess: listening stopped: {error}", file=sys.stderr)
            raise

    def _process(self) -> None:
        resampler = _Resampler(self.device_rate)
        pending = np.zeros(0, dtype=np.int16)
        pending_at = 0.0
        history = np.zeros(_WINDOW, dtype=np.int16)
        state = _State(self)
        while True:
            item = self._blocks.get()
            if item is None:
                return
            block, heard_at = item
            block = resampler(block)
            if len(pending) == 0:
                pending_at = heard_at
            pending = np.concatenate([pending, block])
            while len(pending) >= FRAME:
                samples, pending = pending[:FRAME], pending[FRAME:]
                history = np.concatenate([history[FRAME:], samples])
                at = pending_at
                pending_at += _FRAME_SECONDS
                level = frame_level_db(samples)
                self.level_db = level
                gated = (
                    self._speaker is not None
                    and self.half_duplex
                    and self._speaker.busy_between(at, at + _FRAME_SECONDS, self.echo_tail)
                )
                voiced = level > _MIN_LEVEL_DB and voicing(history) > _VOICED
                state.feed(_Frame(samples, at, level, voiced, gated))

    def _deliver(self, utterance: Utterance) -> None:
        if utterance.during_speech:
            self._interruptions.put(utterance)
            return
        self._utterances.put(utterance)
        if self._on_utterance is not None:
            self._on_utterance(utterance)


class _State:
    """The end-pointing state machine, fed one frame at a time on the listener thread."""

    def __init__(self, listener: Listener) -> None:
        self.listener = listener
        self.floor = listener.noise_floor_db
        self.floor_known = False
        self.recent: deque[_Frame] = deque(maxlen=int(_PRE_ROLL / _FRAME_SECONDS) + _ONSET_FRAMES)
        self.speech: list[_Frame] | None = None
        self.last_loud = 0  # index in self.speech of the last loud frame
        self.voiced = 0
        self.lead_frames = 0
        self.checked_for = -1
        self.ended_at = 0.0
        self.ptt: list[_Frame] | None = None

    def feed(self, frame: _Frame) -> None:
        listener = self.listener
        self.recent.append(frame)
        listener.noise_floor_db = self.floor
        if self._push_to_talk(frame):
            return
        if self.speech is None:
            self._adapt_floor(frame)
            self._maybe_start()
        else:
            self._continue(frame)

    # -- push-to-talk -------------------------------------------------------------------------

    def _push_to_talk(self, frame: _Frame) -> bool:
        listener = self.listener
        with listener._ptt_lock:
            held, released = listener._ptt_held, listener._ptt_released_at
        if not held:
            return False
        if self.ptt is None:
            self.speech = None  # a key press overrides voice detection
            keep = int(_PTT_PRE_ROLL / _FRAME_SECONDS)
            self.ptt = list(self.recent)[-keep - 1 : -1] if keep else []
        self.ptt.append(frame)
        if released is not None and frame.at >= released + _PTT_POST_ROLL:
            with listener._ptt_lock:
                listener._ptt_held = False
                listener._ptt_released_at = None
            frames, self.ptt = self.ptt, None
            loud = [f for f in frames if f.level > self.floor + _SUSTAIN_DB]
            if loud:
                audio = np.concatenate([f.samples for f in frames])
                listener._deliver(
                    Utterance(
                        audio=audio,
                        started_at=loud[0].at,
                        ended_at=loud[-1].at + _FRAME_SECONDS,
                        lead=loud[0].at - frames[0].at,
                        push_to_talk=True,
                    )
                )
        return True

    # -- voice activity -----------------------------------------------------------------------

    def _adapt_floor(self, frame: _Frame) -> None:
        if frame.gated:
            return
        if not self.floor_known:
            self.floor, self.floor_known = frame.level, True
            return
        rate = _FLOOR_UP if frame.level > self.floor else _FLOOR_DOWN
        self.floor += rate * (frame.level - self.floor)

    def _loud(self, frame: _Frame, margin: float) -> bool:
        return frame.level > max(self.floor + margin, _MIN_LEVEL_DB)

    def _maybe_start(self) -> None:
        if self.listener.push_to_talk:
            return
        window = [f for f in list(self.recent)[-_ONSET_FRAMES:] if f.at > self.ended_at]
        loud = [f for f in window if self._loud(f, _ONSET_DB)]
        voiced = [f for f in loud if f.voiced]
        if len(loud) < _ONSET_LOUD or len(voiced) < _ONSET_VOICED:
            return
        everything = list(self.recent)
        first = everything.index(loud[0])
        start = max(0, first - int(_PRE_ROLL / _FRAME_SECONDS))
        self.speech = everything[start:]
        self.lead_frames = first - start
        self.voiced = len(voiced)
        self.checked_for = -1
        self.last_loud = len(self.speech) - 1
        while not self._loud(self.speech[self.last_loud], _SUSTAIN_DB):
            self.last_loud -= 1

    def _continue(self, frame: _Frame) -> None:
        assert self.speech is not None
        self.speech.append(frame)
        if self._loud(frame, _SUSTAIN_DB):
            self.last_loud = len(self.speech) - 1
            self.voiced += frame.voiced
        silence = (len(self.speech) - 1 - self.last_loud) * _FRAME_SECONDS
        duration = (len(self.speech) - self.lead_frames) * _FRAME_SECONDS
        gated = any(f.gated for f in self.speech[self.lead_frames :])
        listener = self.listener
        if silence >= listener.end_of_utterance:
            self._end()
        elif gated and duration >= _MAX_INTERRUPTION:
            self._end(forced=True)
        elif duration >= _MAX_UTTERANCE:
            levels = [f.level for f in self.speech[self.lead_frames :]]
            self.floor = float(np.median(levels))  # it was steady noise: learn it
            self._end(forced=True)
        elif (
            listener._completion is not None
            and silence >= listener.early_end_of_utterance
            and self.checked_for != self.last_loud
        ):
            self.checked_for = self.last_loud  # once per pause
            if listener._completion(self._audio(self.speech[: self.last_loud + 1])):
                self._end()

    def _audio(self, frames: list[_Frame]) -> np.ndarray:
        return np.concatenate([f.samples for f in frames])

    def _end(self, forced: bool = False) -> None:
        assert self.speech is not None
        frames = self.speech
        self.speech = None
        last = self.last_loud if not forced else len(frames) - 1
        keep = min(len(frames), last + 1 + int(_POST_ROLL / _FRAME_SECONDS))
        spoken = frames[self.lead_frames : last + 1]
        if not spoken or (self.voiced < _MIN_VOICED and not forced):
            return
        gated = any(f.gated for f in spoken)
        if forced and not gated:
            return  # ten seconds without a pause is not a spoken move
        self.ended_at = frames[last].at  # the next onset is looked for after this
        self.listener._deliver(
            Utterance(
                audio=self._audio(frames[:keep]),
                started_at=spoken[0].at,
                ended_at=spoken[-1].at + _FRAME_SECONDS,
                during_speech=gated,
                lead=spoken[0].at - frames[0].at,
            )
        )
