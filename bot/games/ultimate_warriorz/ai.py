"""The Ultimate Warriorz AI, from one seat's view only.

``easy`` plays a random legal option (never wasting its lucky charm);
``medium`` picks cards by the dice and defence they give now, keeps its
specials for their moment, attacks opponents first (the first-wound token, a
kill's trophy, and no stones when its own HP are low), walks towards targets
its obliged attacks can reach, uses the charm against heavy rolls, and
reassigns the strike's missed dice where they wound; ``hard`` (the default)
also picks its card for the board as it is and plans its path before each
owed attack (:mod:`ai_plan`).

On a human seat's expired charm question the answer is always "no"
(issue 12: a deadline means the charm is kept).
"""

from __future__ import annotations

import random

from pydantic import BaseModel

from bot.engine.decisions import Allocation, Decision, Many
from bot.engine.game import Reply
from bot.games.ultimate_warriorz import ai_plan
from bot.games.ultimate_warriorz.args import (
    Attack,
    CharmFlip,
    CharmNo,
    CharmReroll,
    Die,
    DoubleShot,
    GiveSkull,
    Keg,
    Lot,
    Move,
    PickCard,
    Place,
)
from bot.games.ultimate_warriorz.view import CardView, FighterView, UWView

EASY = "easy"
MEDIUM = "medium"
HARD = "hard"
LEVELS = (EASY, MEDIUM, HARD)
"""Level ids, weakest first; any other id plays ``hard``."""


def choose(
    view: UWView,
    decision: Decision,
    rnd: random.Random,
    level: str | None,
    human: bool,
    charm_dice: list[int],
    charm_defence: int,
    charm_modifier: int,
    strike: list[StrikeSlot],
) -> Reply:
    if decision.kind == "charm":
        if human:
            return _first(decision, CharmNo)
        return _charm(decision, charm_dice, charm_defence, charm_modifier, level, view)
    if decision.kind == "charm-dice":
        return _reroll_dice(decision, charm_dice, charm_defence, charm_modifier)
    if decision.kind == "strike":
        return _strike(decision, strike)
    if isinstance(decision.ask, Many):
        return [o.id for o in decision.options[: max(1, decision.ask.min)]]
    if level == EASY:
        return rnd.choice(decision.options).id
    me = _me(view, decision)
    strong = level != MEDIUM
    if decision.kind == "pick" and me is not None:
        if strong and me.zone is not None:
            return _pick_hard(view, me, decision, rnd)
        return _pick(view, me, decision, rnd)
    if decision.kind == "action" and me is not None:
        if strong:
            return _act_hard(view, me, decision, rnd)
        return _act(view, me, decision, rnd)
    if decision.kind == "draft":
        return rnd.choice([o.id for o in decision.options if isinstance(o.args, Lot)])
    if decision.kind == "place":
        return _place(view, decision, rnd)
    return rnd.choice(decision.options).id


def _first(decision: Decision, kind: type) -> str:
    for o in decision.options:
        if isinstance(o.args, kind):
            return o.id
    return decision.options[0].id


def _me(view: UWView, decision: Decision) -> FighterView | None:
    fid = getattr(decision.args, "fighter", None)
    for f in view.fighters:
        if f.id == fid:
            return f
    return None


def _fighter(view: UWView, fid: str) -> FighterView:
    return next(f for f in view.fighters if f.id == fid)


def _enemy(me: FighterView, other: FighterView) -> bool:
    return me.team != other.team


def _p_hit(defence: int, modifier: int = 0) -> float:
    """Chance that one die (plus ``modifier``) meets ``defence``."""
    need = defence - modifier
    return max(0.0, min(1.0, (7 - need) / 6))


# --- cards ---------------------------------------------------------------------------------
def _card_value(view: UWView, me: FighterView, c: CardView) -> float:
    def dice(s: str) -> float:
        if "x" in s:
            a, b = s.split("x")
            return float(a) * float(b)
        if "-" in s:
            return 3.5
        return float(sum(int(p) for p in s.split("+")))

    value = dice(c.melee_now) * 0.9 + dice(c.ranged_now) * 0.8 + c.defence * 0.6 + c.move * 0.3
    value += c.initiative * 0.15
    if c.special == "kamikaze":
        value += 1.0 if me.hp <= 3 else -2.0
    if c.special == "terminotaure":
        value += -3.0 if view.round < 4 else 1.0
    if c.special in ("ghost-ring", "calumet", "light-suit", "spear-whirl", "energy-armour"):
        value += 1.0
    return value


def _pick(view: UWView, me: FighterView, decision: Decision, rnd: random.Random) -> str:
    hand = {c.id: c for c in me.hand or []}
    scored = []
    for o in decision.options:
        if isinstance(o.args, PickCard) and o.args.card in hand:
            scored.append((_card_value(view, me, hand[o.args.card]) + rnd.random() * 0.8, o.id))
    return max(scored)[1] if scored else decision.options[0].id


# --- actions -------------------------------------------------------------------------------
def _attack_value(
    view: UWView, me: FighterView, target: FighterView, dice: float, far: bool
) -> float:
    if not _enemy(me, target):
        return -10.0
    expected = dice * _p_hit(target.defence_now, -1 if far else 0)
    value = expected
    if target.first_wound:
        value += 2.0 * min(1.0, expected)
    if expected >= target.hp:
        value += 2.0
        if view.stones_now and me.hp <= view.stones_now:
            value -= 3.0
    return value


def _act(view: UWView, me: FighterView, decision: Decision, rnd: random.Random) -> str:
    best: tuple[float, str] | None = None
    action = view.action
    for o in decision.options:
        a = o.args
        score = rnd.random() * 0.1
        if isinstance(a, Attack):
            t = _fighter(view, a.target)
            dice = o.stats.get("dice", 2)
            n = 3.5 if isinstance(dice, str) else float(dice)
            far = (
                me.zone is not None
                and t.zone is not None
                and view.distances[f"{me.zone}-{t.zone}"] == 2
            )
            score += 1.0 + _attack_value(view, me, t, n, far)
        elif isinstance(a, Keg):
            hit = [f for f in view.fighters if f.alive and f.zone == a.zone]
            far = me.zone is not None and view.distances[f"{me.zone}-{a.zone}"] == 2
            score += 1.0 + sum(_attack_value(view, me, t, 3, far) for t in hit)
        elif isinstance(a, DoubleShot):
            dice = o.stats.get("dice", 2)
            n = float(dice) if not isinstance(dice, str) else 2.0
            score += 1.0
            for tid in a.targets:
                t = _fighter(view, tid)
                far = (
                    me.zone is not None
                    and t.zone is not None
                    and view.distances[f"{me.zone}-{t.zone}"] == 2
                )
                score += _attack_value(view, me, t, n, far)
        elif isinstance(a, GiveSkull):
            t = _fighter(view, a.target)
            score += 2.0 + (1.0 if not t.acted else 0.0)
        elif isinstance(a, Move) and action is not None:
            score += _zone_value(view, me, a.zone, action.obligations)
        if best is None or score > best[0]:
            best = (score, o.id)
    assert best is not None
    return best[1]


def _pick_hard(view: UWView, me: FighterView, decision: Decision, rnd: random.Random) -> str:
    hand = {c.id: c for c in me.hand or []}
    scored = []
    for o in decision.options:
        if isinstance(o.args, PickCard) and o.args.card in hand:
            score = ai_plan.card_score(view, me, hand[o.args.card]) + rnd.random() * 0.2
            scored.append((score, o.id))
    return max(scored)[1] if scored else decision.options[0].id


def _distance(view: UWView, me: FighterView, t: FighterView) -> int:
    if me.zone is None or t.zone is None:
        return 1
    return view.distances[f"{me.zone}-{t.zone}"]


def _act_hard(view: UWView, me: FighterView, decision: Decision, rnd: random.Random) -> str:
    """Walk the planned path until an owed attack is best made from here, then make the
    attack worth most (ai_plan)."""
    action = view.action
    attacks = [
        o for o in decision.options if isinstance(o.args, Attack | Keg | DoubleShot | GiveSkull)
    ]
    if action is not None and action.moves_left > 0 and me.zone is not None:
        path, now = ai_plan.plan(view, me, action)
        if not (now and attacks) and len(path) > 1:
            for o in decision.options:
                if isinstance(o.args, Move) and o.args.zone == path[1]:
                    return o.id
    best: tuple[float, str] | None = None
    for o in decision.options:
        a = o.args
        score = rnd.random() * 0.05
        if isinstance(a, Attack):
            t = _fighter(view, a.target)
            dice = o.stats.get("dice", 2)
            n = 3.5 if isinstance(dice, str) else float(dice)
            score += 1.0 + ai_plan.attack_value(view, me, t, n, _distance(view, me, t))
        elif isinstance(a, Keg):
            hit = [f for f in view.fighters if f.alive and f.zone == a.zone and f.id != me.id]
            d = view.distances[f"{me.zone}-{a.zone}"] if me.zone is not None else 1
            score += 1.0 + sum(ai_plan.attack_value(view, me, t, 3, d) for t in hit)
        elif isinstance(a, DoubleShot):
            dice = o.stats.get("dice", 2)
            n = float(dice) if not isinstance(dice, str) else 2.0
            score += 1.0 + sum(
                ai_plan.attack_value(view, me, t, n, _distance(view, me, t))
                for t in (_fighter(view, tid) for tid in a.targets)
            )
        elif isinstance(a, GiveSkull):
            t = _fighter(view, a.target)
            score += 2.0 + (1.0 if not t.acted else 0.0) + 0.1 * t.pp
        elif isinstance(a, Move) and action is not None:
            score += _zone_value(view, me, a.zone, action.obligations)
            score -= ai_plan.danger(view, me, a.zone)
        if best is None or score > best[0]:
            best = (score, o.id)
    assert best is not None
    return best[1]


def _zone_value(view: UWView, me: FighterView, zone: int, obligations: list) -> float:
    """How good a zone is for the attacks still owed (targets there and around)."""
    value = 0.0
    for o in obligations:
        if o.done:
            continue
        for t in view.fighters:
            if not t.alive or t.id == me.id or t.zone is None:
                continue
            d = view.distances[f"{zone}-{t.zone}"]
            good = 1.0 if _enemy(me, t) else -1.0
            if o.kind == "melee" and d == 0:
                value += good * 0.8
            elif o.kind == "ranged" and d == 1:
                value += good * 0.7
            elif o.kind == "ranged" and d == 2:
                value += good * 0.4
    # Danger: enemies in the zone itself.
    value -= 0.1 * sum(1 for t in view.fighters if t.alive and t.zone == zone and _enemy(me, t))
    return value


def _place(view: UWView, decision: Decision, rnd: random.Random) -> str:
    return rnd.choice(
        [o.id for o in decision.options if isinstance(o.args, Place)] or [decision.options[0].id]
    )


# --- lucky charm ------------------------------------------------------------------------------
def _hits(dice: list[int], defence: int, modifier: int) -> int:
    return sum(1 for d in dice if d + modifier >= defence)


def _charm(
    decision: Decision,
    dice: list[int],
    defence: int,
    modifier: int,
    level: str | None,
    view: UWView,
) -> str:
    hits = _hits(dice, defence, modifier)
    if level == EASY or hits == 0:
        return _first(decision, CharmNo)
    me = _me(view, decision)
    hp = me.hp if me is not None else 99
    if hits >= 3:
        return _first(decision, CharmReroll)
    # Flip the die whose flip saves the most.
    best = None
    for o in decision.options:
        if isinstance(o.args, CharmFlip):
            d = dice[o.args.die]
            gain = (1 if d + modifier >= defence else 0) - (1 if 7 - d + modifier >= defence else 0)
            if best is None or gain > best[0]:
                best = (gain, o.id)
    if (
        best is not None
        and best[0] > 0
        and (hits >= 2 or hits >= hp or (me is not None and me.first_wound))
    ):
        return best[1]
    return _first(decision, CharmNo)


def _reroll_dice(decision: Decision, dice: list[int], defence: int, modifier: int) -> list[str]:
    ranked = sorted(
        (o for o in decision.options if isinstance(o.args, Die)),
        key=lambda o: -dice[o.args.die] if isinstance(o.args, Die) else 0,
    )
    cap = decision.ask.max if isinstance(decision.ask, Many) and decision.ask.max else 3
    wanted = [
        o.id for o in ranked if isinstance(o.args, Die) and dice[o.args.die] + modifier >= defence
    ]
    return (wanted or [ranked[0].id])[:cap]


# --- strike ---------------------------------------------------------------------------------
class StrikeSlot(BaseModel):
    """One quantity of the strike: die ``die`` (value after modifiers) to fighter ``target``."""

    qid: str
    die: int
    value: int
    target: str
    defence: int
    enemy: bool
    misses_primary: bool


def _strike(decision: Decision, slots: list[StrikeSlot]) -> dict[str, int]:
    """Give each die that misses the main target to an opponent it wounds (one die each)."""
    ask = decision.ask
    assert isinstance(ask, Allocation)
    amounts = {q.id: 0 for q in ask.quantities}
    used_dice: set[int] = set()
    used_targets: set[str] = set()
    for s in sorted(slots, key=lambda s: (-s.value, s.defence)):
        if s.die in used_dice or s.target in used_targets:
            continue
        if not (s.enemy and s.misses_primary and s.value >= s.defence):
            continue
        amounts[s.qid] = 1
        used_dice.add(s.die)
        used_targets.add(s.target)
    return amounts
