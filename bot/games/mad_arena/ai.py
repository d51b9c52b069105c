"""The Mad Arena AI: expected-damage planning over what the seat's view shows.

It only reads ``view(state, seat)`` (its own hand and pick, public cards in
play, HP, zones), never another seat's secret pick. It prefers killing blows
(trophies), keeps team mates out of zone attacks, and saves its secret move for
a good moment unless the game is ending. Deterministic given ``rnd``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from bot.engine.decisions import Decision
from bot.games.mad_arena.arena import adjacent, legal_steps

LAST = 12


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

    def __init__(self, view: dict[str, Any], me_id: str) -> None:
        self.v = view
        self.n = len(view["zones"])
        self.centre = view["centre"]
        self.by_id = {f["id"]: f for f in view["fighters"]}
        self.me = self.by_id[me_id]

    def alive(self) -> list[dict[str, Any]]:
        return [f for f in self.v["fighters"] if f["alive"]]

    def enemies(self) -> list[dict[str, Any]]:
        return [
            f for f in self.alive() if f["id"] != self.me["id"] and f["team"] != self.me["team"]
        ]

    def allies(self) -> list[dict[str, Any]]:
        return [
            f for f in self.alive() if f["id"] != self.me["id"] and f["team"] == self.me["team"]
        ]

    def at(self, zone: int) -> list[dict[str, Any]]:
        return [f for f in self.alive() if f["zone"] == zone and f["id"] != self.me["id"]]

    def is_enemy(self, f: dict[str, Any]) -> bool:
        return f["team"] != self.me["team"]

    def late(self) -> bool:
        return int(self.v["round"]) >= LAST - 2


def attack_value(t: dict[str, Any], dice: int, modifier: int = 0) -> float:
    """Expected HP removed, with a bonus for a likely kill (a trophy) and for weak targets."""
    if dice <= 0:
        return 0.0
    e = dice * p_hit(int(t["defence"]), modifier)
    hp = int(t["hp"])
    v = min(e, hp) * (1 + 1 / max(1, hp))
    if e >= hp - 0.25:
        v += 1.5 + int(t["size"]) / 5
    return v


def zone_value(c: Ctx, zone: int, dice: int, kind: str | None) -> float:
    """Value of a zone attack (keg, strike or the dragon's fire); team mates count against it."""
    total = 0.0
    here = c.at(zone)
    if kind == "strike":
        order = sorted(here, key=lambda f: (not c.is_enemy(f), -int(f["defence"])))
        left = float(dice)
        for f in order:
            p = p_hit(int(f["defence"]))
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


def fighter_attack(
    c: Ctx, zone: int, kind: str, dice: int, secret: str | None
) -> tuple[float, str | None]:
    """Best single-target attack from ``zone``: (value, option id)."""
    best: tuple[float, str | None] = (0.0, None)
    if dice <= 0:
        return best
    for t in c.enemies():
        if kind == "melee" and t["zone"] != zone:
            continue
        if kind == "ranged" and t["zone"] not in adjacent(zone, c.n):
            continue
        if secret == "net":
            p = p_sum_at_least(dice, int(t["size"]))
            val = p * (1.2 + (2 if int(t["hp"]) <= 1 else 0)) + 0.3
        elif secret == "finishing":
            mod = 1 if int(t["hp"]) <= 5 else -1
            val = attack_value(t, dice, mod) + (
                1.0 if mod > 0 and dice * p_hit(int(t["defence"]), 1) >= int(t["hp"]) - 0.3 else 0
            )
        else:
            val = attack_value(t, dice)
        if val > best[0]:
            best = (val, f"{kind}-{t['id']}")
    return best


def ranged_best(c: Ctx, zone: int, dice: int, secret: str | None) -> tuple[float, str | None]:
    if secret in ("powder-keg", "strike"):
        best: tuple[float, str | None] = (0.0, None)
        for z in adjacent(zone, c.n):
            if c.at(z):
                val = zone_value(c, z, dice, secret)
                if val > best[0]:
                    best = (val, f"zone-z{z}")
        return best
    return fighter_attack(c, zone, "ranged", dice, secret)


def position_value(c: Ctx, zone: int) -> float:
    v = 0.0
    if zone == c.centre and c.late():
        v += 1.5 if int(c.v["round"]) < LAST else 3.0
    hp = int(c.me["hp"])
    threat = sum(1 for e in c.enemies() if e["zone"] == zone or e["zone"] in adjacent(zone, c.n))
    v -= threat * 0.15 * (1 + (int(c.me["max_hp"]) - hp) / max(1, int(c.me["max_hp"])))
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
) -> tuple[float, str]:
    """The best sequence of moves and attacks; returns (value, first option id)."""
    best_val = -1e9
    best_first = "end"
    route_list = [[zone]] if netted else paths(c, zone, start, total, left, round_start)
    for route in route_list:
        m_best = (0.0, None, 0)
        r_best = (0.0, None, 0)
        for i, z in enumerate(route):
            mv, mid = fighter_attack(c, z, "melee", melee, secret)
            if mid and mv > m_best[0]:
                m_best = (mv, mid, i)
            rv, rid = ranged_best(c, z, ranged, secret)
            if rid and rv > r_best[0]:
                r_best = (rv, rid, i)
        val = m_best[0] + r_best[0] + position_value(c, route[-1])
        if m_best[1] and m_best[2] == 0:
            first = m_best[1]
        elif r_best[1] and r_best[2] == 0:
            first = r_best[1]
        elif netted and left > 0:
            first = "free"
        elif len(route) > 1:
            first = f"move-z{route[1]}"
        else:
            first = "end"
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


def pick_card(c: Ctx, rnd: random.Random) -> str:
    zone = int(c.me["zone"])
    netted = bool(c.me["netted"])
    best: tuple[float, str] = (-1e9, c.me["hand"][0]["id"])
    for card in c.me["hand"]:
        s = card["stats"]
        mal = 1 if netted else 0
        move = max(0, int(s["move"]) - mal)
        melee = max(0, int(s["melee"]) - mal)
        ranged = max(0, int(s["ranged"]) - mal)
        val, _ = best_plan(c, zone, zone, move, move, melee, ranged, card["secret"], netted)
        val = secret_ok(c, card["secret"], val)
        hp_frac = int(c.me["hp"]) / max(1, int(c.me["max_hp"]))
        val += (int(s["defence"]) - 4) * (0.6 - 0.4 * hp_frac)
        val += int(s["initiative"]) * 0.08
        val += rnd.random() * 0.2
        if val > best[0]:
            best = (val, card["id"])
    return best[1]


def dragon_choice(c: Ctx, ids: set[str]) -> str:
    best = (0.05, "end")
    card = c.me["in_play"]["stats"] if c.me["in_play"] else {"melee": 4, "ranged": 5}
    mal = 1 if c.me["netted"] else 0
    melee = max(0, int(card["melee"]) - mal)
    ranged = max(0, int(card["ranged"]) - mal)
    for oid in ids:
        if oid.startswith("melee-"):
            val = attack_value(c.by_id[oid[6:]], melee)
        elif oid.startswith("zone-z"):
            z = int(oid[6:])
            val = max((attack_value(t, ranged) for t in c.at(z) if c.is_enemy(t)), default=0.0)
        elif oid.startswith("kick-"):
            t = c.by_id[oid[5:]]
            p = p_sum_at_least(melee, int(t["size"]))
            land = max(
                (
                    zone_value(c, z, 1 + (int(t["size"]) > 8) + (int(t["size"]) > 12), None)
                    for z in range(c.n)
                ),
                default=0.0,
            )
            val = attack_value(t, melee) + p * (land + 1) + (2.0 if c.late() else -0.8)
        else:
            continue
        if val > best[0]:
            best = (val, oid)
    return best[1]


def choose(view: dict[str, Any], decision: Decision, rnd: random.Random) -> str:
    ids = [o.id for o in decision.options]
    parts = decision.key.split(":")
    me_id = parts[2] if parts[1] == "pick" else parts[1]
    c = Ctx(view, me_id)
    choice = _choose(c, decision.kind, set(ids), rnd)
    return choice if choice in ids else rnd.choice(ids)


def _choose(c: Ctx, kind: str, ids: set[str], rnd: random.Random) -> str:
    if kind == "pick":
        return pick_card(c, rnd)
    if kind == "strike-order":
        cands = [c.by_id[i[6:]] for i in sorted(ids)]
        cands.sort(key=lambda f: (not c.is_enemy(f), -int(f["defence"]), int(f["hp"])))
        return f"order-{cands[0]['id']}"
    if kind == "dragon-split":
        a = c.v["action"]
        zone = a["sub_zone"]
        targets = [f for f in c.at(zone) if c.is_enemy(f) and f["id"] not in a["split"]]
        current = targets[0]
        left = max(int(i[5:]) for i in ids)
        best = max(targets, key=lambda f: (attack_value(f, left), f["id"]))
        need = 0
        p = p_hit(int(current["defence"]))
        while need < left and need * p < int(current["hp"]):
            need += 1
        if best["id"] == current["id"]:
            return f"dice-{left}"
        return f"dice-{min(left, need) if attack_value(current, need) > attack_value(best, left) else 0}"
    if kind == "kick-throw":
        a = c.v["action"]
        size = int(c.by_id[a["kicked"]]["size"])
        n = 1 + (size > 8) + (size > 12)
        best_z = max(sorted(ids), key=lambda i: zone_value(c, int(i[7:]), n, None))
        return best_z
    if c.me["dragon"]:
        return dragon_choice(c, ids)
    a = c.v["action"]
    card = c.me["in_play"]
    s = card["stats"]
    mal = 1 if c.me["netted"] else 0
    melee = 0 if a["melee_done"] else max(0, int(s["melee"]) - mal)
    ranged = 0 if a["ranged_done"] else max(0, int(s["ranged"]) - mal)
    _, first = best_plan(
        c,
        int(c.me["zone"]),
        int(a["start_zone"]),
        int(a["moves_total"]),
        int(a["moves_left"]),
        melee,
        ranged,
        card["secret"],
        bool(c.me["netted"]) and int(a["moves_left"]) > 0,
        a.get("round_zone"),
    )
    if first in ids:
        return first
    if "end" in ids:
        return "end"
    moves = sorted(i for i in ids if i.startswith("move-") or i == "free")
    return rnd.choice(moves or sorted(ids))
