"""Combat and Tir (§2.4), élimination (§3): dice against defence, wounds, trophies.

Every roll goes through ``ctx.roll`` and its result names the hits and each
wounded fighter's "HP before -> after", so a player can check it by hand.
"""

from __future__ import annotations

from bot.engine.events import RollEvent
from bot.engine.game import Ctx
from bot.engine.text import Text
from bot.games.fighters import attacks, rolltexts
from bot.games.mad_arena.state import Fighter, MAState, Trophy


def is_dragon(state: MAState, fid: str) -> bool:
    return state.data(fid).dragon


def netted(state: MAState, fid: str) -> bool:
    return state.net_on == fid


def net_malus(state: MAState, fid: str) -> int:
    """Cactus's net: -1 to initiative, move, melee and ranged while the token is on the fighter."""
    return 1 if netted(state, fid) else 0


def defence(state: MAState, fid: str) -> int:
    """The card in play's defence; the fighter card's base defence before its first card (RULINGS)."""
    f = state.f(fid)
    if f.in_play is None:
        return state.data(fid).base_defence
    return state.card(f.in_play).defence


def gong_colour(state: MAState) -> str:
    """Gong squares alternate blue / red from round 1 (RULINGS: dragon initiative, configurable)."""
    other = "red" if state.dragon_first == "blue" else "blue"
    return state.dragon_first if state.round % 2 == 1 else other


def gong_initiative(state: MAState) -> int:
    """The dragon's initiative this round (Règles spéciales du dragon): 3 on blue, 4 on red."""
    return 3 if gong_colour(state) == "blue" else 4


def initiative(state: MAState, fid: str) -> int:
    """Initiative of the card chosen this round (§2.3); the dragon's follows the gong (3 blue, 4 red)."""
    f = state.f(fid)
    if is_dragon(state, fid):
        base = gong_initiative(state)
    else:
        cid = f.pick if f.pick is not None else f.in_play
        assert cid is not None
        base = state.card(cid).initiative or 1
    return max(1, base - net_malus(state, fid))


def enemies(state: MAState, fid: str) -> list[Fighter]:
    """Adversaries: every other living fighter in Ultimate Warrior, the other teams' otherwise."""
    me = state.f(fid)
    return [x for x in state.alive() if x.id != fid and x.team != me.team]


def in_zone(state: MAState, zone: int, exclude: str | None = None) -> list[Fighter]:
    return [x for x in state.alive() if x.zone == zone and x.id != exclude]


def hp_line(state: MAState, fid: str, before: int) -> str:
    return rolltexts.hp_change(state.name(fid), before, state.f(fid).hp)


def roll_attack(
    state: MAState,
    ctx: Ctx,
    attacker: str,
    purpose: Text,
    dice: int,
    target_defence: int | None,
    modifier: int = 0,
) -> RollEvent:
    return ctx.roll(
        dice,
        state.name(attacker),
        purpose,
        target=target_defence,
        modifier=modifier,
        attacker=attacker,
    )


NO_REACTION: attacks.Closed[str] = attacks.Closed()
"""Mad Arena has no reaction between an attack roll and its resolution."""


def wound(state: MAState, ctx: Ctx, attacker: str, target: str, hits: int) -> tuple[int, int]:
    """Remove HP (never below 0) and eliminate at 0. Returns (before, after)."""
    t = state.f(target)
    before = t.hp
    t.hp -= attacks.wounds_taken(t.hp, hits)
    if t.hp == 0 and t.alive:
        eliminate(state, ctx, attacker, target)
    return before, t.hp


def target_line(
    state: MAState,
    fid: str,
    before: int,
    hits: int,
    defence_value: int,
    dice: list[int] | None = None,
) -> Text:
    """One target of a zone attack: ``Cactus 8 -> 6 HP ([5, 3, 2] vs 3+: 2 hits)``."""
    return rolltexts.target_result(hp_line(state, fid, before), hits, defence_value, dice)


def net_note(state: MAState, fid: str) -> Text:
    """Why an attacker rolls one die fewer than its card shows (Cactus's net)."""
    if not netted(state, fid):
        return Text(fr="", en="")
    return Text(fr=" (dans le filet : -1 dé)", en=" (netted: -1 die)")


def single_attack(
    state: MAState,
    ctx: Ctx,
    attacker: str,
    target: str,
    dice: int,
    purpose: Text,
    modifier: int = 0,
) -> tuple[int, RollEvent]:
    """One attack roll against one fighter; returns the hits and the roll."""
    d = defence(state, target)
    ev = roll_attack(state, ctx, attacker, purpose, dice, d, modifier)
    ev.data["targets"] = [target]

    def wounds(hits: int) -> int:
        before, _ = wound(state, ctx, attacker, target, hits)
        ev.result = rolltexts.hits_on(hits, [hp_line(state, target, before)])
        return hits

    hits = attacks.attack(target, ev.dice, d, NO_REACTION, wounds, modifier)
    assert hits is not None, "Mad Arena's reaction window is always closed"
    return hits, ev


def eliminate(state: MAState, ctx: Ctx, attacker: str, victim: str) -> None:
    """§3: the eliminator takes the victim's card in play as a trophy, plus all its trophies.

    A victim with no action card in play yet (round 1, before it acted) gives
    its fighter card instead (RULES.md). An unrevealed pick stays secret.
    """
    v = state.f(victim)
    a = state.f(attacker)
    v.alive = False
    v.eliminated_by = attacker
    v.eliminated_round = state.round
    a.trophies.append(Trophy(fighter=victim, card=v.in_play))
    a.trophies.extend(v.trophies)
    taken = len(v.trophies)
    v.trophies = []
    if v.pick is not None:
        # Never revealed: it goes back face down with the hand (private), not
        # to the public discard.
        v.hand.append(v.pick)
    v.pick = None
    if state.net_on == victim:
        state.net_on = None
    extra_fr = f" et ses {taken} trophée(s)" if taken else ""
    extra_en = f" and its {taken} trophy(ies)" if taken else ""
    ctx.emit(
        "eliminated",
        Text(
            fr=f"💀 {state.name(victim)} est éliminé par {state.name(attacker)}, qui prend sa carte en trophée{extra_fr}.",
            en=f"💀 {state.name(victim)} is eliminated by {state.name(attacker)}, who takes its card as a trophy{extra_en}.",
        ),
        fighter=victim,
        by=attacker,
    )
