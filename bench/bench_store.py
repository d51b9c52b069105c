"""The store on SQLite and on PostgreSQL, in one run (issues 15 and 16 item 1).

Usage (from the repository root)::

    python bench/bench_store.py            # a few minutes; prints Markdown tables
    python bench/bench_store.py --quick    # a smoke run (100 live matches)
    python bench/bench_store.py --pg postgresql://...   # an existing (empty) database

Without ``--pg`` a throwaway PostgreSQL server is started in a temporary
directory (``pgserver`` from the test extra, or the machine's PostgreSQL), with
its default durability settings (fsync on), like a real deployment.

Figures:

- **database size per finished match**, for each game and backend: whole
  matches played (random legal moves) and committed decision by decision, the
  database's used bytes before and after, divided by the matches;
- **decision commit p50/p99** with 1,000 live matches on each backend
  (``Store.commit_decision``, a random live match each time); PostgreSQL as
  configured (``synchronous_commit=on``: an fsync per commit) and with
  ``synchronous_commit=off`` (the counterpart of SQLite's ``synchronous=NORMAL``:
  a server crash may lose the last fraction of a second of commits, never
  corrupts);
- **writer held per decision** on SQLite: the commit as one batch in one hop
  to the database thread (today) next to the same statements sent one by one
  (one hop each, as before issue 16 item 1). PostgreSQL has no process lock.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.engine import Match  # noqa: E402
from bot.engine.registry import all_games, get_game  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.backend import PostgresBackend, SqliteBackend  # noqa: E402


def _bench_run() -> ModuleType:
    """``bench/run.py`` (its seats, random legal moves and percentile)."""
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


RUN = _bench_run()


@dataclass
class CommitFigures:
    backend: str
    live: int
    commits: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    lock_ms: float | None
    """The writer held per commit (SQLite), ms: the lock of a statement-by-statement
    transaction, or a batch's job from its hand-over to its result on the loop."""


async def used_bytes(store: Store) -> int:
    """Bytes the database holds in its pages/relations (not free space)."""
    backend = store.backend
    if isinstance(backend, SqliteBackend):

        def pages(c: Any) -> int:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            count = c.execute("PRAGMA page_count").fetchone()[0]
            free = c.execute("PRAGMA freelist_count").fetchone()[0]
            size = c.execute("PRAGMA page_size").fetchone()[0]
            return int((count - free) * size)

        return await backend.run_raw(pages)
    assert isinstance(backend, PostgresBackend)
    async with backend.read() as tx:
        # Compacted first: dead row versions (every snapshot update leaves one until
        # autovacuum) are not what a match costs in the long run.
        for t in await tx.fetchall(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ):
            await tx.execute(f'VACUUM FULL "{t["tablename"]}"')
        row = await tx.fetchone(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        )
    assert row is not None
    return int(row["n"])


async def new_match(
    store: Store, game_id: str, n: int, rnd: random.Random, steps: int
) -> tuple[int, Match]:
    info = get_game(game_id).info
    mode = info.modes[0].id
    match = Match.create(game_id, RUN.seats_for(info, mode), seed=f"store-{n}", mode=mode)
    match_id = await store.create_lobby(
        guild_id=1 + n % 50,
        channel_id=10_000 + n,
        thread_id=None,
        host_id=1,
        game=game_id,
        mode=mode,
        options={},
        locale="en",
    )
    await store.start_match(match_id, match)
    for _ in range(steps):
        if match.over:
            break
        choice, _ = RUN.random_step(match, rnd)
        await store.commit_decision(match_id, choice, match)
    return match_id, match


async def size_per_match(target: str | Path, game_id: str, matches: int) -> float:
    """Bytes per finished match of ``game_id`` (random legal play to the end)."""
    store = await Store.open(target)
    try:
        rnd = random.Random(7)
        before = await used_bytes(store)
        for n in range(matches):
            await new_match(store, game_id, n, rnd, 100_000)
        return (await used_bytes(store) - before) / matches
    finally:
        await store.close()


async def commit_times(
    target: str | Path, backend_name: str, game_id: str, live: int, commits: int, batch: bool
) -> CommitFigures:
    store = await Store.open(target)
    rnd = random.Random(1)
    if not batch:

        async def nothing() -> None:
            return None

        store._between_statements = nothing  # noqa: SLF001  (statement by statement)
    try:
        matches = []
        n = 0
        while len(matches) < live:
            mid, match = await new_match(store, game_id, n, rnd, rnd.randint(0, 10))
            n += 1
            if not match.over:
                matches.append((mid, match))
        backend = store.backend
        held0, writes0 = backend.lock_held, backend.writes
        times: list[float] = []
        for _ in range(commits):
            k = rnd.randrange(len(matches))
            mid, match = matches[k]
            choice, _ = RUN.random_step(match, rnd)
            t = time.perf_counter()
            await store.commit_decision(mid, choice, match)
            times.append((time.perf_counter() - t) * 1000)
            if match.over:
                matches[k] = await new_match(store, game_id, n, rnd, 0)
                n += 1
        lock = None
        if isinstance(backend, SqliteBackend):
            lock = (backend.lock_held - held0) * 1000 / max(1, backend.writes - writes0)
        return CommitFigures(
            backend=backend_name,
            live=live,
            commits=len(times),
            p50_ms=RUN.percentile(times, 50),
            p99_ms=RUN.percentile(times, 99),
            max_ms=max(times),
            lock_ms=lock,
        )
    finally:
        await store.close()


def pg_targets(url: str | None) -> tuple[Any, Any]:
    """A function giving a fresh Postgres schema URL per measurement, and a stopper."""
    if url is not None:
        counter = iter(range(1, 10_000))

        def fresh() -> str:
            import asyncpg  # type: ignore[import-untyped]

            schema = f"bench_{int(time.time())}_{next(counter)}"

            async def create() -> None:
                conn = await asyncpg.connect(url)
                try:
                    await conn.execute(f'CREATE SCHEMA "{schema}"')
                finally:
                    await conn.close()

            asyncio.run(create())
            sep = "&" if "?" in url else "?"
            return f"{url}{sep}search_path={schema}"

        return fresh, lambda: None
    from tests.support.postgres import start_server

    servers = start_server()
    with warnings.catch_warnings():
        # pgserver finds no XDG_RUNTIME_DIR in a container and says so; /tmp serves.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        server = next(servers)

    def stop() -> None:
        for _ in servers:
            pass

    return server.new_schema, stop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 live matches, fewer commits")
    parser.add_argument("--pg", help="an existing PostgreSQL URL (default: start one)")
    parser.add_argument("--matches", type=int, default=None, help="finished matches per game")
    parser.add_argument("--game", default=None, help="the game of the commit bench")
    args = parser.parse_args(argv)
    live, commits = (100, 300) if args.quick else (1000, 2000)
    per_game = args.matches or (3 if args.quick else 10)
    games = [g.id for g in all_games() if g.id != RUN.FIXTURE]
    commit_game = args.game or ("mad-arena" if "mad-arena" in games else games[0])
    fresh_pg, stop = pg_targets(args.pg)
    tmp = Path(tempfile.mkdtemp(prefix="arena-bench-store-"))
    counter = iter(range(1, 10_000))

    def target(backend: str) -> str | Path:
        return fresh_pg() if backend == "postgres" else tmp / f"s{next(counter)}.sqlite3"

    try:
        sizes: dict[tuple[str, str], float] = {}
        for game in games:
            for backend in ("sqlite", "postgres"):
                sizes[(game, backend)] = asyncio.run(
                    size_per_match(target(backend), game, per_game)
                )
                print(
                    f"size {game} {backend}: {sizes[(game, backend)] / 1000:.1f} kB",
                    file=sys.stderr,
                )
        figures = []
        runs = (
            ("sqlite", True, ""),
            ("sqlite", False, ""),
            ("postgres", True, ""),
            ("postgres", True, "synchronous_commit=off"),
        )
        for backend, batch, setting in runs:
            where = target(backend)
            if setting:
                where = f"{where}&{setting}"
            f = asyncio.run(commit_times(where, backend, commit_game, live, commits, batch))
            f.backend += f" ({setting})" if setting else ""
            figures.append((batch, f))
            print(f"commits {backend} batch={batch}: p99 {f.p99_ms:.1f} ms", file=sys.stderr)
    finally:
        stop()

    print(f"### Database size per finished match ({per_game} random matches per game)\n")
    print("| Game | SQLite | PostgreSQL |")
    print("|---|---:|---:|")
    for game in games:
        print(
            f"| {game} | {sizes[(game, 'sqlite')] / 1000:.1f} kB "
            f"| {sizes[(game, 'postgres')] / 1000:.1f} kB |"
        )
    print(f"\n### Decision commit with {live} live matches ({commit_game}, {commits} commits)\n")
    print("| Backend | Commit | p50 ms | p99 ms | max ms | writer held per commit |")
    print("|---|---|---:|---:|---:|---:|")
    for batch, f in figures:
        if f.backend.startswith("postgres"):
            how = "one transaction, a round trip per statement"
        else:
            how = "one batch, one hop" if batch else "statement by statement (before)"
        lock = f"{f.lock_ms:.2f} ms" if f.lock_ms is not None else "none (the server locks the row)"
        print(
            f"| {f.backend.replace('sqlite', 'SQLite').replace('postgres', 'PostgreSQL')} | {how} | {f.p50_ms:.2f} "
            f"| {f.p99_ms:.2f} | {f.max_ms:.1f} | {lock} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
