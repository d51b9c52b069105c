"""The engine's ``test-pick`` fixture game, with images and options, for CLI tests.

``test-pick`` itself draws nothing; this variant (``test-pick-img``) numbers its
rounds and renders a small PNG of the scores so the simulator's image and GIF
output can be checked, and offers one option of every type.
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.engine import Decision, GameInfo, ModeInfo, OptionSpec, Text
from bot.engine.registry import register
from bot.render.common import canvas, font, png_bytes, seat_colour
from tests.engine.fixture_game import PickGame, PickState, PickView


class ImagePickGame(PickGame):
    info = GameInfo(
        id="test-pick-img",
        names=Text(fr="Test images", en="Image test"),
        min_players=2,
        max_players=3,
        modes=[
            ModeInfo(id="duel", names=Text(fr="Duel", en="Duel"), player_counts=[2]),
            ModeInfo(id="trio", names=Text(fr="Trio", en="Trio"), player_counts=[3]),
        ],
        options=[
            OptionSpec(id="loud", names=Text(fr="Bruyant", en="Loud"), type="bool", default=False),
            OptionSpec(
                id="bonus", names=Text(fr="Bonus", en="Bonus"), type="int", default=0, min=0, max=5
            ),
            OptionSpec(
                id="style",
                names=Text(fr="Style", en="Style"),
                type="choice",
                default="plain",
                choices=[
                    ("plain", Text(fr="Simple", en="Plain")),
                    ("bold", Text(fr="Gras", en="Bold")),
                ],
            ),
            OptionSpec(id="cards", names=Text(fr="Cartes", en="Cards"), type="path", default=""),
        ],
        summary=Text(fr="Test", en="Test"),
    )

    def round_label(self, state: PickState) -> int:
        return state.round

    def render(self, view: PickView, lang: str = "en", decision: Decision | None = None) -> bytes:
        img, draw = canvas(240, 120)
        assert isinstance(draw, ImageDraw.ImageDraw)
        title = ("Manche" if lang == "fr" else "Round") + f" {view.round}"
        draw.text((10, 10), title, font=font(18, True), fill=(255, 255, 255))
        for i, score in enumerate(view.score):
            draw.rectangle((10 + 70 * i, 50, 70 + 70 * i, 110), fill=seat_colour(i))
            draw.text((20 + 70 * i, 70), str(score), font=font(20), fill=(0, 0, 0))
        return png_bytes(img)


register(ImagePickGame())
