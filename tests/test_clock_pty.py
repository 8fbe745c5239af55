"""The talking clock driven through a real pseudo-terminal: keys in, announcements out.

``voice-chess clock`` runs as a child process whose terminal is the slave side of a pty, as it
would be in a console; the test types keys on the master side and reads the printed lines.
Waiting for an announcement has a generous deadline, but nothing asserts how long anything took.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pulse import PulseAudio

DEADLINE_S = 30.0


class Terminal:
    """The master side of a pty with the clock running on the slave side."""

    def __init__(self, *args: str, speech: bool = False, sound_server: bool = True) -> None:
        self.master, self.slave = pty.openpty()
        self.seen = ""
        quiet = [] if speech else ["--no-speech"]
        env = dict(os.environ)
        if not sound_server:
            # Keyboard tests: no sound server, whatever earlier tests started, so that they do
            # not depend on the order of the tests.
            for name in ("PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE"):
                env.pop(name, None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voice", "clock", *quiet, "--language", "de", *args],
            env=env,
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            preexec_fn=self._controlling_terminal,
            close_fds=True,
        )

    @staticmethod
    def _controlling_terminal() -> None:
        """In the child: a session of its own with the pty as its terminal, so ^C works."""
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        # As a shell starts it: no signal blocked. The test process may have inherited a mask
        # from native libraries loaded by earlier tests (seen: SIGPIPE blocked after importing
        # CTranslate2), and a blocked SIGINT would make ^C do nothing.
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        # And SIGINT not ignored, whatever the test process inherited.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def expect(self, text: str) -> str:
        """Read until ``text`` has been printed (after what earlier expectations consumed)."""
        pattern = re.compile(re.escape(text))
        waited = 0.0
        while (match := pattern.search(self.seen)) is None:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    self.seen += os.read(self.master, 4096).decode("utf-8", errors="replace")
                except OSError:  # the child closed the terminal
                    break
            else:
                waited += 0.5
                if waited > DEADLINE_S or self.process.poll() is not None:
                    break
        if match is None:
            raise AssertionError(f"never printed: {text!r}\n--- terminal so far ---\n{self.seen}")
        consumed = self.seen[: match.end()]
        self.seen = self.seen[match.end() :]
        return consumed

    def wait(self) -> int:
        """The exit code, reading what the clock still prints meanwhile: a pty whose reader
        stops reading can block the writer (the clock restores the terminal with TCSADRAIN,
        which waits until its output has been taken)."""
        self._read_for(DEADLINE_S, until_exit=True)
        if self.process.poll() is None:
            # Whether ^C could reach it: the child's blocked and ignored signals, and whether
            # its process group is the terminal's foreground group.
            status = Path(f"/proc/{self.process.pid}/status").read_text(encoding="utf-8")
            signals = [line for line in status.splitlines() if line.startswith("Sig")]
            foreground = os.tcgetpgrp(self.master) == os.getpgid(self.process.pid)
            self.seen += f"\n{signals} foreground group: {foreground}\n"
            # Where it is stuck: voice-chess prints every thread's stack on SIGUSR1.
            self.process.send_signal(signal.SIGUSR1)
            self._read_for(3, until_exit=False)
            # Also kept in a file: a message can be cut from a CI log.
            dump = Path(tempfile.gettempdir()) / "voice-chess-clock-hang.txt"
            dump.write_text(self.seen, encoding="utf-8")
            raise AssertionError(f"still running after ^C\n--- terminal ---\n{self.seen}")
        return self.process.wait(timeout=1)

    def _read_for(self, seconds: float, *, until_exit: bool) -> None:
        """Take what the terminal shows for ``seconds`` (or until the clock exits)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (until_exit and self.process.poll() is not None):
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                with contextlib.suppress(OSError):  # the child closed the terminal
                    self.seen += os.read(self.master, 65536).decode("utf-8", errors="replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal_factory() -> Iterator[list[Terminal]]:
    made: list[Terminal] = []
    yield made
    for terminal in made:
        terminal.close()


def start(
    made: list[Terminal], *args: str, speech: bool = False, sound_server: bool = True
) -> Terminal:
    terminal = Terminal(*args, speech=speech, sound_server=sound_server)
    made.append(terminal)
    return terminal


@pytest.mark.slow
def test_keys_help_mode_time_request_flag_and_quit(terminal_factory: list[Terminal]) -> None:
    """Space/Enter press the clock, T asks the time, H announces keys, the flag is said at once."""
    term = start(terminal_factory, "--control", "3", sound_server=False)
    term.expect("Uhr bereit: drei Sekunden für die ganze Partie.")
    term.expect("Leertaste oder Eingabetaste startet die Uhr für Weiß. H für Hilfe.")
    term.type(b"h")
    term.expect("Hilfemodus: jede Taste sagt, was sie tut")
    term.type(b" ")
    term.expect("Leertaste oder Eingabetaste: Uhr drücken für die Seite am Zug.")
    term.type(b"x")
    term.expect("Diese Taste hat keine Funktion.")
    term.type(b"h")
    term.expect("Hilfemodus beendet.")
    term.type(b"t")
    term.expect("Weiß drei Sekunden, Schwarz drei Sekunden. Gespielt: null Züge.")
    term.expect("Die Uhr läuft noch nicht.")
    term.type(b"\r")  # Enter, as a foot switch sends it
    term.expect("Die Uhr läuft. Weiß ist am Zug.")
    term.expect("Zeit abgelaufen für Weiß.")  # nobody presses: White's flag falls
    term.type(b"q")
    term.expect("Uhr beenden? Q noch einmal drücken.")
    term.type(b"q")
    term.expect("Uhr beendet.")
    assert term.wait() == 0
    mode = termios.tcgetattr(term.slave)
    assert mode[3] & termios.ECHO and mode[3] & termios.ICANON  # the terminal was restored


@pytest.mark.xfail(
    strict=False,
    reason="open defect: in some full parallel runs ^C does not end the clock; the stack dump "
    "then shows one thread, the main one, waiting for a key in voice.keyboard: the SIGINT never "
    "arrived or was ignored (see the session-7 note). Kept visible as XFAIL.",
)
def test_pause_moves_and_interrupt(terminal_factory: list[Terminal]) -> None:
    term = start(
        terminal_factory,
        "--control",
        "40/5400+30:1800+30",
        "--profile",
        "tournament",
        sound_server=False,
    )
    term.expect("eine Stunde dreißig Minuten für vierzig Züge")
    term.type(b" ")
    term.expect("Die Uhr läuft.")
    term.type(b" ")  # White completes move one
    term.type(b"m")
    term.expect("Gespielt: ein Zug. Bis zur Zeitkontrolle: neununddreißig Züge.")
    term.type(b"p")
    term.expect("Uhr angehalten.")
    term.type(b" ")
    term.expect("Die Uhr ist angehalten.")
    term.type(b"t")
    term.expect("Weiß eine Stunde dreißig Minuten, Schwarz eine Stunde")
    term.expect("Die Uhr ist angehalten.")
    term.type(b"p")
    term.expect("Uhr läuft weiter.")
    term.type(b"\x03")  # Ctrl-C
    assert term.wait() == 130
    mode = termios.tcgetattr(term.slave)
    assert mode[3] & termios.ECHO and mode[3] & termios.ICANON


def _clock_journals() -> list[Path]:
    """The talking clocks kept in this test's data folder (conftest gives each test its own)."""
    folder = Path(os.environ["XDG_DATA_HOME"]) / "voice-chess" / "games"
    return sorted(folder.glob("clock-*.jsonl"))


@pytest.mark.slow
def test_a_clock_killed_mid_game_comes_back_with_every_press(
    terminal_factory: list[Terminal],
) -> None:
    """Nothing is lost on a crash or power cut: each press is on disk before the clock counts
    it, and ``--resume`` brings the clock back for the side to move, says so with both times
    and the moves, stands until a press starts it, and refuses a second copy while the first
    runs."""
    term = start(terminal_factory, "--control", "600", "--no-listen", sound_server=False)
    term.expect("H für Hilfe.")
    term.type(b" ")
    term.expect("Die Uhr läuft. Weiß ist am Zug.")
    time.sleep(1.5)
    term.type(b" ")  # White's first move made: Black's clock runs
    term.type(b"t")
    term.expect("Gespielt: ein Zug.")
    term.type(b"h")  # help mode on, then the power cut
    term.expect("Hilfemodus: jede Taste sagt")
    term.process.kill()
    term.process.wait()
    (journal,) = _clock_journals()
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert '"start":"press"' in lines[0] and len(lines) == 5  # the set-up and four keys

    # The options of a new clock are not taken: it is said, naming those that differ.
    again = start(
        terminal_factory,
        *("--resume", "--control", "600", "--blind", "black", "--no-listen"),
        sound_server=False,
    )
    said = again.expect("Hilfemodus beendet.")  # a press presses again, it is not described
    assert "wie sie begann; nicht verwendet: --blind black." in said
    assert "Partie fortgesetzt. Schwarz ist am Zug. Weiß neun Minuten" in said
    assert "Weiß zehn Minuten" not in said  # White's 1.5 s are still spent
    assert "Gespielt: ein Zug." in said
    again.expect("Die Uhr steht. Leertaste oder Eingabetaste startet die Uhr für Schwarz.")
    again.type(b" ")
    again.expect("Die Uhr läuft. Schwarz ist am Zug.")

    twice = start(terminal_factory, "--resume", str(journal), sound_server=False)
    twice.expect("ist in Gebrauch: die Uhr läuft wohl noch in einem anderen Fenster.")
    assert twice.wait() == 2

    again.type(b"qq")
    again.expect("Uhr beendet.")
    again.expect(f"Die Uhr ist gespeichert in {journal}.")
    assert again.wait() == 0
    assert _clock_journals() == [journal]  # one clock, kept in one file


def test_a_game_journal_is_no_clock_to_resume(
    terminal_factory: list[Terminal], tmp_path: Path
) -> None:
    game = tmp_path / "game-20261127-120000.jsonl"
    game.write_text('{"setup": {"mode": "game", "time_control": "600"}}\n', encoding="utf-8")
    term = start(terminal_factory, "--resume", str(game), sound_server=False)
    term.expect(f"{game} ist das Journal einer Partie, keiner Schachuhr. Abhilfe: voice-chess")
    term.expect(f"play --resume {game}.")
    assert term.wait() == 2
    missing = start(terminal_factory, "--resume", sound_server=False)
    folder = Path(os.environ["XDG_DATA_HOME"]) / "voice-chess" / "games"
    missing.expect(f"In {folder} ist noch keine Uhr gespeichert.")
    assert missing.wait() == 2


def test_resuming_a_clock_ended_with_q_twice_says_it_cannot_go_on(
    terminal_factory: list[Terminal], tmp_path: Path
) -> None:
    """Not "Die fortgesetzte Partie geht weiter …" and then "Uhr beendet.": that the clock was
    ended and cannot be continued, how it stood, and how to start a new one; no key is waited
    for, and its journal is left as it was."""
    journal = tmp_path / "clock-20261127-120000.jsonl"
    journal.write_text(
        '{"setup":{"mode":"clock","time_control":"600","language":"de","start":"press"}}\n'
        '{"t":1.0,"key":"press"}\n{"t":5.0,"key":"quit"}\n{"t":6.0,"key":"quit"}\n',
        encoding="utf-8",
    )
    kept = journal.read_bytes()
    term = start(terminal_factory, "--resume", str(journal), "--control", "300", sound_server=False)
    said = term.expect("Diese Uhr wurde beendet und kann nicht fortgesetzt werden. Weiß neun")
    said += term.expect("Eine neue Uhr starten mit: voice-chess clock")
    assert term.wait() == 0
    assert "fortgesetzte Partie" not in said + term.seen and "nicht verwendet" not in said
    assert journal.read_bytes() == kept


def test_without_speech_each_press_prints_the_side_whose_clock_now_runs(
    terminal_factory: list[Terminal],
) -> None:
    """The click that confirms a press is not heard with --no-speech: a braille display or a
    screen reader gets the side's name instead, one word per press."""
    term = start(terminal_factory, "--control", "600", "--no-listen", sound_server=False)
    term.expect("H für Hilfe.")
    term.type(b" ")
    term.expect("Die Uhr läuft. Weiß ist am Zug.")
    time.sleep(0.4)  # a press within 0.3 s of the last is a bounce (BOUNCE_MS)
    term.type(b" ")
    term.expect("\nSchwarz.")
    time.sleep(0.4)
    term.type(b" ")
    term.expect("\nWeiß.")
    term.type(b"qq")
    term.expect("Uhr beendet.")
    assert term.wait() == 0


def test_a_refusal_in_hebrew_is_printed_without_its_vowel_points(
    terminal_factory: list[Terminal],
) -> None:
    """The points are there for the speech engine; a screen reader and a braille display get
    the plain letters, as everywhere else the program prints (README, "Languages")."""
    term = start(terminal_factory, "--control", "abc", "--language", "he", sound_server=False)
    line = term.expect("abc")
    assert term.wait() == 2
    assert not re.search("[\u05b0-\u05c7]", line + term.seen), line + term.seen


def test_refuses_a_bad_time_control_clearly(terminal_factory: list[Terminal]) -> None:
    term = start(terminal_factory, "--control", "5 minutes", sound_server=False)
    term.expect("voice-chess clock: Die Bedenkzeit ist nicht lesbar: 5 minutes ist nicht lesbar.")
    term.expect("Abhilfe: --control 900+10 oder ein Name aus [clock.presets].")
    assert term.wait() == 2


def test_a_control_that_is_read_but_unusable_is_not_called_unreadable(
    terminal_factory: list[Terminal],
) -> None:
    """ "0+5" is read (no base time before the increment): the clock says it does not go and
    why, as a game does; it said "nicht lesbar" (a review)."""
    term = start(terminal_factory, "--control", "0+5", sound_server=False)
    term.expect(
        "voice-chess clock: Diese Bedenkzeit geht nicht: die erste Periode braucht eine "
        "Grundzeit vor dem Zuschlag, zum Beispiel 300+5."
    )
    assert term.wait() == 2
    assert "nicht lesbar" not in term.seen


@pytest.mark.audio
def test_announcements_are_spoken_on_the_loudspeaker(
    terminal_factory: list[Terminal], pulse: PulseAudio
) -> None:
    """The printed announcement is also heard: speech reaches the (virtual) loudspeaker."""
    term = start(terminal_factory, "--control", "600", speech=True)
    greeting = term.expect("H für Hilfe.")
    assert "speech unavailable" not in greeting
    with pulse.record("speaker.monitor") as heard:
        term.type(b"h")
        term.expect("Hilfemodus: jede Taste sagt")
        waited = 0.0
        while not heard.active_spans() and waited < DEADLINE_S:  # printed first, then spoken
            time.sleep(0.2)
            waited += 0.2
    assert heard.active_spans(), "the help-mode announcement was printed but never heard"
    term.type(b"h")
    term.expect("Hilfemodus beendet.")
    term.type(b"qq")
    term.expect("Uhr beendet.")
    assert term.wait() == 0
