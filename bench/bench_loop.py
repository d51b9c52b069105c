"""Event-loop benchmark of the game master with many live matches (issue 10 item 4).

Usage (from the repository root)::

    python bench/bench_loop.py                 # 1,000 live matches, about a minute
    python bench/bench_loop.py --matches 50    # a smoke run

It fills one SQLite file through the store (no Discord: a recording publisher),
each match played in its own thread of one parent channel with one human seat
(a different user each) and AI seats, and one decision deadline per match. Then,
with a heartbeat task measuring its own lateness (the worst event-loop stall):

- restart-to-ready: ``Store.open`` + ``GameMaster.recover()`` over every live match;
- command ack: ``/arena hand`` typed in the parent channel (the match found by the
  user's seat, then the private prompts), p50/p99, alone and during the tick;
- one tick with every deadline due (AI takes over, commits, posts go out).

After the restart it starts what the deployed bot starts once it has recovered
(``ArenaBot.setup_hook``): the AI and drawing worker processes, start-up frozen out of
the collector's sight, the quiet collector; ``--cold`` leaves them out, as tests do
(images then drawn and AI thinking in the game master's threads).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.collector import QuietCollector  # noqa: E402
from bot.engine import Match, SeatSpec  # noqa: E402
from bot.engine.registry import get_game  # noqa: E402
from bot.gm import Actor, DmResult, GameMaster, ManualClock, Msg, drawing, thinking  # noqa: E402
from bot.gm.base import tune_threads  # noqa: E402
from bot.store import Store  # noqa: E402

PARENT = 20
GUILD = 10
T = TypeVar("T")


class Recorder:
    """A publisher that only counts what would reach Discord."""

    def __init__(self) -> None:
        self.sends = 0
        self.edits = 0
        self.next_id = 10**9

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        self.sends += 1
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        self.edits += 1
        return True

    async def retire(self, channel_id: int, message_id: int) -> bool:
        return True

    async def dm(self, user_id: int, msg: Msg) -> DmResult:
        return DmResult.CLOSED

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        return None


class Heartbeat:
    """Sleeps ``every`` seconds again and again; the worst lateness is the worst stall."""

    def __init__(self, every: float = 0.005) -> None:
        self.every = every
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.every)
            self.worst = max(self.worst, loop.time() - start - self.every)

    def start(self) -> None:
        self.worst = 0.0
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> float:
        assert self._task is not None
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
        return self.worst


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered)) - 1))]


async def timed(coro: Awaitable[T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = await coro
    return result, time.perf_counter() - start


async def store_live(
    store: Store,
    match: Match,
    *,
    guild_id: int,
    channel_id: int,
    thread_id: int | None,
    host_id: int,
) -> int:
    """``match`` stored as a live match (its lobby, seats and snapshot) after its AI seats
    played what the setup owes them before a human's decision is due; its id."""
    mid = await store.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        host_id=host_id,
        game=match.game_id,
        mode=match.mode,
        options={},
        locale="en",
    )
    await store.update_lobby(mid, seats=match.seats)
    while (ai := [d for d in match.pending() if match.seats[d.seat].ai]) and not match.over:
        match.apply(match.ai_choice(ai[0]))
    await store.start_match(mid, match)
    return mid


async def fill(path: Path, game: str, count: int, now: float) -> None:
    """``count`` live matches, each in its own thread, one human seat (user i+1)."""
    store = await Store.open(path)
    info = get_game(game).info
    mode = info.modes[0]
    players = min(mode.player_counts)
    try:
        for i in range(count):
            seats = [SeatSpec(name=f"User {i + 1}", user_id=i + 1)] + [
                SeatSpec(name=f"Robot {k}", ai=True) for k in range(1, players)
            ]
            match = Match.create(game, seats, seed=f"bench-{i}", mode=mode.id)
            mid = await store_live(
                store,
                match,
                guild_id=GUILD,
                channel_id=PARENT,
                thread_id=100_000 + i,
                host_id=i + 1,
            )
            mine = [d for d in match.pending() if not match.seats[d.seat].ai]
            for d in mine[:1]:  # one deadline per match, due after the clock moves
                await store.set_deadline(mid, d.key, d.seat, now + 60, now + 30)
            for d in mine[1:]:
                await store.set_deadline(mid, d.key, d.seat, now + 3600, now + 1800)
    finally:
        await store.close()


async def commands(gm: GameMaster, count: int, users: int) -> list[float]:
    times: list[float] = []
    for k in range(count):
        uid = k * 7919 % users + 1
        actor = Actor(user_id=uid, name=f"User {uid}", lang="en")
        _, took = await timed(gm.hand_here(PARENT, actor))
        times.append(took)
    return times


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    now = 1_800_000_000.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "loop.sqlite3"
        _, fill_s = await timed(fill(path, args.game, args.matches, now))
        beat = Heartbeat()
        out: dict[str, Any] = {"matches": args.matches, "game": args.game, "fill_s": fill_s}

        beat.start()
        clock = ManualClock(now)
        pub = Recorder()
        start = time.perf_counter()
        store = await Store.open(path)
        gm = GameMaster(store, pub, clock)
        await gm.recover()
        out["restart_s"] = time.perf_counter() - start
        out["restart_stall_ms"] = 1000 * await beat.stop()
        collector = await _boot() if getattr(args, "long_lived", True) else None
        try:
            await _measure(args, gm, store, clock, pub, beat, out)
        finally:
            if collector is not None:
                await _stop(collector)
        await store.close()
    return out


async def _boot() -> QuietCollector:
    """What the deployed bot starts once it has recovered (``ArenaBot.setup_hook``)."""
    await asyncio.to_thread(thinking.warm)
    await asyncio.to_thread(drawing.start)
    gc.collect()
    gc.freeze()
    collector = QuietCollector()
    collector.start()
    return collector


async def _stop(collector: QuietCollector) -> None:
    await collector.stop()
    await asyncio.to_thread(drawing.shutdown)
    await asyncio.to_thread(thinking.shutdown)
    gc.unfreeze()


async def _measure(
    args: argparse.Namespace,
    gm: GameMaster,
    store: Store,
    clock: ManualClock,
    pub: Recorder,
    beat: Heartbeat,
    out: dict[str, Any],
) -> None:
    """The commands alone, then the tick with commands meanwhile."""
    beat.start()
    acks = await commands(gm, args.commands, args.matches)
    out["ack_p50_ms"] = 1000 * statistics.median(acks)
    out["ack_p99_ms"] = 1000 * pct(acks, 99)
    out["ack_stall_ms"] = 1000 * await beat.stop()

    clock.advance(61)
    beat.start()
    before = (pub.sends, pub.edits)
    tick = asyncio.create_task(timed(gm.tick()))
    await asyncio.sleep(0)
    loaded = await commands(gm, args.commands // 4, args.matches)
    _, tick_s = await tick
    out["tick_s"] = tick_s
    out["tick_stall_ms"] = 1000 * await beat.stop()
    out["ack_during_tick_p99_ms"] = 1000 * pct(loaded, 99)
    out["tick_posts"] = pub.sends - before[0]
    out["tick_edits"] = pub.edits - before[1]
    expired = sum(1 for d in await store.deadlines() if d.due_at <= clock.now())
    out["still_due_after_tick"] = expired


def report(fig: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"## Event loop with {fig['matches']} live matches ({fig['game']})",
            "",
            "| Figure | Value |",
            "|---|---|",
            f"| restart to ready (open + recover) | {fig['restart_s']:.2f} s |",
            f"| worst event-loop stall during restart | {fig['restart_stall_ms']:.1f} ms |",
            f"| command ack (hand in the parent channel) p50 / p99 | "
            f"{fig['ack_p50_ms']:.1f} / {fig['ack_p99_ms']:.1f} ms |",
            f"| worst event-loop stall during commands | {fig['ack_stall_ms']:.1f} ms |",
            f"| one tick, {fig['matches']} deadlines due | {fig['tick_s']:.2f} s "
            f"({fig['tick_posts']} posts, {fig['tick_edits']} edits) |",
            f"| worst event-loop stall during the tick | {fig['tick_stall_ms']:.1f} ms |",
            f"| command ack p99 during the tick | {fig['ack_during_tick_p99_ms']:.1f} ms |",
            f"| deadlines still due after the tick | {fig['still_due_after_tick']} |",
            "",
            f"(setup: {fig['fill_s']:.1f} s to store the matches)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--game", default="mad-arena")
    parser.add_argument(
        "--cold",
        dest="long_lived",
        action="store_false",
        help="no worker processes, freeze or collector: images and AI in threads, as tests do",
    )
    args = parser.parse_args(argv)
    tune_threads()  # as the bot does at startup
    print(report(asyncio.run(bench(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
