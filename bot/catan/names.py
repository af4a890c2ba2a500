"""How Catan things are named in chat: intersections (``25 · J-NE``), paths (``25-31 · J-E``), hexes, bundles.

Players type numbers or hex-and-corner names; ``parse_bundle_text`` reads trade amounts such as ``2 brick, ore``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.components import Refusal
from bot.text import t
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

# What players write for each resource (lower case, singular and plural, common synonyms).
ALIASES: Final = {
    "brick": "brick", "bricks": "brick", "clay": "brick",
    "lumber": "lumber", "wood": "lumber", "woods": "lumber", "log": "lumber", "logs": "lumber",
    "wool": "wool", "sheep": "wool",
    "grain": "grain", "grains": "grain", "wheat": "grain",
    "ore": "ore", "ores": "ore", "stone": "ore", "rock": "ore", "rocks": "ore",
    # 简体中文 and 繁體中文 (the editions' names and the everyday ones)
    "砖": "brick", "砖块": "brick", "磚": "brick", "磚塊": "brick", "黏土": "brick",
    "木": "lumber", "木材": "lumber", "木头": "lumber", "木頭": "lumber",
    "羊": "wool", "羊毛": "wool",
    "麦": "grain", "麥": "grain", "小麦": "grain", "小麥": "grain", "粮食": "grain", "糧食": "grain",
    "矿": "ore", "矿石": "ore", "礦": "ore", "礦石": "ore", "铁": "ore", "鐵": "ore",
    # Русский (the forms that follow numbers as well)
    "глина": "brick", "глины": "brick", "кирпич": "brick", "кирпича": "brick", "кирпичей": "brick",
    "древесина": "lumber", "древесины": "lumber", "лес": "lumber", "леса": "lumber", "дерево": "lumber",
    "шерсть": "wool", "шерсти": "wool", "овца": "wool", "овцы": "wool", "овец": "wool",
    "зерно": "grain", "зерна": "grain", "пшеница": "grain", "пшеницы": "grain",
    "руда": "ore", "руды": "ore", "руду": "ore",
}  # fmt: skip
FILLERS: Final = frozenset({"and", "a", "an", "и", "和"})  # words between amounts that mean nothing
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


def hex_label(view: Mapping[str, Any], letter: str) -> str:
    """``F · hills 6`` from the view's board."""
    entry = view["board"]["hexes"][HEX_NAMES.index(letter)]
    terrain = t(f"catan.terrain.{entry['terrain']}")
    if entry["number"] is None:
        return t("catan.hex_plain", hex=letter, terrain=terrain)
    return t("catan.hex", hex=letter, terrain=terrain, number=entry["number"])


def intersection_label(number: int) -> str:
    return t("catan.intersection", number=number, name=corner_name(number - 1))


def intersection_description(view: Mapping[str, Any], number: int) -> str:
    """The hexes around an intersection: what a settlement there would collect."""
    return ", ".join(hex_label(view, HEX_NAMES[h]) for h in NODE_HEXES[number - 1])


def path_label(path: str) -> str:
    return t("catan.path", path=path, name=side_name(path))


def resource(name: str, count: int) -> str:
    return t(f"catan.resource.{name}", count=count)


def resource_name(name: str) -> str:
    return t(f"catan.name.{name}")


def bundle_text(bundle: Mapping[str, int]) -> str:
    """``2 brick, 1 ore``; ``nothing`` when empty."""
    parts = [resource(r, bundle[r]) for r in RESOURCES if bundle.get(r)]
    return ", ".join(parts) if parts else t("catan.nothing")


def card_name(card: str) -> str:
    return t(f"catan.card.{card}")


_TOKEN = re.compile(r"(\d+)?\s*[x×*]?\s*([^\W\d_]+)", re.UNICODE)


def parse_bundle_text(text: str) -> dict[str, int]:
    """``"2 brick, 1 ore"``, ``"brick brick ore"`` or ``"2xwheat"`` -> a bundle; Refusal explaining what is wrong."""
    bundle = dict.fromkeys(RESOURCES, 0)
    rest = text.strip().lower()
    if not rest:
        raise Refusal("rule", reason=t("catan.bundle_empty", example=t("catan.bundle_example")))
    position = 0
    for match in _TOKEN.finditer(rest):
        between = rest[position : match.start()]
        if between.strip(" ,;+&"):
            raise Refusal("rule", reason=t("catan.bundle_bad", text=between.strip(), example=t("catan.bundle_example")))
        position = match.end()
        word = match[2]
        if any(c.isnumeric() for c in word):  # "²", "①", "½": numbers, but not digits int() reads
            raise Refusal("rule", reason=t("catan.bundle_number", text=word, example=t("catan.bundle_example")))
        if word in FILLERS:
            continue
        name = ALIASES.get(word)
        if name is None:
            raise Refusal(
                "rule",
                reason=t("catan.bundle_unknown", word=word, resources=", ".join(resource_name(r) for r in RESOURCES)),
            )
        bundle[name] += int(match[1]) if match[1] else 1
    if rest[position:].strip(" ,;+&"):
        raise Refusal(
            "rule", reason=t("catan.bundle_bad", text=rest[position:].strip(), example=t("catan.bundle_example"))
        )
    if not any(bundle.values()):
        raise Refusal("rule", reason=t("catan.bundle_empty", example=t("catan.bundle_example")))
    if any(n > BUNDLE_LIMIT for n in bundle.values()):
        raise Refusal("rule", reason=t("catan.bundle_too_many", max=BUNDLE_LIMIT))
    return {r: n for r, n in bundle.items() if n}


def seat_names(names: Sequence[str], seats: Sequence[int]) -> str:
    return t("narrate.and").join(names[s] for s in seats if 0 <= s < len(names))
