"""``python -m bot try`` in a real Chromium: a short Carcassonne game and a short Catan game played through the page,
as people play them, with the mouse and the keyboard.

Two windows: Ada's, which also switches seats in one click, and Boris's, whose Discord speaks Russian. Carcassonne:
``/carcassonne new`` with an option, a lobby joined by Boris and a computer player, a tile placed from the turn
message's select and the rotation buttons only Ada sees, another placed by Boris with ``/place`` and its
autocomplete. Catan: ``/catan new`` typed in Russian, the set-up placements, a roll, a private trade offered in a
form, accepted from a direct message and confirmed from another. Each person's ephemeral answers and direct messages
never appear in the other's window. The screenshots at the top of the README are taken here.

Skipped where no Chromium is installed (``tests/browser/cdp.py`` says where it looks); under
``BOARDHOST_REQUIRE_CHROMIUM=1``, which ``.ci/run`` sets where Chromium is found, that skip is a failure.
``BOARDHOST_UPDATE_SCREENSHOTS=1`` writes the README's screenshots afresh (docs/screenshots).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest
from PIL import Image, ImageChops

from engine.catan.board import RESOURCES
from tests.browser.cdp import Tab, chromium, find_chromium

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
REQUIRE = "BOARDHOST_REQUIRE_CHROMIUM"
UPDATE = "BOARDHOST_UPDATE_SCREENSHOTS"
CARCASSONNE_SEED, CATAN_SEED = 7, 3
SHOT_TOLERANCE = 0.01  # share of pixels a fresh screenshot may differ by (the clock in each message's header)
CHROMIUM = find_chromium()

# Finds the newest button or select whose custom id has ``op`` (and ``arg``) after the game and version, in a box.
HELPERS = """
window.bh = {
  parts: (e) => e.dataset.customId.split(":"),
  all(box, op, arg) {
    return [...document.querySelectorAll(`${box} [data-custom-id]`)].filter((e) => {
      const p = bh.parts(e);
      return p[4] === op && (arg === undefined || p.slice(5).join(":") === arg);
    });
  },
  newest(box, op, arg) { const found = bh.all(box, op, arg); return found[found.length - 1] || null; },
  version: (e) => (e ? Number(bh.parts(e)[3]) : -1),
  at: (ops) => (bh.current(ops) || { version: -1 }).version,
  current(ops) {
    // the newest decision offered among ``ops``: its op, its game version, whose it is
    const found = ops.map((op) => bh.newest("#messages", op)).filter((e) => e);
    if (!found.length) return null;
    const e = found.reduce((a, b) => (bh.version(b) > bh.version(a) ? b : a));
    const mention = e.closest(".message").querySelector(".content .mention[data-user]");
    return { op: bh.parts(e)[4], version: bh.version(e), who: mention ? state.users[mention.dataset.user] : null };
  },
  turnOf(op) {
    const holder = bh.newest("#messages", op);
    const message = holder && holder.closest(".message");
    const mention = message && message.querySelector(".content .mention[data-user]");
    return mention ? state.users[mention.dataset.user] : null;
  },
};
true
"""


@dataclass
class Tryout:
    url: str
    folder: Path
    process: asyncio.subprocess.Process

    @property
    def database(self) -> Path:
        return self.folder / "boardhost.sqlite3"


def without_chromium() -> NoReturn:
    """Skip, saying why, unless Chromium is required here (``.ci/run`` requires it where it finds one)."""
    reason = "no Chromium on this machine (apt-get install chromium, or set BOARDHOST_CHROMIUM)"
    if os.environ.get(REQUIRE, "") not in ("", "0"):
        pytest.fail(f"{reason}, and {REQUIRE} is set")
    pytest.skip(reason)


def test_without_chromium_the_browser_test_skips_unless_chromium_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception, match="no Chromium"):
        without_chromium()
    monkeypatch.setenv(REQUIRE, "0")
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        without_chromium()


@pytest.fixture
async def tryout(tmp_path: Path) -> AsyncIterator[Tryout]:
    if CHROMIUM is None:
        without_chromium()
    folder = tmp_path / "try"
    env = {**os.environ, "BOARDHOST_RENDER_PROCESSES": "0", "PYTHONUNBUFFERED": "1"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "try",
        "--no-browser",
        "--folder",
        str(folder),
        "--computer-pause",
        "0",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    said = ""
    try:
        async with asyncio.timeout(90):
            while not (found := re.search(r"boardhost is at (http://127\.0\.0\.1:\d+/) ", said)):
                line = await process.stdout.readline()
                assert line, f"python -m bot try ended early:\n{said}\n{(folder / 'bot.log').read_text()}"
                said += line.decode()
        yield Tryout(found.group(1), folder, process)
        process.send_signal(signal.SIGINT)  # Ctrl-C: the bot and the page stop, and the folder is remembered
        assert await asyncio.wait_for(process.wait(), 30) == 0
        log = (folder / "bot.log").read_text(encoding="utf-8")
        assert "Traceback" not in log, log
        assert json.loads((folder / "try.json").read_text())["people"][1]["locale"] == "ru"  # Boris's language
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


class Window:
    """One person's window: the tab, and what it is doing."""

    def __init__(self, tab: Tab, name: str) -> None:
        self.tab = tab
        self.name = name

    async def ready(self) -> None:
        await self.tab.wait(f"!!document.querySelector('.seat.active[data-name=\"{self.name}\"]')", what="the page")
        await self.tab.evaluate(HELPERS)

    async def be(self, name: str) -> None:
        """Take another seat: one click."""
        await self.tab.click(f'.seat[data-name="{name}"]')
        await self.tab.wait(f"!!document.querySelector('.seat.active[data-name=\"{name}\"]')", what=f"{name}'s seat")
        self.name = name

    async def channel(self, name: str) -> None:
        await self.tab.click_on(
            f"[...document.querySelectorAll('.channel')].find((c) => c.innerText.includes('{name}'))"
        )
        await self.tab.wait(f"document.querySelector('#channel-name').innerText === '{name}'")

    async def press(self, op: str, arg: str | None = None, box: str = "#messages") -> None:
        """Click the newest button ``op`` (with ``arg``) in the channel (or the DM panel)."""
        found = f"bh.newest({json.dumps(box)}, {json.dumps(op)}{'' if arg is None else ', ' + json.dumps(arg)})"
        await self.tab.click_on(found, what=f"button {op} {arg or ''}")

    async def pick(self, op: str, value: str | None = None, box: str = "#messages") -> str:
        """Open the newest select ``op`` and pick ``value`` (the first option if None); the value picked."""
        select = f"bh.newest({json.dumps(box)}, {json.dumps(op)})"
        await self.tab.click_on(f"{select} && {select}.querySelector('.select-face')", what=f"select {op}")
        option = f"[data-value={json.dumps(value)}]" if value is not None else ""
        await self.tab.wait(f"!{select}.querySelector('.select-menu').hidden", what=f"the menu of {op}")
        await self.tab.click_on(f"{select}.querySelector('.select-option{option}')", what=f"option {value}")
        return str(value or await self.tab.evaluate(f"{select}.querySelector('.select-option').dataset.value"))

    async def slash(self, typed: str, options: dict[str, str] | None = None, shown: str = "") -> None:
        """Type ``typed`` (``/catan new``), take the command the menu offers first (checking it shows as ``shown``
        begins), fill options, send."""
        await self.tab.click("#text")
        await self.tab.type(typed)
        first = "document.querySelector('#command-menu .command-choice .command-label')"
        label = str(await self.tab.wait(f"{first} && {first}.innerText", what="the command menu"))
        assert label.startswith(shown), label
        await self.tab.press("Enter")
        await self.tab.wait("!document.querySelector('#command-form').hidden", what="the command's options")
        for name, value in (options or {}).items():
            await self.fill(name, value)
        await self.tab.click("#send")
        await self.tab.wait("document.querySelector('#command-form').hidden", what="the command sent")

    async def language(self, locale: str) -> None:
        """Pick the Discord client's language (a native select: its value set as the person's choice would)."""
        await self.tab.evaluate(
            f"(() => {{ const s = document.querySelector('#language'); s.value = {json.dumps(locale)};"
            " s.dispatchEvent(new Event('change')); return true; })()"
        )
        await self.tab.wait(f"document.documentElement.lang === {json.dumps(locale)}", what=f"language {locale}")

    async def fill(self, name: str, value: str) -> None:
        field = f"document.querySelector('[data-option-input=\"{name}\"]')"
        if await self.tab.evaluate(f"{field}.tagName") == "SELECT":
            await self.tab.evaluate(f"{field}.value = {json.dumps(value)}")
        else:
            await self.tab.click_on(field)
            await self.tab.type(value)

    async def complete(self, name: str) -> str:
        """Focus the option ``name`` and take the bot's first autocomplete suggestion; its label."""
        await self.tab.click_on(f"document.querySelector('[data-option-input=\"{name}\"]')")
        first = "document.querySelector('#suggestions .suggestion')"
        label = await self.tab.wait(f"!document.querySelector('#suggestions').hidden && {first} && {first}.innerText")
        await self.tab.click_on(first)
        return str(label)

    async def ids(self, box: str = ".messages") -> set[str]:
        return set(
            await self.tab.evaluate(f"[...document.querySelectorAll('{box} .message')].map((m) => m.dataset.messageId)")
        )

    async def text(self, box: str = "#messages") -> str:
        return str(await self.tab.evaluate(f"document.querySelector('{box}').innerText"))

    async def count(self, op: str, box: str = ".messages") -> int:
        return int(await self.tab.evaluate(f"bh.all({json.dumps(box)}, {json.dumps(op)}).length"))


def fix_seed(database: Path, game_id: int, seed: int) -> None:
    """The game's seed, written into its lobby (as the process tests do): the same board and tiles every run."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE games SET seed = ? WHERE id = ? AND status = 'lobby'", (seed, game_id))


def stored_state(database: Path, game_id: int) -> dict[str, Any]:
    with sqlite3.connect(database) as db:
        state: dict[str, Any] = json.loads(db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    return state


async def lobby_game(window: Window) -> int:
    join = await window.tab.wait("bh.newest('#messages', 'join') && bh.newest('#messages', 'join').dataset.customId")
    return int(str(join).split(":")[2])


async def play_carcassonne(ada: Window, boris: Window, tryout: Tryout) -> None:
    """Ada opens the lobby (without The River), Boris joins, a computer player too; then a turn each: Ada's from the
    turn message, Boris's with ``/place`` (Ada's window takes his seat for it)."""
    await ada.slash("/carcassonne new", {"river": "false"})
    game = await lobby_game(ada)
    fix_seed(tryout.database, game, CARCASSONNE_SEED)
    await ada.tab.wait("document.querySelector('#messages').innerText.includes('The River: off')")
    await boris.press("join")
    await boris.tab.wait("bh.newest('#messages', 'join').closest('.message').innerText.includes('Boris')")
    await ada.press("add", "standard")
    await ada.tab.wait("bh.newest('#messages', 'join').closest('.message').innerText.includes('(3/6)')")
    await ada.press("start")
    await ada.tab.wait("!!bh.newest('#messages', 'cell')", what="the first turn")
    # Every picture keeps its room before it loads (as Discord's client does): a button under it stays put.
    kept = "[...document.querySelectorAll('#messages .attachment img')]"
    assert await ada.tab.evaluate(f"{kept}.length > 0 && {kept}.every((i) => i.style.aspectRatio && i.height > 0)")
    placed: set[str] = set()
    while placed != {"Ada", "Boris"}:
        who = str(await ada.tab.wait("bh.newest('#messages', 'cell') && bh.turnOf('cell')", what="a person's turn"))
        version = int(await ada.tab.evaluate("bh.version(bh.newest('#messages', 'cell'))"))
        if who != ada.name:
            await ada.be(who)
        if who == "Ada":
            await ada.pick("cell")
            await ada.tab.wait("bh.all('#messages', 'rot').length > 0", what="Ada's rotation buttons")
            # the rotation buttons answer Ada alone: Boris's window never had them
            prompt = await ada.tab.evaluate("bh.newest('#messages', 'rot').closest('.message').dataset.messageId")
            assert await boris.count("rot") == 0 and prompt not in await boris.ids()
            await ada.press("rot")
        else:
            await ada.tab.click("#text")
            await ada.tab.type("/place")
            await ada.tab.wait("!!document.querySelector('#command-menu .command-choice')")
            await ada.tab.press("Enter")
            cell = await ada.complete("cell")
            rotation = await ada.complete("rotation")
            assert cell and rotation
            await ada.tab.click("#send")
        await ada.tab.wait(f"bh.version(bh.newest('#messages', 'pass')) > {version}", what="the follower choice")
        await ada.press("pass")
        placed.add(who)
        await ada.tab.wait(f"bh.version(bh.newest('#messages', 'cell')) > {version + 1}", what="the next turn")


async def look_back(looker: Window, other: Window) -> None:
    """``/game replay``: an ephemeral board at the latest turn, and a button a turn back; only the looker sees it."""
    await looker.slash("/game replay")
    turn = await looker.tab.wait("bh.all('#messages', 'back').length && bh.version(bh.newest('#messages', 'back'))")
    await looker.press("back")
    await looker.tab.wait(f"bh.version(bh.newest('#messages', 'back')) < {turn}", what="the turn before")
    assert await other.count("back") == 0


async def play_catan(ada: Window, boris: Window, tryout: Tryout) -> None:
    """Boris, whose Discord speaks Russian, opens the lobby; Ada joins, a computer player too; the set-up; then a
    roll, and a private trade offered in a form, accepted from a direct message, confirmed from another."""
    await boris.language("ru")
    await ada.be("Ada")
    for window in (ada, boris):
        await window.channel("more-games")
    await boris.slash("/catan new", {"points_to_win": "5"}, shown="/колонизаторы")
    game = await lobby_game(boris)
    fix_seed(tryout.database, game, CATAN_SEED)
    await ada.press("join")
    await boris.tab.wait("bh.newest('#messages', 'join').closest('.message').innerText.includes('(2/4)')")
    await boris.press("add", "standard")
    await boris.tab.wait("bh.newest('#messages', 'join').closest('.message').innerText.includes('(3/4)')")
    await boris.press("start")
    windows = {"Ada": ada, "Boris": boris}
    while True:  # the set-up: each places two settlements and two roads
        turn = await ada.tab.wait("bh.current(['spot', 'sroad', 'roll'])", what="the set-up")
        if turn["op"] == "roll":
            break
        person = windows.get(turn["who"])
        if person is None:  # the computer player's
            await ada.tab.wait(f"bh.at(['spot', 'sroad', 'roll']) > {turn['version']}")
            continue
        if turn["op"] == "spot":
            await person.pick("spot")
        else:
            await person.press("sroad")
        await ada.tab.wait(f"bh.at(['spot', 'sroad', 'roll']) > {turn['version']}", what="the next")
    while turn["who"] not in windows:  # the computer player rolls and plays by itself
        await ada.tab.wait(f"bh.at(['roll']) > {turn['version']}", what="a person's roll")
        turn = await ada.tab.wait("bh.current(['roll'])")
    maker = windows[turn["who"]]
    taker = boris if maker is ada else ada
    await maker.press("roll")
    await ada.tab.wait(f"bh.at(['trade']) > {turn['version']}", what="the roll")
    await trade(maker, taker, tryout.database, game)


async def trade(maker: Window, taker: Window, database: Path, game: int) -> None:
    """``maker`` offers ``taker`` one card of theirs for one of the other's (a form), ``taker`` accepts from the
    direct message that brings it, ``maker`` confirms from theirs; neither window ever shows the other's."""
    with sqlite3.connect(database) as db:
        seats = [
            seat["name"]
            for seat in json.loads(db.execute("SELECT seats FROM games WHERE id = ?", (game,)).fetchone()[0])
        ]
    hand = stored_state(database, game)["hand"]
    mine, theirs = hand[seats.index(maker.name)], hand[seats.index(taker.name)]
    give, get = next(
        (g, w) for g in range(len(RESOURCES)) for w in range(len(RESOURCES)) if mine[g] and theirs[w] and g != w
    )
    await maker.press("trade")
    await maker.tab.wait("bh.all('#messages', 'offer').length > 0", what="the trade menu")
    assert await taker.count("offer") == 0  # an ephemeral menu: the maker's alone
    await maker.tab.click_on(f"bh.all('#messages', 'offer').find((e) => e.innerText.includes('{taker.name}'))")
    await maker.tab.wait("!document.querySelector('#overlay').hidden", what="the offer form")
    for field, resource in (("give", give), ("get", get)):
        await maker.tab.click(f'#overlay [data-custom-id="{field}"]')
        await maker.tab.type(f"1 {RESOURCES[resource]}")
    await maker.tab.click("#overlay .submit")
    await maker.tab.wait("document.querySelector('#overlay').hidden", what="the form sent")
    offered = await taker.tab.wait(
        "bh.newest('#dm-messages', 'acc') && bh.newest('#dm-messages', 'acc').closest('.message').dataset.messageId",
        what="the offer in the taker's direct messages",
    )
    assert offered not in await maker.ids()
    await taker.press("acc", box="#dm-messages")
    accepted = await maker.tab.wait(
        "bh.newest('#dm-messages', 'conf') && bh.newest('#dm-messages', 'conf').closest('.message').dataset.messageId",
        what="the acceptance in the maker's direct messages",
    )
    assert accepted not in await taker.ids()
    await maker.press("conf", box="#dm-messages")
    expected = [n - (r == give) + (r == get) for r, n in enumerate(mine)]
    await maker.tab.wait("true")
    for _ in range(100):
        if stored_state(database, game)["hand"][seats.index(maker.name)] == expected:
            break
        await asyncio.sleep(0.1)
    assert stored_state(database, game)["hand"][seats.index(maker.name)] == expected


# True once every image of the page is loaded (``complete`` alone is also true of one that failed) and decoded (a
# loaded image may be painted a frame or more after a window comes to the front, its place empty until then).
IMAGES_SHOWN = (
    "Promise.all([...document.images].map((image) => image.decode()))"
    ".then(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0), () => false)"
)


async def shoot(window: Window, path: Path) -> None:
    """A screenshot of the window as a person leaves it: both panels at their newest message, every image shown,
    and nothing changing any more (two shots in a row alike: a message that arrives or is edited late changes the
    page). CI once found the Catan shot 24% off, about the area of its board pictures, where no run here did."""
    shot = b""
    for _ in range(50):
        await window.tab.front()
        await window.tab.wait(IMAGES_SHOWN, what="the images")
        await window.tab.evaluate("document.querySelectorAll('.messages').forEach((box) => (box.scrollTop = 1e9)); 1")
        again = await window.tab.capture()
        if again == shot:
            path.write_bytes(shot)
            return
        shot = again
        await asyncio.sleep(0.2)
    raise AssertionError(f"{window.name}'s window kept changing: no screenshot to compare")


def differs(old: Path, new: Path) -> tuple[float, tuple[int, int, int, int] | None]:
    """The share of pixels that differ between two screenshots (1.0 when their sizes do), and the box around them
    (left, top, right, bottom), so that a failure says where the page changed."""
    with Image.open(old) as a, Image.open(new) as b:
        if a.size != b.size:
            return 1.0, None
        difference = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L").point(lambda v: v > 24)
        return sum(difference.histogram()[1:]) / (a.size[0] * a.size[1]), difference.getbbox()


SCREENSHOTS = ("try_carcassonne.png", "try_catan.png")


def check_screenshots(fresh: Path) -> None:
    """The README's screenshots are what the page shows today (the clock in the headers aside); with
    ``BOARDHOST_UPDATE_SCREENSHOTS=1`` they are written afresh instead."""
    if os.environ.get(UPDATE, "") not in ("", "0"):
        SHOTS.mkdir(exist_ok=True)
        for name in SCREENSHOTS:
            (SHOTS / name).write_bytes((fresh / name).read_bytes())
        return
    found = {name: differs(SHOTS / name, fresh / name) for name in SCREENSHOTS}
    stale = {name: (round(share, 3), box) for name, (share, box) in found.items() if share > SHOT_TOLERANCE}
    assert not stale, (
        f"the README's screenshots changed (share of pixels, where): {stale}; {UPDATE}=1 pytest tests/browser"
    )


async def test_a_carcassonne_and_a_catan_game_through_the_page(tryout: Tryout, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    async with chromium(CHROMIUM, tmp_path / "profile") as browser:
        ada = Window(await browser.tab(tryout.url + "#Ada"), "Ada")
        boris = Window(await browser.tab(tryout.url + "#Boris"), "Boris")
        await ada.ready()
        await boris.ready()
        try:
            await play_carcassonne(ada, boris, tryout)
            await ada.be("Ada")
            await look_back(boris, ada)
            await shoot(ada, tmp_path / "try_carcassonne.png")
            await play_catan(ada, boris, tryout)
            await shoot(ada, tmp_path / "try_catan.png")
        except BaseException:
            await ada.tab.screenshot(tmp_path / "failed-ada.png")  # what each window showed, for whoever looks
            await boris.tab.screenshot(tmp_path / "failed-boris.png")
            # pytest keeps only its last few temporary folders: the bot's log goes into the report, where a failure
            # in CI can still be read (a set-up turn once took over 20 s to show, its log lost with the folder)
            print((tryout.folder / "bot.log").read_text(encoding="utf-8"))
            raise
        assert not ada.tab.errors and not boris.tab.errors, (ada.tab.errors, boris.tab.errors)
    check_screenshots(tmp_path)
