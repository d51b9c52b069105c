"""Scenario builders for Mad Arena tests: exact arenas and scripted dice."""

from __future__ import annotations

import random

from bot.engine.decisions import Allocation, Choice, Decision, Order
from bot.engine.events import RollEvent
from bot.engine.game import Ctx
from bot.games.mad_arena import rules
from bot.games.mad_arena.args import ForFighter
from bot.games.mad_arena.cards import DRAGON, load_cards
from bot.games.mad_arena.game import MadArena
from bot.games.mad_arena.state import Fighter, MAState
from tests.support.dice import ScriptedCtx
from tests.support.play import answer, option_ids

GAME = MadArena()

__all__ = [
    "GAME",
    "ScriptedCtx",
    "begin",
    "build",
    "do",
    "options",
    "pick",
    "pick_decision",
    "random_answer",
    "rolls",
]


def build(
    fids: list[str],
    teams: list[int] | None = None,
    zones: dict[str, int | str] | None = None,
    mode: str = "ultimate-warrior",
    seats: list[int] | None = None,
) -> MAState:
    """An arena whose ring is ``fids`` (minus the dragon) in order; one seat per fighter by default.

    ``zones`` moves fighters: a zone index, or "c" for the centre.
    """
    cards = load_cards()
    ring = [f for f in fids if f != DRAGON]
    team_of = teams or list(range(len(fids)))
    seat_of = seats or list(range(len(fids)))
    fighters = []
    for i, fid in enumerate(fids):
        data = cards.fighter(fid)
        fighters.append(
            Fighter(
                id=fid,
                seat=seat_of[i],
                team=team_of[i],
                hp=data.size,
                zone=len(ring) if data.dragon else ring.index(fid),
                hand=[c.id for c in data.cards],
            )
        )
    n_teams = max(team_of) + 1
    state = MAState(
        mode=mode,
        seat_names=[f"P{i}" for i in range(max(seat_of) + 1)],
        cards=cards,
        zones=ring,
        fighters=fighters,
        teams=[[fids[i] for i in range(len(fids)) if team_of[i] == t] for t in range(n_teams)],
        phase="action",
    )
    for fid, z in (zones or {}).items():
        state.f(fid).zone = state.centre if z == "c" else int(z)
    return state


def begin(state: MAState, fid: str, card: str | None = None, ctx: Ctx | None = None) -> Ctx:
    """Start ``fid``'s action with ``card`` (all others have acted this round)."""
    ctx = ctx or ScriptedCtx()
    for f in state.fighters:
        f.acted = f.id != fid
    f = state.f(fid)
    if card is not None:
        f.pick = card
        if card in f.hand:
            f.hand.remove(card)
    state.phase = "action"
    state.action = None
    rules.begin_action(state, ctx, f)
    return ctx


def do(state: MAState, option: str, ctx: Ctx) -> None:
    """Answer the one pending action decision with ``option`` (must be legal), as the engine does."""
    (d,) = rules.pending(state)
    assert option in option_ids(d), f"{option} not in {option_ids(d)}"
    answer(GAME, state, d, ctx, option=option)


def pick(state: MAState, fid: str, card: str, ctx: Ctx) -> None:
    """Answer ``fid``'s pending secret pick with ``card``."""
    d = pick_decision(state, fid)
    answer(GAME, state, d, ctx, option=card)


def pick_decision(state: MAState, fid: str) -> Decision:
    """The pending pick of fighter ``fid`` (read from the decision's typed subject)."""
    (d,) = [
        x for x in rules.pending(state) if x.kind == "pick" and x.args == ForFighter(fighter=fid)
    ]
    return d


def options(state: MAState) -> list[str]:
    (d,) = rules.pending(state)
    return option_ids(d)


def rolls(ctx: Ctx) -> list[RollEvent]:
    return [e for e in ctx.events if isinstance(e, RollEvent)]


def random_answer(d: Decision, rnd: random.Random, seat: int | None = None) -> Choice:
    """Any legal answer to ``d``: an option, every option in a random order, or a random
    split of an allocation's exact total."""
    who = d.seat if seat is None else seat
    if isinstance(d.ask, Order):
        ids = option_ids(d)
        rnd.shuffle(ids)
        return Choice(seat=who, key=d.key, options=ids)
    if isinstance(d.ask, Allocation):
        total = d.ask.totals[0].min or 0
        amounts = {q.id: 0 for q in d.ask.quantities}
        for _ in range(total):
            amounts[rnd.choice(list(amounts))] += 1
        return Choice(seat=who, key=d.key, amounts=amounts)
    return Choice(seat=who, key=d.key, option=rnd.choice(d.options).id)
