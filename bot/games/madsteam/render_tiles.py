"""Pieces of the Madsteam image drawn once and pasted, on one fixed palette (issue 16 item 3).

Drawing a string is FreeType rasterising every glyph, up to a millisecond for a line of
28 px text, and the image holds a hundred of them, most the same from one view to the
next (place names, "Water 3", a room's power, a clan's "Food 2"). Each string is drawn
once per look (text, size, weight, ink, background) into a small tile cropped to its ink,
and pasted.

The encoder's work was most of the rest: choosing a 256-colour palette for each image and
mapping two million pixels to it. This image is a few flat colours and text blended from
an ink to its background, so the palette is fixed here: the flat colours, and for each
ink-on-background pair of the image a ramp of blended shades. A tile is mapped to it once,
when drawn; the canvas is a palette image from the start, so each picture is flat fills,
lines and copies of tiles, and its PNG only compresses.

Every cached function is pure and its tiles are never mutated, only pasted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.common import (
    BG,
    COLOURS,
    HIGHLIGHT,
    INK,
    MUTED,
    OK,
    PANEL,
    SEAT_COLOURS,
    drawing_cache,
    font,
    seat_colour,
    text_on,
)
from bot.render.fighters import MARK_FILL, MARK_INK, draw_tags, tags_height

Colour = tuple[int, int, int]

PREY = (240, 130, 110)
ARRIVAL = (240, 160, 90)
LINK = (96, 98, 110)
COST_INK = (210, 140, 230)

SEATS: list[Colour] = [COLOURS[name] for name in SEAT_COLOURS]
FLAT: list[Colour] = list(
    dict.fromkeys(
        [BG, PANEL, INK, MUTED, HIGHLIGHT, OK, PREY, ARRIVAL, LINK, COST_INK, MARK_FILL]
        + [MARK_INK, *SEATS, *(text_on(c) for c in SEATS)]
    )
)
"""Every flat colour the image fills, outlines or writes with."""
PLAYERS = 4
"""Madsteam seats at most four clans: their heroes' numbers get shade ramps."""
RAMPS: list[tuple[Colour, Colour]] = [
    *((ink, PANEL) for ink in (INK, MUTED, HIGHLIGHT, OK, PREY, COST_INK)),
    *((ink, BG) for ink in (INK, MUTED, HIGHLIGHT, OK)),
    (MARK_INK, MARK_FILL),
    *((text_on(c), c) for c in SEATS[:PLAYERS]),
    *((c, BG) for c in SEATS[:PLAYERS]),
]
"""Each text's ink on the colour behind it: the shades of its anti-aliased edges."""
SHADES = (256 - len(FLAT)) // len(RAMPS)
"""Blended shades per ramp between ink and background: 12 here, so with both ends a
glyph's edge has 14 levels of coverage (a phone shows the image at about a third)."""


def _palette() -> list[Colour]:
    out = list(FLAT)
    for ink, bg in RAMPS:
        for k in range(1, SHADES + 1):
            t = k / (SHADES + 1)
            shade = tuple(round(b + (i - b) * t) for i, b in zip(ink, bg, strict=True))
            out.append((shade[0], shade[1], shade[2]))
    return out


PALETTE: list[Colour] = _palette()
_PALETTE_BYTES = bytes(v for c in PALETTE for v in c)
_PALETTE_IMAGE = Image.new("P", (1, 1))
_PALETTE_IMAGE.putpalette(_PALETTE_BYTES)
INDEX: dict[Colour, int] = {c: k for k, c in enumerate(FLAT)}
"""A flat colour's entry in the palette (shapes are filled by index)."""


def ix(colour: Colour) -> int:
    return INDEX[colour]


def _coverage_table(ink: Colour, bg: Colour) -> bytes:
    """Palette entry of each coverage 0-255 of ``ink`` over ``bg``: the ramp's nearest shade."""
    first = len(FLAT) + RAMPS.index((ink, bg)) * SHADES
    table = []
    for c in range(256):
        k = round(c * (SHADES + 1) / 255)
        table.append(INDEX[bg] if k == 0 else INDEX[ink] if k == SHADES + 1 else first + k - 1)
    return bytes(table)


COVERAGE: dict[tuple[Colour, Colour], bytes] = {r: _coverage_table(*r) for r in RAMPS}
"""For each ramp, a glyph's coverage mapped straight to its shade's palette entry (a
``bytes.translate`` table)."""


def finished(tile: Image.Image) -> Image.Image:
    """``tile`` with its pixels and palette loaded now: pasting a cached tile (from any
    drawing thread) then only reads it."""
    tile.load()
    return tile


def to_palette(img: Image.Image) -> Image.Image:
    """An RGB tile mapped to the fixed palette (each pixel to its nearest entry)."""
    return finished(img.quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE))


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A palette image on the background, drawn on with :func:`ix` indexes."""
    img = Image.new("P", (width, height), ix(BG))
    img.putpalette(_PALETTE_BYTES)
    return img, ImageDraw.Draw(img)


@dataclass(frozen=True)
class TextTile:
    """A string's ink on its background, cropped, and where its top-left corner goes from
    the anchor point."""

    img: Image.Image
    dx: int
    dy: int


WIDEST = 1.1
"""Most glyphs of the font advance less than this many times its size: the canvas a
string is drawn on is sized by it, rather than by measuring the string first (a string
that reaches the canvas's edge is drawn again on a measured one)."""


def _ink(
    text: str, size: int, bold: bool, anchor: str, width: int
) -> tuple[Image.Image, tuple[int, int, int, int], int, int]:
    """The coverage of ``text`` drawn at (ox, oy) of a canvas ``width`` px wide, its box."""
    h = 3 * size
    ox = {"l": size, "m": width // 2, "r": width - size}[anchor[0]]
    oy = h // 2
    mask = Image.new("L", (width, h), 0)
    ImageDraw.Draw(mask).text((ox, oy), text, font=font(size, bold), fill=255, anchor=anchor)
    return mask, mask.getbbox() or (ox, oy, ox + 1, oy + 1), ox, oy


def _draw_text(text: str, size: int, bold: bool, ink: Colour, bg: Colour, anchor: str) -> TextTile:
    """``text`` drawn with ``ImageDraw.text`` (the call the image made before, so the phone
    tests still see every string and its size) on ``bg``, cropped to its ink."""
    width = int(WIDEST * size * len(text)) + 2 * size
    mask, box, ox, oy = _ink(text, size, bold, anchor, width)
    if box[0] == 0 or box[2] == width:
        width = int(font(size, bold).getlength(text)) + 2 * size
        mask, box, ox, oy = _ink(text, size, bold, anchor, width)
    mask = mask.crop(box)
    table = COVERAGE.get((ink, bg))
    if table is not None:
        tile = Image.frombytes("P", mask.size, mask.tobytes().translate(table))
        tile.putpalette(_PALETTE_BYTES)
        finished(tile)
    else:  # an ink without its ramp (a fifth clan's colour): the nearest entries
        rgb = Image.new("RGB", mask.size, bg)
        rgb.paste(ink, (0, 0), mask)
        tile = to_palette(rgb)
    return TextTile(tile, box[0] - ox, box[1] - oy)


board_text = drawing_cache(_draw_text)
"""The board's strings: place names and lines, the round."""
clan_text = drawing_cache(_draw_text)
"""The clans' strings: names, scores, survivors, resources."""
shelter_text = drawing_cache(_draw_text)
"""The seat's shelter: rooms, costs, powers, objects.

(One cache per part of the image, so a busy part never pushes another's strings out.)"""

TextCache = Callable[[str, int, bool, Colour, Colour, str], TextTile]


@drawing_cache
def advance(text: str, size: int, bold: bool = False) -> float:
    """The pen's advance over ``text`` (strings set side by side)."""
    return font(size, bold).getlength(text)


def put_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    ink: Colour,
    bg: Colour,
    *,
    bold: bool = False,
    anchor: str = "lm",
    cache: TextCache = board_text,
) -> None:
    """Paste ``text`` anchored at ``xy`` on flat ``bg``."""
    tile = cache(text, size, bold, ink, bg, anchor)
    img.paste(tile.img, (int(xy[0]) + tile.dx, int(xy[1]) + tile.dy))


def put_items(
    img: Image.Image,
    xy: tuple[float, float],
    items: Iterable[tuple[str, Colour]],
    sep: tuple[str, Colour],
    size: int,
    bg: Colour,
    cache: TextCache,
) -> None:
    """Items set side by side from ``xy`` (left, middle of the line) with ``sep`` between:
    each item is its own tile, so "Water 3" drawn for one clan serves every clan."""
    x, y = xy
    for k, (text, ink) in enumerate(items):
        if k:
            put_text(img, (x, y), sep[0], size, sep[1], bg, cache=cache)
            x += advance(sep[0], size)
        put_text(img, (x, y), text, size, ink, bg, cache=cache)
        x += advance(text, size)


HERO_TILE = (64, 60)


@drawing_cache
def hero_tile(
    seat: int, value: int, standing: bool, ringed: bool
) -> tuple[Image.Image, Image.Image]:
    """A hero centred in a 64 x 60 tile (upright filled disc standing, flat outlined oval
    lying, gold ring when a prompt may stand it up), and the mask of its shape."""
    fill = seat_colour(seat)
    tile = Image.new("RGB", HERO_TILE, BG)
    mask = Image.new("L", HERO_TILE, 0)
    draw, shape = ImageDraw.Draw(tile), ImageDraw.Draw(mask)
    x, y = HERO_TILE[0] // 2, HERO_TILE[1] // 2
    if standing:
        disc = (x - 24, y - 29, x + 24, y + 29)
        draw.ellipse(disc, fill=fill, outline=INK, width=2)
        shape.ellipse(disc, fill=255)
        draw.text((x, y), str(value), font=font(30, True), fill=text_on(fill), anchor="mm")
    else:
        oval = (x - 29, y - 19, x + 29, y + 19)
        draw.ellipse(oval, fill=BG, outline=fill, width=5)
        shape.ellipse(oval, fill=255)
        draw.text((x, y), str(value), font=font(28, True), fill=fill, anchor="mm")
    if ringed:
        ring = (x - 31, y - 23, x + 31, y + 23)
        draw.ellipse(ring, outline=HIGHLIGHT, width=4)
        shape.ellipse(ring, outline=255, width=4)
    return to_palette(tile), finished(mask)


def put_hero(
    img: Image.Image, xy: tuple[int, int], seat: int, value: int, standing: bool, ringed: bool
) -> None:
    """Paste a hero centred at ``xy`` (only its shape: its neighbours' rings stay)."""
    tile, mask = hero_tile(seat, value, standing, ringed)
    img.paste(tile, (xy[0] - HERO_TILE[0] // 2, xy[1] - HERO_TILE[1] // 2), mask)


@drawing_cache
def slots_tile(slots: int, survivors: int, seat: int) -> Image.Image:
    """A room's survivor squares (filled: a survivor there), on the room's panel."""
    tile = Image.new("P", (slots * 32, 27), ix(PANEL))
    tile.putpalette(_PALETTE_BYTES)
    draw = ImageDraw.Draw(tile)
    for s in range(slots):
        square = (s * 32, 0, s * 32 + 26, 26)
        if s < survivors:
            draw.rectangle(square, fill=ix(seat_colour(seat)))
        else:
            draw.rectangle(square, outline=ix(MUTED), width=2)
    return finished(tile)


@drawing_cache
def tag_tile(label: str, width: int) -> Image.Image:
    """A prompt's yellow tag with a button's label (:func:`draw_tags`), on a place's panel,
    and the 6 px below it."""
    height = tags_height([label], width)
    tile = Image.new("RGB", (width + 1, height), PANEL)
    draw_tags(ImageDraw.Draw(tile), 0, 0, width, [label])
    return to_palette(tile)


def put_tags(img: Image.Image, x: int, y: int, width: int, labels: Iterable[str]) -> None:
    """A place's tags stacked from (x, y), one cached tile per label."""
    for label in labels:
        tile = tag_tile(label, width)
        img.paste(tile, (x, y))
        y += tile.height
