"""A view rebuilt from its JSON is the view: the drawing workers receive views that way
(:mod:`bot.gm.drawing`), so every game's view must survive the trip unchanged, and its
picture with it."""

from __future__ import annotations

import pytest

from bot.engine.registry import get_game
from bot.render.cache import view_json
from tests.render.samples import Sample, all_samples

SAMPLES = all_samples()


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_a_view_rebuilt_from_its_json_draws_the_same_picture(sample: Sample) -> None:
    view = sample.view
    rebuilt = type(view).model_validate_json(view_json(view))
    assert rebuilt == view
    game = get_game(sample.game_id)
    if sample.decision is None:
        assert game.render(rebuilt, "fr") == game.render(view, "fr")
    else:
        assert game.render(rebuilt, "en", sample.decision) == game.render(
            view, "en", sample.decision
        )
