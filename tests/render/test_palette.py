"""Pictures drawn on a palette from the start (``bot/render/palette.py``, issue 16 item 3):
they look as the RGB pictures did through the 256-colour encode, their palette grows in
drawing order (the same calls, the same bytes), and text, pieces and a full palette keep
every flat colour exact."""

from __future__ import annotations

import functools
import gc
import io
import sys
import weakref
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageDraw

import bot.render.common as common
import bot.render.palette as palette
from bot.engine.registry import get_game
from bot.render.common import INK, PANEL, clear_drawing_caches, font, put_text
from bot.render.palette import (
    RESERVE,
    SHADES,
    SIZE,
    Inks,
    PaletteDraw,
    inks_of,
    opaque,
    palette_canvas,
    paste_piece,
)
from tests.render.samples import all_samples
from tests.render.test_encode import FLAT_ERROR, MAX_ERROR, MEAN_ERROR, errors

PALETTE_GAMES = ["arena", "mad", "mad-arena", "ultimate-warriorz"]
"""The games whose renderers draw on :func:`palette_canvas` (Madsteam has its own fixed
palette: ``bot/games/madsteam/render_tiles.py``)."""


@pytest.fixture
def rgb_drawing() -> Iterator[None]:
    """Renderers draw RGB pictures (as before) until the test ends."""
    clear_drawing_caches()
    palette.PALETTE_DRAWING = False
    try:
        yield
    finally:
        palette.PALETTE_DRAWING = True
        clear_drawing_caches()


@pytest.mark.parametrize("game_id", PALETTE_GAMES)
def test_every_sampled_view_looks_as_its_rgb_picture(
    game_id: str, rgb_drawing: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sampled view's picture is within the encode's bounds of the RGB picture the
    renderer drew before (``tests/render/test_encode.py``: flat colours within a few units,
    no pixel far off)."""
    game = get_game(game_id)
    samples = [s for s in all_samples() if s.game_id == game_id]
    views = [(s.view, lang, s.decision) for s in samples for lang in ("en", "fr")]
    game.render(*views[0])  # imports the renderer, so its encoder can be spied on
    rgb: list[Image.Image] = []
    real = common.png_bytes

    def keep(img: Image.Image) -> bytes:
        rgb.append(img.copy())
        return real(img)

    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and getattr(module, "png_bytes", None) is real:
            monkeypatch.setattr(module, "png_bytes", keep)
    for view, lang, decision in views:
        game.render(view, lang, decision)
    monkeypatch.undo()
    palette.PALETTE_DRAWING = True
    clear_drawing_caches()
    drawn = [game.render(view, lang, decision) for view, lang, decision in views]
    assert len(drawn) >= 12
    for picture, after in zip(rgb, drawn, strict=True):
        assert picture.mode == "RGB"
        assert Image.open(io.BytesIO(after)).mode == "P"
        mean, worst, flat = errors(picture, after)
        assert mean <= MEAN_ERROR, mean
        assert worst <= MAX_ERROR, worst
        assert flat <= FLAT_ERROR, flat


def test_inks_take_entries_in_drawing_order_then_the_nearest() -> None:
    img, draw = palette_canvas(40, 20, (10, 10, 10))
    assert isinstance(draw, PaletteDraw)
    draw.rectangle((0, 0, 9, 9), fill=(200, 0, 0))
    draw.rectangle((10, 0, 19, 9), fill=(0, 200, 0))
    draw.rectangle((20, 0, 29, 9), fill=(200, 0, 0))
    assert img.getpalette() == [10, 10, 10, 200, 0, 0, 0, 200, 0]
    assert img.getpixel((25, 5)) == 1
    inks = inks_of(img)
    for k in range(3, SIZE):
        inks.index((k, 255, 255))
    assert len(inks) == SIZE
    assert inks.index((198, 2, 1)) == 1  # full: the nearest entry, nothing overwritten
    assert len(img.getpalette() or []) == 3 * SIZE
    rgb = img.convert("RGB")
    assert rgb.getpixel((5, 5)) == (200, 0, 0) and rgb.getpixel((15, 5)) == (0, 200, 0)


def test_a_ramp_takes_its_shades_while_room_is_left_for_flat_colours() -> None:
    img, _ = palette_canvas(10, 10, PANEL)
    inks = inks_of(img)
    table = inks.ramp(INK, 0)
    assert len(inks) == 2 + SHADES
    assert table[0] == 0 and table[255] == inks.index(INK)
    assert len(set(table)) == SHADES + 2
    while len(inks) < SIZE - RESERVE:
        inks.index((len(inks), 0, 0))
    before = len(inks)
    crowded = inks.ramp((0, 250, 0), 0)
    assert len(inks) == before + 1  # the ink itself, no shade: the nearest entries
    assert crowded[255] == inks.index((0, 250, 0)) and crowded[0] == 0


@pytest.mark.parametrize("line", ["Gong 3/8", "Équipe A ⚔ 12", "Mad Arena!"])
def test_text_is_pillows_within_a_shade(line: str) -> None:
    """Every pixel of a line on a palette picture is within half a shade step of Pillow's
    anti-aliased text on RGB, and nothing around the glyphs changes."""
    expected = Image.new("RGB", (500, 80), PANEL)
    ImageDraw.Draw(expected).text((20, 40), line, font=font(36, True), fill=INK, anchor="lm")
    img, draw = palette_canvas(500, 80, PANEL)
    put_text(draw, (20, 40), line, 36, INK, True, "lm")
    diff = ImageChops.difference(img.convert("RGB"), expected)
    step = max(abs(a - b) for a, b in zip(INK, PANEL, strict=True)) / (SHADES + 1)
    assert max(hi for _, hi in diff.getextrema()) <= step / 2 + 1
    assert diff.getbbox() is not None  # shades, not Pillow's 256 levels
    mask = Image.new("L", expected.size, 0)
    ImageDraw.Draw(mask).text((20, 40), line, font=font(36, True), fill=255, anchor="lm")
    inked, changed = mask.getbbox(), diff.getbbox()
    assert inked is not None and changed is not None
    assert inked[0] <= changed[0] and inked[1] <= changed[1]
    assert changed[2] <= inked[2] and changed[3] <= inked[3]


def test_text_across_two_backgrounds_changes_only_its_glyphs() -> None:
    img, draw = palette_canvas(400, 80, PANEL)
    draw.rectangle((0, 40, 399, 79), fill=(150, 30, 30))
    before = img.convert("RGB")
    put_text(draw, (20, 42), "Arena", 40, INK, True, "lm")
    after = img.convert("RGB")
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).text((20, 42), "Arena", font=font(40, True), fill=255, anchor="lm")
    box = mask.getbbox()
    assert box is not None
    changed = ImageChops.difference(before, after).convert("L").point([0] + [255] * 255)
    assert (
        ImageChops.multiply(changed, ImageChops.invert(mask.point([0] + [255] * 255))).getbbox()
        is None
    )
    assert after.getpixel((5, 5)) == PANEL and after.getpixel((5, 75)) == (150, 30, 30)
    assert INK in {c for _, c in after.crop(box).getcolors(4096) or []}


def test_a_piece_is_pasted_by_its_colours_through_its_mask() -> None:
    clear = (255, 0, 255)
    piece, pdraw = palette_canvas(20, 20, clear)
    pdraw.ellipse((2, 2, 17, 17), fill=(0, 120, 255), outline=(250, 250, 250))
    mask = opaque(piece, clear)
    img, draw = palette_canvas(60, 30, (30, 30, 30))
    draw.rectangle((30, 0, 59, 29), fill=(0, 120, 255))  # an entry the piece has elsewhere
    paste_piece(img, piece, (5, 5), mask)
    paste_piece(img, piece, (35, 5), mask)
    rgb = img.convert("RGB")
    assert rgb.getpixel((15, 15)) == (0, 120, 255) and rgb.getpixel((45, 15)) == (0, 120, 255)
    assert rgb.getpixel((5, 5)) == (30, 30, 30)  # the piece's corner: its background, left out
    assert (250, 250, 250) in {c for _, c in rgb.getcolors(64) or []}
    assert clear not in {c for _, c in rgb.getcolors(64) or []}
    assert len(inks_of(img)) == 3  # the piece's background took no entry


def test_rgb_pieces_paste_as_before(rgb_drawing: None) -> None:
    clear = (255, 0, 255)
    piece, pdraw = palette_canvas(20, 20, clear)
    assert piece.mode == "RGB"
    pdraw.rectangle((4, 4, 15, 15), fill=(0, 120, 255))
    img, _ = palette_canvas(30, 30, (30, 30, 30))
    paste_piece(img, piece, (0, 0), opaque(piece, clear))
    assert img.getpixel((10, 10)) == (0, 120, 255) and img.getpixel((1, 1)) == (30, 30, 30)


def test_the_same_drawing_gives_the_same_palette() -> None:
    def draw_once() -> bytes:
        img, draw = palette_canvas(300, 60, PANEL)
        draw.rounded_rectangle((5, 5, 120, 50), radius=8, fill=(60, 130, 230))
        put_text(draw, (10, 28), "Blue ♥7", 30, (250, 250, 250), True, "lm")
        put_text(draw, (150, 28), "Red", 30, (215, 55, 50), True, "lm")
        return bytes(img.getpalette() or []) + img.tobytes()

    first = draw_once()
    clear_drawing_caches()
    assert draw_once() == first == draw_once()
    assert isinstance(inks_of(Image.new("P", (1, 1))), Inks)


def test_a_picture_is_freed_as_soon_as_it_is_dropped() -> None:
    """A picture and its palette make no reference cycle: a drawing process frees each
    board at once, not at the collector's next pass."""
    img, draw = palette_canvas(200, 40, PANEL)
    put_text(draw, (10, 20), "Gong", 30, INK, True, "lm")
    gone = weakref.ref(img)
    gc.disable()
    try:
        del img, draw
        assert gone() is None
    finally:
        gc.enable()


def _rgb_of(img: Image.Image) -> bytes:
    return img.convert("RGB").tobytes()


def test_a_kept_line_takes_each_pictures_own_entries() -> None:
    """A painted line is kept by its mask and the entries it is painted in (issue 16 item
    3): on a picture whose palette grew otherwise it is painted anew, so every picture
    shows what it would without the kept lines."""

    def draw(first: tuple[int, int, int] | None) -> Image.Image:
        img, d = palette_canvas(300, 60, PANEL)
        if first is not None:
            d.rectangle((250, 0, 299, 59), fill=first)  # an entry taken before the text's
        put_text(d, (10, 30), "Gong 3/8", 30, INK, True, "lm")
        return img

    clear_drawing_caches()
    fresh = [_rgb_of(draw(None)), _rgb_of(draw((150, 30, 30)))]
    clear_drawing_caches()
    plain, shifted = draw(None), draw((150, 30, 30))
    assert [_rgb_of(plain), _rgb_of(shifted)] == fresh
    assert plain.tobytes()[: 300 * 30] != shifted.tobytes()[: 300 * 30]  # other entries
    again = draw(None)
    assert again.tobytes() == plain.tobytes() and palette._tile.cache_info().currsize == 2


def test_the_kept_lines_are_bounded() -> None:
    clear_drawing_caches()
    for n in range(palette.TILES_KEPT + 5):
        palette._tile(n.to_bytes(2, "big"), (2, 1), bytes(range(SIZE)))
    assert palette._tile.cache_info().currsize == palette.TILES_KEPT
    clear_drawing_caches()
    assert palette._tile.cache_info().currsize == 0


def test_a_kept_piece_is_pasted_in_each_pictures_own_entries() -> None:
    """A piece keeps the colours its mask lets through and its pixels in a picture's
    entries (issue 16 item 3): pasted on pictures whose palettes grew otherwise, each gets
    its own entries and the same colours as a piece read anew."""
    clear = (255, 0, 255)
    piece, pdraw = palette_canvas(20, 20, clear)
    pdraw.ellipse((2, 2, 17, 17), fill=(0, 120, 255), outline=(250, 250, 250))
    mask = opaque(piece, clear)

    def board(first: tuple[int, int, int] | None) -> Image.Image:
        img, draw = palette_canvas(40, 30, (30, 30, 30))
        if first is not None:
            draw.rectangle((30, 0, 39, 29), fill=first)
        paste_piece(img, piece, (5, 5), mask)
        return img

    boards = [board(None), board((0, 120, 255)), board((9, 9, 9)), board(None)]
    assert len(palette._Pastes.of(piece, mask).kept) == 3  # one per palette's growth
    for img in boards:
        fresh = img.copy()
        fresh.paste(0, (5, 5, 25, 25))  # the background entry under the piece
        setattr(piece, "_pastes", None)  # noqa: B010 (read the piece anew)
        paste_piece(fresh, piece, (5, 5), mask)
        assert _rgb_of(fresh) == _rgb_of(img)
    assert boards[0].tobytes() == boards[3].tobytes() != boards[1].tobytes()
    other_mask = Image.new("L", (20, 20), 255)  # another mask: the piece is read again
    assert palette._Pastes.of(piece, other_mask).mask is other_mask


BOXES: list[tuple[object, object]] = [
    ((10, 10, 90, 40), 8),
    ((10, 10, 90, 40), 8.0),
    ((10.4, 10.6, 90.2, 40.5), 8),
    ([(10, 10), (90, 40)], 6),
    ((0, 0, 119, 79), 12),  # touching the picture's edges
    ((10, 10, 30, 60), 12),  # the left and right corners meet: Pillow's halves
    ((10, 10, 60, 22), 8),  # the top and bottom corners meet
    ((10, 10, 40, 40), 30),  # a circle
    ((10, 10, 90, 40), 0),  # no corner: a rectangle
    ((10, 10, 90, 40), 7.5),  # a whole diameter all the same
    ((10, 10, 90, 40), 7.25),  # quarters on boxes of fractional size
    ((100, 60, 140, 100), 8),  # partly outside the picture
    ((10, 10, 90, 11), 4),  # flat
]


@pytest.mark.parametrize(("xy", "radius"), BOXES)
@pytest.mark.parametrize("width", [0, 1, 2, 4])
@pytest.mark.parametrize(("fill", "outline"), [("fill", None), (None, "line"), ("fill", "line")])
def test_a_rounded_box_is_pillows_to_the_byte(
    xy: object, radius: object, width: int, fill: str | None, outline: str | None
) -> None:
    """Issue 16: the corners pasted from kept masks (:meth:`PaletteDraw.rounded_rectangle`)
    are Pillow's pixels, and a box it leaves to Pillow is drawn by Pillow."""
    colours = {"fill": (60, 70, 90), "line": (230, 200, 40), None: None}
    corners_sets = [None, (True, False, True, True)]
    for corners in corners_sets:
        ours, theirs = (palette_canvas(120, 80, (20, 22, 30)) for _ in range(2))
        args = (xy, radius, colours[fill], colours[outline], width)
        outcomes = []
        pillows = functools.partial(ImageDraw.ImageDraw.rounded_rectangle, theirs[1])
        for draw in (ours[1].rounded_rectangle, pillows):
            try:
                draw(*args, corners=corners)  # type: ignore[arg-type]
                outcomes.append("drawn")
            except ValueError as exc:  # a shape Pillow refuses, refused alike
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1], (xy, radius, width, corners, outcomes)
        assert ours[0].tobytes() == theirs[0].tobytes(), (xy, radius, width, corners)
        assert ours[0].getpalette() == theirs[0].getpalette()


def test_the_box_drawn_here_is_the_usual_one() -> None:
    """Most boxes of the games (four round corners, a whole diameter, inside the picture)
    take the kept corners; the others go to Pillow (checked above to the byte)."""
    size = (120, 80)
    assert palette._plain_box((10, 10, 90, 40), 8, None, size) == (10, 10, 90, 40, 16)
    assert palette._plain_box((10.4, 10.6, 90.2, 40.5), 8, None, size) == (10, 11, 90, 40, 16)
    assert palette._plain_box((10, 10, 90, 40), 7.5, None, size) == (10, 10, 90, 40, 15)
    assert palette._plain_box((10, 10, 90, 40), 7.25, None, size) is None
    assert palette._plain_box((10, 10, 30, 60), 12, None, size) is None
    assert palette._plain_box((100, 60, 140, 100), 8, None, size) is None
    assert palette._plain_box((10, 10, 90, 40), 8, (True, False, True, True), size) is None
