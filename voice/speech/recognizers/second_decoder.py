"""A second PocketSphinx decoder in a process of its own, so that two searches run at once.

PocketSphinx keeps Python's global interpreter lock while it decodes: two decoders in two
threads take turns. The rival search of :class:`voice.speech.recognizers.sphinx.SphinxRecognizer`
decodes each move twice more (the heard move's phrases; every other move), and those two
searches do not depend on each other. With one of them in this process, they run side by side
on a machine's two cores, which saves about a third of the decode time.

The answers are the same as in one process: the same model, words, adaptation, word graphs and
audio go in. If the process cannot start or dies, the recogniser decodes everything itself and
says so in the log; nothing is lost but the time.
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import struct
import subprocess
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

Option = str | int | float | bool | None
"""A PocketSphinx option's value: a path (``hmm``), a count (``topn``), a probability
(``silprob``), a switch (``bestpath``), or None to leave one out (``lm``)."""

Graph = tuple[int, int, tuple[tuple[Any, ...], ...]]
"""A word graph as PocketSphinx takes it: start state, final state, transitions."""

MISSING = "missing"
"""The answer when the helper no longer holds a search (it keeps only the latest few)."""

WAIT_S = 10.0
"""How long an answer may take before the helper is given up (a decode takes well under 1 s)."""

READY = "ready"

_KEEP = 32


def worth_it() -> bool:
    """A second process only helps with a second core to run on."""
    try:
        return len(os.sched_getaffinity(0)) > 1
    except AttributeError:  # not on Linux
        return (os.cpu_count() or 1) > 1


class SecondDecoder:
    """The helper process, seen from the recogniser: :meth:`submit` a search over the same
    audio, do the other search meanwhile, then read the answer with :meth:`result`.

    The helper is this file run as a script (``python -P second_decoder.py``), talking over its
    standard input and output. Not a process pool: a pool hands work over in a background thread,
    which waits for the interpreter lock that this process's own decode holds, so the helper
    would start only once that decode had finished; :meth:`submit` writes the request itself.
    Not ``multiprocessing`` either: its "spawn" start re-runs the main script of a program
    that lacks the ``if __name__ == "__main__"`` guard."""

    def __init__(self, dictionary: str, options: dict[str, Option]) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._up = False
        self._sent: set[str] = set()
        self._words_sent = 0
        self.answered = 0
        """Searches the helper has done (for tests and the benchmark)."""
        search_path = os.pathsep.join(p for p in sys.path if p)  # the modules this one sees
        try:
            self._process = subprocess.Popen(
                # The file as a script, not the module: a package import would load the whole
                # program (numpy, chess, pydantic) where only PocketSphinx is needed. -P: its
                # folder is not searched for modules.
                [sys.executable, "-P", __file__],
                bufsize=0,  # unbuffered: select() must see what has not been read yet
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": search_path},
            )
        except OSError as error:
            log.warning("no second decoder process (%s): decoding in one process", error)
            return
        self._send(dictionary, options)

    def ready(self, timeout: float = 0.0) -> bool:
        """Is the helper up (waiting up to ``timeout`` seconds)? Until it is, the recogniser
        does both searches itself, so the first moves of a game are never held up."""
        if self._up or self._process is None:
            return self._up
        try:
            answer = self._read(timeout)
        except TimeoutError:
            return False
        except (EOFError, OSError) as error:
            self._give_up(f"could not start: {error or 'it stopped'}")
            return False
        if answer != READY:
            self._give_up(f"could not start: {answer}")
            return False
        self._up = True
        return True

    def submit(
        self,
        name: str,
        graph: Graph,
        added_words: Sequence[tuple[str, str]],
        padded: bytes,
    ) -> Pending | None:
        """Start decoding ``padded`` with the search ``name`` (its ``graph`` is sent only the
        first time); ``added_words`` are all the words the recogniser added to its decoder
        since it started (the helper gets those it does not have yet). None if the helper is
        not available."""
        if not self.ready():
            return None
        pending = Pending(name, graph, padded)
        new_words = tuple(added_words[self._words_sent :])
        if not self._send(name, None if name in self._sent else graph, new_words, padded):
            return None
        self._sent.add(name)
        self._words_sent = len(added_words)
        return pending

    def result(self, pending: Pending) -> tuple[str, float] | None:
        """The best hypothesis of the submitted search: (words, path score as a probability),
        or None when the search found no path. Raises :class:`HelperLost` when the helper
        failed; the caller then decodes itself."""
        answer = self._receive()
        if answer == MISSING:  # it had dropped that search: send it again
            if not self._send(pending.name, pending.graph, (), pending.padded):
                raise HelperLost("it stopped")
            answer = self._receive()
        if answer is None or (isinstance(answer, tuple) and len(answer) == 2):
            self.answered += 1
            return answer
        self._give_up(f"it answered {answer!r}")
        raise HelperLost(str(answer))

    def peak_memory_mb(self) -> float:
        """The helper process's peak resident memory so far (0 if unknown or not running)."""
        if self._process is None:
            return 0.0
        try:
            status = Path(f"/proc/{self._process.pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def _send(self, *request: Any) -> bool:
        if self._process is None or self._process.stdin is None:
            return False
        try:
            _write(self._process.stdin, request)
        except (OSError, ValueError) as error:
            self._give_up(f"it stopped: {error}")
            return False
        return True

    def _receive(self) -> Any:
        try:
            return self._read(WAIT_S)
        except (EOFError, OSError, TimeoutError) as error:
            self._give_up(str(error) or "it stopped")
            raise HelperLost(str(error)) from error

    def _read(self, timeout: float) -> Any:
        if self._process is None or self._process.stdout is None:
            raise EOFError("it stopped")
        pipe = self._process.stdout
        if not select.select([pipe], [], [], timeout)[0]:
            raise TimeoutError(f"no answer in {timeout:.1f} s")
        return _read(pipe)

    def _give_up(self, why: str) -> None:
        if self._process is not None:
            log.warning("second decoder process given up (%s): decoding in one process", why)
        self.close()

    def close(self) -> None:
        """Stop the helper process: it sees its input close and ends."""
        self._up = False
        process, self._process = self._process, None
        if process is None:
            return
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    @property
    def pid(self) -> int | None:
        """The helper's process id while it runs."""
        return self._process.pid if self._process is not None else None


@dataclass
class Pending:
    """A search handed to the helper, with what it takes to send it again."""

    name: str
    graph: Graph
    padded: bytes


class HelperLost(Exception):
    """The helper process failed; decode in this process instead."""


# -- in the helper process ---------------------------------------------------------------------


def _write(pipe: IO[bytes], message: Any) -> None:
    """One message: its length, then the pickled message (both sides are this program)."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(struct.pack("<I", len(data)) + data)
    pipe.flush()


def _read(pipe: IO[bytes]) -> Any:
    (size,) = struct.unpack("<I", _exactly(pipe, 4))
    return pickle.loads(_exactly(pipe, size))


def _exactly(pipe: IO[bytes], size: int) -> bytes:
    """``size`` bytes from ``pipe`` (a pipe may hand them over in pieces)."""
    data = b""
    while len(data) < size:
        piece = pipe.read(size - len(data))
        if not piece:
            raise EOFError("it stopped")
        data += piece
    return data


def new_decoder(dictionary: str, options: dict[str, Option]) -> Any:
    """A PocketSphinx decoder with ``options`` and the words of ``dictionary`` (a PocketSphinx
    dictionary's text); silence is its only filler."""
    import pocketsphinx

    with tempfile.TemporaryDirectory(prefix="voice-chess-sphinx-") as tmp:
        words = Path(tmp) / "words.dict"
        words.write_text(dictionary, encoding="utf-8")
        fillers = Path(tmp) / "fillers.dict"
        fillers.write_text("<s> SIL\n</s> SIL\n<sil> SIL\n", encoding="utf-8")
        config = pocketsphinx.Config(dict=str(words), fdict=str(fillers), **options)
        return pocketsphinx.Decoder(config)


def decode_whole(decoder: Any, audio: bytes) -> None:
    """Decode one whole (padded) utterance of 16-bit samples with the decoder's active search.
    Fresh feature state (noise estimate, cepstral mean) each time: the result must not depend
    on what was heard before, or the same words could be a move only sometimes."""
    decoder.reinit_feat()
    decoder.start_utt()
    decoder.process_raw(audio, False, True)
    decoder.end_utt()


def main() -> None:
    """The helper's loop: build the decoder, then answer one search at a time until its input
    closes (the recogniser was closed, or its program ended)."""
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answers
    try:
        _serve(requests, answers)
    except (BrokenPipeError, EOFError):
        # The recogniser went away mid-answer: end quietly (Python's advice for a closed
        # pipe: point the output at devnull so that the exit's flush cannot fail again).
        os.dup2(os.open(os.devnull, os.O_WRONLY), answers.fileno())


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    try:
        dictionary, options = _read(requests)
        decoder = new_decoder(dictionary, options)
    except EOFError:
        return
    except Exception as error:
        _write(answers, str(error) or type(error).__name__)
        return
    _write(answers, READY)
    searches: OrderedDict[str, None] = OrderedDict()
    while True:
        name, graph, new_words, padded = _read(requests)
        for word, phones in new_words:
            decoder.add_word(word, phones, True)
        if name not in searches:
            if graph is None:
                _write(answers, MISSING)
                continue
            start, final, transitions = graph
            decoder.add_fsg(name, decoder.create_fsg(name, start, final, list(transitions)))
            searches[name] = None
            if len(searches) > _KEEP:
                old, _ = searches.popitem(last=False)
                decoder.remove_search(old)
        searches.move_to_end(name)
        decoder.activate_search(name)
        decode_whole(decoder, padded)
        hyp = decoder.hyp()
        _write(answers, None if hyp is None else (hyp.hypstr, float(hyp.score)))


if __name__ == "__main__":
    main()
