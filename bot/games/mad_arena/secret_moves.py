"""The seven secret moves (Bottes secrètes) and the dragon's split fire.

Each function resolves one attack already chosen by the acting fighter; the
dice counts include the net's -1 when the attacker is netted (RULES.md).
"""

from __future__ import annotations

from bot.engine.game import Ctx
from bot.engine.text import Text
from bot.games.fighters.attacks import count_hits
from bot.games.fighters.rolltexts import hits_in_all, hits_on
from bot.games.mad_arena.combat import (
    defence,
    hp_line,
    in_zone,
    net_malus,
    net_note,
    roll_attack,
    single_attack,
    target_line,
    wound,
)
from bot.games.mad_arena.labels import de
from bot.games.mad_arena.state import MAState


def kamikaze_dice(state: MAState, fid: str) -> int:
    """Bonzaï's kamikaze: dice = min(6, 8 - current HP) (RULINGS)."""
    return max(0, min(6, 8 - state.f(fid).hp) - net_malus(state, fid))


def terminotaure_dice(state: MAState, fid: str) -> int:
    """Sorgho's Terminotaure: dice = cards played since the last refill, this one included (RULINGS)."""
    return max(0, state.f(fid).played_since_refill - net_malus(state, fid))


def finishing_bonus(hp: int) -> int:
    """Burdock's finishing (RULINGS): +1 per die against a target of <= 5 HP, else -1."""
    return 1 if hp <= 5 else -1


def finishing_modifier(state: MAState, target: str) -> int:
    """Burdock's finishing: +1 per die if the target has <= 5 HP, else -1."""
    return finishing_bonus(state.f(target).hp)


def finishing(state: MAState, ctx: Ctx, attacker: str, target: str, dice: int) -> int:
    """Burdock's finishing: 5 dice +-1; a kill heals 1 HP (victim size <= 10) or 2 (> 10), capped."""
    mod = finishing_modifier(state, target)
    hp = state.f(target).hp
    note = net_note(state, attacker)
    why = (
        Text(fr=f"{hp} PV <= 5 : +1 par dé", en=f"{hp} HP <= 5: +1 per die")
        if mod > 0
        else Text(fr=f"{hp} PV > 5 : -1 par dé", en=f"{hp} HP > 5: -1 per die")
    )
    hits, ev = single_attack(
        state,
        ctx,
        attacker,
        target,
        dice,
        Text(
            fr=f"le « Finishing » contre {state.name(target)} ({why.fr}){note.fr}",
            en=f"the Finishing against {state.name(target)} ({why.en}){note.en}",
        ),
        mod,
    )
    if not state.f(target).alive:
        me = state.f(attacker)
        gain = 1 if state.data(target).size <= 10 else 2
        before = me.hp
        me.hp = min(state.data(attacker).size, me.hp + gain)
        ctx.emit(
            "heal",
            Text(
                fr=f"💚 {state.name(attacker)} récupère de l'énergie : {before} -> {me.hp} PV.",
                en=f"💚 {state.name(attacker)} regains energy: {before} -> {me.hp} HP.",
            ),
            fighter=attacker,
            before=before,
            after=me.hp,
        )
    return hits


def powder_keg(state: MAState, ctx: Ctx, attacker: str, zone: int, dice: int) -> int:
    """Agaric's powder keg: one roll of 3 dice against every fighter in the zone, allies included."""
    targets = in_zone(state, zone, exclude=attacker)
    note = net_note(state, attacker)
    ev = roll_attack(
        state,
        ctx,
        attacker,
        Text(
            fr=f"le tonnelet de poudre sur toute la zone{note.fr}",
            en=f"the powder keg on the whole zone{note.en}",
        ),
        dice,
        None,
    )
    ev.data["targets"] = [t.id for t in targets]
    lines: list[Text] = []
    total = 0
    for t in targets:
        d = defence(state, t.id)
        hits = count_hits(ev.dice, d)
        total += hits
        before, _ = wound(state, ctx, attacker, t.id, hits)
        lines.append(target_line(state, t.id, before, hits, d))
    ev.result = hits_in_all(total, lines)
    return total


def strike(state: MAState, ctx: Ctx, attacker: str, order: list[str], dice: int) -> int:
    """Baobab's strike: hits on the first target wound it, the misses pass to the next, and so on."""
    names = ", ".join(state.name(t) for t in order)
    note = net_note(state, attacker)
    ev = roll_attack(
        state,
        ctx,
        attacker,
        Text(
            fr=f"le « Strike » (ordre : {names}){note.fr}",
            en=f"the Strike (order: {names}){note.en}",
        ),
        dice,
        None,
    )
    ev.data["targets"] = list(order)
    remaining = list(ev.dice)
    lines: list[Text] = []
    total = 0
    for tid in order:
        if not remaining:
            break
        d = defence(state, tid)
        hit = [x for x in remaining if x >= d]
        seen = remaining
        remaining = [x for x in remaining if x < d]
        total += len(hit)
        before, _ = wound(state, ctx, attacker, tid, len(hit))
        lines.append(target_line(state, tid, before, len(hit), d, seen))
    tail = None
    if remaining:
        rest = f"[{', '.join(map(str, remaining))}]"
        tail = Text(fr=f"{rest} sans cible", en=f"{rest} hit nobody")
    ev.result = hits_in_all(total, lines, tail)
    return total


def net(state: MAState, ctx: Ctx, attacker: str, target: str, dice: int) -> bool:
    """Cactus's net: if the 3 dice sum to >= the target's size, it loses 1 HP and is netted."""
    size = state.data(target).size
    note = net_note(state, attacker)
    ev = roll_attack(
        state,
        ctx,
        attacker,
        Text(
            fr=f"le filet de ronces sur {state.name(target)}{note.fr}",
            en=f"the bramble net on {state.name(target)}{note.en}",
        ),
        dice,
        None,
    )
    ev.data["targets"] = [target]
    total = sum(ev.dice)
    if total < size:
        ev.result = Text(
            fr=f"somme {total} < taille {size} {de(state.name(target))} : raté ; {state.name(target)} {state.f(target).hp} -> {state.f(target).hp} PV",
            en=f"sum {total} < {state.name(target)}'s size {size}: missed; {state.name(target)} {state.f(target).hp} -> {state.f(target).hp} HP",
        )
        return False
    before, after = wound(state, ctx, attacker, target, 1)
    caught = after > 0
    # The one token moves to the new target; if that 1 HP eliminated it, the
    # token leaves with its card (the previous fighter is free either way).
    state.net_on = target if caught else None
    ev.result = Text(
        fr=f"somme {total} >= taille {size} : {hp_line(state, target, before)} PV"
        + (", immobilisé par le filet" if caught else ""),
        en=f"sum {total} >= size {size}: {hp_line(state, target, before)} HP"
        + (", caught in the net" if caught else ""),
    )
    return caught


def landing_dice(size: int) -> int:
    """Kick landing: 1 die (thrown size <= 8), 2 (9-12), 3 (>= 13)."""
    return 1 if size <= 8 else (2 if size <= 12 else 3)


def kick(state: MAState, ctx: Ctx, dragon: str, target: str, dice: int) -> bool:
    """Zamioculcas's kick: 4 melee dice; True when the sum >= the target's size and it survives (thrown)."""
    d = defence(state, target)
    note = net_note(state, dragon)
    ev = roll_attack(
        state,
        ctx,
        dragon,
        Text(
            fr=f"le coup de sandale contre {state.name(target)}{note.fr}",
            en=f"the sandal kick against {state.name(target)}{note.en}",
        ),
        dice,
        d,
    )
    ev.data["targets"] = [target]
    hits = count_hits(ev.dice, d)
    before, after = wound(state, ctx, dragon, target, hits)
    total = sum(ev.dice)
    size = state.data(target).size
    thrown = after > 0 and total >= size
    base = hits_on(hits, [hp_line(state, target, before)])
    ev.result = Text(
        fr=base.fr
        + f" ; somme {total} {'>=' if total >= size else '<'} taille {size}"
        + (" : projeté !" if thrown else ""),
        en=base.en
        + f"; sum {total} {'>=' if total >= size else '<'} size {size}"
        + (": thrown!" if thrown else ""),
    )
    return thrown


def land(state: MAState, ctx: Ctx, dragon: str, thrown: str, zone: int) -> list[str]:
    """The thrown fighter lands; everyone already there takes a landing shot credited to the dragon."""
    already = [x.id for x in in_zone(state, zone, exclude=thrown)]
    state.f(thrown).zone = zone
    size = state.data(thrown).size
    n = landing_dice(size)
    for tid in already:
        single_attack(
            state,
            ctx,
            dragon,
            tid,
            n,
            Text(
                fr=f"l'atterrissage {de(state.name(thrown))} sur {state.name(tid)} (taille {size} : {n} dé{'s' if n > 1 else ''})",
                en=f"{state.name(thrown)} landing on {state.name(tid)} (size {size}: {n} dice)",
            ),
        )
    return already


def split_fire(state: MAState, ctx: Ctx, dragon: str, split: dict[str, int]) -> int:
    """The dragon's 5 ranged dice, split before rolling among fighters of one zone: one roll each."""
    total = 0
    for tid, n in split.items():
        if n <= 0 or not state.f(tid).alive:
            continue
        note = net_note(state, dragon)
        hits, _ = single_attack(
            state,
            ctx,
            dragon,
            tid,
            n,
            Text(
                fr=f"un tir sur {state.name(tid)} ({n} de ses {sum(split.values())} dés de tir){note.fr}",
                en=f"a ranged attack on {state.name(tid)} ({n} of its {sum(split.values())} ranged dice){note.en}",
            ),
        )
        total += hits
    return total
