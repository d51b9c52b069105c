"""Several bot processes sharing one PostgreSQL database, under load (issue 16, docs/deploy.md).

Usage (from the repository root)::

    python bench/bench_shards.py                          # 2 processes, 1,000 live, 100 active, 60 s
    python bench/bench_shards.py --seconds 45 --think 0.4
    python bench/bench_shards.py --processes 1            # one bot, on PostgreSQL
    python bench/bench_shards.py --pg postgresql://...    # an existing, empty database

Each process runs ``bench/bench_load.py``'s whole run for its share of the load: the bot
as deployed on the harness's fake Discord, its own drawing and AI worker processes, its
own load clients, ``live / N`` live matches of which ``active / N`` are played. They
share one PostgreSQL database, as a sharded deployment's processes do, and each paces
its channel calls to its share of Discord's budget (the limit is per bot token:
``DISCORD_RATE_LIMIT`` split by the process's part of the shards). Ids, seeds and idle
players differ between processes. Without ``--pg`` a throwaway server is started
(``pgserver`` from the test extra, or the machine's PostgreSQL) with its default
durability (fsync on).

The processes start measuring together, and their figures are merged into
``bench_load``'s table: clicks per second summed, percentiles over every process's
clicks and heartbeats, the busiest process's event loop. The CPU per click and how busy
the machine was count the whole machine (the database server included), read from
``/proc/stat`` over the time every process measured. A table per process follows, with
the database server's share.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import bench_load as load  # noqa: E402
from bench.bench_loop import pct  # noqa: E402
from bot import event_loop  # noqa: E402

READY = "ready"
"""What a process prints once its matches are open; it then waits for a line to start."""
SUMMED = (
    "clicks",
    "result_clicks",
    "unattributed_calls",
    "held_clicks",
    "held_unresolved",
    "full_gcs",
    "young_gcs",
    "young_gcs_over_50ms",
    "collector_found",
    "collector_seconds",
    "callbacks",
    "callbacks_over_50ms",
    "callbacks_over_50ms_cpu",
    "timeouts",
    "refused_answers",
    "matches_started",
    "matches_ended",
    "violations",
    "drawing_processes",
    "clicks_per_s",
    "channel_calls_per_s",
    "channel_budget_per_s",
    "rss_growth_mb_per_min",
)
"""Figures of a run that add up over processes."""
PER_CLICK = (
    "calls_per_click",
    "public_calls_per_click",
    "own_ms_per_click",
    "harness_ms_per_click",
    "clients_ms_per_click",
    "ai_ms_per_click",
    "draw_ms_per_click",
    "channel_calls_per_click",
    "token_edits_per_click",
)
"""Figures per click: averaged over processes, weighted by their clicks."""
WORST = ("full_gc_worst_ms", "young_gc_worst_ms", "load_after")
"""Figures whose worst process stands for all."""
PACING_SUMMED = ("calls", "exempt", "held", "merged", "refused")


# --- the machine's CPU ------------------------------------------------------------------------
class MachineClock:
    """``/proc/stat`` read every ``every`` seconds in a thread, to count the machine's CPU
    over a span known only afterwards (the processes' common measured time)."""

    def __init__(self, every: float = 0.25) -> None:
        self.every = every
        self.readings: list[tuple[float, tuple[int, int, int]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="machine-clock", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.readings.append((time.time(), load.machine_ticks()))
            self._stop.wait(self.every)

    def __enter__(self) -> MachineClock:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def between(self, start: float, end: float) -> dict[str, float]:
        """The machine's busy and stolen shares between the readings nearest ``start`` and
        ``end`` (:func:`bench_load.machine_shares`), and that span's length."""
        inside = [r for r in self.readings if start <= r[0] <= end]
        if len(inside) < 2:
            return {"span_s": 0.0, "machine_busy": 0.0, "steal_share": 0.0}
        (t0, a), (t1, b) = inside[0], inside[-1]
        return {"span_s": t1 - t0, **load.machine_shares(a, b)}


# --- merging the processes' runs ----------------------------------------------------------
def merge_run(runs: list[dict[str, Any]], machine: dict[str, float], cores: int) -> dict[str, Any]:
    """One measured step of every process as one figure set, with ``bench_load``'s keys:
    counts and rates summed, per-click figures weighted by clicks, percentiles over every
    process's samples; the loop's figures, the longest callback and the pacing's waits are
    the worst process's."""
    clicks = sum(r["clicks"] for r in runs)
    out: dict[str, Any] = {k: sum(r.get(k, 0) for r in runs) for k in SUMMED}
    for k in PER_CLICK:
        out[k] = sum(r.get(k, 0.0) * r["clicks"] for r in runs) / max(1, clicks)
    for k in WORST:
        out[k] = max(r.get(k, 0.0) for r in runs)
    samples = {k: [x for r in runs for x in r["samples"][k]] for k in runs[0]["samples"]}
    out.update(
        wall_s=max(r["wall_s"] for r in runs),
        think=runs[0]["think"],
        ack_p50_ms=1000 * pct(samples["acks"], 50),
        ack_p99_ms=1000 * pct(samples["acks"], 99),
        result_p50_s=pct(samples["results"], 50),
        result_p95_s=pct(samples["results"], 95),
        result_p99_s=pct(samples["results"], 99),
        first_p50_s=pct(samples["firsts"], 50),
        first_p95_s=pct(samples["firsts"], 95),
        lag_p99_ms=1000 * pct(samples["lags"], 99),
        lag_worst_ms=1000 * max(samples["lags"], default=0.0),
        lag_p99_by_window_ms=[
            max(ws) for ws in zip(*(r["lag_p99_by_window_ms"] for r in runs), strict=False)
        ],
    )
    busiest = max(runs, key=lambda r: r["loop_busy"])
    for k in ("loop_busy", "loop_clients_busy", "loop_thread_core", "other_threads_core"):
        out[k] = busiest[k]
    worst = max(runs, key=lambda r: r["callback_worst_ms"])
    for k in ("callback_worst_ms", "callback_worst_cpu_ms", "callback_worst"):
        out[k] = worst[k]
    out["client_errors"] = dict(sum((Counter(r["client_errors"]) for r in runs), Counter()))
    out["collector"] = dict(sum((Counter(r["collector"]) for r in runs), Counter()))
    out["callbacks_over_50ms_by_name"] = dict(
        sum((Counter(r["callbacks_over_50ms_by_name"]) for r in runs), Counter())
    )
    pacing = [r["pacing"] for r in runs if r.get("pacing")]
    if pacing:
        out["pacing"] = {k: sum(p[k] for p in pacing) for k in PACING_SUMMED}
        for k in ("wait_p50_s", "wait_p95_s", "wait_max_s"):
            out["pacing"][k] = max(p[k] for p in pacing)
    if out["channel_calls_per_click"]:
        out["discord_ceiling_clicks_per_s"] = (
            out["channel_budget_per_s"] / out["channel_calls_per_click"]
        )
    # The whole machine: the bot processes, their workers and the database server.
    rate = clicks / out["wall_s"] if out["wall_s"] else 0.0
    busy = machine["machine_busy"]
    out["cpu_ms_per_click"] = 1000 * busy * cores / rate if rate else 0.0
    out["cpu_busy"] = out["machine_busy"] = busy
    out["steal_share"] = machine["steal_share"]
    processes_ms = sum(r["cpu_ms_per_click"] * r["clicks"] for r in runs) / max(1, clicks)
    out["processes_ms_per_click"] = processes_ms
    out["database_ms_per_click"] = max(0.0, out["cpu_ms_per_click"] - processes_ms)
    out["per_process"] = [
        {
            k: r[k]
            for k in (
                "clicks_per_s",
                "result_p95_s",
                "ack_p99_ms",
                "lag_p99_ms",
                "loop_busy",
                "loop_thread_core",
                "cpu_ms_per_click",
                "own_ms_per_click",
            )
        }
        for r in runs
    ]
    return out


def merge(figs: list[dict[str, Any]], clock: MachineClock) -> dict[str, Any]:
    """The processes' whole runs (setup, ramp steps, measured run) as one figure set."""
    cores = figs[0]["cores"]

    def step(runs: list[dict[str, Any]]) -> dict[str, Any]:
        start = max(r["window"][0] for r in runs)
        end = min(r["window"][1] for r in runs)
        return merge_run(runs, clock.between(start, end), cores)

    out = step(figs)
    out.update(
        live=sum(f["live"] for f in figs),
        active=sum(f["active"] for f in figs),
        live_now=sum(f["live_here"] for f in figs),
        seconds=figs[0]["seconds"],
        cores=cores,
        load_before=figs[0]["load_before"],
        long_lived=figs[0]["long_lived"],
        quick_ai=figs[0]["quick_ai"],
        loop=figs[0]["loop"],
        discord_rate=figs[0]["discord_rate"],
        fill_s=max(f["fill_s"] for f in figs),
        boot_s=max(f["boot_s"] for f in figs),
        open_s=max(f["open_s"] for f in figs),
        rss_per_idle_kb=sum(f["rss_per_idle_kb"] for f in figs) / len(figs),
        kb_per_match=figs[0]["kb_per_match"],
        ramp=[step(list(rows)) for rows in zip(*(f["ramp"] for f in figs), strict=True)],
        processes=len(figs),
    )
    return out


def report(fig: dict[str, Any], database: str) -> str:
    """``bench_load``'s table of the merged figures, then each process's own."""
    lines = [
        load.report(fig).replace(
            "## Load:", f"## Load on {fig['processes']} bot processes sharing {database}:", 1
        ),
        "",
        f"CPU per click counts the whole machine: the bot processes with their workers "
        f"{fig['processes_ms_per_click']:.1f} ms, the database server and the rest "
        f"{fig['database_ms_per_click']:.1f} ms. The loop's figures are the busiest process's; "
        f"lag and results are over every process's heartbeats and clicks.",
        "",
        "| process | clicks/s | result p95 | ack p99 | lag p99 | loop busy | loop thread "
        "| CPU/click (its process and workers) | its own process |",
        "|---|---|---|---|---|---|---|---|---|",
        *(
            f"| {i} | {p['clicks_per_s']:.1f} | {p['result_p95_s']:.2f} s | "
            f"{p['ack_p99_ms']:.1f} ms | {p['lag_p99_ms']:.1f} ms | "
            f"{100 * p['loop_busy']:.0f}% | {100 * p['loop_thread_core']:.0f}% | "
            f"{p['cpu_ms_per_click']:.1f} ms | {p['own_ms_per_click']:.1f} ms |"
            for i, p in enumerate(fig["per_process"])
        ),
    ]
    return "\n".join(lines)


# --- the processes --------------------------------------------------------------------------
def share(total: int, index: int, count: int) -> int:
    """Process ``index``'s part of ``total`` split in ``count`` (the first ones take the
    remainder)."""
    return total // count + (index < total % count)


def shard_args(args: argparse.Namespace, index: int) -> argparse.Namespace:
    """``args`` for process ``index``: its share of the matches; only the first samples
    the memory per match (the figure does not depend on the process)."""
    mine = argparse.Namespace(**vars(args))
    mine.live = share(args.live, index, args.processes)
    mine.active = share(args.active, index, args.processes)
    mine.memory_sample = args.memory_sample if index == 0 else 0
    return mine


async def child(args: argparse.Namespace) -> dict[str, Any]:
    """One process's run; it says when its matches are open and waits to be told to start."""

    async def ready() -> None:
        print(READY, flush=True)
        # The parent reads no more of this pipe: anything else written to it could fill it
        # and block this process, so the rest goes where errors go.
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        await asyncio.to_thread(sys.stdin.readline)

    return await load.bench(
        shard_args(args, args.child),
        database=args.pg,
        process=args.child,
        processes=args.processes,
        ready=ready,
    )


def spawn(args: argparse.Namespace, index: int, tmp: Path) -> subprocess.Popen[str]:
    """Process ``index``: this file again, told its arguments and its number."""
    given = tmp / f"args-{index}.json"
    given.write_text(json.dumps({**vars(args), "child": index}))
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--child-of", str(given)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def run_processes(args: argparse.Namespace) -> dict[str, Any]:
    """Start the processes, let them measure together, merge what they measured."""
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / f"process-{i}.json" for i in range(args.processes)]
        procs = []
        for i in range(args.processes):
            procs.append(spawn(argparse.Namespace(**vars(args), out=str(outs[i])), i, Path(tmp)))
        try:
            for p in procs:  # each opens its matches, then waits
                assert p.stdout is not None
                line = p.stdout.readline().strip()
                if line != READY:
                    raise RuntimeError(
                        f"a bot process stopped before its matches were open: {line!r}"
                    )
            with MachineClock() as clock:
                for p in procs:
                    assert p.stdin is not None
                    p.stdin.write("go\n")
                    p.stdin.flush()
                codes = [p.wait() for p in procs]
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
        if any(codes):
            raise RuntimeError(f"a bot process failed (exit codes {codes})")
        figs = [json.loads(o.read_text()) for o in outs]
    return merge(figs, clock)


@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[str]:
    """An empty database's URL: a fresh schema of ``url``'s, or of a throwaway server."""
    from bench.bench_store import pg_targets

    fresh, stop = pg_targets(url)
    try:
        yield fresh()
    finally:
        stop()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    p.add_argument("--processes", type=int, default=2, help="bot processes (default 2)")
    p.add_argument("--pg", default=None, help="an existing PostgreSQL URL (default: start one)")
    p.add_argument("--live", type=int, default=1000, help="live matches in all")
    p.add_argument("--active", type=int, default=100, help="matches being played in all")
    p.add_argument("--seconds", type=float, default=60.0, help="measured time")
    p.add_argument("--think", type=float, default=0.0, help="seconds before each click")
    p.add_argument("--ramp", type=float, nargs="*", metavar="THINK", help="as bench_load's")
    p.add_argument("--ramp-seconds", type=float, default=30.0, help="seconds per step")
    p.add_argument("--quick-ai", action="store_true", help="as bench_load's")
    p.add_argument("--discord-rate", type=int, default=load.DISCORD_RATE, help="as bench_load's")
    p.add_argument("--memory-sample", type=int, default=50, help="as bench_load's")
    p.add_argument("--cold", dest="long_lived", action="store_false", help="as bench_load's")
    p.add_argument("--loop", choices=event_loop.LOOPS, default=None, help="as bench_load's")
    p.add_argument("--child-of", default=None, help=argparse.SUPPRESS)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.child_of is not None:  # one of the processes: its arguments from the parent
        given = argparse.Namespace(**json.loads(Path(args.child_of).read_text()))
        event_loop.install(given.loop)
        fig = asyncio.run(child(given))
        Path(given.out).write_text(json.dumps(fig))
        return 0
    if not 1 <= args.processes <= args.active:
        raise SystemExit("--processes must be at least 1 and at most --active")
    with postgres(args.pg) as url:
        args.pg = url
        fig = run_processes(args)
    print(report(fig, "one PostgreSQL database"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
