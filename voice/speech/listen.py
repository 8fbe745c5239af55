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
:class:`EndPointer` does all this without a device, so files can be cut the same way.

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

from voice.config import Settings
from voice.speech.audio import Device, open_input, resolve_device, supported_rate

if TYPE_CHECKING:
    from voice.speech.speak import Speaker

RATE = 16000  # what both recognisers want
FRAME = 320  # 20 ms
_WINDOW = 800  # 50 ms analysis window for voicing
_FRAME_SECONDS = FRAME / RATE

# Voice-activity constants (dB are of int16 mean square; 0 dB = one LSB RMS).
_MIN_LEVEL_DB = 35.0  # below this nothing is speech (about -55 dBFS)
_ONSET_DB = 10.0  # above the noise floor: a loud frame that may start an utterance (see below)
_SUSTAIN_DB = 8.0  # above the noise floor: a frame that keeps an utterance going
# _ONSET_DB was 12 dB: in steady pink noise at 5 dB SNR (over the words and a 3 s pause, the
# room noisy for 12 s before) 18 of 40 moves by the tuning voices never started an utterance;
# with 10 dB, 5 (9 dB: 1, but babble then swallowed more moves: 26 lost instead of 21). Steady
# noise still starts nothing: it is not voiced (tests/test_listen.py, tests/test_endpointer.py).
_VOICED = 0.4  # voicing score of a voiced frame
_ONSET_FRAMES = 10  # window (200 ms) in which the onset is decided
_ONSET_LOUD = 6  # loud frames needed in that window
_ONSET_VOICED = 2  # voiced loud frames needed in that window
_MIN_VOICED = 2  # fewer voiced frames in the whole utterance: a cough or a knock, dropped
_STILL_FRAMES = 3  # a short pause ends an utterance only when these last frames are quiet
PRE_ROLL = 0.25
"""Seconds kept before the onset (soft first consonants), unless the recogniser asks more
(:attr:`voice.speech.recognizers.Recognizer.pre_roll_s`)."""
_POST_ROLL = 0.15  # seconds kept after the last loud frame
_SOFT_POST_ROLL = 0.25  # ... when the words fade into the room's noise (see _post_roll)
_BELOW_PEAK_DB = 15.0  # a frame this far below the utterance's loudest is a pause (see _continue)
_ECHO_GAP = 0.5  # seconds: an utterance begun this soon after the last words ...
_ECHO_BELOW_DB = 12.0  # ... and this far below their loudest is the room's echo of them
_MAX_UTTERANCE = 10.0  # seconds; longer is noise that fooled the detector, the floor adapts
_MAX_INTERRUPTION = 2.0  # seconds: utterances during our own speech are cut this short
PTT_PRE_ROLL = 0.1  # keys are pressed a little after the first sound
PTT_POST_ROLL = 0.15  # and released a little before the last one
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
        out: np.ndarray = np.interp(positions, np.arange(len(data)), data)
        self.position = (positions[-1] + self.step - (len(data) - 1)) if len(positions) else 0.0
        self.last = data[-1:]
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)


@dataclass(eq=False)
class _Frame:
    samples: np.ndarray
    at: float  # monotonic time of its first sample
    level: float
    voiced: bool
    gated: bool  # the program was audible, or its echo may still be (``echo_tail``)
    speaking: bool = False  # the program itself was audible (the echo tail not counted)


class EndPointer:
    """Voice-activity detection and end-pointing, with no device and no thread.

    Feed 16 kHz int16 audio with the time of its first sample (:meth:`push`); complete
    utterances come back. The :class:`Listener` feeds it from the microphone; tests and the
    ASR benchmark can feed it from files. ``gated`` marks audio heard while the program spoke.
    """

    def __init__(
        self,
        *,
        end_of_utterance: float = 0.6,
        early_end_of_utterance: float = 0.25,
        completion: Callable[[np.ndarray], bool] | None = None,
        pre_roll: float = PRE_ROLL,
    ) -> None:
        self.end_of_utterance = end_of_utterance
        self.early_end_of_utterance = min(early_end_of_utterance, end_of_utterance)
        self.completion = completion
        self.noise_floor_db = 0.0
        self.level_db = 0.0  # loudness of the latest frame, for a level meter
        self._floor_known = False
        self._pending = np.zeros(0, dtype=np.int16)
        self._pending_at = 0.0
        self._history = np.zeros(_WINDOW, dtype=np.int16)
        self.pre_roll = pre_roll
        self.recent: deque[_Frame] = deque(maxlen=int(pre_roll / _FRAME_SECONDS) + _ONSET_FRAMES)
        self._speech: list[_Frame] | None = None
        self._last_loud = 0  # index in _speech of the last loud frame
        self._voiced = 0
        self._lead_frames = 0
        self._checked_for = -1
        self._complete_at = -1  # the last loud frame after which the words made a phrase
        self._ended_at = float("-inf")
        self._kept_until = float("-inf")  # the last frame of the previous utterance's audio
        self._peak = 0.0  # the utterance's loudest level (the median of three frames)
        self._last_words = (float("-inf"), 0.0)  # the last delivered words: end, loudest
        self._quiet_after_voice = True  # a quiet frame came since our voice was last audible
        self._after_quiet = True  # ... before the onset of the utterance in progress

    @property
    def in_utterance(self) -> bool:
        return self._speech is not None

    def push(self, samples: np.ndarray, at: float, gated: bool = False) -> list[Utterance]:
        """Audio of any length starting at monotonic time ``at``; returns finished utterances."""
        if len(self._pending) == 0:
            self._pending_at = at
        self._pending = np.concatenate([self._pending, np.asarray(samples, dtype=np.int16)])
        done: list[Utterance] = []
        while len(self._pending) >= FRAME:
            frame, self._pending = self._pending[:FRAME], self._pending[FRAME:]
            found = self.push_frame(self.frame(frame, self._pending_at, gated))
            self._pending_at += _FRAME_SECONDS
            if found is not None:
                done.append(found)
        return done

    def finish(self) -> list[Utterance]:
        """The input ended: close an utterance in progress as if silence followed."""
        done: list[Utterance] = []
        at = self._pending_at
        for _ in range(int(self.end_of_utterance / _FRAME_SECONDS) + 1):
            if self._speech is None:
                break
            found = self.push_frame(self.frame(np.zeros(FRAME, np.int16), at, False))
            at += _FRAME_SECONDS
            if found is not None:
                done.append(found)
        return done

    def frame(
        self, samples: np.ndarray, at: float, gated: bool, speaking: bool | None = None
    ) -> _Frame:
        """Measure one 20 ms frame (keeps the 50 ms history voicing needs). ``gated``: the
        program was audible or in its echo tail; ``speaking``: audible itself (default: as
        ``gated``)."""
        self._history = np.concatenate([self._history[FRAME:], samples])
        level = frame_level_db(samples)
        self.level_db = level
        voiced = level > _MIN_LEVEL_DB and voicing(self._history) > _VOICED
        return _Frame(samples, at, level, voiced, gated, gated if speaking is None else speaking)

    def push_frame(self, frame: _Frame) -> Utterance | None:
        self.recent.append(frame)
        if frame.speaking:
            self._quiet_after_voice = False
        elif not self.loud(frame):
            self._quiet_after_voice = True
        if self._speech is None:
            self._adapt_floor(frame)
            self._maybe_start()
            return None
        return self._continue(frame)

    def set_pre_roll(self, seconds: float) -> None:
        """Keep ``seconds`` before each onset from now on (the recogniser's choice)."""
        self.pre_roll = seconds
        frames = int(seconds / _FRAME_SECONDS) + _ONSET_FRAMES
        self.recent = deque(self.recent, maxlen=frames)

    def abandon(self) -> None:
        """Forget an utterance in progress (push-to-talk took over)."""
        self._speech = None

    def loud(self, frame: _Frame, margin: float = _SUSTAIN_DB) -> bool:
        return frame.level > max(self.noise_floor_db + margin, _MIN_LEVEL_DB)

    # -- internals ----------------------------------------------------------------------------

    def _adapt_floor(self, frame: _Frame) -> None:
        if frame.gated:
            return  # our own voice is not the room's noise
        if not self._floor_known:
            self.noise_floor_db, self._floor_known = frame.level, True
            return
        rate = _FLOOR_UP if frame.level > self.noise_floor_db else _FLOOR_DOWN
        self.noise_floor_db += rate * (frame.level - self.noise_floor_db)

    def _maybe_start(self) -> None:
        window = [f for f in list(self.recent)[-_ONSET_FRAMES:] if f.at > self._ended_at]
        loud = [f for f in window if self.loud(f, _ONSET_DB)]
        voiced = [f for f in loud if f.voiced]
        if len(loud) < _ONSET_LOUD or len(voiced) < _ONSET_VOICED:
            return
        everything = list(self.recent)
        first = everything.index(loud[0])
        start = max(0, first - int(self.pre_roll / _FRAME_SECONDS))
        # Never reach back into the audio the previous utterance carried: its last words
        # heard again at the start of this one would be a second, shorter phrase.
        while start < first and everything[start].at <= self._kept_until:
            start += 1
        self._speech = everything[start:]
        self._after_quiet = self._quiet_after_voice
        self._lead_frames = first - start
        self._voiced = len(voiced)
        self._checked_for = -1
        self._complete_at = -1
        self._peak = 0.0
        for index in range(len(self._speech)):
            self._raise_peak(index)
        self._last_loud = len(self._speech) - 1
        while not self._sustains(self._speech[self._last_loud]):
            self._last_loud -= 1

    def _continue(self, frame: _Frame) -> Utterance | None:
        speech = self._speech
        assert speech is not None
        if speech[-1].speaking and not frame.speaking and not self.loud(frame):
            # Our voice has stopped and the room is quiet: what the microphone heard of it (a
            # loudspeaker) ends here, so that an answer said at once starts an utterance of
            # its own. Not while it is still loud: our voice may go on after the device's
            # estimate of its end, or the player may be saying "Stopp" across a pause.
            return self._end(forced=True)
        speech.append(frame)
        self._raise_peak(len(speech) - 1)
        if self._sustains(frame):
            self._last_loud = len(speech) - 1
            self._voiced += frame.voiced
        silence = (len(speech) - 1 - self._last_loud) * _FRAME_SECONDS
        duration = (len(speech) - self._lead_frames) * _FRAME_SECONDS
        gated = any(f.speaking for f in speech[self._lead_frames :])  # said over our voice
        if silence >= self.end_of_utterance:
            return self._end()
        if gated and duration >= _MAX_INTERRUPTION:
            return self._end(forced=True)
        if duration >= _MAX_UTTERANCE:
            levels = [f.level for f in speech[self._lead_frames :]]
            self.noise_floor_db = float(np.median(levels))  # it was steady noise: learn it
            return self._end(forced=True)
        # The completion check starts as soon as the post-roll is in (before the early pause
        # is over), so the recogniser works while the pause runs; it is handed exactly the
        # audio the utterance will carry, and keeps its answer for it.
        if (
            self.completion is not None
            and self._checked_for != self._last_loud
            and silence >= min(self._post_roll(self._last_loud), self.early_end_of_utterance)
        ):
            self._checked_for = self._last_loud  # once per pause
            if self.completion(_join(speech[: self._keep(self._last_loud, len(speech))])):
                self._complete_at = self._last_loud
        if (
            self._complete_at == self._last_loud
            and silence >= self.early_end_of_utterance
            and (gated or not self._sounding(speech))
        ):
            return self._end()
        return None

    def _sounding(self, speech: list[_Frame]) -> bool:
        """Whether the latest frames are still loud above the room's floor (loud enough to
        start an utterance), though far below the loudest (the peak rule counts them as a
        pause): the words may go on. A short pause must not end the utterance in the middle of
        a word: SVOX Pico's "Springer Felix drei" has 0.28 s of "dr" 20-40 dB below its loudest
        vowel, the completion check heard "… Felix dr" as the whole phrase, the utterance
        ended there, and the rest of "drei" came as a second utterance, "felix drei" (a pawn
        move) at 0.84. In a hall the reverberation between words holds the utterance open
        until the full pause (a reviewer measured 0.34 s more per move there); ending at the
        first short pause instead, as a rule that waited only for sound coming back did, cut
        "Dame David | zwei" and played "Dame David eins" on the report voices (docs/speech.md
        §4c). Speech over our own voice, which only looks for "Stopp", is not held."""
        return any(self.loud(f, _ONSET_DB) for f in speech[-_STILL_FRAMES:])

    def _raise_peak(self, index: int) -> None:
        speech = self._speech
        assert speech is not None
        if index >= 2:
            levels = sorted(f.level for f in speech[index - 2 : index + 1])
            self._peak = max(self._peak, levels[1])

    def _sustains(self, frame: _Frame) -> bool:
        """Whether ``frame`` keeps the utterance going: loud above the room's noise floor, and
        not far below the loudest of the utterance. The second test is for babble: other
        people talking on after the player's words are loud and voiced, so by the floor alone
        the utterance would go on until they stop (measured, tuning voices in babble at 10 dB
        that began before the words: 21 of 40 moves not answered within 3 s); a player's own
        words stay within about 15 dB of their loudest vowel, the talkers further off do not."""
        return self.loud(frame) and frame.level > self._peak - _BELOW_PEAK_DB

    def _post_roll(self, last: int) -> float:
        """Seconds of audio kept after the last loud frame ``last``: longer when the frames
        after it are still above the room's floor (a soft last sound, "sechs", that fell more
        than :data:`_BELOW_PEAK_DB` below the loudest vowel while noise went on): tuning voices,
        clean, 40 moves: 31 right with the short post-roll, 32 (as before the peak rule) with
        the longer. Decided by the first :data:`_POST_ROLL` after ``last``, so that the
        completion check and the utterance carry the same audio."""
        speech = self._speech
        assert speech is not None
        after = speech[last + 1 : last + 1 + int(_POST_ROLL / _FRAME_SECONDS)]
        return _SOFT_POST_ROLL if any(self.loud(f) for f in after) else _POST_ROLL

    def _keep(self, last: int, available: int) -> int:
        """How many frames an utterance ending at frame ``last`` keeps (a short post-roll)."""
        return min(available, last + 1 + round(self._post_roll(last) / _FRAME_SECONDS))

    def _end(self, forced: bool = False) -> Utterance | None:
        frames = self._speech
        assert frames is not None
        last = self._last_loud if not forced else len(frames) - 1
        keep = self._keep(last, len(frames))
        self._speech = None
        spoken = frames[self._lead_frames : last + 1]
        self._ended_at = frames[last].at  # the next onset is looked for after this
        self._kept_until = frames[keep - 1].at
        if not spoken or (self._voiced < _MIN_VOICED and not forced):
            return None  # a cough, a knock
        gated = _over_our_voice(spoken, self.loud, after_quiet=self._after_quiet)
        if forced and not gated:
            return None  # ten seconds without a pause is not a spoken move
        if not gated:
            ended, loudest = self._last_words
            if spoken[0].at - ended < _ECHO_GAP and self._peak < loudest - _ECHO_BELOW_DB:
                # A hall's echo of the words just delivered (they ended at a short pause):
                # heard as a word of its own ("Läufer"), it was answered "Nicht verstanden"
                # (a player's trial: 7 of 58 utterances in the hall).
                return None
            self._last_words = (spoken[-1].at + _FRAME_SECONDS, self._peak)
        return Utterance(
            audio=_join(frames[:keep]),
            started_at=spoken[0].at,
            ended_at=spoken[-1].at + _FRAME_SECONDS,
            during_speech=gated,
            lead=spoken[0].at - frames[0].at,
        )


def _over_our_voice(
    spoken: list[_Frame], loud: Callable[[_Frame], bool], *, after_quiet: bool = True
) -> bool:
    """Whether words were said over the program's voice or are its echo: some of them
    while it was audible, or all of them within its echo tail. Words that begin once it was
    silent and go on past the tail are the player's, however quickly they follow: a "ja"
    said 0.05-0.25 s after "Eva vier?" was taken for the echo and dropped without a word, and
    the player waited for an answer that never came (a player's trial; 9 of 9 were answered
    from 0.35 s on). The echo of a loudspeaker fades within the tail; it starts no words that
    go on after it."""
    if any(f.speaking for f in spoken):
        return True
    if not any(f.gated for f in spoken):
        return False
    # Begun within the tail: the player's only after a quiet moment once our voice stopped
    # (sound that never fell quiet is our voice going on past the device's estimate of its
    # end, or its echo) and going on past the tail.
    return not after_quiet or not any(loud(f) for f in spoken if not f.gated)


def _join(frames: list[_Frame]) -> np.ndarray:
    return np.concatenate([f.samples for f in frames])


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
        self.echo_tail = audio.echo_tail
        self.half_duplex = audio.half_duplex
        self.push_to_talk = audio.push_to_talk
        self.endpointer = EndPointer(
            end_of_utterance=audio.end_of_utterance,
            early_end_of_utterance=audio.early_end_of_utterance,
        )
        self._utterances: queue.Queue[Utterance] = queue.Queue()
        self._interruptions: queue.Queue[Utterance] = queue.Queue()
        self._blocks: queue.SimpleQueue[tuple[np.ndarray, float] | None] = queue.SimpleQueue()
        self._stream: Any = None
        self._thread: threading.Thread | None = None
        self._first_block = threading.Event()
        self._ptt_lock = threading.Lock()
        self._ptt_held = False
        self._ptt_released_at: float | None = None
        self._ptt_frames: list[_Frame] | None = None
        self.error: Exception | None = None  # why listening stopped, if it did

    # -- public API ---------------------------------------------------------------------------

    @property
    def noise_floor_db(self) -> float:
        return self.endpointer.noise_floor_db

    @property
    def level_db(self) -> float:
        return self.endpointer.level_db

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
        self.endpointer.completion = check

    def ptt_down(self) -> None:
        """The talk key went down: stop our speech, record until :meth:`ptt_up`."""
        if self._speaker is not None:
            self._speaker.stop()
        with self._ptt_lock:
            self._ptt_held = True
            self._ptt_released_at = None

    @property
    def talking(self) -> bool:
        """The talk key is down (or, for a key that toggles, was pressed once)."""
        with self._ptt_lock:
            return self._ptt_held and self._ptt_released_at is None

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
            self.error = error
            print(f"voice-chess: listening stopped: {error}", file=sys.stderr)
            raise

    def _process(self) -> None:
        resampler = _Resampler(self.device_rate)
        pending = np.zeros(0, dtype=np.int16)
        pending_at = 0.0
        while True:
            item = self._blocks.get()
            if item is None:
                return
            block, heard_at = item
            if len(pending) == 0:
                pending_at = heard_at
            pending = np.concatenate([pending, resampler(block)])
            while len(pending) >= FRAME:
                samples, pending = pending[:FRAME], pending[FRAME:]
                at = pending_at
                pending_at += _FRAME_SECONDS
                gated = (
                    self._speaker is not None
                    and self.half_duplex
                    and self._speaker.busy_between(at, at + _FRAME_SECONDS, self.echo_tail)
                )
                speaking = (
                    gated
                    and self._speaker is not None
                    and self._speaker.busy_between(at, at + _FRAME_SECONDS)
                )
                frame = self.endpointer.frame(samples, at, gated, speaking)
                if self._push_to_talk(frame):
                    continue
                if self.push_to_talk:
                    self.endpointer.recent.append(frame)  # pre-roll for the next key press
                    continue
                utterance = self.endpointer.push_frame(frame)
                if utterance is not None:
                    self._deliver(utterance)

    def _push_to_talk(self, frame: _Frame) -> bool:
        """While the talk key is held (and shortly after), frames belong to its utterance."""
        with self._ptt_lock:
            held, released = self._ptt_held, self._ptt_released_at
        if not held:
            return False
        if self._ptt_frames is None:
            self.endpointer.abandon()  # a key press overrides voice detection
            keep = int(PTT_PRE_ROLL / _FRAME_SECONDS)
            self._ptt_frames = list(self.endpointer.recent)[-keep:] if keep else []
        self._ptt_frames.append(frame)
        if released is None and len(self._ptt_frames) * _FRAME_SECONDS >= _MAX_UTTERANCE:
            released = frame.at - PTT_POST_ROLL  # pressed once and forgotten: end it here
        if released is None or frame.at < released + PTT_POST_ROLL:
            return True
        with self._ptt_lock:
            self._ptt_held = False
            self._ptt_released_at = None
        frames, self._ptt_frames = self._ptt_frames, None
        loud = [f for f in frames if self.endpointer.loud(f)]
        if loud:
            self._deliver(
                Utterance(
                    audio=_join(frames),
                    started_at=loud[0].at,
                    ended_at=loud[-1].at + _FRAME_SECONDS,
                    lead=loud[0].at - frames[0].at,
                    push_to_talk=True,
                )
            )
        return True

    def _deliver(self, utterance: Utterance) -> None:
        if utterance.during_speech:
            self._interruptions.put(utterance)
            return
        self._utterances.put(utterance)
        if self._on_utterance is not None:
            self._on_utterance(utterance)
