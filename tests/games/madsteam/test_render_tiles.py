"""Madsteam's image from cached pieces on a fixed palette (issue 16 item 3): the pieces are
what Pillow draws directly, a picture is the same bytes whatever the caches hold, and the
image is a palette PNG sized to what it holds."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine import Match, SeatSpec
from bot.games.madsteam.render import CLAN_TEXT_W, _flow_items, _stats_items, render_view
from bot.games.madsteam.render_tiles import (
    FLAT,
    INDEX,
    PALETTE,
    RAMPS,
    SHADES,
    _draw_text,
    advance,
    hero_tile,
    to_palette,
)
from bot.games.madsteam.view import HeroView, MSView
from bot.render.common import BG, PANEL, clear_drawing_caches, font, seat_colour
from tests.render.samples import Sample, all_samples


def _samples() -> list[Sample]:
    return [s for s in all_samples() if s.game_id == "madsteam"]


def _render(s: Sample, lang: str) -> bytes:
    assert isinstance(s.view, MSView)
    return render_view(s.view, lang, s.decision)


def test_the_palette_holds_every_flat_colour_exactly() -> None:
    assert len(PALETTE) <= 256 and SHADES >= 8
    for colour in FLAT:
        tile = to_palette(Image.new("RGB", (4, 4), colour))
        assert tile.getpixel((0, 0)) == INDEX[colour]
        assert PALETTE[INDEX[colour]] == colour


def _step(ink: tuple[int, int, int], bg: tuple[int, int, int]) -> float:
    """Largest channel gap between two neighbouring shades of a ramp."""
    return max(abs(i - b) for i, b in zip(ink, bg, strict=True)) / (SHADES + 1)


@pytest.mark.parametrize("ink,bg", RAMPS)
def test_a_text_tile_is_pillows_drawing_within_half_a_shade(
    ink: tuple[int, int, int], bg: tuple[int, int, int]
) -> None:
    """Every blend of an ink on its background finds its shade: the tile differs from
    Pillow's own anti-aliased drawing by at most half a step of the ramp (plus a unit of
    rounding)."""
    for text, size, bold, anchor in [
        ("Survivants 13 · Confort 10", 28, False, "lm"),
        ("Supermarché", 32, True, "lm"),
        ("★1er  11 PS", 30, True, "rm"),
        ("Round 3/6", 36, True, "mm"),
    ]:
        tile = _draw_text(text, size, bold, ink, bg, anchor)
        direct = Image.new("RGB", (900, 120), bg)
        at = (450, 60)
        ImageDraw.Draw(direct).text(at, text, font=font(size, bold), fill=ink, anchor=anchor)
        pasted = Image.new("RGB", (900, 120), bg)
        pasted.paste(tile.img.convert("RGB"), (at[0] + tile.dx, at[1] + tile.dy))
        assert direct.getbbox() == pasted.getbbox()
        worst = max(ImageChops.difference(direct, pasted).convert("RGB").tobytes())
        assert worst <= _step(ink, bg) / 2 + 1, (text, ink, bg, worst)


def test_a_string_wider_than_its_first_canvas_is_drawn_whole() -> None:
    text = "‰" * 12  # each about 1.4 times the font's size
    tile = _draw_text(text, 30, True, (250, 250, 250), BG, "lm")
    assert tile.img.width >= 0.9 * advance(text, 30, True)


@pytest.mark.parametrize("standing", [True, False])
def test_a_hero_tile_is_its_shape_only(standing: bool) -> None:
    """Pasted through its mask, a hero leaves its neighbours' pixels alone: the mask covers
    exactly the pixels that differ from the panel."""
    for ringed in (False, True) if not standing else (False,):
        tile, mask = hero_tile(1, 4, standing, ringed)
        on_panel = Image.new("P", tile.size, INDEX[PANEL])
        on_panel.putpalette(tile.getpalette() or [])
        on_panel.paste(tile, (0, 0), mask)
        drawn = on_panel.convert("RGB")
        changed = ImageChops.difference(drawn, Image.new("RGB", tile.size, PANEL)).getbbox()
        assert changed == mask.getbbox()
        assert seat_colour(1) in {c for _, c in drawn.getcolors(4096) or []}


def test_a_picture_is_the_same_bytes_whatever_the_caches_hold() -> None:
    """Cached pieces are the pieces drawn anew: an image drawn with every cache empty and
    drawn again after other images (its pieces then pasted) is byte for byte the same."""
    samples = _samples()
    cold = []
    for s in samples:
        clear_drawing_caches()
        cold.append(_render(s, "fr"))
    for s, png in zip(reversed(samples), reversed(cold), strict=True):
        assert _render(s, "fr") == png, s.name


def test_the_image_is_a_palette_png_sized_to_what_it_holds() -> None:
    for s in _samples():
        for lang in ("en", "fr"):
            img = Image.open(io.BytesIO(_render(s, lang)))
            assert img.mode == "P" and img.width == 1024
            rgb = img.convert("RGB")
            box = ImageChops.difference(rgb, Image.new("RGB", rgb.size, BG)).getbbox()
            assert box is not None
            assert box[1] == 12 and 8 <= img.height - box[3] <= 24, (s.name, box, img.size)


def test_a_clans_numbers_fit_their_line() -> None:
    for s in _samples():
        assert isinstance(s.view, MSView)
        for p in s.view.players:
            for lang in ("en", "fr"):
                for line in _flow_items(_stats_items(p, lang), CLAN_TEXT_W):
                    width = sum(advance(t, 28) for t, _ in line) + advance(" · ", 28) * (
                        len(line) - 1
                    )
                    assert width <= CLAN_TEXT_W


def test_an_ink_without_its_ramp_keeps_its_flat_colour() -> None:
    """A fifth clan (not in the rules, but a view is data): its hero and a string in its
    colour map to the palette's nearest entries, its own colour exactly."""
    violet = seat_colour(4)
    tile = _draw_text("Clan 5", 30, True, violet, BG, "lm").img.convert("RGB")
    assert violet in {c for _, c in tile.getcolors(4096) or []}
    seats = [SeatSpec(name=f"P{k}", ai=True) for k in range(4)]
    view = Match.create("madsteam", seats, "tiles-five").view(None)
    assert isinstance(view, MSView)
    extra = view.players[0].model_copy(update={"seat": 4, "name": "P5"})
    well = view.places[0].model_copy(update={"heroes": [HeroView(seat=4, value=3, standing=True)]})
    view = view.model_copy(
        update={"players": [*view.players, extra], "places": [well, *view.places[1:]]}
    )
    drawn = Image.open(io.BytesIO(render_view(view, "en"))).convert("RGB")
    assert violet in {c for _, c in drawn.getcolors(1 << 16) or []}
