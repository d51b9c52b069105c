"""The ``hard`` level's planning for Ultimate Warriorz, from one seat's view only.

The card is picked by what it can do on the board now (the opponents its melee
can reach with its move, those its shots can hit and at what distance, the
defence it gives against the fighters still to act, its initiative for the
first-wound race), and the action is planned over every legal path of the
card's exact movement: each owed attack is made from the zone along the path
where it is worth most, so the fighter walks closer before a long shot instead
of shooting at -1, and ends away from opponents still to act when it is weak.
Attacks weigh the PP race: 3 PP for a first wound, a kill removes a rival from
the final count (most of all the PP leader) but costs stones in rounds 1-3.
"""

from __future__ import annotations

from bot.games.ultimate_warriorz.view import ActionView, CardView, FighterView, UWView

TEAMMATE = -10.0
"""Attacking a teammate: only when nothing else is legal."""


def p_hit(defence: int, modifier: int = 0) -> float:
    """Chance that one die (plus ``modifier``) meets ``defence``."""
    need = defence - modifier
    return max(0.0, min(1.0, (7 - need) / 6))


def dice_count(text: str) -> float:
    """The dice a card's ``melee_now``/``ranged_now`` gives, on average (``3+2``: the
    first attack only; ``2x2``: both shots; ``1-6``: the claymore's die)."""
    if "x" in text:
        a, b = text.split("x")
        return float(a) * float(b)
    if "-" in text:
        return 3.5
    return float(text.split("+")[0])


def enemies(view: UWView, me: FighterView) -> list[FighterView]:
    return [f for f in view.fighters if f.alive and f.team != me.team and f.zone is not None]


def pp_leader(view: UWView, me: FighterView) -> int:
    """The most PP among the opponents still standing (only they count at the gong)."""
    return max((f.pp for f in enemies(view, me)), default=0)


def attack_value(
    view: UWView, me: FighterView, target: FighterView, dice: float, distance: int
) -> float:
    """What an attack of ``dice`` dice at ``target`` from ``distance`` zones is worth:
    expected PP (3 for a first wound), a kill's worth (a rival fewer, the leader most, a
    trophy) less the stones it draws in rounds 1-3 when our own HP are low."""
    if target.team == me.team:
        return TEAMMATE
    if target.effect == "light-suit":
        dice = max(0.0, dice - 1)
    p = 0.5 if target.defence_rolled else p_hit(target.defence_now, -1 if distance == 2 else 0)
    expected = dice * p
    wounds = min(expected, float(target.hp))
    value = wounds
    if target.first_wound:
        value += 2.0 * min(1.0, expected)
    if expected >= target.hp - 0.3:
        chance = 0.6 if expected < target.hp + 0.5 else 0.85
        kill = 5.0 + (1.5 if target.pp >= pp_leader(view, me) else 0.0)
        if view.stones_now:
            stones = view.stones_now * p_hit(me.defence_now)
            if stones >= me.hp - 0.5:
                kill -= 6.0
            else:
                kill -= stones
        value += chance * kill
    value += 0.05 * target.pp
    return value


def can_melee(me: FighterView, target: FighterView) -> bool:
    return target.effect != "calumet" and not (me.skull and target.id == "baobab")


def can_shoot(me: FighterView, target: FighterView) -> bool:
    return target.effect != "ghost-ring" and not (me.skull and target.id == "baobab")


def best_from(view: UWView, me: FighterView, zone: int, kind: str, dice: float) -> float:
    """The best attack of one obligation from ``zone`` (0 when nobody can be attacked)."""
    best: float | None = None
    for t in view.fighters:
        if not t.alive or t.id == me.id or t.zone is None:
            continue
        d = view.distances[f"{zone}-{t.zone}"]
        if kind == "melee" and d == 0 and can_melee(me, t):
            v = attack_value(view, me, t, dice, 0)
        elif kind == "ranged" and d > 0 and can_shoot(me, t):
            v = attack_value(view, me, t, dice, d)
        else:
            continue
        if best is None or v > best:
            best = v
    return 0.0 if best is None else best


def danger(view: UWView, me: FighterView, zone: int) -> float:
    """How exposed ``zone`` is to the opponents still to act this round (melee there)."""
    near = sum(1 for t in enemies(view, me) if t.zone == zone and not t.acted and t.id != me.id)
    weak = 2.0 if me.hp <= 2 else 1.0
    return 0.4 * near * weak


def paths(view: UWView, action: ActionView, start: int) -> list[list[int]]:
    """Every path of exactly the moves left, never entering a zone visited this action."""
    out: list[list[int]] = []
    _walk(view.adjacency, [start], action.moves_left, set(action.visited) | {start}, out)
    return out


def _walk(
    adjacency: dict[int, list[int]],
    path: list[int],
    left: int,
    seen: set[int],
    out: list[list[int]],
) -> None:
    """Adds to ``out`` the paths of :func:`paths` that go on from ``path``. A module
    function, not a closure calling itself, which would be a reference cycle per call left
    to the garbage collector (issue 16 item 5)."""
    if left == 0:
        out.append(path)
        return
    nxt = [z for z in adjacency[path[-1]] if z not in seen]
    if not nxt:
        out.append(path)
        return
    for z in nxt:
        _walk(adjacency, [*path, z], left - 1, seen | {z}, out)


def plan(view: UWView, me: FighterView, action: ActionView) -> tuple[list[int], bool]:
    """The best path, and whether an owed attack is best made from the current zone."""
    assert me.zone is not None
    owed = [o for o in action.obligations if not o.done and o.kind in ("melee", "ranged")]
    best: tuple[float, list[int], bool] | None = None
    for path in paths(view, action, me.zone):
        total = -danger(view, me, path[-1])
        now = False
        for o in owed:
            dice = 3.5 if o.special == "claymore" else float(max(o.dice, 1))
            scores = [best_from(view, me, z, o.kind, dice) for z in path]
            top = max(scores)
            total += top
            if scores[0] >= top - 1e-9 and top > 0:
                now = True
        if best is None or total > best[0] + 1e-9:
            best = (total, path, now)
    assert best is not None
    return best[1], best[2]


def card_score(view: UWView, me: FighterView, c: CardView) -> float:
    """What card ``c`` is worth this round, on the board as it is."""
    assert me.zone is not None
    reach = [z for z in view.adjacency if view.distances[f"{me.zone}-{z}"] <= c.move]
    value = 0.0
    melee = dice_count(c.melee_now)
    if c.special == "spiked-pad":
        melee += 1.0
    if c.special == "spear-whirl":
        melee *= 1.6
    if melee > 0:
        value += max((best_from(view, me, z, "melee", melee) for z in reach), default=0.0)
    ranged = dice_count(c.ranged_now)
    if ranged > 0:
        value += max((best_from(view, me, z, "ranged", ranged) for z in reach), default=0.0)
    foes = [t for t in enemies(view, me) if not t.acted]
    threat = 0.25 * len(foes) * (1.0 + 6.0 / max(1, me.hp))
    value += threat * c.defence
    value += 0.8 * c.initiative
    value += 0.15 * c.move
    if c.special == "kamikaze":
        value += 0.5 if me.hp <= 3 else -2.0
    if c.special in ("ghost-ring", "calumet", "light-suit", "energy-armour"):
        value += 0.5 * threat * 2
    if c.special == "terminotaure" and view.round < 4:
        value -= 2.0
    return value
