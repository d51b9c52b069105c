"""The Arena! AI: scores every whole-turn plan and plays the best one's next choice.

A plan is a posture, an action and, for a fight, a path with at most one
attack along it. Scores use exact dice odds: expected damage dealt (more
against weak fighters, much more for a knock-out), the special results'
risks (disarmed against en garde, falling when unleashed), the expected
damage the end hex and posture invite from every opponent that can reach it,
resting when safe, and getting the weapon back. Only public state is used;
ties are broken by the engine-seeded ``rnd``.
"""

from __future__ import annotations

import random
from functools import cache

from bot.engine.decisions import Decision
from bot.games.arena.args import (
    Attack,
    EndTurn,
    Fight,
    GetUp,
    PickUp,
    Rest,
    StayDown,
    Step,
    TakePosture,
)
from bot.games.arena.board import Hex, distance, paths
from bot.games.arena.postures import MAX_HP, POSTURES, damage
from bot.games.arena.view import ArenaView, FighterView, TurnView

NONE = -1e9
ATTACK_WEIGHT = 2.5
CARE = 1.0
URGENCY = 0.3
DISARM_COST = 2.5
FALL_COST = 3.0
KNOCKDOWN_BONUS = 2.5


@cache
def _dist(n: int) -> tuple[float, ...]:
    """Probability of each total of ``n`` d6 (index = total)."""
    probs = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(probs) + 6)
        for total, p in enumerate(probs):
            for face in range(1, 7):
                nxt[total + face] += p / 6
        probs = nxt
    return tuple(probs)


@cache
def odds(a: int, b: int) -> tuple[float, float, float]:
    """(hit, miss with an even defence total, miss with an odd attack total)."""
    hit = miss_even = miss_odd = 0.0
    for x, px in enumerate(_dist(a)):
        if not px:
            continue
        for y, py in enumerate(_dist(b)):
            if not py:
                continue
            p = px * py
            if x > y:
                hit += p
            else:
                if y % 2 == 0:
                    miss_even += p
                if x % 2 == 1:
                    miss_odd += p
    return hit, miss_even, miss_odd


class Planner:
    """Scores for one seat in one view; caches per hex and space of the posture track.

    A space is a posture, or "sol" for a fighter on the ground; its dice, move and
    table values come from the view (the rules computed them).
    """

    def __init__(self, view: ArenaView, turn: TurnView) -> None:
        self.view = view
        self.me = view.fighter(turn.seat)
        self.enemies = [f for f in view.fighters if f.seat != turn.seat and not f.out]
        self.blocked = set(turn.blocked)
        self.lengths = turn.lengths
        self._end: dict[tuple[Hex, str], float] = {}
        self._hex_attack: dict[tuple[Hex, str], float] = {}

    # --- attacks -----------------------------------------------------------------
    def attack_score(self, space: str, t: FighterView) -> float:
        me = self.me
        mine = me.spaces[space]
        a = mine.attack
        if a == 0:
            return NONE
        hit, miss_even, miss_odd = odds(a, t.defence)
        dmg = damage(mine.attack_value, t.spaces[t.posture].defence_value)
        weak = 1.0 + (MAX_HP - t.hp) / 4
        score = ATTACK_WEIGHT * hit * min(dmg, t.hp) * weak
        if dmg >= t.hp:
            score += hit * 8
        unleashed = space == "dechainee"
        en_garde = t.posture == "garde"
        if en_garde and not me.disarmed:
            score -= miss_even * DISARM_COST
        if unleashed:
            score -= miss_odd * FALL_COST
            if en_garde:
                # The defender always falls, but an unleashed fighter next to an
                # en-garde one risks both falling and losing its weapon: only
                # worth it against a weakened defender others can finish.
                score += KNOCKDOWN_BONUS * (1.0 if t.hp <= 3 else 0.4)
        return score

    def hex_attack(self, h: Hex, space: str) -> float:
        """Best attack from ``h`` (NONE when no opponent is adjacent)."""
        key = (h, space)
        if key not in self._hex_attack:
            best = NONE
            for t in self.enemies:
                if distance(t.pos, h) == 1:
                    best = max(best, self.attack_score(space, t))
            self._hex_attack[key] = best
        return self._hex_attack[key]

    # --- where the turn ends -----------------------------------------------------
    def end_score(self, h: Hex, space: str) -> float:
        key = (h, space)
        if key in self._end:
            return self._end[key]
        me = self.me
        dd = me.spaces[space].defence
        dv = me.spaces[space].defence_value
        threat = 0.0
        en_garde = space == "garde"
        for e in self.enemies:
            d = distance(e.pos, h)
            if e.down:
                if d == 1:
                    ground = e.spaces["sol"]
                    threat += odds(ground.attack, dd)[0] * damage(ground.attack_value, dv)
                continue
            best = 0.0
            for q in POSTURES:
                theirs = e.spaces[q]
                if theirs.move + 1 < d:
                    continue
                if theirs.attack == 0:
                    continue
                best = max(best, odds(theirs.attack, dd)[0] * damage(theirs.attack_value, dv))
                if en_garde and q == "dechainee":
                    # An unleashed attacker always knocks an en-garde defender down.
                    best += 1.2
            threat += best
        # Each opponent attacks one fighter a turn: with many around, a share of them.
        threat *= min(1.0, 2.0 / max(1, len(self.enemies)))
        # A draw after round 10 is a loss for everyone: caution fades, urgency grows.
        rnd = self.view.round
        care = (CARE + (MAX_HP - me.hp) / 6) * (1.0 - rnd / 25)
        score = -threat * care
        if threat >= me.hp * 0.75:
            score -= 1.5
        if self.enemies:
            urgency = URGENCY + 0.06 * rnd
            nearest = min(distance(e.pos, h) for e in self.enemies)
            weakest = min(self.enemies, key=lambda e: (e.hp, distance(e.pos, h)))
            score -= urgency * (nearest + distance(weakest.pos, h))
        if me.disarmed and me.weapon_at is not None:
            score += 2.5 if h == me.weapon_at else -0.4 * distance(h, me.weapon_at)
        self._end[key] = score
        return score

    # --- whole plans -------------------------------------------------------------
    def fight_value(
        self,
        start: Hex,
        space: str,
        remaining: int,
        visited: set[Hex],
        may_attack: bool,
        must_attack: bool,
    ) -> float:
        """Best path of ``remaining`` steps from ``start`` with an optional attack on it."""
        best = NONE
        blocked = self.blocked | visited
        for p in paths(start, blocked, remaining) if remaining > 0 else [[]]:
            end = p[-1] if p else start
            attack = NONE
            if may_attack:
                attack = max(self.hex_attack(h, space) for h in [start, *p])
            value = self.end_score(end, space)
            if attack > NONE:
                value += max(attack, NONE if must_attack else 0.0)
            elif must_attack:
                continue
            best = max(best, value)
        return best

    def posture_value(self, posture: str) -> float:
        """Best action once ``posture`` is taken (book "Le tour de jeu")."""
        me = self.me
        if me.down:
            return self.end_score(me.pos, posture) + 2.0
        req = self.lengths[posture]
        best = NONE
        if req > 0 or self.hex_attack(me.pos, posture) > NONE:
            best = self.fight_value(me.pos, posture, req, set(), True, req == 0)
        if me.disarmed and me.weapon_at == me.pos:
            best = max(best, self.end_score(me.pos, posture) + 3.0)
        if posture == "garde":
            best = max(best, self.rest_value())
        if best == NONE:
            best = self.end_score(me.pos, posture)
        return best

    def rest_value(self) -> float:
        me = self.me
        base = self.end_score(me.pos, "garde")
        safe = not any(
            distance(e.pos, me.pos) <= min(5, e.spaces["sol" if e.down else "dechainee"].move + 1)
            for e in self.enemies
        )
        gain = 0.0
        if me.hp < MAX_HP:
            gain = (1.0 + (MAX_HP - me.hp) / 3) if safe else 0.2
        return base + gain


def _best(scored: list[tuple[float, str]], rnd: random.Random) -> str:
    top = max(s for s, _ in scored)
    ties = [o for s, o in scored if s >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rnd.choice(ties)


def choose(view: ArenaView, decision: Decision, rnd: random.Random) -> str:
    """The AI's option id for ``decision`` (always one of its options), from the public view."""
    ids = [o.id for o in decision.options]
    turn = view.turn
    if turn is None or len(ids) == 1:
        return ids[0]
    plan = Planner(view, turn)
    me = plan.me
    scored: list[tuple[float, str]] = []
    if decision.kind == "posture":
        for opt in decision.options:
            match opt.args:
                case PickUp():
                    value = plan.end_score(me.pos, "sol") + 3.0
                case StayDown():
                    value = plan.hex_attack(me.pos, "sol") + plan.end_score(me.pos, "sol")
                case TakePosture(posture=p) | GetUp(posture=p):
                    value = plan.posture_value(p)
                case _:
                    value = NONE
            scored.append((value, opt.id))
    elif decision.kind == "action":
        posture = turn.posture or "garde"
        for opt in decision.options:
            match opt.args:
                case Fight():
                    value = plan.fight_value(
                        me.pos, posture, turn.required, set(), True, turn.required == 0
                    )
                case Rest():
                    value = plan.rest_value()
                case PickUp():
                    value = plan.end_score(me.pos, posture) + 3.0
                case _:
                    value = plan.end_score(me.pos, posture)
            scored.append((value, opt.id))
    else:
        scored = _fight_scores(plan, turn, decision)
    return _best(scored, rnd)


def _fight_scores(plan: Planner, turn: TurnView, decision: Decision) -> list[tuple[float, str]]:
    me = plan.me
    # The space it fights from: "sol" once on the ground (staying down, or fallen
    # during its own attack), else the posture taken this turn.
    space = me.posture if me.down else (turn.posture or me.posture)
    rem = turn.remaining or 0
    visited = set(turn.path)
    may_attack = not turn.attacked
    scored: list[tuple[float, str]] = []
    for opt in decision.options:
        match opt.args:
            case EndTurn():
                value = plan.end_score(me.pos, space)
            case Attack(target=target):
                value = plan.attack_score(space, plan.view.fighter(target))
                value += plan.fight_value(me.pos, space, rem, visited, False, False)
            case Step(to=nxt):
                value = plan.fight_value(nxt, space, rem - 1, visited | {nxt}, may_attack, False)
            case _:
                value = NONE
        scored.append((value, opt.id))
    return scored
