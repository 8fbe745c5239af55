"""A machine without the native sound libraries, as far as a Python process can tell.

Put this folder on ``PYTHONPATH`` and name the libraries in ``VOICE_CHESS_TEST_MISSING``
("portaudio espeak"): the dynamic loader then finds none of them, so ``import sounddevice``
raises its own ``OSError: PortAudio library not found`` and pyttsx3's espeak driver its own
``RuntimeError``, exactly as on a machine where libportaudio2 and espeak-ng are not installed.
Nothing of voice-chess is replaced.
"""

import ctypes
import ctypes.util
import os

_MISSING = tuple(os.environ.get("VOICE_CHESS_TEST_MISSING", "").split())
_find_library = ctypes.util.find_library
_load_library = ctypes.cdll.LoadLibrary


def _is_missing(name: object) -> bool:
    return any(part in str(name) for part in _MISSING)


def find_library(name: str) -> str | None:
    return None if _is_missing(name) else _find_library(name)


def load_library(name: str) -> ctypes.CDLL:
    if _is_missing(name):
        raise OSError(f"{name}: cannot open shared object file: No such file or directory")
    return _load_library(name)


ctypes.util.find_library = find_library
ctypes.cdll.LoadLibrary = load_library  # type: ignore[method-assign]
