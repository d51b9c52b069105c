"""Movement (book "Bouger", "Handicap", "Au sol"; RULINGS "Movement")."""

from __future__ import annotations

import itertools

import pytest

from bot.games.arena.board import DIRECTIONS, longest_path, neighbours, step
from bot.games.arena.rules import blocked_hexes, legal_steps, remaining_steps
from tests.games.arena.helpers import GAME, arrange, kind, offered, play, steps

FAR = (-3, 3)


def test_posture_sets_the_exact_number_of_hexes_to_cross() -> None:
    """ "On doit bouger du nombre exact de cases que la posture indique, pas moins"."""
    for posture, length in [("defensive", 1), ("balancee", 2), ("agressive", 3), ("dechainee", 4)]:
        state = arrange([(0, 0), (3, -3)])
        play(state, 0, posture)
        assert kind(state) == "fight" and state.turn is not None
        assert state.turn.required == length
        assert "end" not in offered(state)  # no stopping early
        for _ in range(length - 1):
            play(state, 0, steps(state)[0])
            assert "end" not in offered(state)
        play(state, 0, steps(state)[0])
        # Nobody adjacent and the move is complete: the turn is over.
        assert state.turn is not None and state.turn.seat == 1
        assert len(state.last.path) == length + 1
        assert len(set(state.last.path)) == length + 1


def test_en_garde_does_not_move() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "garde")  # only "rest" is possible: applied at once
    assert state.fighters[0].pos == (0, 0) and state.last.action == "rest"


def test_never_twice_on_one_hex() -> None:
    """ "il est interdit de passer sur la même case deux fois"."""
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "dechainee", "e", "nw")
    # From (1,-1) going SW would be back to the start (0,0).
    assert "sw" not in offered(state)
    play(state, 0, "w")  # (0,-1)
    assert "se" not in offered(state)  # (0,0) again
    assert "e" not in offered(state)  # (1,-1) again


def test_never_through_or_onto_an_opponent() -> None:
    """ "on ne peut ni traverser ni s'arrêter dans une case occupée par un adversaire"."""
    state = arrange([(0, 0), (1, 0), FAR])
    play(state, 0, "defensive")
    assert "e" not in offered(state)
    assert {"ne", "nw", "w", "sw", "se"} <= set(offered(state))


def test_knocked_out_hex_is_blocked() -> None:
    """ "Zéro points de vie": the hex "est désormais considérée bloquée"."""
    state = arrange([(0, 0), FAR, (0, 1)], f2={"out": True, "hp": 0})
    play(state, 0, "defensive")
    assert "se" not in offered(state)
    state = arrange([(0, 0), FAR, (0, 1)], f2={"out": True, "hp": 0})
    play(state, 0, "balancee", "e")
    assert "sw" not in offered(state)  # (0,1) from (1,0)


def test_a_step_into_a_dead_end_is_never_offered() -> None:
    """RULINGS: only steps that keep the exact length possible are offered."""
    # (3,-3) is a corner; its other neighbours hold Bob and Cid.
    positions = [(2, -2), (2, -3), (3, -2), FAR]
    state = arrange(positions)
    play(state, 0, "balancee")
    assert "ne" not in offered(state)
    state = arrange(positions)
    play(state, 0, "defensive")
    assert "ne" in offered(state)


def test_longest_legal_path_when_the_exact_length_is_impossible() -> None:
    """RULINGS: "Where no path of that exact length exists, the longest legal path is taken"."""
    # Ann in corner (3,-3): only (2,-2) is free, and it is walled in.
    positions = [(3, -3), (2, -3), (3, -2), (1, -2), (1, -1), (2, -1)]
    state = arrange(positions)
    play(state, 0, "dechainee")
    assert state.turn is not None and state.turn.required == 1
    assert steps(state) == ["sw"]
    # The one destination, alone or with an attack on each neighbour there.
    assert [o for o in offered(state) if o.startswith("m")] == [
        "mB4",
        "mB4a1",
        "mB4a2",
        "mB4a3",
        "mB4a4",
        "mB4a5",
    ]
    play(state, 0, "sw")
    assert "end" in offered(state)  # opponents adjacent: may still attack or stop


def test_no_move_at_all_when_walled_in() -> None:
    positions = [(3, -3), (2, -3), (3, -2), (2, -2)]
    state = arrange(positions, f1={"posture": "garde"}, f2={"posture": "garde"})
    play(state, 0, "agressive")
    assert state.turn is not None and state.turn.required == 0
    # Only attacks are left (the "fight" was the only action and starts at once).
    assert set(offered(state)) == {"atk1", "atk2", "atk3"}


@pytest.mark.parametrize(
    ("hp", "posture", "expected"),
    [
        (3, "dechainee", 3),
        (2, "dechainee", 2),
        (1, "agressive", 1),
        (2, "defensive", 1),
        (4, "dechainee", 4),
    ],
)
def test_handicap_caps_the_move_at_3_hp_or_less(hp: int, posture: str, expected: int) -> None:
    """ "Handicap": no more hexes than its HP at 3, 2 or 1 HP."""
    state = arrange([(0, 0), (3, -3)], f0={"hp": hp})
    play(state, 0, posture)
    assert state.turn is not None and state.turn.required == expected


def test_handicap_does_not_change_attack_or_defence() -> None:
    state = arrange([(0, 0), (1, 0)], f0={"hp": 1}, f1={"posture": "agressive"})
    play(state, 0, "dechainee")
    atk = next(o for o in GAME.pending(state)[0].options if o.id == "atk1")
    assert atk.stats["atk"] == 4 and atk.stats["def"] == 1


def test_offered_steps_are_exactly_the_completable_ones() -> None:
    """Brute force over a cluttered board: a step is offered iff a full path continues it."""
    positions = [(0, 0), (1, -1), (-1, 1), (0, -2), (2, 0), (-2, 0)]
    state = arrange(positions)
    play(state, 0, "dechainee")
    turn = state.turn
    assert turn is not None
    blocked = blocked_hexes(state, 0) | set(turn.path)
    for d in DIRECTIONS:
        n = step((0, 0), d)
        ok = n in set(neighbours((0, 0))) and n not in blocked
        ok = ok and longest_path(n, blocked, turn.required - 1) == turn.required - 1
        assert (d in legal_steps(state, turn)) == ok
    assert remaining_steps(turn) == turn.required


def test_a_fighter_on_the_ground_cannot_move_and_gets_up_in_a_whole_turn() -> None:
    """ "Un combattant au sol ne peut bouger d'aucun espace : il devra prendre un tour pour se relever"."""
    state = arrange([(0, 0), (3, -3)], f0={"down": True})
    labels = {o.id: o.label.en for o in GAME.pending(state)[0].options}
    assert set(labels) == {"garde", "defensive", "balancee", "agressive", "dechainee"}
    assert all(v.startswith("Get up") for v in labels.values())
    play(state, 0, "agressive")
    ann = state.fighters[0]
    assert not ann.down and ann.posture == "agressive" and ann.pos == (0, 0)
    assert state.last.action == "getup" and state.turn.seat == 1


def test_paths_are_contiguous() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "dechainee", "e", "e", "se", "w")
    path = state.last.path
    assert all(b in set(neighbours(a)) for a, b in itertools.pairwise(path))


def test_get_up_buttons_promise_no_move_this_turn() -> None:
    """Getting up is the whole turn (RULINGS): its buttons show only the defence it sets."""
    state = arrange([(0, 0), (3, -3)], f0={"down": True})
    for o in GAME.pending(state)[0].options:
        assert o.stats == {
            "def": {"garde": 4, "defensive": 3, "balancee": 2, "agressive": 1, "dechainee": 0}[o.id]
        }
        assert "whole turn" in o.detail.en and "tout le tour" in o.detail.fr


def test_posture_buttons_show_the_exact_move_of_this_turn() -> None:
    """The move on each button is what the turn will require: the posture's value,
    capped by the handicap and by the longest legal path (RULINGS)."""
    positions = [(3, -3), (2, -3), (3, -2), (1, -2), (1, -1), (2, -1)]
    state = arrange(positions)  # only (2,-2) is free, and it is walled in
    moves = {o.id: o.stats["move"] for o in GAME.pending(state)[0].options}
    assert moves == {"garde": 0, "defensive": 1, "balancee": 1, "agressive": 1, "dechainee": 1}
    state = arrange([(0, 0), (3, -3)], f0={"hp": 2})
    moves = {o.id: o.stats["move"] for o in GAME.pending(state)[0].options}
    assert moves == {"garde": 0, "defensive": 1, "balancee": 2, "agressive": 2, "dechainee": 2}
