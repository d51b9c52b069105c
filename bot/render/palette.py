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

from functools import lru_cache

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
        tile = Image.frombytes("P", size, coverage.translate(self.inks.ramp(ink, bg)))
        if low == high:
            self.image.im.paste(tile.im, box)
        else:
            covered = Image.frombytes("L", size, coverage.translate(_COVERED))
            self.image.paste(tile, box[:2], covered)


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
    (only the colours of pixels it pastes: a tile's background takes no entry)."""
    if image.mode != "P":
        image.paste(piece, xy, mask)
        return
    inks = inks_of(image)
    own = inks_of(piece)
    used = piece.histogram(mask)
    table = bytes(inks.index(own.colour(k)) if used[k] else 0 for k in range(len(own)))
    data = piece.tobytes().translate(table.ljust(SIZE, b"\0"))
    image.paste(Image.frombytes("P", piece.size, data), xy, mask)


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
