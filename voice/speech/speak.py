"""Speaking: pyttsx3 renders text into a buffer, sounddevice plays it on the chosen device.

``pyttsx3.say()`` plays through ``aplay``: the program could not know when speech ends, could not
route it to the blind player's earphones and could not stop it. So every announcement is
rendered to samples first (:func:`render`, about 12 ms for a move) and played by an output
stream whose callback knows, to the block, when speech starts and stops. That is what the
half-duplex microphone gate and "Stopp" rely on. The stream closes after a second of silence,
so a new announcement starts on an empty buffer (3 ms instead of ``output_latency``).

Queueing policy (players complained about stale moves being read out): a new announcement
drops whatever is still waiting; ``interrupt=True`` also cuts the one playing at once: the
sound already handed to the device is dropped too, as a screen reader's stop key does.
``append=True`` keeps the queue (several sentences of one announcement). Earcons are never
dropped by a later announcement, only by :meth:`Speaker.stop`.
"""

from __future__ import annotations

import collections
import ctypes
import itertools
import queue
import re
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from voice.config import Settings
from voice.speech.audio import Device, open_output, resample, resolve_device, supported_rate
from voice.speech.earcons import EarconName, earcon

EventKind = Literal["start", "end", "interrupted", "dropped", "error"]

_TTS_RATE = 22050  # the sample rate of espeak-ng's own voices
_MBROLA_RATE = 16000  # MBROLA voices report 22050 Hz but are 16 kHz
_CACHE_SIZE = 128
_SPEAKS = re.compile(r"[^\W\d_]", re.UNICODE)  # text with a letter in it must make a sound
_LINGER = 1.0  # seconds the output stream stays open after the last sound
_SILENCE_LEVEL = 100  # int16 amplitude below which rendered audio counts as silence (-50 dBFS)
_KEEP_BEFORE = 0.005  # seconds of silence kept before the first word
_KEEP_AFTER = 0.04  # and after the last one (the fade of the last sound)


class SpeechError(Exception):
    """Text-to-speech cannot run (no engine, unknown voice)."""


@dataclass(frozen=True)
class SpeechEvent:
    """Something the loudspeaker did; ``at`` is when it is heard (``time.monotonic()``)."""

    kind: EventKind
    text: str
    at: float
    item: int


# -- rendering ------------------------------------------------------------------------------


class _Renderer:
    """The one espeak-ng of the process, owned by one thread, synthesising synchronously.

    pyttsx3's own espeak driver asks espeak-ng for its asynchronous mode: espeak-ng then
    synthesises on a thread of its own and hands the samples to a Python callback there. That
    thread crashed the program at start-up (a segmentation fault in about one start in twelve,
    while the main thread imported other libraries), and the driver writes its file before
    adding the last block of samples, so under load the end of a phrase was lost ("Läufer
    Cesar vier" rendered as "Läufer"). Here the same library, through pyttsx3's binding of it,
    runs in espeak-ng's synchronous mode: ``Synth`` returns when every sample has been handed
    to the callback, on the calling thread, so there is no foreign thread, no file and no
    temporary folder, and nothing is cut short.
    """

    def __init__(self) -> None:
        self._requests: queue.SimpleQueue[tuple[str, str, int, Future[tuple[np.ndarray, int]]]]
        self._requests = queue.SimpleQueue()
        self._cache: collections.OrderedDict[tuple[str, str, int], tuple[np.ndarray, int]]
        self._cache = collections.OrderedDict()
        self._cache_lock = threading.Lock()
        self.voices: list[Any] = []
        self._ready = threading.Event()
        self._failure: Exception | None = None
        self._thread = threading.Thread(target=self._run, name="tts-render", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._failure is not None:
            raise SpeechError(f"text-to-speech cannot start: {self._failure}")

    def _run(self) -> None:
        try:
            espeak, rate = _start_espeak()
            self.voices = _voices(espeak)
        except Exception as error:
            self._failure = error
            self._ready.set()
            return
        self._ready.set()
        blocks: list[bytes] = []

        def collect(wav: Any, count: int, events: Any) -> int:
            if count > 0:
                blocks.append(ctypes.string_at(wav, count * 2))
            return 0  # go on

        espeak.SetSynthCallback(collect)
        while True:
            text, voice, speed, future = self._requests.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                if espeak.SetVoiceByName(voice.encode("utf-8")) != espeak.EE_OK:
                    raise SpeechError(f"espeak-ng has no voice {voice!r}")
                espeak.SetParameter(espeak.RATE, speed, 0)
                blocks.clear()
                status = espeak.Synth(text, flags=espeak.ENDPAUSE | espeak.CHARS_UTF8)
                if status != espeak.EE_OK:
                    raise SpeechError(f"espeak-ng failed with status {status}")
                samples = np.frombuffer(b"".join(blocks), np.int16).copy()
                real_rate = _MBROLA_RATE if voice.startswith("mb") else rate
                future.set_result((samples, real_rate))
            except Exception as error:
                future.set_exception(SpeechError(f"cannot render {text!r}: {error}"))

    def voice_for(self, wanted: str, language: str) -> str:
        """The engine's voice id for a configured name (or the language's default voice)."""
        ids = {str(v.id): v for v in self.voices}
        if wanted:
            base, _, variant = wanted.partition("+")
            for v in self.voices:
                names = {str(v.id).lower(), str(v.name).lower(), str(v.id).split("/")[-1].lower()}
                if base.lower() in names:
                    return str(v.id) + (f"+{variant}" if variant else "")
            known = ", ".join(sorted(str(v.id).split("/")[-1] for v in self.voices)[:40])
            raise SpeechError(f"[speech] voice = {wanted!r} is not installed; some voices: {known}")
        # espeak-ng's "gmw/en" speaks British English but lists "en-gb"; by language alone
        # "en" would find the Caribbean voice first. The voice named after the language wins.
        for v in self.voices:
            if str(v.id).split("/")[-1].lower() == language:
                return str(v.id)
        for v in self.voices:
            if [str(x).lower() for x in v.languages][:1] == [language]:
                return str(v.id)
        for v in self.voices:
            if any(str(x).lower().startswith(language) for x in v.languages):
                return str(v.id)
        if ids:
            return next(iter(ids))
        raise SpeechError("no text-to-speech voice is installed (Debian: espeak-ng)")

    def render(self, text: str, voice: str, rate: int) -> tuple[np.ndarray, int]:
        key = (text, voice, rate)
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        future: Future[tuple[np.ndarray, int]] = Future()
        self._requests.put((text, voice, rate, future))
        samples, real_rate = future.result(timeout=30)
        samples = trim_silence(samples, real_rate)
        # Silence where words were meant must never reach the player, nor the cache.
        if not len(samples) and _SPEAKS.search(text):
            raise SpeechError(f"text-to-speech produced no sound for {text!r}")
        samples.flags.writeable = False
        with self._cache_lock:
            self._cache[key] = (samples, real_rate)
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        return samples, real_rate


def _start_espeak() -> tuple[Any, int]:
    """pyttsx3's ctypes binding of espeak-ng, initialised once for synchronous synthesis.

    espeak-ng can be initialised only once per process; pyttsx3's ``init()`` would initialise
    it in the asynchronous mode, so the program never calls it. Returns the binding and the
    sample rate of espeak-ng's voices.
    """
    from pyttsx3.drivers import _espeak as espeak

    rate = int(espeak.Initialize(espeak.AUDIO_OUTPUT_SYNCHRONOUS, 0))
    if rate <= 0:
        raise SpeechError("espeak-ng could not start")
    return espeak, rate


def _voices(espeak: Any) -> list[Any]:
    """espeak-ng's voices as pyttsx3 lists them (``pyttsx3.voice.Voice``: id, name, languages)."""
    from pyttsx3.voice import Voice

    voices = []
    for v in espeak.ListVoices(None):
        languages = [v.languages[1:].decode("utf-8", errors="ignore")] if v.languages else []
        identifier = v.identifier.decode("utf-8").lower()
        name = v.name.decode("utf-8", errors="replace")
        voices.append(Voice(id=identifier, name=name, languages=languages))
    return voices


def trim_silence(samples: np.ndarray, rate: int) -> np.ndarray:
    """Cut espeak-ng's silence around the words (about 0.4 s at the end).

    That silence would keep the half-duplex microphone gate closed and delay the "end" event
    while nothing is heard; a player answering a question at once would not be listened to.
    """
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > _SILENCE_LEVEL)
    if len(loud) == 0:
        return samples[:0]
    first = max(0, int(loud[0]) - int(_KEEP_BEFORE * rate))
    last = min(len(samples), int(loud[-1]) + 1 + int(_KEEP_AFTER * rate))
    return samples[first:last]


_renderer: _Renderer | None = None
_renderer_lock = threading.Lock()


def _the_renderer() -> _Renderer:
    global _renderer
    with _renderer_lock:
        if _renderer is None:
            _renderer = _Renderer()
        return _renderer


def render(
    text: str, settings: Settings, *, voice: str | None = None, language: str | None = None
) -> tuple[np.ndarray, int]:
    """``text`` spoken with the configured voice, rate and volume: int16 mono samples, rate."""
    renderer = _the_renderer()
    speech = settings.speech
    language = language or settings.language.blind
    voice_id = renderer.voice_for(speech.voice if voice is None else voice, language)
    samples, rate = renderer.render(digits_as_words(text, language), voice_id, speech.rate)
    if speech.volume < 1.0:
        samples = (samples.astype(np.float32) * speech.volume).astype(np.int16)
    return samples, rate


def digits_as_words(text: str, language: str) -> str:
    """Digits written out where espeak-ng's voice would say nothing for them: its Hebrew voice
    skips "5" and "8765" (a move number, a port) silently. Other languages read digits."""
    if language != "he":
        return text
    from voice.words import numbers_he

    def words(found: re.Match[str]) -> str:
        digits = found.group()
        if len(digits) > 6:  # a long run (a date in a file name): digit by digit
            return " ".join(numbers_he.number(int(d)) for d in digits)
        return numbers_he.number(int(digits))

    return re.sub(r"\d+", words, text)


# -- playing --------------------------------------------------------------------------------


@dataclass
class _Item:
    """One queued announcement or earcon."""

    id: int
    text: str
    generation: int
    earcon: EarconName | None = None
    samples: np.ndarray | None = None
    position: int = 0
    abort: bool = False
    done: threading.Event = field(default_factory=threading.Event)


class Speaker:
    """Says things on the configured output device, one at a time, interruptibly.

    Thread-safe; :meth:`say`, :meth:`earcon` and :meth:`stop` return at once. Events (start, end,
    interrupted, dropped, error) reach every queue from :meth:`subscribe` and the ``on_event``
    callback, on a thread of their own, when they are heard (``end`` is sent when the last sample
    has left the loudspeaker, not when it was handed to the device).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        device: str | int | None = None,
        on_event: Callable[[SpeechEvent], None] | None = None,
        language: str | None = None,
    ) -> None:
        self._settings = settings
        # Whose voice speaks when [speech] voice is empty: the blind player's language (a
        # --language option or a resumed game's may differ from the settings file's).
        self.language = language or settings.language.blind
        spec = settings.audio.output_device if device is None else device
        self.device: Device = resolve_device(spec, "output")
        self.rate = supported_rate(self.device, _TTS_RATE)
        # Start the engine and check the voice now: a wrong [speech] voice is a start-up error,
        # not silence later.
        _the_renderer().voice_for(settings.speech.voice, self.language)
        self._on_event = on_event
        self._lock = threading.Condition()
        self._pending: collections.deque[_Item] = collections.deque()
        self._current: _Item | None = None
        self._rendering: _Item | None = None  # taken from the queue, not yet playing
        self._generation = 0
        self._ids = itertools.count(1)
        self._audible_until = 0.0
        self._intervals: collections.deque[tuple[float, float | None]] = collections.deque(
            maxlen=64
        )
        self._subscribers: list[queue.SimpleQueue[SpeechEvent]] = []
        self._events: queue.SimpleQueue[SpeechEvent | None] = queue.SimpleQueue()
        self._closed = False
        self._wake = threading.Event()
        self._stream: Any = None
        self._worker = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._dispatcher = threading.Thread(target=self._dispatch, name="speaker-events")
        self._dispatcher.daemon = True
        self._worker.start()
        self._dispatcher.start()

    # -- public API -----------------------------------------------------------------------------

    def say(self, text: str, *, interrupt: bool = True, append: bool = False) -> int:
        """Queue ``text``; returns its item number (events carry it)."""
        text = text.strip()
        with self._lock:
            if not append:
                self._drop_pending(keep_earcons=True)
                self._generation += 1
                if interrupt and self._current is not None and self._current.earcon is None:
                    self._current.abort = True
                    self._wake.set()
            item = _Item(id=next(self._ids), text=text, generation=self._generation)
            if text:
                self._pending.append(item)
            self._lock.notify_all()
        return item.id

    def earcon(self, name: EarconName) -> int:
        """Queue a short sound (no-op when ``[speech] earcons`` is off)."""
        with self._lock:
            item = _Item(
                id=next(self._ids), text=f"<{name}>", generation=self._generation, earcon=name
            )
            if self._settings.speech.earcons:
                self._pending.append(item)
                self._lock.notify_all()
        return item.id

    def stop(self) -> None:
        """Silence now: cut what plays and forget everything queued."""
        with self._lock:
            self._drop_pending(keep_earcons=False)
            self._generation += 1
            if self._current is not None:
                self._current.abort = True
                self._wake.set()
            self._lock.notify_all()

    @property
    def speaking(self) -> bool:
        """True while sound of ours is coming out of the loudspeaker."""
        with self._lock:
            return self._current is not None or time.monotonic() < self._audible_until

    def busy_between(self, start: float, end: float, tail: float = 0.0) -> bool:
        """Whether we were (or are) audible at any time in [start, end] (monotonic seconds);
        each interval is extended by ``tail`` for the room's echo and device delays."""
        with self._lock:
            intervals = list(self._intervals)
        for began, ended in intervals:
            stop = (time.monotonic() + 3600 if ended is None else ended) + tail
            if began <= end and start <= stop:
                return True
        return False

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until nothing is queued or playing; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._pending or self._rendering is not None or self._current is not None:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._lock.wait(remaining if remaining is not None else 0.1)
            tail = self._audible_until - time.monotonic()
        if tail > 0:
            if deadline is not None and time.monotonic() + tail > deadline:
                return False
            time.sleep(tail)
        return True

    def subscribe(self) -> queue.SimpleQueue[SpeechEvent]:
        """A queue that receives every event from now on."""
        events: queue.SimpleQueue[SpeechEvent] = queue.SimpleQueue()
        with self._lock:
            self._subscribers.append(events)
        return events

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._drop_pending(keep_earcons=False)
            if self._current is not None:
                self._current.abort = True
            self._wake.set()
            self._lock.notify_all()
        self._worker.join(timeout=2)
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
        self._events.put(None)
        self._dispatcher.join(timeout=2)

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------------------

    def _drop_pending(self, *, keep_earcons: bool) -> None:
        kept: collections.deque[_Item] = collections.deque()
        for item in self._pending:
            if keep_earcons and item.earcon is not None:
                kept.append(item)
            else:
                self._emit("dropped", item, time.monotonic())
        self._pending = kept

    def _emit(self, kind: EventKind, item: _Item, at: float) -> None:
        self._events.put(SpeechEvent(kind=kind, text=item.text, at=at, item=item.id))

    def _dispatch(self) -> None:
        while True:
            event = self._events.get()
            if event is None:
                return
            if event.kind in ("end", "interrupted"):
                delay = event.at - time.monotonic()
                if 0 < delay < 2:
                    time.sleep(delay)
            with self._lock:
                subscribers = list(self._subscribers)
            for subscriber in subscribers:
                subscriber.put(event)
            if self._on_event is not None:
                try:
                    self._on_event(event)
                except Exception as error:
                    print(f"voice-chess: speech event handler failed: {error}", file=sys.stderr)

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._closed:
                    if not self._lock.wait(_LINGER) and self._current is None:
                        self._close_stream()
                if self._closed:
                    return
                # Seen by wait_idle while it is rendered: the last sentence before the end
                # ("the game is saved") was otherwise lost when the program closed meanwhile.
                item = self._rendering = self._pending.popleft()
            try:
                samples = self._samples(item)
                self._ensure_stream()
            except Exception as error:
                print(f"voice-chess: cannot speak {item.text!r}: {error}", file=sys.stderr)
                self._emit("error", item, time.monotonic())
                self._rendered()
                continue
            with self._lock:
                self._rendering = None
                stale = item.earcon is None and item.generation != self._generation
                if stale or self._closed:
                    self._emit("dropped", item, time.monotonic())
                    self._lock.notify_all()
                    continue
                item.samples = samples
                self._current = item
            while True:  # woken by the callback at the end, or by stop()/say() to cut
                self._wake.wait()
                self._wake.clear()
                if item.done.is_set():
                    break
                if item.abort:
                    self._cut(item)
                    break

    def _rendered(self) -> None:
        with self._lock:
            self._rendering = None
            self._lock.notify_all()

    def _samples(self, item: _Item) -> np.ndarray:
        volume = self._settings.speech.volume
        if item.earcon is not None:
            return earcon(item.earcon, self.rate, volume)
        samples, rate = render(item.text, self._settings, language=self.language)
        return np.asarray(resample(samples, rate, self.rate), dtype=np.int16)

    def _cut(self, item: _Item) -> None:
        """Abort the stream: PortAudio drops what is buffered, so silence is immediate."""
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.abort()
            stream.close()
        at = time.monotonic()
        with self._lock:
            if not item.done.is_set():
                if item.position > 0:
                    self._emit("interrupted", item, at)
                    if self._intervals and self._intervals[-1][1] is None:
                        began = self._intervals[-1][0]
                        self._intervals[-1] = (began, max(began, at))
                    self._audible_until = at
                else:
                    self._emit("dropped", item, at)
                self._current = None
                item.done.set()
            self._lock.notify_all()

    def _close_stream(self) -> None:
        """Idle: close the stream, so the next announcement starts on an empty buffer (an open
        stream holds ``output_latency`` of silence ahead of anything new)."""
        if self._stream is not None and time.monotonic() >= self._audible_until:
            self._stream.stop()
            self._stream.close()
            self._stream = None

    def _ensure_stream(self) -> None:
        if self._stream is not None and self._stream.active:
            return
        if self._stream is not None:
            self._stream.close()
        self._stream = open_output(
            self.device,
            samplerate=self.rate,
            dtype="int16",
            blocksize=self.rate // 100,
            latency=self._settings.audio.output_latency,
            callback=self._callback,
        )
        self._stream.start()

    def _callback(self, outdata: np.ndarray, frames: int, when: Any, status: Any) -> None:
        """PortAudio's thread: copy the current item's next block, note start and end times."""
        out = outdata[:, 0]
        out.fill(0)
        item = self._current
        if item is None or item.samples is None:
            return
        delay = when.outputBufferDacTime - when.currentTime
        fallback = self._settings.audio.output_latency
        heard_at = time.monotonic() + (delay if 0 <= delay < 1 else fallback)
        samples = item.samples
        if item.position == 0 and not item.abort:
            self._emit("start", item, heard_at)
            with self._lock:
                self._intervals.append((heard_at, None))
        if item.abort:
            return  # silence until the worker aborts the stream (see _cut)
        chunk = samples[item.position : item.position + frames]
        out[: len(chunk)] = chunk
        item.position += len(chunk)
        if item.position >= len(samples):
            self._finish(item, "end", heard_at + len(chunk) / self.rate)

    def _finish(self, item: _Item, kind: EventKind, at: float) -> None:
        with self._lock:
            if item.position > 0 or kind == "end":
                self._emit(kind, item, at)
                if self._intervals and self._intervals[-1][1] is None:
                    self._intervals[-1] = (self._intervals[-1][0], at)
                self._audible_until = max(self._audible_until, at)
            else:
                self._emit("dropped", item, at)
            self._current = None
            item.done.set()
            self._wake.set()
            self._lock.notify_all()
