"""The native libraries behind sound, and the one sentence that says what to install.

``sounddevice`` needs PortAudio and pyttsx3 needs espeak-ng; without them they fail at import or
start with an ``OSError`` or ``RuntimeError`` that means nothing to a player. The commands that do
not need sound never import them (see ``voice.speech.audio``); the ones that do name the Debian
package.
"""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass

from voice.words.messages import message


@dataclass(frozen=True)
class NativeLibrary:
    """A shared library a command may need: what it is called and how to install it."""

    name: str
    sonames: tuple[str, ...]
    install: str
    key: str  # the catalogue message that says it is missing

    def installed(self) -> bool:
        """Whether the dynamic loader finds it (asked only on Linux, where the names are known)."""
        if not sys.platform.startswith("linux"):
            return True
        for soname in self.sonames:
            try:
                ctypes.cdll.LoadLibrary(soname)
            except OSError:
                continue
            return True
        return False

    def sentence(self, language: str) -> str:
        return message(language, self.key, **self.params())

    def params(self) -> dict[str, str]:
        """The placeholders of its catalogue message."""
        return {"library": self.name, "command": self.install}


PORTAUDIO = NativeLibrary(
    "PortAudio", ("libportaudio.so.2",), "sudo apt install libportaudio2", "audio.no_portaudio"
)
ESPEAK = NativeLibrary(
    "espeak-ng",
    ("libespeak-ng.so.1", "libespeak.so.1"),
    "sudo apt install espeak-ng",
    "audio.no_espeak",
)


def missing_library(error: BaseException, *, speech: bool = False) -> NativeLibrary | None:
    """The library whose absence caused ``error``, or None; ``speech``: the error came from
    starting speech output, which also needs espeak-ng."""
    from voice.speech.audio import PortAudioMissing

    if isinstance(error, PortAudioMissing):
        return PORTAUDIO
    if speech and not ESPEAK.installed():
        return ESPEAK
    return None


def no_speaker_sentence(error: BaseException, language: str) -> str:
    """Why nothing is spoken, when the loudspeaker could not start: the library to install, or
    the error itself."""
    library = missing_library(error, speech=True)
    if library is not None:
        return library.sentence(language)
    return message(language, "app.fail.no_speaker", error=device_reason(error, language))


def device_reason(error: BaseException, language: str) -> str:
    """Why a device could not be used, to go inside a sentence in ``language``: an audio
    device's own sentence in that language ("der eingestellte Lautsprecher … wurde nicht
    gefunden"), else the error's text. The English text of a missing device inside a German
    sentence, with its own advice, had a screen reader switch languages mid-sentence (a
    trial)."""
    from voice.speech.audio import AudioDeviceError

    if not isinstance(error, AudioDeviceError):
        return str(error).rstrip(".")
    text = message(language, error.key).rstrip(".")
    return text[:1].lower() + text[1:]
