"""``bench/bench_load.py`` measures what it says (tiny sizes; the real run is the script)."""

from __future__ import annotations

import argparse
import asyncio
import os
from types import ModuleType

import pytest

from bot import event_loop
from tests.support.bench import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("bench_load.py", "bench_load")


@pytest.mark.parametrize("loop", event_loop.LOOPS)
def test_a_small_run_plays_every_game_and_prints_every_figure(bench: ModuleType, loop: str) -> None:
    """On either event loop the bot may run on (uvloop: its callbacks timed as tasks'
    steps)."""
    factory = event_loop.policy(loop).new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_a_small_run(bench, loop))


async def _a_small_run(bench: ModuleType, loop: str) -> None:
    args = argparse.Namespace(
        live=12,
        active=6,
        seconds=4.0,
        think=0.0,
        memory_sample=2,
        long_lived=True,
        ramp=[0.2],
        ramp_seconds=3.0,
        quick_ai=False,
    )
    fig = await bench.bench(args)
    assert fig["loop"] == loop
    # Every live match is in memory: the idle ones recovered, the active ones opened.
    assert fig["live_now"] == 12
    assert fig["clicks"] > 0 and fig["clicks_per_s"] > 0
    assert fig["result_clicks"] > 0  # some clicks changed a channel
    assert fig["calls_per_click"] >= 1  # every click is at least acknowledged
    assert fig["public_calls_per_click"] <= fig["calls_per_click"]
    assert 0 < fig["ack_p50_ms"] <= fig["ack_p99_ms"] < 60_000
    assert 0 < fig["result_p50_s"] <= fig["result_p95_s"] <= fig["result_p99_s"] < 60
    assert 0 < fig["first_p50_s"] <= fig["result_p50_s"]
    assert 0 <= fig["lag_p99_ms"] <= fig["lag_worst_ms"]
    assert fig["lag_p99_by_window_ms"] == []  # a 4 s run has no full 30 s window
    assert isinstance(fig["rss_growth_mb_per_min"], float)  # the process's memory meanwhile
    # Every loop callback was timed (issue 16 item 5), the longest named.
    assert fig["callbacks"] > fig["clicks"] and 0 <= fig["callbacks_over_50ms"] < fig["callbacks"]
    assert 0 <= fig["callbacks_over_50ms_cpu"] <= fig["callbacks_over_50ms"]
    assert sum(fig["callbacks_over_50ms_by_name"].values()) <= fig["callbacks_over_50ms"]
    assert fig["callback_worst"] != "none" and fig["callback_worst_ms"] > 0  # the longest, named
    assert (fig["callback_worst_ms"] > 50) == (fig["callbacks_over_50ms"] > 0)
    # How busy the loop was running callbacks (its lag follows that), the load
    # clients' own steps a part of it.
    assert 0 < fig["loop_clients_busy"] < fig["loop_busy"] <= 1.05
    assert isinstance(fig["collector"], dict)  # what the quiet collector did meanwhile
    assert fig["cpu_ms_per_click"] > 0
    # The whole machine over the same time, and what the host took from it (steal).
    assert 0 < fig["machine_busy"] <= 1 and 0 <= fig["steal_share"] <= 1
    # The split: the bot's process (the fake Discord's share inside it), and the drawing
    # processes drew (the deployed bot's images are drawn there).
    assert 0 < fig["harness_ms_per_click"] < fig["own_ms_per_click"] <= fig["cpu_ms_per_click"]
    # The load clients' own steps (the bot's parsing of their clicks taken out).
    assert 0 < fig["clients_ms_per_click"] < fig["own_ms_per_click"] - fig["harness_ms_per_click"]
    assert fig["drawing_processes"] > 0 and fig["draw_ms_per_click"] > 0
    # The bot's process by thread: the event loop's thread worked, and no thread can
    # use more than a core (the store's thread and the pools' feeders are the others).
    assert 0 < fig["loop_thread_core"] <= 1.05
    assert 0 <= fig["other_threads_core"]
    # A ramp step with thinking players: fewer clicks per second than without.
    (step,) = fig["ramp"]
    assert step["think"] == 0.2 and 0 < step["clicks_per_s"] and 0 < step["loop_busy"]
    assert fig["unattributed_calls"] == 0  # every Discord call came from a click
    assert fig["violations"] == 0  # and kept within Discord's limits
    assert fig["timeouts"] == 0
    # The Discord budget: channel calls against the paced global budget, and the click
    # rate it allows at this mix (interaction answers are not counted by Discord).
    assert fig["channel_calls_per_click"] > 0
    assert fig["channel_budget_per_s"] == 40
    ceiling = fig["discord_ceiling_clicks_per_s"]
    assert ceiling == pytest.approx(40 / fig["channel_calls_per_click"])
    # Table edits through the token of a click on the table: outside that budget.
    assert fig["token_edits_per_click"] > 0
    # All five games are live and each costs a plausible amount of memory.
    assert set(fig["kb_per_match"]) == set(bench.GAMES)
    for game, kb in fig["kb_per_match"].items():
        assert 1 < kb < 2000, (game, kb)
    text = bench.report(fig)
    for words in (
        "achieved clicks/s",
        "Discord calls per click",
        "ack p50 / p99",
        "click to public result p50 / p95 / p99",
        "event-loop lag p99 / worst",
        "event-loop callbacks over 50 ms",
        "event-loop busy running callbacks",
        "| lag p99 | loop busy |",
        "CPU per click",
        "the host took",
        "clicks/s that budget allows",
        "memory per live mad-arena match",
        "RSS growth while measuring",
        "bot process (fake Discord, load clients) / AI workers / drawing workers",
        "the bot's process by thread, share of one core: the event loop's",
        "| think (mean) | clicks/s | channel calls/s | result p50 / p95 | own change p95 |",
        # Either "Sustained with..." or "No step of the ramp kept..." (a loaded machine).
        "the click's own public change (before any AI reply) p95 within 1 s",
        "table edits per click through a click's token",
        ">= 150",
        "<= 60 kB",
    ):
        assert words in text, words


def test_idle_matches_cover_every_game_and_level(bench: ModuleType) -> None:
    specs = list(bench.idle_specs(30))
    assert {g for g, _, _ in specs} == set(bench.GAMES)
    for game in bench.GAMES:
        seen = {lv for g, _, seats in specs if g == game for lv in seats if lv is not None}
        assert seen == set(bench.levels(game)), game
    assert all(seats[0] is None for _, _, seats in specs)  # one human seat each


def test_quick_ai_keeps_a_level_for_every_game(bench: ModuleType) -> None:
    """``--quick-ai`` leaves out the levels thinking in processes; Arena!, whose every level
    does, keeps its simplest (an empty list made the active matches' set-up divide by 0)."""
    for game in bench.GAMES:
        quick = bench.levels(game, quick_only=True)
        assert quick and set(quick) <= set(bench.levels(game)), game
    assert bench.levels("arena", quick_only=True) == ["easy"]
    assert "hard" not in bench.levels("mad", quick_only=True)


def test_thread_shares_split_the_main_thread_from_the_others(bench: ModuleType) -> None:
    """Each thread's CPU over the run as a share of one core: the main thread's alone
    (the event loop's ceiling), the others summed; a thread born meanwhile counts from 0."""
    before = {10: 5.0, 11: 1.0, 12: 0.5}
    after = {10: 12.5, 11: 2.0, 12: 0.5, 13: 1.0}
    loop, others = bench.thread_shares(before, after, 10.0, 10)
    assert loop == pytest.approx(0.75)
    assert others == pytest.approx(0.2)
    own = bench.thread_cpu()
    assert os.getpid() in own and all(cpu >= 0 for cpu in own.values())
    assert bench.thread_cpu(2**22 + 12345) == {}  # no such process


def test_percentile_is_nearest_rank(bench: ModuleType) -> None:
    assert bench.pct([float(v) for v in range(1, 101)], 95) == 95.0
    assert bench.pct([], 99) == 0.0


def test_the_lag_by_window_shows_a_run_growing_older(bench: ModuleType) -> None:
    """Each full window's p99 in order, the last partial window left out: a lag that
    grows with the run's age shows as rising windows, not as one p99."""
    beat = bench.Heartbeat()
    assert beat.windows(30.0) == []
    for i in range(250):  # 25 s of samples every 0.1 s: two full 10 s windows
        beat.times.append(100.0 + i / 10)
        beat.lags.append(0.001 if i < 100 else (0.002 if i < 200 else 0.5))
    assert beat.windows(10.0) == [0.001, 0.002]
    beat.lags[150] = 0.05  # one sample over the p99 of a hundred: the p99 is the next
    assert beat.windows(10.0) == [0.001, 0.002]
    beat.lags[151] = 0.04
    assert beat.windows(10.0) == [0.001, 0.04]


@pytest.mark.parametrize("loop", event_loop.LOOPS)
def test_slow_callbacks_tell_work_from_waiting(bench: ModuleType, loop: str) -> None:
    """A callback over 50 ms is named with its CPU: one that computed counts as working,
    one that waited for the machine (a sleep here) does not, even after many short steps
    whose CPU was not read; a load client's step's CPU is its own, not the step's before
    it. On uvloop the tasks' steps are timed."""
    import time

    def compute(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    async def computing() -> None:
        compute(0.06)

    async def sleeping() -> None:
        time.sleep(0.06)

    async def client() -> None:
        compute(0.02)

    async def short() -> None:
        compute(0.0004)  # 60 ms of CPU in 150 steps, none read on the CPU clock

    async def sleeping_after_short_ones() -> None:
        time.sleep(0.06)

    async def before_client() -> None:
        compute(0.015)  # a step just before the client's (well under 50 ms)

    async def measured() -> None:
        running = asyncio.get_running_loop()
        if loop == "uvloop":
            bench.TimedSteps.install(running)
        with bench.SlowCallbacks() as slow:
            slow.MARK_EVERY = 10.0  # no periodic reading: the short steps' CPU is subtracted
            await asyncio.gather(*(asyncio.create_task(short()) for _ in range(150)))
            await asyncio.gather(asyncio.create_task(computing()), asyncio.create_task(sleeping()))
            await asyncio.gather(*(asyncio.create_task(short()) for _ in range(150)))
            await asyncio.create_task(sleeping_after_short_ones())
            # A task of its own: on uvloop only the steps of tasks created after
            # TimedSteps.install are timed, and this test's own task was created before.
            await asyncio.create_task(before_client())
            task = asyncio.create_task(client())
            slow.add_clients([task])
            await task
        over = {name.rpartition(".")[2]: spent for _, spent, name in slow.over}
        # The two 60 ms steps are always over; the client's and the step before it (20
        # and 15 ms of CPU) are over only when the machine made them wait (a busy CI
        # runner with every test worker at once), and then never as working.
        assert (
            {"computing", "sleeping", "sleeping_after_short_ones"}
            <= set(over)
            <= {
                "computing",
                "sleeping",
                "sleeping_after_short_ones",
                "client",
                "before_client",
                "measured",
            }
        )
        assert all(over[name] < slow.LIMIT for name in set(over) - {"computing"})
        # The computing step counts as working. Its CPU comes out a little under its 60 ms
        # when the machine preempted the 150 short steps before it: their CPU is taken as
        # their clock time, by design (ci 12-04: 58.7 ms on a busy runner).
        assert over["computing"] > slow.LIMIT and over["sleeping"] < 0.05
        assert over["sleeping_after_short_ones"] < 0.05
        assert slow.working() == 1
        # The client's own 20 ms, not the 15 ms step before it; a little under 20 when the
        # machine preempted a short step between them, whose CPU is taken as its clock
        # time by design (ci 12-05: 19.8 ms on a busy runner).
        assert 0.018 <= slow.clients_cpu < 0.03
        assert slow.count >= 303 and slow.busy >= 0.3

    with asyncio.Runner(loop_factory=event_loop.policy(loop).new_event_loop) as runner:
        runner.run(measured())


def test_stretch_makes_a_callback_last_factor_times_as_long(bench: ModuleType) -> None:
    import time

    started = time.perf_counter() - 0.01  # a callback that took 10 ms so far
    bench.stretch(started, 2.5)
    assert time.perf_counter() - started >= 0.025


@pytest.mark.parametrize("loop", event_loop.LOOPS)
def test_slower_stretches_the_bots_steps_not_the_load_clients(
    bench: ModuleType, loop: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--slower``: the bot's work as on a slower machine, the load clients' (Discord's
    users) as it is."""
    ran: list[str | None] = [None]  # the step that ran last, told by the step itself
    stretched: list[tuple[str | None, float]] = []

    def stretch(started: float, factor: float) -> None:
        stretched.append((ran[0], factor))
        ran[0] = None

    monkeypatch.setattr(bench, "stretch", stretch)

    async def step(who: str) -> None:
        ran[0] = who

    async def measured() -> None:
        if loop == "uvloop":
            bench.TimedSteps.install(asyncio.get_running_loop())
        with bench.SlowCallbacks(1.5) as slow:
            await asyncio.create_task(step("bot"))
            client = asyncio.create_task(step("client"))
            slow.add_clients([client])
            await client
            ran[0] = None  # this task's own step, which goes on past the block
        assert ("bot", 1.5) in stretched
        assert all(who != "client" for who, _ in stretched)
        stretched.clear()
        with bench.SlowCallbacks():
            await asyncio.create_task(step("bot"))
            ran[0] = None
        assert all(who != "bot" for who, _ in stretched)

    with asyncio.Runner(loop_factory=event_loop.policy(loop).new_event_loop) as runner:
        runner.run(measured())
