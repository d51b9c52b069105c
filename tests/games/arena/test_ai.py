"""The AI plays sensibly: rests when safe, gangs up on the weak, keeps clear of
unleashed-against-en-garde gambles, picks up its weapon and gets up."""

from __future__ import annotations

import random

import pytest

from bot.games.arena.ai import odds
from bot.games.arena.state import ArenaState
from tests.games.arena.helpers import GAME, arrange
from tests.support.dice import ScriptedCtx
from tests.support.play import answer, option_ids


def ai(state: ArenaState, seed: int = 0) -> str:
    d = GAME.pending(state)[0]
    return GAME.ai_choose(state, d, random.Random(seed))


def ai_turn(state: ArenaState, dice: list[int] | None = None) -> None:
    """Let the AI play the whole current turn, rolling ``dice`` (plenty of 3s by default)."""
    assert state.turn is not None
    seat = state.turn.seat
    ctx = ScriptedCtx(dice or [3] * 40)
    while not state.finished and state.turn is not None and state.turn.seat == seat:
        d = GAME.pending(state)[0]
        opt = GAME.ai_choose(state, d, random.Random(1))
        assert opt in option_ids(d)
        answer(GAME, state, d, ctx, option=opt)


def test_odds_are_exact() -> None:
    assert odds(1, 0)[0] == pytest.approx(1.0)
    assert odds(0, 1)[0] == 0.0
    assert odds(1, 1)[0] == pytest.approx(15 / 36)
    hit, miss_even, miss_odd = odds(2, 2)
    assert 0 < hit < 0.5 and 0 < miss_even < 1 - hit and 0 < miss_odd < 1 - hit


@pytest.mark.parametrize("hp", [3, 4, 5, 6])
def test_rests_when_hurt_and_out_of_reach(hp: int) -> None:
    state = arrange([(0, -3), (0, 3)], f0={"hp": hp})
    assert ai(state) == "garde"
    ai_turn(state)
    assert state.last.action == "rest"


def test_does_not_rest_at_full_health_far_away() -> None:
    state = arrange([(0, -3), (0, 3)])
    ai_turn(state)
    assert state.last.action == "fight"


def test_gangs_up_on_the_weak() -> None:
    state = arrange(
        [(0, 0), (1, 0), (-1, 0)],
        f1={"hp": 7, "posture": "balancee"},
        f2={"hp": 2, "posture": "balancee"},
    )
    ai_turn(state, [6] * 4 + [1] * 36)
    assert state.last.attack is not None and state.last.attack.defender == 2
    assert state.fighters[2].out


def test_avoids_being_unleashed_next_to_an_en_garde_defender() -> None:
    for hp in (2, 3, 5, 7):
        state = arrange([(0, 0), (1, 0), (-3, 3)], f0={"hp": hp}, f1={"posture": "garde"})
        assert ai(state) != "dechainee"


def test_picks_up_its_weapon() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"disarmed": True, "weapon_at": (0, 0)})
    ai_turn(state)
    assert state.last.action == "pickup" and not state.fighters[0].disarmed


def test_walks_back_to_its_weapon() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"disarmed": True, "weapon_at": (1, 0)})
    ai_turn(state)
    assert state.fighters[0].pos == (1, 0)


def test_gets_up() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"down": True})
    ai_turn(state)
    assert state.last.action == "getup" and not state.fighters[0].down


def test_finishes_a_fighter_it_can_knock_out() -> None:
    state = arrange([(0, 0), (2, 0), (-3, 3)], f1={"hp": 1, "posture": "agressive"})
    ai_turn(state, [6] * 40)
    assert state.fighters[1].out
