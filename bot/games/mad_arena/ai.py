"""The Mad Arena AI: expected-damage planning over what the seat's view shows.

It only reads ``view(state, seat)`` (its own hand and pick, public cards in
play, HP, zones), never another seat's secret pick, and answers with the typed
arguments of an offered option (never by building or parsing an id). It prefers
killing blows (trophies), keeps team mates out of zone attacks, and saves its
secret move for a good moment unless the game is ending. Deterministic given ``rnd``.
"""

from __future__ import annotations

import random
from functools import lru_cache

from bot.engine.decisions import Allocation, Args, Decision, Option, Order
from bot.engine.game import Reply
from bot.games.mad_arena.arena import adjacent, legal_steps
from bot.games.mad_arena.args import (
    End,
    ForFighter,
    Free,
    Kick,
    Melee,
    Move,
    Ranged,
    StrikeTarget,
    Throw,
    ZoneAttack,
)
from bot.games.mad_arena.secret_moves import finishing_bonus, landing_dice
from bot.games.mad_arena.view import CardView, FighterView, MAView


def p_hit(defence: int, modifier: int = 0) -> float:
    need = max(1, defence - modifier)
    return max(0.0, min(1.0, (7 - need) / 6))


@lru_cache(maxsize=256)
def p_sum_at_least(k: int, s: int) -> float:
    """Probability that k six-sided dice sum to >= s."""
    dist = {0: 1.0}
    for _ in range(k):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        dist = nxt
    return sum(p for t, p in dist.items() if t >= s)


class Ctx:
    """Read-only helpers over one seat's view."""

    def __init__(self, view: MAView, me_id: str) -> None:
        self.v = view
        self.n = len(view.zones)
        self.centre = view.centre
        self.by_id = {f.id: f for f in view.fighters}
        self.me = self.by_id[me_id]

    def alive(self) -> list[FighterView]:
        return [f for f in self.v.fighters if f.alive]

    def enemies(self) -> list[FighterView]:
        return [f for f in self.alive() if f.id != self.me.id and f.team != self.me.team]

    def allies(self) -> list[FighterView]:
        return [f for f in self.alive() if f.id != self.me.id and f.team == self.me.team]

    def at(self, zone: int) -> list[FighterView]:
        return [f for f in self.alive() if f.zone == zone and f.id != self.me.id]

    def is_enemy(self, f: FighterView) -> bool:
        return f.team != self.me.team

    def late(self) -> bool:
        return self.v.round >= self.v.last_round - 2


def attack_value(t: FighterView, dice: int, modifier: int = 0) -> float:
    """Expected HP removed, with a bonus for a likely kill (a trophy) and for weak targets."""
    if dice <= 0:
        return 0.0
    e = dice * p_hit(t.defence, modifier)
    hp = t.hp
    v = min(e, hp) * (1 + 1 / max(1, hp))
    if e >= hp - 0.25:
        v += 1.5 + t.size / 5
    return v


def zone_value(c: Ctx, zone: int, dice: int, kind: str | None) -> float:
    """Value of a zone attack (keg, strike or the dragon's fire); team mates count against it."""
    total = 0.0
    here = c.at(zone)
    if kind == "strike":
        order = sorted(here, key=lambda f: (not c.is_enemy(f), -f.defence))
        left = float(dice)
        for f in order:
            p = p_hit(f.defence)
            e = left * p
            val = (
                attack_value(f, max(1, round(left)), 0) * (e / max(0.01, left * p))
                if left > 0
                else 0
            )
            total += val if c.is_enemy(f) else -2 * e
            left -= e
        return total
    for f in here:
        val = attack_value(f, dice)
        total += val if c.is_enemy(f) else -2 * val
    return total


def strike_order(c: Ctx, fighters: list[FighterView]) -> list[FighterView]:
    """Baobab's strike order: adversaries first, the hardest to wound first, then the weakest."""
    return sorted(fighters, key=lambda f: (not c.is_enemy(f), -f.defence, f.hp))


def fighter_attack(
    c: Ctx, zone: int, kind: str, dice: int, secret: str | None
) -> tuple[float, Args | None]:
    """Best single-target attack from ``zone``: (value, the attack)."""
    best: tuple[float, Args | None] = (0.0, None)
    if dice <= 0:
        return best
    for t in c.enemies():
        if kind == "melee" and t.zone != zone:
            continue
        if kind == "ranged" and t.zone not in adjacent(zone, c.n):
            continue
        if secret == "net":
            p = p_sum_at_least(dice, t.size)
            val = p * (1.2 + (2 if t.hp <= 1 else 0)) + 0.3
        elif secret == "finishing":
            mod = finishing_bonus(t.hp)
            val = attack_value(t, dice, mod) + (
                1.0 if mod > 0 and dice * p_hit(t.defence, 1) >= t.hp - 0.3 else 0
            )
        else:
            val = attack_value(t, dice)
        if val > best[0]:
            best = (val, Melee(target=t.id) if kind == "melee" else Ranged(target=t.id))
    return best


def ranged_best(c: Ctx, zone: int, dice: int, secret: str | None) -> tuple[float, Args | None]:
    if secret in ("powder-keg", "strike"):
        best: tuple[float, Args | None] = (0.0, None)
        for z in adjacent(zone, c.n):
            if c.at(z):
                val = zone_value(c, z, dice, secret)
                if val > best[0]:
                    best = (val, ZoneAttack(zone=z))
        return best
    return fighter_attack(c, zone, "ranged", dice, secret)


def position_value(c: Ctx, zone: int) -> float:
    v = 0.0
    if zone == c.centre and c.late():
        v += 1.5 if c.v.round < c.v.last_round else 3.0
    hp = c.me.hp
    threat = sum(1 for e in c.enemies() if e.zone == zone or e.zone in adjacent(zone, c.n))
    v -= threat * 0.15 * (1 + (c.me.max_hp - hp) / max(1, c.me.max_hp))
    return v


def paths(
    c: Ctx, zone: int, start: int, total: int, left: int, round_start: int | None = None
) -> list[list[int]]:
    if left <= 0:
        return [[zone]]
    out: list[list[int]] = []
    for z in legal_steps(zone, start, total, left, c.n, round_start):
        for rest in paths(c, z, start, total, left - 1, round_start):
            out.append([zone, *rest])
    return out


def best_plan(
    c: Ctx,
    zone: int,
    start: int,
    total: int,
    left: int,
    melee: int,
    ranged: int,
    secret: str | None,
    netted: bool,
    round_start: int | None = None,
) -> tuple[float, Args]:
    """The best sequence of moves and attacks; returns (value, its first step)."""
    best_val = -1e9
    best_first: Args = End()
    route_list = [[zone]] if netted else paths(c, zone, start, total, left, round_start)
    for route in route_list:
        m_best: tuple[float, Args | None, int] = (0.0, None, 0)
        r_best: tuple[float, Args | None, int] = (0.0, None, 0)
        for i, z in enumerate(route):
            mv, mid = fighter_attack(c, z, "melee", melee, secret)
            if mid is not None and mv > m_best[0]:
                m_best = (mv, mid, i)
            rv, rid = ranged_best(c, z, ranged, secret)
            if rid is not None and rv > r_best[0]:
                r_best = (rv, rid, i)
        val = m_best[0] + r_best[0] + position_value(c, route[-1])
        first: Args
        if m_best[1] is not None and m_best[2] == 0:
            first = m_best[1]
        elif r_best[1] is not None and r_best[2] == 0:
            first = r_best[1]
        elif netted and left > 0:
            first = Free()
        elif len(route) > 1:
            first = Move(zone=route[1])
        else:
            first = End()
        if val > best_val:
            best_val, best_first = val, first
    return best_val, best_first


def secret_ok(c: Ctx, secret: str | None, value: float) -> float:
    """Discount a secret move unless it pays off now or the game is ending (never wasted)."""
    if secret is None:
        return value
    if value < 0.6:
        return value - 5
    if c.late():
        return value * 1.3 + 1
    return value * 0.7


def pick_card(c: Ctx, hand: list[CardView], rnd: random.Random) -> str:
    """The card whose best plan is worth most this round (the net's -1 is in ``*_now``)."""
    zone = c.me.zone
    netted = c.me.netted
    best: tuple[float, str] = (-1e9, hand[0].id)
    for card in hand:
        move = card.move_now
        val, _ = best_plan(
            c, zone, zone, move, move, card.melee_now, card.ranged_now, card.secret, netted
        )
        val = secret_ok(c, card.secret, val)
        hp_frac = c.me.hp / max(1, c.me.max_hp)
        val += (int(card.stats["defence"]) - 4) * (0.6 - 0.4 * hp_frac)
        val += int(card.stats["initiative"]) * 0.08
        val += rnd.random() * 0.2
        if val > best[0]:
            best = (val, card.id)
    return best[1]


def dragon_choice(c: Ctx, options: list[Option], melee: int, ranged: int) -> Args:
    """The dragon's one attack: melee, fire at a zone, or the kick (kept for the end)."""
    best: tuple[float, Args] = (0.05, End())
    for opt in options:
        match opt.args:
            case Melee(target=tid):
                val = attack_value(c.by_id[tid], melee)
            case ZoneAttack(zone=z):
                val = max((attack_value(t, ranged) for t in c.at(z) if c.is_enemy(t)), default=0.0)
            case Kick(target=tid):
                t = c.by_id[tid]
                p = p_sum_at_least(melee, t.size)
                land = max(
                    (zone_value(c, z, landing_dice(t.size), None) for z in range(c.n)),
                    default=0.0,
                )
                val = attack_value(t, melee) + p * (land + 1) + (2.0 if c.late() else -0.8)
            case _:
                continue
        if val > best[0]:
            best = (val, opt.args)
    return best[1]


def choose(view: MAView, decision: Decision, rnd: random.Random) -> Reply:
    """The answer to ``decision``, chosen from ``view`` (its seat's view)."""
    about = decision.args
    assert isinstance(about, ForFighter), decision.key
    c = Ctx(view, about.fighter)
    if isinstance(decision.ask, Order):
        return strike_order_ids(c, decision.options)
    if isinstance(decision.ask, Allocation):
        return split_amounts(c, decision.ask)
    wanted = _choose(c, decision, rnd)
    if isinstance(wanted, str):
        return wanted
    for opt in decision.options:
        if opt.args == wanted:
            return opt.id
    return rnd.choice([o.id for o in decision.options])


def _choose(c: Ctx, decision: Decision, rnd: random.Random) -> Args | str:
    """The wanted answer: typed arguments of an option (or a card id for a pick)."""
    kind = decision.kind
    options = decision.options
    if kind == "pick":
        assert c.me.hand is not None
        return pick_card(c, c.me.hand, rnd)
    a = c.v.action
    assert a is not None
    if kind == "kick-throw":
        assert a.kicked is not None
        n = landing_dice(c.by_id[a.kicked].size)
        throws = sorted((o for o in options if isinstance(o.args, Throw)), key=lambda o: o.id)
        best = max(throws, key=lambda o: zone_value(c, _zone(o.args), n, None))
        return best.id
    melee = 0 if a.melee_done else a.melee_dice
    ranged = 0 if a.ranged_done else a.ranged_dice
    if c.me.dragon:
        return dragon_choice(c, options, melee, ranged)
    card = c.me.in_play
    assert card is not None
    _, first = best_plan(
        c,
        c.me.zone,
        a.start_zone,
        a.moves_total,
        a.moves_left,
        melee,
        ranged,
        card.secret,
        c.me.netted and a.moves_left > 0,
        a.round_zone,
    )
    offered = {o.args for o in options}
    if first in offered:
        return first
    if End() in offered:
        return End()
    moves = sorted(o.id for o in options if isinstance(o.args, Move | Free))
    return rnd.choice(moves or sorted(o.id for o in options))


def strike_order_ids(c: Ctx, options: list[Option]) -> list[str]:
    """Baobab's strike: every fighter of the zone, in the order :func:`strike_order` wants."""
    by_target = {o.args.target: o.id for o in options if isinstance(o.args, StrikeTarget)}
    cands = sorted((c.by_id[t] for t in by_target), key=lambda f: f.id)
    return [by_target[f.id] for f in strike_order(c, cands)]


def split_amounts(c: Ctx, ask: Allocation) -> dict[str, int]:
    """The dragon's split: fighter by fighter, in the zone's order, the dice
    :func:`split_dice` gives it; the last one takes what is left."""
    a = c.v.action
    assert a is not None
    left = a.ranged_dice
    rest = [c.by_id[q.id] for q in ask.quantities]
    amounts: dict[str, int] = {}
    while rest:
        current = rest[0]
        k = split_dice(current, rest, left)
        amounts[current.id] = k
        left -= k
        rest = rest[1:]
        if len(rest) == 1 or left == 0:
            for f in rest:
                amounts[f.id] = left if f is rest[-1] else 0
            break
    return amounts


def split_dice(current: FighterView, targets: list[FighterView], left: int) -> int:
    """Dice of the dragon's fire for ``current``: all on the best target, else just enough."""
    best = max(targets, key=lambda f: (attack_value(f, left), f.id))
    need = 0
    p = p_hit(current.defence)
    while need < left and need * p < current.hp:
        need += 1
    if best.id == current.id:
        return left
    return min(left, need) if attack_value(current, need) > attack_value(best, left) else 0


def _zone(args: Args | None) -> int:
    assert isinstance(args, Throw)
    return args.zone
