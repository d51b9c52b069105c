"""Record every text a renderer draws (string and font size), to check phone readability.

A phone shows a 1024 px image about 380 px wide: a text must be drawn at 28 px or more
per 1024 px of the image's width to be read there (issue 11 item 5).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from PIL import Image, ImageDraw

PHONE_MIN = 28


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, float]]]:
    """Inside the block, every ``ImageDraw.text`` call appends ``(text, font size)``.

    The renderers' cached pieces (``drawing_cache``) are forgotten on entry, so the block's
    first picture draws, hence records, every text it shows."""
    from bot.render.common import clear_drawing_caches

    clear_drawing_caches()
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


def check_a_played_match(monkeypatch: pytest.MonkeyPatch, m: Any, every: int = 25) -> int:
    """Play ``m`` out with its AI, checking with :func:`phone_problems` every ``every``
    decisions and at the end the public image and the image of the widest prompt (its
    seat's view with its marks), alternating languages; the number of images checked."""
    k = 0
    checked = 0
    while True:
        if k % every == 0 or m.over:
            lang = "fr" if checked % 2 else "en"
            views: list[tuple[Any, Any]] = [(m.view(None), None)]
            if m.pending():
                d = max(m.pending(), key=lambda x: len(x.options))
                views.append((m.view(d.seat), d))
            for view, decision in views:
                bad, _ = phone_problems(monkeypatch, partial(m.game.render, view, lang, decision))
                assert not bad, bad[:5]
                checked += 1
        if m.over:
            return checked
        m.apply(m.ai_choice(m.pending()[0]))
        k += 1


def labels_drawn_over_the_board(monkeypatch: pytest.MonkeyPatch, m: Any, d: Any) -> Counter[str]:
    """The texts a prompt's image draws beyond the plain board of the same view (its marks)."""
    view = m.view(d.seat)
    with recording(monkeypatch) as marked:
        m.game.render(view, "en", d)
    with recording(monkeypatch) as bare:
        m.game.render(view, "en")
    return Counter(t for t, _ in marked) - Counter(t for t, _ in bare)


def first_marking(m: Any, want: str) -> Any:
    """Play ``m`` on until a pending decision marks ``want`` ("zones" or "fighters")."""
    from bot.render.fighters import Marks

    for _ in range(3000):
        for d in m.pending():
            if getattr(Marks(d, "en"), want):
                return d
        m.apply(m.ai_choice(m.pending()[0]))
    raise AssertionError(f"no decision marking {want}")
