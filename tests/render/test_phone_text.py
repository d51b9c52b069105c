"""Every game's images read on a phone (issue 11 item 5).

A phone shows a 1024 px wide image about 360-400 px wide, so a text drawn under 28 px
in a 1024 px image is under about 10 px on screen. Each game is rendered for the public
and for a seat (with and without a prompt's marks), at the start, middle and end of
seeded AI matches, in every mode at its smallest and largest player count, in both
languages. Pillow's text drawing is spied on: every drawn string's font size, scaled to a
1024 px wide image, must be at least 28 px; no string may end in "…" (a cut text, also
spotted where ``fit_text`` returns one); and no edge of the image may be an empty band of
background wider than 10% of the image (empty space is cropped).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont
from pydantic import BaseModel

from bot.engine.registry import discovered_games, get_game
from tests.render.samples import Sample, all_samples

MIN_PX = 28
"""Smallest text height (font size) in a 1024 px wide image."""
MAX_EMPTY = 0.10
"""Largest share of the width (or height) an empty edge band may take."""
BG_TOLERANCE = 6
"""How far (per channel) a pixel may be from the background colour and count as empty
(the palette encoding may move a colour by a unit or two)."""


@dataclass
class Drawn:
    """What one render drew: every string with its font size, and the cut texts."""

    texts: list[tuple[str, float]] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)
    scale: float = 1.0
    """Product of the resizes applied after drawing (1: none)."""


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], Drawn]]:
    """Record every text Pillow draws (and every ``fit_text`` that had to cut)."""
    current = Drawn()

    def size_of(font: Any) -> float:
        if isinstance(font, ImageFont.FreeTypeFont):
            return float(font.size)
        return 10.0  # Pillow's default bitmap font: far too small for a phone

    real_text = ImageDraw.ImageDraw.text
    real_multi = ImageDraw.ImageDraw.multiline_text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> None:
        font = kw.get("font", args[1] if len(args) > 1 else None)
        if isinstance(text, str):
            for line in text.split("\n"):
                if line.strip():
                    current.texts.append((line, size_of(font)))
        real_text(self, xy, text, *args, **kw)

    def multiline_text(
        self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any
    ) -> None:
        # Pillow's multiline_text draws each line through text(): recorded there.
        real_multi(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    monkeypatch.setattr(ImageDraw.ImageDraw, "multiline_text", multiline_text)

    real_resize = Image.Image.resize

    import bot.render.common as common

    def resize(self: Image.Image, size: Any, *args: Any, **kw: Any) -> Image.Image:
        # The PNG encoder's palette sample is not the picture being scaled.
        if self.width and sys._getframe(1).f_code is not common.palette_of.__code__:
            current.scale *= size[0] / self.width
        return real_resize(self, size, *args, **kw)

    monkeypatch.setattr(Image.Image, "resize", resize)

    real_fit = common.fit_text

    def fit_text(*args: Any, **kw: Any) -> list[str]:
        lines = real_fit(*args, **kw)
        current.cut += [line for line in lines if line.endswith("…")]
        return lines

    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and getattr(module, "fit_text", None) is real_fit:
            monkeypatch.setattr(module, "fit_text", fit_text)

    def take() -> Drawn:
        """What was drawn since the last call; the next picture draws every piece anew
        (cached pieces are drawn, hence measured, again)."""
        nonlocal current
        done, current = current, Drawn()
        common.clear_drawing_caches()
        return done

    take()
    yield take


def empty_edges(img: Image.Image) -> dict[str, float]:
    """Share of the image taken by each edge's band of pure background (the corner colour)."""
    rgb = img.convert("RGB")
    bg = rgb.getpixel((0, 0))
    assert isinstance(bg, tuple)
    diff = ImageChops.difference(rgb, Image.new("RGB", rgb.size, bg))
    r, g, b = diff.split()
    far = ImageChops.lighter(ImageChops.lighter(r, g), b)
    box = far.point(lambda v: 255 if v > BG_TOLERANCE else 0).getbbox()
    w, h = rgb.size
    if box is None:
        return {"left": 1.0, "top": 1.0, "right": 1.0, "bottom": 1.0}
    left, top, right, bottom = box
    return {
        "left": left / w,
        "top": top / h,
        "right": (w - right) / w,
        "bottom": (h - bottom) / h,
    }


def problems(sample: Sample, lang: str, png: bytes, drawn: Drawn) -> list[str]:
    img = Image.open(io.BytesIO(png))
    where = f"{sample.name} [{lang}]"
    out: list[str] = []
    factor = drawn.scale * 1024 / img.width
    small = sorted({(round(s * factor, 1), t) for t, s in drawn.texts if s * factor < MIN_PX})
    out += [f"{where}: {t!r} is {px} px (< {MIN_PX})" for px, t in small[:5]]
    cut = {t for t, _ in drawn.texts if t.rstrip().endswith("…")} | set(drawn.cut)
    out += [f"{where}: cut text {t!r}" for t in sorted(cut)[:5]]
    for edge, share in empty_edges(img).items():
        if share > MAX_EMPTY:
            out.append(f"{where}: empty band of {share:.0%} at the {edge}")
    return out


def game_ids() -> list[str]:
    return [g.info.id for g in discovered_games()]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_text_reads_on_a_phone(game_id: str, spy: Callable[[], Drawn]) -> None:
    game = get_game(game_id)
    samples = [s for s in all_samples() if s.game_id == game_id]
    assert samples, f"no sample of {game_id}"
    found: list[str] = []
    texts = 0
    for sample in samples:
        for lang in ("en", "fr"):
            spy()
            if sample.decision is None:
                png = game.render(sample.view, lang)
            else:
                png = game.render(sample.view, lang, sample.decision)
            drawn = spy()
            texts += len(drawn.texts)
            found += problems(sample, lang, png, drawn)
    assert texts > 0, f"{game_id} drew no text at all: the spy missed it"
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:40])


class _Empty(BaseModel):
    pass


def test_the_spy_sees_small_cut_and_empty(spy: Callable[[], Drawn]) -> None:
    """The measurement itself fails on a small text, a cut text and an empty margin."""
    from bot.render.common import canvas, fit_text, font, png_bytes

    img, draw = canvas(1024, 600)
    draw.text((10, 10), "small", font=font(20))
    draw.text((10, 300), "big enough", font=font(30))
    (line,) = fit_text("a sentence far too long for its box", font(30), 120)
    draw.text((10, 400), line, font=font(30))
    drawn = spy()
    sample = Sample("demo", "unit", _Empty(), None)
    found = problems(sample, "en", png_bytes(img), drawn)
    assert any("'small' is 20.0 px" in p for p in found), found
    assert not any("big enough" in p for p in found), found
    assert any("cut text" in p for p in found), found
    assert any("at the right" in p for p in found) and any("at the bottom" in p for p in found)
    # Drawn at 30 px then halved: 15 px in a 512 px image still reads as 30 px at 1024.
    img, draw = canvas(1024, 200)
    draw.text((0, 0), "halved", font=font(30))
    half = png_bytes(img.resize((512, 100)))
    assert not any("'halved'" in p for p in problems(sample, "en", half, spy()))
