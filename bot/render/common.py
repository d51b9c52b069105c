"""Fonts, colours, dice faces and legends shared by the game renderers.

The font (DejaVu Sans, licence in ``images/fonts/``) ships with the project so
images look the same on every machine.
"""

from __future__ import annotations

import importlib
import io
import math
import struct
import unicodedata
import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

from PIL import Image, ImageDraw, ImageFont

from bot.render.palette import PaletteDraw, forget_kept

ROOT = Path(__file__).resolve().parents[2]
FONT_DIR = ROOT / "images" / "fonts"

# Backgrounds and inks tuned for Discord's dark theme and phone previews.
BG = (32, 34, 40)
PANEL = (46, 49, 57)
INK = (236, 236, 240)
MUTED = (150, 152, 160)
GREY = (105, 105, 112)
HIGHLIGHT = (255, 214, 10)
DANGER = (230, 70, 60)
OK = (80, 200, 120)

# Fighter / player colours (Mad Arena's printed colours first).
COLOURS: dict[str, tuple[int, int, int]] = {
    "violet": (150, 90, 210),
    "blue": (60, 130, 230),
    "green": (70, 180, 90),
    "bronze": (190, 120, 60),
    "yellow": (235, 200, 50),
    "brown": (130, 90, 55),
    "red": (215, 55, 50),
    "orange": (240, 140, 40),
    "pink": (230, 110, 170),
    "cyan": (70, 200, 210),
    "white": (235, 235, 235),
    "black": (40, 40, 40),
}
SEAT_COLOURS = ["red", "blue", "green", "yellow", "violet", "orange", "cyan", "pink"]


F = TypeVar("F", bound=Callable[..., Any])
_CLEARS: list[Callable[[], None]] = []


def drawing_cache_of(maxsize: int) -> Callable[[F], F]:
    """Keep what ``fn`` draws (a ship tile, an empty board) by its arguments, the last
    ``maxsize`` of them: most of a picture is the same pieces drawn again, and drawing is
    most of the bot's CPU (issue 16 item 3). ``fn`` must be pure and its result never
    mutated (paste or copy it)."""

    def keep(fn: F) -> F:
        cached = lru_cache(maxsize=maxsize)(fn)
        _CLEARS.append(cached.cache_clear)
        return cast(F, cached)

    return keep


def drawing_cache(fn: F) -> F:
    """:func:`drawing_cache_of` 256 pieces."""
    return drawing_cache_of(256)(fn)


def clear_drawing_caches() -> None:
    """Forget every cached piece, so the next picture draws (and measures) everything."""
    for clear in _CLEARS:
        clear()
    forget_kept()
    font.cache_clear()  # and the lengths the fonts measured


LENGTHS_KEPT = 4096
"""Measured lines kept per font (:class:`MeasuredFont`), all forgotten when full."""


class MeasuredFont(ImageFont.FreeTypeFont):
    """A bundled font that keeps the lengths of the lines it measured: renderers measure
    the same names, numbers and labels to fit them in every picture (17,424 measures in
    a load run's 3,221 drawings, 1,330 of them different: 5% of the drawing's CPU, issue
    16 item 3). The same lengths as Pillow's; a measure with a direction, features or a
    language is Pillow's each time."""

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size)
        self._lengths: dict[tuple[str | bytes, str], float] = {}

    def __setstate__(self, state: list[Any]) -> None:
        """Unpickled (Pillow's ``__setstate__`` runs its own ``__init__`` only)."""
        super().__setstate__(state)
        self._lengths = {}

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if direction is not None or features is not None or language is not None:
            return super().getlength(text, mode, direction, features, language)
        key = (text, mode)
        length = self._lengths.get(key)
        if length is None:
            length = super().getlength(text, mode)
            if len(self._lengths) >= LENGTHS_KEPT:
                self._lengths.clear()
            self._lengths[key] = length
        return length


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return MeasuredFont(str(FONT_DIR / name), size)


TEXT_MASKS = 1024
"""Lines whose glyph masks are kept (:func:`put_text`): every game's titles, names,
coordinates and numbers (a mask is a few kilobytes: about 10 MB at most per drawing
process); at 256 the five games' lines pushed each other out."""


def _draw_text_mask(
    line: str, size: int, bold: bool, anchor: str, fx: float, fy: float
) -> tuple[Image.Image, int, int]:
    """``line``'s glyphs as a mask, drawn at the fraction (fx, fy) of a pixel past the point
    (ox, oy) of the mask (both returned): the very coverage ``ImageDraw.text`` gives there.

    The canvas reaches a type size past the line's advance and past its ascent and descent
    lines, which holds every glyph of the bundled fonts (the farthest reach, of all their
    glyphs: 1.14 size above the baseline, 0.5 to the left); measuring the ink's box would lay
    the line out once more. Combining marks stack without bound: a line holding one is
    measured. The mask is then cut to its ink."""
    fnt = font(size, bold)
    if any(unicodedata.category(ch).startswith("M") for ch in line):
        left, top, right, bottom = fnt.getbbox(line, anchor=anchor)
        ox, oy = 2 + max(0, -math.floor(left)), 2 + max(0, -math.floor(top))
        width, height = ox + math.ceil(right) + 2, oy + math.ceil(bottom) + 2
    else:
        length = math.ceil(fnt.getlength(line))
        ox = size + {"l": 0, "m": length // 2, "r": length}.get(anchor[0], 0)
        oy = 2 * size
        width, height = length + 2 * size, 4 * size
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((ox + fx, oy + fy), line, font=fnt, fill=255, anchor=anchor)
    box = mask.getbbox()
    if box is None:
        return Image.new("L", (1, 1), 0), 0, 0
    return mask.crop(box), ox - box[0], oy - box[1]


_text_mask = drawing_cache_of(TEXT_MASKS)(_draw_text_mask)
"""The masks of the lines drawn on RGB pictures."""


@drawing_cache_of(TEXT_MASKS)
def _text_coverage(
    line: str, size: int, bold: bool, anchor: str, fx: float, fy: float
) -> tuple[bytes, tuple[int, int], int, int]:
    """A line's mask as bytes, with its size and point: what a palette picture paints."""
    mask, ox, oy = _draw_text_mask(line, size, bold, anchor, fx, fy)
    return mask.tobytes(), mask.size, ox, oy


def put_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    line: str,
    size: int,
    ink: tuple[int, int, int],
    bold: bool = False,
    anchor: str = "lm",
) -> None:
    """``draw.text`` of one line with the glyphs' mask kept (by line, type, anchor and pixel
    fraction): the same pixels, and a name, an HP, a zone's title or a board's coordinate
    is rasterized once, not in every picture (text was most of the drawing's CPU, issue 16
    item 3). On a palette picture (:class:`bot.render.palette.PaletteDraw`) the glyphs are
    painted in shades of ``ink`` over what is behind them; on another palette image
    Pillow's own, aliased, text."""
    x, y = xy
    ix, iy = math.floor(x), math.floor(y)
    if isinstance(draw, PaletteDraw):
        coverage, box, ox, oy = _text_coverage(line, size, bold, anchor, x - ix, y - iy)
        draw.paint(coverage, box, ix - ox, iy - oy, ink)
        return
    if draw.fontmode != "L":
        draw.text(xy, line, font=font(size, bold), fill=ink, anchor=anchor)  # aliased
        return
    mask, ox, oy = _text_mask(line, size, bold, anchor, x - ix, y - iy)
    draw.bitmap((ix - ox, iy - oy), mask, fill=ink)


def colour(name: str) -> tuple[int, int, int]:
    return COLOURS.get(name, COLOURS["white"])


def seat_colour(seat: int) -> tuple[int, int, int]:
    return COLOURS[SEAT_COLOURS[seat % len(SEAT_COLOURS)]]


def text_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return (20, 20, 20) if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else (250, 250, 250)


def greyed(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    g = int(0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2])
    g = (g + GREY[0]) // 2
    return (g, g, g)


def canvas(
    width: int, height: int, bg: tuple[int, int, int] = BG
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), bg)
    return img, ImageDraw.Draw(img)


def centred_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    bold: bool = False,
) -> None:
    put_text(draw, xy, text, size, fill, bold, anchor="mm")


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def die_face(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    size: float,
    value: int,
    hit: bool | None = None,
) -> None:
    """A d6 face at (x, y) top-left; gold border for a hit, dim for a miss."""
    border = HIGHLIGHT if hit else (MUTED if hit is False else INK)
    face = (250, 250, 250) if hit is not False else (190, 190, 195)
    draw.rounded_rectangle(
        (x, y, x + size, y + size),
        radius=size * 0.18,
        fill=face,
        outline=border,
        width=max(2, int(size / 12)),
    )
    r = size * 0.09
    for px, py in _PIPS.get(value, []):
        cx, cy = x + px * size, y + py * size
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(25, 25, 30))
    if value not in _PIPS:
        centred_text(
            draw, (x + size / 2, y + size / 2), str(value), int(size * 0.6), (25, 25, 30), True
        )


def dice_row(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    size: float,
    values: list[int],
    target: int | None = None,
) -> float:
    """Draw dice left to right; returns the x after the last die."""
    for v in values:
        die_face(draw, x, y, size, v, None if target is None else v >= target)
        x += size * 1.2
    return x


def legend(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    items: list[tuple[tuple[int, int, int], str]],
    size: int = 18,
) -> float:
    """Colour swatches with labels, one per line; returns the y after the last."""
    for fill, label in items:
        draw.rounded_rectangle((x, y, x + size, y + size), radius=4, fill=fill)
        put_text(draw, (x + size * 1.5, y + size / 2), label, size, INK)
        y += size * 1.5
    return y


def hp_bar(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    h: float,
    hp: int,
    max_hp: int,
) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=h / 2, fill=(70, 70, 78))
    if max_hp > 0 and hp > 0:
        frac = min(1.0, hp / max_hp)
        fill = OK if frac > 0.5 else (HIGHLIGHT if frac > 0.25 else DANGER)
        draw.rounded_rectangle((x, y, x + max(h, w * frac), y + h), radius=h / 2, fill=fill)


PALETTE_COLOURS = 256
PALETTE_SAMPLE = 4
"""The palette is chosen from at most every fourth pixel of every fourth row (nearest-
neighbour, so no colour is invented): on every game's images a sixteenth of the pixels
picks a palette as close to them as a quarter did (mean error unchanged, the few
anti-aliased pixels that land on a farther colour are invisible at 3x zoom) in a third of
the time (``bench/bench_render.py``, issue 16 item 3)."""
SAMPLE_PIXELS = 50_000
"""Fewest pixels the palette is chosen from: a smaller image is sampled more densely, and
one under four times this (a badge, a test frame) gets the octree palette of all its
pixels."""
ISAL_LEVEL = 2
"""Level of ISA-L's deflate (the ``isal`` package, a dependency): measured on every game's
palette images (``bench/bench_render.py``), it deflates a board in 0.4 ms CPU where the
stdlib's zlib takes 2.6 ms (at the settings below), for 4% fewer bytes; its levels 0-2
take the same time (0 gives 19% more bytes), level 3 ten times longer for no fewer."""
COMPRESS_LEVEL = 2
MEM_LEVEL = 5
"""zlib level and memory level where ``isal`` is not installed (no row filter, the PNG
advice for palette images): measured as above, level 2 with a small hash table writes the
PNG in two thirds of Pillow's level-3 time for 3% more bytes; level 1 saves no more time
for 7% more bytes, level 4 costs twice the time for 17% fewer, a row filter or zlib's RLE
strategy saves neither."""
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def palette_of(img: Image.Image) -> Image.Image:
    """``img`` (RGB) as a 256-colour palette image, no dithering (flat colours stay flat)."""
    step = PALETTE_SAMPLE
    while step > 1 and img.width * img.height < SAMPLE_PIXELS * step * step:
        step -= 1
    if step == 1:
        return img.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    small = img.resize(
        (max(1, img.width // step), max(1, img.height // step)), Image.Resampling.NEAREST
    )
    palette = small.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def _zlib_deflate(data: bytes) -> bytes:
    deflate = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, 15, MEM_LEVEL)
    return deflate.compress(data) + deflate.flush()


def _deflater() -> Callable[[bytes], bytes]:
    """ISA-L's deflate where ``isal`` is installed, else the stdlib's zlib: the same image
    gives the same bytes under one installation (either is deterministic)."""
    try:
        isal_zlib = importlib.import_module("isal.isal_zlib")
    except ImportError:
        return _zlib_deflate
    compress = isal_zlib.compress
    return lambda data: bytes(compress(data, ISAL_LEVEL))


_deflate = _deflater()


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC of type and data."""
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def palette_png(img: Image.Image) -> bytes:
    """A palette ("P") image as an 8-bit PNG, written here rather than by Pillow, whose
    writer spends about a millisecond per board around zlib and cannot use ISA-L (issue 16
    item 3)."""
    width, height = img.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(img, (1, 0))  # column 0 is each row's filter type: 0, None
    idat = _deflate(rows.tobytes())
    palette = bytes(img.getpalette("RGB") or (0, 0, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def png_bytes(img: Image.Image) -> bytes:
    """Encode as a 256-colour palette PNG; deterministic for identical images.

    The boards are flat colours and anti-aliased text on them: the palette shows no
    visible change (mean error under 0.6 of 255 on every game's images, compared by eye
    at 3x zoom) and takes a sixth of level-6 RGB's time and half its bytes (issue 16
    item 3). A palette image drawn on its own fixed palette (Madsteam's) is written as it
    is; another mode (grey, a palette with transparency) is left to Pillow."""
    if img.mode == "RGBA":
        img = img.convert("RGB")
    if img.mode == "RGB":
        return palette_png(palette_of(img))
    palette = img.palette if img.mode == "P" else None
    if palette is not None and palette.mode == "RGB" and "transparency" not in img.info:
        return palette_png(img)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, width: float, lines: int = 1) -> list[str]:
    """``text`` word-wrapped to ``width`` px in at most ``lines`` lines; what does not fit
    ends the last line with "…", so nothing runs off a box or the image's edge."""
    words = text.split()
    out: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if fnt.getlength(trial) <= width:
            current = trial
            continue
        if current:
            out.append(current)
        current = word
        if len(out) == lines:
            current = " ".join([out.pop(), *words[i:]])
            break
    if current:
        out.append(current)
    if len(out) > lines or fnt.getlength(out[-1] if out else "") > width:
        last = " ".join(out[lines - 1 :]) if out else ""
        out = out[: lines - 1]
        while last and fnt.getlength(last + "…") > width:
            last = last[:-1].rstrip()
        out.append(last + "…")
    return out
