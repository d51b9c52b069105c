"""One test per rule of the book (madsteam.fr.txt) and RULINGS.md (Madsteam)."""

from __future__ import annotations

import pytest

from bot.engine.errors import IllegalDecision
from bot.engine.game import SeatSpec
from bot.games.madsteam import GAME, rules
from bot.games.madsteam.args import Move
from bot.games.madsteam.state import Gibier, MSState
from tests.games.madsteam.helpers import (
    clear_board,
    harvest_turn,
    heroes,
    new_ctx,
    option_for,
    pending_of,
    play,
    set_up,
)


# --- Mise en place ---------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "gibier"), [(2, 6), (3, 9), (4, 11)])
def test_setup_as_printed(n: int, gibier: int) -> None:
    """Mise en place: 1 ammo, 1 chip, comfort 4, 2 objects drawn, 5 of 10 events kept,
    6/9/11 gibier (no strength 2 at 2 players), first player at random."""
    ctx = new_ctx()
    state = GAME.setup([SeatSpec(name=f"P{i}") for i in range(n)], "standard", {}, ctx)
    for p in state.players:
        assert p.res == {"ammo": 1, "chips": 1} and p.comfort == 4 and len(p.drawn) == 2
    assert len(state.event_deck) == 5
    cards = [g for stack in state.gibier.values() for g in stack]
    assert len(cards) == gibier
    if n == 2:
        assert all(g.strength != 2 for g in cards)
    assert state.phase == "shelter-pick" and state.pick_turn == state.first


def test_setup_shelters_survivors_object_and_heroes() -> None:
    """Mise en place (Abri): distinct shelters, 6 survivors placed in rooms, 1 object kept,
    heroes 3-4-4-5 lying on the well, both houses and the supermarket."""
    state, _ = set_up(4)
    assert len({p.shelter for p in state.players}) == 4
    for p in state.players:
        assert p.survivors <= 6  # 6 placed; a round-1 event may already have cost some
        assert len(p.inactive) == 1 and p.drawn == []
        assert sorted(h.value for h in p.heroes) == [3, 4, 4, 5]
        assert {h.place for h in p.heroes} == {"well", "house_a", "house_b", "supermarket"}


def test_survivor_placement_is_one_allocation_of_exactly_six() -> None:
    ctx = new_ctx()
    state = GAME.setup([SeatSpec(name="A"), SeatSpec(name="B")], "standard", {}, ctx)
    while state.phase == "shelter-pick":
        d = GAME.pending(state)[0]
        play(state, d, ctx, d.options[0].id)
    rooms = next(d for d in GAME.pending(state) if d.kind == "rooms")
    with pytest.raises(IllegalDecision):
        play(state, rooms, ctx, {"room0": 4, "room1": 1})
    play(state, rooms, ctx, {"room0": 4, "room1": 2})
    assert state.players[rooms.seat].rooms[:2] == [4, 2]


# --- Déplacements ----------------------------------------------------------------------------
def test_movement_example_from_the_armoury() -> None:
    """Règles de déplacement, example: green's 3 on the armoury cannot stay; with the mine and
    the well held by its own heroes it may go to the forest or the house (passing through)."""
    state, _ = set_up(2)
    clear_board(state)
    heroes(
        state,
        0,
        [(3, "armoury", False), (4, "mine", False), (4, "well", False), (5, "supermarket", True)],
    )
    harvest_turn(state, 0)
    places = {m.place for m in rules.legal_moves(state, 0) if m.hero == 0}
    assert places == {"forest", "house_a"}


def test_paths_ring_and_the_well_forest_path() -> None:
    """RULINGS: ring Puits-Armurerie-Forêt-Maison A-Maison B-Usine-Supermarché-Mine, plus Puits-Forêt."""
    assert set(rules.neighbours("well")) == {"armoury", "mine", "forest"}
    assert set(rules.neighbours("house_b")) == {"house_a", "factory"}
    assert rules.distances("mine")["forest"] == 2


def test_standing_heroes_do_not_move_again() -> None:
    """Phase de Récolte: each hero is played once a round."""
    state, _ = set_up(2)
    clear_board(state)
    heroes(state, 0, [(3, "armoury", True), (5, "mine", False)])
    assert {m.hero for m in rules.legal_moves(state, 0)} == {1}


def test_free_move_object_lifts_the_distance_once_a_round() -> None:
    """Exosquelette: mouvement illimité (once per round, like every object)."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, [(5, "well", False), (4, "house_a", False)])
    heroes(state, 1, [(4, "house_a", False)])
    state.players[0].active = ["exosquelette"]
    harvest_turn(state, 0)
    assert Move(hero=0, place="factory", free_move=True) in rules.legal_moves(state, 0)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, hero=0, place="factory", free_move=True))
    assert "exosquelette" in state.players[0].used
    assert not any(m.free_move for m in rules.legal_moves(state, 0))


# --- Lieux -----------------------------------------------------------------------------------
def test_well_needs_a_chip_and_gives_the_hero_value() -> None:
    """Puits: 1 chip activates it; the hero gets water by its value."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, [(4, "armoury", False)])
    heroes(state, 1, [(3, "house_b", False)])
    harvest_turn(state, 0)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, place="well"))
    assert state.players[0].has("water") == 0  # no chip: nothing to do
    assert state.arrival is None


def test_free_well_object_skips_the_chip() -> None:
    """Décrypteur: Puits accès libre."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, [(4, "armoury", False)])
    heroes(state, 1, [(3, "house_b", False)])
    state.players[0].active = ["decrypteur"]
    harvest_turn(state, 0)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, place="well"))
    assert state.players[0].has("water") == 4


def test_harvest_while_supplies_last_and_supplies_per_player_count() -> None:
    """Forêt/Mine/Usine/Armurerie by value while supplies last; supplies 2 fewer per missing
    player (6/8/10 wood at 2/3/4)."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, [(5, "well", False)])
    heroes(state, 1, [(3, "house_b", False)])
    state.supply["armoury"] = 2
    harvest_turn(state, 0)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, place="armoury"))
    assert state.players[0].has("ammo") == 2 and state.supply["armoury"] == 0
    for n, wood in ((2, 6), (3, 8), (4, 10)):
        assert state.data.supplies[n].wood == wood


def test_object_bonus_once_per_round() -> None:
    """Pioche: Mine +2 Métaux (while the mine has enough); each object once per round."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, [(3, "well", False), (4, "supermarket", False)])
    heroes(state, 1, [(3, "house_b", False), (4, "house_a", False)])
    state.players[0].active = ["pioche"]
    state.gibier["mine"] = []
    state.supply["mine"] = 10
    harvest_turn(state, 0)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, hero=0, place="mine"))
    assert state.players[0].has("metal") == 5
    assert "pioche" in state.players[0].used


def test_houses_split_value_between_search_and_objects() -> None:
    """Maisons: the hero's value buys search cards (1 each) and visible objects (1 each)."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, [(3, "forest", False)])
    heroes(state, 1, [(3, "mine", False)])
    harvest_turn(state, 0)
    obj = state.house_objects["house_a"][0]
    state.search["house_a"] = [{"wood": 2}, {"ammo": 1}, {"water": 2}]
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, place="house_a"))
    house = pending_of(state, "house")[0]
    with pytest.raises(IllegalDecision):
        play(state, house, ctx, {"search": 3, f"obj-{obj}": 1})
    play(state, house, ctx, {"search": 2, f"obj-{obj}": 1})
    p = state.players[0]
    assert obj in p.inactive
    assert p.has("water") == 2 and p.has("ammo") == 1


def test_supermarket_slot_and_first_player_token() -> None:
    """Supermarché: a slot by the hero's value gives its cans; the round's first hero there
    takes the first-player token."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 1, [(5, "mine", False)])
    heroes(state, 0, [(3, "house_b", False)])
    state.first = 0
    harvest_turn(state, 1)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, place="supermarket"))
    assert state.players[1].has("cans") == 3
    assert state.first == 1


def test_hunting_needs_value_plus_ammo_to_reach_strength() -> None:
    """Gibiers: value + ammo must reach the strength; the top card only, unless an object lets
    one choose (Vision thermique)."""
    state, _ = set_up(2)
    clear_board(state)
    heroes(state, 0, [(3, "forest", True)])
    state.players[0].res = {"ammo": 1}
    state.gibier["forest"] = [
        Gibier(name="a", strength=3, food=[1, 2]),
        Gibier(name="b", strength=5, food=[3, 4]),
    ]
    assert rules.huntable(state, 0, "forest", 3) == []
    state.players[0].res = {"ammo": 2}
    assert rules.huntable(state, 0, "forest", 3) == [1]
    state.players[0].active = ["vision-thermique"]
    assert rules.huntable(state, 0, "forest", 3) == [0, 1]


def test_food_track_grows_per_strength() -> None:
    """Gibiers: first kill of a strength gives the lowest value, then the next, and so on."""
    state, _ = set_up(2)
    p = state.players[0]
    g = Gibier(name="x", strength=4, food=[2, 3, 4, 5])
    assert rules.food_value(p, g) == 2
    p.kills = {4: 2}
    assert rules.food_value(p, g) == 4
    p.kills = {4: 9}
    assert rules.food_value(p, g) == 5


# --- Phase d'Abri ----------------------------------------------------------------------------
def _shelter(state: MSState, seat: int = 0) -> None:
    state.phase = "shelter"
    for i, p in enumerate(state.players):
        p.step = "feed" if i == seat else "done"
    state.feed_extra = 0


def test_water_rule_one_survivor_dies_without_water() -> None:
    """Fourniture: at least 1 water must be given, else 1 survivor dies even if fed."""
    state, ctx = set_up(2)
    p = state.players[0]
    p.shelter = "forge"
    p.rooms = [3, 0, 0, 0, 0, 0, 0, 0]
    p.res = {"food": 3}
    _shelter(state)
    rules.advance(state, ctx)
    assert p.rooms == [2, 0, 0, 0, 0, 0, 0, 0]  # one room: the loss is forced


def test_feeding_asks_at_least_one_water() -> None:
    state, ctx = set_up(2)
    p = state.players[0]
    p.shelter = "forge"
    p.rooms = [3, 1, 0, 0, 0, 0, 0, 0]
    p.res = {"water": 2, "food": 5}
    _shelter(state)
    rules.advance(state, ctx)
    feed = pending_of(state, "feed")[0]
    water = feed.ask.quantity("water")  # type: ignore[union-attr]
    assert water is not None and water.min == 1
    play(state, feed, ctx, {"water": 1, "food": 2})
    assert p.to_lose == 0 and p.has("food") == 3


def test_recruiting_doubled_in_the_last_round_and_keep_rule() -> None:
    """Recrutement: 1 denrée per survivor, doubled in the last round; then keep 1 water, 0
    food, every can."""
    for rnd, recruits in ((3, 4), (6, 2)):
        state, ctx = set_up(2)
        state.round = rnd
        p = state.players[0]
        p.shelter = "forge"
        p.rooms = [1, 0, 0, 0, 0, 0, 0, 0]
        p.res = {"water": 3, "food": 2, "cans": 0}
        _shelter(state)
        rules.advance(state, ctx)
        feed = pending_of(state, "feed")
        if feed:
            play(state, feed[0], ctx, {"water": 1, "food": 0})
        d = pending_of(state, "recruit")[0]
        assert d.ask.totals[0].max == recruits  # type: ignore[union-attr]
    state, ctx = set_up(2)
    p = state.players[0]
    p.res = {"water": 4, "food": 3, "cans": 5}
    rules._after_recruit(state, 0, ctx)
    assert (p.has("water"), p.has("food"), p.has("cans")) == (1, 0, 5)


def test_rooms_active_only_when_full() -> None:
    """Activation des salles: a power works only while every slot is occupied."""
    state, ctx = set_up(2)
    p = state.players[0]
    p.shelter = "forge"  # Laboratoire (2 slots): +1 chip
    p.rooms = [0, 0, 0, 0, 0, 0, 1, 0]
    p.res = {}
    rules._after_recruit(state, 0, ctx)
    assert p.has("chips") == 0
    p.rooms = [0, 0, 0, 0, 0, 0, 2, 0]
    rules._after_recruit(state, 0, ctx)
    assert p.has("chips") == 1


def test_repairs_pay_three_icons_and_refuse_what_cannot_be_paid() -> None:
    """Fabrication d'objets: Pioche costs 2 wood and 1 metal; repaired it is active (1 PS)."""
    state, ctx = set_up(2)
    p = state.players[0]
    p.inactive = ["pioche", "decrypteur"]
    p.res = {"wood": 2, "metal": 1, "chips": 2}
    p.step = "repair"
    state.phase = "shelter"
    state.players[1].step = "done"
    d = pending_of(state, "repair")[0]
    assert [q.id for q in d.ask.quantities] == ["obj-pioche"]  # type: ignore[union-attr]
    play(state, d, ctx, {"obj-pioche": 1})
    assert p.active == ["pioche"] and p.res == {"wood": 0, "metal": 0, "chips": 2}
    assert rules.score_parts(state, p)["objects"] == 1


def test_events_resolved_in_turn_order_one_each_and_not_suffered_again() -> None:
    """Résolution des Evènements: in turn order from the first player, one each; a resolved
    event no longer applies in phase 1."""
    state, ctx = set_up(2)
    state.events_active = ["pillards"]
    state.event_deck = []
    state.first = 1
    for p in state.players:
        p.res = {"ammo": 3}
    state.phase = "resolve"
    state.resolve_order = [1, 0]
    d = pending_of(state, "resolve")[0]
    assert d.seat == 1
    play(state, d, ctx, "resolve-pillards")
    assert state.players[1].resolved == ["pillards"] and state.events_active == []
    assert state.players[0].has("ammo") == 3  # next round's phase 1 took nothing
    assert rules.score_parts(state, state.players[1])["events"] == 2


def test_events_drawn_rounds_one_to_five_and_cumulative() -> None:
    """Phase Evènements: one event drawn in each of rounds 1-5, none in round 6; all unresolved
    ones apply each round."""
    state, ctx = set_up(2)
    assert len(state.events_active) == 1 and len(state.event_deck) == 4
    state.event_deck = ["rouille", "pillards", "incendie", "tempete"]
    state.events_active = ["pillards"]
    for p in state.players:
        p.res = {"ammo": 3, "metal": 5}
        p.to_lose = 0
    state.round = 1
    rules.start_round(state, ctx)
    assert state.events_active == ["pillards", "rouille"]
    assert all(p.has("ammo") == 2 and p.has("metal") == 3 for p in state.players)
    state.round = 5
    state.event_deck = []
    rules.start_round(state, ctx)
    assert state.round == 6 and state.events_active == ["pillards", "rouille"]


def test_comfort_three_steps_at_most_once_per_resource() -> None:
    """Amélioration du Confort: 2 wood or 2 metal or 2 chips per step, each once a round."""
    state, ctx = set_up(2)
    p = state.players[0]
    p.comfort = 4
    p.res = {"wood": 6, "metal": 2, "chips": 2}
    state.phase = "comfort"
    state.comfort_left = [0]
    d = pending_of(state, "comfort")[0]
    assert len(d.options) == 3
    play(state, d, ctx, [o.id for o in d.options])
    assert p.comfort == 10 and p.has("wood") == 4


# --- Fin de partie ---------------------------------------------------------------------------
def test_score_symbols_and_ties() -> None:
    """Conditions de victoire: 1 PS per repaired object, +1 per complete symbol; RULINGS
    ties: most survivors, then most resolved events, then shared."""
    state, ctx = set_up(2)
    a, b = state.players
    a.active = ["fusil-a-pompe", "canne-a-peche"]  # both halves of yellow-gear
    assert rules.symbols_completed(state, a) == 1
    for p in (a, b):
        p.shelter = "forge"
        p.rooms = [4, 0, 0, 0, 0, 0, 0, 0]
        p.comfort = 4
        p.resolved = []
    a.active, b.active = [], []
    b.rooms = [4, 1, 0, 0, 0, 0, 0, 0]  # 5 survivors, only 4 count
    rules.finish(state, ctx)
    assert state.scores == {0: 4, 1: 4} and state.winners == [1]
    b.rooms = [4, 0, 0, 0, 0, 0, 0, 0]
    rules.finish(state, ctx)
    assert state.winners == [0, 1] and state.shared


def test_a_whole_game_ends_after_six_rounds() -> None:
    from bot.engine import Match
    from bot.engine.autoplay import play_out

    m = Match.create(
        "madsteam", [SeatSpec(name="A", ai=True), SeatSpec(name="B", ai=True)], seed="six"
    )
    play_out(m, max_decisions=2000)
    assert m.state.round == 6 and m.outcome() is not None
