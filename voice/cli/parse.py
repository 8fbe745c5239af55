"""``voice-chess parse``: what the program would do with some heard words in a position.

One text (or several: an n-best list, best first) gives one JSON object; ``--batch FILE`` reads
JSON lines ``{"id": ..., "fen": ..., "text": ...}`` (or ``"nbest": [{"text": ...,
"confidence": ...}, ...]`` instead of ``text``) and writes one object per line with the ``id``.
A line that is not JSON or holds a bad FEN gives ``{"id": ..., "error": ...}`` for that line.
``--benchmark`` measures how long building the phrase table and matching take.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

import chess

from voice.cli._input import board_from_fen, input_lines
from voice.cli._values import number, whole_number
from voice.config import MatchingSettings, Settings
from voice.words.matcher import Decision, Hypothesis, MatchResult, match_move, sound_distance
from voice.words.phrases import phrase_table, render_move
from voice.words.vocabulary import PIECE_WORDS, Vocabulary


class CandidateJson(TypedDict):
    """One move offered for a choice, as ``parse`` and ``recognize`` print it."""

    uci: str
    cost: float
    say: str


class RefusalJson(TypedDict):
    """Why the words name no legal move, and the sentence the player hears."""

    reason: str
    message: str


class MatchJson(TypedDict):
    """The JSON form of a match result: the format tests and scripts rely on."""

    decision: str
    move: str | None
    say: str | None
    candidates: list[CandidateJson]
    refusal: NotRequired[RefusalJson]


NAME = "parse"
HELP = "match heard words against the legal moves of a position and print the decision as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fen", default=chess.STARTING_FEN, help="the position (default: the start position)"
    )
    parser.add_argument(
        "text",
        nargs="*",
        help="the heard words; several texts are the recogniser's alternatives, best first",
    )
    parser.add_argument(
        "--confidence",
        type=number(0.0, 1.0),
        action="append",
        metavar="C",
        help="confidence of each text, in order (default 1.0 each)",
    )
    parser.add_argument(
        "--batch",
        metavar="FILE",
        help='JSON lines {"id", "fen", "text"} ("-" reads standard input); one result per line',
    )
    parser.add_argument(
        "--time", action="store_true", help="print the milliseconds each match took to stderr"
    )
    parser.add_argument(
        "--benchmark",
        type=whole_number(1, 100_000),
        metavar="N",
        help="time table building and matching over N positions from random games and print "
        "the figures",
    )


def result_json(
    board: chess.Board, result: MatchResult, vocab: Vocabulary, language: str
) -> MatchJson:
    """The JSON form of a match result (the format tests and scripts rely on)."""
    out: MatchJson = {
        "decision": str(result.decision),
        "move": result.move.uci() if result.move else None,
        "say": render_move(board, result.move, vocab) if result.move else None,
        "candidates": [
            {
                "uci": c.move.uci(),
                "cost": round(c.cost, 3),
                "say": render_move(board, c.move, vocab),
            }
            for c in result.candidates
        ],
    }
    if result.refusal is not None:
        out["refusal"] = {
            "reason": result.refusal.reason,
            "message": result.refusal.text(language),
        }
    return out


def parse_one(
    fen: str,
    nbest: Sequence[Hypothesis],
    vocab: Vocabulary,
    thresholds: MatchingSettings,
    language: str,
) -> MatchJson:
    board = board_from_fen(fen)
    return result_json(board, match_move(board, nbest, vocab, thresholds), vocab, language)


def _hypotheses(
    texts: Sequence[str], confidences: Sequence[float] | None, vocab: Vocabulary
) -> list[Hypothesis]:
    levels = list(confidences or [])
    if len(levels) > len(texts):
        raise ValueError("more --confidence values than texts")
    levels += [1.0] * (len(texts) - len(levels))
    return [Hypothesis(vocab.normalize(t), c) for t, c in zip(texts, levels, strict=True)]


def _batch_line(
    line: str, vocab: Vocabulary, thresholds: MatchingSettings, language: str
) -> dict[str, object]:
    """One ``--batch`` line → its ``id`` and the match, or its ``id`` and an ``error``."""
    try:
        item = json.loads(line)
    except json.JSONDecodeError as error:
        return {"id": None, "error": f"not a JSON object: {error.msg}"}
    except RecursionError:
        return {"id": None, "error": "not a JSON object: nested too deeply"}
    if not isinstance(item, dict):
        return {"id": None, "error": "not a JSON object"}
    ident = item.get("id")
    try:
        if "nbest" in item:
            alternatives = item["nbest"]
            if not isinstance(alternatives, list) or not all(
                isinstance(a, dict) and isinstance(a.get("text"), str) for a in alternatives
            ):
                raise ValueError('"nbest" must be a list of {"text": ..., "confidence": ...}')
            texts = [a["text"] for a in alternatives]
            levels = [float(a.get("confidence", 1.0)) for a in alternatives]
            if not all(0.0 <= level <= 1.0 for level in levels):  # NaN fails too
                raise ValueError('"confidence" must be a number from 0 to 1')
        elif isinstance(item.get("text"), str):
            texts, levels = [item["text"]], [1.0]
        else:
            raise ValueError('missing "text" (a string) or "nbest"')
        fen = item.get("fen", chess.STARTING_FEN)
        if not isinstance(fen, str):
            raise ValueError('"fen" must be a string')
        result = parse_one(fen, _hypotheses(texts, levels, vocab), vocab, thresholds, language)
    except (ValueError, TypeError) as error:
        return {"id": ident, "error": str(error)}
    return {"id": ident, **result}


def _random_positions(count: int, seed: int = 2024) -> list[chess.Board]:
    """Positions from random games, plus the classic 218-move position (the most known)."""
    rng = random.Random(seed)
    boards = [chess.Board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")]
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if any(board.legal_moves):
            boards.append(board)
    return boards


def _confusions(vocab: Vocabulary) -> dict[str, str]:
    """Each file, rank, piece and castling word → the other word of its kind that sounds most
    like it (what a recogniser confuses it with)."""
    groups = [vocab.file_words, vocab.rank_words, tuple(PIECE_WORDS.values()), ("kurze", "lange")]
    return {
        word: min((w for w in group if w != word), key=lambda w: sound_distance(word, w))
        for group in groups
        for word in group
    }


def _outcome(result: MatchResult, move: chess.Move, meant: chess.Move | None) -> str:
    """How a match ended for a speaker who meant ``move``; ``meant`` is the move the corrupted
    words name exactly (then playing it is what the words said, not a matcher error)."""
    offered = [c.move for c in result.candidates]
    if result.decision == Decision.ACCEPT:
        if result.move == move:
            return "played right"
        return "played the move the words name" if result.move == meant else "played WRONG"
    if result.decision == Decision.CONFIRM:
        return "asked back right" if result.move == move else "asked back another"
    if result.decision == Decision.CHOOSE:
        return "offered incl. right" if move in offered else "offered without right"
    return "refused, saying why" if result.refusal is not None else "not understood"


def benchmark(count: int, vocab: Vocabulary, thresholds: MatchingSettings) -> str:
    """Cold phrase-table build per position; then, for every fifth legal move, its canonical
    words exactly, with one word confused with the nearest-sounding word of its kind, and with
    one word dropped: how long matching takes and how each case ends. Returns the report."""
    from voice.words import phrases

    rng = random.Random(7)
    confusions = _confusions(vocab)
    build_ms: list[float] = []
    match_ms: list[float] = []
    sizes: list[int] = []
    outcomes: dict[str, Counter[str]] = {
        "exact": Counter(),
        "confused": Counter(),
        "dropped": Counter(),
    }
    for board in _random_positions(count):
        phrases._CACHE.clear()
        start = time.perf_counter()
        table = phrase_table(board, vocab)
        match_move(board, [Hypothesis(("eins",))], vocab, thresholds)  # builds the search trie
        build_ms.append((time.perf_counter() - start) * 1000)
        sizes.append(len(table))
        for move in table.moves()[::5]:
            words = table.forms(move)[0]
            confusable = [i for i, w in enumerate(words) if w in confusions]
            index = rng.choice(confusable)
            confused = (*words[:index], confusions[words[index]], *words[index + 1 :])
            index = rng.randrange(len(words))
            dropped = words[:index] + words[index + 1 :]
            for kind, phrase in (("exact", words), ("confused", confused), ("dropped", dropped)):
                start = time.perf_counter()
                result = match_move(board, [Hypothesis(phrase)], vocab, thresholds)
                match_ms.append((time.perf_counter() - start) * 1000)
                outcomes[kind][_outcome(result, move, table.phrases.get(phrase))] += 1
    match_ms.sort()
    lines = [
        f"positions: {len(sizes)}, phrases per position: mean {statistics.mean(sizes):.0f}, "
        f"max {max(sizes)}",
        f"phrase table + search trie (cold): mean {statistics.mean(build_ms):.2f} ms, "
        f"max {max(build_ms):.2f} ms",
        f"match one utterance ({len(match_ms)}): mean {statistics.mean(match_ms):.2f} ms, "
        f"p95 {match_ms[int(len(match_ms) * 0.95)]:.2f} ms, max {match_ms[-1]:.2f} ms",
    ]
    for kind, tally in outcomes.items():
        total = sum(tally.values())
        shares = ", ".join(f"{name} {n / total:.1%}" for name, n in tally.most_common())
        lines.append(f"{kind} words ({total}): {shares}")
    return "\n".join(lines)


def run(args: argparse.Namespace, settings: Settings) -> int:
    vocab = Vocabulary.of(settings)
    thresholds = settings.matching
    language = settings.language.blind
    if args.benchmark:
        print(benchmark(args.benchmark, vocab, thresholds))
        return 0
    if args.batch:
        try:
            for line in input_lines(args.batch):
                start = time.perf_counter()
                out: Mapping[str, object] = _batch_line(line, vocab, thresholds, language)
                print(json.dumps(out, ensure_ascii=False), flush=True)
                if args.time:
                    print(f"{(time.perf_counter() - start) * 1000:.2f} ms", file=sys.stderr)
        except OSError as error:
            print(f"voice-chess parse: cannot read {args.batch}: {error.strerror}", file=sys.stderr)
            return 2
        return 0
    if not args.text:
        print("voice-chess parse: give TEXT, --batch FILE or --benchmark N", file=sys.stderr)
        return 2
    try:
        hypotheses = _hypotheses(args.text, args.confidence, vocab)
        start = time.perf_counter()
        out = parse_one(args.fen, hypotheses, vocab, thresholds, language)
        elapsed = (time.perf_counter() - start) * 1000
    except ValueError as error:
        print(json.dumps({"error": str(error)}, ensure_ascii=False))
        return 2
    print(json.dumps(out, ensure_ascii=False))
    if args.time:
        print(f"{elapsed:.2f} ms", file=sys.stderr)
    return 0
