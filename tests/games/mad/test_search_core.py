"""MAD's search core in C (``bot/games/mad/searchcore.c``) against ``search.py``, its reference.

The AI levels must play the same turns for the same seed whichever search runs below the
root (issue 16 item 2), so the core is compared with the Python search on positions met
along random games of both boards, with and without the positioning turn, at every
level's settings and at budgets that stop mid-depth, near and at the 40-turn tie-break:
same turn, score, finished depth and node count. Its board (make and unmake) is compared
with ``search.Arena`` move by move. A core built from another ``searchcore.c`` is not used,
and a search in the core lets other threads run.
"""

from __future__ import annotations

import random
import sys
import threading
from types import ModuleType

import pytest

from bot.games.mad import ai, native, search
from bot.games.mad.core import BOARD_IDS, board
from bot.games.mad.search import Arena, tables
from tests.support.compiler import c_compiler_here

from .test_ai_search import middle_game, random_positions

needs_core = pytest.mark.skipif(
    search.CORE is None, reason="no C compiler here: the search runs in Python only"
)


def core() -> ModuleType:
    assert search.CORE is not None
    return search.CORE


def test_the_core_is_built_where_a_compiler_is() -> None:
    """``pip install`` builds it wherever a C compiler is found (the CI machine has one)."""
    if not c_compiler_here():
        assert search.CORE is None
    else:
        assert search.CORE is not None, "reinstall (`pip install -e .`) to build the core"


def outcome(
    board_id: str, index: int, nodes: int, depth: int, seed: int, native: bool
) -> tuple[object, ...]:
    """(turn, score, finished depth, nodes) of one search, the core's or Python's."""
    b = board(board_id)
    pos, side, pos_turn = random_positions(board_id, index + 1, seed)[index]
    res = search.search(
        b,
        pos,
        side,
        turn_no=(index % 2) if pos_turn else 10 + index,
        positioning=pos_turn,
        time_budget=None,
        node_budget=nodes,
        max_depth=depth,
        rnd=random.Random(f"{seed}:{index}"),
        streak=(index * 13 + seed) % 41,  # from 0 to the tie-break's turn itself
        last_expeller=None if index % 3 == 0 else index % 2,
        native=native,
    )
    return (res.turn, res.score, res.depth, res.nodes)


@needs_core
@pytest.mark.parametrize("board_id", BOARD_IDS)
@pytest.mark.parametrize(
    ("nodes", "depth"),
    [(ai.MEDIUM_NODES, ai.MEDIUM_DEPTH), (1_500, 40), (20_000, 40)],
)
def test_the_core_searches_as_python(board_id: str, nodes: int, depth: int) -> None:
    count = 24
    positions = random_positions(board_id, count, 21)
    assert any(pos_turn for _, _, pos_turn in positions)  # the positioning turn is met
    for index in range(count):
        got = outcome(board_id, index, nodes, depth, 21, native=True)
        assert got == outcome(board_id, index, nodes, depth, 21, native=False), index


@needs_core
@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_hard_plays_the_same_turns_in_the_core(board_id: str) -> None:
    for index in (3, 17):
        got = outcome(board_id, index, ai.HARD_NODES, 40, 8, native=True)
        assert got == outcome(board_id, index, ai.HARD_NODES, 40, 8, native=False)


@needs_core
@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_the_cores_generator_gives_arenas_moves_in_its_order(board_id: str) -> None:
    """``Arena.gen`` gives exactly ``core.turns`` (the rule book's moves,
    ``test_ai_search.py``); the core's generator gives the same codes in the same order,
    the captures sorted as the search tries them."""
    t = tables(board_id)
    for pos, side, pos_turn in random_positions(board_id, 200, 7):
        c = core().Core(search.core_tables(board_id), pos, pos_turn, 1_000, None)
        caps, quiet = Arena(t, pos).gen(side, pos_turn)
        assert c.moves(side, pos_turn) == (caps, quiet)


@needs_core
@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_the_cores_board_makes_and_unmakes_as_arena(board_id: str) -> None:
    t = tables(board_id)
    for pos, side, pos_turn in random_positions(board_id, 30, 6):
        bd = Arena(t, pos)
        c = core().Core(search.core_tables(board_id), pos, pos_turn, 1_000, None)
        assert (c.position, c.h, c.score) == (bd.position(), bd.h, bd.score)
        caps, quiet = bd.gen(side, pos_turn)
        for code in caps + quiet:
            h, score = bd.h, bd.score
            played = bd.make(code, side)
            assert c.make(code, side) == played
            assert (c.position, c.h, c.score) == (bd.position(), bd.h, bd.score)
            bd.unmake(code, side, *played, h, score)
            c.unmake(code, side, *played, h, score)
            assert (
                (c.position, c.h, c.score)
                == (bd.position(), bd.h, bd.score)
                == (
                    pos,
                    Arena(t, pos).h,
                    Arena(t, pos).score,
                )
            )


@needs_core
def test_the_core_refuses_what_is_not_a_move_here() -> None:
    b = board("6x4")
    c = core().Core(search.core_tables("6x4"), b.start, False, 1_000, None)
    for code, side in (
        (8 | 3 << 4, 0),
        (-5, 0),
        (3 | 31 << 4, 0),
        (search.PASS_CODE + 1, 0),
        (0, 2),
    ):
        with pytest.raises(ValueError):
            c.make(code, side)
    for code in (search.TELEPORT + 8, search.PASS_CODE - 1):  # no such teleport
        with pytest.raises(ValueError):
            c.make(code, 0)
    assert c.position == b.start
    code = next(q for q in Arena(tables("6x4"), b.start).gen(0, False)[1] if q < 512)
    src, victim = c.make(code, 0)
    for bad in ((-1, victim), (99, victim), (src, 16)):  # not what make returned
        with pytest.raises(ValueError):
            c.unmake(code, 0, *bad, 0, 0)
    c.unmake(code, 0, src, victim, Arena(tables("6x4"), b.start).h, 0)
    assert c.position == b.start
    with pytest.raises(ValueError):
        c.negamax(3, -search.INF, search.INF, -1, 0, 10, 0, 0)
    with pytest.raises(ValueError, match="not initialised"):
        core().Core(core().Tables.__new__(core().Tables), b.start, False, 1_000, None)


@needs_core
def test_a_spent_budget_stops_the_core() -> None:
    """The node budget stops a depth midway (the last finished depth's turn is played), and
    a time budget stops the core as it stops Python's search."""
    b = board("6x4")
    pos, side = middle_game("6x4")
    c = core().Core(search.core_tables("6x4"), pos, False, 500, None)
    with pytest.raises(core().Stop):
        c.negamax(12, -search.INF, search.INF, 1, side, 10, 0, 0)
    assert 500 < c.nodes < 600
    res = search.search(b, pos, side, time_budget=0.02, node_budget=None, native=True)
    assert res.turn is not None
    assert res.seconds < 1.0


@needs_core
def test_the_cores_table_stops_growing_at_its_cap() -> None:
    """Only a search on a time budget (analysis) reaches the cap: it then stores no new
    position, and still searches to its budget."""
    pos, side = middle_game("5x5")
    tables_ = search.core_tables("5x5")
    free = core().Core(tables_, pos, False, 20_000, None)
    capped = core().Core(tables_, pos, False, 20_000, None, max_entries=50)
    for c in (free, capped):
        with pytest.raises(core().Stop):
            c.negamax(30, -search.INF, search.INF, 1, side, 10, 0, 0)
    assert free.entries > 1_000
    assert capped.entries == 50
    assert capped.nodes > 20_000
    with pytest.raises(ValueError):
        core().Core(tables_, pos, False, 20_000, None, max_entries=0)


@needs_core
def test_a_search_in_the_core_lets_other_threads_run() -> None:
    """The core releases the interpreter lock (issue 16 item 2): with a switch interval of
    ten seconds, a thread holding the lock would keep it until its search ends; the main
    thread runs while the search in the other thread is still going."""
    b = board("6x4")
    pos, side = middle_game("6x4")
    started = threading.Event()
    results: list[object] = []

    def work() -> None:
        started.set()
        results.append(
            search.search(b, pos, side, time_budget=None, node_budget=3_000_000, native=True)
        )

    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    try:
        worker = threading.Thread(target=work)
        worker.start()
        started.wait()
        alive_meanwhile = worker.is_alive() and not results
        worker.join()
    finally:
        sys.setswitchinterval(old)
    assert alive_meanwhile
    assert results


def test_a_core_built_from_another_source_is_not_used() -> None:
    """``bot.native`` decides (``tests/test_native.py``); the core is checked against the
    ``searchcore.c`` beside it."""
    stale = ModuleType("searchcore")
    stale.SOURCE_SHA256 = "0" * 64  # type: ignore[attr-defined]
    assert not native.core_is_current(stale)
    if search.CORE is not None:
        assert native.core_is_current(search.CORE)


def test_native_true_without_a_core_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "CORE", None)
    b = board("5x5")
    with pytest.raises(RuntimeError, match="not built"):
        search.search(b, b.start, 0, time_budget=None, node_budget=100, native=True)
    res = search.search(b, b.start, 0, time_budget=None, node_budget=100)
    assert res.turn is not None  # the Python search below the root
