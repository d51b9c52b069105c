"""The bundled fonts keep the lengths of the lines they measured (``bot/render/common.py``,
issue 16 item 3): the same lengths as Pillow's, each line measured once, the memory
bounded."""

from __future__ import annotations

import pickle

import pytest
from PIL import Image, ImageDraw, ImageFont

import bot.render.common as common
from bot.render.common import MeasuredFont, font

LINES = ["Gong 3/8", "Équipe A ⚔ 12", "", "Mad Arena!", "ÅÉÎ — 99 PV"]


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("size", [14, 30])
def test_lengths_are_pillows(size: int, bold: bool) -> None:
    kept = font(size, bold)
    assert isinstance(kept, MeasuredFont)
    plain = ImageFont.truetype(kept.path, size)
    draw = ImageDraw.Draw(Image.new("P", (10, 10)))
    for line in LINES:
        for mode in ("", "1", "L"):
            assert kept.getlength(line, mode) == plain.getlength(line, mode)
            assert kept.getlength(line, mode) == plain.getlength(line, mode)  # kept
        assert draw.textlength(line, font=kept) == draw.textlength(line, font=plain)


def test_each_line_is_measured_once(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = MeasuredFont(str(common.FONT_DIR / "DejaVuSans.ttf"), 20)
    measured: list[str | bytes] = []
    real = ImageFont.FreeTypeFont.getlength

    def count(self: ImageFont.FreeTypeFont, text: str | bytes, *args: object) -> float:
        measured.append(text)
        return real(self, text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getlength", count)
    for _ in range(3):
        kept.getlength("Gong")
        kept.getlength("Arena")
    kept.getlength("Gong", language="fr")  # a measure with a language: Pillow's each time
    kept.getlength("Gong", language="fr")
    assert measured == ["Gong", "Arena", "Gong", "Gong"]


def test_the_kept_lengths_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "LENGTHS_KEPT", 3)
    kept = MeasuredFont(str(common.FONT_DIR / "DejaVuSans.ttf"), 20)
    for n in range(7):
        kept.getlength(str(n))
    assert 1 <= len(kept._lengths) <= 3


def test_a_measured_font_pickles() -> None:
    """A font sent to another process (pickled) still measures, and keeps its lengths."""
    kept = pickle.loads(pickle.dumps(font(22, True)))
    assert isinstance(kept, MeasuredFont)
    assert kept.getlength("Gong") == ImageFont.truetype(kept.path, 22).getlength("Gong")
    assert kept._lengths


def test_clearing_the_drawing_caches_forgets_the_lengths() -> None:
    font(18).getlength("Gong")
    common.clear_drawing_caches()
    assert not font(18)._lengths  # type: ignore[attr-defined]
