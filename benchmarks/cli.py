"""The benchmarks' command, run from the repository as ``python -m benchmarks WHAT``.

``asr``: recognition accuracy and latency on a synthesized corpus; ``latency``: end of speech to
the spoken answer through the whole program on virtual audio devices (:mod:`benchmarks.latency`);
``starts``: how often ``voice-chess play`` starts and ends cleanly; ``web``: click-to-announcement
latency of the web board (:mod:`benchmarks.cli_web`); ``answers``: yes, no, the numbers and the
requests said alone, decided as the program decides them (:mod:`benchmarks.answers`). They need
the repository and the test extras, so they are not part of the installed program.

Prints per condition (clean; pink noise and babble at 10 and 5 dB signal-to-noise ratio over the
whole recording; a reverberant hall; accented German) how many utterances became the right
move, another move (and how many of those were played without a question), a choice or
nothing, the decode time median and 95th percentile, how often non-chess speech and noise alone
became a proposed move, and the peak memory, each beside its aim. Figures to report come from
``--voices report`` (voices nothing was tuned on); tune on ``--voices tuning``. The figures are
measured, never asserted; the README explains how to read them. ``--frontend`` puts a noise
suppressor (:mod:`benchmarks.frontend`) before the recogniser.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from benchmarks import cli_web
from voice.config import ConfigError, Settings, load_settings, override
from voice.speech.recognizers import RecognizerError, make_recognizer
from voice.speech.recognizers.lexicon import LexiconError
from voice.words.vocabulary import Vocabulary

PROG = "python -m benchmarks"
HELP = (
    "measure speech recognition (accuracy, false moves, decode time), start-up reliability and "
    "the web board's click-to-announcement latency"
)

# Kept here as well as in benchmarks.asr, so that building the parser imports no numpy.
VOICE_SET_NAMES = ("benchmark", "training", "tuning", "report", "pico")
CONDITION_NAMES = (
    "clean",
    "pink10",
    "pink5",
    "babble10",
    "babble5",
    "hall",
    "accented",
    "non-chess",
    "noise",
)
FRONTEND_NAMES = ("none", "webrtc", "rnnoise", "deepfilter", "speex")  # benchmarks.frontend.KINDS


def _conditions(text: str) -> tuple[str, ...]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in CONDITION_NAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown condition {', '.join(unknown) or '(none given)'}; "
            f"choose from {','.join(CONDITION_NAMES)}"
        )
    return tuple(name for name in CONDITION_NAMES if name in names)


def build_parser() -> argparse.ArgumentParser:
    """``asr``, ``starts`` and ``web``, with the options they had as ``voice-chess bench …``."""
    parser = argparse.ArgumentParser(prog=PROG, description=HELP)
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="a voice-chess settings file (default: the file `voice-chess config path` prints, "
        "if it exists)",
    )
    kinds = parser.add_subparsers(dest="bench", metavar="WHAT", required=True)
    starts = kinds.add_parser(
        "starts", help="start 'voice-chess play' many times, end each with Ctrl-C, count crashes"
    )
    starts.add_argument("--runs", type=int, default=100, help="number of starts (default 100)")
    asr = kinds.add_parser("asr", help="recogniser accuracy and latency (espeak-ng corpus)")
    asr.add_argument(
        "--quick",
        action="store_true",
        help="30 moves instead of 200 and the 40 sentences said once (about a minute)",
    )
    asr.add_argument("--count", type=int, help="number of move utterances (default 200)")
    asr.add_argument("--seed", type=int, default=2026, help="corpus seed (default 2026)")
    asr.add_argument(
        "--backend",
        choices=("auto", "sphinx", "vosk", "whisper"),
        help="default: [speech] recognizer",
    )
    asr.add_argument("--model", metavar="PATH", help="Vosk model folder")
    asr.add_argument("--keep", type=Path, metavar="DIR", help="keep the generated audio here")
    asr.add_argument("--failures", type=int, default=0, metavar="N", help="list N failures")
    asr.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    asr.add_argument(
        "--voices",
        choices=tuple(VOICE_SET_NAMES),
        default="benchmark",
        help="benchmark: the ten voices of earlier figures (default); tuning (= training): "
        "sixteen others, the only ones to tune on; report: sixteen voices used by neither, "
        "at wider rate and pitch, for figures to report; pico: SVOX Pico's German voice, "
        "another synthesizer, at the report rates and pitches",
    )
    asr.add_argument(
        "--conditions",
        type=_conditions,
        metavar="LIST",
        help="comma-separated, of " + ",".join(CONDITION_NAMES) + " (default: all)",
    )
    asr.add_argument(
        "--room",
        action="store_true",
        help="hear every move as in a room: noise 5 s before the words and 1.5 s after, cut by "
        "the program's end-pointer (a move it never delivers counts as rejected and unheard)",
    )
    asr.add_argument(
        "--talk-key",
        action="store_true",
        help="as --room, but every move is what the talk key records, from one press to the "
        "next, not cut by the end-pointer",
    )
    asr.add_argument(
        "--frontend",
        choices=FRONTEND_NAMES,
        default="none",
        metavar="KIND",
        help="pass every utterance through a noise suppressor first: "
        + ", ".join(FRONTEND_NAMES)
        + " (default none; each but none needs its own package)",
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
    calibrate = kinds.add_parser(
        "calibrate",
        help="fit Whisper's decision rule on the tuning voices (prints the constants)",
    )
    calibrate.add_argument("--count", type=int, default=120, help="moves (default 120)")
    calibrate.add_argument(
        "--seed",
        type=_seeds,
        default=(101, 102),
        help="corpus seeds, comma-separated, each a corpus of --count moves, pooled "
        "(default 101,102: the shipped constants)",
    )
    answers = kinds.add_parser(
        "answers",
        help="words said alone: yes, no, the numbers and the requests, decided as the program "
        "decides them",
    )
    answers.add_argument("--count", type=int, default=6, help="times each word (default 6)")
    answers.add_argument("--seed", type=int, default=2026, help="corpus seed (default 2026)")
    answers.add_argument(
        "--voices",
        choices=("tuning", "report", "pico"),
        default="report",
        help="report: the voices figures are reported from (default); tuning: the only ones "
        "to tune on; pico: SVOX Pico's German voice, another synthesizer",
    )
    answers.add_argument(
        "--backend",
        choices=("auto", "sphinx", "vosk", "whisper"),
        help="default: [speech] recognizer",
    )
    answers.add_argument(
        "--conditions",
        default="clean,pink10,hall,babble10",
        help="rooms, comma-separated (default: clean,pink10,hall,babble10; pink5 and babble5 too)",
    )
    answers.add_argument(
        "--talk-key",
        action="store_true",
        help="hear each word as the talk key records it, from one press to the next, not "
        "cut by the end-pointer",
    )
    latency = kinds.add_parser(
        "latency",
        help="end of speech to the spoken answer, through 'voice-chess play' on virtual devices",
    )
    latency.add_argument(
        "--moves", type=int, default=20, help="moves said in each condition (default 20)"
    )
    latency.add_argument("--seed", type=int, default=2026, help="seed (default 2026)")
    web = kinds.add_parser("web", help=cli_web.HELP, description=cli_web.HELP)
    cli_web.add_arguments(web)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse, read the settings as ``voice-chess`` does, run the benchmark chosen."""
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config)
    except ConfigError as error:
        print(f"{PROG}: configuration error\n{error}", file=sys.stderr)
        return 2
    try:
        return run(args, settings)
    except KeyboardInterrupt:
        return 130


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.bench == "starts":
        return _starts(args, settings)
    if args.bench == "web":
        return cli_web.run(args, settings)
    if args.bench == "latency":
        return _latency(args, settings)
    if args.bench == "calibrate":
        return _calibrate(args, settings)
    if args.bench == "answers":
        return _answers(args, settings)
    from benchmarks import asr

    count = args.count or (30 if args.quick else 200)
    chosen = asr.VOICE_SETS[args.voices]
    vocab = Vocabulary.of(settings)
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
            progress=_progress,
            voices=chosen.voices,
            rates=chosen.rates,
            pitches=chosen.pitches,
            lexicon=args.lexicon,
            enrol=args.enrol,
            learn=args.learn,
            sentences=sentences,
            conditions=args.conditions or tuple(asr.SELECTABLE),
            repeats=1 if args.quick else 3,
            frontend=args.frontend,
            room=args.room,
            talk_key=args.talk_key,
        )
    except (RecognizerError, RuntimeError, LexiconError, OSError) as error:
        print(f"{PROG} asr: {error}", file=sys.stderr)
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
        figures = asr.figures(report, backend=backend, seed=args.seed, voices=args.voices)
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


def _starts(args: argparse.Namespace, settings: Settings) -> int:
    """The start-up probe; exits 1 when any start died, did not begin or did not end."""
    from benchmarks import starts

    if args.runs < 1:
        print(f"{PROG} starts: --runs must be at least 1", file=sys.stderr)
        return 2
    report = starts.run(
        args.runs,
        language=settings.language.blind,
        progress=_progress,
    )
    print(starts.format_report(report))
    return 0 if report.count("clean") == args.runs else 1


def _latency(args: argparse.Namespace, settings: Settings) -> int:
    """End of speech to the answer; needs pulseaudio, espeak-ng, sox and Stockfish."""
    import shutil

    from benchmarks import latency

    missing = [t for t in ("pulseaudio", "pactl", "espeak-ng", "sox") if not shutil.which(t)]
    if missing:
        print(f"{PROG} latency: needs {', '.join(missing)} (Debian packages)", file=sys.stderr)
        return 2
    if args.moves < 1:
        print(f"{PROG} latency: --moves must be at least 1", file=sys.stderr)
        return 2
    vocab = Vocabulary.of(settings)
    try:
        report = latency.run(settings, vocab, moves=args.moves, seed=args.seed, progress=_progress)
    except (RuntimeError, OSError) as error:
        print(f"{PROG} latency: {error}", file=sys.stderr)
        return 1
    print(latency.format_report(report))
    return 0


def _calibrate(args: argparse.Namespace, settings: Settings) -> int:
    """Whisper's decision rule fitted on the tuning voices; prints the constants."""
    from benchmarks import calibrate

    if args.count < 1:
        print(f"{PROG} calibrate: --count must be at least 1", file=sys.stderr)
        return 2
    vocab = Vocabulary.of(settings)
    try:
        samples = [
            sample
            for seed in args.seed
            for sample in calibrate.collect(
                settings, vocab, count=args.count, seed=seed, progress=_progress
            )
        ]
    except (RecognizerError, RuntimeError, OSError) as error:
        print(f"{PROG} calibrate: {error}", file=sys.stderr)
        return 1
    print(calibrate.format_report(samples, calibrate.calibrate(samples)))
    return 0


def _answers(args: argparse.Namespace, settings: Settings) -> int:
    """Words said alone, decided as the program decides them; prints the table."""
    from benchmarks import answers, asr

    if args.count < 1:
        print(f"{PROG} answers: --count must be at least 1", file=sys.stderr)
        return 2
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    unknown = [c for c in conditions if c not in answers.SELECTABLE]
    if unknown or not conditions:
        known = ", ".join(answers.SELECTABLE)
        print(
            f"{PROG} answers: --conditions takes {known}, not {args.conditions!r}", file=sys.stderr
        )
        return 2
    vocab = Vocabulary.of(settings)
    backend = args.backend or settings.speech.recognizer
    # The recogniser as shipped, as the ASR benchmark measures it: never the user's voice.
    shipped = override(settings, speech={"adaptation": "off"})
    try:
        recognizer = make_recognizer(shipped, vocab, backend=backend)
        report = answers.run(
            settings,
            vocab,
            recognizer,
            count=args.count,
            seed=args.seed,
            voices=asr.VOICE_SETS[args.voices],
            conditions=conditions,
            talk_key=args.talk_key,
            progress=_progress,
        )
    except (RecognizerError, RuntimeError, LexiconError, OSError) as error:
        print(f"{PROG} answers: {error}", file=sys.stderr)
        return 1
    name = recognizer.describe()
    print(
        answers.format_report(
            report,
            backend=name,
            seed=args.seed,
            voices=args.voices,
            count=args.count,
            talk_key=args.talk_key,
        )
    )
    return 0


def _seeds(text: str) -> tuple[int, ...]:
    """``101,102`` → (101, 102)."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: whole numbers separated by commas, such as 101,102"
        ) from None


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
