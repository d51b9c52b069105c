"""The typed view carries the numbers the rules derive, computed once: the renderer,
the AI and the buttons read the same values (book "Bouger", "Handicap", "Désarmé",
"Au sol", "Fin du jeu")."""

from __future__ import annotations

import random

from bot.engine.game import View
from bot.games.arena.ai import choose
from bot.games.arena.postures import ROUNDS
from bot.games.arena.view import ArenaView
from tests.games.arena.helpers import GAME, arrange, play

FAR = (-3, 3)


def test_the_view_is_typed_and_public() -> None:
    state = arrange([(0, 0), (3, -3)])
    view = GAME.view(state, None)
    assert isinstance(view, ArenaView) and isinstance(view, View)
    assert GAME.view(state, 0) == GAME.view(state, 1) == view
    assert ArenaView.model_validate_json(view.model_dump_json()) == view


def test_each_space_of_the_track_after_the_handicap_and_the_disarm_penalty() -> None:
    """ "Handicap": the move is at most the HP at 3 HP or less; "Désarmé": -2 dice,
    minimum 1 where the posture gives dice; "Au sol": move 0, attack 1, defence 1."""
    state = arrange([(0, 0), (3, -3)], f0={"hp": 2, "disarmed": True, "weapon_at": (0, 0)})
    ann = GAME.view(state, None).fighter(0)
    moves = {s: d.move for s, d in ann.spaces.items()}
    assert moves == {
        "garde": 0,
        "defensive": 1,
        "balancee": 2,
        "agressive": 2,
        "dechainee": 2,
        "sol": 0,
    }
    dice = {s: (d.attack, d.defence) for s, d in ann.spaces.items()}
    assert dice == {
        "garde": (0, 2),
        "defensive": (1, 1),
        "balancee": (1, 1),
        "agressive": (1, 1),
        "dechainee": (2, 0),
        "sol": (1, 1),
    }
    assert (ann.attack, ann.defence) == (0, 2)  # its pawn is on "en garde"


def test_the_buttons_show_the_views_numbers() -> None:
    """One computation: the posture buttons and the view agree."""
    positions = [(3, -3), (2, -3), (3, -2), (1, -2), (1, -1), (2, -1)]
    state = arrange(positions, f0={"hp": 3, "disarmed": True, "weapon_at": FAR})
    view = GAME.view(state, None)
    assert view.turn is not None
    ann = view.fighter(0)
    for o in GAME.pending(state)[0].options:
        assert o.stats["move"] == view.turn.lengths[o.id]
        assert o.stats["atk"] == ann.spaces[o.id].attack
        assert o.stats["def"] == ann.spaces[o.id].defence
    assert view.turn.lengths["dechainee"] == 1  # walled in: the longest legal path


def test_the_turn_in_progress_and_the_rounds_left() -> None:
    state = arrange([(0, 0), (3, -3)])
    view = GAME.view(state, None)
    assert (view.round, view.rounds, view.rounds_left) == (1, ROUNDS, ROUNDS - 1)
    assert view.turn is not None and view.turn.remaining is None
    play(state, 0, "agressive", "e")
    turn = GAME.view(state, None).turn
    assert turn is not None and (turn.required, turn.remaining) == (3, 2)
    assert turn.path == [(0, 0), (1, 0)] and not turn.attacked
    assert (3, -3) in turn.blocked


def test_who_can_be_attacked_now() -> None:
    state = arrange(
        [(0, 0), (1, 0), (-1, 0), FAR], f0={"posture": "balancee"}, f1={"posture": "garde"}
    )
    view = GAME.view(state, None)
    assert view.fighter(0).can_attack == [1, 2]
    assert view.fighter(1).can_attack == []  # en garde: 0 attack dice (RULINGS)
    assert view.fighter(3).can_attack == []


def test_the_ai_plays_from_the_view_alone() -> None:
    state = arrange([(0, 0), (1, 0), (-3, 3)], f1={"hp": 2, "posture": "agressive"})
    d = GAME.pending(state)[0]
    view = GAME.view(state, d.seat)
    assert choose(view, d, random.Random(3)) == GAME.ai_choose(state, d, random.Random(3))
