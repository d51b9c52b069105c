"""Building Madsteam positions for rule tests."""

from __future__ import annotations

import random

from bot.engine.answers import check_answer
from bot.engine.decisions import Choice, Decision
from bot.engine.game import Ctx, SeatSpec
from bot.games.madsteam import GAME, rules
from bot.games.madsteam.state import Hero, MSState
from tests.support.dice import ScriptedCtx


def new_ctx() -> Ctx:
    return ScriptedCtx()


def set_up(n: int = 3) -> tuple[MSState, Ctx]:
    """A match past the set-up (the AI answers it), at the start of round 1's harvest."""
    ctx = new_ctx()
    state = GAME.setup([SeatSpec(name=f"P{i}") for i in range(n)], "standard", {}, ctx)
    rnd = random.Random(1)
    while state.phase in ("shelter-pick", "setup", "events"):
        d = GAME.pending(state)[0]
        reply = GAME.ai_choose(state, d, rnd, "hard")
        play(state, d, ctx, reply)
    return state, ctx


def play(state: MSState, d: Decision, ctx: Ctx, reply: object) -> None:
    if isinstance(reply, str):
        choice = Choice(seat=d.seat, key=d.key, option=reply)
    elif isinstance(reply, list):
        choice = Choice(seat=d.seat, key=d.key, options=reply)
    else:
        assert isinstance(reply, dict)
        choice = Choice(seat=d.seat, key=d.key, amounts=reply)
    GAME.apply(state, check_answer(d, choice), ctx)


def clear_board(state: MSState) -> None:
    """Heroes far away, standing (played), so they neither block nor get pressured."""
    for p in state.players:
        p.heroes = []
        p.res = {}
        p.active = []
        p.inactive = []


def heroes(state: MSState, seat: int, spec: list[tuple[int, str, bool]]) -> None:
    state.players[seat].heroes = [Hero(value=v, place=pl, standing=st) for v, pl, st in spec]  # type: ignore[arg-type]


def harvest_turn(state: MSState, seat: int) -> None:
    state.phase = "harvest"
    state.turn = seat
    state.arrival = None


def pending_of(state: MSState, kind: str) -> list[Decision]:
    return [d for d in GAME.pending(state) if d.kind == kind]


def option_for(d: Decision, **fields: object) -> str:
    for o in d.options:
        if o.args is not None and all(getattr(o.args, k, None) == v for k, v in fields.items()):
            return o.id
    raise AssertionError(f"no option with {fields} in {[o.id for o in d.options]}")


__all__ = ["rules"]
