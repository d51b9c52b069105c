"""``bench/bench_shards.py``: several bot processes sharing one PostgreSQL database under
load, their figures merged (issue 16; docs/deploy.md)."""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import Any

import pytest

from tests.harness import payloads as P
from tests.support.bench import load_bench


@pytest.fixture(scope="module")
def shards() -> ModuleType:
    return load_bench("bench_shards.py", "bench_shards")


def test_processes_hand_out_different_ids() -> None:
    """Each process's Discord ids carry its number (a snowflake's process bits), so
    processes filling one database never reuse a channel's or a user's id."""
    ids = [P.Snowflakes(process=k) for k in (0, 1, 1023)]
    drawn = [[gen() for _ in range(5000)] for gen in ids]
    assert len({i for d in drawn for i in d}) == 3 * 5000
    assert all(d == sorted(d) for d in drawn)  # still increasing within a process
    default = P.Snowflakes()
    assert drawn[0] == [default() for _ in range(5000)]  # process 0: the ids as before
    with pytest.raises(ValueError, match="process"):
        P.Snowflakes(process=1024)


def test_the_load_is_split_between_processes(shards: ModuleType) -> None:
    assert [shards.share(1000, i, 3) for i in range(3)] == [334, 333, 333]
    args = argparse.Namespace(live=1000, active=101, memory_sample=50, processes=2)
    first, second = (shards.shard_args(args, i) for i in range(2))
    assert (first.live, first.active, second.live, second.active) == (500, 51, 500, 50)
    assert (first.memory_sample, second.memory_sample) == (50, 0)  # sampled once


SUMMED_ZERO = ("result_clicks", "callbacks", "callbacks_over_50ms", "violations", "timeouts")
"""Counts a synthetic run leaves at zero."""


def _run(
    clicks: int, acks: list[float], results: list[float], lags: list[float], **kw: Any
) -> dict[str, Any]:
    """One process's measured step as ``bench_load.measure`` returns it (the keys the merge
    reads), with these clicks' times."""
    run: dict[str, Any] = dict.fromkeys(SUMMED_ZERO, 0)
    run.update(
        clicks=clicks,
        wall_s=10.0,
        think=0.4,
        clicks_per_s=clicks / 10.0,
        samples=dict(acks=acks, results=results, firsts=results, lags=lags),
        lag_p99_by_window_ms=[],
        loop_busy=0.5,
        loop_clients_busy=0.05,
        loop_thread_core=0.5,
        other_threads_core=0.1,
        callback_worst_ms=8.0,
        callback_worst_cpu_ms=7.0,
        callback_worst="Client._run_event",
        client_errors={},
        collector={"young": 2},
        callbacks_over_50ms_by_name={},
        pacing={},
        cpu_ms_per_click=6.0,
        own_ms_per_click=4.0,
        calls_per_click=3.0,
        channel_calls_per_click=0.2,
        channel_budget_per_s=20,
        result_p95_s=max(results),
        ack_p99_ms=1000 * max(acks),
        lag_p99_ms=1000 * max(lags),
        window=(100.0, 110.0),
    )
    run.update(kw)
    return run


def test_runs_merge_into_one_figure_set(shards: ModuleType) -> None:
    """Rates and budgets add up, per-click figures weigh each process by its clicks,
    percentiles are over every process's clicks, the loop is the busiest process's, and
    the CPU per click is the whole machine's over the processes' common time."""
    a = _run(100, [0.001] * 100, [0.1] * 100, [0.002] * 100, calls_per_click=2.0)
    b = _run(
        300,
        [0.001] * 297 + [0.2] * 3,
        [0.1] * 200 + [2.0] * 100,
        [0.004] * 100,
        calls_per_click=4.0,
        loop_busy=0.7,
        callback_worst_ms=30.0,
        callback_worst="slow",
    )
    machine = {"span_s": 10.0, "machine_busy": 0.8, "steal_share": 0.05}
    fig = shards.merge_run([a, b], machine, cores=2)
    assert fig["clicks"] == 400 and fig["clicks_per_s"] == pytest.approx(40.0)
    assert fig["channel_budget_per_s"] == 40  # each process's share of Discord's budget
    assert fig["calls_per_click"] == pytest.approx((100 * 2 + 300 * 4) / 400)
    assert fig["discord_ceiling_clicks_per_s"] == pytest.approx(40 / 0.2)
    assert fig["result_p95_s"] == pytest.approx(2.0)  # a quarter of all clicks took 2 s
    assert fig["result_p50_s"] == pytest.approx(0.1)
    assert fig["ack_p99_ms"] == pytest.approx(1.0, abs=0.5)  # 3 slow of 400: under 1%
    assert fig["lag_worst_ms"] == pytest.approx(4.0)
    assert fig["loop_busy"] == 0.7 and fig["callback_worst"] == "slow"
    assert fig["collector"] == {"young": 4}
    # 16 CPU seconds in 10 s at 40 clicks/s: 40 ms per click, 80% of 2 cores, 5% stolen.
    assert fig["cpu_ms_per_click"] == pytest.approx(40.0)
    assert fig["cpu_busy"] == pytest.approx(0.8) and fig["steal_share"] == pytest.approx(0.05)
    assert fig["processes_ms_per_click"] == pytest.approx(6.0)
    assert fig["database_ms_per_click"] == pytest.approx(34.0)
    assert [p["clicks_per_s"] for p in fig["per_process"]] == [10.0, 30.0]


def test_the_machine_clock_reads_proc_stat(shards: ModuleType) -> None:
    busy, steal, everything = shards.load.machine_ticks()
    assert 0 <= busy <= everything and 0 <= steal <= everything
    with shards.MachineClock(every=0.01) as clock:
        import time

        t0 = time.time()
        while time.time() < t0 + 0.1:
            pass  # busy: the machine's count moves
    got = clock.between(t0 - 1, t0 + 1)
    assert got["span_s"] > 0 and 0 < got["machine_busy"] <= 1


def test_two_processes_share_one_postgres_database(shards: ModuleType, pg_url: str) -> None:
    """A small run of the real thing: two bot processes on the session's PostgreSQL,
    each playing its matches through its own fake Discord, measured together."""
    args = shards.parser().parse_args(
        [
            "--processes",
            "2",
            "--live",
            "16",
            "--active",
            "4",
            "--seconds",
            "3",
            "--memory-sample",
            "1",
        ]
    )
    args.pg = pg_url
    fig = shards.run_processes(args)
    assert fig["processes"] == 2 and fig["live_now"] == 16
    assert [p["clicks_per_s"] > 0 for p in fig["per_process"]] == [True, True]
    assert fig["clicks"] > 0 and fig["result_clicks"] > 0
    assert fig["timeouts"] == 0 and fig["violations"] == 0 and not fig["client_errors"]
    assert fig["unattributed_calls"] == 0  # every Discord call came from a click
    assert fig["channel_budget_per_s"] == 40  # two halves of Discord's budget
    assert fig["cpu_ms_per_click"] > 0 and 0 < fig["cpu_busy"] <= 1.0
    assert set(fig["kb_per_match"]) == {
        "mad",
        "arena",
        "mad-arena",
        "ultimate-warriorz",
        "madsteam",
    }
    text = shards.report(fig, "one PostgreSQL database")
    assert "## Load on 2 bot processes sharing one PostgreSQL database: 16 live matches" in text
    assert "| process | clicks/s |" in text and "the database server and the rest" in text
