"""Record every text a renderer draws (string and font size), to check phone readability.

A phone shows a 1024 px image about 380 px wide: a text must be drawn at 28 px or more
per 1024 px of the image's width to be read there (issue 11 item 5).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image, ImageDraw

PHONE_MIN = 28


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, float]]]:
    """Inside the block, every ``ImageDraw.text`` call appends ``(text, font size)``."""
    drawn: list[tuple[str, float]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        fnt = kwargs.get("font") or (args[1] if len(args) > 1 else None)
        size = float(getattr(fnt, "size", 10))
        drawn.append((str(text), size))
        original(self, xy, text, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(ImageDraw.ImageDraw, "text", text)
        yield drawn


def phone_problems(
    monkeypatch: pytest.MonkeyPatch, render: Callable[[], bytes]
) -> tuple[list[str], bytes]:
    """Texts of ``render()`` too small for a phone or cut with "…", and the PNG."""
    with recording(monkeypatch) as drawn:
        png = render()
    width = Image.open(io.BytesIO(png)).width
    bad = [
        f"{t!r} at {size:.0f} px in {width} px ({size * 1024 / width:.1f})"
        for t, size in drawn
        if t.strip() and size * 1024 / width < PHONE_MIN
    ]
    bad += [f"{t!r} is cut" for t, _ in drawn if t.rstrip().endswith("…")]
    return bad, png
