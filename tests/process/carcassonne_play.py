"""Carcassonne people: a scripted choice of move (``choose``) and the interactions that make it (``perform``).

``choose`` is deterministic (the game's seed and the number of actions so far): towers that capture whenever one
is offered, a ransom whenever one can be paid, followers and towers often, otherwise random legal placements.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from tests.process.people import Person, Table, find, has

PAGE = 25  # options in one select


def ordered_cells(game: Any) -> list[tuple[int, int]]:
    """The legal cells in the bot's numbering (top row first, then left to right)."""
    return sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))


def tower_values(game: Any) -> list[str]:
    """The tower select's values in the order the turn message lists them (at most one page)."""
    values = []
    for tower in game.tower_options():
        values.append(f"{tower['x']},{tower['y']}")
        values += [f"{tower['x']},{tower['y']},{c['x']},{c['y']},{c['on']}" for c in tower["captures"]]
    return values[:PAGE]


def choose(game: Any, seed: int, step: int) -> dict[str, Any]:
    rng = random.Random(seed * 1_000_003 + step)
    me = {"player": game.current}
    ransoms = game.ransom_options()
    if ransoms:
        return {**me, "type": "ransom", "from": ransoms[0]}
    if game.decision() == "place":
        cells = ordered_cells(game)
        x, y = rng.choice(cells)
        return {**me, "type": "place", "x": x, "y": y, "rotation": rng.choice(game.legal_placements()[(x, y)])}
    offered = tower_values(game)
    captures = [v for v in offered if v.count(",") >= 4]
    if captures:
        tx, ty, cx, cy, on = captures[0].split(",", 4)
        return {**me, "type": "tower", "x": int(tx), "y": int(ty), "capture": {"x": int(cx), "y": int(cy), "on": on}}
    if offered and rng.random() < 0.5:
        tx, ty = offered[0].split(",")[:2]
        return {**me, "type": "tower", "x": int(tx), "y": int(ty)}
    tops = game.tower_top_options()
    if tops and rng.random() < 0.1:
        x, y = tops[0]
        return {**me, "type": "tower_top", "x": x, "y": y}
    spots = game.follower_spots()
    if spots and rng.random() < 0.6:
        return {**me, "type": "follower", "on": rng.choice(spots)}
    return {**me, "type": "pass"}


def play_through(game: Any, seed: int) -> dict[str, int]:
    """The events a whole game played by ``choose`` brings (for finding a seed offline)."""
    counts: dict[str, int] = {}
    step = 0
    while not game.finished:
        action = choose(game, seed, step)
        applied = game.apply(action)
        step += 1
        counts[action["type"]] = counts.get(action["type"], 0) + 1
        if action.get("capture"):
            counts["capture"] = counts.get("capture", 0) + 1
        for event in applied.events:
            counts[event["type"]] = counts.get(event["type"], 0) + 1
        while (automatic := game.automatic_action()) is not None:
            game.apply(automatic)
    return counts


class CarcassonnePeople:
    """Makes each chosen move through the turn message (cell select and its pages, private rotation buttons,
    follower, tower and ransom components) or, every few turns, through ``/place`` with autocomplete."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.step = 0
        # Called once, between a cell's choice and its rotation, from version ``pause_from`` on (a restart).
        self.pause: Callable[[], Awaitable[None]] | None = None
        self.pause_from = 0

    def next_action(self) -> dict[str, Any]:
        return choose(self.table.engine, self.table.seed, len(self.table.log))

    async def perform(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Make ``action`` through Discord and wait until the channel shows the game after it."""
        events = await self.send(action)
        await self.table.settled()
        return events

    async def send(self, action: dict[str, Any], *, by_command: bool | None = None) -> list[dict[str, Any]]:
        """Make ``action`` through Discord (``by_command``: a placement by ``/place`` rather than the turn message;
        None: every few turns); the engine's events. The bot may not have shown it yet."""
        table = self.table
        person = table.people[action["player"]]
        kind = action["type"]
        self.step += 1
        if kind == "place" and (self.step % 7 == 3 if by_command is None else by_command):
            await self._place_by_command(person, action)
        elif kind == "place":
            prompt = await self.rotation_prompt(person, action)
            if self.pause is not None and table.version >= self.pause_from:
                pause, self.pause = self.pause, None
                await pause()
            await table.click(person, prompt, find(prompt, "rot", f"{action['x']},{action['y']},{action['rotation']}"))
        else:
            message = table.turn_message()
            if kind == "ransom":
                await table.click(person, message, find(message, "ransom", str(action["from"])))
            elif kind == "pass":
                await table.click(person, message, find(message, "pass"))
            elif kind == "follower" and has(message, "spot", action["on"]):
                await table.click(person, message, find(message, "spot", action["on"]))
            elif kind == "follower":
                await table.select(person, message, find(message, "spots"), action["on"])
            elif kind == "tower_top":
                await table.click(person, message, find(message, "top", f"{action['x']},{action['y']}"))
            elif kind == "tower":
                value = f"{action['x']},{action['y']}"
                if "capture" in action:
                    cap = action["capture"]
                    value += f",{cap['x']},{cap['y']},{cap['on']}"
                await table.select(person, message, find(message, "tower", ""), value)
            else:
                raise AssertionError(f"no way to make {action}")
        return table.applied(action)

    async def rotation_prompt(self, person: Person, action: dict[str, Any]) -> Any:
        """Pick the cell in the turn message's select (turning its pages); the private rotation buttons."""
        table = self.table
        value = f"{action['x']},{action['y']}"
        page = ordered_cells(table.engine).index((action["x"], action["y"])) // PAGE
        message = table.turn_message()
        while not any(o["value"] == value for o in find(message, "cell")["options"]):
            shown = int(find(message, "cell")["custom_id"].rsplit(":", 1)[1])
            turn = await table.click(person, message, find(message, "page", str(shown + (1 if page > shown else -1))))
            await table.fake.wait_answer(turn)
            await table.fake.wait_for(lambda: f":cell:{page}" in str(message.components) or None)
        asked = await table.select(person, message, find(message, "cell"), value)
        prompt = await table.reply(asked)
        assert prompt.ephemeral, prompt
        return prompt

    async def _place_by_command(self, person: Person, action: dict[str, Any]) -> None:
        """``/place`` as a person types it: the cell from autocomplete, then the rotation from autocomplete."""
        table = self.table
        value = f"{action['x']},{action['y']}"
        cells = await table.autocomplete(person, "place", "cell", cell=value)
        assert value in [c["value"] for c in cells], (value, cells)
        rotations = await table.autocomplete(person, "place", "rotation", cell=value, rotation="")
        assert action["rotation"] in [c["value"] for c in rotations], (action, rotations)
        asked = await table.slash(person, "place", cell=value, rotation=action["rotation"])
        await table.reply(asked)
