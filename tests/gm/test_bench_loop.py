"""``bench/bench_loop.py`` measures what it says (tiny sizes; the real run is the script)."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.support.bench import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("bench_loop.py", "bench_loop")


@pytest.mark.parametrize("long_lived", [False, True])
async def test_a_small_run_fires_every_deadline_and_reports_every_figure(
    bench: ModuleType, long_lived: bool
) -> None:
    """Cold (as tests boot) and as deployed (worker processes, freeze, collector, all
    stopped again at the end)."""
    import argparse

    from bot.gm import drawing, thinking

    fig = await bench.bench(
        argparse.Namespace(matches=4, commands=8, game="mad-arena", long_lived=long_lived)
    )
    assert not drawing.started()
    if long_lived:
        assert thinking._pool is None, "the deployed boot's pool stopped"  # noqa: SLF001
    assert fig["still_due_after_tick"] == 0
    assert fig["tick_posts"] >= 4  # at least "time is up" for each match
    for key in ("restart_s", "ack_p99_ms", "tick_s", "tick_stall_ms", "restart_stall_ms"):
        assert fig[key] >= 0
    assert "restart to ready" in bench.report(fig)


def test_percentile_is_nearest_rank(bench: ModuleType) -> None:
    assert bench.pct([float(v) for v in range(1, 101)], 99) == 99.0
