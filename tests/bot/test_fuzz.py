"""Thousands of random clicks and commands from random users, players and strangers, at games running in several
channels: no unhandled exception, every refusal explained, and the stored state always equals the replay of the
stored log. The harness and the list of what it checks are in ``tests/bot/fuzzing.py``.

Seeded and deterministic. ``FUZZ_STEPS`` (default 1200, under a minute) and ``FUZZ_SEED`` scale it up or vary
it locally, e.g. ``FUZZ_STEPS=20000 FUZZ_SEED=7 pytest tests/bot/test_fuzz.py``; a failure names the seed, the
step and the steps before it.

Two games are driven: ``CarcassonneDriver`` (the turn message's cell select, rotation and follower buttons,
``/place``) and ``CatanDriver`` (each move is the ``random`` computer's choice for a seat that owes a decision, made
through the UI by ``tests/bot/catan_driver.py``: turn message, private menus, forms, the buttons of a public offer,
a private offer's buttons in the player's DMs, ``/build`` with its autocomplete, ``/hand``). Adding a game: write a
class like these with the ``Driver`` members of ``tests/bot/fuzzing.py`` and add an instance to ``DRIVERS``:

- ``game`` and ``seats``: the engine name ("catan") and how many players to seat (3 to 4);
- ``lobby(rng)``: the lobby command and random options, e.g. ``("catan new", {"board": "beginner"})``;
- ``stored_options(rng, row)``: options to store before anyone joins (Carcassonne shortens its stack), or ``{}``;
- ``move(fz, table, row, game)``: one complete legal move for a seat in ``game.actors()``, made the way a player
  would (the turn message's buttons and selects, found with ``fz.message_of`` and ``fz.components``, or the game's
  commands), each interaction through ``fz.use`` / ``fz.click_id`` / ``fz.select`` / ``fz.slash`` / ``fz.submit``
  after a ``fz.note``; several seats may owe a decision at once (Catan discards and offer replies), any will do;
- ``command(fz, table, user, row)``: the game's own commands and autocompletes with random arguments, checking the
  answer they must get with ``fz.answered`` (see ``place_answer``) and what autocomplete offers with ``fz.expect``;
- ``lasting(game, custom_id)``: whether a component may stay on a public message that is not the game's latest
  (a Catan public offer's replies, exactly while the offer is open); else the stale-message check refuses it.

Everything else (strangers, stale and simultaneous clicks, ``/game`` commands, restarts, the storage and reply
checks) the fuzzer does for every game alike. Components must carry ``prefix:game:version`` custom ids
(``bot.core.components.make_custom_id``) for the stale-message checks to recognise them.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from simcord import InteractionResult, MemberActor
from simcord.builders import UserHandle

from bot.app import BoardHost
from bot.carcassonne.ids import ordered_cells, parse_cell
from bot.catan.command_flows import legal_spots
from bot.core.config import Config
from bot.host.computer_seats import controllers
from bot.host.rebuild import load
from bot.storage import GameRow
from engine import Game
from engine.ai import decide
from engine.carcassonne.options import build_stack, parse_options
from tests.bot.catan_driver import Hands, perform
from tests.bot.conftest import World
from tests.bot.fuzzing import Catalogue, Driver, Fuzzer, FuzzFailure, Table, flat

DEFAULT_STEPS: Final = 1200
STEPS: Final = int(os.environ.get("FUZZ_STEPS", DEFAULT_STEPS))
SEED: Final = int(os.environ.get("FUZZ_SEED", 20240917))

# What people type where a cell is wanted: nonsense, near misses, huge numbers, other scripts' digits.
ODD_CELLS: Final = (
    "",
    " ",
    "abc",
    "1,",
    ",",
    "(3,4",
    "0,0",
    "1,2,3",
    "-0,-0",
    "99999999999999999999,1",
    "１,２",
    "٣,-٤",
    "(((1,1)))",
    "1;1",
    "<@1>",
    "x" * 90,
)
ODD_ROTATIONS: Final = (0, 90, 180, 270, -90, 45, 360, 720, 1, 2**40)


def cell_text(rng: random.Random, x: int, y: int) -> str:
    return rng.choice((f"{x},{y}", f"({x}, {y})", f" {x} , {y} "))


def place_answer(row: GameRow | None, user: MemberActor, cell: str, rotation: int) -> str:
    """The catalogue key of the answer ``/place`` must give (``row``: the channel's open game)."""
    if row is None:
        return "error.no_game_here"
    if row.status == "lobby" and row.game == "carcassonne":
        return "error.not_started"
    if row.game != "carcassonne" or row.status != "active":
        return "carcassonne.not_carcassonne"
    game: Any = load(row)
    seat = row.seat_of(user.id)
    if seat is None:
        return "error.not_seated"
    if seat != game.current:
        return "error.not_your_turn"
    where = parse_cell(cell)
    if where is None:
        return "carcassonne.no_cell"
    return "carcassonne.done" if rotation in game.legal_placements().get(where, []) else "error.rule"


def carcassonne_in(row: GameRow | None) -> Any:
    """The running Carcassonne game of the channel, or None."""
    if row is None or row.game != "carcassonne" or row.status != "active":
        return None
    return load(row)


class CarcassonneDriver:
    """Carcassonne through its turn messages (cell select, rotation buttons, follower buttons) and ``/place``."""

    game = "carcassonne"
    seats = (2, 4)

    def lobby(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        options = {"river": rng.random() < 0.5, "tower": rng.random() < 0.5}
        if rng.random() < 0.3:
            options["small_city"] = True
        if rng.random() < 0.3:
            options["farm_scoring"] = "first_edition"  # type: ignore[assignment]
        return "carcassonne new", options

    def stored_options(self, rng: random.Random, row: GameRow) -> dict[str, Any]:
        """Mostly a short stack (the first tiles of a real shuffle) so that games end within the run."""
        if rng.random() < 0.1:
            return {}
        stack = build_stack(parse_options(row.options, 2), random.Random(rng.getrandbits(32)))
        return {"deck": stack[: rng.randint(3, 24)]}

    async def move(self, fz: Fuzzer, table: Table, row: GameRow, game: Game) -> None:
        rng = fz.rng
        carc: Any = game
        user = fz.player(row, carc.current)
        message = fz.message_of(table, row)
        fz.expect(message is not None, "no turn message")
        assert message is not None
        components = fz.components(message)
        if carc.decision() == "place":
            select = next((c for c in components if ":cell:" in c["custom_id"]), None)
            if select is None or rng.random() < 0.35:
                (x, y), rotations = rng.choice(sorted(carc.legal_placements().items()))
                rotation, text = rng.choice(rotations), cell_text(rng, x, y)
                fz.note(f"{user.name}: /place {text!r} {rotation}")
                done = await fz.slash(user, table.channel, "place", cell=text, rotation=rotation)
                fz.answered(done, "carcassonne.done")
                return
            pages = [c for c in components if ":page:" in c["custom_id"]]
            if pages and rng.random() < 0.4:  # turn the page of cells first
                fz.note(f"{user.name}: {fz.describe(pages[-1])}")
                await fz.click(user, message, pages[-1])
                select = next(c for c in fz.components(message) if ":cell:" in c["custom_id"])
            value = str(rng.choice(select["options"])["value"])
            fz.note(f"{user.name}: cell {value}")
            picked = await fz.select(user, message, select["custom_id"], value)
            fz.answered(picked, "carcassonne.choose_rotation")
            prompt = next(r for r in fz.replies(picked, message.id) if fz.components(r))
            button = rng.choice(fz.components(prompt))
            if rng.random() < 0.2:  # a double click on the private rotation buttons
                fz.note(f"{user.name}: {button['label']} twice at once")
                await fz.simultaneously([fz.click_call(user, prompt, button), fz.click_call(user, prompt, button)])
            else:
                fz.note(f"{user.name}: {button['label']}")
                await fz.click(user, prompt, button)
            return
        choices = [c for c in components if ":page:" not in c["custom_id"]]
        fz.expect(choices, f"the follower decision offers nothing to click: {components}")
        if rng.random() < 0.25 and await self.race(fz, table, row, carc, message, components):
            return
        component = rng.choice(choices)
        value = fz.value_for(component)
        fz.note(f"{user.name}: {fz.describe(component)} {value or ''}")
        await fz.use(user, message, component, value)

    async def race(
        self, fz: Fuzzer, table: Table, row: GameRow, game: Any, message: Any, components: list[dict[str, Any]]
    ) -> bool:
        """The player ends their turn with No follower, and the next player types ``/place`` for their new tile the
        moment the change is stored, while the bot is still posting the new turn message."""
        button = next((c for c in components if c["custom_id"].endswith(":pass")), None)
        if button is None:
            return False
        after: Any = type(game).from_json(game.to_json())
        after.apply({"player": game.current, "type": "pass"})
        while (automatic := after.automatic_action()) is not None:
            after.apply(automatic)
        if after.finished or after.decision() != "place" or after.current in controllers(row):
            return False
        (x, y), rotations = fz.rng.choice(sorted(after.legal_placements().items()))
        user, following = fz.player(row, game.current), fz.player(row, after.current)
        rotation = fz.rng.choice(rotations)
        fz.note(f"{user.name}: No follower, and at once {following.name}: /place {x},{y} {rotation}")
        await fz.simultaneously(
            [
                fz.click_call(user, message, button),
                fz.once_changed(
                    row.id,
                    row.version,
                    fz.slash_call(following, table.channel, "place", cell=f"{x},{y}", rotation=rotation),
                ),
            ]
        )
        return True

    async def command(self, fz: Fuzzer, table: Table, user: MemberActor, row: GameRow | None) -> None:
        rng = fz.rng
        game = carcassonne_in(row)
        cells = game.legal_placements() if game is not None else {}
        if game is not None and row is not None and game.current not in controllers(row) and rng.random() < 0.4:
            user = fz.player(row, game.current)  # whose odd /place reaches the rules
        roll = rng.random()
        if roll < 0.3:
            typed = rng.choice(("", "", "1", "-", "0,", "(", " 1 , ", "9", "zz", "李", "1,1,1", "x" * 100))
            if cells and rng.random() < 0.5:
                x, y = rng.choice(sorted(cells))
                typed = f"{x},{y}"[: rng.randint(0, 5)]
            fz.note(f"{user.name}: autocomplete /place cell {typed!r}")
            choices = await fz.autocomplete(user, table.channel, "place", "cell", typed)
            values = [c["value"] for c in choices]
            legal = [f"{x},{y}" for x, y in ordered_cells(game)] if game is not None else []
            fz.expect(set(values) <= set(legal), f"autocomplete offered cells that are not legal: {values}")
            if not typed:
                fz.expect(values == legal[:25], f"autocomplete for '' offered {values}, not the first legal cells")
            return
        if roll < 0.45:
            typed = rng.choice(("", "9", "18", "2", "abc", "-", " 90 "))
            filled: dict[str, Any] = {}
            if rng.random() < 0.7:
                if cells and rng.random() < 0.7:
                    filled["cell"] = "{},{}".format(*rng.choice(sorted(cells)))
                else:
                    filled["cell"] = rng.choice(ODD_CELLS) or "0,0"
            fz.note(f"{user.name}: autocomplete /place rotation {typed!r} {filled}")
            choices = await fz.autocomplete(user, table.channel, "place", "rotation", typed, **filled)
            values = [c["value"] for c in choices]
            where = parse_cell(str(filled.get("cell", "")))
            allowed = cells.get(where, []) if where is not None else {r for rs in cells.values() for r in rs}
            fz.expect(set(values) <= set(allowed), f"autocomplete offered rotations {values}, legal: {allowed}")
            return
        if cells and roll < 0.75:
            (x, y), rotations = rng.choice(sorted(cells.items()))
            rotation = rng.choice(rotations) if rng.random() < 0.5 else rng.choice(ODD_ROTATIONS)
            text = cell_text(rng, x, y)
        else:
            text, rotation = rng.choice(ODD_CELLS), rng.choice(ODD_ROTATIONS)
        expected = place_answer(row, user, text, rotation)
        fz.note(f"{user.name}: /place {text!r} {rotation}, expecting {expected}")
        fz.answered(await fz.slash(user, table.channel, "place", cell=text, rotation=rotation), expected)

    def lasting(self, game: Game, custom_id: str) -> bool:
        return False


# -- Catan -----------------------------------------------------------------------------------------------------

# What people type where a Catan place is wanted (never nothing: Discord sends no empty required option).
ODD_PLACES: Final = ("0", "55", "J", "J-", "J-NE-", "Z-NE", "J-XX", "25-", "25-25", "1-54", "２５", "x" * 90)
# The reply buttons of an offer carry its number: bh:ct:{game}:{version}:{op}:{offer}[,{seat}]
OFFER_REPLY: Final = re.compile(r"bh:ct:\d+:\d+:(?:acc|dec|cnt):(?P<offer>\d+)$")
OFFER_BUTTON: Final = re.compile(r"bh:ct:\d+:\d+:(?:acc|dec|cnt|wd|conf):(?P<offer>\d+)(?:,\d+)?$")


@dataclass
class Seat:
    """A seat as the driver names it: a member who clicks, or a computer player's name only."""

    name: str
    member: MemberActor | None

    def __getattr__(self, what: str) -> Any:  # click, select, slash, user: only a person has them
        if self.member is None:
            raise AttributeError(f"{self.name} is a computer player")
        return getattr(self.member, what)


class FuzzHands(Hands):
    """The Catan driver's clicks and typing, each checked by the fuzzer like every other interaction."""

    def __init__(self, fz: Fuzzer, world: World, row: GameRow) -> None:
        super().__init__(world)
        self.fz, self.row = fz, row

    async def click(self, who: Any, message: Any, custom_id: str) -> InteractionResult:
        where = "in their DMs" if isinstance(who, UserHandle) else "on " + str(message.id)
        self.fz.note(f"{who.name}: button {custom_id} {where}")
        return await self.fz.click_id(who, message, custom_id)

    async def select(self, who: Any, message: Any, value: str, custom_id: str) -> InteractionResult:
        self.fz.note(f"{who.name}: {value} in {custom_id}")
        return await self.fz.select(who, message, custom_id, value)

    async def slash(self, who: Any, name: str, **options: Any) -> InteractionResult:
        self.fz.note(f"{who.name}: /{name} {options or ''}")
        return await self.fz.slash(who, self.world.channel, name, **options)

    async def submit(self, who: Any, shown: Any, values: dict[str, str]) -> InteractionResult:
        self.fz.note(f"{who.name}: sends the form {values}")
        return await self.fz.submit(who, shown, values)

    async def autocomplete(self, who: Any, name: str, option: str, typed: str, **filled: Any) -> list[dict[str, Any]]:
        self.fz.note(f"{who.name}: autocomplete /{name} {option} {typed!r} {filled}")
        choices = await self.fz.autocomplete(who, self.world.channel, name, option, typed, **filled)
        await check_build_choices(self.fz, self.row, who, str(filled.get("what", "settlement")), choices)
        return choices


async def check_build_choices(
    fz: Fuzzer, row: GameRow | None, user: MemberActor, what: str, choices: list[dict[str, Any]]
) -> None:
    """``/build`` autocomplete offers only legal places of the user's seat (nothing to anyone else)."""
    fresh = await fz.bot.games.get(row.id) if row is not None else None
    seat = fresh.seat_of(user.id) if fresh is not None else None
    legal: set[str] = set()
    if fresh is not None and fresh.game == "catan" and fresh.status == "active" and seat is not None:
        legal = set(legal_spots(load(fresh), seat, what))
    values = [str(c["value"]) for c in choices]
    fz.expect(set(values) <= legal, f"/build autocomplete offered {values} for {what}; legal: {sorted(legal)}")


def catan_answer(row: GameRow | None, user: MemberActor) -> str | None:
    """The refusal ``/hand`` and ``/build`` must give before the game is asked, or None."""
    if row is None:
        return "error.no_game_here"
    if row.game != "catan":
        return "catan.not_catan"
    if row.status != "active":
        return "error.not_started"
    if row.seat_of(user.id) is None:
        return "error.not_seated"
    return None


class CatanDriver:
    """Catan through its turn messages, private menus, forms, public offers, DMs, ``/build`` and ``/hand``: each
    move is the computer's ``random`` choice for a seat that owes a decision, made as a person would make it."""

    game = "catan"
    seats = (3, 4)

    def lobby(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        options: dict[str, Any] = {"board": rng.choice(("random", "random_numbers", "beginner"))}
        if options["board"] == "beginner" and rng.random() < 0.6:
            options["setup"] = "beginner"  # the set-up placed: straight to the first roll
        options["points_to_win"] = 3 if rng.random() < 0.85 else 4  # short games: one more settlement wins
        if rng.random() < 0.15:
            options["strict_phases"] = True
        return "catan new", options

    def stored_options(self, rng: random.Random, row: GameRow) -> dict[str, Any]:
        return {}

    async def move(self, fz: Fuzzer, table: Table, row: GameRow, game: Game) -> None:
        catan: Any = game
        seat = fz.rng.choice(catan.actors())
        action = self.choose(catan, seat, fz.rng)
        seats = [Seat(s.name, None if s.computer else fz.by_id[s.user_id]) for s in row.seats]
        fz.note(f"{row.seats[seat].name} is to {action}")
        world = World(fz.env, fz.bot, table.channel, None, None, None)
        ways: Counter[str] = Counter()
        await perform(world, seats, action, hands=FuzzHands(fz, world, row), rng=fz.rng, ways=ways)
        fz.counts.tally(f"catan.{action['type']}")
        if action["type"] == "offer":
            fz.counts.tally("catan.offer_to_one" if action.get("to") is not None else "catan.offer_to_all")
        for way, count in ways.items():
            fz.counts.tally(f"catan.by.{way}", count)

    @staticmethod
    def choose(game: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """The ``random`` computer's choice, nudged so that a short run sees what a long game would: players mostly
        keep their cards rather than spend them with fewer than 8 (so a 7 makes someone discard), make offers in any
        turn, and half of the offers go to one player (answered in their DMs)."""
        action = decide(game, seat, "random", random.Random(rng.getrandbits(32)))
        main = game.phase == "main" and seat == game.current
        spends = action["type"] in ("settlement", "city", "road", "buy", "bank_trade")
        if main and spends and sum(game.hand[seat]) < 8 and rng.random() < 0.85:
            return {"player": seat, "type": "end_turn"}
        if main and action["type"] not in ("offer", "settlement", "city") and rng.random() < 0.15:
            offers = [a for a in game.legal_actions(seat) if a["type"] == "offer"]
            if offers and not any(o["from"] == seat for o in game.offers):
                action = rng.choice(offers)
        if action["type"] == "offer" and rng.random() < 0.5:
            action = {**action, "to": rng.choice([s for s in range(game.n) if s != seat])}
        return action

    async def command(self, fz: Fuzzer, table: Table, user: MemberActor, row: GameRow | None) -> None:
        rng = fz.rng
        game: Any = load(row) if row is not None and row.game == "catan" and row.status == "active" else None
        if game is not None and row is not None and rng.random() < 0.5:
            people = [s for s, who in enumerate(row.seats) if not who.computer]
            if people:
                user = fz.player(row, rng.choice(people))
        refusal = catan_answer(row, user)
        roll = rng.random()
        what = rng.choice(("road", "settlement", "city"))
        if roll < 0.15 and await self.click_in_dms(fz, user):
            return
        if roll < 0.3:
            fz.note(f"{user.name}: /hand, expecting {refusal or 'their hand'}")
            hand = ("catan.hand.resources", "catan.hand.no_resources")  # an empty hand has its own sentence
            fz.answered(await fz.slash(user, table.channel, "hand"), refusal or hand)
            return
        seat = row.seat_of(user.id) if row is not None else None
        legal = legal_spots(game, seat, what) if game is not None and seat is not None else []
        if roll < 0.55:
            typed = rng.choice(legal)[: rng.randint(0, 4)] if legal and rng.random() < 0.6 else rng.choice(ODD_PLACES)
            typed = "" if rng.random() < 0.1 else typed
            fz.note(f"{user.name}: autocomplete /build {what} {typed!r}")
            choices = await fz.autocomplete(user, table.channel, "build", "where", typed, what=what)
            await check_build_choices(fz, row, user, what, choices)
            return
        where = rng.choice(legal) if legal and rng.random() < 0.6 else rng.choice(ODD_PLACES)
        expected = refusal
        if expected is None and game is not None and seat != game.current:
            expected = "error.not_your_turn"
        fz.note(f"{user.name}: /build {what} {where!r}, expecting {expected or 'the rules to decide'}")
        result = await fz.slash(user, table.channel, "build", what=what, where=where)
        if expected is not None:
            fz.answered(result, expected)

    async def click_in_dms(self, fz: Fuzzer, user: MemberActor) -> bool:
        """``user`` clicks a button of a message in their DMs (an offer or an acceptance, often long closed): a
        closed offer's button is refused as no longer open and leaves the message without buttons."""
        stored = fz.env.backend.messages.get(user.user.dm_channel.id, {}).values()
        for message in stored:  # a DM's buttons are a Catan offer's, or those of /game mine asked for in DMs
            for other in flat(message.components):
                mine = str(other["custom_id"]).startswith("bh:mine:")
                fz.expect(mine or OFFER_BUTTON.match(str(other["custom_id"])) is not None, f"a DM offers {other}")
        offering = [m for m in stored if any(OFFER_BUTTON.match(str(c["custom_id"])) for c in flat(m.components))]
        dms = sorted(offering, key=lambda m: m.id)
        if not dms:
            return False
        message = fz.rng.choice(dms)
        component = fz.rng.choice([c for c in flat(message.components) if OFFER_BUTTON.match(str(c["custom_id"]))])
        custom_id = str(component["custom_id"])
        match, row = OFFER_BUTTON.match(custom_id), await fz.game_of(component)
        fz.expect(match is not None and row is not None, f"a DM offers {custom_id}")
        assert match is not None and row is not None
        game: Any = load(row) if row.status == "active" else None
        closed = game is None or game.offer(int(match["offer"])) is None
        fz.note(f"{user.name}: button {custom_id} in their DMs (offer {'closed' if closed else 'open'})")
        result = await fz.click_id(user.user, fz.handle(message), custom_id)
        if closed:
            fz.answered(result, "catan.offer_gone" if game is not None else "error.not_active")
            after = fz.env.backend.get_message(message.channel_id, message.id)
            fz.expect(not flat(after.components), f"a closed offer's DM still offers {flat(after.components)}")
        fz.counts.tally("catan.dm_click_closed" if closed else "catan.dm_click_open")
        return True

    def lasting(self, game: Game, custom_id: str) -> bool:
        """A public offer's Accept / Decline / Counter stay on its message exactly while the offer is open."""
        match = OFFER_REPLY.match(custom_id)
        return match is not None and int(match["offer"]) in {o["id"] for o in game.view(None)["offers"]}


# Every game the fuzzer plays.
DRIVERS: Final = [CarcassonneDriver(), CatanDriver()]


async def fuzzer_for(env: Any, bot: BoardHost, seed: int, drivers: Sequence[Driver] = DRIVERS) -> Fuzzer:
    await bot.tree.sync()  # what `python -m bot sync` does; the bot never syncs on start
    return Fuzzer(env, bot, drivers, seed=seed)


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    """Computer players (the fuzzer seats some through the lobby) move at once, within the click that made a
    decision theirs, so that a game never changes in the background of a later, unrelated click."""
    config = Config(
        database=tmp_path / "bot.sqlite3",
        reminder_check=1800,
        computer_pause=0,
        computer_offer_wait=0,
        render_processes=0,
    )
    return BoardHost(config, rng=random.Random(1))


async def test_random_clicks_and_commands_never_break_a_game(simcord_env: Any, simcord_bot: BoardHost) -> None:
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, SEED)
    counts = await fuzzer.run(STEPS)
    print(counts)
    if STEPS >= DEFAULT_STEPS:  # the default run really went through what it claims to
        assert counts.finished >= 3 and counts.moves >= 150 and counts.simultaneous >= 20
        assert counts.refusals >= 200 and {"error.stale", "error.not_your_turn", "error.not_seated"} <= set(
            counts.refusal_keys
        )
        # both games were played to the end, and Catan went through trades, the robber and discards
        assert counts.finished_games.get("carcassonne", 0) >= 1 and counts.finished_games.get("catan", 0) >= 1
        done = counts.done
        for what in ("offer_to_all", "offer_to_one", "accept", "decline", "counter", "bank_trade", "discard", "robber"):
            assert done.get(f"catan.{what}", 0) >= 1, (what, done)
        for way in ("dm", "public_offer", "/hand", "/build"):  # replies in DMs and on the public offer
            assert done.get(f"catan.by.{way}", 0) >= 1, (way, done)
        assert counts.direct_messages >= 10 and done.get("catan.dm_click_closed", 0) >= 1
        assert counts.timelapses == counts.finished  # every finished game's timelapse, drawn after its last step


# -- the harness fails when it should ------------------------------------------------------------------------


def test_the_catalogue_knows_its_texts_and_nothing_else() -> None:
    catalogue = Catalogue()
    assert catalogue.key("It is not your turn.", set()) == "error.not_your_turn"
    assert catalogue.key("This game needs 2 to 6 players; there is 1.", set()) == "error.player_count"
    assert catalogue.key("Cell 3, in column 0, row -1: choose a rotation (clockwise).", set()) == (
        "carcassonne.choose_rotation"
    )
    assert catalogue.key("KeyError: 'pass'", set()) is None
    assert catalogue.key("", set()) is None
    assert catalogue.key("tile E does not fit there", set()) is None
    assert catalogue.key("tile E does not fit there", {"tile E does not fit there"}) == "error.rule"
    # a rule's message shows names for seats; nothing else may differ
    assert catalogue.key("émile does not hold 1 ore", {"seat 2 does not hold 1 ore"}) == "error.rule"
    assert catalogue.key("émile does not hold 1 ore!", {"seat 2 does not hold 1 ore"}) is None
    # several lines (a hand, a DM's news): each line a catalogue text, the first one names it
    hand = "Resources (3 cards): 3 brick\nDevelopment cards: nothing\nYour victory points: 2"
    assert catalogue.key(hand, set()) == "catan.hand.resources"
    assert catalogue.key(hand + "\nTraceback (most recent call last):", set()) is None


async def test_the_fuzzer_notices_a_refusal_that_explains_nothing(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def say_nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr("bot.core.funnel.explain", say_nothing)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    # Every refusal is worded by the funnel: muted, a click gets no answer and a slash command is never acknowledged.
    with pytest.raises(FuzzFailure, match=r"got no answer|empty message|was never acknowledged"):
        await fuzzer.run(200)


async def test_the_fuzzer_notices_an_unhandled_exception(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.carcassonne import handlers
    from bot.core.clicks import Click, Op

    async def broken(click: Click) -> None:
        raise KeyError("pass")  # a bug in the No follower button

    monkeypatch.setitem(handlers.TABLE.ops, "pass", Op(broken, answer="public"))
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    with pytest.raises(FuzzFailure, match="errors were logged"):
        await fuzzer.run(200)


async def test_the_fuzzer_notices_old_turn_messages_that_keep_their_buttons(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def keep(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr("bot.flows.turns.retire", keep)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    with pytest.raises(FuzzFailure, match=r"an older message .* still offers"):
        await fuzzer.run(200)


async def test_the_fuzzer_notices_a_log_that_does_not_replay(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.storage import Games

    original = Games.record_action

    async def forgetful(self: Games, game_id: int, expected: int, **kwargs: Any) -> GameRow:
        kwargs["actions"] = [a for a in kwargs["actions"] if a.get("type") != "pass"]  # "No follower" goes unlogged
        return await original(self, game_id, expected, **kwargs)

    monkeypatch.setattr(Games, "record_action", forgetful)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    with pytest.raises(FuzzFailure, match=r"differs from the replay|do not replay"):
        await fuzzer.run(200)


async def test_the_fuzzer_notices_a_closed_offer_that_keeps_its_buttons(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def keep(*args: Any) -> None:
        return None

    monkeypatch.setattr("bot.catan.flows.close_offers", keep)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 3, [CatanDriver()])
    with pytest.raises(FuzzFailure, match=r"an older message .* still offers bh:ct:\d+:\d+:(acc|dec|cnt):"):
        await fuzzer.run(200)


async def test_the_fuzzer_waits_for_a_slow_timelapse_outside_the_click_that_ended_the_game(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing a timelapse in process takes seconds on a loaded machine: longer than simcord lets the bot settle after
    a click. The fuzzer draws it after the step instead, however long it takes."""
    import time

    from bot.flows import post_timelapse as timelapse

    replay = timelapse.frames

    def slow(*args: Any) -> Any:
        time.sleep(simcord_env.settle_timeout + 0.5)
        return replay(*args)

    monkeypatch.setattr(timelapse, "frames", slow)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    counts = await fuzzer.run(200)
    assert counts.finished >= 1 and counts.timelapses == counts.finished
