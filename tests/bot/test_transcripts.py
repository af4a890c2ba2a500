"""The committed transcripts (docs/transcripts/<lang>.txt) are what the bot says today: each is played again on the
simulated Discord and compared line by line. After changing any text, regenerate them (the command is printed)."""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

import pytest

from bot.text.i18n import LANGUAGES
from tools.transcript import main

ROOT = Path(__file__).resolve().parents[2]


def regenerate(lang: str) -> str:
    return f"python -m tools.transcript {lang} --out docs/transcripts/{lang}.txt"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_transcript_is_what_the_bot_says_now(lang: str) -> None:
    committed = ROOT / "docs" / "transcripts" / f"{lang}.txt"
    assert committed.exists(), f"no transcript for {lang}: run {regenerate(lang)}"
    played = subprocess.run(
        [sys.executable, "-m", "tools.transcript", lang], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert played.returncode == 0, played.stderr[-3000:]
    diff = list(
        difflib.unified_diff(
            committed.read_text(encoding="utf-8").splitlines(),
            played.stdout.splitlines(),
            f"docs/transcripts/{lang}.txt (committed)",
            f"{lang} (played now)",
            lineterm="",
            n=1,
        )
    )
    shown = "\n".join(diff[:40]) + (f"\n... ({len(diff) - 40} more diff lines)" if len(diff) > 40 else "")
    if diff:
        pytest.fail(f"the {lang} transcript is out of date; regenerate it with\n    {regenerate(lang)}\n{shown}", False)


def test_an_unknown_language_is_refused_with_the_allowed_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fr"]) == 2
    said = capsys.readouterr().err.strip()
    assert said == "unknown language 'fr': use one of en, zh-CN, zh-TW, ru"


def test_help_describes_every_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert "LANG" in shown and "en, zh-CN, zh-TW, ru" in shown and "--out FILE" in shown and "standard output" in shown
