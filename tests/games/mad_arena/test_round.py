"""The round (§2): gong, secret picks, countdown, replacement, moves, attacks, refill, elimination."""

from __future__ import annotations

import json

import pytest

import bot.games.mad_arena  # noqa: F401
from bot.engine import Choice, IllegalDecision, Match, SeatSpec
from bot.games.mad_arena import rules
from bot.games.mad_arena.args import ForFighter
from bot.games.mad_arena.combat import defence
from tests.games.mad_arena.helpers import ScriptedCtx, begin, build, do, options, pick, rolls


def seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(name=f"P{i}") for i in range(n)]


def test_gong_starts_at_one_and_every_fighter_but_the_dragon_picks_secretly() -> None:
    """§2.1-2.2: gong 1; each player but the dragon chooses a card in secret."""
    m = Match.create("mad-arena", seats(7), seed=1, mode="ultimate-warrior")
    assert m.state.round == 1
    ds = m.pending()
    assert len(ds) == 6 and all(d.secret and d.timing == "pick" for d in ds)
    assert "Zamioculcas" not in {d.subject for d in ds}
    for d in ds:
        assert isinstance(d.args, ForFighter)
        fid = d.args.fighter
        assert d.subject is not None
        assert d.subject == m.state.name(fid) and d.subject in d.prompt.en
        for o in d.options:
            assert set(o.stats) >= {"initiative", "move", "melee", "ranged", "defence"}
        secret = [o for o in d.options if o.label.en.startswith("★")]
        assert len(secret) == 1 and secret[0].detail is not None
        assert "Secret move" in secret[0].detail.en and "Botte secrète" in secret[0].detail.fr
        for o in d.options:
            # Discord buttons hold 80 characters: label plus values must fit.
            stats = " · ".join(f"{k} {v}" for k, v in o.stats.items())
            assert len(f"{o.label.fr} · {stats}") <= 80 and len(f"{o.label.en} · {stats}") <= 80


def test_pick_is_private_until_the_fighter_acts() -> None:
    """§2.2: the card is placed face down; only its owner knows it until the reveal."""
    m = Match.create("mad-arena", seats(4), seed=2, mode="ultimate-warrior")
    d = m.pending()[0]
    card = d.options[0].id
    events = m.apply(Choice(seat=d.seat, key=d.key, option=card))
    private = [e for e in events if e.visible_to is not None]
    public = [e for e in events if e.visible_to is None]
    assert (
        private
        and private[0].visible_to == [d.seat]
        and card in json.dumps(private[0].model_dump())
    )
    assert public and all(card not in json.dumps(e.model_dump()) for e in public)
    assert card not in m.view(None).model_dump_json()
    assert card not in m.view((d.seat + 1) % 4).model_dump_json()
    assert card in m.view(d.seat).model_dump_json()
    assert not m.game.checkpoint(events)


def test_countdown_order_initiative_then_smaller_size() -> None:
    """§2.3: countdown 6..1; equal initiative acts by ascending size."""
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    st.phase = "pick"
    picks = {"agaric": "agaric-4", "bonzai": "bonzai-5", "cactus": "cactus-4", "sorgho": "sorgho-1"}
    ctx = ScriptedCtx([1] * 50)
    for fid, cid in picks.items():
        pick(st, fid, cid, ctx)
    order: list[str] = []
    for _ in range(10):
        if st.phase != "action" or st.action is None:
            break
        order.append(st.action.fighter)
        do(
            st,
            "end"
            if "end" in options(st)
            else sorted(o for o in options(st) if o.startswith("move"))[0],
            ctx,
        )
    # sorgho ⚡6, then agaric ⚡3 (size 5) before cactus ⚡3 (size 8), then bonzai ⚡2.
    assert order[:1] == ["sorgho"]
    reveals = [e.data["fighter"] for e in ctx.events if e.type == "reveal"]
    assert reveals == ["sorgho", "agaric", "cactus", "bonzai"]


def test_replacement_old_card_to_discard_and_base_defence_before_first_card() -> None:
    """§2.4 + RULINGS: base defence until the first card; then the card's; old card discarded."""
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    assert defence(st, "agaric") == st.data("agaric").base_defence
    begin(st, "agaric", "agaric-1")
    assert st.f("agaric").in_play == "agaric-1" and defence(st, "agaric") == 5
    begin(st, "agaric", "agaric-2")
    assert st.f("agaric").in_play == "agaric-2" and st.f("agaric").discard == ["agaric-1"]


def test_movement_is_exact_and_end_only_after_all_moves() -> None:
    """§2.4 Mouvement: every movement point must be used."""
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    ctx = begin(st, "agaric", "agaric-1")  # move 2
    assert "end" not in options(st)
    assert sorted(options(st)) == sorted(
        ["move-z3", "move-z1", "move-z4", "ranged-bonzai", "ranged-sorgho"]
    )
    do(st, "move-z4", ctx)  # centre
    assert "move-z0" not in options(st) and "end" not in options(st)
    do(st, "move-z2", ctx)
    assert st.f("agaric").zone == 2
    assert st.action is not None and st.action.path == [0, 4, 2]


def test_melee_same_zone_ranged_adjacent_zone_only_enemies() -> None:
    """§2.4 Combat / Tir: melee in the same zone, ranged at a neighbouring zone."""
    st = build(
        ["agaric", "bonzai", "cactus", "sorgho", "burdock"], zones={"cactus": 0, "sorgho": 2}
    )
    begin(st, "agaric", "agaric-4")  # move 0, melee 1, ranged 3
    opts = options(st)
    assert "melee-cactus" in opts and "melee-bonzai" not in opts
    # adjacent to zone 0 in a ring of 5: zones 4, 1 and the centre.
    assert {o for o in opts if o.startswith("ranged")} == {"ranged-burdock", "ranged-bonzai"}
    assert "ranged-sorgho" not in opts


def test_team_mates_are_not_targets_of_plain_attacks() -> None:
    st = build(
        ["agaric", "cactus", "bonzai", "sorgho"],
        teams=[0, 0, 1, 1],
        zones={"cactus": 0, "bonzai": 0},
        mode="team-spirit",
    )
    begin(st, "agaric", "agaric-4")
    assert "melee-bonzai" in options(st) and "melee-cactus" not in options(st)


def test_attack_before_between_after_moves_and_each_once() -> None:
    """§2.4: attacks may come before, during or after the movement; one melee, one ranged."""
    st = build(["cactus", "bonzai", "agaric", "sorgho"], zones={"bonzai": 0})
    ctx = begin(st, "cactus", "cactus-2", ScriptedCtx([6, 1]))  # move 2, melee 1, ranged 1
    do(st, "melee-bonzai", ctx)  # before moving
    assert not any(o.startswith("melee") for o in options(st))
    do(st, "move-z4", ctx)
    do(st, "ranged-agaric", ctx)  # between moves (agaric on zone 2, adjacent to centre)
    assert not any(o.startswith("ranged") for o in options(st))
    do(st, "move-z3", ctx)
    assert [r.dice for r in rolls(ctx)] == [[6], [1]]


def test_each_die_at_or_above_defence_wounds_one_hp_and_result_shows_hp() -> None:
    """§2.4 Combat: every die >= the target's defence removes 1 HP."""
    st = build(["bonzai", "sorgho", "agaric", "cactus"], zones={"sorgho": 0})
    ctx = begin(st, "bonzai", "bonzai-4", ScriptedCtx([4, 3, 6, 5]))  # 4 melee dice
    st.f("sorgho").in_play = "sorgho-3"  # defence 4
    do(st, "melee-sorgho", ctx)
    (r,) = rolls(ctx)
    assert r.target == 4 and st.f("sorgho").hp == 7
    assert r.result is not None
    assert "3 hits" in r.result.en and "Sorgho 10 -> 7" in r.result.en and "10 -> 7" in r.text.fr


def test_hand_refill_excludes_used_secret_move_and_card_in_play() -> None:
    """§2.2 + RULINGS: an empty hand takes back the discard, never a used secret move."""
    st = build(["baobab", "agaric", "bonzai", "cactus"])
    f = st.f("baobab")
    f.hand = []
    f.discard = ["baobab-1", "baobab-2", "baobab-3"]
    f.removed = ["baobab-strike"]
    f.in_play = "baobab-4"
    f.played_since_refill = 5
    ctx = ScriptedCtx()
    st.round = 6
    rules.start_round(st, ctx)
    assert sorted(f.hand) == ["baobab-1", "baobab-2", "baobab-3"] and f.discard == []
    assert f.played_since_refill == 0 and any(e.type == "refill" for e in ctx.events)


def test_secret_move_leaves_the_game_once_replaced() -> None:
    """Bottes secrètes: definitively discarded after use."""
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    begin(st, "agaric", "agaric-keg")
    begin(st, "agaric", "agaric-1")
    assert st.f("agaric").removed == ["agaric-keg"] and "agaric-keg" not in st.f("agaric").discard


def test_elimination_gives_card_in_play_and_trophies() -> None:
    """§3: the eliminator takes the victim's card in play and all its trophies."""
    st = build(["bonzai", "agaric", "cactus", "sorgho", "burdock"], zones={"agaric": 0})
    a = st.f("agaric")
    a.hp = 1
    a.in_play = "agaric-2"
    from bot.games.mad_arena.state import Trophy

    a.trophies = [Trophy(fighter="sorgho", card="sorgho-1")]
    ctx = begin(st, "bonzai", "bonzai-4", ScriptedCtx([6, 6, 1, 1]))
    do(st, "melee-agaric", ctx)
    assert not a.alive and a.eliminated_by == "bonzai"
    assert [(t.fighter, t.card) for t in st.f("bonzai").trophies] == [
        ("agaric", "agaric-2"),
        ("sorgho", "sorgho-1"),
    ]
    assert a.hp == 0 and any(e.type == "eliminated" for e in ctx.events)


def test_victim_without_a_card_in_play_gives_its_fighter_card() -> None:
    st = build(["bonzai", "agaric", "cactus", "sorgho"], zones={"agaric": 0})
    st.f("agaric").hp = 1
    ctx = begin(st, "bonzai", "bonzai-4", ScriptedCtx([6, 6, 6, 6]))
    do(st, "melee-agaric", ctx)
    assert [(t.fighter, t.card) for t in st.f("bonzai").trophies] == [("agaric", None)]


def test_illegal_choices_are_refused_without_change() -> None:
    m = Match.create("mad-arena", seats(4), seed=7, mode="ultimate-warrior")
    d = m.pending()[0]
    before = json.dumps(m.snapshot(), sort_keys=True)
    with pytest.raises(IllegalDecision):
        m.apply(Choice(seat=d.seat, key=d.key, option="zamioculcas"))
    with pytest.raises(IllegalDecision):
        m.apply(Choice(seat=(d.seat + 1) % 4, key=d.key, option=d.options[0].id))
    assert json.dumps(m.snapshot(), sort_keys=True) == before


def test_checkpoint_after_reveal_and_action_not_each_step() -> None:
    game = Match.create("mad-arena", seats(4), seed=1, mode="ultimate-warrior").game
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    ctx = begin(st, "agaric", "agaric-1")
    assert game.checkpoint(ctx.events)
    ctx2 = ScriptedCtx()
    do(st, "move-z4", ctx2)
    assert not game.checkpoint(ctx2.events)
    ctx3 = ScriptedCtx()
    do(st, "move-z2", ctx3)
    do(st, "end", ctx3)
    assert game.checkpoint(ctx3.events)


def test_action_ends_by_itself_when_nothing_is_left() -> None:
    st = build(["baobab", "agaric", "bonzai", "cactus"])
    ctx = begin(st, "baobab", "baobab-2")  # move 0, targets adjacent: agaric, cactus
    assert "end" in options(st)
    do(st, "ranged-agaric", ScriptedCtx([1, 1, 1]))
    assert st.f("baobab").acted or st.round == 2
    assert ctx is not None


def test_fighter_freed_of_the_net_after_its_number_was_called_still_acts() -> None:
    """§2.3 + RULINGS (net: -1 initiative): every fighter acts once per round.

    Sorgho is netted (⚡6 -> 5). At 5, Cactus (smaller) acts first and nets
    Agaric, which moves the one net token off Sorgho: Sorgho's initiative is
    back to 6, a number already called. It must still act (at once, before
    anyone whose number is lower), not be skipped.
    """
    st = build(["cactus", "sorgho", "bonzai", "agaric"])
    st.phase = "pick"
    st.net_on = "sorgho"
    picks = {
        "cactus": "cactus-net",
        "sorgho": "sorgho-1",
        "bonzai": "bonzai-5",
        "agaric": "agaric-5",
    }
    ctx = ScriptedCtx([6, 6, 6] + [1] * 20)
    for fid, cid in picks.items():
        pick(st, fid, cid, ctx)
    assert st.action is not None and st.action.fighter == "cactus"
    do(st, "ranged-agaric", ctx)  # 6+6+6 >= 5: the token moves to Agaric
    assert st.net_on == "agaric"
    do(st, "move-z1", ctx)
    assert st.action is not None and st.action.fighter == "sorgho"
    reveal = [e for e in ctx.events if e.type == "reveal"][-1]
    assert reveal.data["fighter"] == "sorgho" and "acts at once" in reveal.text.en


def test_unrevealed_pick_of_an_eliminated_fighter_stays_secret() -> None:
    """§2.2 (cards chosen face down) + secrecy: a fighter eliminated before its
    number is called never reveals its pick, to the public or to other seats."""
    from bot.engine.registry import get_game

    game = get_game("mad-arena")
    st = build(["bonzai", "agaric", "cactus", "sorgho"], zones={"agaric": 0})
    st.f("agaric").hp = 1
    st.f("agaric").pick = "agaric-keg"
    st.f("agaric").hand.remove("agaric-keg")
    ctx = begin(st, "bonzai", "bonzai-4", ScriptedCtx([6, 6, 6, 6]))
    st.f("agaric").acted = False
    do(st, "melee-agaric", ctx)
    assert not st.f("agaric").alive
    for seat in (None, 0, 2, 3):
        assert "agaric-keg" not in game.view(st, seat).model_dump_json()
    assert all(
        "agaric-keg" not in json.dumps(e.model_dump()) for e in ctx.events if e.visible_to is None
    )
