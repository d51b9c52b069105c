"""The Arena! AI: scores every whole-turn plan and plays the best one's next choice.

A plan is a posture, an action and, for a fight, a path with at most one
attack along it. Scores use exact dice odds: expected damage dealt (more
against weak fighters, much more for a knock-out), the special results'
risks (disarmed against en garde, falling when unleashed), the expected
damage the end hex and posture invite from every opponent that can reach it
(a path on the board, not a distance), resting when safe, and getting the
weapon back. Only public state is used; ties are broken by the engine-seeded
``rnd``, so a seed gives the same play.

Three levels (:data:`LEVELS`). Every level avoids the mistakes players noticed
(issue 14): it never attacks an en-garde defender while unleashed unless the
blow can knock it out, never rests where an opponent can reach it, and never
ends its turn unleashed at 3 HP or less next to an opponent unless its attack
can knock one out. ``hard`` picks its posture against each opponent's best
answer: for every posture the opponent could take next, what it would gain on
this fighter, what it risks (being disarmed by an en-garde defender, falling
when unleashed) and how exposed it would be to the counter-attack; the threat
is the wound of the answer the opponent would prefer. ``medium`` assumes the
opponent simply picks the most damaging posture, and ``easy`` also cares less
about the threat and plays with noise.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from functools import cache

from bot.engine.decisions import Decision
from bot.games.arena.args import (
    Attack,
    EndTurn,
    Fight,
    GetUp,
    Move,
    PickUp,
    Rest,
    StayDown,
    Step,
    TakePosture,
)
from bot.games.arena.board import Hex, distance, neighbours, paths
from bot.games.arena.postures import HANDICAP_HP, MAX_HP, POSTURES, damage
from bot.games.arena.view import ArenaView, FighterView, TurnView

NONE = -1e9
"""No such plan (an attack that may not or should not be made)."""
FORBID = 1e5
"""Subtracted from a plan that makes one of the known mistakes: chosen only when
every other plan makes one too."""
ATTACK_WEIGHT = 2.5
URGENCY = 0.3
DISARM_COST = 2.5
FALL_COST = 3.0
KNOCKED_DOWN_COST = 1.2
TIE = 1e-6
"""Between plans worth the same, the one finished in fewer answers."""
EXPOSURE = 0.5
"""How much an opponent weighs the counter-attack its posture invites (``hard``)."""


@dataclass(frozen=True)
class Level:
    """How one AI level plays."""

    noise: float
    """Standard deviation of the noise added to each option's score."""
    slips: float
    """Chance of playing any sensible option (no known mistake) instead of the best."""
    care: float
    """Weight of the wounds the end hex and posture invite."""
    answers: bool
    """Whether each opponent's posture answer is its own best one (else the most damaging)."""


LEVELS: dict[str, Level] = {
    "hard": Level(noise=0.0, slips=0.0, care=1.0, answers=True),
    "medium": Level(noise=0.0, slips=0.1, care=1.0, answers=False),
    "easy": Level(noise=1.5, slips=0.4, care=0.4, answers=False),
}
DEFAULT_LEVEL = "hard"


def level_of(name: str | None) -> Level:
    """The level named ``name``; the default for none. ``normal`` (the single level
    of older lobbies) plays as ``medium``, which is what it was."""
    if name == "normal":
        return LEVELS["medium"]
    return LEVELS.get(name or DEFAULT_LEVEL, LEVELS[DEFAULT_LEVEL])


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

    def __init__(self, view: ArenaView, turn: TurnView, level: Level) -> None:
        self.view = view
        self.level = level
        self.me = view.fighter(turn.seat)
        self.enemies = [f for f in view.fighters if f.seat != turn.seat and not f.out]
        self.blocked = set(turn.blocked)
        self.lengths = turn.lengths
        self._end: dict[tuple[Hex, str], float] = {}
        self._hex_attack: dict[tuple[Hex, str, bool], float] = {}
        self._reach: dict[tuple[int, Hex], int] = {}

    # --- attacks -----------------------------------------------------------------
    def decisive(self, space: str, t: FighterView) -> bool:
        """A hit from ``space`` would knock ``t`` out."""
        mine = self.me.spaces[space]
        return (
            mine.attack > 0 and damage(mine.attack_value, t.spaces[t.posture].defence_value) >= t.hp
        )

    def attack_score(self, space: str, t: FighterView) -> float:
        """Expected worth of attacking ``t`` from ``space``; NONE when not worth making.

        Issue 14: an unleashed attack on an en-garde defender is never made unless
        the blow can knock it out (the attacker risks falling and its weapon for a
        wound of 1).
        """
        me = self.me
        mine = me.spaces[space]
        a = mine.attack
        if a == 0:
            return NONE
        unleashed = space == "dechainee"
        en_garde = t.posture == "garde"
        if unleashed and en_garde and not self.decisive(space, t):
            return NONE
        hit, miss_even, miss_odd = odds(a, t.defence)
        dmg = damage(mine.attack_value, t.spaces[t.posture].defence_value)
        weak = 1.0 + (MAX_HP - t.hp) / 4
        score = ATTACK_WEIGHT * hit * min(dmg, t.hp) * weak
        if dmg >= t.hp:
            score += hit * 8
        if en_garde and not me.disarmed:
            score -= miss_even * DISARM_COST
        if unleashed:
            score -= miss_odd * FALL_COST
        return score

    def hex_attack(self, h: Hex, space: str, decisive_only: bool = False) -> float:
        """Best attack from ``h`` (NONE when no opponent there is worth attacking)."""
        key = (h, space, decisive_only)
        if key not in self._hex_attack:
            best = NONE
            for t in self.enemies:
                if distance(t.pos, h) == 1 and (not decisive_only or self.decisive(space, t)):
                    best = max(best, self.attack_score(space, t))
            self._hex_attack[key] = best
        return self._hex_attack[key]

    # --- who can reach a hex -------------------------------------------------------
    def steps_to_reach(self, e: FighterView, h: Hex) -> int:
        """Hexes ``e`` must cross to stand next to this fighter if it ends on ``h``
        (every other pawn blocks, knocked-out ones included); 99 when it cannot."""
        key = (e.seat, h)
        if key in self._reach:
            return self._reach[key]
        if distance(e.pos, h) == 1:
            self._reach[key] = 0
            return 0
        blocked = {f.pos for f in self.view.fighters if f.seat not in (e.seat, self.me.seat)}
        blocked.add(h)
        goal = {n for n in neighbours(h) if n not in blocked}
        seen = {e.pos}
        queue = deque([(e.pos, 0)])
        found = 99
        while queue:
            pos, d = queue.popleft()
            if pos in goal:
                found = d
                break
            if d >= 4:
                continue
            for n in neighbours(pos):
                if n not in seen and n not in blocked:
                    seen.add(n)
                    queue.append((n, d + 1))
        self._reach[key] = found
        return found

    def answers(self, e: FighterView, h: Hex) -> list[str]:
        """The spaces ``e`` could attack this fighter from on its next turn, were it on ``h``."""
        steps = self.steps_to_reach(e, h)
        if e.down:
            return ["sol"] if steps == 0 else []
        return [q for q in POSTURES if e.spaces[q].attack > 0 and e.spaces[q].move >= steps]

    def reachable(self, h: Hex) -> bool:
        return any(self.answers(e, h) for e in self.enemies)

    # --- where the turn ends -----------------------------------------------------
    def threat(self, e: FighterView, h: Hex, space: str) -> float:
        """Expected wound ``e`` deals this fighter on ``h`` in ``space`` on its next turn."""
        me = self.me
        dd = me.spaces[space].defence
        dv = me.spaces[space].defence_value
        en_garde = space == "garde"
        best_value, best_threat = NONE, 0.0
        for q in self.answers(e, h):
            theirs = e.spaces[q]
            hit, miss_even, miss_odd = odds(theirs.attack, dd)
            dmg = damage(theirs.attack_value, dv)
            threat = hit * dmg
            if en_garde and q == "dechainee":
                threat += KNOCKED_DOWN_COST  # an unleashed attacker always knocks it down
            if not self.level.answers:
                best_threat = max(best_threat, threat)
                continue
            # The opponent's own view of this answer: what it gains, what it risks,
            # and the counter-attack its posture invites.
            gain = hit * min(dmg, me.hp) + (hit * 3 if dmg >= me.hp else 0.0)
            if en_garde and not e.disarmed:
                gain -= miss_even * DISARM_COST
            if q == "dechainee":
                gain -= miss_odd * FALL_COST
                if en_garde:
                    gain += 1.0
            gain -= EXPOSURE * self.counter(q, e)
            if gain > best_value:
                best_value, best_threat = gain, threat
        return best_threat

    def counter(self, q: str, e: FighterView) -> float:
        """This fighter's best expected wound on ``e`` standing in ``q`` next turn."""
        best = 0.0
        theirs = e.spaces[q]
        for p in POSTURES:
            mine = self.me.spaces[p]
            if mine.attack == 0:
                continue
            hit = odds(mine.attack, theirs.defence)[0]
            best = max(best, hit * damage(mine.attack_value, theirs.defence_value))
        return best

    def end_score(self, h: Hex, space: str) -> float:
        key = (h, space)
        if key in self._end:
            return self._end[key]
        me = self.me
        threat = sum(self.threat(e, h, space) for e in self.enemies)
        # Each opponent attacks one fighter a turn: with many around, a share of them.
        threat *= min(1.0, 2.0 / max(1, len(self.enemies)))
        # A draw after round 10 is a loss for everyone: caution fades, urgency grows.
        rnd = self.view.round
        care = self.level.care * (1.0 + (MAX_HP - me.hp) / 6) * (1.0 - rnd / 25)
        score = -threat * care
        if threat >= me.hp * 0.75:
            score -= 1.5 * self.level.care
        if self.enemies:
            urgency = URGENCY + 0.06 * rnd
            nearest = min(distance(e.pos, h) for e in self.enemies)
            weakest = min(self.enemies, key=lambda e: (e.hp, distance(e.pos, h)))
            score -= urgency * (nearest + distance(weakest.pos, h))
        if me.disarmed and me.weapon_at is not None:
            score += 2.5 if h == me.weapon_at else -0.4 * distance(h, me.weapon_at)
        self._end[key] = score
        return score

    def exposed(self, h: Hex, space: str) -> bool:
        """Issue 14: unleashed at 3 HP or less, ending next to an opponent."""
        return (
            space == "dechainee"
            and self.me.hp <= HANDICAP_HP
            and any(distance(e.pos, h) == 1 for e in self.enemies)
        )

    # --- whole plans -------------------------------------------------------------
    def fight_value(
        self,
        start: Hex,
        space: str,
        remaining: int,
        visited: set[Hex],
        may_attack: bool,
        must_attack: bool,
        decided: bool = False,
    ) -> float:
        """Best path of ``remaining`` steps from ``start`` with an optional attack on it.

        ``decided``: a decisive attack is already part of the plan, so ending
        exposed next to an opponent is allowed.
        """
        best = NONE
        blocked = self.blocked | visited
        for p in paths(start, blocked, remaining) if remaining > 0 else [[]]:
            end = p[-1] if p else start
            exposed = self.exposed(end, space) and not decided
            attack = NONE
            if may_attack:
                hexes = [start, *p]
                attack = max(self.hex_attack(h, space, exposed) for h in hexes)
            value = self.end_score(end, space)
            if attack > NONE:
                value += max(attack, NONE if must_attack else 0.0)
            elif must_attack:
                continue
            elif exposed:
                value -= FORBID
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
            if self.exposed(me.pos, posture):
                best -= FORBID
        return best

    def rest_value(self) -> float:
        """Resting, only where no opponent can reach it (issue 14): a rest next to
        an opponent is lost to the first attack and invites an unleashed one."""
        me = self.me
        base = self.end_score(me.pos, "garde")
        if self.reachable(me.pos):
            return base - FORBID
        gain = (1.0 + (MAX_HP - me.hp) / 3) if me.hp < MAX_HP else 0.0
        return base + gain


def _best(scored: list[tuple[float, str]], rnd: random.Random) -> str:
    top = max(s for s, _ in scored)
    ties = [o for s, o in scored if s >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rnd.choice(ties)


def choose(
    view: ArenaView, decision: Decision, rnd: random.Random, level: str | None = None
) -> str:
    """The AI's option id for ``decision`` (always one of its options), from the public view."""
    ids = [o.id for o in decision.options]
    turn = view.turn
    if turn is None or len(ids) == 1:
        return ids[0]
    lvl = level_of(level)
    plan = Planner(view, turn, lvl)
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
    if lvl.slips and rnd.random() < lvl.slips:
        sensible = [o for s, o in scored if s > -FORBID / 2]
        if sensible:
            return rnd.choice(sensible)
    if lvl.noise:
        scored = [(s + rnd.gauss(0.0, lvl.noise) if s > NONE else s, o) for s, o in scored]
    return _best(scored, rnd)


def _fight_scores(plan: Planner, turn: TurnView, decision: Decision) -> list[tuple[float, str]]:
    """Whole destinations first; a single step only when it leads to a strictly
    better plan (an attack on the way), so a turn takes as few answers as it can."""
    me = plan.me
    # The space it fights from: "sol" once on the ground (staying down, or fallen
    # during its own attack), else the posture taken this turn.
    space = me.posture if me.down else (turn.posture or me.posture)
    rem = turn.remaining or 0
    visited = set(turn.path)
    may_attack = not turn.attacked
    whole: list[tuple[float, str]] = []
    steps: list[tuple[float, str]] = []
    for opt in decision.options:
        match opt.args:
            case EndTurn():
                value = plan.end_score(me.pos, space)
                if plan.exposed(me.pos, space):
                    value -= FORBID
                whole.append((value, opt.id))
            case Attack(target=target):
                t = plan.view.fighter(target)
                value = plan.attack_score(space, t)
                if value > NONE:
                    value += plan.fight_value(
                        me.pos, space, rem, visited, False, False, plan.decisive(space, t)
                    )
                    if rem > 0:
                        value -= TIE  # as good as a move and this attack: one answer, not two
                whole.append((value, opt.id))
            case Move(to=to, target=target):
                value = plan.end_score(to, space)
                decided = False
                if target is not None:
                    t = plan.view.fighter(target)
                    attack = plan.attack_score(space, t)
                    value = NONE if attack == NONE else value + attack
                    decided = plan.decisive(space, t)
                if value > NONE and plan.exposed(to, space) and not decided:
                    value -= FORBID
                whole.append((value, opt.id))
            case Step(to=nxt):
                value = plan.fight_value(nxt, space, rem - 1, visited | {nxt}, may_attack, False)
                steps.append((value, opt.id))
            case _:
                whole.append((NONE, opt.id))
    if not whole:
        return steps
    top = max(s for s, _ in whole)
    return whole + [(s, o) for s, o in steps if s > top + TIE]
