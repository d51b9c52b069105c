"""The image: a PNG at most 1024 px wide (cropped to its content) drawn from the typed view only, in both languages."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine import Match, SeatSpec


def test_renders_every_phase_at_phone_width() -> None:
    seats = [SeatSpec(name=f"P{i}", ai=True, ai_level="hard") for i in range(8)]
    m = Match.create("ultimate-warriorz", seats, "render", "tribal-rumble")
    shots = 0
    while not m.over:
        if m.version % 40 == 0:
            png = m.render(None, "fr" if shots % 2 else "en")
            img = Image.open(io.BytesIO(png))
            assert 900 <= img.width <= 1024 and img.height > 600
            shots += 1
        m.apply(m.ai_choice(m.pending()[0]))
    assert 900 <= Image.open(io.BytesIO(m.render(0, "fr"))).width <= 1024
    assert shots >= 3
