"""Message catalogues: every language has every key with the same placeholders, and every
scenario script runs in every language (a placeholder the code fills but a catalogue lacks
would otherwise crash a game in that language only)."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable
from pathlib import Path

import pytest
from session_scripts import SCRIPTS

import voice
from voice.config import Settings
from voice.game.simulate import run_script
from voice.words.messages import catalogue, languages

REFERENCE = "en"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_five_languages_of_the_issue_have_catalogues() -> None:
    assert {"de", "en"} <= set(languages())


@pytest.mark.parametrize("language", languages())
def test_every_key_in_every_catalogue(language: str) -> None:
    reference, table = catalogue(REFERENCE), catalogue(language)
    assert sorted(set(reference) - set(table)) == [], "missing keys"
    assert sorted(set(table) - set(reference)) == [], "keys no other catalogue has"


@pytest.mark.parametrize("language", languages())
def test_placeholders_match_the_reference(language: str) -> None:
    reference, table = catalogue(REFERENCE), catalogue(language)
    wrong = {
        key: (placeholders(reference[key]), placeholders(table[key]))
        for key in reference.keys() & table.keys()
        if placeholders(reference[key]) != placeholders(table[key])
    }
    assert wrong == {}


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("script", sorted(p.stem for p in SCRIPTS.glob("*.jsonl")))
def test_every_scenario_script_runs_in_every_language(
    script: str, language: str, settings: Settings
) -> None:
    lines = (SCRIPTS / f"{script}.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["setup"]["language"] = language
    out = list(run_script([json.dumps(first), *lines[1:]], settings))
    assert any("say" in line for line in out)


@pytest.mark.parametrize("language", languages())
def test_every_template_formats_with_its_own_placeholders(language: str) -> None:
    """No stray brace, no placeholder the code cannot fill: str.format must succeed."""
    for key, template in catalogue(language).items():
        text = template.format(**{name: f"<{name}>" for name in placeholders(template)})
        assert "{" not in text and "}" not in text, key
        assert text.strip() or not catalogue(REFERENCE)[key].strip(), key


def test_an_untranslated_or_fuzzy_entry_falls_back_to_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A half-done translation says the English sentence, never nothing and never a guess."""
    import voice.words.messages as messages

    (tmp_path / "en.po").write_text(
        (messages.LOCALES / "en.po").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "xx.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "not_understood"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "game.resign.cancelled"\nmsgstr "a guess"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(messages, "LOCALES", tmp_path)
    messages.catalogue.cache_clear()
    try:
        assert messages.catalogue("xx") == {}
        assert messages.message("xx", "not_understood") == catalogue(REFERENCE)["not_understood"]
        assert messages.message("xx", "game.resign.cancelled") != "a guess"
    finally:
        messages.catalogue.cache_clear()


# -- unused keys --------------------------------------------------------------------------------

_PACKAGE = Path(voice.__file__).parent
_SOURCES = [
    *sorted(_PACKAGE.rglob("*.py")),
    *sorted((_PACKAGE / "web" / "static").glob("*.js")),
    *sorted((_PACKAGE / "web" / "static").glob("*.html")),
]
_QUOTED = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'|`([^`\n]*)`")
_HOLE = re.compile(r"\$?\{[^{}]*\}")
_PAGE_TEXT = re.compile(r"\{\{t:([a-z0-9_.\-]+)\}\}")  # how the HTML pages name their texts


def _references() -> tuple[set[str], list[re.Pattern[str]]]:
    """Every quoted string in the program, and the f-string/template ones as patterns."""
    literals: set[str] = set()
    templates: list[re.Pattern[str]] = []
    for path in _SOURCES:
        source = path.read_text(encoding="utf-8")
        literals.update(_PAGE_TEXT.findall(source))
        for match in _QUOTED.finditer(source):
            text = next(group for group in match.groups() if group is not None)
            if _HOLE.search(text):
                parts = _HOLE.split(text)
                # f"game.{key}" in a helper names no key: only templates with a literal part
                # beyond one namespace ("game.side.{side}", "position.{piece}_{kind}") count.
                if parts[0].count(".") <= 1 and not any(parts[1:]):
                    continue
                if not re.search("[a-z]", "".join(parts)):  # f"{stem}.{suffix}"
                    continue
                templates.append(re.compile("[a-z0-9_]+".join(map(re.escape, parts))))
            else:
                literals.add(text)
    return literals, templates


def _suffixes(key: str) -> list[str]:
    """The key and what remains after leading segments a helper adds ("game.", "web.")."""
    parts = key.split(".")
    return [".".join(parts[i:]) for i in range(len(parts))]


def unused_keys(keys: Iterable[str]) -> list[str]:
    literals, templates = _references()
    return sorted(
        key
        for key in keys
        if not any(
            suffix in literals or any(t.fullmatch(suffix) for t in templates)
            for suffix in _suffixes(key)
        )
    )


def test_no_key_is_unused() -> None:
    """A key nothing says is dead weight for five translators: the program must name it,
    literally or through the f-string/template it is built with."""
    assert unused_keys(catalogue(REFERENCE)) == []


def test_the_unused_key_check_does_catch_one() -> None:
    assert unused_keys(["game.nobody_says_this_sentence"]) == ["game.nobody_says_this_sentence"]
