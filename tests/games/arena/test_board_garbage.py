"""Arena!'s path searches leave no reference cycle behind (issue 16 item 5: under load,
the garbage collector's pauses were the loop's worst stalls, and a closure calling
itself made one cycle per search)."""

from __future__ import annotations

import gc
import random

from bot.games.arena.board import HEXES, longest_path, paths


def test_path_searches_leave_nothing_for_the_collector() -> None:
    rnd = random.Random(3)
    cells = list(HEXES)
    gc.collect()
    gc.disable()
    try:
        for _ in range(200):
            start = rnd.choice(cells)
            blocked = set(rnd.sample(cells, 6)) - {start}
            assert 0 <= longest_path(start, blocked, 4) <= 4
            assert all(len(p) == 2 for p in paths(start, blocked, 2))
        assert gc.collect() == 0
    finally:
        gc.enable()
