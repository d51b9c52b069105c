"""Pictures drawn on a palette canvas from the start (issue 16 item 3).

Why: an RGB picture had to be reduced to 256 colours before its PNG was written: a palette
chosen from a sample of its pixels (0.5 ms) and every pixel mapped to it (1-1.3 ms, at
Pillow's floor per pixel), a third of a board's 5 ms. These boards are flat
fills and outlines (Pillow draws shapes without anti-aliasing) and anti-aliased text,
so a picture can be drawn on a palette image directly: each flat colour takes an entry
the first time it is used, and a line of text one ramp of blended shades between its
ink and the colour behind it. Nothing is then left to map, and each pixel is one byte
to fill rather than four.

The palette grows in drawing order, so the same drawing calls give the same palette and
the same bytes in any process. Cached pieces (glyph masks, a ship tile, an empty
rosette) keep no index of another picture's palette: a mask is coverage, and a piece is
pasted through its own palette's colours (:func:`paste_piece`).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImagePalette

Colour = tuple[int, int, int]

SIZE = 256
"""Entries of an 8-bit palette."""
SHADES = 8
"""Blended shades between a text's ink and its background (with both ends, ten levels
of coverage: a glyph's edge at a phone's third of a 1024 px image looks as Pillow's)."""
RESERVE = 24
"""Entries ramps leave free for flat colours: a picture whose texts would fill the
palette gets fewer blended shades (its later ramps use the nearest entries), never a
flat colour off by more than the nearest entry."""

PALETTE_DRAWING = True
"""False: :func:`palette_canvas` gives an RGB canvas as before (the tests compare the
two pictures of every sampled view)."""


def _blend(ink: Colour, bg: Colour, share: float) -> Colour:
    r, g, b = (round(q + (i - q) * share) for i, q in zip(ink, bg, strict=True))
    return (r, g, b)


class Inks(ImagePalette.ImagePalette):
    """The palette of one picture, grown as it is drawn (and pushed to the picture at once,
    so a copy, a crop or the PNG writer reads it): a flat colour gets the next entry the
    first time it is drawn; once the 256 are taken, the nearest one."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__("RGB")
        raw = image.getpalette("RGB") or []
        self._core = image.im
        """The picture's pixels and palette (not the picture, which keeps this palette: no
        reference cycle to wait for the collector)."""
        self.rgb = bytearray(raw)
        self.entries: dict[Colour, int] = {}
        for k in range(len(raw) // 3):
            self.entries.setdefault((raw[3 * k], raw[3 * k + 1], raw[3 * k + 2]), k)
        self._nearest: dict[Colour, int] = {}
        self._ramps: dict[tuple[Colour, int], bytes] = {}

    def __len__(self) -> int:
        return len(self.rgb) // 3

    def colour(self, index: int) -> Colour:
        r, g, b = self.rgb[3 * index : 3 * index + 3]
        return (r, g, b)

    def index(self, colour: Colour) -> int:
        """``colour``'s entry: its own while the palette has room, else the nearest."""
        known = self.entries.get(colour)
        if known is not None:
            return known
        if len(self) < SIZE:
            return self._add(colour)
        near = self._nearest.get(colour)
        if near is None:
            near = self._nearest[colour] = self.nearest(colour)
        return near

    def _add(self, colour: Colour) -> int:
        index = len(self)
        self.entries[colour] = index
        self.rgb += bytes(colour)
        self._core.putpalette("RGB", "RGB", bytes(self.rgb))
        return index

    def nearest(self, colour: Colour) -> int:
        """The entry closest to ``colour`` (squared distance; the first of equals)."""
        r, g, b = colour
        best, best_d = 0, 1 << 30
        for k in range(len(self)):
            d = (
                (self.rgb[3 * k] - r) ** 2
                + (self.rgb[3 * k + 1] - g) ** 2
                + (self.rgb[3 * k + 2] - b) ** 2
            )
            if d < best_d:
                best, best_d = k, d
        return best

    def getcolor(self, color: tuple[int, ...], image: Image.Image | None = None) -> int:
        """What Pillow's drawing calls ask for an ink given as a colour."""
        return self.index((color[0], color[1], color[2]))

    def ramp(self, ink: Colour, bg: int) -> bytes:
        """For each coverage 0-255 of ``ink`` over the entry ``bg``, the entry to write: the
        nearest of :data:`SHADES` blended shades (a ``bytes.translate`` table)."""
        key = (ink, bg)
        table = self._ramps.get(key)
        if table is not None:
            return table
        room = len(self) + SHADES <= SIZE - RESERVE
        entries = [bg]
        for shade in _shades(ink, self.colour(bg)):
            known = self.entries.get(shade)
            if known is None:
                known = self._add(shade) if room else self.nearest(shade)
            entries.append(known)
        entries.append(self.index(ink))
        table = self._ramps[key] = _LEVELS.translate(bytes(entries).ljust(SIZE, b"\0"))
        return table


_LEVELS = bytes(round(c * (SHADES + 1) / 255) for c in range(SIZE))
"""Each coverage's level: 0 the background, ``SHADES + 1`` the ink."""


@lru_cache(maxsize=1024)
def _shades(ink: Colour, bg: Colour) -> tuple[Colour, ...]:
    """The blended shades from ``bg`` (excluded) to ``ink`` (excluded)."""
    return tuple(_blend(ink, bg, k / (SHADES + 1)) for k in range(1, SHADES + 1))


class PaletteDraw(ImageDraw.ImageDraw):
    """Pillow's drawing on a palette picture whose inks are colours (:class:`Inks`), with
    anti-aliased text (:meth:`paint`) where Pillow's own would be aliased on a palette."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image
        self.inks = inks_of(image)
        self.palette = self.inks

    def paint(
        self, coverage: bytes, size: tuple[int, int], left: int, top: int, ink: Colour
    ) -> None:
        """``ink`` laid through ``coverage`` (a glyph mask's bytes, ``size`` wide and high)
        with its top-left corner at (left, top): the shade of each coverage over the colour
        behind the text (over several, the most common one: the few edge pixels on another
        blend with it)."""
        box = (left, top, left + size[0], top + size[1])
        behind = self.image.im.crop(box)
        low, high = behind.getextrema()
        if low == high:
            bg = low
        else:
            counts = behind.histogram()
            bg = max(range(SIZE), key=counts.__getitem__)
        tile = _tile(coverage, size, self.inks.ramp(ink, bg))
        if low == high:
            self.image.im.paste(tile.im, box)
        else:
            self.image.paste(tile, box[:2], _covered(coverage, size))

    def rounded_rectangle(
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: int = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        """Pillow's rounded rectangle, its corners pasted from kept masks: Pillow draws
        each corner as a quarter of an ellipse, 3 us each in C plus its layout in Python
        (a box cost 40-60 us; 28,000 boxes on the palette pictures of a load run's 3,221).
        A quarter drawn once on its own mask and pasted is the same pixels (Pillow's
        ellipses move with whole-pixel boxes), so a box with four round corners of a whole
        diameter and room for its sides is drawn here with Pillow's very calls for its
        sides; any other box by Pillow itself."""
        box = _plain_box(xy, radius, corners, self.im.size)
        if box is None:
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
            return
        x0, y0, x1, y1, d = box
        r = d // 2
        ink, fill_ink = self._getink(outline, fill)
        im, draw = self.im, self.draw
        at = ((x0, y0), (x1 - d, y0), (x1 - d, y1 - d), (x0, y1 - d))
        if fill_ink is not None:
            for (x, y), mask in zip(at, _corner_masks(d, 0), strict=True):
                im.paste(fill_ink, (x, y, x + d + 1, y + d + 1), mask)
            if x1 - r - 1 >= x0 + r + 1:
                draw.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y1), fill_ink, 1)
            draw.draw_rectangle((x0, y0 + r + 1, x0 + r, y1 - r - 1), fill_ink, 1)
            draw.draw_rectangle((x1 - r, y0 + r + 1, x1, y1 - r - 1), fill_ink, 1)
        if ink is not None and ink != fill_ink and width != 0:
            for (x, y), mask in zip(at, _corner_masks(d, width), strict=True):
                im.paste(ink, (x, y, x + d + 1, y + d + 1), mask)
            draw.draw_rectangle((x0 + r + 1, y0, x1 - r - 1, y0 + width - 1), ink, 1)
            draw.draw_rectangle((x0 + r + 1, y1 - width + 1, x1 - r - 1, y1), ink, 1)
            draw.draw_rectangle((x0, y0 + r + 1, x0 + width - 1, y1 - r - 1), ink, 1)
            draw.draw_rectangle((x1 - width + 1, y0 + r + 1, x1, y1 - r - 1), ink, 1)


CORNER_ANGLES = ((180, 270), (270, 360), (0, 90), (90, 180))
"""Pillow's quarters for the top-left, top-right, bottom-right and bottom-left corners."""


def _plain_box(
    xy: Any, radius: Any, corners: tuple[bool, bool, bool, bool] | None, size: tuple[int, int]
) -> tuple[int, int, int, int, int] | None:
    """``(x0, y0, x1, y1, d)`` of a box :meth:`PaletteDraw.rounded_rectangle` draws itself
    (four round corners of a whole diameter ``d``, inside the picture, sides apart: where
    Pillow draws four quarters on whole-pixel boxes and its sides), else None."""
    if corners is not None and not all(corners):
        return None
    flat = [c for point in xy for c in point] if isinstance(xy[0], (list, tuple)) else list(xy)
    if len(flat) != 4 or not all(type(c) in (int, float) for c in [*flat, radius]):
        return None
    # As Pillow: the diameter from the coordinates as given, the box's from them rounded.
    d = min(flat[2] - flat[0], flat[3] - flat[1], radius * 2)
    if d != int(d):
        return None  # quarters drawn on boxes of fractional size
    x0, y0, x1, y1 = (round(c) for c in flat)
    if not (0 <= x0 <= x1 < size[0] and 0 <= y0 <= y1 < size[1]):
        return None
    if d <= 0 or d >= x1 - x0 - 1 or d >= y1 - y0 - 1:
        return None  # no corner, or the corners meet: Pillow's halves or ellipse
    return x0, y0, x1, y1, int(d)


@lru_cache(maxsize=256)
def _corner_masks(d: int, width: int) -> tuple[Any, ...]:
    """The four quarters of an ellipse ``d`` across as masks, Pillow's calls on a box at
    the origin: filled (``width`` 0, its ``draw_pieslice``) or outlined (``draw_arc``)."""
    masks = []
    for start, end in CORNER_ANGLES:
        mask = Image.new("L", (d + 1, d + 1), 0).im
        draw = Image.core.draw(mask, 0)
        if width == 0:
            draw.draw_pieslice((0, 0, d, d), start, end, 255, 1)
        else:
            draw.draw_arc((0, 0, d, d), start, end, 255, width)
        masks.append(mask)
    return tuple(masks)


TILES_KEPT = 2048
"""Painted lines kept (:func:`_tile`): every game's names, numbers and titles in the few
shades they are painted over, the least recently used out first. Replaying a load run's
3,221 drawings, 2,048 let 88% of the lines be reused (1,024: 81%, 4,096: 91%); full,
they held 5.4 MB of tiles and as much of their masks (the lines are at most a picture
wide)."""
_KEEP_LOCK = threading.Lock()
"""Guards evictions from the tables kept on pieces (pictures are drawn in threads in
tests and where processes cannot run)."""


@lru_cache(maxsize=TILES_KEPT)
def _tile(coverage: bytes, size: tuple[int, int], ramp: bytes) -> Image.Image:
    """A line's mask in the entries ``ramp`` gives each coverage: the same line in the same
    ink over the same colour takes the same entries on boards whose palettes grew alike,
    so it is made once (issue 16 item 3: 68,000 lines painted in a 30 s load run's
    drawings, making each anew took half of its painting). Keyed by the mask's bytes,
    the object :func:`bot.render.common._text_coverage` keeps, whose hash Python
    computes once."""
    return Image.frombytes("P", size, coverage.translate(ramp))


def forget_kept() -> None:
    """Forget every painted line and box corner kept
    (:func:`bot.render.common.clear_drawing_caches`)."""
    _tile.cache_clear()
    _covered.cache_clear()
    _corner_masks.cache_clear()


@lru_cache(maxsize=256)
def _covered(coverage: bytes, size: tuple[int, int]) -> Image.Image:
    """A mask's covered pixels, wholly (a line painted over several colours)."""
    return Image.frombytes("L", size, coverage.translate(_COVERED))


_COVERED = bytes([0] + [255] * 255)
"""A mask's covered pixels, wholly (a blend of palette entries is no entry)."""


def inks_of(image: Image.Image) -> Inks:
    """The palette ``image`` is drawn with: the one it was drawn with so far, or one read
    from it (a copy of a cached piece)."""
    inks = getattr(image, "_inks", None)
    if isinstance(inks, Inks):
        return inks
    inks = Inks(image)
    setattr(image, "_inks", inks)  # noqa: B010 (Pillow's Image has no such attribute)
    return inks


def palette_canvas(width: int, height: int, bg: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank picture of ``bg`` to draw on with colours: a palette one, whose first entry
    is ``bg`` (:data:`PALETTE_DRAWING`: else RGB)."""
    if not PALETTE_DRAWING:
        img = Image.new("RGB", (width, height), bg)
        return img, ImageDraw.Draw(img)
    img = Image.new("P", (width, height), 0)
    img.putpalette(bytes(bg))
    return img, PaletteDraw(img)


def draw_on(image: Image.Image) -> ImageDraw.ImageDraw:
    """Drawing calls on ``image``, palette or RGB."""
    if image.mode == "P":
        return PaletteDraw(image)
    return ImageDraw.Draw(image)


def paste_piece(
    image: Image.Image,
    piece: Image.Image,
    xy: tuple[int, int],
    mask: Image.Image | None = None,
) -> None:
    """``piece`` (drawn on its own canvas, cached) pasted at ``xy``, through ``mask`` if
    given: on a palette picture its pixels take the picture's entries of their colours
    (only the colours of pixels it pastes: a tile's background takes no entry).

    The colours a piece pastes and its pixels in a picture's entries are kept on the piece
    (:class:`_Pastes`): a board pastes the same tiles in the same order, so its entries
    come out the same and the piece is not read again (MAD's ship tiles: 0.15 ms each,
    15 per board, issue 16 item 3)."""
    if image.mode != "P":
        image.paste(piece, xy, mask)
        return
    inks = inks_of(image)
    pastes = _Pastes.of(piece, mask)
    table = bytes(inks.index(colour) for colour in pastes.colours)
    image.paste(pastes.translated(table), xy, mask)


class _Pastes:
    """What pasting one piece through one mask needs, read once: the piece's entries its
    mask lets through (in entry order: a picture's palette grows in the order
    :func:`paste_piece` asks, as before) and its pixels with those entries replaced by a
    picture's, for the last few pictures' tables."""

    KEPT = 4
    """Tables kept per piece: a piece pasted on boards whose palettes grew alike reuses
    one (a tile is a few kilobytes)."""

    def __init__(self, piece: Image.Image, mask: Image.Image | None) -> None:
        self.mask = mask
        own = inks_of(piece)
        used = piece.histogram(mask)
        self.entries = [k for k in range(len(own)) if used[k]]
        self.colours = [own.colour(k) for k in self.entries]
        self.size = piece.size
        self.data = piece.tobytes()
        self.kept: dict[bytes, Image.Image] = {}

    @classmethod
    def of(cls, piece: Image.Image, mask: Image.Image | None) -> _Pastes:
        pastes = getattr(piece, "_pastes", None)
        if not isinstance(pastes, _Pastes) or pastes.mask is not mask:
            pastes = cls(piece, mask)
            setattr(piece, "_pastes", pastes)  # noqa: B010 (Pillow's Image has no such attribute)
        return pastes

    def translated(self, table: bytes) -> Image.Image:
        """The piece's pixels with its used entries ``k`` replaced by ``table``'s values
        (others by 0: the mask leaves them out)."""
        hit = self.kept.get(table)
        if hit is not None:
            return hit
        full = bytearray(SIZE)
        for k, index in zip(self.entries, table, strict=True):
            full[k] = index
        image = Image.frombytes("P", self.size, self.data.translate(bytes(full)))
        with _KEEP_LOCK:
            if len(self.kept) >= self.KEPT:
                self.kept.pop(next(iter(self.kept)), None)
            self.kept[table] = image
        return image


def opaque(piece: Image.Image, clear: Colour) -> Image.Image:
    """The mask of ``piece``'s pixels of another colour than ``clear`` (its background,
    drawn on nowhere else)."""
    if piece.mode != "P":
        diff = ImageChops.difference(piece, Image.new(piece.mode, piece.size, clear))
        red, green, blue = diff.split()
        return ImageChops.lighter(ImageChops.lighter(red, green), blue).point(_COVERED)
    index = inks_of(piece).index(clear)
    table = bytes(0 if k == index else 255 for k in range(SIZE))
    return Image.frombytes("L", piece.size, piece.tobytes().translate(table))
