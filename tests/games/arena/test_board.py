"""The arena board (book "Matériel de jeu", RULINGS "Board") and setup ("Préparation")."""

from __future__ import annotations

import pytest

import bot.games.arena  # noqa: F401
from bot.engine import Ctx, IllegalDecision, SeatSpec
from bot.engine.dice import DiceState, FairRng
from bot.games.arena.board import (
    CENTRE,
    CORNERS,
    DIRECTIONS,
    DISTANCES,
    HEXES,
    NEIGHBOURS,
    SEAT_CORNERS,
    distance,
    label,
    longest_path,
    neighbours,
    paths,
    step,
)
from bot.games.arena.game import ArenaGame

GAME = ArenaGame()


def setup(n: int, seed: str = "s"):
    ctx = Ctx(FairRng(DiceState(seed=seed)))
    return GAME.setup([SeatSpec(name=f"P{i}") for i in range(n)], "melee", {}, ctx), ctx


def test_board_has_37_hexes_in_a_rosette_of_radius_3() -> None:
    assert len(HEXES) == 37 == len(set(HEXES))
    assert all(distance(h, CENTRE) <= 3 for h in HEXES)
    assert label(CENTRE) == "D4"
    assert len({label(h) for h in HEXES}) == 37
    assert [label(h) for h in HEXES[:4]] == ["A1", "A2", "A3", "A4"]


def test_the_six_corners_are_the_starting_points() -> None:
    """Book: "À chacun des 6 coins de la rosace se situe un point de départ"."""
    assert len(set(CORNERS)) == 6
    for c in CORNERS:
        assert distance(c, CENTRE) == 3
        assert len(list(neighbours(c))) == 3


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_seats_are_placed_for_symmetry(n: int) -> None:
    """RULINGS: 2 opposite, 3 alternate corners, 4 two opposite pairs, 5-6 corners."""
    state, _ = setup(n)
    spots = [f.pos for f in state.fighters]
    assert len(set(spots)) == n and set(spots) <= set(CORNERS)
    assert spots == [CORNERS[i] for i in SEAT_CORNERS[n]]
    idx = SEAT_CORNERS[n]
    if n == 2:
        assert (idx[1] - idx[0]) % 6 == 3  # opposite corners
        assert (spots[0][0] + spots[1][0], spots[0][1] + spots[1][1]) == CENTRE
    if n == 3:
        assert sorted((b - a) % 6 for a, b in zip(idx, idx[1:] + idx[:1], strict=True)) == [2, 2, 2]
    if n == 4:
        pairs = {frozenset((i, (i + 3) % 6)) for i in idx if (i + 3) % 6 in idx}
        assert len(pairs) == 2  # two opposite pairs


@pytest.mark.parametrize("n", [2, 6])
def test_everyone_starts_at_7_hp_en_garde_on_round_1(n: int) -> None:
    """Book "Préparation" 3-5."""
    state, _ = setup(n)
    assert state.round == 1
    assert all(f.hp == 7 and f.posture == "garde" and not f.down for f in state.fighters)


def test_first_player_is_random_then_the_order_is_fixed_clockwise() -> None:
    """Book "Début du jeu": chance picks the first player, then around the table."""
    firsts = set()
    for seed in range(40):
        state, ctx = setup(4, f"seed{seed}")
        first = state.order[0]
        firsts.add(first)
        assert state.order == [(first + i) % 4 for i in range(4)]
        assert state.turn is not None and state.turn.seat == first
        assert "order" in [e.type for e in ctx.events]
    assert firsts == {0, 1, 2, 3}


def test_bad_player_count_is_refused() -> None:
    with pytest.raises(IllegalDecision):
        setup(7)


def test_longest_path_and_path_enumeration_agree() -> None:
    blocked = {(1, 0), (0, 1)}
    for length in range(5):
        found = list(paths(CENTRE, blocked, length))
        assert all(len(p) == length and len(set(p)) == length for p in found)
        assert all(CENTRE not in p and not (set(p) & blocked) for p in found)
        assert (longest_path(CENTRE, blocked, length) == length) == bool(found)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_the_first_player_draw_is_a_logged_verifiable_roll(n: int) -> None:
    """Book "Début du jeu": "Le hasard détermine qui joue en premier". The draw is a
    die of ``n`` faces in the dice log, so players can check it against the seed."""
    from bot.engine.dice import draw_value
    from bot.engine.events import RollEvent

    state, ctx = setup(n, "first")
    rolls = [e for e in ctx.events if isinstance(e, RollEvent)]
    assert len(rolls) == 1
    roll = rolls[0]
    assert roll.sides == n and len(roll.dice) == 1 and roll.indices == [0]
    assert draw_value("first", 0, n) == roll.dice[0]
    assert state.order[0] == roll.dice[0] - 1
    first = state.fighters[state.order[0]].name
    assert roll.result is not None and first in roll.result.fr and first in roll.result.en


def test_the_neighbour_and_distance_tables_are_the_rosette_s() -> None:
    """Book "Matériel de jeu": 37 hexes in a rosette; the tables the path searches read
    are each hex's on-board neighbours in the compass order (E, NE, NW, W, SW, SE) and the
    hex distance, for every hex."""
    assert set(NEIGHBOURS) == set(HEXES) == set(DISTANCES)
    for h in HEXES:
        around = [step(h, d) for d in DIRECTIONS]
        assert NEIGHBOURS[h] == tuple(n for n in around if n in set(HEXES))
        assert list(neighbours(h)) == list(NEIGHBOURS[h])
        assert all(DISTANCES[h][n] == 1 for n in NEIGHBOURS[h])
        assert sorted(DISTANCES[h].values()).count(1) == len(NEIGHBOURS[h])
        for other in HEXES:
            assert DISTANCES[h][other] == distance(h, other) == DISTANCES[other][h]
    assert len(NEIGHBOURS[CENTRE]) == 6 and all(len(NEIGHBOURS[c]) == 3 for c in CORNERS)
