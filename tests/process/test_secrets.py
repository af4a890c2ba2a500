"""The channel checks of the whole-game test catch what they are for (no process needed)."""

from __future__ import annotations

from pathlib import Path

from bot.local.loopback import Attachment, FakeDiscord, Message
from bot.text import listing, t
from engine import game_class
from tests.bot.fuzzing import Catalogue
from tests.process.people import Shown, Table
from tests.process.secrets import catan_scores, leaks, private_lines


def said(content: str, image: str | None = None, alt: str | None = None) -> Shown:
    files = [Attachment(1, image, b"", description=alt)] if image else []
    return Shown(1, content, [], [], files)


def test_a_bought_card_or_the_resource_stolen_in_the_channel_is_a_leak() -> None:
    catalogue = Catalogue()
    bought = t("catan.private.bought", card=t("catan.card.monopoly"))
    stolen = t("narrate.catan.stole", name="Alice", resource=t("catan.resource.ore", count=1), victim="Bob")
    public = t("narrate.catan.stole_hidden", name="Alice", victim="Bob")

    found = leaks([said(f"{public}\n{stolen}"), said(bought)], set(), catalogue)

    assert len(found) == 2
    assert "narrate.catan.stole" in found[0] and "catan.private.bought" in found[1]


def test_a_line_of_a_direct_message_copied_to_the_channel_is_a_leak() -> None:
    fake = FakeDiscord()
    bob = fake.add_user("Bob")
    fake.dm_channels[7] = bob
    hand = t("catan.hand.resources", cards="2 ore, 1 wool", count=3)
    fake.messages[7] = [Message(70, 7, content=f"{hand}\nDone.")]

    private = private_lines(fake)
    found = leaks([said(f"Turn 3\n{hand}")], private, Catalogue())

    assert private == {hand}  # "Done." is too short to tell anything
    assert len(found) == 1 and hand in found[0]


def test_a_private_line_told_in_an_images_alt_text_is_a_leak() -> None:
    fake = FakeDiscord()
    bob = fake.add_user("Bob")
    fake.dm_channels[7] = bob
    hand = t("catan.hand.resources", cards="2 ore, 1 wool", count=3)
    fake.messages[7] = [Message(70, 7, content=hand)]

    alt = f"Catan board at turn 3. {hand} It is Bob's turn."
    found = leaks([said("Turn 3", "catan-4-9.png", alt=alt)], private_lines(fake), Catalogue())

    assert found and all(hand in leak for leak in found)


def test_a_score_line_counting_a_hidden_victory_point_card_is_not_the_spectators(tmp_path: Path) -> None:
    game = game_class("catan").new(["Alice", "Bob", "Carol"], {}, 1)
    table = Table(FakeDiscord(), tmp_path / "db", "catan", [], 0, 1, game_id=4)
    table.views[9] = game.view(None)
    players = table.views[9]["players"]
    public = listing((t("catan.score", name=p["name"], points=p["points"], cards=0, count=0) for p in players),
                     style="enumeration")  # fmt: skip
    secret = public.replace(
        t("catan.score", name="Alice", points=0, cards=0, count=0),
        t("catan.score", name="Alice", points=1, cards=0, count=0),
    )

    assert catan_scores([said(f"news\n{public}", "catan-4-9.png")], table) == []
    assert len(catan_scores([said(f"news\n{secret}", "catan-4-9.png")], table)) == 1
