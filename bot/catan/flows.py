"""Posting a Catan game's changes: the turn message (or, for offers and discards, a news line and fresh buttons),
the actor's own secrets privately, and everyone's private news by direct message.

Acting is the click protocol's (``bot.core.clicks``; the ops in ``handlers.py``): its stale-button refresh and what
the actor alone learns are the two hooks defined here.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.catan.alt import WORDS
from bot.catan.menus import offer_view
from bot.catan.names import bundle_text, card_name, resource, resource_name
from bot.catan.narration import narrate
from bot.catan.offer_messages import close_offers, remember
from bot.catan.seating import NAME, catan
from bot.catan.turn import is_light, offer_text, turn_image, turn_text, turn_view
from bot.core import safely
from bot.core.components import CONTENT, image_file, names_of
from bot.core.host import Posted, Shown
from bot.core.pings import only, owing
from bot.core.rendering import Lane
from bot.flows.presence import presence
from bot.flows.turns import channel_of, game_channel, nonce, refresh_choices
from bot.host.outcome import Outcome
from bot.storage import GameRow
from bot.text import listing, t
from bot.text.alt import describe
from engine import Event, Game
from engine.catan import Catan, OfferView, public_events

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.catan")
DM_CLOSED = (50007, 50278)  # cannot send messages to this user; no mutual server / DMs closed


# -- the channel -----------------------------------------------------------------------------------------------


async def post_turn(
    bot: Host,
    row: GameRow,
    game: Game,
    events: Sequence[Event],
    opening: bool,
    shown: Shown,
    nonce: str | None = None,
) -> Posted | None:
    """A new turn message with the board; for offers and discards only the news and fresh buttons (a turn message
    deleted meanwhile is posted again)."""
    if not isinstance(game, Catan):
        raise TypeError(f"game {row.id} is not a Catan game")
    channel = await game_channel(bot, row)
    if is_light(game, events):
        current = await bot.rows.row(row.id)  # the newest version and turn message: others may have followed
        if current.message_id and hasattr(channel, "get_partial_message"):  # every channel a game is played in
            await post_news(bot, row, game, events, channel, nonce)
            message = channel.get_partial_message(current.message_id)
            edited = await safely.edit_in_place(
                bot, row.channel_id, message.id, row.id, "turn message", view=turn_view(current, catan(bot, current))
            )
            if edited or current.version > row.version:
                await close_offers(bot, row.id, channel, current)
                return Posted(message)
            events = []  # the turn message is gone: post it again below (the news line told the change)
    here = await presence(bot, row)
    content = turn_text(row, game, events, opening=opening, notes=here.notes(row))
    image = await bot.renderer.png(job := turn_image(game), lane=Lane.INTERACTIVE)
    kwargs: dict[str, Any] = {"content": content, **here.pings(owing(row, game))}  # silent in quiet hours
    if nonce is not None:
        kwargs["nonce"] = nonce
    file = image_file(channel, image, f"catan-{row.id}-{row.version}.png", describe(job, WORDS))
    if file is not None:
        kwargs["file"] = file
    view = turn_view(row, game)
    if view is not None:
        kwargs["view"] = view
    sent = await channel.send(**kwargs)
    await close_offers(bot, row.id, channel)  # a turn ended, a trade, a build or an undo may have closed one
    return Posted(sent)


async def post_news(
    bot: Host,
    row: GameRow,
    game: Catan,
    events: Sequence[Event],
    channel: discord.abc.Messageable,
    nonce: str | None = None,
) -> None:
    """A short public line for public offers, replies and discards; a public offer carries its reply buttons."""
    shown = public_events(events, None)
    lines = narrate(shown, names_of(row), game.view(None)["board"]["hexes"])
    if not lines:
        return
    view, offered = None, None
    for event in shown:
        if event.get("type") == "offer_made" and event.get("to") is None:
            offer = next((o for o in game.view(None)["offers"] if o["id"] == event["offer"]), None)
            if offer is not None:
                view, offered = offer_view(row, offer, public=True), offer["id"]
    kwargs: dict[str, Any] = {"content": "\n".join(lines)[:CONTENT], "allowed_mentions": discord.AllowedMentions.none()}
    if view is not None:
        kwargs["view"] = view
    if nonce is not None:
        kwargs["nonce"] = nonce + "n"
    sent = await channel.send(**kwargs)
    if offered is not None:
        await remember(bot, row.id, offered, sent)


async def refresh(bot: Host, game_id: int) -> None:
    """Put the current version's buttons on the game's turn message (after a race left older ones there)."""
    await refresh_choices(bot, game_id, NAME, lambda row: turn_view(row, catan(bot, row)))


# -- private news ----------------------------------------------------------------------------------------------


def private_lines(row: GameRow, events: Sequence[Event], seat: int) -> list[str]:
    """What ``seat`` learns from ``events`` that a spectator does not."""
    names = names_of(row)
    public = public_events(events, None)
    mine = public_events(events, seat)
    lines = []
    for event in mine:
        if event in public:
            continue
        kind = event.get("type")
        if kind == "bought":
            lines.append(t("catan.private.bought", card=card_name(event["card"])))
        elif kind == "stolen" and event.get("resource"):
            if event.get("thief") == seat:
                lines.append(
                    t(
                        "catan.private.stole",
                        victim=names[event["victim"]],
                        resource=resource(event["resource"], 1, "accusative"),
                    )
                )
            else:
                lines.append(
                    t(
                        "catan.private.robbed",
                        thief=names[event["thief"]],
                        resource=resource(event["resource"], 1, "accusative"),
                    )
                )
        elif kind == "offer_made":
            offer: OfferView = {"id": event["offer"], "from": event["player"], "to": event["to"], "give": event["give"],
                                "get": event["get"], "accepted": [], "declined": []}  # fmt: skip
            lines.append(offer_text(row, offer))
        elif kind in ("offer_accepted", "offer_declined", "offer_withdrawn") and event.get("player") != seat:
            lines.append(t(f"catan.private.{kind}", name=names[event["player"]], offer=event["offer"]))
    return lines


def tell_actor(outcome: Outcome) -> str | None:
    """The acting player's own secrets from their action, for their private answer (a bought card, the card stolen);
    "Done." when there are none. None: the actor has no seat."""
    seat = outcome.row.seat_of(outcome.actor) if outcome.actor is not None else None
    if seat is None:
        return None
    lines = private_lines(outcome.row, outcome.events, seat)
    return "\n".join(lines) if lines else t("catan.done")


async def deliver(bot: Host, outcome: Outcome, actor: int | None) -> None:
    """Direct messages: a bought card (also to the buyer), a card stolen from you, offers and replies meant for
    you. When a DM cannot be delivered the player is asked in the channel to use /hand; nothing is lost."""
    row = outcome.row
    if row.game != NAME or not isinstance(outcome.game, Catan):
        return
    game = outcome.game
    offers: dict[int, OfferView] = {}
    for seat in range(len(row.seats)):
        for offer in game.view(seat)["offers"]:
            offers[offer["id"]] = offer
    for seat, person in enumerate(row.seats):
        if person.computer:  # a computer player reads nothing: its policy sees the seat's view
            continue
        with bot.languages.of_reader(person.user_id, row.language):  # a direct message: the reader's language
            await _deliver_to(bot, row, outcome, offers, actor, seat, person.user_id)


async def _deliver_to(
    bot: Host,
    row: GameRow,
    outcome: Outcome,
    offers: dict[int, OfferView],
    actor: int | None,
    seat: int,
    user: int,
) -> None:
    lines = private_lines(row, outcome.events, seat)
    if not lines:
        return
    mine = public_events(outcome.events, seat)
    bought = any(e.get("type") == "bought" and "card" in e for e in mine)
    if user == actor and not bought:
        return  # the actor already saw it in their ephemeral reply
    view = None
    for event in mine:
        offer = offers.get(event.get("offer", -1))
        if offer is None or offer["to"] is None:
            continue
        if event.get("type") == "offer_made" and offer["to"] == seat:
            view = offer_view(row, offer, public=False)
        elif event.get("type") == "offer_accepted" and offer["from"] == seat:
            view = offer_view(row, offer, public=False, confirm=event["player"])
    header = t("catan.private.header", channel=f"<#{row.channel_id}>")
    await dm(bot, row, user, header + "\n" + "\n".join(lines), view, nonce=nonce(row.id, row.version, f"p{seat}"))


async def dm(
    bot: Host,
    row: GameRow,
    user_id: int,
    content: str,
    view: discord.ui.View | None,
    *,
    nonce: str | None = None,
) -> bool:
    """Send a direct message; on failure tell the player in the game's channel (without the secret). A player whose
    DMs are closed is told so once; while it is remembered (``People.dms_closed``) no DM is tried, and the
    channel only says there is news for them."""
    kwargs: dict[str, Any] = {"content": content[:CONTENT], "nonce": nonce}
    if view is not None:
        kwargs["view"] = view
    remembered = await bot.people.dms_closed(user_id)
    code = DM_CLOSED[0] if remembered else await safely.dm(bot, user_id, row.id, "private news", **kwargs)
    if code is None:
        return True
    if code in DM_CLOSED and not remembered:
        await bot.people.note_dms(user_id, closed=True)
    channel = await channel_of(bot, row)
    if channel is not None:
        key = "catan.dm_instead" if remembered else "catan.dm_closed" if code in DM_CLOSED else "catan.dm_failed"
        with bot.languages.of_game(row.language, row.guild_id):
            text = t(key, mention=f"<@{user_id}>")
        extra = {} if nonce is None else {"nonce": nonce + "c"}  # told once, even when the change is delivered again
        await safely.send(channel, row.id, "DM notice", content=text, allowed_mentions=only([user_id]), **extra)
    return False


def hand_text(row: GameRow, game: Catan, seat: int) -> str:
    """A player's private hand: resources, development cards, points, harbour rates and open offers."""
    view = game.view(seat)
    me = view["players"][seat]
    held = sum(me["hand"].values())
    lines = [
        t("catan.hand.resources", cards=bundle_text(me["hand"]), count=held) if held else t("catan.hand.no_resources")
    ]
    cards = [
        t("catan.hand.card", card=card_name(c), count=n, new=me["bought_this_turn"].get(c, 0))
        for c, n in me["development"].items()
        if n
    ]
    lines.append(t("catan.hand.development", cards=listing(cards)) if cards else t("catan.hand.no_development"))
    lines.append(t("catan.hand.points", points=me["victory_points"]))
    rates = [t("catan.hand.rate", resource=resource_name(r), rate=n) for r, n in me["trade_rates"].items() if n < 4]
    if rates:
        lines.append(t("catan.hand.rates", rates=listing(rates, style="enumeration")))
    owed = me["discard_owed"]
    if owed:
        lines.append(t("catan.hand.owes", count=owed))
    for offer in view["offers"]:
        lines.append(offer_text(row, offer))
    return "\n".join(lines)
