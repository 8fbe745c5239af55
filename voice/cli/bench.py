"""``voice-chess bench asr``: recognition accuracy and latency on a synthesized corpus.

Prints per condition (clean, pink noise at 10 dB SNR, reverberation) how many utterances became
the right move, another move, a choice or nothing, the decode time median and 95th percentile,
how often non-chess speech and noise alone became a proposed move, and the peak memory. The
figures are measured, never asserted; the README explains how to read them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from voice.config import Settings
from voice.recognizers import RecognizerError
from voice.recognizers.lexicon import LexiconError
from voice.vocabulary import Vocabulary

NAME = "bench"
HELP = "measure speech recognition: accuracy on synthesized moves, false moves, decode time"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    kinds = parser.add_subparsers(dest="bench", metavar="WHAT", required=True)
    asr = kinds.add_parser("asr", help="recogniser accuracy and latency (espeak-ng corpus)")
    asr.add_argument("--quick", action="store_true", help="60 moves instead of 200 (~1 min)")
    asr.add_argument("--count", type=int, help="number of move utterances (default 200)")
    asr.add_argument("--seed", type=int, default=2026, help="corpus seed (default 2026)")
    asr.add_argument("--backend", choices=("sphinx", "vosk"), help="default: [speech] recognizer")
    asr.add_argument("--model", metavar="PATH", help="Vosk model folder")
    asr.add_argument("--keep", type=Path, metavar="DIR", help="keep the generated audio here")
    asr.add_argument("--failures", type=int, default=0, metavar="N", help="list N failures")
    asr.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    asr.add_argument(
        "--voices",
        choices=("benchmark", "training"),
        default="benchmark",
        help="the benchmark's ten voices, or sixteen others to tune on (default: benchmark)",
    )
    asr.add_argument(
        "--lexicon",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a .dict file of extra pronunciations to try (PocketSphinx; may be repeated)",
    )
    asr.add_argument(
        "--sentences",
        type=Path,
        metavar="FILE",
        help="German sentences that are not moves, one per line, said once each instead of "
        "the built-in 40 said three times (how often speech becomes a move)",
    )
    asr.add_argument(
        "--enrol",
        type=int,
        default=0,
        metavar="N",
        help="first enrol each voice with N moves of its own, as 'voice-chess enrol' does, "
        "and measure with its adaptation (PocketSphinx)",
    )
    asr.add_argument(
        "--learn",
        type=int,
        default=0,
        metavar="N",
        help="first let each voice play N moves of its own and learn from those a game would "
        "have played, with the words heard, as after a game (PocketSphinx)",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from voice.bench import asr

    count = args.count or (60 if args.quick else 200)
    vocab = Vocabulary.from_settings(settings.vocabulary, settings.language.commands)
    backend = args.backend or settings.speech.recognizer
    try:
        sentences = asr.read_sentences(args.sentences) if args.sentences else ()
        report = asr.run(
            settings,
            vocab,
            count=count,
            seed=args.seed,
            backend=backend,
            model_path=args.model,
            keep=args.keep,
            progress=lambda text: print(text, file=sys.stderr, flush=True),
            voices=asr.TRAINING_VOICES if args.voices == "training" else asr.VOICES,
            lexicon=args.lexicon,
            enrol=args.enrol,
            learn=args.learn,
            sentences=sentences,
        )
    except (RecognizerError, RuntimeError, LexiconError, OSError) as error:
        print(f"voice-chess bench asr: {error}", file=sys.stderr)
        return 1
    print(
        asr.format_report(
            report,
            backend=backend,
            seed=args.seed,
            failures=args.failures,
            voices=args.voices,
            enrol=args.enrol,
            learn=args.learn,
        )
    )
    if args.json:
        figures: dict[str, object] = {
            name: {
                "n": tally.count,
                **{
                    k: round(tally.share(k), 2)
                    for k in ("correct", "wrong", "choose", "rejected", "proposed")
                },
                "decode_ms_median": asr.statistics.median(tally.decode_ms) if tally.count else 0,
                "decode_ms_p95": asr._percentile(tally.decode_ms, 95),
                "heard_first": round(100.0 * tally.first / max(tally.count, 1), 2),
            }
            for name, tally in report.tallies.items()
        }
        figures["rss_mb"] = round(report.rss_mb, 1)
        figures["helper_rss_mb"] = round(report.helper_rss_mb, 1)
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0
