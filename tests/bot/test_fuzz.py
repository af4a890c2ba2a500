"""Thousands of random clicks and commands from random users, players and strangers, at games running in several
channels: no unhandled exception, every refusal explained, and the stored state always equals the replay of the
stored log. The harness and the list of what it checks are in ``tests/bot/fuzzing.py``.

Seeded and deterministic. ``FUZZ_STEPS`` (default 1200, about half a minute) and ``FUZZ_SEED`` scale it up or vary
it locally, e.g. ``FUZZ_STEPS=20000 FUZZ_SEED=7 pytest tests/bot/test_fuzz.py``; a failure names the seed, the
step and the steps before it.

Adding a game (Catan: ``bot/catan``): write a class like ``CarcassonneDriver`` with the
``Driver`` members of ``tests/bot/fuzzing.py`` and add an instance to ``DRIVERS``:

- ``game`` and ``seats``: the engine name ("catan") and how many players to seat (3 to 4);
- ``lobby(rng)``: the lobby command and random options, e.g. ``("catan new", {"board": "beginner"})``;
- ``stored_options(rng, row)``: options to store before anyone joins (Carcassonne shortens its stack), or ``{}``;
- ``move(fz, table, row, game)``: one complete legal move for a seat in ``game.actors()``, made the way a player
  would (the turn message's buttons and selects, found with ``fz.message_of`` and ``fz.components``, or the game's
  commands), each interaction through ``fz.use`` / ``fz.select`` / ``fz.slash`` after a ``fz.note``; several seats
  may owe a decision at once in Catan (discards), any of them will do;
- ``command(fz, table, user, row)``: the game's own commands and autocompletes with random arguments, checking the
  answer they must get with ``fz.answered`` (see ``place_answer``) and what autocomplete offers with ``fz.expect``.

Everything else (strangers, stale and simultaneous clicks, ``/game`` commands, restarts, the storage and reply
checks) the fuzzer does for every game alike. Components must carry ``prefix:game:version`` custom ids
(``bot.components.make_custom_id``) for the stale-message checks to recognise them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any, Final

import pytest
from simcord import MemberActor

from bot.app import BoardHost
from bot.carcassonne.ids import ordered_cells, parse_cell
from bot.config import Config
from bot.host.computers import controllers
from bot.rebuild import load
from bot.storage import GameRow
from engine import Game
from engine.carcassonne.options import build_stack, parse_options
from tests.bot.fuzzing import Catalogue, Fuzzer, FuzzFailure, Table

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


# Every game the fuzzer plays. Catan joins with a CatanDriver once its Discord cog exists.
DRIVERS: Final = [CarcassonneDriver()]


async def fuzzer_for(env: Any, bot: BoardHost, seed: int) -> Fuzzer:
    await bot.tree.sync()  # what `python -m bot sync` does; the bot never syncs on start
    return Fuzzer(env, bot, DRIVERS, seed=seed)


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


# -- the harness fails when it should ------------------------------------------------------------------------


def test_the_catalogue_knows_its_texts_and_nothing_else() -> None:
    catalogue = Catalogue()
    assert catalogue.key("It is not your turn.", set()) == "error.not_your_turn"
    assert catalogue.key("This game needs 2 to 6 players; there is 1.", set()) == "error.player_count"
    assert catalogue.key("Tile E at cell 3 (0, -1): choose a rotation (clockwise).", set()) == (
        "carcassonne.choose_rotation"
    )
    assert catalogue.key("KeyError: 'pass'", set()) is None
    assert catalogue.key("", set()) is None
    assert catalogue.key("tile E does not fit there", set()) is None
    assert catalogue.key("tile E does not fit there", {"tile E does not fit there"}) == "error.rule"


async def test_the_fuzzer_notices_a_refusal_that_explains_nothing(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def say_nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr("bot.funnel.explain", say_nothing)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    with pytest.raises(FuzzFailure, match=r"got no answer|empty message"):
        await fuzzer.run(200)


async def test_the_fuzzer_notices_an_unhandled_exception(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.carcassonne import handlers

    original = handlers.button_action

    def broken(op: str, arg: str) -> dict[str, Any]:
        if op == "pass":
            raise KeyError("pass")
        return original(op, arg)

    monkeypatch.setattr(handlers, "button_action", broken)
    fuzzer = await fuzzer_for(simcord_env, simcord_bot, 1)
    with pytest.raises(FuzzFailure, match="errors were logged"):
        await fuzzer.run(200)


async def test_the_fuzzer_notices_old_turn_messages_that_keep_their_buttons(
    simcord_env: Any, simcord_bot: BoardHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def keep(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr("bot.turns.retire", keep)
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
