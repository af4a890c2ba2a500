"""The image starts with no config file: defaults plus the environment it sets; nothing is written into the
volume after it is declared (the classic builder drops it); the bot runs as a user who owns the volume, not root;
its HEALTHCHECK is ``python -m bot health``; the build context is what the image copies, nothing more."""

from __future__ import annotations

import json
import os
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


def test_the_bot_runs_as_a_user_who_owns_the_volume_not_as_root() -> None:
    steps = instructions()
    users = [rest.strip() for op, rest in steps if op == "USER"]
    assert users and users[-1] not in ("root", "0"), "the bot must not run as root"
    user = users[-1]
    cmd = max(i for i, (op, _) in enumerate(steps) if op == "CMD")
    assert max(i for i, (op, _) in enumerate(steps) if op == "USER") < cmd
    volume = next(rest.strip('[]" ') for op, rest in steps if op == "VOLUME")
    assert any(op == "RUN" and f"chown {user}" in rest and volume in rest for op, rest in steps), (
        f"{volume} must belong to {user}, or the bot cannot write its database there"
    )


def test_the_healthcheck_is_the_bots_health_command_reading_the_heartbeat_the_image_names() -> None:
    from bot.__main__ import parser
    from bot.core.heartbeat import ENV, EVERY, STALE_AFTER

    steps = instructions()
    checks = [rest for op, rest in steps if op == "HEALTHCHECK"]
    assert len(checks) == 1
    options, command = checks[0].split(" CMD ", 1)
    argv = json.loads(command)
    assert argv[:3] == ["python", "-m", "bot"] and parser().parse_args(argv[3:]).command == "health"
    interval = float(re.search(r"--interval=(\d+)s", options)[1])  # type: ignore[index]
    assert EVERY < interval and STALE_AFTER < 3 * interval, "a beat is written several times between two checks"
    env: dict[str, str] = {}
    for op, rest in steps:
        if op == "ENV":
            env.update(dict(re.findall(r"(\w+)=(\S+)", rest)))
    assert env[ENV].startswith("/tmp/"), "the heartbeat goes where the bot's user may write"


ROOT = DOCKERFILE.parent


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as Docker reads it: ``*`` and ``?`` within one path part, ``**`` across parts."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out)


def ignored(path: str) -> bool:
    """Whether Docker leaves ``path`` (relative to the context, with /) out of the build context: the last pattern
    matching the path or one of its parent folders decides."""
    rules = []
    for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rules.append((line.startswith("!"), pattern_regex(line.lstrip("!").strip("/"))))
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    out = False
    for negated, regex in rules:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            out = not negated
    return out


def test_dockerignore_lets_in_what_the_image_copies_and_nothing_else() -> None:
    copied = [source for op, rest in instructions() if op == "COPY" for source in rest.split()[:-1]]
    assert copied, "the Dockerfile copies nothing?"
    for source in copied:
        assert not ignored(source), f"COPY {source}: .dockerignore leaves it out of the build context"
    for name in ("bot/__main__.py", "render/fonts/DejaVuSans.ttf", "bot/locale/ru/LC_MESSAGES/boardhost.po"):
        assert not ignored(name), name
    for name in (
        ".venv/lib/python3.11/site-packages/discord/client.py",
        ".git/HEAD",
        "tests/conftest.py",
        "docs/images/catan_mid.png",
        "bench/bot_bench.py",
        "bot/__pycache__/app.cpython-311.pyc",
        "engine/catan/__pycache__/game.cpython-311.pyc",
        ".mypy_cache/3.11/bot.json",
        "boardhost.sqlite3",
        "config.toml",
    ):
        assert ignored(name), f"{name} would be sent to the builder"


def test_the_build_context_of_this_checkout_is_the_code_alone() -> None:
    """Walked as Docker would: a few MB (the fonts are most of it), however large .venv or .git are."""
    size = 0
    for folder, dirs, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT).as_posix()
        here = "" if here == "." else f"{here}/"
        dirs[:] = [d for d in dirs if not ignored(f"{here}{d}")]
        size += sum((Path(folder) / f).stat().st_size for f in files if not ignored(f"{here}{f}"))
    assert size < 16 * 2**20, f"the build context is {size / 2**20:.0f} MB"


def test_the_readme_builds_the_image_runs_it_and_syncs_once_on_the_same_volume() -> None:
    from bot.__main__ import parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docker = [line.strip() for line in readme.splitlines() if line.strip().startswith("docker ")]
    assert "docker build -t boardhost ." in docker
    run = next(line for line in docker if line.startswith("docker run -d "))
    sync = next(line for line in docker if line.startswith("docker run --rm ") and "python -m bot sync" in line)
    for line in (run, sync):
        assert "-v boardhost-data:/data" in line and "-e DISCORD_TOKEN" in line, line
    assert run.endswith(" boardhost"), "the image's own command runs the bot"
    for line in docker:  # every bot command the README runs in the image is one the bot accepts
        if " boardhost python -m bot" in line:
            argv = line.split(" boardhost python -m bot", 1)[1].split("&&")[0].split()
            parser().parse_args([re.sub(r"^[A-Z_]+$", "1", arg) for arg in argv])  # SERVER_ID, ID: placeholders
