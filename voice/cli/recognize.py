"""``voice-chess recognize``: a recorded utterance in a position → what the program would do.

``--fen FEN FILE.wav`` prints one JSON object: ``decision``, ``move``, ``candidates`` (as
``voice-chess parse`` gives them), ``heard`` (the recogniser's n-best list with confidences),
``decode_ms``, and ``command`` when a command phrase was heard instead of a move.
``--batch FILE`` reads JSON lines ``{"id", "fen", "wav"}`` and writes one object per line with
its ``id`` (a bad line gives ``{"id", "error"}`` and the others go on). WAV files of any common
rate, sample format and channel count are accepted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NotRequired, TypedDict

import chess

from voice.cli._input import board_from_fen, input_lines
from voice.cli.parse import MatchJson, result_json
from voice.config import Settings
from voice.speech.recognizers import Recognizer, RecognizerError, hypotheses, make_recognizer
from voice.speech.recognizers.grammar import position_phrases
from voice.speech.wavio import RATE, WavError, load_for_recognition
from voice.words.matcher import match_move
from voice.words.phrases import phrase_table
from voice.words.vocabulary import Vocabulary

NAME = "recognize"
HELP = "recognise a WAV recording of a spoken move in a position and print the decision as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("wav", nargs="?", help="the recording (WAV, any rate and channel count)")
    parser.add_argument(
        "--fen", default=chess.STARTING_FEN, help="the position (default: the start position)"
    )
    parser.add_argument(
        "--batch",
        metavar="FILE",
        help='JSON lines {"id", "fen", "wav"} ("-" reads standard input); one result per line',
    )
    parser.add_argument(
        "--backend",
        choices=("auto", "whisper", "sphinx", "vosk"),
        help="default: [speech] recognizer",
    )
    parser.add_argument("--model", metavar="PATH", help="Vosk or Whisper model folder or name")


class HeardJson(TypedDict):
    """One reading of the recording, best first."""

    text: str
    confidence: float


class RecognitionJson(MatchJson):
    """What ``recognize`` prints for one recording: the match of what was heard, and how."""

    heard: list[HeardJson]
    decode_ms: float
    partial: NotRequired[str]
    reason: NotRequired[str]
    command: NotRequired[str]


def recognize_one(
    recognizer: Recognizer, fen: str, wav: str | Path, vocab: Vocabulary, settings: Settings
) -> RecognitionJson:
    """One recording in one position → the JSON object (raises ValueError for bad input)."""
    board = board_from_fen(fen)
    try:
        audio = load_for_recognition(wav)
    except FileNotFoundError:
        raise ValueError(f"{wav}: no such file") from None
    except WavError as error:
        raise ValueError(str(error)) from None
    recognizer.set_context(position_phrases(board, vocab), phrase_table(board, vocab).named_moves())
    transcript = recognizer.recognize(audio, RATE)
    result = match_move(board, hypotheses(transcript, vocab), vocab, settings.matching)
    match = result_json(board, result, vocab, settings.language.blind)
    out: RecognitionJson = {
        **match,  # type: ignore[typeddict-item]  # partial, reason, command: added below
        "heard": [{"text": text, "confidence": conf} for text, conf in transcript.nbest],
        "decode_ms": transcript.decode_ms,
    }
    if not transcript.complete:
        out["partial"] = transcript.partial
    if transcript.reason:
        out["reason"] = transcript.reason
    command = vocab.command_for(tuple(transcript.best.split())) if transcript.nbest else None
    if command is not None:
        out["command"] = command
    return out


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not args.batch and not args.wav:
        print("voice-chess recognize: give a WAV file or --batch FILE", file=sys.stderr)
        return 2
    vocab = Vocabulary.of(settings)
    try:
        recognizer = make_recognizer(settings, vocab, backend=args.backend, model_path=args.model)
    except RecognizerError as error:
        print(f"voice-chess recognize: {error}", file=sys.stderr)
        return 1
    if not args.batch:
        try:
            one = recognize_one(recognizer, args.fen, args.wav, vocab, settings)
        except ValueError as error:
            print(f"voice-chess recognize: {error}", file=sys.stderr)
            return 1
        print(json.dumps(one, ensure_ascii=False))
        return 0
    failed = False
    try:
        lines = list(input_lines(args.batch))
    except OSError as error:
        print(f"voice-chess recognize: {args.batch}: {error.strerror}", file=sys.stderr)
        return 1
    base = Path(args.batch).parent if args.batch != "-" else Path.cwd()
    for line in lines:
        ident: object = None
        try:
            try:
                item = json.loads(line)
            except RecursionError:
                raise ValueError("not a JSON object: nested too deeply") from None
            ident = item.get("id")
            wav = Path(item["wav"])
            out: Mapping[str, object] = recognize_one(
                recognizer, item.get("fen", chess.STARTING_FEN), base / wav, vocab, settings
            )
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            failed = True
            reason = f"missing key {error}" if isinstance(error, KeyError) else str(error)
            out = {"error": reason}
        print(json.dumps({"id": ident, **out}, ensure_ascii=False), flush=True)
    return 1 if failed else 0
