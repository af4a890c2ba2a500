"""Every message, menu and modal the bot builds for Carcassonne and Catan stays within Discord's limits, in all four
languages, with 32-character player names (the longest Discord allows): checked with the same functions the fake
Discord of the process tests answers with."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, cast

import discord
import pytest

from bot.carcassonne import turn as carc
from bot.carcassonne.ids import button as carcassonne_button
from bot.catan import handlers as catan_handlers
from bot.catan import menus
from bot.catan import turn as catan_turn
from bot.catan.forms import DiscardForm, OfferForm
from bot.catan.handlers import TABLE as CATAN
from bot.catan.ids import button as catan_button
from bot.catan.seating import Seated
from bot.core.clicks import Click, Reply
from bot.core.host import Press
from bot.flows.lobby import lobby_embed, lobby_view
from bot.host import HostError as Refusal
from bot.storage import GameRow, Seat
from bot.text.i18n import set_language
from engine.ai import decide, policy_seed
from engine.catan import bank_trades, playable_cards, road_spots
from engine.registry import game_class
from tests.fakediscord import limits

LANGUAGES = ("en", "zh-CN", "zh-TW", "ru")
NAMES = ["Ж" * 32, "W" * 32, "測" * 32, "Q" * 31 + "ё"]
STEPS = 300  # states visited per game and language (every kind of decision comes up early on)


@pytest.fixture(params=LANGUAGES)
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    yield request.param
    set_language(None)


def row_for(name: str, status: str, players: int, options: dict[str, Any]) -> GameRow:
    return GameRow(
        id=987_654_321,
        guild_id=1,
        channel_id=2,
        game=name,
        status=status,
        host_id=10**18,
        options=options,
        seed=7,
        seats=[Seat(10**18 + i, NAMES[i]) for i in range(players)],
        state_json=None,
        version=123_456,
        language=None,
        turn_limit=None,
        message_id=None,
        turn_started_at=None,
        reminders_sent=0,
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
    )


def assert_fits(content: str | None, view: discord.ui.View | None, embeds: Sequence[discord.Embed] = ()) -> None:
    payload = {
        "content": content,
        "components": view.to_components() if view is not None else [],
        "embeds": [e.to_dict() for e in embeds],
    }
    problems = limits.check_message(payload)
    assert not problems, limits.describe(problems)


def assert_modal_fits(modal: discord.ui.Modal) -> None:
    problems = limits.check_modal(modal.to_dict())
    assert not problems, limits.describe(problems)


def play(name: str, players: int, options: dict[str, Any]) -> Iterator[tuple[Any, list[Any]]]:
    """Each state of a game played by random computer players (and the events that led to it)."""
    game = game_class(name).new(NAMES[:players], options, seed=11)
    rng = random.Random(policy_seed(11, 0, 0))
    events: list[Any] = []
    for _ in range(STEPS):
        yield game, events
        if game.finished:
            return
        auto = game.automatic_action()
        action = auto if auto is not None else decide(game, game.actors()[-1], "random", rng)
        events = list(game.apply(action).events)


def test_lobbies_fit(lang: str) -> None:
    for name, players in (("carcassonne", 4), ("catan", 4)):
        row = row_for(name, "lobby", players, {})
        assert_fits(None, lobby_view(row), [lobby_embed(row)])


def test_every_carcassonne_turn_fits(lang: str) -> None:
    row = row_for("carcassonne", "active", 4, {"river": True, "tower": True})
    for game, events in play("carcassonne", 4, {"river": True, "tower": True}):
        content, _ = carc.turn_text(row, game, events)
        assert_fits(content, carc.turn_view(row, game))
        for page in (1, 2):
            assert_fits(None, carc.turn_view(row, game, page))


def test_every_catan_turn_and_menu_fits(lang: str) -> None:
    row = row_for("catan", "active", 4, {})
    for game, events in play("catan", 4, {}):
        assert_fits(catan_turn.turn_text(row, game, events), catan_turn.turn_view(row, game))
        for seat in range(4):
            found = Seated(row, game, seat)
            assert_fits(None, menus.hand_view(found))
            for kind in ("road", "settlement", "city"):
                try:
                    text, view = menus.build_menu(found, kind)
                except Refusal:  # nothing to build: a refusal, not a message with components
                    continue
                assert_fits(text, view)
            for menu in (menus.card_menu, menus.trade_menu):
                try:
                    text, view = menu(found)
                except Refusal:
                    continue
                assert_fits(text, view)
            assert_fits(None, menus.victim_view(row, "robber", "A", [0, 1, 2, 3, None]))
        offer = {"id": 99, "from": 0, "to": None, "give": {"brick": 9, "ore": 9}, "get": {"wool": 9, "grain": 9}}
        for confirm in (None, 1):
            assert_fits(catan_turn.offer_text(row, offer), menus.offer_view(row, offer, public=True, confirm=confirm))


def test_catan_modals_fit(lang: str) -> None:
    hand = {"brick": 9, "lumber": 9, "wool": 9, "grain": 9, "ore": 9}
    assert_modal_fits(DiscardForm(CATAN, 987_654_321, 22, hand))
    assert_modal_fits(OfferForm(CATAN, 987_654_321, to=3, counter=99, title="Q" * 60))


@pytest.mark.parametrize("button,op", [(carcassonne_button, "pass"), (catan_button, "trade")])
def test_a_long_button_label_is_clipped_to_discords_80_characters(button: type[Any], op: str) -> None:
    label = "Give " + "Ж" * 32 + " everything and take " + "W" * 32 + " back"

    item = button(987_654_321, 123_456, op, "", label)

    assert len(item.item.label) == limits.BUTTON_LABEL and item.item.label.endswith("…")
    assert label.startswith(item.item.label[:-1])


def test_every_carcassonne_rotation_prompt_fits(lang: str) -> None:
    row = row_for("carcassonne", "active", 4, {"river": True, "tower": True})
    for game, _ in play("carcassonne", 4, {"river": True, "tower": True}):
        for cell in list(game.legal_placements())[:3]:
            prompt = carc.rotation_message(row, game, cell)
            assert_fits(prompt["content"], prompt["view"])


def menu_click(found: Seated, op: str, arg: str = "", values: Sequence[str] = ()) -> Click:
    """A click on a Catan button, as its handler sees it (no Discord behind it: the handler only builds menus)."""
    press = Press("ct", found.row.id, found.row.version, op, arg, tuple(values))
    return Click(cast(Any, None), cast(Any, None), CATAN, press, CATAN.ops[op])


async def test_every_catan_card_bank_and_road_building_menu_fits(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    row = row_for("catan", "active", 4, {})
    shown: set[str] = set()
    for played, _ in play("catan", 4, {}):
        game = played.copy()
        if game.phase in ("roll", "main"):  # one of each card, bought before this turn
            game.dev[game.current] = [1, 0, 1, 1, 1]
            game.bought = [0] * 5
        found = Seated(row, game, game.current)

        async def seated(click: Click, *, strict: bool = True, found: Seated = found) -> Seated:
            return found

        monkeypatch.setattr(catan_handlers, "_seated", seated)
        clicks = [menu_click(found, "card", card) for card in playable_cards(game, game.current)]
        if game.phase == "main" and bank_trades(game, game.current):
            clicks.append(menu_click(found, "bank"))
        for first in road_spots(game, game.current)[:2]:
            clicks.append(menu_click(found, "rb1", values=[first]))
        for click in clicks:
            answer = await click.op.handler(click)
            if isinstance(answer, Reply):
                assert_fits(answer.content or "", answer.view)
                shown.add(f"card:{click.arg}" if click.press.op == "card" else click.press.op)
    assert {"card:knight", "card:year_of_plenty", "card:monopoly", "card:road_building", "bank", "rb1"} <= shown
