"""``voice-chess recognize``: a WAV file (any common format) in a position → one JSON decision."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import chess
import pytest
from speech_audio import needs_espeak

from voice.cli import main

pytestmark = needs_espeak

AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def _say(text: str, path: Path, *sox_options: str, rate: int = 175) -> Path:
    """espeak-ng speech (``rate`` words a minute) converted by sox to the format
    ``sox_options`` ask for."""
    raw = path.with_suffix(".raw.wav")
    espeak = ["espeak-ng", "-v", "de", "-s", str(rate), "-w", str(raw), text]
    subprocess.run(espeak, check=True)
    subprocess.run(["sox", "-R", "-G", str(raw), *sox_options, str(path)], check=True)
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["recognize", *argv])
    return code, capsys.readouterr().out


def test_a_stereo_44k_recording_gives_one_json_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wav = _say("Springer Felix drei", tmp_path / "move.wav", "-r", "44100", "-c", "2")
    code, out = _run(capsys, "--fen", AFTER_E4_E5, str(wav))
    assert code == 0
    result = json.loads(out)
    assert set(result) >= {"decision", "move", "candidates", "heard", "decode_ms"}
    assert result["decision"] == "accept"
    assert result["move"] == "g1f3"
    assert result["candidates"][0]["uci"] == "g1f3"
    assert result["heard"][0]["text"] == "springer felix drei"
    assert result["decode_ms"] > 0


def test_8k_float_and_24_bit_recordings_are_read_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, options in {
        "phone.wav": ("-r", "8000", "-e", "floating-point", "-b", "32"),
        "studio.wav": ("-r", "48000", "-b", "24"),
    }.items():
        wav = _say("Bauer Eva vier", tmp_path / name, *options)
        code, out = _run(capsys, str(wav))
        assert code == 0, name
        assert json.loads(out)["move"] == "e2e4", name


def test_a_command_word_is_reported_as_a_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Said a little slower than espeak-ng's default: a lone word at 175 words a minute is
    # beyond Whisper base ("Mita H"), and a word not understood is rightly refused.
    wav = _say("Wiederholen", tmp_path / "repeat.wav", "-r", "16000", rate=150)
    code, out = _run(capsys, str(wav))
    result = json.loads(out)
    assert code == 0
    assert result["command"] == "repeat"
    assert result["decision"] == "reject"


def test_batch_lines_keep_their_ids_and_a_bad_line_does_not_stop_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _say("Springer Felix drei", tmp_path / "a.wav", "-r", "22050")
    lines = [
        {"id": "first", "fen": AFTER_E4_E5, "wav": "a.wav"},
        {"id": "missing", "fen": chess.STARTING_FEN, "wav": "nowhere.wav"},
        {"id": "badfen", "fen": "not a fen", "wav": "a.wav"},
    ]
    batch = tmp_path / "batch.jsonl"
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    batch.write_text(text + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    code, out = _run(capsys, "--batch", str(batch))
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in results] == ["first", "missing", "badfen", None]
    assert "nested too deeply" in results[3]["error"]
    assert results[0]["move"] == "g1f3"
    assert "no such file" in results[1]["error"]
    assert "bad FEN" in results[2]["error"]
    assert code == 1


def test_a_file_that_is_not_wav_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.wav"
    text.write_text("hello", encoding="utf-8")
    assert main(["recognize", str(text)]) == 1
    assert "not a WAV file" in capsys.readouterr().err
