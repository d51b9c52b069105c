"""The benchmark script's measuring code works (tiny sizes; the real run is ``python bench/run.py``)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from bot.engine.registry import get_game
from tests.store.helpers import FIXTURE
from tests.support.bench import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("run.py", "bench_run")


def test_percentile_is_nearest_rank(bench: ModuleType) -> None:
    values = [float(v) for v in range(1, 101)]
    assert bench.percentile(values, 50) == 50.0
    assert bench.percentile(values, 99) == 99.0
    assert bench.percentile([7.0], 95) == 7.0


def test_png_size(bench: ModuleType) -> None:
    from bot.render.common import canvas, png_bytes

    img, _ = canvas(320, 200)
    assert bench.png_size(png_bytes(img)) == (320, 200)
    assert bench.png_size(b"") is None


async def test_store_bench_keeps_matches_live_and_times_every_commit(
    bench: ModuleType, tmp_path: Path
) -> None:
    figures = await bench.bench_store(FIXTURE, live=20, commits=80, directory=tmp_path)
    assert figures.commits == 80
    assert figures.live_matches == 20
    assert 0 < figures.p50_ms <= figures.p99_ms <= figures.max_ms


def test_game_bench_measures_the_fixture_game(bench: ModuleType) -> None:
    fig = bench.bench_game(get_game(FIXTURE).info, seconds=0.05, ai_bound=2.0, max_images=5)
    assert fig.error is None
    assert fig.ai_matches_per_s and fig.engine_decisions_per_s and fig.decisions_per_match == 6
    assert "renderer returns no PNG" in fig.notes  # the fixture renders b""


def test_report_flags_a_budget_failure(bench: ModuleType) -> None:
    slow = bench.GameFigures(game="g", mode="m", seats=2, render_p95_ms=151.0, render_p50_ms=90.0)
    store = bench.StoreFigures(
        game="g",
        live_matches=1000,
        commits=10,
        snapshot_bytes=1000,
        p50_ms=1.0,
        p99_ms=25.0,
        max_ms=30.0,
        db_mb=1.0,
        setup_s=1.0,
    )
    failed = bench.failures([slow], store)
    assert len(failed) == 2 and "render p95" in failed[0] and "commit p99" in failed[1]
    assert bench.failures([], None) == []
