"""A random-legal player: the baseline every AI level is measured against.

Used by the contract test (random playouts of every game) and the strength
benchmarks; it answers every decision shape (One, Many, Order, Allocation)
with an answer the engine's whole-answer checks accept.
"""

from __future__ import annotations

import random

from bot.engine.answers import allocation_ok
from bot.engine.decisions import Allocation, Choice, Decision, Many, One, Order

ALLOCATION_TRIES = 50
"""Random allocations drawn before giving up (their totals may rarely be met at random)."""


def random_choice(d: Decision, rnd: random.Random) -> Choice | None:
    """A uniformly random legal answer to ``d``; None when no random allocation met its totals."""
    ids = [o.id for o in d.options]
    ask = d.ask
    if isinstance(ask, One):
        return Choice(seat=d.seat, key=d.key, option=rnd.choice(ids))
    if isinstance(ask, Many):
        hi = min(len(ids), len(ids) if ask.max is None else ask.max)
        return Choice(seat=d.seat, key=d.key, options=rnd.sample(ids, rnd.randint(ask.min, hi)))
    if isinstance(ask, Order):
        rnd.shuffle(ids)
        return Choice(seat=d.seat, key=d.key, options=ids)
    assert isinstance(ask, Allocation)
    for _ in range(ALLOCATION_TRIES):
        amounts = {q.id: rnd.randint(q.min, q.max) for q in ask.quantities}
        if allocation_ok(ask, amounts):
            return Choice(seat=d.seat, key=d.key, amounts=amounts)
    return None
