"""Every link in the repository's Markdown files leads somewhere inside a clone: a relative link must name a file
or folder of the repository (and a heading of it, when it has a #fragment), and nothing may point at the
``../shared`` folder that sits beside the repository on the developers' machines but is not part of it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
OUTSIDE = re.compile(r"\.\./shared/|\bshared/(rules/|replay-format|glossary)")


def markdown_files() -> list[Path]:
    """The Markdown files git would commit (every one outside hidden and build folders when git is not at hand)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = []
    if listed:
        return [ROOT / name for name in listed if (ROOT / name).exists()]
    skip = {"node_modules", "build", "dist"}
    return [
        p
        for p in ROOT.rglob("*.md")
        if not any(
            part.startswith(".") or part in skip or part.endswith(".egg-info") for part in p.relative_to(ROOT).parts
        )
    ]


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    found: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#{1,6}\s+(.*)", line)
        if match:
            text = re.sub(r"[`*_]|<[^>]+>", "", match[1]).strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


def broken_links(text: str, path: Path) -> list[str]:
    """The links of ``text`` (the content of the Markdown file ``path``) that lead nowhere in the repository."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold examples, not links
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:, ...
            continue
        file_part, _, fragment = target.partition("#")
        resolved = (path.parent / unquote(file_part)).resolve() if file_part else path
        if ROOT not in resolved.parents and resolved != ROOT:
            broken.append(f"{target}: outside the repository")
        elif not resolved.exists():
            broken.append(f"{target}: no such file")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no heading #{fragment}")
    return broken


def test_the_repository_has_markdown_files_to_check() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in markdown_files()}
    assert {"README.md", "docs/rules.md", "docs/naming.md", "docs/replays.md"} <= names


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_inside_the_repository(path: Path) -> None:
    assert broken_links(path.read_text(encoding="utf-8"), path) == []


def test_a_link_out_of_the_repository_a_missing_page_or_heading_is_caught() -> None:
    """The checker itself, on a page in docs/ (a link to the shared folder leaves the repository)."""
    text = (
        "[a](../../shared/rules/catan.md) [b](missing.md) [c](naming.md#no-such-heading) [d](naming.md#cells) "
        "[e](../README.md#slash-commands) [f](https://discord.com/developers) ![g](images/nope.png)"
    )
    assert [line.split(": ")[0] for line in broken_links(text, ROOT / "docs" / "page.md")] == [
        "../../shared/rules/catan.md",
        "missing.md",
        "naming.md#no-such-heading",
        "images/nope.png",
    ]


def test_no_file_names_the_shared_folder_beside_the_repository() -> None:
    offenders = []
    for pattern in ("*.md", "*.py", "*.toml"):
        for path in ROOT.rglob(pattern):
            parts = path.relative_to(ROOT).parts
            if any(part.startswith(".") or part.endswith(".egg-info") for part in parts) or path == Path(__file__):
                continue
            if OUTSIDE.search(path.read_text(encoding="utf-8", errors="replace")):
                offenders.append(path.relative_to(ROOT).as_posix())
    assert offenders == []
