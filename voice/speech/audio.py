"""Audio devices: find the microphone and the speaker the settings name, open streams on them.

A device is named in the settings (``[audio] input_device`` / ``output_device``) as ``""`` (the
system default), a number (PortAudio's device index, as ``voice-chess devices`` lists it) or a
part of its name. On Linux, PortAudio sees PulseAudio/PipeWire only as the ALSA devices ``pulse``
and ``default``; a name that matches no PortAudio device but a PulseAudio sink or source (for
example the player's earphones) is opened through ``pulse`` with ``PULSE_SINK``/``PULSE_SOURCE``
set while the stream opens, so private information can go to one pair of earphones.

Errors say what was looked for, what exists and which setting to change, because a blind player
cannot see a device dialog.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TypedDict

if TYPE_CHECKING:
    import numpy as np
    import sounddevice

Kind = Literal["input", "output"]

# The PortAudio device through which PulseAudio sinks and sources are reached by name.
_PULSE_BRIDGE = "pulse"
# PULSE_SINK / PULSE_SOURCE are process-wide: opening a routed stream holds this lock.
_ROUTING_LOCK = threading.Lock()


class AudioDeviceError(Exception):
    """The configured device does not exist, is ambiguous, or there is none of that kind.

    ``key`` names the message in ``voice/words/locales`` that says this to the player aloud.
    """

    def __init__(self, text: str, *, key: str = "audio.device_error") -> None:
        super().__init__(text)
        self.key = key


class NoInputDeviceError(AudioDeviceError):
    """There is no microphone at all (or the configured one is missing)."""

    def __init__(self, text: str) -> None:
        super().__init__(text, key="audio.no_input_device")


class PortAudioMissing(AudioDeviceError):
    """The PortAudio library is not installed: no device can be opened at all.

    ``sounddevice`` raises ``OSError`` when it is imported without it, so it is imported only
    when a command needs sound; the commands that do not (``parse``, ``simulate``, ``--help``)
    then run on a machine without audio.
    """

    def __init__(self) -> None:
        from voice.speech.native import PORTAUDIO

        super().__init__(
            f"the sound library {PORTAUDIO.name} is not installed ({PORTAUDIO.install})",
            key=PORTAUDIO.key,
        )


def _sounddevice() -> ModuleType:
    """``sounddevice``, imported on first use; :class:`PortAudioMissing` without PortAudio."""
    try:
        import sounddevice
    except OSError:
        raise PortAudioMissing() from None
    _quiet_alsa()
    module: ModuleType = sounddevice  # untyped library: Any until given its name here
    return module


_ALSA_HANDLER: Any = None  # kept alive: ALSA calls it for as long as the process runs


def _quiet_alsa() -> None:
    """Keep ALSA's own messages off the terminal ("ALSA lib pcm.c:8570:(snd_pcm_recover)
    underrun occurred"): a screen reader reads them out between the game's lines, and they
    mean nothing to a player. They go to the debug log instead (file, line and function; the
    message's arguments cannot be read portably). Without libasound (macOS) nothing to do."""
    global _ALSA_HANDLER
    if _ALSA_HANDLER is not None:
        return
    import ctypes
    import ctypes.util
    import logging

    name = ctypes.util.find_library("asound")
    if name is None:
        return
    try:
        alsa = ctypes.CDLL(name)
    except OSError:
        return
    log = logging.getLogger(__name__)
    handler_type = ctypes.CFUNCTYPE(
        None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p
    )

    def to_log(file: bytes, line: int, function: bytes, err: int, fmt: bytes) -> None:
        log.debug("ALSA %s:%d (%s) %s", file, line, function, fmt)

    _ALSA_HANDLER = handler_type(to_log)
    alsa.snd_lib_error_set_handler(_ALSA_HANDLER)


@dataclass(frozen=True)
class Device:
    """A device a stream can be opened on.

    ``index`` is PortAudio's; ``pulse_name`` is set when the device is a PulseAudio sink or source
    reached through the ``pulse`` bridge.
    """

    index: int
    name: str
    kind: Kind
    channels: int
    default_samplerate: float
    pulse_name: str | None = None

    def describe(self) -> str:
        where = f" (PulseAudio {self.pulse_name})" if self.pulse_name else ""
        return f"[{self.index}] {self.name}{where}"


@dataclass(frozen=True)
class DeviceListing:
    """One line of ``voice-chess devices``."""

    index: int | None
    name: str
    inputs: int
    outputs: int
    default_samplerate: float
    is_default_input: bool
    is_default_output: bool
    source: Literal["portaudio", "pulseaudio"]


def reinit_portaudio() -> None:
    """Make PortAudio see the devices of now (after ``PULSE_SERVER`` changed or a hot-plug).

    PortAudio reads the device list once, when it is initialised.
    """
    sd = _sounddevice()
    sd._terminate()
    sd._initialize()


class _PortAudioDevice(TypedDict):
    """The keys of a ``sounddevice.query_devices()`` entry that the program reads."""

    name: str
    max_input_channels: int
    max_output_channels: int
    default_samplerate: float


def _channels(info: _PortAudioDevice, kind: Kind) -> int:
    return int(info["max_input_channels" if kind == "input" else "max_output_channels"])


def _default_index(kind: Kind) -> int:
    pair = _sounddevice().default.device
    index = pair[0] if kind == "input" else pair[1]
    return int(index) if index is not None else -1


def _device_info(entry: Mapping[str, Any]) -> _PortAudioDevice:
    """An entry of the untyped library, given the type of what is read from it."""
    return _PortAudioDevice(
        name=entry["name"],
        max_input_channels=entry["max_input_channels"],
        max_output_channels=entry["max_output_channels"],
        default_samplerate=entry["default_samplerate"],
    )


def _portaudio_devices() -> list[_PortAudioDevice]:
    return [_device_info(entry) for entry in _sounddevice().query_devices()]


def pulse_devices(kind: Kind) -> list[tuple[str, str]]:
    """PulseAudio (or PipeWire-Pulse) sinks or sources as (name, description); [] if no server.

    Asked with ``pactl`` so that it works whether PortAudio was built with PulseAudio or not.
    """
    if shutil.which("pactl") is None:
        return []
    what = "sources" if kind == "input" else "sinks"
    try:
        result = subprocess.run(
            ["pactl", "list", what],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
            env={**os.environ, "LC_ALL": "C"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if result.returncode != 0:
        return []
    found: list[tuple[str, str]] = []
    name = ""
    for raw in result.stdout.splitlines():
        line = raw.strip()
        if line.startswith("Name:"):
            name = line.split(":", 1)[1].strip()
        elif line.startswith("Description:") and name:
            found.append((name, line.split(":", 1)[1].strip()))
            name = ""
    return found


def friendly_name(device: Device) -> str:
    """What to call ``device`` when telling the player: the sound server's description of the
    sink or source behind it ("Built-in Audio Analog Stereo"), not PortAudio's "default"."""
    pulse_name = device.pulse_name
    if pulse_name is None and device.name in ("default", "pulse", "sysdefault"):
        what = "source" if device.kind == "input" else "sink"
        try:
            result = subprocess.run(
                ["pactl", f"get-default-{what}"],
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return device.name
        pulse_name = result.stdout.strip() if result.returncode == 0 else None
    if not pulse_name:
        return device.name
    for name, description in pulse_devices(device.kind):
        if name == pulse_name:
            return description
    return pulse_name


def list_devices() -> list[DeviceListing]:
    """Every device a stream could be opened on: PortAudio's, then PulseAudio's by name."""
    listing: list[DeviceListing] = []
    default_in, default_out = _default_index("input"), _default_index("output")
    for index, info in enumerate(_portaudio_devices()):
        listing.append(
            DeviceListing(
                index=index,
                name=str(info["name"]),
                inputs=_channels(info, "input"),
                outputs=_channels(info, "output"),
                default_samplerate=float(info["default_samplerate"]),
                is_default_input=index == default_in,
                is_default_output=index == default_out,
                source="portaudio",
            )
        )
    if _bridge_index() is not None:
        kinds: tuple[Kind, Kind] = ("input", "output")
        for kind in kinds:
            for name, description in pulse_devices(kind):
                listing.append(
                    DeviceListing(
                        index=None,
                        name=f"{name} ({description})",
                        inputs=1 if kind == "input" else 0,
                        outputs=1 if kind == "output" else 0,
                        default_samplerate=0.0,
                        is_default_input=False,
                        is_default_output=False,
                        source="pulseaudio",
                    )
                )
    return listing


def _bridge_index() -> int | None:
    for index, info in enumerate(_portaudio_devices()):
        if str(info["name"]) == _PULSE_BRIDGE:
            return index
    return None


def _available(kind: Kind) -> str:
    names = [
        f"[{i}] {info['name']}"
        for i, info in enumerate(_portaudio_devices())
        if _channels(info, kind) > 0
    ]
    if _bridge_index() is not None:
        names += [f"{name} ({description})" for name, description in pulse_devices(kind)]
    return ", ".join(names) if names else "none"


def _setting(kind: Kind) -> str:
    return f"[audio] {kind}_device"


def _missing(kind: Kind, text: str) -> AudioDeviceError:
    if kind == "input":
        return NoInputDeviceError(text)
    return AudioDeviceError(text, key="audio.no_output_device")


def _device(index: int, kind: Kind, pulse_name: str | None = None) -> Device:
    info = _device_info(_sounddevice().query_devices(index))
    return Device(
        index=index,
        name=str(info["name"]),
        kind=kind,
        channels=_channels(info, kind),
        default_samplerate=float(info["default_samplerate"]),
        pulse_name=pulse_name,
    )


def resolve_device(spec: str | int | None, kind: Kind) -> Device:
    """The device ``spec`` names: ``""``/None = default, an index, or a part of a name.

    Raises :class:`NoInputDeviceError` / :class:`AudioDeviceError` with the devices that exist.
    """
    devices = _portaudio_devices()
    what = "microphone (input device)" if kind == "input" else "speaker (output device)"
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        index = _default_index(kind)
        if index < 0 or index >= len(devices) or _channels(devices[index], kind) == 0:
            usable = [i for i, info in enumerate(devices) if _channels(info, kind) > 0]
            if not usable:
                raise _missing(
                    kind,
                    f"no {what} found. Connect one (and check that the sound server runs), then "
                    f"see `voice-chess devices`.",
                )
            index = usable[0]
        return _device(index, kind)
    if isinstance(spec, int) or spec.strip().isdigit():
        index = int(spec)
        if not 0 <= index < len(devices) or _channels(devices[index], kind) == 0:
            raise _missing(
                kind,
                f"{_setting(kind)} = {spec!r}: there is no {what} with that number. "
                f"Available: {_available(kind)}.",
            )
        return _device(index, kind)
    wanted = spec.strip().lower()
    candidates = [
        (i, str(info["name"]))
        for i, info in enumerate(devices)
        if _channels(info, kind) > 0 and wanted in str(info["name"]).lower()
    ]
    exact = [c for c in candidates if c[1].lower() == wanted]
    if exact:
        candidates = exact
    if len(candidates) == 1:
        return _device(candidates[0][0], kind)
    if len(candidates) > 1:
        names = ", ".join(f"[{i}] {name}" for i, name in candidates)
        raise AudioDeviceError(
            f"{_setting(kind)} = {spec!r} matches several devices: {names}. "
            f"Use the number or more of the name.",
            key="audio.device_ambiguous",
        )
    bridge = _bridge_index()
    if bridge is not None and _channels(devices[bridge], kind) > 0:
        pulse = [
            (name, description)
            for name, description in pulse_devices(kind)
            if wanted in name.lower() or wanted in description.lower()
        ]
        exact_pulse = [p for p in pulse if p[0].lower() == wanted]
        if exact_pulse:
            pulse = exact_pulse
        if len(pulse) == 1:
            return _device(bridge, kind, pulse_name=pulse[0][0])
        if len(pulse) > 1:
            names = ", ".join(name for name, _ in pulse)
            raise AudioDeviceError(
                f"{_setting(kind)} = {spec!r} matches several devices: {names}. "
                f"Use more of the name.",
                key="audio.device_ambiguous",
            )
    raise _missing(
        kind,
        f"{_setting(kind)} = {spec!r}: no {what} has that name. Available: {_available(kind)}.",
    )


@contextlib.contextmanager
def routed(device: Device) -> Iterator[None]:
    """While a stream on ``device`` opens, point the PulseAudio bridge at its sink or source."""
    if device.pulse_name is None:
        yield
        return
    variable = "PULSE_SOURCE" if device.kind == "input" else "PULSE_SINK"
    with _ROUTING_LOCK:
        before = os.environ.get(variable)
        os.environ[variable] = device.pulse_name
        try:
            yield
        finally:
            if before is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = before


def supported_rate(device: Device, wanted: int) -> int:
    """``wanted`` if the device takes it, else the device's own default rate (we resample)."""
    sd = _sounddevice()
    check = sd.check_input_settings if device.kind == "input" else sd.check_output_settings
    try:
        with routed(device):
            check(device=device.index, samplerate=wanted, channels=1, dtype="int16")
    except Exception:  # PortAudioError or ValueError: the rate is not supported
        return int(device.default_samplerate)
    return wanted


def open_input(device: Device, **kwargs: Any) -> sounddevice.InputStream:
    """An (unstarted) mono input stream on ``device``; kwargs as for ``sd.InputStream``."""
    sd = _sounddevice()
    with routed(device):
        return sd.InputStream(device=device.index, channels=1, **kwargs)


def open_output(device: Device, **kwargs: Any) -> sounddevice.OutputStream:
    """An (unstarted) mono output stream on ``device``; kwargs as for ``sd.OutputStream``."""
    sd = _sounddevice()
    with routed(device):
        return sd.OutputStream(device=device.index, channels=1, **kwargs)


def resample(samples: np.ndarray, from_rate: int, to_rate: int) -> np.ndarray:
    """Linear-interpolation resampling of mono int16 audio (speech and beeps need no better)."""
    import numpy as np

    if from_rate == to_rate or len(samples) == 0:
        return samples
    count = max(1, round(len(samples) * to_rate / from_rate))
    positions = np.arange(count) * (from_rate / to_rate)
    values: np.ndarray = np.interp(positions, np.arange(len(samples)), samples.astype(np.float32))
    return np.clip(np.round(values), -32768, 32767).astype(np.int16)
