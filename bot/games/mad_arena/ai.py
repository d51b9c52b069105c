"""The Mad Arena AI: expected-damage planning over what the seat's view shows.

It only reads ``view(state, seat)`` (its own hand and pick, public cards in
play, HP, zones) and the public card file, never another seat's secret pick,
and answers with the typed arguments of an offered option (never by building
or parsing an id). It prefers killing blows (trophies) and keeps team mates out
of zone attacks. Its secret move is planned with the refill rule (§2.2: the
card is out of the hand by the end of the first hand at the latest) and picked
only when a target is very likely to be in reach when the fighter acts
(:mod:`ai_foresight`). The level (:mod:`ai_levels`) sets how far it looks.
Deterministic given ``rnd``.
"""

from __future__ import annotations

import random
from functools import lru_cache

from bot.engine.decisions import Allocation, Args, Decision, Option, Order
from bot.engine.game import Reply
from bot.games.mad_arena.ai_foresight import (
    Spots,
    acts_before,
    candidates,
    card_initiative,
    spots,
    threat,
)
from bot.games.mad_arena.ai_levels import Style, style
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
from bot.games.mad_arena.cards import CardSet
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


MELEE_SECRETS = ("kamikaze", "terminotaure", "finishing")
ZONE_SECRETS = ("powder-keg", "strike")
SURE = 0.96
"""A secret move is picked freely only when a target is in reach with at least this chance."""
LIKELY = 0.8
"""... and when one target alone is in reach with at least this chance."""
KEEP = 50.0
"""Penalty that keeps the secret card in hand (larger than any level's random spread)."""
USE_IT = 1.0
"""Bonus of a secret attack once its card is in play: not firing it throws it away."""


class Ctx:
    """Read-only helpers over one seat's view."""

    def __init__(
        self,
        view: MAView,
        me_id: str,
        level: Style | None = None,
        cards: CardSet | None = None,
        rnd: random.Random | None = None,
    ) -> None:
        self.v = view
        self.n = len(view.zones)
        self.centre = view.centre
        self.by_id = {f.id: f for f in view.fighters}
        self.me = self.by_id[me_id]
        self.style = level or style(None)
        self.cards = cards
        self.rnd = rnd
        self._aim: dict[str, float] = {}
        self.presence: dict[str, Spots] | None = None
        """Where each other fighter is likely to be when ``me`` acts (None: where it is)."""
        self.my_defence = self.me.defence
        """The defence ``me`` will have after acting (the card being weighed)."""
        self.after: dict[str, float] = {}
        """Chance each other fighter acts after ``me`` this round."""
        self._danger: dict[int, float] = {}

    def hit_value(self, t: FighterView, dice: int, modifier: int = 0) -> float:
        """:func:`attack_value` as this level sees it: the hard level also counts the
        trophies a kill would take (§3: the victim's trophies go to its eliminator);
        the easy level's aim wanders (a fixed random factor per target and decision)."""
        v = attack_value(t, dice, modifier)
        st = self.style
        if st.spoils and v > 0:
            e = dice * p_hit(t.defence, modifier)
            if e >= t.hp - 0.25:
                v += (t.size + t.trophy_points) / 6
        if st.aim > 0 and v > 0:
            if t.id not in self._aim:
                self._aim[t.id] = self.rnd.random() if self.rnd else 0.5
            v *= 1 + st.aim * (self._aim[t.id] - 0.5)
        return v

    def spots(self, f: FighterView) -> Spots:
        if self.presence is None:
            return [(f.zone, 1.0)]
        return self.presence.get(f.id, [(f.zone, 1.0)])

    def near(self, zone: int) -> list[tuple[FighterView, float]]:
        """The other fighters likely on ``zone`` when ``me`` acts, with that chance."""
        out: list[tuple[FighterView, float]] = []
        for f in self.alive():
            if f.id == self.me.id:
                continue
            for z, p in self.spots(f):
                if z == zone and p > 0:
                    out.append((f, p))
        return out

    def foresee(self, my_init: int | None) -> None:
        """Fill ``presence`` and ``after`` for ``me`` acting at ``my_init`` (None: now)."""
        self._danger = {}
        if my_init is None or self.cards is None:
            self.presence = None
            self.after = {f.id: 0.0 if f.acted else 1.0 for f in self.alive()}
            return
        gong = 3 if self.v.gong_colour == "blue" else 4
        self.presence = {}
        self.after = {}
        for f in self.alive():
            if f.id == self.me.id:
                continue
            self.presence[f.id] = spots(self.cards, f, self.me, my_init, self.n, gong, self.v.phase)
            cands = candidates(self.cards, f)
            later = sum(
                1
                for card in cands
                if not acts_before(f, card_initiative(card, f.netted, gong), self.me, my_init)
            )
            self.after[f.id] = later / len(cands)

    def danger(self, zone: int) -> float:
        """Expected wounds ``me`` risks ending on ``zone``: this round after it acts, and
        (half weight) from those acting before it next round."""
        if zone in self._danger:
            return self._danger[zone]
        total = 0.0
        if self.cards is not None:
            for e in self.enemies():
                after = self.after.get(e.id, 1.0)
                weight = after + 0.5 * (1 - after)
                total += threat(self.cards, e, zone, self.my_defence, self.n, weight)
        self._danger[zone] = total
        return total

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


def zone_value(c: Ctx, zone: int, dice: int, kind: str | None, mates: float = 2.0) -> float:
    """Value of a zone attack (keg, strike or the dragon's fire); team mates count against
    it, ``mates`` times over (once only when the secret card in play is lost otherwise).

    Each fighter counts with its chance of standing there when the attacker acts."""
    total = 0.0
    here = c.near(zone)
    if kind == "strike":
        order = sorted(here, key=lambda fp: (not c.is_enemy(fp[0]), -fp[0].defence))
        left = float(dice)
        for f, chance in order:
            p = p_hit(f.defence)
            e = left * p * chance
            val = c.hit_value(f, max(1, round(left)), 0) * chance * p if left > 0 else 0
            total += val if c.is_enemy(f) else -mates * e
            left -= e
        return total
    for f, chance in here:
        val = c.hit_value(f, dice) * chance
        total += val if c.is_enemy(f) else -mates * val
    return total


def strike_order(c: Ctx, fighters: list[FighterView]) -> list[FighterView]:
    """Baobab's strike order: adversaries first, the hardest to wound first, then the weakest."""
    return sorted(fighters, key=lambda f: (not c.is_enemy(f), -f.defence, f.hp))


def in_reach(c: Ctx, zone: int, kind: str, t: FighterView) -> float:
    """Chance that ``t`` is where an attack of ``kind`` from ``zone`` reaches it."""
    return sum(
        p for z, p in c.spots(t) if (z == zone if kind == "melee" else z in adjacent(zone, c.n))
    )


def fighter_attack(
    c: Ctx, zone: int, kind: str, dice: int, secret: str | None
) -> tuple[float, Args | None]:
    """Best single-target attack from ``zone``: (value, the attack)."""
    best: tuple[float, Args | None] = (0.0, None)
    if dice <= 0:
        return best
    for t in c.enemies():
        chance = in_reach(c, zone, kind, t)
        if chance <= 0:
            continue
        if secret == "net":
            p = p_sum_at_least(dice, t.size)
            val = p * (1.2 + (2 if t.hp <= 1 else 0)) + 0.3 if p > 0 else 0.0
        elif secret == "finishing":
            mod = finishing_bonus(t.hp)
            val = c.hit_value(t, dice, mod) + (
                1.0 if mod > 0 and dice * p_hit(t.defence, 1) >= t.hp - 0.3 else 0
            )
        else:
            val = c.hit_value(t, dice)
        val *= chance
        if val > best[0]:
            best = (val, Melee(target=t.id) if kind == "melee" else Ranged(target=t.id))
    return best


def ranged_best(
    c: Ctx, zone: int, dice: int, secret: str | None, use_it: bool = False
) -> tuple[float, Args | None]:
    if secret in ZONE_SECRETS:
        best: tuple[float, Args | None] = (0.0, None)
        for z in adjacent(zone, c.n):
            if c.near(z):
                val = zone_value(c, z, dice, secret, 1.0 if use_it else 2.0)
                if val > best[0]:
                    best = (val, ZoneAttack(zone=z))
        return best
    return fighter_attack(c, zone, "ranged", dice, secret)


def position_value(c: Ctx, zone: int) -> float:
    """Where the action ends: the centre in the last rounds (+3 points after round 12),
    and (by level) the wounds risked there, a likely elimination most of all."""
    v = 0.0
    st = c.style
    if st.endgame and zone == c.centre and c.late():
        v += 1.5 if c.v.round < c.v.last_round else 3.0
    if st.caution <= 0:
        return v
    hp = c.me.hp
    wounded = 1 + (c.me.max_hp - hp) / max(1, c.me.max_hp)
    if not st.foresight or c.cards is None:
        threat_n = sum(1 for e in c.enemies() if e.zone == zone or e.zone in adjacent(zone, c.n))
        return v - threat_n * st.caution * wounded
    risk = c.danger(zone)
    v -= st.caution * risk * wounded
    if risk >= hp - 0.5:
        v -= st.caution * (2 + c.me.size / 4)
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
    use_it: bool = False,
) -> tuple[float, Args]:
    """The best sequence of moves and attacks; returns (value, its first step).

    ``use_it``: the secret card is in play, so its attack gets :data:`USE_IT`."""
    best_val = -1e9
    best_first: Args = End()
    route_list = [[zone]] if netted else paths(c, zone, start, total, left, round_start)
    for route in route_list:
        m_best: tuple[float, Args | None, int] = (0.0, None, 0)
        r_best: tuple[float, Args | None, int] = (0.0, None, 0)
        for i, z in enumerate(route):
            mv, mid = fighter_attack(c, z, "melee", melee, secret)
            if mid is not None and secret in MELEE_SECRETS and use_it:
                mv += USE_IT
            if mid is not None and mv > m_best[0]:
                m_best = (mv, mid, i)
            rv, rid = ranged_best(c, z, ranged, secret, use_it)
            if rid is not None and secret not in MELEE_SECRETS and secret and use_it:
                rv += USE_IT
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


def reach_zones(c: Ctx, card: CardView, kind: str) -> set[int]:
    """Zones where ``card``'s attack of ``kind`` may land this round, over its legal routes."""
    zone = c.me.zone
    routes = [[zone]] if c.me.netted else paths(c, zone, zone, card.move_now, card.move_now, zone)
    walked = {z for r in routes for z in r}
    if kind == "melee":
        return walked
    return {a for z in walked for a in adjacent(z, c.n)}


def fire_chance(c: Ctx, card: CardView) -> float:
    """Chance that the secret move of ``card`` has a target when the fighter acts.

    ``c.presence`` must be set for the card's initiative. A target counts only if
    the attack can do something to it (dice left after the net, a finishing die
    that can succeed, a net sum that can reach its size)."""
    secret = card.secret
    melee = secret in MELEE_SECRETS
    dice = card.melee_now if melee else card.ranged_now
    if dice <= 0:
        return 0.0
    reach = reach_zones(c, card, "melee" if melee else "ranged")
    if secret in ZONE_SECRETS:
        return zone_fire_chance(c, reach)
    none = 1.0
    best = 0.0
    for t in c.enemies():
        if secret == "finishing" and p_hit(t.defence, finishing_bonus(t.hp)) <= 0:
            continue
        if secret == "net" and p_sum_at_least(dice, t.size) <= 0:
            continue
        here = min(1.0, sum(p for z, p in c.spots(t) if z in reach)) * survival(c, t)
        best = max(best, here)
        none *= 1 - here
    # The others' moves are not independent (they chase the same targets): one target
    # must be likely on its own.
    return min(1 - none, best / LIKELY)


def survival(c: Ctx, t: FighterView) -> float:
    """Chance that ``t`` is still standing when ``me`` acts: the weaker it is, and the more
    of its adversaries act before ``me``, the likelier someone else finishes it first."""
    before = sum(
        1 - c.after.get(o.id, 1.0)
        for o in c.alive()
        if o.id not in (c.me.id, t.id) and o.team != t.team
    )
    return 1 - min(0.9, before * 0.5 / max(1, t.hp) ** 2)


def zone_fire_chance(c: Ctx, reach: set[int]) -> float:
    """Chance that some zone in ``reach`` holds an adversary and no team mate."""
    none = 1.0
    for z in reach:
        enemy = 1.0
        mate = 1.0
        for f, p in c.near(z):
            if c.is_enemy(f):
                enemy *= 1 - p * survival(c, f)
            else:
                mate *= 1 - p
        none *= 1 - (1 - enemy) * mate
    return 1 - none


def secret_plan(c: Ctx, card: CardView, hand: list[CardView], value: float) -> float:
    """When to play the secret move (Bottes secrètes, with the refill rule of §2.2).

    The card cannot outlive the first hand: an empty hand takes back the discard
    but never a used secret move, and the secret card is the last one left at
    the latest, then played by force. So it is kept while other cards remain,
    and played freely only when a target is very likely to be in reach (``SURE``)
    and the blow is worth it. While two or more other cards remain it is also
    discounted a little: a better moment may still come before it is forced."""
    others = len(hand) - 1
    if others == 0:
        return value
    chance = fire_chance(c, card)
    if chance < SURE or value < 0.6:
        return value - KEEP
    return value * (1.0 if others <= 1 else 0.85)


def pick_card(c: Ctx, hand: list[CardView], rnd: random.Random) -> str:
    """The card whose best plan is worth most this round (the net's -1 is in ``*_now``)."""
    zone = c.me.zone
    netted = c.me.netted
    best: tuple[float, str] = (-1e9, hand[0].id)
    st = c.style
    for card in hand:
        move = card.move_now
        my_init = max(1, card.initiative - (1 if netted else 0))
        c.foresee(my_init)
        if not st.foresight and card.secret is None:
            c.presence = None
        c.my_defence = int(card.stats["defence"])
        val, _ = best_plan(
            c, zone, zone, move, move, card.melee_now, card.ranged_now, card.secret, netted
        )
        if card.secret is not None:
            c.foresee(my_init)
            val = secret_plan(c, card, hand, val)
        hp_frac = c.me.hp / max(1, c.me.max_hp)
        if not st.foresight:
            val += (int(card.stats["defence"]) - 4) * (0.6 - 0.4 * hp_frac) * st.defence
        val += int(card.stats["initiative"]) * 0.08
        val += rnd.random() * st.noise
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


def choose(
    view: MAView,
    decision: Decision,
    rnd: random.Random,
    level: str | None = None,
    cards: CardSet | None = None,
) -> Reply:
    """The answer to ``decision``, chosen from ``view`` (its seat's view) at ``level``.

    ``cards``: the public card file, to foresee which cards the others may play."""
    about = decision.args
    assert isinstance(about, ForFighter), decision.key
    c = Ctx(view, about.fighter, style(level), cards, rnd)
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
    c.foresee(None)
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
        use_it=card.secret is not None,
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
