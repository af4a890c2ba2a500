"""How Catan things are named in chat: intersections (``25 · J-NE``), paths (``25-31 · J-E``), hexes, bundles.

Menus and buttons use the compact labels; a sentence uses the running-text forms (``intersection_inline``:
``25 (J-NE)``, ``hex_inline``: ``R (fields 6)``, with the sentence's own noun around them), never a menu label.

Players type numbers or hex-and-corner names; ``parse_bundle_text`` reads trade amounts such as ``2 brick, ore``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, Literal

from bot.catan.typed_input import Misread, read_bundle
from bot.host import HostError
from bot.text import listing, t
from engine.catan import CatanView, HexView
from engine.catan.board import (
    CORNERS,
    EDGE_BY_NAME,
    EDGE_NODES,
    HEX_CORNERS,
    HEX_NAMES,
    NODE_HEXES,
    RESOURCES,
    SIDES,
)

Case = Literal["nominative", "accusative"]
BUNDLE_LIMIT: Final = 19  # nobody holds more of a resource than the bank has


def corner_name(node: int) -> str:
    """``J-NE`` for the 0-based intersection ``node`` (its first hex in letter order)."""
    h = NODE_HEXES[node][0]
    return f"{HEX_NAMES[h]}-{CORNERS[HEX_CORNERS[h].index(node)]}"


def side_name(path: str) -> str:
    """``J-E`` for the path ``25-31`` (the first hex in letter order it borders)."""
    a, b = EDGE_NODES[EDGE_BY_NAME[path]]
    for h, corners in enumerate(HEX_CORNERS):
        for i in range(6):
            if {corners[i], corners[(i + 1) % 6]} == {a, b}:
                return f"{HEX_NAMES[h]}-{SIDES[i]}"
    return path


def hex_label(view: CatanView, letter: str) -> str:
    """``F · hills 6`` from the view's board."""
    entry = view["board"]["hexes"][HEX_NAMES.index(letter)]
    terrain = t(f"catan.terrain.{entry['terrain']}")
    if entry["number"] is None:
        return t("catan.hex_plain", hex=letter, terrain=terrain)
    return t("catan.hex", hex=letter, terrain=terrain, number=entry["number"])


def hex_inline(letter: str, hexes: Iterable[HexView] = ()) -> str:
    """A hex in running text with what the image shows on it, ``R (fields 6)``: its letter, terrain and number
    (``hexes``: the board's, from a view or ``stored_hexes``). The letter alone if the board is not known."""
    entry = next((h for h in hexes if h["hex"] == letter), None)
    if entry is None:
        return letter
    terrain = t(f"catan.terrain.{entry['terrain']}")
    if entry["number"] is None:
        return t("catan.hex_inline_plain", hex=letter, terrain=terrain)
    return t("catan.hex_inline", hex=letter, terrain=terrain, number=entry["number"])


def intersection_label(number: int) -> str:
    """An intersection in a menu or on a button: ``25 · J-NE``."""
    return t("catan.intersection", number=number, name=corner_name(number - 1))


def intersection_inline(number: int) -> str:
    """An intersection in a sentence, which names it "intersection": ``25 (J-NE)``."""
    return t("catan.intersection_inline", number=number, name=corner_name(number - 1))


def intersection_description(view: CatanView, number: int) -> str:
    """The hexes around an intersection: what a settlement there would collect."""
    return listing((hex_label(view, HEX_NAMES[h]) for h in NODE_HEXES[number - 1]), style="enumeration")


def path_label(path: str) -> str:
    """A path in a menu or on a button: ``25-31 · J-E``."""
    return t("catan.path", path=path, name=side_name(path))


def path_inline(path: str) -> str:
    """A path in a sentence, which names it "path": ``25-31 (J-E)``."""
    return t("catan.path_inline", path=path, name=side_name(path))


def resource(name: str, count: int, case: Case = "nominative") -> str:
    """``2 brick`` (「2 张砖块」); ``case="accusative"`` as the object of a verb (Russian «1 глину», not «1 глина»)."""
    return t(f"catan.resource_acc.{name}" if case == "accusative" else f"catan.resource.{name}", count=count)


def resource_name(name: str) -> str:
    """A resource's name on its own, as a button shows it: ``Brick``, «Глина»."""
    return t(f"catan.name.{name}")


def resource_word(name: str, case: Case = "nominative") -> str:
    """A resource named inside a sentence, without an amount: ``brick``, «глина» (``case="accusative"``: «глину»)."""
    return t(f"catan.word_acc.{name}" if case == "accusative" else f"catan.word.{name}")


def bundle_text(bundle: Mapping[str, int], case: Case = "nominative") -> str:
    """``2 brick and 1 ore`` in the language's list format (``case`` as in ``resource``). Sentences about an empty
    bundle have their own templates; callers check ``any(bundle.values())`` first."""
    return listing(resource(r, bundle[r], case) for r in RESOURCES if bundle.get(r))


def card_name(card: str) -> str:
    return t(f"catan.card.{card}")


def parse_bundle_text(text: str) -> dict[str, int]:
    """``"2 brick, 1 ore"``, ``"brick brick ore"``, 「2张砖块」 or «1 глину» -> a bundle; HostError explaining what is
    wrong (``bot.catan.typed_input`` reads every language's way of writing it)."""
    example = t("catan.bundle_example")
    try:
        return read_bundle(text, BUNDLE_LIMIT)
    except Misread as misread:
        if misread.code == "empty":
            reason = t("catan.bundle_empty", example=example)
        elif misread.code == "number":
            reason = t("catan.bundle_number", text=misread.text, example=example)
        elif misread.code == "unknown":
            resources = listing(resource_word(r) for r in RESOURCES)
            reason = t("catan.bundle_unknown", word=misread.text, resources=resources)
        elif misread.code == "too_many":
            reason = t("catan.bundle_too_many", max=BUNDLE_LIMIT)
        else:
            reason = t("catan.bundle_bad", text=misread.text, example=example)
        raise HostError("rule", reason=reason) from None
