"""Catan images from a view: the public board and the build preview for the acting player.

The static layer (sea, hexes, resource symbols, number tokens, hex letters, harbours, intersection numbers) is
drawn at twice the size, reduced and cached per map; each image copies it and pastes cached piece sprites.
:data:`GEOMETRY` is public so tests can probe the pixel of an intersection, a path or a hex.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from PIL import Image, ImageDraw

from render import fonts
from render.badge import badge
from render.catan.geometry import HARBOR_SPOTS, HEX_NAMES, Geometry, path_nodes
from render.catan.state import CatanState, read
from render.labels import label
from render.palette import INK, PAPER, RGB, darker, lighter, marks, player_colour, text_on
from render.panel import Panel, PlayerCard, draw_panel, panel_height
from render.pasting import paste
from render.rounded import rounded_rectangle

View = Mapping[str, Any]

R: Final = 78
BOARD_W: Final = 830
BOARD_H: Final = 810
GEOMETRY: Final = Geometry(R, BOARD_W / 2, BOARD_H / 2)
SEA: Final = (38, 92, 140)
SEA_DEEP: Final = (30, 74, 116)
COAST: Final = (226, 206, 150)
PREVIEW: Final = (255, 214, 80)
OUTLINE: Final = (255, 255, 255)  # pieces placed since a player's last turn

TERRAIN: Final[dict[str, RGB]] = {
    "forest": (46, 125, 59),
    "pasture": (150, 204, 98),
    "fields": (236, 196, 64),
    "hills": (200, 100, 60),
    "mountains": (138, 146, 156),
    "desert": (231, 215, 166),
}
RESOURCE_OF: Final = {"forest": "lumber", "pasture": "wool", "fields": "grain", "hills": "brick", "mountains": "ore"}
RESOURCE_COLOUR: Final[dict[str, RGB]] = {
    "lumber": TERRAIN["forest"],
    "wool": TERRAIN["pasture"],
    "grain": TERRAIN["fields"],
    "brick": TERRAIN["hills"],
    "ore": TERRAIN["mountains"],
}
RESOURCE_LETTER: Final = {"lumber": "L", "wool": "W", "grain": "G", "brick": "B", "ore": "O"}


def _icon(d: ImageDraw.ImageDraw, resource: str, x: float, y: float, s: float) -> None:
    """A resource symbol centred at (x, y), about ``s`` px across."""
    line = max(1, round(s / 14))
    if resource == "lumber":
        for dx, h in ((-0.28, 0.9), (0.22, 1.1)):
            cx = x + dx * s
            top = y - h * s * 0.5
            d.polygon(
                [(cx, top), (cx - s * 0.26, y + s * 0.25), (cx + s * 0.26, y + s * 0.25)],
                fill=(20, 70, 32),
                outline=(12, 40, 20),
                width=line,
            )
            d.rectangle([cx - s * 0.05, y + s * 0.25, cx + s * 0.05, y + s * 0.42], fill=(92, 60, 34))
    elif resource == "wool":
        for dx, dy in ((-0.18, 0.0), (0.0, -0.1), (0.18, 0.0), (0.0, 0.08), (-0.08, -0.02), (0.1, -0.04)):
            rr = s * 0.2
            d.ellipse([x + dx * s - rr, y + dy * s - rr, x + dx * s + rr, y + dy * s + rr], fill=(250, 250, 244))
        d.ellipse([x + s * 0.28, y - s * 0.14, x + s * 0.5, y + s * 0.06], fill=(40, 40, 40))
        for lx in (-0.18, 0.14):
            d.line([(x + lx * s, y + s * 0.18), (x + lx * s, y + s * 0.36)], fill=(40, 40, 40), width=line * 2)
    elif resource == "grain":
        for dx in (-0.22, 0.0, 0.22):
            cx = x + dx * s
            d.line([(cx, y + s * 0.42), (cx, y - s * 0.2)], fill=(140, 96, 30), width=line)
            for k in range(4):
                ky = y - s * 0.32 + k * s * 0.13
                d.ellipse([cx - s * 0.07, ky - s * 0.06, cx + s * 0.07, ky + s * 0.07], fill=(176, 120, 30))
    elif resource == "brick":
        bw, bh = s * 0.3, s * 0.16
        for row in range(3):
            off = 0 if row % 2 == 0 else bw / 2
            for k in range(3 if row % 2 == 0 else 2):
                bx = x - s * 0.45 + off + k * bw
                by = y - s * 0.26 + row * bh
                d.rectangle(
                    [bx, by, bx + bw - line, by + bh - line], fill=(150, 56, 30), outline=(246, 214, 190), width=line
                )
    elif resource == "ore":
        d.polygon(
            [(x - s * 0.48, y + s * 0.3), (x - s * 0.12, y - s * 0.38), (x + s * 0.1, y + s * 0.3)],
            fill=(82, 88, 98),
            outline=(40, 44, 50),
            width=line,
        )
        d.polygon(
            [(x - s * 0.1, y + s * 0.3), (x + s * 0.2, y - s * 0.22), (x + s * 0.48, y + s * 0.3)],
            fill=(104, 110, 120),
            outline=(40, 44, 50),
            width=line,
        )
        d.polygon(
            [(x - s * 0.22, y - s * 0.16), (x - s * 0.12, y - s * 0.38), (x - s * 0.02, y - s * 0.16)],
            fill=(240, 240, 240),
        )


def pips(number: int) -> int:
    return 6 - abs(7 - number)


def _token(d: ImageDraw.ImageDraw, x: float, y: float, r: float, number: int) -> None:
    red = number in (6, 8)
    d.ellipse([x - r, y - r, x + r, y + r], fill=(246, 238, 214), outline=(96, 80, 52), width=max(2, round(r / 10)))
    ink = (198, 30, 30) if red else INK
    fonts.draw_text(d, (x, y - r * 0.12), str(number), round(r * (1.05 if red else 0.95)), ink, bold=True, anchor="mm")
    n = pips(number)
    pr = r * 0.075
    gap = pr * 2.8
    for k in range(n):
        px = x + (k - (n - 1) / 2) * gap
        py = y + r * 0.56
        d.ellipse([px - pr, py - pr, px + pr, py + pr], fill=ink)


def _harbor(d: ImageDraw.ImageDraw, g: Geometry, spot: str, kind: str) -> None:
    hx, hy = g.harbor(spot)
    for end in g.path(spot):
        d.line([(hx, hy), end], fill=(120, 92, 60), width=max(3, round(g.r / 9)))
    r = g.r * 0.3
    if kind == "3:1":
        d.ellipse([hx - r, hy - r, hx + r, hy + r], fill=PAPER, outline=INK, width=max(2, round(r / 8)))
        fonts.draw_text(d, (hx, hy), label("harbor_generic"), round(r * 0.8), INK, bold=True, anchor="mm")
    else:
        colour = RESOURCE_COLOUR.get(kind, PAPER)
        d.ellipse([hx - r, hy - r, hx + r, hy + r], fill=PAPER, outline=INK, width=max(2, round(r / 8)))
        d.pieslice([hx - r * 0.86, hy - r * 0.86, hx + r * 0.86, hy + r * 0.86], 180, 360, fill=colour)
        _icon(d, kind, hx, hy - r * 0.38, r * 0.75)
        fonts.draw_text(d, (hx, hy + r * 0.45), label("harbor_special"), round(r * 0.62), INK, bold=True, anchor="mm")


@lru_cache(maxsize=16)
def static_layer(hexes: tuple[tuple[str, int | None], ...], harbors: tuple[str, ...], numbers: bool) -> Image.Image:
    """Sea, hexes, tokens, letters, harbours and (``numbers``) the small intersection numbers. Cached per map."""
    k = 2
    g2 = Geometry(GEOMETRY.r * k, GEOMETRY.cx * k, GEOMETRY.cy * k)
    img = Image.new("RGB", (BOARD_W * k, BOARD_H * k), SEA)
    d = ImageDraw.Draw(img)
    # a soft coastline under the island
    for letter in HEX_NAMES:
        d.polygon(g2.hex_polygon(letter, 1.16), fill=SEA_DEEP)
    for letter in HEX_NAMES:
        d.polygon(g2.hex_polygon(letter, 1.08), fill=COAST)
    for spot, kind in zip(HARBOR_SPOTS, harbors, strict=False):
        _harbor(d, g2, spot, kind)
    for index, (terrain, number) in enumerate(hexes):
        letter = HEX_NAMES[index]
        colour = TERRAIN.get(terrain, (200, 200, 200))
        d.polygon(g2.hex_polygon(letter), fill=colour, outline=darker(colour, 0.55), width=5)
        d.polygon(g2.hex_polygon(letter, 0.9), outline=lighter(colour, 0.25), width=3)
        x, y = g2.hex_centre(letter)
        resource = RESOURCE_OF.get(terrain)
        if resource:
            _icon(d, resource, x, y - g2.r * 0.52, g2.r * 0.42)
        if number is not None:
            _token(d, x, y + g2.r * 0.06, g2.r * 0.3, int(number))
        fonts.draw_text(
            d,
            (x, y + g2.r * 0.64),
            letter,
            round(g2.r * 0.2),
            PAPER,
            bold=True,
            anchor="mm",
            stroke=3,
            stroke_fill=darker(colour, 0.45),
        )
    if numbers:
        size = round(g2.r * 0.17)
        for n in range(1, 55):
            ix, iy = g2.intersection(n)
            fonts.draw_text(d, (ix, iy), str(n), size, (250, 250, 250), anchor="mm", stroke=3, stroke_fill=(40, 40, 40))
    return img.reduce(k)


@lru_cache(maxsize=64)
def settlement_sprite(colour: RGB, mark: str, size: int) -> Image.Image:
    s = size * 2
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    poly = [(s * 0.12, s * 0.42), (s * 0.5, s * 0.08), (s * 0.88, s * 0.42), (s * 0.88, s * 0.92), (s * 0.12, s * 0.92)]
    d.polygon(poly, fill=colour, outline=INK if sum(colour) > 200 else PAPER, width=max(3, s // 12))
    fsize = fonts.fit_line(mark, round(s * 0.42), s * 0.6, bold=True)
    fonts.draw_text(d, (s * 0.5, s * 0.62), mark, fsize, text_on(colour), bold=True, anchor="mm", room=s * 0.6)
    return img.reduce(2)


@lru_cache(maxsize=64)
def city_sprite(colour: RGB, mark: str, size: int) -> Image.Image:
    s = size * 2
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    poly = [
        (s * 0.06, s * 0.5),
        (s * 0.06, s * 0.94),
        (s * 0.94, s * 0.94),
        (s * 0.94, s * 0.3),
        (s * 0.72, s * 0.08),
        (s * 0.5, s * 0.3),
        (s * 0.5, s * 0.5),
    ]
    d.polygon(poly, fill=colour, outline=INK if sum(colour) > 200 else PAPER, width=max(3, s // 14))
    fsize = fonts.fit_line(mark, round(s * 0.36), s * 0.6, bold=True)
    fonts.draw_text(d, (s * 0.5, s * 0.72), mark, fsize, text_on(colour), bold=True, anchor="mm", room=s * 0.6)
    return img.reduce(2)


@lru_cache(maxsize=4)
def robber_sprite(size: int) -> Image.Image:
    s = size * 2
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    body = (44, 44, 48)
    edge = (235, 235, 235)
    w = max(3, s // 16)
    d.ellipse([s * 0.2, s * 0.5, s * 0.8, s * 0.98], fill=body, outline=edge, width=w)
    d.polygon([(s * 0.3, s * 0.7), (s * 0.38, s * 0.3), (s * 0.62, s * 0.3), (s * 0.7, s * 0.7)], fill=body)
    d.ellipse([s * 0.3, s * 0.04, s * 0.7, s * 0.44], fill=body, outline=edge, width=w)
    d.rectangle([s * 0.34, s * 0.42, s * 0.66, s * 0.74], fill=body)
    return img.reduce(2)


def robber_point(letter: str, hexes: Sequence[tuple[str, int | None]] = ()) -> tuple[int, int]:
    """Centre of the robber's body when it stands on hex ``letter`` (beside the number token)."""
    x, y = GEOMETRY.hex_centre(letter)
    index = HEX_NAMES.index(letter)
    desert = bool(hexes) and hexes[index][1] is None
    return (round(x), round(y + R * 0.06)) if desert else (round(x - R * 0.55), round(y + R * 0.1))


def intersection_point(n: int) -> tuple[int, int]:
    x, y = GEOMETRY.intersection(n)
    return (round(x), round(y))


def path_point(name: str) -> tuple[int, int]:
    x, y = GEOMETRY.path_mid(name)
    return (round(x), round(y))


def _road(d: ImageDraw.ImageDraw, name: str, colour: RGB, width: int, shorten: float = 0.16) -> None:
    (x0, y0), (x1, y1) = GEOMETRY.path(name)
    dx, dy = x1 - x0, y1 - y0
    a = (x0 + dx * shorten, y0 + dy * shorten)
    b = (x1 - dx * shorten, y1 - dy * shorten)
    d.line([a, b], fill=INK, width=width + 4)
    d.line([a, b], fill=colour, width=width)


def _panel(state: CatanState, mk: list[str], turn_marked: bool = True) -> Panel:
    cards = []
    for p in state.players:
        badges = []
        if state.longest_road == p.seat:
            badges.append(label("longest_road"))
        if state.largest_army == p.seat:
            badges.append(label("largest_army"))
        facts = [
            label("cards", count=p.cards),
            label("dev_cards", count=p.dev_cards),
            label("knights", count=p.knights),
        ]
        if p.discard_owed:
            facts.append(label("discard_owed", count=p.discard_owed))
        details = ("  ·  ".join(facts),)
        cards.append(
            PlayerCard(
                name=p.name,
                colour=player_colour(p.seat),
                mark=mk[p.seat] if p.seat < len(mk) else str(p.seat + 1),
                score=label("public_points", points=p.points),
                details=details,
                badges=tuple(badges),
                active=turn_marked and not state.finished and state.current == p.seat,
                winner=state.finished and p.seat in state.winners,
            )
        )
    if state.finished:
        subtitle = label("finished")
    elif state.setup:
        subtitle = label("setup")
    else:
        subtitle = label("turn", turn=state.turn)
        if state.dice:
            a, b = state.dice
            subtitle += "  ·  " + label("dice", a=a, b=b, total=a + b)
    return Panel(title=label("title_catan"), subtitle=subtitle, cards=tuple(cards))


def board_image(
    view: View,
    spots: Sequence[int | str] | None = None,
    *,
    outlined: Mapping[str, Sequence[Any]] | None = None,
    turn_marked: bool = True,
) -> Image.Image:
    """The public board; with ``spots`` the build preview showing only those legal spots, large and named; with
    ``outlined`` (``{"roads": [...], "settlements": [...], "cities": [...]}``) those pieces ringed in white: what
    was built since a player's last turn. ``turn_marked``: the card of the player to move stands out (a timelapse's
    frames mark nobody, or the mark would jump from card to card every frame)."""
    state = read(view)
    preview = spots is not None
    mk = marks([p.name for p in state.players])
    base = static_layer(state.hexes, state.harbors, not preview)
    panel = _panel(state, mk, turn_marked)
    if preview:
        key = "build_preview_road" if spots and isinstance(spots[0], str) else "build_preview_settlement"
        panel = Panel(panel.title, panel.subtitle, panel.cards, footer=(label(key), *panel.footer))
    new_roads = {"{}-{}".format(*path_nodes(str(a))) for a in (outlined or {}).get("roads", [])}
    new_nodes = {int(n) for kind in ("settlements", "cities") for n in (outlined or {}).get(kind, [])}
    if outlined is not None:
        panel = Panel(panel.title, panel.subtitle, panel.cards, footer=(label("legend_since"), *panel.footer))
    height = max(BOARD_H, panel_height(panel))
    img = Image.new("RGB", (BOARD_W + 340, height), SEA)
    paste(img, base, (0, 0))
    d = ImageDraw.Draw(img)
    road_w = max(6, round(R * 0.13))
    for name, _ in state.roads:
        if name in new_roads:
            _road(d, name, OUTLINE, road_w + 10)
    for name, seat in state.roads:
        _road(d, name, player_colour(seat), road_w)
    for n in new_nodes:
        x, y = intersection_point(n)
        ring = round(R * 0.4)
        d.ellipse([x - ring - 2, y - ring - 2, x + ring + 2, y + ring + 2], outline=INK, width=9)
        d.ellipse([x - ring, y - ring, x + ring, y + ring], outline=OUTLINE, width=5)
    rob = robber_sprite(round(R * 0.5))
    rx, ry = robber_point(state.robber, state.hexes)
    paste(img, rob, (rx - rob.width // 2, ry - rob.height // 2 - round(R * 0.04)), rob)
    ssize = round(R * 0.42)
    for n, seat in state.settlements:
        spr = settlement_sprite(player_colour(seat), _mark(mk, seat), ssize)
        x, y = intersection_point(n)
        paste(img, spr, (x - spr.width // 2, y - spr.height // 2 - 2), spr)
    csize = round(R * 0.56)
    for n, seat in state.cities:
        spr = city_sprite(player_colour(seat), _mark(mk, seat), csize)
        x, y = intersection_point(n)
        paste(img, spr, (x - spr.width // 2, y - spr.height // 2 - 3), spr)
    if preview and spots:
        _preview(img, list(spots))
    paste(img, draw_panel(panel, height), (BOARD_W, 0))
    return img


def _mark(mk: list[str], seat: int) -> str:
    return mk[seat] if seat < len(mk) else str(seat + 1)


def _preview(img: Image.Image, spots: list[int | str]) -> None:
    d = ImageDraw.Draw(img)
    if isinstance(spots[0], str):
        for name in spots:
            a, b = path_nodes(str(name))
            _road(d, f"{a}-{b}", PAPER, max(8, round(R * 0.16)), 0.12)
        for name in spots:
            a, b = path_nodes(str(name))
            text = f"{a}-{b}"
            x, y = path_point(text)
            w = fonts.text_width(text, 15, True) + 10
            rounded_rectangle(d, [x - w / 2, y - 11, x + w / 2, y + 11], radius=7, fill=PAPER, outline=INK, width=2)
            fonts.draw_text(d, (x, y), text, 15, INK, bold=True, anchor="mm")
        return
    size = round(R * 0.5)
    for n in spots:
        x, y = intersection_point(int(n))
        spr = badge(str(int(n)), size, PREVIEW, INK)
        paste(img, spr, (x - spr.width // 2, y - spr.height // 2), spr)
