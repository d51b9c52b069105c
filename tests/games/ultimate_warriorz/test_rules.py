"""Setup, rounds, movement, mandatory attacks, popularity, stones and the end (rule book §2-§5)."""

from __future__ import annotations

import pytest

from bot.engine import IllegalDecision, Match, SeatSpec
from bot.games.ultimate_warriorz import rules
from bot.games.ultimate_warriorz.arena import CENTRE
from bot.games.ultimate_warriorz.modes import BOOK_CONFIGS, parse_teams, team_config
from tests.games.ultimate_warriorz.helpers import (
    GAME,
    ScriptedCtx,
    act,
    make,
    only_pending,
    pick_ids,
    play,
)

UW = "ultimate-warriorz"


def seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(name=f"P{i}") for i in range(n)]


# --- §2-§3 setup --------------------------------------------------------------------------------
def test_placement_in_ascending_size_on_empty_peripheral_zones_then_the_centre() -> None:
    """§3 step 2: smallest first, each on an empty zone, the 6 peripheral ones first; at 8
    players the two largest end up in the centre."""
    m = Match.create(UW, seats(8), "place", "tribal-rumble")
    sizes = []
    while m.pending()[0].kind == "place":
        d = m.pending()[0]
        f = m.state.fighter(d.args.fighter)
        sizes.append(f.size)
        assert CENTRE not in [o.args.zone for o in d.options]
        m.apply(m.ai_choice(d))
    assert sizes == sorted(sizes) and len(sizes) == 5  # the 6th has one zone left
    centre = sorted(f.id for f in m.state.fighters if f.zone == CENTRE)
    assert centre == ["baobab", "zamioculcas"]
    assert m.pending()[0].kind == "pick"


def test_fighters_chosen_in_turn_each_sees_what_is_taken() -> None:
    """§2: each player chooses a fighter sheet; taken ones are no longer offered."""
    m = Match.create(UW, seats(3), "draft", "tribal-rumble", {"fighters": "choose"})
    d = m.pending()[0]
    assert d.kind == "draft" and d.seat == 0 and len(d.options) == 8
    m.apply(m.ai_choice(d))
    d2 = m.pending()[0]
    assert d2.seat == 1 and len(d2.options) == 7 and d2.hint is not None
    assert "none" not in d2.hint.en


@pytest.mark.parametrize("people", sorted(BOOK_CONFIGS))
def test_team_spirit_configurations_as_printed(people: int) -> None:
    """TEAM SPIRIT: every printed configuration gives one lot per person, teams as printed."""
    for k, cfg in enumerate(BOOK_CONFIGS[people]):
        assert len(cfg.lots) == people
        m = Match.create(UW, seats(people), f"t{k}", "team-spirit", {"config": str(k + 1)})
        in_play = {f.id for f in m.state.fighters}
        assert in_play == {f for t in cfg.teams for f in t}
        for team in cfg.teams:
            assert len({m.state.fighter(f).team for f in team}) == 1


def test_book_configuration_examples() -> None:
    assert BOOK_CONFIGS[3][0].teams == [
        ["agaric", "baobab"],
        ["bonzai", "sorgho"],
        ["cactus", "burdock"],
    ]
    assert BOOK_CONFIGS[5][0].teams == [["agaric", "jojoba", "bonzai"], ["cactus", "zamioculcas"]]
    assert [len(t) for t in BOOK_CONFIGS[2][3].teams] == [4, 4]


def test_host_teams_and_refusals() -> None:
    cfg = parse_teams("agaric+baobab vs cactus+sorgho", 4)
    assert cfg.lots == [["agaric"], ["baobab"], ["cactus"], ["sorgho"]]
    assert parse_teams("agaric+baobab vs cactus+sorgho", 2).lots == [
        ["agaric", "baobab"],
        ["cactus", "sorgho"],
    ]
    with pytest.raises(IllegalDecision):
        parse_teams("agaric+dragon vs cactus", 3)
    with pytest.raises(IllegalDecision):
        team_config(3, "2", None)  # the book has one 3-player configuration


# --- §4 rounds -----------------------------------------------------------------------------------
def test_picks_are_secret_until_the_card_is_revealed() -> None:
    """§4.1: a card is chosen face down; others see only that it is chosen."""
    m = Match.create(UW, seats(3), "picks", "tribal-rumble")
    while m.pending()[0].kind == "place":
        m.apply(m.ai_choice(m.pending()[0]))
    d = m.pending()[0]
    assert d.secret and all(x.secret for x in m.pending())
    events = m.apply(m.ai_choice(d))
    fid = d.args.fighter
    public = m.view(None)
    f = next(x for x in public.fighters if x.id == fid)
    assert f.picked and f.pick is None and f.hand is None
    own = next(x for x in m.view(d.seat).fighters if x.id == fid)
    assert own.pick is not None
    assert all(e.visible_to == [d.seat] for e in events)


def test_movement_is_exact_and_never_reenters_a_zone() -> None:
    """§4.3 Mouvement: exactly the card's value, one line per point, never back on a zone
    already occupied during this action."""
    state = make({"baobab": 0, "agaric": 3, "jojoba": 4})
    ctx = ScriptedCtx()
    d = act(state, "baobab", "baobab-8", ctx)  # move 1, melee 2: no one to hit in zone 0
    assert d is not None and set(pick_ids(d)) == {"move-1", "move-5", "move-6"}
    play(state, ctx, "move-6")
    assert state.phase == "pick"  # no target from the centre for melee: lost; moves done
    state = make({"baobab": 0, "agaric": 3, "jojoba": 4})
    d = act(state, "baobab", "baobab-7", ctx)  # move 2
    play(state, ctx, "move-6")
    d = only_pending(GAME, state)
    assert "move-0" not in pick_ids(d) and len(d.options) == 5


def test_melee_is_mandatory_while_a_target_is_in_the_zone() -> None:
    """§4.3: a melee value above 0 means the player MUST attack someone in its zone."""
    state = make({"baobab": 0, "agaric": 0, "jojoba": 4})
    state.fighter("agaric").charm = False
    ctx = ScriptedCtx([1, 1, 1, 1])
    d = act(state, "baobab", "baobab-1", ctx)  # move 0, melee 4
    assert d is not None and pick_ids(d) == ["melee-0-agaric"]


def test_an_obliged_attack_with_no_target_left_is_lost() -> None:
    """RULINGS: the attack is lost when no legal target remains from the current zone."""
    state = make({"cactus": 0, "agaric": 3})
    ctx = ScriptedCtx()
    d = act(state, "cactus", "cactus-7", ctx)  # move 2, melee 2
    assert d is not None and all(o.id.startswith("move") for o in d.options)
    play(state, ctx, "move-1")
    play(state, ctx, "move-2")
    assert any(e.type == "attack-lost" for e in ctx.events)


def test_ranged_needs_another_zone_and_long_shots_lose_one_per_die() -> None:
    """§4.3 Tir: another zone; at 2 zones a long shot: -1 on each die."""
    state = make({"cactus": 0, "baobab": 0, "agaric": 1, "jojoba": 3})
    for f in state.fighters:
        f.charm = False
    ctx = ScriptedCtx([5, 5, 5, 5])
    d = act(state, "cactus", "cactus-6", ctx)
    assert d is not None and set(pick_ids(d)) == {"ranged-0-agaric", "ranged-0-jojoba"}
    play(state, ctx, "ranged-0-jojoba")
    roll = [e for e in ctx.events if e.type == "roll"][0]
    assert roll.modifier == -1
    # Four 5s against Jojoba's defence 5 would all wound; as a long shot they are 4s: none.
    assert state.fighter("jojoba").hp == 6


def test_first_wound_is_worth_3_pp_then_1() -> None:
    """§4.3 Points de vie: the first HP lost brings the big token, 3 PP at once."""
    state = make({"baobab": 0, "cactus": 0, "agaric": 3})
    state.fighter("cactus").charm = False
    state.fighter("cactus").played = ["cactus-8"]
    ctx = ScriptedCtx([6, 1, 1, 6, 6, 1])
    act(state, "baobab", "baobab-7", ctx)
    play(state, ctx, "melee-0-cactus")
    assert state.fighter("baobab").pp == 3
    state.fighter("baobab").zone = 0
    act(state, "baobab", "baobab-5", ctx)
    play(state, ctx, "melee-0-cactus")
    assert state.fighter("baobab").pp == 5


@pytest.mark.parametrize(("rnd", "stones"), [(1, 3), (2, 2), (3, 1), (4, 0)])
def test_stones_3_2_1_dice_in_rounds_1_to_3_then_none(rnd: int, stones: int) -> None:
    """Jets de pierre: 3 dice in round 1, 2 in round 2, 1 in round 3; they stop in round 4."""
    state = make({"sorgho": 2, "bonzai": 2, "agaric": 5}, round=rnd)
    state.fighter("bonzai").hp = 1
    for f in state.fighters:
        f.charm = False
    ctx = ScriptedCtx([6, 6, 6, 6] + [1] * stones)
    act(state, "sorgho", "sorgho-6", ctx)
    play(state, ctx, "melee-0-bonzai")
    thrown = [e for e in ctx.events if e.type == "roll" and "stones" in e.purpose.en]
    assert [len(e.dice) for e in thrown] == ([stones] if stones else [])


def test_last_standing_wins_at_once() -> None:
    """§5: a fighter alone on the esplanade before the end of round 7 wins."""
    state = make({"sorgho": 2, "bonzai": 2}, round=5)
    state.fighter("bonzai").hp = 1
    state.fighter("bonzai").charm = False
    ctx = ScriptedCtx([6, 6, 6, 6])
    act(state, "sorgho", "sorgho-6", ctx)
    play(state, ctx, "melee-0-bonzai")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [state.fighter("sorgho").seat]


def test_points_then_trophies_then_smallest_size() -> None:
    """§5 Victoire: most PP among survivors, then most trophies, then the smallest fighter."""
    state = make({"agaric": 0, "baobab": 1, "cactus": 2})
    a, b, c = (state.fighter(x) for x in ("agaric", "baobab", "cactus"))
    a.pp, b.pp, c.pp = 5, 5, 9
    c.alive = False
    rules._finish_on_points(state, ScriptedCtx())
    assert state.result_fighters == ["agaric"]  # 5 = 5 PP, 0 = 0 trophies: smaller wins
    b.trophies = ["cactus"]
    rules._finish_on_points(state, ScriptedCtx())
    assert state.result_fighters == ["baobab"]


def test_team_totals_count_every_member() -> None:
    """TEAM SPIRIT: PP and trophies of all members of a team are summed."""
    state = make(
        {"agaric": 0, "baobab": 1, "cactus": 2, "sorgho": 3},
        teams=[["agaric", "baobab"], ["cactus", "sorgho"]],
    )
    state.fighter("agaric").pp = 4
    state.fighter("agaric").alive = False
    state.fighter("baobab").pp = 3
    state.fighter("cactus").pp = 6
    rules._finish_on_points(state, ScriptedCtx())
    assert state.result_fighters == ["agaric", "baobab"]


def test_seven_rounds_every_card_once_one_never_played() -> None:
    """§4: 7 rounds; 8 cards each, every card played at most once, one never played."""
    m = Match.create(UW, [SeatSpec(name=f"P{i}", ai=True, ai_level="easy") for i in range(3)], "7r")
    rounds = set()
    while not m.over:
        rounds.add(m.state.round)
        m.apply(m.ai_choice(m.pending()[0]))
    assert max(rounds) <= 7
    for f in m.state.fighters:
        assert len(set(f.played)) == len(f.played) and len(f.played) + len(f.hand) == 8
        if (
            f.alive
            and m.state.round == 7
            and "Final" in (m.state.result_text.en if m.state.result_text else "")
        ):
            assert len(f.hand) == 1


def test_no_stones_once_the_last_opponent_is_down() -> None:
    """§5: the last one standing wins at once; the crowd throws nothing at the winner."""
    state = make({"sorgho": 2, "bonzai": 2}, round=1)
    state.fighter("bonzai").hp = 1
    state.fighter("bonzai").charm = False
    ctx = ScriptedCtx([6, 6, 6, 6])
    act(state, "sorgho", "sorgho-6", ctx)
    play(state, ctx, "melee-0-bonzai")
    assert not any(e.type == "stones" for e in ctx.events)
    assert GAME.outcome(state) is not None
