"""The seven secret moves (Bottes secrètes) and the net token, as ruled in RULINGS."""

from __future__ import annotations

import pytest

from bot.engine.decisions import Order
from bot.engine.errors import IllegalDecision
from bot.games.mad_arena import rules
from bot.games.mad_arena.combat import initiative
from tests.games.mad_arena.helpers import GAME, ScriptedCtx, begin, build, do, options, rolls
from tests.support.play import answer, only_pending, option_ids


def test_powder_keg_one_roll_against_every_fighter_in_the_zone_allies_included() -> None:
    """Agaric: 3-die explosive shot on all fighters of the targeted zone (allies too)."""
    st = build(
        ["agaric", "cactus", "bonzai", "sorgho"],
        teams=[0, 0, 1, 1],
        zones={"cactus": 1, "bonzai": 1, "sorgho": 1},
        mode="team-spirit",
    )
    st.f("cactus").in_play = "cactus-4"  # defence 3
    st.f("bonzai").in_play = "bonzai-1"  # defence 5
    st.f("sorgho").in_play = "sorgho-3"  # defence 4
    ctx = begin(st, "agaric", "agaric-keg", ScriptedCtx([5, 3, 2]))
    assert "zone-z1" in options(st) and not any(o.startswith("ranged-") for o in options(st))
    do(st, "zone-z1", ctx)
    (r,) = rolls(ctx)
    assert r.dice == [5, 3, 2]
    assert st.f("cactus").hp == 8 - 2 and st.f("bonzai").hp == 7 - 1 and st.f("sorgho").hp == 10 - 1
    assert r.result is not None and "Cactus 8 -> 6" in r.result.en


def test_kamikaze_dice_grow_with_wounds() -> None:
    """Bonzaï: melee dice = min(6, 8 - current HP)."""
    for hp, dice in [(7, 1), (5, 3), (2, 6), (1, 6)]:
        st = build(["bonzai", "agaric", "cactus", "sorgho"], zones={"sorgho": 0})
        st.f("bonzai").hp = hp
        ctx = begin(st, "bonzai", "bonzai-kamikaze", ScriptedCtx([1] * 6))
        (o,) = [x for x in rules.pending(st)[0].options if x.id == "melee-sorgho"]
        assert o.stats["dice"] == dice and "★" in o.label.en
        do(st, "melee-sorgho", ctx)
        assert len(rolls(ctx)[0].dice) == dice


def test_net_sum_at_least_size_wounds_and_nets() -> None:
    """Cactus: 3 dice; sum >= target size -> -1 HP and the net token (-1 to ⚡, move, melee, ranged)."""
    st = build(["cactus", "bonzai", "agaric", "sorgho"])
    st.f("bonzai").pick = "bonzai-2"  # ⚡5 before the net
    ctx = begin(st, "cactus", "cactus-net", ScriptedCtx([3, 2, 2]))  # sum 7 == size of Bonzaï
    do(st, "ranged-bonzai", ctx)
    assert st.f("bonzai").hp == 6 and st.net_on == "bonzai"
    net = rolls(ctx)[0]
    assert net.result is not None and "sum 7 >= size 7" in net.result.en
    assert initiative(st, "bonzai") == 4
    # Netted: -1 move (2 -> 1) and that point can only free it, moving nowhere.
    ctx2 = begin(st, "bonzai", "bonzai-1", ScriptedCtx([6]))  # move 2, melee 2
    assert st.action is not None and st.action.moves_left == 1
    assert [o for o in options(st) if o.startswith("move")] == [] and "free" in options(st)
    do(st, "free", ctx2)
    assert st.net_on is None and st.f("bonzai").zone == 1


def test_net_missed_when_sum_below_size_and_token_moves_on_new_net() -> None:
    st = build(["cactus", "sorgho", "bonzai", "agaric"])
    ctx = begin(st, "cactus", "cactus-net", ScriptedCtx([3, 3, 3]))  # 9 < 10
    do(st, "ranged-sorgho", ctx)
    assert st.f("sorgho").hp == 10 and st.net_on is None
    st.net_on = "agaric"
    st.f("cactus").removed = []
    ctx = begin(st, "cactus", "cactus-net", ScriptedCtx([6, 6, 6]))
    do(st, "ranged-sorgho", ctx)
    assert st.net_on == "sorgho"


def test_net_malus_on_dice_and_floor_of_initiative() -> None:
    st = build(["sorgho", "cactus", "agaric", "bonzai"], zones={"cactus": 0})
    st.net_on = "sorgho"
    st.f("sorgho").pick = "sorgho-5"  # ⚡2
    assert initiative(st, "sorgho") == 1
    st.f("sorgho").pick = None
    st.f("sorgho").in_play = None
    st.f("sorgho").pick = "sorgho-4"  # move 0, melee 3, ranged 1
    begin(st, "sorgho", None)
    (o,) = [x for x in rules.pending(st)[0].options if x.id == "melee-cactus"]
    assert o.stats["dice"] == 2
    assert not any(x.startswith("ranged") for x in options(st))  # 1 - 1 = 0 dice
    st.net_on = None
    st.f("sorgho").pick = "sorgho-5"
    st.net_on = "sorgho"
    begin(st, "sorgho", None)
    assert st.action is not None and st.action.moves_left == 0  # move 1 - 1: cannot get free


def test_terminotaure_dice_count_cards_played_since_refill() -> None:
    """Sorgho: dice = cards played since the last refill, this one included (1 to 6)."""
    for played_before, dice in [(0, 1), (2, 3), (5, 6)]:
        st = build(["sorgho", "agaric", "bonzai", "cactus"], zones={"cactus": 0})
        st.f("sorgho").played_since_refill = played_before
        ctx = begin(st, "sorgho", "sorgho-terminotaure", ScriptedCtx([1] * 6))
        do(st, "melee-cactus", ctx)
        assert len(rolls(ctx)[0].dice) == dice


def test_finishing_plus_one_on_weak_target_and_heals_on_kill() -> None:
    """Burdock: 5 dice, +1 each if target <= 5 HP; a kill heals 1 (size <= 10) or 2 (> 10), capped."""
    st = build(["burdock", "sorgho", "agaric", "bonzai"], zones={"sorgho": 0})
    st.f("sorgho").hp = 3
    st.f("sorgho").in_play = "sorgho-3"  # defence 4
    st.f("burdock").hp = 5
    ctx = begin(st, "burdock", "burdock-finishing", ScriptedCtx([3, 3, 3, 1, 1]))
    do(st, "melee-sorgho", ctx)
    r = rolls(ctx)[0]
    assert r.modifier == 1 and not st.f("sorgho").alive
    assert st.f("burdock").hp == 6  # Sorgho size 10 -> +1


def test_finishing_minus_one_on_healthy_target_and_heal_two_capped() -> None:
    st = build(["burdock", "baobab", "agaric", "bonzai"], zones={"baobab": 0})
    st.f("baobab").in_play = "baobab-3"  # defence 3
    ctx = begin(st, "burdock", "burdock-finishing", ScriptedCtx([3, 4, 4, 6, 1]))
    do(st, "melee-baobab", ctx)
    assert rolls(ctx)[0].modifier == -1 and st.f("baobab").hp == 13 - 3
    st2 = build(["burdock", "baobab", "agaric", "bonzai"], zones={"baobab": 0})
    st2.f("baobab").hp = 2
    st2.f("burdock").hp = 8
    ctx = begin(st2, "burdock", "burdock-finishing", ScriptedCtx([6, 6, 1, 1, 1]))
    do(st2, "melee-baobab", ctx)
    assert st2.f("burdock").hp == 9  # +2 capped at start HP 9


def test_strike_passes_missing_dice_to_the_next_target_in_the_chosen_order() -> None:
    """Baobab: 4 dice at one zone; hits wound the first target, misses go to the next."""
    st = build(["baobab", "agaric", "bonzai", "cactus"], zones={"bonzai": 1, "cactus": 1})
    st.f("agaric").in_play = "agaric-1"  # defence 5
    st.f("bonzai").in_play = "bonzai-4"  # defence 3
    st.f("cactus").in_play = "cactus-1"  # defence 4
    ctx = begin(st, "baobab", "baobab-strike", ScriptedCtx([6, 4, 3, 2]))
    do(st, "zone-z1", ctx)
    d = only_pending(GAME, st)
    assert d.kind == "strike-order" and isinstance(d.ask, Order)
    assert sorted(option_ids(d)) == ["order-agaric", "order-bonzai", "order-cactus"]
    answer(GAME, st, d, ctx, options=["order-agaric", "order-cactus", "order-bonzai"])
    assert st.f("agaric").hp == 4  # the 6
    assert st.f("cactus").hp == 7  # the 4
    assert st.f("bonzai").hp == 6  # the 3; the 2 is lost
    r = rolls(ctx)[0]
    assert r.dice == [6, 4, 3, 2]
    # The line shows which dice each target faced, so the carry-over is checkable.
    assert "order: Agaric, Cactus, Bonzaï" in r.purpose.en
    assert r.result is not None and r.result.en == (
        "3 hits in all: Agaric 5 -> 4 HP ([6, 4, 3, 2] vs 5+: 1 hit); "
        "Cactus 8 -> 7 HP ([4, 3, 2] vs 4+: 1 hit); "
        "Bonzaï 7 -> 6 HP ([3, 2] vs 3+: 1 hit); [2] hit nobody"
    )


def test_successful_net_that_eliminates_its_target_still_moves_the_token() -> None:
    """RULINGS (net): there is one net token and a new net moves it. A net whose
    1 HP eliminates its target took the token off the previous fighter all the
    same; the token then leaves with the eliminated fighter's card."""
    st = build(["cactus", "bonzai", "agaric", "sorgho"])
    st.net_on = "sorgho"
    st.f("bonzai").hp = 1
    ctx = begin(st, "cactus", "cactus-net", ScriptedCtx([3, 2, 2]))  # 7 >= Bonzaï's size
    do(st, "ranged-bonzai", ctx)
    assert not st.f("bonzai").alive
    assert st.net_on is None
    assert "Bonzaï 1 -> 0" in rolls(ctx)[0].result.en


def test_netted_fighter_is_told_of_the_malus_when_it_picks() -> None:
    """Cactus's net: -1 to every characteristic; the pick prompt says so (the
    card buttons show the printed values)."""
    st = build(["cactus", "bonzai", "agaric", "sorgho"])
    st.phase = "pick"
    st.net_on = "bonzai"
    prompts = {d.subject: d.prompt for d in rules.pending(st)}
    assert "Netted" in prompts["Bonzaï"].en and "filet" in prompts["Bonzaï"].fr
    assert "Netted" not in prompts["Cactus"].en


def test_finishing_bonus_boundary_is_five_hp() -> None:
    """Burdock: +1 per die if the target has <= 5 HP, -1 if it has more (RULINGS)."""
    from bot.games.mad_arena.secret_moves import finishing_modifier

    st = build(["burdock", "sorgho", "agaric", "bonzai"])
    for hp, mod in [(1, 1), (5, 1), (6, -1), (10, -1)]:
        st.f("sorgho").hp = hp
        assert finishing_modifier(st, "sorgho") == mod


def test_powder_keg_that_kills_a_team_mate_takes_it_as_a_trophy() -> None:
    """§3: whoever eliminates a fighter takes its card in play, team mate or not
    (the keg hits "tous les combattants présents")."""
    st = build(
        ["agaric", "cactus", "bonzai", "sorgho"],
        teams=[0, 0, 1, 1],
        zones={"cactus": 1},
        mode="team-spirit",
    )
    st.f("cactus").hp = 1
    st.f("cactus").in_play = "cactus-4"  # defence 3
    ctx = begin(st, "agaric", "agaric-keg", ScriptedCtx([6, 1, 1]))
    do(st, "zone-z1", ctx)
    assert not st.f("cactus").alive and st.f("cactus").eliminated_by == "agaric"
    assert [(t.fighter, t.card) for t in st.f("agaric").trophies] == [("cactus", "cactus-4")]


def test_strike_order_must_place_every_fighter_of_the_zone() -> None:
    """Baobab: "the player orders the fighters there": all of them, each once."""
    st = build(["baobab", "agaric", "bonzai", "cactus"], zones={"bonzai": 1, "cactus": 1})
    ctx = begin(st, "baobab", "baobab-strike", ScriptedCtx([6, 4, 3, 2]))
    do(st, "zone-z1", ctx)
    d = only_pending(GAME, st)
    for bad in (["order-agaric", "order-cactus"], ["order-agaric", "order-agaric", "order-bonzai"]):
        with pytest.raises(IllegalDecision) as exc:
            answer(GAME, st, d, ctx, options=bad)
        assert exc.value.reason.fr and exc.value.reason.en
    assert rolls(ctx) == [] and st.f("agaric").hp == 5


def test_strike_of_team_mates_lists_them_too() -> None:
    """Baobab's strike hits every fighter of the zone, team mates included (Bottes secrètes)."""
    st = build(
        ["baobab", "agaric", "bonzai", "cactus"],
        teams=[0, 0, 1, 1],
        zones={"agaric": 1, "bonzai": 1},
        mode="team-spirit",
    )
    ctx = begin(st, "baobab", "baobab-strike", ScriptedCtx([6, 6, 6, 6]))
    do(st, "zone-z1", ctx)
    d = only_pending(GAME, st)
    assert sorted(option_ids(d)) == ["order-agaric", "order-bonzai"]
