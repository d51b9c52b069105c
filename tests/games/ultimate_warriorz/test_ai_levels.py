"""The AI levels (issue 14): declared, deterministic for a seed, ordered in strength, and
the hard level's path planning."""

from __future__ import annotations

import random

from bot.engine import Match, SeatSpec
from bot.engine.registry import get_game
from tests.games.ultimate_warriorz.helpers import ScriptedCtx, act, make, pick_ids

SEATS = 3
"""Tribal Rumble at its smallest count: a coin would win a third of the matches."""


def _play(levels: list[str], seed: str) -> tuple[list[int], dict[int, float]]:
    seats = [SeatSpec(name=f"S{i}", ai=True, ai_level=lv) for i, lv in enumerate(levels)]
    m = Match.create("ultimate-warriorz", seats, seed, "tribal-rumble", {})
    rnd = random.Random(seed)
    while not m.over:
        m.apply(m.ai_choice(rnd.choice(m.pending())))
    outcome = m.outcome()
    assert outcome is not None
    return list(outcome.winners), dict(outcome.scores)


def _share(tested: str, other: str, n: int) -> float:
    """The tested level's share of the wins, one tested seat against two of ``other``."""
    points = 0.0
    for i in range(n):
        seat = i % SEATS
        levels = [other] * SEATS
        levels[seat] = tested
        winners, _ = _play(levels, f"{tested}-{other}-{i}")
        if seat in winners:
            points += 1 / len(winners)
    return points / n


def test_three_levels_with_names_and_summaries() -> None:
    for lv in get_game("ultimate-warriorz").info.ai_levels:
        assert lv.summary is not None
        assert lv.names.fr and lv.names.en and lv.summary.fr and lv.summary.en


def test_a_level_is_deterministic_for_a_seed() -> None:
    levels = ["hard", "medium", "easy"]
    assert _play(levels, "det") == _play(levels, "det")


def test_hard_beats_easy_and_medium_over_a_seeded_series() -> None:
    assert _share("hard", "easy", 15) >= 0.6
    assert _share("hard", "medium", 15) > 1 / SEATS


def test_hard_walks_to_a_short_shot_where_medium_shoots_long() -> None:
    """Agaric's card gives 1 move and 2 ranged dice; both opponents are 2 zones away, 1
    from the centre (zone 6): hard walks there first, medium shoots at once at -1."""
    state = make({"agaric": 1, "cactus": 4, "sorgho": 4}, ai=True)
    d = act(state, "agaric", "agaric-7", ScriptedCtx())
    assert d is not None and "move-6" in pick_ids(d)
    game = get_game("ultimate-warriorz")
    view = game.view(state, 0)
    assert view.distances["1-4"] == 2 and view.distances["6-4"] == 1
    assert game.ai_choose(state, d, random.Random(0), "hard") == "move-6"
    medium = game.ai_choose(state, d, random.Random(0), "medium")
    assert isinstance(medium, str) and medium.startswith("ranged-")


def test_hard_keeps_a_long_shot_when_no_move_brings_it_closer() -> None:
    """Both targets at distance 1 already: hard shoots from where it stands."""
    state = make({"agaric": 1, "cactus": 2, "sorgho": 6}, ai=True)
    d = act(state, "agaric", "agaric-7", ScriptedCtx())
    assert d is not None
    choice = get_game("ultimate-warriorz").ai_choose(state, d, random.Random(0), "hard")
    assert isinstance(choice, str) and choice.startswith("ranged-")
