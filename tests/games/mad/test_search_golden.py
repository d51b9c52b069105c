"""`hard`'s searches give the very results they gave before the search was made quicker.

The search was reworked for speed with the same moves as the aim (issue 16: 62-bit
Zobrist keys, captures and table entries packed into ints, teleports by index). These
turn, score, finished depth and node count were recorded with the search as it was
before (64-bit keys, tuples) on positions met along random games of both boards, at
`hard`'s node budget: any change to the search's order, pruning or table shows here.
"""

from __future__ import annotations

import pytest

from bot.games.mad import ai
from bot.games.mad import search as fast

from .test_native_search import results
from .test_search_core import needs_core

Turn = tuple[object, ...]

RECORDED: dict[str, list[tuple[Turn, int, int, int]]] = {
    "6x4": [
        ((1, 3, 6, 9, None), 6, 8, 120001),
        ((1, 11, 18, 13, None), 12, 8, 120002),
        ((1, 2, 4, 8, None), 0, 7, 120001),
        ((1, 11, 18, 15, None), 137, 6, 120001),
        ((1, 3, 6, 10, None), 279, 9, 120001),
    ],
    "5x5": [
        ((1, 2, 5, 6, None), 4, 7, 120006),
        ((3, 9, 11, 10), 7, 8, 120001),
        ((2, 3, 4), 10, 7, 120001),
        ((1, 14, 17, 16, None), 146, 6, 120001),
        ((1, 6, 7, 6, None), 152, 6, 120024),
    ],
}
"""Per board, the results on ``random_positions(board, 5, seed=1)`` in order (with the
turn number, tie-break count and last expeller :func:`results` gives each)."""


@pytest.mark.parametrize(
    "native",
    [pytest.param(False, id="python"), pytest.param(True, id="core", marks=needs_core)],
)
@pytest.mark.parametrize("board_id", sorted(RECORDED))
def test_hard_searches_give_the_recorded_results(board_id: str, native: bool) -> None:
    """Below the root in Python (the reference) and in the C core (``searchcore.c``)."""
    got = results(fast, board_id, ai.HARD_NODES, 40, seed=1, count=5, native=native)
    assert got == RECORDED[board_id]
