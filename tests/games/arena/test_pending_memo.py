"""``ArenaGame.pending`` keeps the decisions of the last few states by their JSON: the
same state (a copy, a reload) is answered from memory, a changed one never is."""

from __future__ import annotations

from bot.engine import Match, SeatSpec
from bot.games.arena import game as arena_game
from tests.games.arena.helpers import GAME

SEATS = [SeatSpec(name="Ann", ai=True, ai_level="easy"), SeatSpec(name="Bob", ai=True)]


def test_the_same_state_is_answered_from_memory_and_a_changed_one_is_not() -> None:
    m = Match.create("arena", SEATS, seed="memo")
    for _ in range(6):
        m.apply(m.ai_choice(m.pending()[0]))
    state = m.state
    first = GAME.pending(state)
    again = GAME.pending(GAME.copy(state))
    assert again == first and again is not first  # a list of its own, the same decisions
    assert all(a is b for a, b in zip(again, first, strict=True))
    fresh = GAME._pending(state)
    assert fresh == first
    # In place changes make another key: never the old decisions.
    moved = GAME.copy(state)
    f = moved.fighters[moved.turn.seat] if moved.turn else moved.fighters[0]
    f.hp = max(0, f.hp - 1)
    assert GAME.pending(moved) == GAME._pending(moved)
    assert len(arena_game._PENDING) <= arena_game.PENDING_KEPT
