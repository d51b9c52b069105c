"""The lucky charm (PORTE-BONHEUR): once per match, after an attack roll against the fighter,
flip one die (x -> 7 - x) or make the attacker reroll up to 3 chosen dice; asked privately."""

from __future__ import annotations

import random

from bot.engine.decisions import Many
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


def _attacked(dice: list[int], ai: bool = False) -> tuple[UWState, ScriptedCtx]:
    """Baobab (3 melee dice) attacks Cactus (defence 4); the charm question is pending."""
    state = make({"baobab": 0, "cactus": 0, "agaric": 3}, ai=ai)
    state.fighter("cactus").played = ["cactus-8"]
    ctx = ScriptedCtx(dice)
    act(state, "baobab", "baobab-7", ctx)
    play(state, ctx, "melee-0-cactus")
    return state, ctx


def test_the_question_is_private_a_reaction_and_no_comes_first() -> None:
    state, _ = _attacked([6, 6, 6])
    d = only_pending(GAME, state)
    assert d.kind == "charm" and d.secret and d.timing == "reaction"
    assert d.seat == state.fighter("cactus").seat
    assert pick_ids(d)[0] == "no" and {"flip-0", "flip-1", "flip-2", "reroll"} <= set(pick_ids(d))
    public = GAME.view(state, None)
    assert not public.charm_question and GAME.view(state, d.seat).charm_question


def test_declining_leaves_no_public_trace_and_keeps_the_charm() -> None:
    state, ctx = _attacked([6, 6, 2])
    play(state, ctx, "no")
    assert state.fighter("cactus").charm
    assert not any("charm" in e.text.en.lower() for e in ctx.events if e.visible_to is None)
    assert state.fighter("cactus").hp == 6  # 2 wounds, nothing changed


def test_flip_turns_a_die_over_and_is_used_up() -> None:
    """ "retourner sur sa face opposée un dé d'attaque adverse (par exemple, transformer un 6 en 1)"."""
    state, ctx = _attacked([6, 6, 2])
    play(state, ctx, "flip-0")
    cactus = state.fighter("cactus")
    assert cactus.hp == 7 and not cactus.charm  # 1, 6, 2: one wound
    assert any(e.type == "charm" and e.visible_to is None for e in ctx.events)


def test_reroll_up_to_three_chosen_dice_new_results_replace_the_old() -> None:
    """ "faire relancer jusqu'à 3 dés (de son choix) ... les nouveaux résultats remplaçant
    obligatoirement les premiers"."""
    state, ctx = _attacked([6, 6, 6, 1, 1])
    play(state, ctx, "reroll")
    d = only_pending(GAME, state)
    assert d.kind == "charm-dice" and d.secret and d.ask == Many(min=1, max=3)
    answer(GAME, state, d, ctx, options=["die-0", "die-1"])
    assert state.fighter("cactus").hp == 7  # 1, 1, 6: one wound
    assert ctx.left() == []


def test_once_per_match() -> None:
    state, ctx = _attacked([6, 6, 2])
    play(state, ctx, "flip-0")
    ctx = ScriptedCtx([6, 6, 6])
    state.fighter("cactus").zone = 0
    act(state, "baobab", "baobab-5", ctx)  # melee 3
    play(state, ctx, "melee-0-cactus")
    assert all(d.kind != "charm" for d in GAME.pending(state))


def test_an_expired_question_of_a_human_is_answered_no() -> None:
    """Issue 12: a deadline means "no" -- the engine answers an expired decision with the AI."""
    state, _ = _attacked([6, 6, 6])
    d = only_pending(GAME, state)
    assert GAME.ai_choose(state, d, random.Random(1), "hard") == "no"
    assert GAME.ai_choose(state, d, random.Random(1), None) == "no"


def test_an_ai_fighter_uses_its_charm_against_a_heavy_roll() -> None:
    state, _ = _attacked([6, 6, 6], ai=True)
    d = only_pending(GAME, state)
    assert GAME.ai_choose(state, d, random.Random(1), "hard") != "no"


def test_the_stones_can_be_charmed_too() -> None:
    """The stones are a shot "subie": the eliminator may use its charm against them."""
    state = make({"sorgho": 2, "bonzai": 2, "agaric": 5}, round=1)
    state.fighter("bonzai").hp = 1
    state.fighter("bonzai").charm = False
    ctx = ScriptedCtx([6, 1, 1, 1, 6, 6, 6])
    act(state, "sorgho", "sorgho-6", ctx)
    play(state, ctx, "melee-0-bonzai")
    d = only_pending(GAME, state)
    assert d.kind == "charm" and d.seat == state.fighter("sorgho").seat
