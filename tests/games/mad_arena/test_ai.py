"""The AI plays sensibly: finishes weak fighters, spares team mates, keeps its secret move for later."""

from __future__ import annotations

import random

import bot.games.mad_arena  # noqa: F401
from bot.engine.registry import get_game
from bot.games.mad_arena import rules
from bot.games.mad_arena.state import MAState
from tests.games.mad_arena.helpers import begin, build, pick_decision

GAME = get_game("mad-arena")


def ai(st: MAState) -> str:
    (d,) = [x for x in rules.pending(st)][:1]
    reply = GAME.ai_choose(st, d, random.Random(0))
    assert isinstance(reply, str)
    return reply


def test_ai_finishes_the_weakened_fighter() -> None:
    st = build(["bonzai", "sorgho", "agaric", "cactus"], zones={"sorgho": 0, "cactus": 0})
    st.f("cactus").hp = 1
    begin(st, "bonzai", "bonzai-4")
    assert ai(st) == "melee-cactus"


def test_ai_spares_team_mates_with_the_powder_keg() -> None:
    st = build(
        ["agaric", "cactus", "bonzai", "sorgho"],
        teams=[0, 0, 1, 1],
        zones={"cactus": 1, "bonzai": 1, "sorgho": 3},
        mode="team-spirit",
    )
    begin(st, "agaric", "agaric-keg")
    assert ai(st) != "zone-z1"


def test_ai_keeps_its_secret_move_early_and_uses_it_at_the_end() -> None:
    st = build(["burdock", "sorgho", "bonzai", "cactus"])
    st.phase = "pick"
    st.round = 2
    d = pick_decision(st, "burdock")
    assert GAME.ai_choose(st, d, random.Random(0)) != "burdock-finishing"
    # Round 12, a weak enemy in reach: the secret move is played, not wasted.
    st.round = 12
    st.f("sorgho").zone = 0
    st.f("sorgho").hp = 2
    d = pick_decision(st, "burdock")
    assert GAME.ai_choose(st, d, random.Random(0)) == "burdock-finishing"


def test_ai_throws_the_kicked_fighter_onto_enemies() -> None:
    st = build(
        ["agaric", "bonzai", "cactus", "sorgho", "zamioculcas"],
        zones={"sorgho": "c", "bonzai": 2, "cactus": 2},
    )
    begin(st, "zamioculcas", None)
    assert st.action is not None
    st.action.sub = "kick-throw"
    st.action.kicked = "sorgho"
    assert ai(st) == "throw-z2"
