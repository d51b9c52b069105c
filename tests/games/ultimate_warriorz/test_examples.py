"""The rule book's worked examples (§4.2 initiative, "Exemple de combats", "Exemple d'élimination")."""

from __future__ import annotations

from bot.games.ultimate_warriorz import rules
from tests.games.ultimate_warriorz.helpers import GAME, ScriptedCtx, act, make, only_pending, play


def test_initiative_example_burdock_jojoba_cactus_baobab() -> None:
    """§4.2: Burdock ⚡7, Baobab ⚡1, Cactus ⚡4, Jojoba ⚡4 act Burdock, Jojoba, Cactus, Baobab
    (Jojoba before Cactus: same initiative, smaller size)."""
    state = make({"burdock": 0, "baobab": 1, "cactus": 2, "jojoba": 3})
    picks = {
        "burdock": "burdock-7",
        "baobab": "baobab-1",
        "cactus": "cactus-4",
        "jojoba": "jojoba-4",
    }
    order = []
    for fid, cid in picks.items():
        state.fighter(fid).pick = cid
    while (f := rules.next_actor(state)) is not None:
        order.append(f.id)
        f.acted = True
    assert order == ["burdock", "jojoba", "cactus", "baobab"]


def test_baobab_hits_cactus_2_4_5_for_4_pp_then_cactus_long_shot_1_4_4_5() -> None:
    """Exemple de combats: Baobab 3 melee dice vs Cactus' defence 4 rolls 2, 4, 5: Cactus
    loses 2 HP, its big first-wound token among them: 4 PP for Baobab. Baobab then moves
    2 zones away; Cactus' long shot (4 dice vs Baobab's 4) rolls 1, 4, 4, 5 -> 0, 3, 3, 4:
    Baobab loses 1 HP, 1 PP for Cactus (Baobab's first wound was taken earlier in that game)."""
    state = make({"baobab": 0, "cactus": 0})
    state.fighter("cactus").played = ["cactus-8"]  # active card: defence 4
    state.fighter("baobab").first_wound = False
    ctx = ScriptedCtx([2, 4, 5])
    d = act(state, "baobab", "baobab-7", ctx)  # ⚡7 move 2, melee 3, defence 4
    assert d is not None and "melee-0-cactus" in [o.id for o in d.options]
    play(state, ctx, "melee-0-cactus")
    play(state, ctx, "no")  # Cactus keeps its lucky charm
    cactus, baobab = state.fighter("cactus"), state.fighter("baobab")
    assert cactus.hp == 6 and baobab.pp == 4 and not cactus.first_wound
    play(state, ctx, "move-6")
    play(state, ctx, "move-3")  # two zones away from Cactus (zone 0)
    assert baobab.zone == 3 and ctx.left() == []
    ctx = ScriptedCtx([1, 4, 4, 5])
    act(state, "cactus", "cactus-6", ctx)  # 4 ranged dice
    play(state, ctx, "ranged-0-baobab")
    play(state, ctx, "no")
    wound = [e for e in ctx.events if e.type == "wound"][-1]
    assert "[0, 3, 3, 4]" in wound.text.en
    assert baobab.hp == 12 and cactus.pp == 1


def test_sorgho_eliminates_bonzai_in_round_3_then_stones() -> None:
    """Exemple d'élimination: round 3, Sorgho (4 melee dice) vs Bonzaï (2 HP, defence 5) rolls
    4, 5, 6, 6: Bonzaï loses its last 2 HP, 2 PP and the figure for Sorgho; then the crowd
    throws stones: 1 die in round 3, rolled for Bonzaï, and nobody scores it."""
    state = make({"sorgho": 2, "bonzai": 2, "agaric": 5}, round=3)
    bonzai, sorgho = state.fighter("bonzai"), state.fighter("sorgho")
    bonzai.hp, bonzai.first_wound = 2, False
    bonzai.played = ["bonzai-2"]  # ⚡2 card: defence 5
    sorgho.charm = False
    ctx = ScriptedCtx([4, 5, 6, 6, 6])
    act(state, "sorgho", "sorgho-6", ctx)  # 4 melee dice
    play(state, ctx, "melee-0-bonzai")
    play(state, ctx, "no")
    assert not bonzai.alive and sorgho.pp == 2 and sorgho.trophies == ["bonzai"]
    stones = [e for e in ctx.events if e.type == "roll" and "stones" in e.purpose.en]
    assert len(stones) == 1 and len(stones[0].dice) == 1
    assert sorgho.hp == 9  # the stone (6) wounds Sorgho
    assert sorgho.pp == 2 and all(f.pp == 0 for f in state.fighters if f.id != "sorgho")
    assert only_pending(GAME, state).kind == "action"  # its 1 move point is still owed
