"""Speech output cannot take the program down: ``voice-chess play`` starts and ends cleanly.

espeak-ng's asynchronous synthesis thread crashed the program at start-up about once in twelve
starts. The probe ``python -m benchmarks starts`` starts the whole program (microphone, Whisper,
speech, web board) many times on the virtual devices and presses Ctrl-C once the game began;
CI runs ten starts (the README gives the figure of a hundred). Ctrl-C also cuts what is still
being said: the player wants out, the start-up sentences are stale.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from console import Console
from pulse import PulseAudio

from benchmarks import starts
from benchmarks.starts import END_DEADLINE_S


@pytest.mark.audio
@pytest.mark.slow
def test_ten_starts_with_speech_none_dies_and_ctrl_c_ends_each_at_once(pulse: PulseAudio) -> None:
    report = starts.run(10, language="de")
    text = starts.format_report(report)
    print("\n" + text)
    assert report.count("clean") == 10, text
    # Ctrl-C at the moment the game begins, while the start-up sentences are still being said:
    # they are cut, and only "the game is saved" is said before the end.
    ended = [s.ended_s for s in report.starts if s.ended_s is not None]
    assert max(ended) < END_DEADLINE_S / 2, text


@pytest.mark.audio
@pytest.mark.slow
def test_ctrl_c_says_the_game_is_saved_whole_and_briefly(pulse: PulseAudio, tmp_path: Path) -> None:
    """After Ctrl-C the player hears "Die Partie ist gespeichert." and nothing more: the
    journal's path is printed, not read out (read out, a long path kept the program alive for
    8 s), and the sentence is not lost when the speaker closes while it is being rendered."""
    journal = tmp_path / "a-folder-whose-name-takes-long-to-read-aloud" / "game-one.jsonl"
    con = Console("play", "--port", "0", "--journal", str(journal))
    try:
        with pulse.record("speaker.monitor") as heard:
            con.expect("Die Partie beginnt.")
            interrupted = time.monotonic()
            con.process.send_signal(signal.SIGINT)
            assert con.wait() == 0
            ended = time.monotonic()
        saved = f"Die Partie ist gespeichert. Fortsetzen mit: voice-chess play --resume {journal}"
        assert saved in con.output()
        # What the start-up was saying is cut within a few blocks; what follows is the end.
        spoken = [
            (max(start, interrupted + 0.3), end)
            for start, end in heard.active_spans()
            if end > interrupted + 0.3
        ]
        said = sum(end - start for start, end in spoken)
        print(f"\nsaid after Ctrl-C: {said:.2f} s; ended after {ended - interrupted:.2f} s")
        assert 0.6 < said < 3.0, spoken
        assert ended - interrupted < 5.0
    finally:
        con.close()


def test_speaking_leaves_no_temporary_files(tmp_path: Path, pulse: PulseAudio) -> None:
    """Speech is synthesised into memory: nothing is left in the temporary folder (pyttsx3's
    file-based rendering left a ``voice-chess-tts-*`` folder behind after every run).

    With the test daemon (``PULSE_SERVER`` set), as in a run of the whole suite in one process:
    without it, PulseAudio's client library makes a ``pulse-*`` folder of its own in TMPDIR,
    which is not the program's doing (under pytest-xdist a worker may reach this test before any
    other started the daemon)."""
    code = (
        "from voice.config import load_settings\n"
        "from voice.speech.speak import render\n"
        "samples, rate = render('Läufer Cesar vier', load_settings(look_in_user_dir=False))\n"
        "assert len(samples) > rate // 2\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    assert list(tmp_path.iterdir()) == []
