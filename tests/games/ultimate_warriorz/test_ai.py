"""The AI: legal at both levels, and the hard level clearly better than random-legal play."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from bot.engine import Match, SeatSpec
from bot.engine.registry import get_game
from tests.games.ultimate_warriorz.helpers import ScriptedCtx, act, make, pick_ids

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_uw.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_uw", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_levels_are_declared_hard_first() -> None:
    info = get_game("ultimate-warriorz").info
    assert [lv.id for lv in info.ai_levels] == ["hard", "medium", "easy"]


def test_hard_beats_random_legal_players() -> None:
    """bench/bench_uw.py, small: 4 players, the AI must win well above the 25% of chance."""
    bench = _bench()
    score = sum(bench.one_match(i, "hard", 4) for i in range(24))
    assert score / 24 >= 0.4


def test_hard_attacks_an_opponent_rather_than_a_teammate() -> None:
    state = make(
        {"baobab": 0, "agaric": 0, "cactus": 0, "sorgho": 3},
        teams=[["baobab", "agaric"], ["cactus", "sorgho"]],
        ai=True,
    )
    d = act(state, "baobab", "baobab-1", ScriptedCtx())  # melee 4, move 0
    assert d is not None and {"melee-0-agaric", "melee-0-cactus"} <= set(pick_ids(d))
    game = get_game("ultimate-warriorz")
    assert game.ai_choose(state, d, random.Random(0), "hard") == "melee-0-cactus"


def test_both_levels_finish_team_matches() -> None:
    for level in ("easy", "medium", "hard"):
        seats = [SeatSpec(name=f"P{i}", ai=True, ai_level=level) for i in range(2)]
        m = Match.create("ultimate-warriorz", seats, f"ai-{level}", "team-spirit", {"config": "4"})
        steps = 0
        while not m.over:
            m.apply(m.ai_choice(m.pending()[0]))
            steps += 1
            assert steps < 2000
