"""Robustness: from arbitrary arranged positions, every option offered applies cleanly.

Fighters anywhere on the board with any HP, posture, ground/disarmed/resting
markers and knocked-out neighbours: each offered option is applied to a copy
(no exception at all: an offered option is legal), then one is followed, for
several turns. A state also survives ``dump``/``load`` unchanged.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Ctx
from bot.engine.decisions import Decision
from bot.engine.dice import DiceState, FairRng
from bot.games.arena.board import HEXES, adjacent
from bot.games.arena.postures import MAX_HP, POSTURES
from bot.games.arena.state import ArenaState
from tests.games.arena.helpers import GAME, arrange
from tests.support.play import answer


@st.composite
def arena_states(draw: st.DrawFn) -> ArenaState:
    n = draw(st.integers(2, 6))
    spots = draw(st.lists(st.sampled_from(HEXES), min_size=n, max_size=n, unique=True))
    fields = {}
    for seat in range(n):
        hp = draw(st.integers(0, MAX_HP))
        f: dict = {"hp": hp, "posture": draw(st.sampled_from(POSTURES))}
        if hp == 0:
            f["out"] = True
        else:
            f["down"] = draw(st.booleans())
            f["resting"] = draw(st.booleans())
            if draw(st.booleans()):
                f["disarmed"] = True
                f["weapon_at"] = draw(st.sampled_from(HEXES))
        fields[f"f{seat}"] = f
    alive = [s for s in range(n) if fields[f"f{s}"]["hp"] > 0]
    if len(alive) < 2:
        # Revive one more so the match is not over before it starts.
        extra = next(s for s in range(n) if s not in alive)
        fields[f"f{extra}"] = {"hp": 1}
        alive.append(extra)
    acting = draw(st.sampled_from(sorted(alive)))
    return arrange(spots, acting=acting, **fields)


def _apply(state: ArenaState, decision: Decision, option: str, seed: str) -> ArenaState:
    copy = GAME.copy(state)
    answer(GAME, copy, decision, Ctx(FairRng(DiceState(seed=seed))), option=option)
    return copy


def _check(state: ArenaState) -> None:
    spots = [f.pos for f in state.fighters]
    assert len(set(spots)) == len(spots)
    assert all(0 <= f.hp <= MAX_HP and (f.hp == 0) == f.out for f in state.fighters)
    assert GAME.load(GAME.dump(state)) == state
    fresh = state.turn is None or state.turn.step == "posture"
    if fresh and state.last is not None and state.last.attack is not None:
        # Right after a turn, nobody has moved since its attack.
        a = state.last.attack
        assert adjacent(a.at, state.fighters[a.defender].pos)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=arena_states(), seed=st.integers(0, 10**6))
def test_every_offered_option_applies_from_random_states(state: ArenaState, seed: int) -> None:
    rnd = random.Random(seed)
    _check(state)
    for step in range(40):
        pending = GAME.pending(state)
        if not pending:
            assert state.finished and GAME.outcome(state) is not None
            return
        d = pending[0]
        assert d.options and len({o.id for o in d.options}) == len(d.options)
        results = [_apply(state, d, o.id, f"{seed}:{step}") for o in d.options]
        for r in results:
            _check(r)
            _fight_options_agree(r)
        state = rnd.choice(results)


def _fight_options_agree(state: ArenaState) -> None:
    """The quick "anything left to choose?" of a fight is the full list being non-empty."""
    turn = state.turn
    if turn is None or state.finished:
        return
    f = state.fighters[turn.seat]
    assert GAME._has_fight_option(state, turn, f) == bool(GAME._fight_options(state, turn, f))
