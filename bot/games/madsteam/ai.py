"""Madsteam's AI, reading only the seat's typed view and the decision.

Three levels (issue 14): ``easy`` moves at random among legal moves and answers
every other question the plain way; ``medium`` weighs each move by what the
shelter needs (denrées for the next feeding, ammo to hunt, resources for repairs
and comfort), plans the order of its heroes' moves, hunts for the most food,
repairs, resolves the best event, climbs every comfort step and recruits only
into occupied rooms; ``hard`` plays as ``medium`` and also recruits by the
score (survivors count only up to comfort: it opens the rooms its kept cans can
feed and, in the last round, recruits up to the comfort it can still reach),
keeps the price of the best event before repairing (an event pays 2-3 points,
a repair 1), and climbs comfort only while it is below the survivors it may
still have, keeping wood, metal and chips for repairs and events. Any other level id plays ``hard``.
"""

from __future__ import annotations

import random

from bot.engine.decisions import Allocation, Decision, Many, Option
from bot.engine.game import Reply
from bot.games.madsteam.args import (
    Comfort,
    Hunt,
    KeepObject,
    Move,
    PayRecruits,
    PlaceHeroes,
    Resolve,
)
from bot.games.madsteam.rules import distances
from bot.games.madsteam.view import MSView, PlaceView, PlayerView, RoomView

STUCK = -50.0
"""A plan that leaves a hero of the clan with no legal move."""

OBJECT_TASTE = {
    "hunt": 5,
    "bonus": 4,
    "free_well": 4,
    "search": 3,
    "hunt_choice": 2,
    "free_move": 2,
}


def _fill(ask: Allocation, order: list[str], total: int | None = None) -> dict[str, int]:
    """Amounts in ``order`` of preference, each from its minimum up to its maximum, until
    the first total (exact or at most) is met; other quantities at their minimum."""
    amounts = {q.id: q.min for q in ask.quantities}
    if total is None:
        t = ask.totals[0] if ask.totals else None
        total = (t.max if t and t.max is not None else t.min if t and t.min is not None else 0) or 0
    left = total - sum(amounts.values())
    for qid in order + [q.id for q in ask.quantities]:
        q = ask.quantity(qid)
        if q is None or left <= 0:
            continue
        add = min(q.max - amounts[qid], left)
        amounts[qid] += add
        left -= add
    return amounts


EASY = "easy"
MEDIUM = "medium"
HARD = "hard"
LEVELS = (EASY, MEDIUM, HARD)
"""Level ids, weakest first; any other id (none stored so far) plays ``hard``."""


def choose(view: MSView, d: Decision, rnd: random.Random, level: str = HARD) -> Reply:
    me = view.players[d.seat]
    hard = level != EASY
    strong = level not in (EASY, MEDIUM)
    kind = d.kind
    ask = d.ask
    if kind == "shelter":
        return (d.options[0] if hard else rnd.choice(d.options)).id
    if kind == "keep":
        if not hard:
            return rnd.choice(d.options).id
        best = max(
            d.options,
            key=lambda o: OBJECT_TASTE.get(_effect_kind(me, o.args), 0),
        )
        return best.id
    if kind == "heroes":
        if hard:
            for o in d.options:
                if isinstance(o.args, PlaceHeroes) and o.args.five == "supermarket":
                    return o.id
        return rnd.choice(d.options).id
    if kind == "move":
        if not hard:
            return rnd.choice(d.options).id
        memo: dict[tuple[tuple[int, str, bool], ...], float] = {}
        return max(
            d.options, key=lambda o: _move_value(view, me, o.args, memo) + rnd.random() * 0.1
        ).id
    if kind == "pay":
        # Keep the last water: it alone satisfies next round's water rule.
        for o in d.options:
            if isinstance(o.args, PayRecruits) and o.args.keep_water:
                return o.id
    if kind == "well":
        return "pump"
    if kind == "hunt":
        hunts = [o for o in d.options if isinstance(o.args, Hunt) and o.args.index is not None]
        if not hunts:
            return d.options[0].id
        return max(hunts, key=lambda o: int(o.stats.get("food", 0))).id
    if kind == "resolve":
        solvable = [
            o for o in d.options if isinstance(o.args, Resolve) and o.args.event is not None
        ]
        if solvable:
            return max(solvable, key=lambda o: int(o.stats.get("points", 0))).id
        return d.options[-1].id
    if kind == "comfort":
        assert isinstance(ask, Many)
        if strong:
            return _comfort(view, me, d)
        return [o.id for o in d.options]
    if isinstance(ask, Allocation):
        if strong and d.kind == "recruit":
            return _recruit(view, me, ask)
        if strong and d.kind == "repair":
            return _repair(view, me, ask)
        return _allocate(view, me, d, ask, hard)
    return d.options[0].id


def _effect_kind(me: PlayerView, args: object) -> str:
    return "bonus" if isinstance(args, KeepObject) else ""


def _needs(view: MSView, me: PlayerView) -> dict[str, float]:
    """How much one more token of each kind is worth now."""
    r = me.resources
    stock = r["water"] + r["food"] + r["cans"]
    hungry = stock < me.feed_cost + 3
    return {
        "water": 4.0 if r["water"] < 1 else (2.0 if hungry else 1.0),
        "food": 2.5 if hungry else 1.2,
        "cans": 2.5 if hungry else 1.5,
        "wood": 1.2 if r["wood"] < 4 else 0.6,
        "metal": 1.2 if r["metal"] < 4 else 0.6,
        "chips": 1.5 if r["chips"] < 2 else 0.7,
        "ammo": 1.0 if r["ammo"] < 4 else 0.4,
    }


def _move_value(
    view: MSView,
    me: PlayerView,
    args: object,
    memo: dict[tuple[tuple[int, str, bool], ...], float],
) -> float:
    """This move's score plus the best plan for the clan's other lying heroes after it: a
    hero lying on a place (the well, say) keeps the clan's other heroes off it until it
    has moved, so the order of the moves matters (book: the movement example)."""
    if not isinstance(args, Move):
        return 0.0
    hero = me.heroes[args.hero]
    now = _move_score(view, me, hero.value, args.place, args.free_move)
    heroes = tuple(
        (h.value, args.place if i == args.hero else h.place, h.standing or i == args.hero)
        for i, h in enumerate(me.heroes)
    )
    return now + _plan(view, me, heroes, memo)


def _plan(
    view: MSView,
    me: PlayerView,
    heroes: tuple[tuple[int, str, bool], ...],
    memo: dict[tuple[tuple[int, str, bool], ...], float],
) -> float:
    """The best total score of the clan's lying heroes, moved one by one in any order along
    the legal moves (1-2 steps, never staying, never onto a place of one's own)."""
    if heroes in memo:
        return memo[heroes]
    lying = [i for i, h in enumerate(heroes) if not h[2]]
    if not lying:
        return 0.0
    own = {h[1] for h in heroes}
    best: float | None = None
    for i in lying:
        value, place, _ = heroes[i]
        for dest, dist in distances(place).items():
            if dist > 2 or dest in own:
                continue
            after = tuple((value, dest, True) if k == i else h for k, h in enumerate(heroes))
            total = _move_score(view, me, value, dest, False) + _plan(view, me, after, memo)
            if best is None or total > best:
                best = total
    memo[heroes] = STUCK if best is None else best
    return memo[heroes]


def _move_score(view: MSView, me: PlayerView, value: int, place_id: str, free_move: bool) -> float:
    need = _needs(view, me)
    place = _place(view, place_id)
    score = 0.0
    # Pressure: weaker standing heroes of other clans give up to the difference.
    for h in place.heroes:
        if h.seat != me.seat and h.standing and h.value < value:
            score += 0.8 * (value - h.value)
    if place.id == "well":
        if me.resources["chips"] >= 1:
            score += need["water"] * min(value, place.supply or 0) - 1.5
    elif place.resource is not None:
        score += need[place.resource] * min(value, place.supply or 0)
        top = place.gibier_top
        if top is not None:
            reach = value + me.hunt_bonus + me.resources["ammo"]
            if top.strength <= reach:
                score += need["food"] * me.next_food.get(top.strength, 0) * 0.9
    elif place.id in ("house_a", "house_b"):
        score += 1.1 * min(value, place.search_left or 0) + 1.5 * min(1, len(place.objects))
    elif place.id == "supermarket":
        cans = max(
            (
                c
                for s, v, c in zip(place.slots, place.slot_values, place.slot_cans, strict=False)
                if s is None and v == value
            ),
            default=0,
        )
        score += need["cans"] * cans + (1.5 if not any(h.standing for h in place.heroes) else 0)
    if free_move:
        score -= 1.0
    return score


def _place(view: MSView, place_id: str) -> PlaceView:
    return next(p for p in view.places if p.id == place_id)


def _allocate(
    view: MSView, me: PlayerView, d: Decision, ask: Allocation, hard: bool
) -> dict[str, int]:
    kind = d.kind
    r = me.resources
    if kind == "rooms":
        rooms = sorted(range(len(me.rooms)), key=lambda i: me.rooms[i].cost / me.rooms[i].slots)
        return _fill(ask, [f"room{i}" for i in rooms])
    if kind == "lose":
        order = sorted(
            (q.id for q in ask.quantities),
            key=lambda qid: _room(me, qid).survivors == _room(me, qid).slots,
        )
        return _fill(ask, order)
    if kind == "pressure":
        if hard and r["ammo"] <= 2:
            gifts = sorted(("wood", "metal", "chips"), key=lambda x: -r[x])
            return _fill(ask, [*gifts, "ammo"])
        return _fill(ask, ["ammo", "wood", "metal", "chips"])
    if kind == "feed":
        return _fill(ask, ["food", "water", "cans"])
    if kind == "recruit":
        t = ask.totals[0].max or 0
        if not hard:
            return _fill(ask, [], t)
        limit = t
        if view.round == view.rounds:
            limit = min(limit, max(0, me.comfort + 2 - me.survivors))
        # Survivors in occupied rooms cost nothing more to feed: only those, nearly full first.
        occupied = [q.id for q in ask.quantities if _room(me, q.id).survivors > 0]
        occupied.sort(key=lambda qid: _room(me, qid).slots - _room(me, qid).survivors)
        # A new room adds its food cost to every later feeding: open one only in the last
        # round (nobody eats after it) or when the cans kept cover the dearer feeding.
        last = view.round == view.rounds
        empty = [q.id for q in ask.quantities if _room(me, q.id).survivors == 0]
        empty.sort(key=lambda qid: _room(me, qid).cost / _room(me, qid).slots)
        stock = me.resources["cans"]
        amounts = {q.id: 0 for q in ask.quantities}
        for qid in occupied + empty:
            q = ask.quantity(qid)
            assert q is not None
            if qid in empty and not last:
                extra = _room(me, qid).cost
                if stock - (t - limit) < me.feed_cost + extra + 2:
                    continue
            add = min(q.max, limit)
            amounts[qid] = add
            limit -= add
        return amounts
    if kind == "repair":
        left = dict(r)
        amounts = {q.id: 0 for q in ask.quantities}
        for q in ask.quantities:
            obj = next((o for o in me.inactive if f"obj-{o.id}" == q.id), None)
            if obj is None:
                continue
            cost: dict[str, int] = {}
            for c in obj.cost:
                cost[c] = cost.get(c, 0) + 1
            if all(left.get(k, 0) >= v for k, v in cost.items()):
                amounts[q.id] = 1
                for k, v in cost.items():
                    left[k] -= v
        return amounts
    if kind == "hunt-alloc":
        hunt = ask.quantity("hunt")
        assert hunt is not None
        spend = hunt.min if r["ammo"] > 3 else hunt.max
        total = ask.totals[0].min or 0
        return {"hunt": spend, "ammo": total - spend}
    if kind == "house":
        objs = [q.id for q in ask.quantities if q.id != "search"]
        value = ask.totals[0].max or 0
        take = objs[: max(0, value // 2)] if hard else objs[:1]
        amounts = {q.id: 0 for q in ask.quantities}
        for qid in take:
            amounts[qid] = 1
        s = ask.quantity("search")
        if s is not None:
            amounts["search"] = min(s.max, value - len(take))
        return amounts
    return _fill(ask, [])


def _comfort(view: MSView, me: PlayerView, d: Decision) -> list[str]:
    """Amélioration du Confort for ``hard``: comfort only counts up to the survivors, so it
    climbs while the gauge is below the survivors it may still have (a few more each round
    left), keeping the rest of the wood, metal and chips for repairs and events."""
    target = me.survivors + 3 * (view.rounds - view.round) + 1
    picked: list[str] = []
    comfort = me.comfort

    def stock(o: Option) -> int:
        return me.resources.get(o.args.resource, 0) if isinstance(o.args, Comfort) else 0

    for o in sorted(d.options, key=lambda o: -stock(o)):
        if comfort >= target:
            break
        picked.append(o.id)
        comfort += 2
    return picked


def _repair(view: MSView, me: PlayerView, ask: Allocation) -> dict[str, int]:
    """Réparation for ``hard``: an event gives 2-3 points for about 3 resources, a repair
    1 (2 when it completes a symbol), and repairs come first in the shelter phase: it
    keeps what the best event it can pay costs, then repairs symbol-completing objects
    first with the rest."""
    left = dict(me.resources)
    events = [e for e in view.events_active if all(left.get(k, 0) >= v for k, v in e.cost.items())]
    if events:
        top = max(events, key=lambda e: (e.points, -sum(e.cost.values())))
        for k, v in top.cost.items():
            left[k] -= v
    halves: dict[str, set[str]] = {}
    for o in me.active:
        halves.setdefault(o.symbol, set()).add(o.half)
    objs = [o for o in me.inactive if ask.quantity(f"obj-{o.id}") is not None]
    objs.sort(key=lambda o: o.half in halves.get(o.symbol, set()) or not halves.get(o.symbol))
    amounts = {q.id: 0 for q in ask.quantities}
    for obj in objs:
        cost: dict[str, int] = {}
        for c in obj.cost:
            cost[c] = cost.get(c, 0) + 1
        if all(left.get(k, 0) >= v for k, v in cost.items()):
            amounts[f"obj-{obj.id}"] = 1
            for k, v in cost.items():
                left[k] -= v
            halves.setdefault(obj.symbol, set()).add(obj.half)
    return amounts


def _comfort_reach(me: PlayerView) -> int:
    """The comfort gauge after this round's step 5 if every affordable step is bought."""
    steps = sum(1 for r in ("wood", "metal", "chips") if me.resources[r] >= 2)
    return me.comfort + 2 * steps


def _recruit(view: MSView, me: PlayerView, ask: Allocation) -> dict[str, int]:
    """Recrutement for ``hard``: survivors score only up to the comfort gauge, so in the
    last round it recruits up to the comfort it can still reach; earlier it fills occupied
    rooms first (no extra feeding), then opens the rooms whose food cost is low for the
    seats they hold, while the cans kept cover that cost at the next feeding."""
    t = ask.totals[0].max or 0
    last = view.round == view.rounds
    limit = t
    if last:
        limit = min(limit, max(0, _comfort_reach(me) - me.survivors))
    price = view.recruit_price
    amounts = {q.id: 0 for q in ask.quantities}
    occupied = [q.id for q in ask.quantities if _room(me, q.id).survivors > 0]
    occupied.sort(key=lambda qid: _room(me, qid).slots - _room(me, qid).survivors)
    empty = [q.id for q in ask.quantities if _room(me, q.id).survivors == 0]
    empty.sort(key=lambda qid: _room(me, qid).cost / _room(me, qid).slots)
    r = me.resources
    perish = r["food"] + max(0, r["water"] - 1)
    kept = r["cans"] + min(1, r["water"])
    spent = 0
    extra_cost = 0
    for qid in occupied + empty:
        q = ask.quantity(qid)
        assert q is not None
        add = min(q.max, limit)
        if add <= 0:
            break
        if qid in empty and not last:
            cost = _room(me, qid).cost
            kept_after = kept - max(0, (spent + add) * price - perish)
            if cost > 0 and (add < 2 or kept_after < extra_cost + cost):
                continue
            extra_cost += cost
        amounts[qid] = add
        limit -= add
        spent += add
    return amounts


def _room(me: PlayerView, qid: str) -> RoomView:
    for i, room in enumerate(me.rooms):
        if f"room{i}" == qid:
            return room
    raise KeyError(qid)
