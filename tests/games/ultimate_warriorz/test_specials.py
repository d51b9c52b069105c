"""The 16 special cards, exactly as printed (BOTTES SECRÈTES ET OBJETS MAGIQUES), one test each."""

from __future__ import annotations

import pytest

from bot.engine.errors import IllegalDecision
from bot.games.ultimate_warriorz import rules
from bot.games.ultimate_warriorz.state import UWState
from tests.games.ultimate_warriorz.helpers import (
    GAME,
    ScriptedCtx,
    act,
    answer,
    make,
    only_pending,
    pick_ids,
    play,
)


def no_charms(state: UWState) -> None:
    for f in state.fighters:
        f.charm = False


def rolls(ctx: ScriptedCtx) -> list:
    return [e for e in ctx.events if e.type == "roll"]


def test_agaric_powder_keg_one_3_dice_shot_hits_everyone_in_the_zone() -> None:
    """Tonnelet de poudre: "tir explosif d'une puissance de 3 dés affecte TOUS les combattants
    présents dans la Zone ciblée" -- one roll, compared with each fighter's defence."""
    state = make({"agaric": 0, "cactus": 1, "baobab": 1, "jojoba": 3})
    no_charms(state)
    ctx = ScriptedCtx([6, 6, 1])
    d = act(state, "agaric", "agaric-4", ctx)
    assert d is not None and {"keg-1", "keg-3"} <= set(pick_ids(d))
    play(state, ctx, "keg-1")
    assert len(rolls(ctx)) == 1
    assert state.fighter("cactus").hp == 6 and state.fighter("baobab").hp == 11
    assert state.fighter("jojoba").hp == 6
    assert state.fighter("agaric").pp == 8  # 3 + 1 on each of them


def test_agaric_ghost_ring_no_shots_at_him_but_melee_still() -> None:
    """Bague fantomatique: while active, Agaric cannot be shot; melee is still possible."""
    state = make({"agaric": 0, "jojoba": 1, "cactus": 0})
    state.fighter("agaric").played = ["agaric-3"]
    d = act(state, "jojoba", "jojoba-6", ScriptedCtx())  # ranged 3, move 0
    assert d is not None and "ranged-0-agaric" not in pick_ids(d)
    assert "ranged-0-cactus" in pick_ids(d)
    d = act(state, "cactus", "cactus-2", ScriptedCtx())  # melee 1
    assert d is not None and "melee-0-agaric" in pick_ids(d)


def test_jojoba_double_shot_two_different_targets_at_once() -> None:
    """Double tir à l'arc: two shots at once from the same zone, at 2 different targets."""
    state = make({"jojoba": 0, "cactus": 1, "baobab": 2})
    no_charms(state)
    ctx = ScriptedCtx([6, 6, 6, 6])
    d = act(state, "jojoba", "jojoba-4", ctx)  # ranged 2 per shot, move 1
    assert (
        d is not None
        and "double-baobab-cactus" in pick_ids(d)
        or "double-cactus-baobab" in pick_ids(d)
    )
    assert not any(o.id.startswith("ranged-") for o in d.options)
    play(state, ctx, [o.id for o in d.options if o.id.startswith("double-")][0])
    assert len(rolls(ctx)) == 2
    assert state.fighter("cactus").hp == 6 and state.fighter("baobab").hp == 11


def test_jojoba_calumet_no_melee_on_him_but_shots_still() -> None:
    """Calumet shamanique: while active, Jojoba cannot be attacked in melee; shots are fine."""
    state = make({"jojoba": 0, "cactus": 0, "burdock": 1})
    state.fighter("jojoba").played = ["jojoba-3"]
    d = act(state, "cactus", "cactus-2", ScriptedCtx())  # melee 1... move 2
    assert d is not None and "melee-0-jojoba" not in pick_ids(d)
    d = act(state, "burdock", "burdock-6", ScriptedCtx())  # ranged 2
    assert d is not None and "ranged-0-jojoba" in pick_ids(d)


@pytest.mark.parametrize(("hp", "dice"), [(7, 1), (5, 3), (3, 5), (1, 6)])
def test_bonzai_kamikaze_dice_from_current_hp(hp: int, dice: int) -> None:
    """Attaque kamikaze: 1 to 6 dice from its HP (RULINGS: min(6, 8 - HP))."""
    state = make({"bonzai": 0, "baobab": 0, "agaric": 3})
    no_charms(state)
    state.fighter("bonzai").hp = hp
    ctx = ScriptedCtx([1] * dice)
    act(state, "bonzai", "bonzai-4", ctx)
    play(state, ctx, "melee-0-baobab")
    assert len(rolls(ctx)[0].dice) == dice


def test_bonzai_vampire_chopsticks_hp_go_to_bonzai_no_pp() -> None:
    """Baguettes vampiriques: HP lost to this attack join Bonzaï's HP (above its start: RULINGS),
    no PP; the victim's first-wound token is spent."""
    state = make({"bonzai": 0, "cactus": 0, "agaric": 3})
    no_charms(state)
    ctx = ScriptedCtx([6, 6])
    act(state, "bonzai", "bonzai-3", ctx)  # melee 2
    play(state, ctx, "melee-0-cactus")
    bonzai, cactus = state.fighter("bonzai"), state.fighter("cactus")
    assert cactus.hp == 6 and bonzai.hp == 9 and bonzai.pp == 0 and not cactus.first_wound


def test_cactus_spiked_pad_trident_3_and_pad_2_on_two_opponents() -> None:
    """Coup d'épaulette: trident (3 dice) on one, shoulder pad (2 dice) on another, separately."""
    state = make({"cactus": 0, "agaric": 0, "jojoba": 0, "baobab": 3})
    no_charms(state)
    ctx = ScriptedCtx([1, 1, 1, 1, 1])
    d = act(state, "cactus", "cactus-4", ctx)
    assert d is not None and {"melee-0-agaric", "melee-1-agaric"} <= set(pick_ids(d))
    play(state, ctx, "melee-0-agaric")
    assert len(rolls(ctx)[0].dice) == 3
    d = only_pending(GAME, state)
    assert "melee-1-agaric" not in pick_ids(d) and "melee-1-jojoba" in pick_ids(d)
    play(state, ctx, "move-1")  # it may move between the two attacks...
    # ...and nobody is in reach there: the action ends; the shoulder pad was never obliged.
    assert not any(e.type == "attack-lost" for e in ctx.events)
    assert state.round == 2 and state.phase == "pick"


def test_cactus_spiked_pad_second_blow_is_allowed_not_obliged() -> None:
    """Coup d'épaulette: Cactus "peut" add the shoulder pad; §4.3 obliges one melee attack (the
    card's 3 dice): the trident is owed while it has a target, the pad may be skipped."""
    state = make({"cactus": 0, "agaric": 0, "baobab": 1, "jojoba": 1})
    no_charms(state)
    ctx = ScriptedCtx([1, 1, 1])
    act(state, "cactus", "cactus-4", ctx)
    play(state, ctx, "move-1")
    d = only_pending(GAME, state)
    assert "end" not in pick_ids(d)  # the trident is owed and Baobab is in reach
    play(state, ctx, "melee-0-baobab")
    d = only_pending(GAME, state)
    assert set(pick_ids(d)) == {"end", "melee-1-jojoba"}
    play(state, ctx, "end")
    assert state.fighter("jojoba").hp == 6 and state.round == 2
    assert not any(e.type == "attack-lost" for e in ctx.events)


def test_cactus_cursed_net_defence_minus_2_when_sum_reaches_size() -> None:
    """Filet maléfique: 3 dice first; a sum >= the target's size lowers its defence by 2."""
    state = make({"cactus": 0, "sorgho": 0, "agaric": 3})
    no_charms(state)
    state.fighter("sorgho").played = ["sorgho-6"]  # defence 3
    ctx = ScriptedCtx([4, 3, 3, 1, 2])  # 10 >= size 10: defence 1
    act(state, "cactus", "cactus-3", ctx)
    play(state, ctx, "melee-0-sorgho")
    assert state.fighter("sorgho").hp == 8
    state = make({"cactus": 0, "sorgho": 0, "agaric": 3})
    no_charms(state)
    state.fighter("sorgho").played = ["sorgho-6"]
    ctx = ScriptedCtx([1, 1, 1, 1, 2])  # 3 < 10: normal defence 3
    act(state, "cactus", "cactus-3", ctx)
    play(state, ctx, "melee-0-sorgho")
    assert state.fighter("sorgho").hp == 10


def test_burdock_electroshock_tokens_minus_2_and_plus_2_beyond_8() -> None:
    """Electroshock: a wound gives the target -2 initiative and Burdock +2 on their next action
    (above 8 Burdock plays before everyone)."""
    state = make({"burdock": 0, "cactus": 0, "agaric": 3})
    no_charms(state)
    ctx = ScriptedCtx([6, 1, 1])
    act(state, "burdock", "burdock-4", ctx)
    play(state, ctx, "melee-0-cactus")
    burdock, cactus = state.fighter("burdock"), state.fighter("cactus")
    assert (burdock.shock, cactus.shock) == (2, -2)
    burdock.pick, cactus.pick = "burdock-8", "cactus-8"
    state.fighter("agaric").pick = "agaric-8"
    assert rules.initiative(state, burdock) == 10 and rules.initiative(state, cactus) == 6
    for f in state.fighters:
        f.acted = False
    assert rules.next_actor(state) is burdock


def test_burdock_claymore_one_die_sets_the_dice() -> None:
    """Claymore électrique: one die first sets how many dice the shot rolls (1 to 6)."""
    state = make({"burdock": 0, "baobab": 1, "agaric": 3})
    no_charms(state)
    ctx = ScriptedCtx([4, 1, 1, 1, 1])
    act(state, "burdock", "burdock-3", ctx)
    play(state, ctx, "ranged-0-baobab")
    assert [len(r.dice) for r in rolls(ctx)] == [1, 4]


def test_sorgho_terminotaure_dice_are_cards_played() -> None:
    """Mise à mort Terminotaure: as many dice as action cards played, this one included."""
    state = make({"sorgho": 0, "baobab": 0, "agaric": 3})
    no_charms(state)
    state.fighter("sorgho").played = ["sorgho-8", "sorgho-7", "sorgho-6"]
    ctx = ScriptedCtx([1, 1, 1, 1])
    act(state, "sorgho", "sorgho-4", ctx)
    play(state, ctx, "melee-0-baobab")
    assert len(rolls(ctx)[0].dice) == 4


def test_sorgho_light_suit_attackers_roll_one_die_less() -> None:
    """Habit ultra-luminique: while active, attackers roll 1 combat die less."""
    state = make({"sorgho": 0, "cactus": 0, "agaric": 3})
    no_charms(state)
    state.fighter("sorgho").played = ["sorgho-3"]
    ctx = ScriptedCtx([6])
    act(state, "cactus", "cactus-7", ctx)  # melee 2
    play(state, ctx, "melee-0-sorgho")
    assert len(rolls(ctx)[0].dice) == 1


def test_baobab_strike_reassigns_dice_one_per_other_fighter() -> None:
    """Strike: a normal 4-dice shot at the main target; each die may go to another fighter of
    the zone, one die per fighter, compared with that fighter's defence."""
    state = make({"baobab": 0, "cactus": 1, "agaric": 1, "jojoba": 1})
    no_charms(state)
    ctx = ScriptedCtx([6, 2, 5, 1])
    act(state, "baobab", "baobab-4", ctx)
    play(state, ctx, "ranged-0-cactus")
    d = only_pending(GAME, state)
    assert d.kind == "strike"
    with pytest.raises(IllegalDecision):  # two dice to one fighter: refused by the totals
        answer(GAME, state, d, ctx, amounts={"d2-agaric": 1, "d3-agaric": 1})
    answer(GAME, state, d, ctx, amounts={"d2-agaric": 1})
    # Cactus (sheet 4) keeps 6, 2, 1: one wound; Agaric (sheet 5) takes the 5.
    assert state.fighter("cactus").hp == 7 and state.fighter("agaric").hp == 4
    assert state.fighter("jojoba").hp == 6


def test_baobab_mystic_skull_no_attack_on_baobab_then_discarded() -> None:
    """Crâne mystique: given to an opponent in shooting range, who cannot attack Baobab on its
    next action; discarded at the end of that action."""
    state = make({"baobab": 0, "cactus": 1, "agaric": 3})
    no_charms(state)
    ctx = ScriptedCtx([1, 1])
    d = act(state, "baobab", "baobab-3", ctx)  # move 1, melee 2
    assert d is not None and "skull-cactus" in pick_ids(d)
    play(state, ctx, "skull-cactus")
    assert state.fighter("cactus").skull
    play(state, ctx, "move-1")
    d = only_pending(GAME, state)
    play(state, ctx, "melee-0-cactus")  # Baobab attacks the holder: the skull is discarded
    assert not state.fighter("cactus").skull
    state.fighter("cactus").skull = True
    d = act(state, "cactus", "cactus-6", ScriptedCtx())  # ranged 4 from zone 1
    assert d is not None and not any("baobab" in o.id for o in d.options)
    play(state, ScriptedCtx([1, 1, 1, 1]), "ranged-0-agaric")
    assert not state.fighter("cactus").skull


def test_zamioculcas_spear_whirl_two_attacks_and_rolled_defence() -> None:
    """Vrombissement de lance: 2 melee attacks of 2 dice on 2 opponents; while active, its
    defence against each attack is one die rolled."""
    state = make({"zamioculcas": 0, "agaric": 0, "jojoba": 0, "cactus": 3})
    no_charms(state)
    ctx = ScriptedCtx([1, 1, 1, 1])
    d = act(state, "zamioculcas", "zamioculcas-4", ctx)
    assert d is not None and {"melee-0-agaric", "melee-1-jojoba"} <= set(pick_ids(d))
    play(state, ctx, "melee-0-agaric")
    assert "melee-1-agaric" not in pick_ids(only_pending(GAME, state))
    ctx = ScriptedCtx([2, 4, 4])  # defence die 2, then Cactus' 2 dice (cactus-7: melee 2)
    state.fighter("cactus").zone = 1
    zam = state.fighter("zamioculcas")
    zam.zone = 1
    act(state, "cactus", "cactus-7", ctx)
    play(state, ctx, "melee-0-zamioculcas")
    assert zam.hp == 14


def test_zamioculcas_spear_whirl_second_attack_is_allowed_not_obliged() -> None:
    """Vrombissement de lance: Zamioculcas "peut faire 2 attaques"; §4.3 obliges one."""
    state = make({"zamioculcas": 0, "agaric": 0, "jojoba": 0, "cactus": 3})
    no_charms(state)
    ctx = ScriptedCtx([1, 1, 1, 1])
    act(state, "zamioculcas", "zamioculcas-4", ctx)
    play(state, ctx, "move-1")  # nobody there: no attack owed any more, the action ends
    assert state.round == 2
    assert any(e.type == "attack-lost" for e in ctx.events)  # the obliged one is lost
    state = make({"zamioculcas": 0, "agaric": 0, "jojoba": 1, "cactus": 1})
    no_charms(state)
    ctx = ScriptedCtx([1, 1, 1, 1])
    act(state, "zamioculcas", "zamioculcas-4", ctx)
    play(state, ctx, "move-1")
    play(state, ctx, "melee-0-jojoba")
    assert "end" in pick_ids(only_pending(GAME, state))
    play(state, ctx, "end")
    assert state.fighter("cactus").hp == 8 and state.round == 2
    assert not any(e.type == "attack-lost" for e in ctx.events)


def test_zamioculcas_energy_armour_plus_one_per_die() -> None:
    """Armure énergétique: +1 to each of the shot's 3 dice."""
    state = make({"zamioculcas": 0, "cactus": 1, "agaric": 3})
    no_charms(state)
    ctx = ScriptedCtx([3, 3, 3])
    act(state, "zamioculcas", "zamioculcas-3", ctx)
    play(state, ctx, "ranged-0-cactus")
    assert state.fighter("cactus").hp == 5  # 4, 4, 4 against defence 4


def test_baobab_strike_die_given_to_the_skull_holder_discards_the_skull() -> None:
    """Crâne mystique: "défaussé ... dès que Baobab attaque celui-ci"; a strike die reassigned to
    the holder is Baobab attacking it (Strike: "réaffecter le résultat de chaque dé")."""
    state = make({"baobab": 0, "cactus": 1, "agaric": 1, "jojoba": 3})
    no_charms(state)
    state.fighter("agaric").skull = True
    ctx = ScriptedCtx([6, 2, 5, 1])
    act(state, "baobab", "baobab-4", ctx)
    play(state, ctx, "ranged-0-cactus")
    assert state.fighter("agaric").skull  # not attacked yet: only the main target so far
    answer(GAME, state, only_pending(GAME, state), ctx, amounts={"d2-agaric": 1})
    assert not state.fighter("agaric").skull
