"""The fast search's board (``search.Arena``) against ``core``, the authority on the rules.

Random positions come from random play from the printed start (both boards,
with and without the positioning turn); in each, the fast generator must
give exactly ``core.turns`` (same turns, same resulting positions), make and
unmake must restore everything, and the incremental key and evaluation must
equal the ones computed from scratch. perft through the fast board must equal
``core``'s perft from random positions and the golden counts from the start.
"""

from __future__ import annotations

import random

import pytest

from bot.games.mad import search
from bot.games.mad.core import BOARD_IDS, Board, Position, board, corvette_exiled, turns
from bot.games.mad.perft import perft as core_perft
from bot.games.mad.search import Arena, red_score, tables, zobrist

from .test_perft import GOLDEN


def random_positions(board_id: str, count: int, seed: int) -> list[tuple[Position, int, bool]]:
    """(position, side to move, positioning turn) met along random games."""
    b = board(board_id)
    rnd = random.Random(f"{board_id}:{seed}")
    out: list[tuple[Position, int, bool]] = []
    while len(out) < count:
        positioning = rnd.random() < 0.5
        pos, side = b.start, 0
        for ply in range(rnd.randrange(1, 80)):
            pos_turn = positioning and ply < 2
            out.append((pos, side, pos_turn))
            options = turns(b, pos, side, pos_turn)
            pos = options[rnd.randrange(len(options))][1]
            side = 1 - side
            if corvette_exiled(pos) is not None:
                break
    return out[:count]


def snapshot(bd: Arena) -> tuple[object, ...]:
    return (list(bd.sq), list(bd.occ), bd.om, list(bd.sm), list(bd.wm), bd.h, bd.score)


def masks_of(b: Board, pos: Position) -> tuple[int, list[int], list[int]]:
    t = tables(b.id)
    om, sm, wm = 0, [0, 0], [0, 0]
    for ship, sq in enumerate(pos):
        if sq >= 0:
            om |= 1 << sq
            sm[ship >> 3] |= 1 << sq
            if t.weak[ship]:
                wm[ship >> 3] |= 1 << sq
    return om, sm, wm


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_fast_generator_gives_exactly_core_turns(board_id: str) -> None:
    b = board(board_id)
    for pos, side, pos_turn in random_positions(board_id, 1500, 1):
        ref = sorted(map(repr, turns(b, pos, side, pos_turn)))
        fast = sorted(map(repr, search.turns(b, pos, side, pos_turn)))
        assert fast == ref, (pos, side, pos_turn)


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_make_unmake_restores_and_updates_incrementally(board_id: str) -> None:
    b = board(board_id)
    t = tables(board_id)
    for pos, side, pos_turn in random_positions(board_id, 400, 2):
        bd = Arena(t, pos)
        before = snapshot(bd)
        caps, quiet = bd.gen(side, pos_turn)
        for code in caps + quiet:
            h, score = bd.h, bd.score
            src, victim = bd.make(code, side)
            after = bd.position()
            assert bd.h == zobrist(t, after)
            assert bd.score == red_score(t, after)
            om, sm, wm = masks_of(b, after)
            assert (bd.om, bd.sm, bd.wm) == (om, sm, wm)
            assert all(bd.occ[sq] == ship for ship, sq in enumerate(after) if sq >= 0)
            bd.unmake(code, side, src, victim, h, score)
            assert snapshot(bd) == before


def fast_perft(b: Board, pos: Position, side: int, depth: int, ply: int, positioning: bool) -> int:
    """``core``'s perft definition (distinct positions per node), through the fast board."""
    if depth == 0:
        return 1
    kids = {p for _, p in search.turns(b, pos, side, positioning and ply < 2)}
    if depth == 1:
        return len(kids)
    return sum(fast_perft(b, k, 1 - side, depth - 1, ply + 1, positioning) for k in kids)


def core_perft_from(b: Board, pos: Position, side: int, depth: int) -> int:
    if depth == 0:
        return 1
    kids = {p for _, p in turns(b, pos, side, False)}
    if depth == 1:
        return len(kids)
    return sum(core_perft_from(b, k, 1 - side, depth - 1) for k in kids)


@pytest.mark.parametrize("board_id", BOARD_IDS)
@pytest.mark.parametrize("positioning", [True, False])
def test_fast_perft_matches_the_golden_counts(board_id: str, positioning: bool) -> None:
    b = board(board_id)
    golden = GOLDEN[(board_id, positioning)]
    for depth in (1, 2, 3):
        assert fast_perft(b, b.start, 0, depth, 0, positioning) == golden[depth - 1]
    assert core_perft(b, 3, positioning) == golden[2]


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_fast_perft_matches_core_from_random_positions(board_id: str) -> None:
    b = board(board_id)
    for pos, side, _ in random_positions(board_id, 40, 3)[::4]:
        assert fast_perft(b, pos, side, 2, 5, False) == core_perft_from(b, pos, side, 2)


def test_search_is_deterministic_for_a_node_budget() -> None:
    b = board("6x4")
    pos, side, _ = random_positions("6x4", 30, 4)[-1]
    runs = [
        search.search(b, pos, side, time_budget=None, node_budget=20_000, rnd=random.Random(9))
        for _ in range(2)
    ]
    assert (runs[0].turn, runs[0].score, runs[0].depth, runs[0].nodes) == (
        runs[1].turn,
        runs[1].score,
        runs[1].depth,
        runs[1].nodes,
    )


def middle_game(board_id: str) -> tuple[Position, int]:
    """A quiet middle-game position, the same every time."""
    b = board(board_id)
    pos, side = b.start, 0
    for ply in range(8):
        kids = sorted({p for _, p in turns(b, pos, side, ply < 2)})
        pos, side = kids[len(kids) // 3], 1 - side
    return pos, side


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_hard_budget_reaches_depth_eight(board_id: str) -> None:
    """``hard``'s node budget is enough for 8 turns deep in the middle game."""
    from bot.games.mad.ai import HARD_NODES

    pos, side = middle_game(board_id)
    res = search.search(board(board_id), pos, side, time_budget=None, node_budget=HARD_NODES)
    assert res.depth >= 8
    assert res.nodes <= HARD_NODES * 1.01  # leaves counted in a loop overshoot a little
