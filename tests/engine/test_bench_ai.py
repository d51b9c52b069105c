"""``bench/bench_ai.py`` plays what it says: every declared level, scored against its baselines."""

from __future__ import annotations

from types import ModuleType

import pytest

from bot.engine.registry import get_game
from tests.support.bench import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("bench_ai.py", "bench_ai")


def test_levels_are_ordered_from_weakest(bench: ModuleType) -> None:
    for game_id in ("mad", "arena", "mad-arena"):
        ids = bench.levels(get_game(game_id))
        known = [lv for lv in ids if lv in bench.STRENGTH]
        assert known == sorted(known, key=bench.STRENGTH.__getitem__), (game_id, ids)


def test_pairings_cover_random_and_the_level_below(bench: ModuleType) -> None:
    assert bench.pairings(["easy", "medium", "hard"]) == [
        ("hard", "random"),
        ("medium", "random"),
        ("easy", "random"),
        ("hard", "medium"),
        ("medium", "easy"),
    ]


def test_a_tiny_run_prints_one_row_per_pairing(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    bench.main(["--games", "arena", "--matches", "1", "--seconds", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| arena |")]
    expected = bench.pairings(bench.levels(get_game("arena")))
    assert [r.split(" | ")[1] for r in rows] == [f"{a} vs {b}" for a, b in expected]
    assert all(" | 1 | " in r for r in rows)


def test_a_win_counts_for_the_tested_seat_only(bench: ModuleType) -> None:
    tally = bench.Tally()
    bench.play(get_game("arena"), "hard", "random", 0, tally)
    bench.play(get_game("arena"), "hard", "random", 1, tally)
    assert tally.matches == 2 and tally.points == 2  # hard beats a random player in both seats
    assert tally.times and tally.interval()[0] > 0
