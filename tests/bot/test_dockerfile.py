"""The image starts with no config file: defaults plus the environment it sets; nothing is written into the
volume after it is declared (the classic builder drops it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.config import Config, load_config

DOCKERFILE = Path(__file__).resolve().parents[2] / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_nothing_is_written_into_the_volume_after_it_is_declared() -> None:
    steps = instructions()
    volumes = [i for i, (op, _) in enumerate(steps) if op == "VOLUME"]
    assert volumes, "the database needs a volume"
    volume = steps[volumes[0]][1].strip('[]" ')
    for op, rest in steps[volumes[0] + 1 :]:
        assert not (op in ("RUN", "COPY", "ADD") and volume in rest), f"{op} {rest} writes into {volume}"


def test_the_image_runs_on_defaults_and_its_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env: dict[str, str] = {}
    for op, rest in instructions():
        if op == "ENV":
            env.update(dict(re.findall(r"(\w+)=(\S+)", rest)))
        assert not (op in ("COPY", "ADD") and "config" in rest), "the image ships no config file"
    assert "BOARDHOST_CONFIG" not in env, "no config file is expected"
    monkeypatch.chdir(tmp_path)  # the image's working directory has no config.toml
    for name in ("BOARDHOST_CONFIG", "BOARDHOST_DATABASE", "BOARDHOST_LANGUAGE", "BOARDHOST_RENDER_PROCESSES"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    config = load_config()
    assert config.database == Path("/data/boardhost.sqlite3")
    assert config.render_processes == Config().render_processes == 2
