"""The rule book's worked examples, step by step (madsteam.fr.txt)."""

from __future__ import annotations

from bot.games.madsteam import GAME, rules
from bot.games.madsteam.state import Gibier
from tests.games.madsteam.helpers import (
    clear_board,
    harvest_turn,
    heroes,
    option_for,
    pending_of,
    play,
    set_up,
)


def test_hunt_meeple_5_with_4_ammo_on_strength_6_gives_5_food_the_second_time() -> None:
    """Emplacements de Gibiers, example: Meeple 5 in the forest harvests 3 wood, spends the
    2 left plus 4 ammo on the strength-6 gibier; his second kill of that strength gives 5."""
    state, ctx = set_up(3)
    clear_board(state)
    heroes(state, 0, [(5, "well", False)])
    heroes(state, 1, [(3, "mine", True), (4, "house_b", False)])
    heroes(state, 2, [(3, "supermarket", True)])
    p = state.players[0]
    p.res = {"ammo": 4}
    p.kills = {6: 1}
    p.rooms = [4, 2, 0, 0, 0, 0, 0, 0]  # no full room with a hunting power
    state.gibier["forest"] = [Gibier(name="Ours", strength=6, food=[4, 5, 6, 7])]
    state.supply["forest"] = 10
    harvest_turn(state, 0)
    play(
        state,
        GAME.pending(state)[0],
        ctx,
        option_for(GAME.pending(state)[0], hero=0, place="forest"),
    )
    hunt = pending_of(state, "hunt")[0]
    play(state, hunt, ctx, option_for(hunt, index=0))
    alloc = pending_of(state, "hunt-alloc")[0]
    play(state, alloc, ctx, {"hunt": 2, "ammo": 4})
    assert p.has("wood") == 3
    assert p.has("food") == 5
    assert p.has("ammo") == 0
    assert p.kills[6] == 2
    assert state.gibier["forest"] == []


def test_pressure_example_one_two_clans_answer_at_once() -> None:
    """Système de Pression, first example: green's 5 comes to the mine where yellow's 4 and
    red's 3 stand. Yellow spends 1 ammo; red spends 1 ammo and gives green 1 wood."""
    green, yellow, red = 0, 1, 2
    state, ctx = set_up(3)
    clear_board(state)
    heroes(state, green, [(5, "well", False)])
    heroes(state, yellow, [(4, "mine", True), (3, "house_b", False)])
    heroes(state, red, [(3, "mine", True)])
    state.players[yellow].res = {"ammo": 2, "wood": 1}
    state.players[red].res = {"ammo": 2, "wood": 1}
    state.gibier["mine"] = []
    state.supply["mine"] = 10
    harvest_turn(state, green)
    play(state, GAME.pending(state)[0], ctx, option_for(GAME.pending(state)[0], place="mine"))
    asked = pending_of(state, "pressure")
    assert sorted(d.seat for d in asked) == [yellow, red]  # both asked at once
    by_seat = {d.seat: d for d in asked}
    assert by_seat[yellow].ask.totals[0].min == 1  # type: ignore[union-attr]
    assert by_seat[red].ask.totals[0].min == 2  # type: ignore[union-attr]
    play(state, by_seat[red], ctx, {"ammo": 1, "wood": 1})
    play(state, by_seat[yellow], ctx, {"ammo": 1, "wood": 0})
    assert state.players[yellow].res == {"ammo": 1, "wood": 1}
    assert state.players[red].res == {"ammo": 1, "wood": 0}
    assert state.players[green].has("wood") == 1
    assert state.players[green].has("metal") == 5  # then the mine's action


def test_pressure_example_two_only_standing_heroes_are_pressured() -> None:
    """Système de Pression, other example: red's 5 comes to the well; green's 3 lies there
    (inactive) so only yellow's standing 3 is pressured: 2 ammo make 3 + 2 = 5. Red then
    draws its 5 water."""
    red, yellow, green = 0, 1, 2
    state, ctx = set_up(3)
    clear_board(state)
    heroes(state, red, [(5, "mine", False)])
    heroes(state, yellow, [(3, "well", True), (4, "house_b", False)])
    heroes(state, green, [(3, "well", False)])
    state.players[red].res = {"chips": 1}
    state.players[yellow].res = {"ammo": 2, "wood": 1}
    state.players[green].res = {"ammo": 3, "wood": 3}
    harvest_turn(state, red)
    play(state, GAME.pending(state)[0], ctx, option_for(GAME.pending(state)[0], place="well"))
    asked = pending_of(state, "pressure")
    assert [d.seat for d in asked] == [yellow]
    play(state, asked[0], ctx, {"ammo": 2, "wood": 0})
    assert state.players[yellow].has("ammo") == 0
    well = pending_of(state, "well")[0]
    play(state, well, ctx, option_for(well, pump=True))
    assert state.players[red].has("water") == 5
    assert state.players[red].has("chips") == 0


def test_shelter_costing_6_with_5_denrees_loses_one_survivor_of_choice() -> None:
    """Phase d'Abri 1, example: rooms costing 2 + 3 + 1 = 6; with 3 water and 2 food the
    player gives all 5 and loses 1 survivor of their choice."""
    state, ctx = set_up(2)
    p = state.players[0]
    p.shelter = "forge"  # Dortoir 1, Atelier 2, Serre 3
    p.rooms = [2, 1, 0, 0, 1, 0, 0, 0]
    p.res = {"water": 3, "food": 2}
    state.feed_extra = 0
    assert rules.feed_cost(state, p) == 6
    state.phase = "shelter"
    p.step = "feed"
    state.players[1].step = "done"
    rules.advance(state, ctx)
    assert p.has("water") == 0 and p.has("food") == 0
    lose = pending_of(state, "lose")[0]
    assert lose.seat == 0
    assert lose.ask.totals[0].min == 1  # type: ignore[union-attr]
    play(state, lose, ctx, {"room0": 0, "room1": 1, "room4": 0})
    assert p.rooms == [2, 0, 0, 0, 1, 0, 0, 0]


def test_comfort_12_plus_two_steps_scores_16_of_17_survivors() -> None:
    """Amélioration du Confort, example: 17 survivors, comfort 12; 2 wood and 2 metal raise
    it two steps to 16, so 16 survivors score (a chip more would have made 18 and 17)."""
    state, ctx = set_up(2)
    p = state.players[0]
    p.shelter = "forge"
    p.rooms = [4, 3, 3, 3, 3, 1, 0, 0]
    assert p.survivors == 17
    p.comfort = 12
    p.res = {"wood": 2, "metal": 2, "chips": 1}
    state.phase = "comfort"
    state.comfort_left = [0]
    d = pending_of(state, "comfort")[0]
    assert sorted(o.id for o in d.options) == ["comfort-metal", "comfort-wood"]
    play(state, d, ctx, ["comfort-wood", "comfort-metal"])
    assert p.comfort == 16
    assert rules.score_parts(state, p)["survivors"] == 16
    p.comfort = 18
    assert rules.score_parts(state, p)["survivors"] == 17
