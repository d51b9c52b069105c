"""§4 Victoire and the team modes' victory (Modes 2-3)."""

from __future__ import annotations

import bot.games.mad_arena  # noqa: F401
from bot.engine.registry import get_game
from bot.games.mad_arena import rules
from bot.games.mad_arena.state import Trophy
from tests.games.mad_arena.helpers import ScriptedCtx, begin, build, do

GAME = get_game("mad-arena")


def test_last_fighter_standing_wins_at_once() -> None:
    st = build(["bonzai", "agaric", "cactus", "sorgho"], zones={"agaric": 0})
    st.f("cactus").alive = False
    st.f("sorgho").alive = False
    st.f("agaric").hp = 1
    ctx = begin(st, "bonzai", "bonzai-4", ScriptedCtx([6, 6, 6, 6]))
    do(st, "melee-agaric", ctx)
    out = GAME.outcome(st)
    assert out is not None and out.winners == [0] and not out.shared
    assert "Ultimate Warrior" in out.reason.en and rules.pending(st) == []


def test_last_team_standing_wins_for_every_seat_of_the_team() -> None:
    st = build(
        ["bonzai", "agaric", "cactus", "sorgho"],
        teams=[0, 1, 1, 0],
        zones={"agaric": 0},
        mode="team-spirit",
    )
    st.f("cactus").alive = False
    st.f("agaric").hp = 1
    ctx = begin(st, "bonzai", "bonzai-4", ScriptedCtx([6, 6, 6, 6]))
    do(st, "melee-agaric", ctx)
    out = GAME.outcome(st)
    assert out is not None and out.winners == [0, 3]


def _end_round_12(st) -> None:
    st.round = 12
    for f in st.fighters:
        f.acted = True
    st.phase = "action"
    st.action = None
    st.countdown = 1
    rules.advance(st, ScriptedCtx())


def test_points_after_round_12_trophy_sizes_plus_three_in_centre() -> None:
    """§4: sum of the trophies' sizes, +3 for finishing in the centre."""
    st = build(["agaric", "bonzai", "cactus", "sorgho", "baobab"], zones={"bonzai": "c"})
    st.f("agaric").trophies = [Trophy(fighter="sorgho", card="sorgho-1")]  # 10
    st.f("sorgho").alive = False
    st.f("bonzai").trophies = [Trophy(fighter="agaric")] * 0 + [Trophy(fighter="cactus")]  # 8 + 3
    st.f("cactus").alive = False
    _end_round_12(st)
    out = GAME.outcome(st)
    assert out is not None and out.winners == [1] and out.scores[1] == 11 and out.scores[0] == 10
    assert out.scores[4] == 0


def test_exact_tie_is_shared() -> None:
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    _end_round_12(st)
    out = GAME.outcome(st)
    assert out is not None and out.shared and out.winners == [0, 1, 2, 3]


def test_team_total_is_the_sum_of_its_survivors() -> None:
    st = build(
        ["agaric", "cactus", "bonzai", "sorgho"],
        teams=[0, 0, 1, 1],
        mode="team-spirit",
        seats=[0, 0, 1, 1],
    )
    st.f("agaric").trophies = [Trophy(fighter="burdock")]  # 9
    st.f("cactus").zone = st.centre  # +3
    st.f("bonzai").trophies = [Trophy(fighter="baobab")]  # 13
    st.f("sorgho").alive = False
    st.f("sorgho").trophies = [Trophy(fighter="agaric")]  # dead: does not count
    _end_round_12(st)
    out = GAME.outcome(st)
    assert out is not None and out.winners == [1] and out.scores == {0: 12.0, 1: 13.0}


def test_game_ends_after_round_twelve_not_before() -> None:
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    st.round = 11
    for f in st.fighters:
        f.acted = True
    st.countdown = 1
    rules.advance(st, ScriptedCtx())
    assert st.round == 12 and st.phase == "pick" and GAME.outcome(st) is None
