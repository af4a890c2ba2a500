"""Catan people: a scripted choice of move (``Script.choose``) and the interactions that make it (``CatanPeople``).

The script walks the game through everything the test must see, then plays to win: each kind of development card
bought and played (a victory point card only bought), a private trade offered to one player (who gets it by DM,
accepts there, and the offer's maker confirms from their DM), a maritime trade, robbers that steal, and a 7 while
someone holds more than seven cards (the last seat keeps every card until a discard has happened).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from engine.catan import bank_trades, city_spots, playable_cards, road_pairs, road_spots, robber_choices
from engine.catan import settlement_spots as free_spots
from engine.catan.board import RESOURCES
from engine.catan.policy import timeout_action
from engine.catan.state import CARDS, COSTS, DISCARD, MAIN, OVER, ROBBER, ROLL, SETUP
from engine.catan.trading import holds
from tests.process.people import Person, Table, find, has

PAGE = 25
GOALS = (
    "knight",
    "road_building",
    "year_of_plenty",
    "monopoly",
    "victory_point",
    "offer_to_one",
    "bank_trade",
    "discard",
    "stolen",
)
DEV = ("wool", "grain", "ore")


def bundle(counts: dict[str, int]) -> str:
    """What a person types in the offer form: ``1 brick, 2 ore``."""
    return ", ".join(f"{n} {r}" for r, n in counts.items() if n)


class Script:
    """Deterministic moves (the game's seed and the number of actions so far) that meet every goal, then win."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.done: set[str] = set()
        self.bought: set[str] = set()

    def note(self, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
        kind = action["type"]
        if kind in ("knight", "road_building", "year_of_plenty", "monopoly", "bank_trade", "discard"):
            self.done.add(kind)
        if kind == "confirm":
            self.done.add("offer_to_one")
        for event in events:
            if event["type"] == "bought" and event.get("card") == "victory_point":
                self.done.add("victory_point")
            if event["type"] == "stolen" and event.get("resource"):
                self.done.add("stolen")

    def racing(self) -> bool:
        return all(g in self.done for g in GOALS)

    def choose(self, game: Any, step: int) -> dict[str, Any]:
        rng = random.Random(self.seed * 1_000_003 + step)
        seat = game.current
        me: dict[str, Any] = {"player": seat}
        if game.phase == SETUP:
            if game.setup_road:
                return {**me, "type": "road", "at": rng.choice(road_spots(game, seat))}
            return {**me, "type": "settlement", "at": rng.choice(free_spots(game, seat))}
        if game.phase == DISCARD:
            owing = next(s for s, k in enumerate(game.owed) if k)
            return timeout_action(game, owing)
        if game.phase == ROBBER:
            hexagon, victim = self.rob(game, seat)
            return {**me, "type": "robber", "hex": hexagon, "victim": victim}
        card = self.card_to_play(game, seat)
        if card is not None:
            return self.play(game, seat, card)
        if game.phase == ROLL:
            return {**me, "type": "roll"}
        assert game.phase == MAIN
        for offer in game.offers:  # the private trade: accepted by its recipient, then confirmed by its maker
            if offer["from"] == seat and offer["accepted"]:
                return {**me, "type": "confirm", "offer": offer["id"], "with": offer["accepted"][0]}
            if offer["to"] is not None and offer["to"] in game.awaiting_reply(offer):
                return {"player": offer["to"], "type": "accept", "offer": offer["id"]}
        hand = game.hand[seat]
        hoarding = seat == len(game.hand) - 1 and "discard" not in self.done
        if "offer_to_one" not in self.done and not game.offers:
            offer = self.private_offer(game, seat)
            if offer is not None:
                return offer
        if hoarding:
            return {**me, "type": "end_turn"}
        wanted_cards = not all(
            c in self.done for c in ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point")
        )
        if holds(hand, COSTS["card"]) and game.deck and (wanted_cards or rng.random() < 0.3):
            return {**me, "type": "buy"}
        if self.racing() or not wanted_cards:
            for piece, spots in (("city", city_spots(game, seat)), ("settlement", free_spots(game, seat))):
                if holds(hand, COSTS[piece]) and spots:
                    return {**me, "type": piece, "at": spots[0]}
            roads = road_spots(game, seat)
            if holds(hand, COSTS["road"]) and roads and rng.random() < 0.5:
                return {**me, "type": "road", "at": rng.choice(roads)}
        trade = self.bank_trade(game, seat)
        if trade is not None:
            return {**me, "type": "bank_trade", **trade}
        return {**me, "type": "end_turn"}

    def rob(self, game: Any, seat: int) -> tuple[str, int | None]:
        """A hex where someone with cards can be robbed (the first in letter order), else any."""
        choices = robber_choices(game, seat)
        for hexagon in sorted(choices):
            for victim in choices[hexagon]:
                if victim is not None and sum(game.hand[victim]):
                    return hexagon, victim
        hexagon = sorted(choices)[0]
        return hexagon, choices[hexagon][0]

    def card_to_play(self, game: Any, seat: int) -> str | None:
        if game.phase not in (ROLL, MAIN):
            return None
        playable = playable_cards(game, seat)
        for card in ("knight", "road_building", "year_of_plenty", "monopoly"):
            if card in playable and card not in self.done:
                if card == "road_building" and not road_pairs(game, seat):
                    continue
                return card
        if "knight" in playable and game.phase == ROLL:
            return "knight"  # the largest army helps to win
        return None

    def play(self, game: Any, seat: int, card: str) -> dict[str, Any]:
        me = {"player": seat}
        if card == "knight":
            hexagon, victim = self.rob(game, seat)
            return {**me, "type": "knight", "hex": hexagon, "victim": victim}
        if card == "road_building":
            return {**me, "type": "road_building", "roads": list(sorted(road_pairs(game, seat))[0])}
        if card == "year_of_plenty":
            take: dict[str, int] = {}
            for name in ("ore", "grain", "wool", "brick", "lumber"):
                index = RESOURCES.index(name)
                while game.bank[index] > take.get(name, 0) and sum(take.values()) < 2:
                    take[name] = take.get(name, 0) + 1
            return {**me, "type": "year_of_plenty", "take": take}
        others = [sum(game.hand[s][i] for s in range(len(game.hand)) if s != seat) for i in range(5)]
        return {**me, "type": "monopoly", "resource": RESOURCES[max(range(5), key=lambda i: (others[i], -i))]}

    def private_offer(self, game: Any, seat: int) -> dict[str, Any] | None:
        """One card for one card with the next player, who holds what is asked."""
        to = (seat + 1) % len(game.hand)
        give = next((r for r in range(5) if game.hand[seat][r]), None)
        get = next((r for r in range(5) if r != give and game.hand[to][r]), None)
        if give is None or get is None:
            return None
        return {"player": seat, "type": "offer", "to": to, "give": {RESOURCES[give]: 1}, "get": {RESOURCES[get]: 1}}

    def bank_trade(self, game: Any, seat: int) -> dict[str, Any] | None:
        """A maritime trade of a pile nobody needs for what a development card (or a city) lacks."""
        hand = game.hand[seat]
        for trade in bank_trades(game, seat):
            (give, n), (get, _) = next(iter(trade["give"].items())), next(iter(trade["get"].items()))
            gi, ge = RESOURCES.index(give), RESOURCES.index(get)
            if get in DEV and give not in DEV and hand[ge] == 0:
                return {"give": {give: n}, "get": {get: 1}}
            if get in DEV and hand[gi] - n >= 1 and hand[ge] == 0:
                return {"give": {give: n}, "get": {get: 1}}
        return None


def play_through(game: Any, seed: int, limit: int = 2000) -> tuple[int, set[str]]:
    """How many actions a whole game of the script takes, and the goals met (for finding a seed offline)."""
    script = Script(seed)
    step = 0
    while game.phase != OVER and step < limit:
        action = script.choose(game, step)
        applied = game.apply(action)
        script.note(action, applied.events)
        step += 1
    return step, script.done


def search(points: int, seeds: range) -> None:  # pragma: no cover - run by hand to pick CATAN_SEED
    from engine import game_class

    for seed in seeds:
        game: Any = game_class("catan").new(
            ["A", "B", "C"], {"points_to_win": points, "first_player": random.Random(seed).randrange(3)}, seed
        )
        steps, done = play_through(game, seed)
        if game.phase == OVER and set(GOALS) <= done:
            print(seed, steps)


def shown_page(message: Any, op: str) -> int:
    """The page a paged select shows (its custom id ends with the page number)."""
    return int(find(message, op)["custom_id"].rsplit(",", 1)[-1].rsplit(":", 1)[-1])


def turned(message: Any, op: str, page: int) -> bool:
    return shown_page(message, op) == page


class CatanPeople:
    """Makes each chosen move through the turn message's buttons and selects, the private menus they open, the
    discard and offer forms, the reply buttons of direct messages, and now and then ``/build`` and ``/hand``."""

    def __init__(self, table: Table, script: Script) -> None:
        self.table = table
        self.script = script
        # Called once, between a private menu's opening and its use, from version ``pause_from`` on (a restart).
        self.pause: Callable[[], Awaitable[None]] | None = None
        self.pause_from = 0

    def next_action(self) -> dict[str, Any]:
        return self.script.choose(self.table.engine, len(self.table.log))

    async def menu(self, person: Person, message: Any, op: str, arg: str | None = None) -> Any:
        """Click a button that answers with a private menu; the menu."""
        table = self.table
        asked = await table.click(person, message, find(message, op, arg))
        menu = await table.reply(asked)
        assert menu.ephemeral, menu
        if self.pause is not None and table.version >= self.pause_from:
            pause, self.pause = self.pause, None
            await pause()
        return menu

    async def choose_in(self, person: Person, message: Any, op: str, value: str, page_op: str) -> int:
        """Pick ``value`` in the ``op`` select of ``message``, turning its pages until it shows."""
        table = self.table
        for _ in range(6):
            select = find(message, op)
            if any(o["value"] == value for o in select["options"]):
                return await table.select(person, message, select, value)
            page = shown_page(message, op)
            arg = find(message, page_op)["custom_id"].split(":", 5)[5]
            prefix = arg.rsplit(",", 1)[0] + "," if "," in arg else ""
            turn = await table.click(person, message, find(message, page_op, f"{prefix}{page + 1}"))
            await table.fake.wait_answer(turn)
            await table.fake.wait_for(partial(turned, message, op, page + 1))
        raise AssertionError(f"{value} is not offered in {op}")

    async def perform(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Make ``action`` through Discord, wait until the channel shows the game after it; the engine's events."""
        events = await self.send(action)
        await self.table.settled()
        return events

    async def send(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Make ``action`` through Discord; the engine's events. The bot may not have shown it yet."""
        table = self.table
        game = table.engine
        person = table.people[action["player"]]
        kind = action["type"]
        message = table.turn_message()
        if kind == "settlement" and game.phase == SETUP:
            await self.choose_in(person, message, "spot", str(action["at"]), "spage")
        elif kind == "road" and game.phase == SETUP:
            await table.click(person, message, find(message, "sroad", action["at"]))
        elif kind in ("settlement", "city", "road") and len(table.log) % 2:
            await self.build_by_command(person, kind, str(action["at"]))
        elif kind in ("settlement", "city", "road"):
            menu = await self.menu(person, message, "b", kind)
            await self.choose_in(person, menu, "bs", str(action["at"]), "bpage")
        elif kind == "end_turn":  # a look at the hand first (its lines must never reach the channel)
            hand = await table.reply(await table.slash(person, "hand"))
            assert hand.ephemeral and hand.content, hand
            await table.click(person, message, find(message, "end"))
        elif kind in ("roll", "buy"):
            await table.click(person, message, find(message, kind))
        elif kind == "discard":
            opened = await table.click(person, message, find(message, "disc"))
            await table.submit(person, opened, {f"discard:{r}": str(n) for r, n in action["cards"].items() if n})
        elif kind == "robber":
            await self.rob(person, message, "rob", action)
        elif kind in ("knight", "road_building", "year_of_plenty", "monopoly"):
            cards = await self.menu(person, message, "play")
            shown = await self.menu(person, cards, "card", kind)
            if kind == "knight":
                await self.rob(person, shown, "khex", action)
            elif kind == "monopoly":
                await table.click(person, shown, find(shown, "mono", action["resource"]))
            elif kind == "year_of_plenty":
                take = [r for r, n in action["take"].items() for _ in range(n)]
                await table.select(person, shown, find(shown, "yop"), "+".join(take))
            else:
                first, second = action["roads"]
                asked = await table.select(person, shown, find(shown, "rb1"), first)
                then = await table.reply(asked)
                await table.select(person, then, find(then, "rb2"), second)
        elif kind == "bank_trade":
            menu = await self.menu(person, message, "bank")
            (give, _), (get, _) = next(iter(action["give"].items())), next(iter(action["get"].items()))
            await table.select(person, menu, find(menu, "bk"), f"{give}>{get}")
        elif kind == "offer":
            menu = await self.menu(person, message, "trade")
            opened = await table.click(person, menu, find(menu, "offer", str(action["to"])))
            await table.submit(person, opened, {"give": bundle(action["give"]), "get": bundle(action["get"])})
        elif kind == "accept":
            dm = await self.direct_message(person, "acc", str(action["offer"]))
            await table.click(person, dm, find(dm, "acc", str(action["offer"])))
        elif kind == "confirm":
            dm = await self.direct_message(person, "conf", f"{action['offer']},{action['with']}")
            await table.click(person, dm, find(dm, "conf", f"{action['offer']},{action['with']}"))
        else:
            raise AssertionError(f"no way to make {action}")
        events = table.applied(action)
        self.script.note(action, events)
        return events

    async def rob(self, person: Person, where: Any, op: str, action: dict[str, Any]) -> None:
        table = self.table
        victims = robber_choices(table.engine, action["player"])[action["hex"]]
        asked = await table.select(person, where, find(where, op), action["hex"])
        if len(victims) > 1:
            prompt = await table.reply(asked)
            victim = action["victim"]
            await table.click(
                person,
                prompt,
                find(
                    prompt,
                    "vic",
                    f"{op[0] if op == 'khex' else 'r'},{action['hex']},{'' if victim is None else victim}",
                ),
            )

    async def direct_message(self, person: Person, op: str, arg: str) -> Any:
        """The newest direct message to ``person`` offering ``op:arg``."""
        fake = self.table.fake
        return await fake.wait_for(
            lambda: next((m for m in reversed(fake.dms(person.id)) if has(m, op, arg)), None), timeout=20
        )

    async def build_by_command(self, person: Person, what: str, where: str) -> None:
        """``/build`` as a person types it, the place picked from autocomplete."""
        table = self.table
        choices = await table.autocomplete(person, "build", "where", what=what, where="")
        offered = [c["value"] for c in choices]
        if where not in offered:  # more than a page of places: type the place's number or name
            choices = await table.autocomplete(person, "build", "where", what=what, where=where)
            offered = [c["value"] for c in choices]
        assert where in offered, (what, where, offered)
        await table.slash(person, "build", what=what, where=where)


assert set(CARDS) >= {"knight", "road_building", "year_of_plenty", "monopoly", "victory_point"}
