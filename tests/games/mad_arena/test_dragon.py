"""Zamioculcas (Règles spéciales du dragon) and its kick."""

from __future__ import annotations

import pytest

import bot.games.mad_arena  # noqa: F401
from bot.engine import Match, SeatSpec
from bot.engine.decisions import Allocation
from bot.engine.errors import IllegalDecision
from bot.games.mad_arena import rules
from bot.games.mad_arena.combat import initiative
from tests.games.mad_arena.helpers import (
    GAME,
    ScriptedCtx,
    begin,
    build,
    do,
    options,
    pick,
    rolls,
)
from tests.support.play import answer, only_pending

D = "zamioculcas"


def test_dragon_initiative_follows_gong_colour() -> None:
    """Gong square blue -> 3, red -> 4, alternating from round 1 blue (configurable)."""
    st = build(["agaric", "bonzai", "cactus", D])
    seen = []
    for r in (1, 2, 3, 4):
        st.round = r
        seen.append(initiative(st, D))
    assert seen == [3, 4, 3, 4]
    st.dragon_first = "red"
    st.round = 1
    assert initiative(st, D) == 4


def test_red_first_option() -> None:
    seats = [SeatSpec(name=f"P{i}") for i in range(7)]
    m = Match.create(
        "mad-arena", seats, seed=1, mode="ultimate-warrior", options={"dragon_gong": "red"}
    )
    assert m.state.dragon_first == "red"


def test_dragon_never_moves_and_chooses_melee_or_ranged() -> None:
    """The dragon stays in the centre; each round melee (4 dice) OR ranged (5 dice)."""
    st = build(["agaric", "bonzai", "cactus", D], zones={"agaric": "c"})
    ctx = begin(st, D, None, ScriptedCtx([6, 6, 1, 1]))
    opts = options(st)
    assert not any(o.startswith("move") for o in opts)
    assert {"melee-agaric", "zone-z1", "zone-z2", "kick-agaric", "end"} <= set(opts)
    do(st, "melee-agaric", ctx)
    assert len(rolls(ctx)[0].dice) == 4
    # One attack only: the action is over (auto end).
    assert st.action is None or st.action.fighter != D


def test_dragon_ranged_five_dice_split_among_one_zone() -> None:
    st = build(["agaric", "bonzai", "cactus", D], zones={"bonzai": 0, "cactus": 0})
    for f in ("agaric", "bonzai", "cactus"):
        st.f(f).in_play = f"{f}-1"
    ctx = begin(st, D, None, ScriptedCtx([6, 6, 6, 6, 6]))
    do(st, "zone-z0", ctx)
    d = only_pending(GAME, st)
    assert d.kind == "dragon-split" and isinstance(d.ask, Allocation)
    assert [q.id for q in d.ask.quantities] == ["agaric", "bonzai", "cactus"]
    assert "5 ranged dice" in d.prompt.en and "Agaric (defence 5+, 5 HP)" in d.prompt.en
    answer(GAME, st, d, ctx, amounts={"agaric": 2, "bonzai": 1, "cactus": 2})
    assert [len(r.dice) for r in rolls(ctx)] == [2, 1, 2]  # one roll per fighter
    assert st.f("agaric").hp == 3 and st.f("bonzai").hp == 6 and st.f("cactus").hp == 6


def test_dragon_split_uses_all_five_dice_and_skips_a_fighter_given_none() -> None:
    """RULINGS: the 5 ranged dice are split before rolling; a fighter given 0 dice is not rolled at."""
    st = build(["agaric", "bonzai", "cactus", D], zones={"bonzai": 0, "cactus": 0})
    ctx = begin(st, D, None, ScriptedCtx([6, 6, 6, 6, 6]))
    do(st, "zone-z0", ctx)
    d = only_pending(GAME, st)
    for short in ({"agaric": 2, "bonzai": 2}, {"agaric": 5, "bonzai": 1}):
        with pytest.raises(IllegalDecision) as exc:
            answer(GAME, st, d, ctx, amounts=short)
        assert "5" in exc.value.reason.en and "5" in exc.value.reason.fr
    assert rolls(ctx) == []
    answer(GAME, st, d, ctx, amounts={"agaric": 0, "bonzai": 5, "cactus": 0})
    assert [(r.data["targets"], len(r.dice)) for r in rolls(ctx)] == [(["bonzai"], 5)]


def test_dragon_single_target_zone_gets_all_five_dice() -> None:
    st = build(["agaric", "bonzai", "cactus", D])
    ctx = begin(st, D, None, ScriptedCtx([1] * 5))
    do(st, "zone-z1", ctx)
    assert len(rolls(ctx)[0].dice) == 5


def test_kick_throws_and_landing_attack_is_credited_to_dragon() -> None:
    """Kick: 4 dice; sum >= size -> thrown to a zone of the dragon's choice; landing shots."""
    st = build(["agaric", "bonzai", "cactus", "sorgho", D], zones={"sorgho": "c", "agaric": 1})
    st.f("sorgho").in_play = "sorgho-1"  # defence 4
    st.f("agaric").hp = 1
    st.f("agaric").in_play = "agaric-4"  # defence 3
    st.f("bonzai").in_play = "bonzai-1"  # defence 5
    # kick 6,4,1,1 (sum 12 >= 10): 2 hits; landing of size 10 -> 2 dice on each fighter there.
    ctx = begin(st, D, None, ScriptedCtx([6, 4, 1, 1, 3, 3, 5, 1]))
    do(st, "kick-sorgho", ctx)
    assert st.f("sorgho").hp == 8 and st.f(D).kick_used
    assert rules.pending(st)[0].kind == "kick-throw"
    assert len(options(st)) == 4  # every peripheral zone
    do(st, "throw-z1", ctx)
    assert st.f("sorgho").zone == 1
    assert [len(r.dice) for r in rolls(ctx)] == [4, 2, 2]
    assert not st.f("agaric").alive and st.f("agaric").eliminated_by == D
    assert st.f("bonzai").hp == 6
    assert any(t.fighter == "agaric" for t in st.f(D).trophies)


def test_kick_below_size_does_not_throw_and_is_used_once() -> None:
    st = build(["agaric", "bonzai", "cactus", "baobab", D], zones={"baobab": "c"})
    ctx = begin(st, D, None, ScriptedCtx([3, 3, 3, 3]))  # 12 < 13
    do(st, "kick-baobab", ctx)
    assert st.f("baobab").zone == st.centre
    ctx = begin(st, D, None)
    assert not any(o.startswith("kick") for o in options(st))
    assert ctx is not None


def test_landing_dice_by_size() -> None:
    from bot.games.mad_arena.secret_moves import landing_dice

    assert [landing_dice(s) for s in (5, 8, 9, 12, 13, 16)] == [1, 1, 2, 2, 3, 3]


def test_thrown_fighter_with_two_moves_ends_neither_where_it_began_the_round_nor_its_action() -> (
    None
):
    """§2.4 Mouvement: with two moves a fighter "ne peut pas revenir sur ses pas"
    and "doit impérativement finir son déplacement sur une zone de combat
    différente de celle où il se trouvait au début de ce round". Kicked away
    before it acts, both zones differ, and both are forbidden."""
    st = build(["agaric", "bonzai", "cactus", "sorgho", D], zones={"agaric": "c"})
    st.round = 2  # red gong: the dragon acts at 4
    ctx = ScriptedCtx([1, 1, 1, 2] + [1] * 30)  # kick: 0 hits, sum 5 >= Agaric's size 5
    rules.start_round(st, ctx)
    picks = {"agaric": "agaric-5", "bonzai": "bonzai-4", "cactus": "cactus-4", "sorgho": "sorgho-4"}
    for fid, cid in picks.items():
        pick(st, fid, cid, ctx)
    assert st.action is not None and st.action.fighter == D
    do(st, "kick-agaric", ctx)
    do(st, "throw-z2", ctx)
    while st.action is not None and st.action.fighter != "agaric":
        do(st, "end", ctx)
    assert st.f("agaric").zone == 2
    do(st, "move-z1", ctx)
    moves = {o for o in options(st) if o.startswith("move")}
    assert moves == {"move-z0"}  # not z2 (start of its action), not the centre (start of round)


def test_kick_sum_equal_to_size_throws() -> None:
    """Kick: "si la somme des résultats de ces 4 dés est supérieure ou égale à sa taille"."""
    st = build(["agaric", "bonzai", "cactus", "sorgho", D], zones={"bonzai": "c"})
    st.f("bonzai").in_play = "bonzai-1"  # defence 5
    ctx = begin(st, D, None, ScriptedCtx([2, 2, 2, 1]))  # sum 7 == Bonzaï's size, 0 hits
    do(st, "kick-bonzai", ctx)
    assert st.f("bonzai").hp == 7
    assert rules.pending(st)[0].kind == "kick-throw"
    kick = rolls(ctx)[0]
    assert kick.result is not None and "sum 7 >= size 7: thrown!" in kick.result.en
