"""Every message, menu and modal the bot builds for Carcassonne and Catan stays within Discord's limits, in all four
languages, with 32-character player names (the longest Discord allows) in every script: checked with the same
functions the fake Discord of the process tests answers with.

Within the limit is not enough: every label, option, placeholder, form title and field label must still be a whole
catalogue text of its language (``whole``), so a text whose tail was cut to fit fails. Only the names may give way
(``bot.text.limits.fitted``: "Жозефина Але…").
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator, Sequence
from functools import cache
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.carcassonne import turn as carc
from bot.carcassonne.ids import button as carcassonne_button
from bot.catan import forms, menus
from bot.catan import handlers as catan_handlers
from bot.catan import turn as catan_turn
from bot.catan.handlers import TABLE as CATAN
from bot.catan.ids import button as catan_button
from bot.catan.seating import Seated
from bot.core.clicks import Click, Reply
from bot.core.host import Press
from bot.flows.lobby import lobby_embed, lobby_view
from bot.flows.replay import Page, controls
from bot.host import HostError as Refusal
from bot.local.loopback import payloads
from bot.storage import GameRow, Seat
from bot.text import t
from bot.text.catalogue import MESSAGES
from bot.text.i18n import LANGUAGES, language, set_language, translations
from bot.text.languages import Languages
from bot.text.limits import ELLIPSIS, MODAL_TITLE, NAME, Name, fitted
from engine.ai import decide, policy_seed
from engine.catan import bank_trades, playable_cards, road_spots
from engine.catan.board import RESOURCES
from engine.history import GameLog, history
from engine.registry import game_class

# The longest display names Discord allows, one per script: Latin, Cyrillic, CJK wide characters, emoji (each
# astronaut is three code points joined by ZWJ: a name shortened inside one would show a broken picture).
SCRIPTS = {
    "latin": "Wilhelmina Augusta von Habsburgg",
    "cyrillic": "Жозефина Александровна Ёлкина-Щу",
    "cjk": "歐陽" * 16,
    "emoji": "👩\u200d🚀" * 10 + "🐉🐉",
}
NAMES = list(SCRIPTS.values())
STEPS = 300  # states visited per game and language (every kind of decision comes up early on)


@pytest.fixture(params=LANGUAGES)
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    # each language seats the scripts in another order, so every seat (the owner of a capture, the maker of an
    # offer) holds every script once
    turn = LANGUAGES.index(request.param)
    NAMES[:] = [*list(SCRIPTS.values())[turn:], *list(SCRIPTS.values())[:turn]]
    set_language(request.param)
    yield request.param
    set_language(None)
    NAMES[:] = list(SCRIPTS.values())


def test_the_names_are_the_longest_discord_allows() -> None:
    assert {len(name) for name in SCRIPTS.values()} == {NAME} == {32}


# -- whole texts -----------------------------------------------------------------------------------------------


def _pattern(form: str) -> tuple[str, int]:
    """A catalogue text as a pattern (each parameter: any text on one line), and how much of it is fixed text."""
    parts, fixed = [], 0
    for literal, field, _spec, _conversion in string.Formatter().parse(form):
        parts.append(re.escape(literal))
        fixed += len(literal.strip())
        if field is not None:
            parts.append(r"[^\n]*?")
    return "".join(parts), fixed


@cache
def templates(lang: str, *, ending: str = "") -> re.Pattern[str]:
    """Every catalogue text of ``lang`` (those that end with ``ending``) as one pattern."""
    found = []
    for key, english in MESSAGES.items():
        entry = (translations(lang).get(key) if lang != "en" else None) or english
        for form in entry if isinstance(entry, tuple) else (entry,):
            pattern, fixed = _pattern(form)
            if fixed and form.endswith(ending):  # "{name}" alone would take any text
                found.append(pattern)
    return re.compile("|".join(f"(?:{p})" for p in found))


def unshortened(text: str) -> str:
    """``text`` with every player's name that was shortened with an ellipsis ("Жозефина Ал…") put back whole."""
    for name in SCRIPTS.values():
        for length in range(len(name) - 1, 0, -1):
            for kept in {name[:length], name[:length].rstrip()}:
                text = text.replace(kept + ELLIPSIS, name)
    return text


def whole(text: str) -> bool:
    """``text`` is a whole catalogue text of the current language: only names may have been shortened, nothing
    else was cut to fit (a cut leaves an ellipsis where the text ends). A text without a letter ("0" as a field's
    hint) is no sentence to cut."""
    if not any(ch.isalpha() for ch in text):
        return True
    text = unshortened(text)
    if templates(language()).fullmatch(text) is None:
        return False
    return not text.endswith(ELLIPSIS) or templates(language(), ending=ELLIPSIS).fullmatch(text) is not None


def shown_texts(payload: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, text) of every label, option, placeholder and title a message or a form shows."""
    for e, embed in enumerate(payload.get("embeds") or []):
        yield f"embeds.{e}.title", embed.get("title") or ""
        yield f"embeds.{e}.footer", (embed.get("footer") or {}).get("text") or ""
        for f, item in enumerate(embed.get("fields") or []):
            yield f"embeds.{e}.fields.{f}.name", item.get("name") or ""
    if payload.get("title"):
        yield "title", payload["title"]
    for r, row in enumerate(payload.get("components") or []):
        for c, item in enumerate(row.get("components") or []):
            where = f"components.{r}.{c}"
            yield f"{where}.label", item.get("label") or ""
            yield f"{where}.placeholder", item.get("placeholder") or ""
            for o, choice in enumerate(item.get("options") or []):
                if choice.get("label") != "-":  # the filler of a select with nothing to offer
                    yield f"{where}.options.{o}.label", choice.get("label") or ""
                    yield f"{where}.options.{o}.description", choice.get("description") or ""


def assert_whole(payload: dict[str, Any]) -> None:
    cut = [f"{where}: {text!r}" for where, text in shown_texts(payload) if text and not whole(text)]
    assert not cut, f"cut to fit ({language()}): " + "; ".join(cut)


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
        language=language(),  # the game's language: the lobby speaks it
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
    problems = payloads.check_message(payload)
    assert not problems, payloads.describe(problems)
    assert_whole(payload)


def assert_modal_fits(modal: discord.ui.Modal) -> None:
    data = modal.to_dict()
    problems = payloads.check_modal(data)
    assert not problems, payloads.describe(problems)
    assert_whole(data)


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
        assert_fits(None, lobby_view(Languages(), row), [lobby_embed(Languages(), row)])


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
    click: Any = SimpleNamespace(table=CATAN, game_id=987_654_321, version=99_999)  # what a form's id is made of
    assert_modal_fits(forms.discard_form(click, 22, hand))
    title = fitted(MODAL_TITLE, "catan.modal.counter_title", offer=99_999, name=Name("Ж" * 32))
    assert_modal_fits(forms.offer_form(click, to=3, counter=99_999, title=title))
    assert_modal_fits(forms.offer_form(click, to=None, counter=None, title=t("catan.modal.offer_all_title")))


@pytest.mark.parametrize("button,op", [(carcassonne_button, "pass"), (catan_button, "trade")])
def test_the_last_guard_clips_a_label_built_without_names_to_discords_80_characters(button: Any, op: str) -> None:
    label = "Give " + "Ж" * 32 + " everything and take " + "W" * 32 + " back"

    item = button(987_654_321, 123_456, op, "", label)

    assert len(item.item.label) == payloads.BUTTON_LABEL and item.item.label.endswith("…")
    assert label.startswith(item.item.label[:-1])


@pytest.mark.parametrize("name,players", [("carcassonne", 4), ("catan", 4)])
def test_every_replay_page_fits(lang: str, name: str, players: int) -> None:
    """The turn select of ``/game replay`` names the player of each turn."""
    game = game_class(name).new(NAMES[:players], {}, seed=11)
    rng = random.Random(policy_seed(11, 0, 0))
    actions = []
    for _ in range(120):
        auto = game.automatic_action()
        action = auto if auto is not None else decide(game, game.actors()[-1], "random", rng)
        game.apply(action)
        actions.append(action)
    log = GameLog(name, tuple(NAMES[:players]), {}, 11, tuple(actions))
    row = row_for(name, "active", players, {})
    turns = history(log)
    for index in range(0, len(turns), 10):
        page = Page(row, turns, index, game.view(None))
        assert_fits(None, controls(page))


def test_every_carcassonne_rotation_prompt_fits(lang: str) -> None:
    row = row_for("carcassonne", "active", 4, {"river": True, "tower": True})
    for game, _ in play("carcassonne", 4, {"river": True, "tower": True}):
        for cell in list(game.legal_placements())[:3]:
            prompt = carc.rotation_message(row, game, cell)
            assert_fits(prompt["content"], prompt["view"])


class Rows:
    """What the offer checks of a counter-offer read (``Host.rows``): the game as it stands."""

    def __init__(self, found: Seated) -> None:
        self.found = found

    async def row(self, game_id: int) -> GameRow:
        return self.found.row

    def game(self, row: GameRow) -> Any:
        return self.found.game


def menu_click(found: Seated, op: str, arg: str = "", values: Sequence[str] = ()) -> Click:
    """A click on a Catan button, as its handler sees it (no Discord behind it: the handler only builds menus and
    forms; the host answers only what the offer checks read)."""
    press = Press("ct", found.row.id, found.row.version, op, arg, tuple(values))
    host: Any = type("Host", (), {"rows": Rows(found)})()
    return Click(cast(Any, None), host, CATAN, press, CATAN.ops[op])


def seated_at(monkeypatch: pytest.MonkeyPatch, found: Seated) -> None:
    """The handlers find the clicker seated as ``found``."""

    async def seated(click: Click, *, strict: bool = True) -> Seated:
        return found

    monkeypatch.setattr(catan_handlers, "_seated", seated)


async def test_every_catan_card_bank_and_road_building_menu_fits(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    row = row_for("catan", "active", 4, {})
    shown: set[str] = set()
    for played, _ in play("catan", 4, {}):
        game = played.copy()
        if game.phase in ("roll", "main"):  # one of each card, bought before this turn
            game.dev[game.current] = [1, 0, 1, 1, 1]
            game.bought = [0] * 5
        found = Seated(row, game, game.current)
        seated_at(monkeypatch, found)
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


async def test_every_catan_offer_form_fits(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forms of an offer to one player and of a counter-offer are titled with a name: the title's limit is 45."""
    row = row_for("catan", "active", 4, {})
    forms = 0
    for played, _ in play("catan", 4, {}):
        if played.phase != "main" or not any(played.hand[played.current]):
            continue
        game = played.copy()
        maker = game.current
        give = next(r for r, n in zip(RESOURCES, game.hand[maker], strict=True) if n)
        get = next(r for r in RESOURCES if r != give)
        game.apply({"player": maker, "type": "offer", "to": None, "give": {give: 1}, "get": {get: 1}})
        offer = game.offers[-1]["id"]
        for seat in range(4):
            found = Seated(row, game, seat)
            seated_at(monkeypatch, found)
            if seat == maker:
                for to in [s for s in range(4) if s != maker]:
                    click = menu_click(found, "offer", str(to))
                    assert_modal_fits(await click.op.handler(click))  # type: ignore[arg-type]
                    forms += 1
            else:
                click = menu_click(found, "cnt", str(offer))
                assert_modal_fits(await click.op.handler(click))  # type: ignore[arg-type]
                forms += 1
        if forms >= 12:
            return
    raise AssertionError("no offer could be made")
