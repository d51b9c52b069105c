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
from bot.games.arena.board import Hex, distance, paths, step
from bot.games.arena.postures import (
    MAX_HP,
    POSTURES,
    attack_dice,
    attack_value,
    damage,
    defence_dice,
    defence_value,
    move_allowance,
)
from bot.games.arena.rules import (
    blocked_hexes,
    fighter,
    remaining_steps,
    required_length,
    standing_enemies,
)
from bot.games.arena.state import ArenaState, Fighter, Turn

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
    """Scores for one seat in one state; caches per hex and posture."""

    def __init__(self, state: ArenaState, seat: int) -> None:
        self.state = state
        self.me = fighter(state, seat)
        self.enemies = standing_enemies(state, seat)
        self.blocked = blocked_hexes(state, seat)
        self._end: dict[tuple[Hex, str, bool], float] = {}
        self._hex_attack: dict[tuple[Hex, str, bool], float] = {}

    # --- attacks -----------------------------------------------------------------
    def attack_score(self, posture: str, down: bool, t: Fighter) -> float:
        me = self.me
        a = attack_dice(posture, down, me.disarmed)
        if a == 0:
            return NONE
        b = defence_dice(t.posture, t.down, t.disarmed)
        hit, miss_even, miss_odd = odds(a, b)
        dmg = damage(attack_value(posture, down), defence_value(t.posture, t.down))
        weak = 1.0 + (MAX_HP - t.hp) / 4
        score = ATTACK_WEIGHT * hit * min(dmg, t.hp) * weak
        if dmg >= t.hp:
            score += hit * 8
        unleashed = not down and posture == "dechainee"
        en_garde = not t.down and t.posture == "garde"
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

    def hex_attack(self, h: Hex, posture: str, down: bool) -> float:
        """Best attack from ``h`` (NONE when no opponent is adjacent)."""
        key = (h, posture, down)
        if key not in self._hex_attack:
            best = NONE
            for t in self.enemies:
                if distance(t.pos, h) == 1:
                    best = max(best, self.attack_score(posture, down, t))
            self._hex_attack[key] = best
        return self._hex_attack[key]

    # --- where the turn ends -----------------------------------------------------
    def end_score(self, h: Hex, posture: str, down: bool = False) -> float:
        key = (h, posture, down)
        if key in self._end:
            return self._end[key]
        me = self.me
        dd = defence_dice(posture, down, me.disarmed)
        dv = defence_value(posture, down)
        threat = 0.0
        en_garde = not down and posture == "garde"
        for e in self.enemies:
            d = distance(e.pos, h)
            if e.down:
                if d == 1:
                    threat += odds(attack_dice(e.posture, True, e.disarmed), dd)[0] * damage(
                        attack_value(e.posture, True), dv
                    )
                continue
            best = 0.0
            for q in POSTURES:
                if move_allowance(q, False, e.hp) + 1 < d:
                    continue
                a = attack_dice(q, False, e.disarmed)
                if a == 0:
                    continue
                best = max(best, odds(a, dd)[0] * damage(attack_value(q, False), dv))
                if en_garde and q == "dechainee":
                    # An unleashed attacker always knocks an en-garde defender down.
                    best += 1.2
            threat += best
        # Each opponent attacks one fighter a turn: with many around, a share of them.
        threat *= min(1.0, 2.0 / max(1, len(self.enemies)))
        # A draw after round 10 is a loss for everyone: caution fades, urgency grows.
        rnd = self.state.round
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
        posture: str,
        down: bool,
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
                attack = max(self.hex_attack(h, posture, down) for h in [start, *p])
            value = self.end_score(end, posture, down)
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
        req = required_length(self.state, me.seat, posture)
        best = NONE
        if req > 0 or self.hex_attack(me.pos, posture, False) > NONE:
            best = self.fight_value(me.pos, posture, False, req, set(), True, req == 0)
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
            distance(e.pos, me.pos) <= min(5, move_allowance("dechainee", e.down, e.hp) + 1)
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


def choose(state: ArenaState, decision: Decision, rnd: random.Random) -> str:
    """The AI's option id for ``decision`` (always one of its options)."""
    ids = [o.id for o in decision.options]
    turn = state.turn
    if turn is None or len(ids) == 1:
        return ids[0]
    plan = Planner(state, decision.seat)
    me = plan.me
    scored: list[tuple[float, str]] = []
    if decision.kind == "posture":
        for oid in ids:
            if oid == "solpick":
                value = plan.end_score(me.pos, me.posture, True) + 3.0
            elif oid == "sol":
                value = plan.hex_attack(me.pos, me.posture, True) + plan.end_score(
                    me.pos, me.posture, True
                )
            else:
                value = plan.posture_value(oid)
            scored.append((value, oid))
    elif decision.kind == "action":
        posture = turn.posture or "garde"
        for oid in ids:
            if oid == "fight":
                value = plan.fight_value(
                    me.pos, posture, False, turn.required, set(), True, turn.required == 0
                )
            elif oid == "rest":
                value = plan.rest_value()
            elif oid == "pickup":
                value = plan.end_score(me.pos, posture) + 3.0
            else:
                value = plan.end_score(me.pos, posture)
            scored.append((value, oid))
    else:
        scored = _fight_scores(plan, turn, ids)
    return _best(scored, rnd)


def _fight_scores(plan: Planner, turn: Turn, ids: list[str]) -> list[tuple[float, str]]:
    me = plan.me
    posture = turn.posture or me.posture
    down = me.down
    rem = remaining_steps(turn)
    visited = set(turn.path)
    may_attack = not turn.attacked
    scored: list[tuple[float, str]] = []
    for oid in ids:
        if oid == "end":
            value = plan.end_score(me.pos, posture, down)
        elif oid.startswith("atk"):
            target = plan.state.fighters[int(oid[3:])]
            value = plan.attack_score(posture, down, target)
            value += plan.fight_value(me.pos, posture, down, rem, visited, False, False)
        else:
            nxt = step(me.pos, oid)
            value = plan.fight_value(
                nxt, posture, down, rem - 1, visited | {nxt}, may_attack, False
            )
        scored.append((value, oid))
    return scored
