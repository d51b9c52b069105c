"""The two databases the store runs on, behind one small interface.

:class:`SqliteBackend` (the default: one file, one process) and
:class:`PostgresBackend` (``postgresql://...``: several bot processes on one
database). The store writes its SQL once, with ``?`` placeholders, in the
subset both accept; the Postgres side numbers the placeholders (``$1``...).

Why two kinds of write:

- :meth:`Backend.write` opens a transaction the caller drives statement by
  statement (reads that decide the write, rare paths);
- :meth:`Backend.batch` runs a list of statements known in advance as ONE
  transaction in ONE hop: on SQLite the whole transaction is a single call on
  the database thread, so the store's lock is held for the statements' own
  time (about a millisecond), not for a dozen round trips through the event
  loop (issue 16 item 1); on Postgres it is one connection's round trips,
  with no process-wide lock at all.

Reads never take the write lock: SQLite reads go to a second connection (WAL:
they see the last commit and never block the writer), Postgres reads to any
pooled connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

Dialect = Literal["sqlite", "postgres"]
Row = Mapping[str, Any]
"""A result row: by column name (and, on both backends, by position)."""

T = TypeVar("T")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``ARENA_DATABASE_URL`` (or a path) names a PostgreSQL database."""
    text = str(target)
    return text.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True)
class Stmt:
    """One statement of a :meth:`Backend.batch`."""

    sql: str
    params: Sequence[Any] = ()
    many: Sequence[Sequence[Any]] | None = None
    """Run once per parameter row (``executemany``) instead of once with ``params``."""
    expect: int | None = None
    """The row count the statement must report, else the batch is rolled back and
    :class:`BatchRefused` raised (the compare-and-swap of a decision commit)."""
    returns_id: bool = False
    """The statement inserts one row and ends with ``RETURNING id``: its result in the
    batch is that row's id, not its row count (a new lobby's id, in one hop)."""


class BatchRefused(Exception):
    """A statement of a batch did not touch the expected number of rows: nothing written."""

    def __init__(self, index: int, count: int) -> None:
        super().__init__(f"statement {index} touched {count} rows")
        self.index = index
        self.count = count


class Tx(ABC):
    """Statements inside one open transaction (or one read connection)."""

    dialect: Dialect
    for_update: str
    """Appended to a SELECT whose rows the transaction goes on to change: Postgres locks
    them (``FOR UPDATE``); SQLite's ``BEGIN IMMEDIATE`` already holds the write lock."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class Backend(ABC):
    dialect: Dialect
    target: str
    """The file path or the URL it was opened with (never logged with a password)."""

    @abstractmethod
    def write(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A transaction; committed when the block ends, rolled back on any exception."""

    @abstractmethod
    def read(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A connection for reads only: sees the last commit, takes no write lock."""

    @abstractmethod
    async def batch(self, stmts: Sequence[Stmt]) -> list[int]:
        """``stmts`` as one transaction in one hop; each statement's row count (or the new
        row's id: :attr:`Stmt.returns_id`)."""

    @abstractmethod
    async def close(self) -> None: ...

    lock_wait: float = 0.0
    """Seconds spent waiting for the write lock so far (SQLite; diagnostics, bench)."""
    lock_held: float = 0.0
    """Seconds the writer was held so far (SQLite; diagnostics, bench): by a
    statement-by-statement transaction's lock, or by a job of batches from its hand-over
    to the writer's thread until its results are back on the loop."""
    writes: int = 0
    """Write transactions so far."""


# --- SQLite -----------------------------------------------------------------------------


class _Worker:
    """One sqlite3 connection and the one thread that ever touches it."""

    def __init__(self, conn: sqlite3.Connection, name: str) -> None:
        self.conn = conn
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._closed = False

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self.submit(fn)

    def submit(self, fn: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        """``fn(connection)`` handed to the thread now, behind the jobs already there."""
        return asyncio.get_running_loop().run_in_executor(self._pool, fn, self.conn)

    async def close(self) -> None:
        """Close the connection and end the thread; a second close does nothing."""
        if self._closed:
            return
        self._closed = True
        await self.run(lambda c: c.close())
        self._pool.shutdown(wait=True)


def _rowcount(cur: sqlite3.Cursor) -> int:
    return max(cur.rowcount, 0)


class _SqliteTx(Tx):
    dialect: Dialect = "sqlite"
    for_update = ""

    def __init__(self, worker: _Worker) -> None:
        self._w = worker

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._w.run(lambda c: _rowcount(c.execute(sql, tuple(params))))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self._w.run(lambda c: c.executemany(sql, [tuple(r) for r in rows]))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = await self._w.run(lambda c: c.execute(sql, tuple(params)).fetchone())
        return row

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._w.run(lambda c: c.execute(sql, tuple(params)).fetchall())
        return rows


def _run_batch(conn: sqlite3.Connection, stmts: Sequence[Stmt]) -> list[int]:
    """The whole transaction, on the database thread."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        counts = [_run_stmt(conn, i, s) for i, s in enumerate(stmts)]
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return counts


def _run_batches(
    conn: sqlite3.Connection, batches: Sequence[Sequence[Stmt]]
) -> list[list[int] | Exception]:
    """Several batches in one transaction on the database thread, each inside a
    savepoint of its own: a batch that fails is rolled back to its savepoint alone, and
    one commit writes the group (fewer writes to the WAL than a commit per batch). Each
    batch's row counts, or the exception that rolled it back; if the commit itself
    fails, every batch gets that error."""
    if len(batches) == 1:
        try:
            return [_run_batch(conn, batches[0])]
        except Exception as exc:
            return [exc]
    out: list[list[int] | Exception] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for stmts in batches:
            conn.execute("SAVEPOINT batch")
            try:
                out.append([_run_stmt(conn, i, s) for i, s in enumerate(stmts)])
            except Exception as exc:  # this batch only: the next ones still run
                conn.execute("ROLLBACK TO batch")
                out.append(exc)
            conn.execute("RELEASE batch")
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if not isinstance(exc, Exception):
            raise
        return [exc] * len(batches)
    return out


def _hand_back(
    results: list[tuple[tuple[Sequence[Stmt], asyncio.Future[list[int]]], list[int] | Exception]],
) -> None:
    """Wake the callers of a group's batches one per turn of the event loop, not all in
    one: each goes on with its click (drawing, posting) and the loop's other callbacks
    (timers, other clicks) get their turn between them."""
    if not results:
        return
    (_, waiter), result = results[0]
    if not waiter.done():
        if isinstance(result, Exception):
            waiter.set_exception(result)
        else:
            waiter.set_result(result)
    if len(results) > 1:
        asyncio.get_running_loop().call_soon(_hand_back, results[1:])


def _fail_all(
    group: Sequence[tuple[Sequence[Stmt], asyncio.Future[list[int]]]], error: BaseException
) -> None:
    """Every caller of a group that could not reach the writer's thread hears ``error``
    (one that gave up meanwhile is skipped)."""
    for _, waiter in group:
        if not waiter.done():
            waiter.set_exception(error)


def _run_stmt(conn: sqlite3.Connection, index: int, s: Stmt) -> int:
    if s.many is not None:
        if not s.many:
            return 0
        count = _rowcount(conn.executemany(s.sql, [tuple(r) for r in s.many]))
    elif s.returns_id:
        rows = conn.execute(s.sql, tuple(s.params)).fetchall()
        return int(rows[0][0])
    else:
        count = _rowcount(conn.execute(s.sql, tuple(s.params)))
    if s.expect is not None and count != s.expect:
        raise BatchRefused(index, count)
    return count


class SqliteBackend(Backend):
    """One file: a writer connection on one thread, a reader connection on another.

    Batches are committed in groups: a :meth:`batch` joins a queue, and whenever the
    writer's thread is free every queued batch goes to it in one job, one transaction
    with a savepoint per batch (group commit), so at most one job of batches is in
    flight and the batches that arrived meanwhile go together in the next. A :meth:`write`
    transaction, driven statement by statement across awaits, takes the asyncio lock
    (one such transaction at a time); while it is open no job of batches starts (the
    thread runs its jobs in the order they were handed over, so one already handed over
    ends before the transaction's BEGIN), so nothing runs inside an open transaction.

    Why (issue 16 item 1): with every batch behind the lock, each one held it for its
    hop and for the event loop's turns to resume it and wake the next waiter, so under
    load the waiting batches formed a queue that never drained: in the load benchmark
    88% of the commits found the lock taken, and commits waited 155-170 ms (p50) with
    the writer's thread 8% busy; in groups they wait 29-60 ms (p50). Handing every
    batch to the thread at once, without groups, cut that wait too but not the clicks'
    result latency, and the loop lag p99 rose to 63 ms (28-41 ms in groups, 15 ms
    before: the clicks that waited for the lock now go on side by side)."""

    dialect: Dialect = "sqlite"

    def __init__(
        self,
        target: str,
        writer: _Worker,
        reader: _Worker | None,
        checkpointer: _Worker | None = None,
    ) -> None:
        self.target = target
        self._writer = writer
        self._reader = reader
        self._ckpt = checkpointer
        self._lock = asyncio.Lock()
        self._tx_open = False
        """A :meth:`write` transaction is open: no job of batches starts."""
        self._queued: list[tuple[Sequence[Stmt], asyncio.Future[list[int]]]] = []
        """Batches waiting for the writer's thread, in order, with their callers' futures."""
        self._in_flight = False
        """A job of batches is on the writer's thread."""

    @classmethod
    async def open(
        cls, path: str | Path, pragmas: Sequence[str], reader_pragmas: Sequence[str] = ()
    ) -> SqliteBackend:
        """Connections to ``path``: the writer gets ``pragmas``; a file also gets a reader
        and a checkpointer connection, each with ``reader_pragmas``."""
        memory = str(path) == ":memory:"
        target = str(path)
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)

        def connect() -> sqlite3.Connection:
            conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            return conn

        workers: list[_Worker] = [_Worker(await asyncio.to_thread(connect), "sqlite-writer")]
        try:
            for pragma in pragmas:
                await workers[0].run(functools.partial(_exec, sql=pragma))
            if not memory:
                for name in ("sqlite-reader", "sqlite-checkpoint"):
                    workers.append(_Worker(await asyncio.to_thread(connect), name))
                    for pragma in reader_pragmas:
                        await workers[-1].run(functools.partial(_exec, sql=pragma))
        except BaseException:
            for worker in workers:
                await worker.close()
            raise
        if memory:
            return cls(target, workers[0], None)
        return cls(target, workers[0], workers[1], workers[2])

    async def checkpoint(self) -> bool:
        """A PASSIVE WAL checkpoint on its own connection: it never waits for, nor
        blocks, the writer. False when there is no file or SQLite was busy."""
        if self._ckpt is None:
            return False
        try:
            await self._ckpt.run(functools.partial(_exec, sql="PRAGMA wal_checkpoint(PASSIVE)"))
        except sqlite3.Error:
            return False
        return True

    @property
    def lock(self) -> asyncio.Lock:
        return self._lock

    async def run_raw(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the writer's thread, under the lock (pragmas, checkpoints)."""
        async with self._lock:
            return await self._writer.run(fn)

    @asynccontextmanager
    async def _timed(self) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        asked = loop.time()
        async with self._lock:
            got = loop.time()
            self.lock_wait += got - asked
            try:
                yield
            finally:
                self.lock_held += loop.time() - got
                self.writes += 1

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with self._timed():
            self._tx_open = True
            try:
                await self._writer.run(functools.partial(_exec, sql="BEGIN IMMEDIATE"))
                try:
                    yield _SqliteTx(self._writer)
                except BaseException:
                    await self._writer.run(_rollback)
                    raise
                await self._writer.run(functools.partial(_exec, sql="COMMIT"))
            finally:
                self._tx_open = False
                self._start_batches()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        if self._reader is not None:
            yield _SqliteTx(self._reader)
            return
        async with self._lock:  # ":memory:": one connection, shared with the writer
            yield _SqliteTx(self._writer)

    async def batch(self, stmts: Sequence[Stmt]) -> list[int]:
        done: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._queued.append((stmts, done))
        self.writes += 1
        self._start_batches()
        return await done

    def _start_batches(self) -> None:
        """Hand every queued batch to the writer's thread in one job, unless a job is
        already there or a write() transaction is open (each calls this again after)."""
        if self._in_flight or self._tx_open:
            return
        group = [(stmts, done) for stmts, done in self._queued if not done.cancelled()]
        self._queued = []
        if not group:
            return
        try:
            task = self._writer.submit(
                functools.partial(_run_batches, batches=[s for s, _ in group])
            )
        except Exception as exc:  # the thread is gone (a closed store): each caller hears it
            _fail_all(group, exc)
            return
        self._in_flight = True
        loop = asyncio.get_running_loop()
        handed = loop.time()

        def finished(task: asyncio.Future[list[list[int] | Exception]]) -> None:
            self._in_flight = False
            self.lock_held += loop.time() - handed
            try:
                if task.cancelled():  # the loop is closing
                    for _, waiter in group:
                        waiter.cancel()
                    return
                error = task.exception()
                if error is not None:  # the thread is gone (closed store)
                    _fail_all(group, error)
                    return
                _hand_back(list(zip(group, task.result(), strict=True)))
            finally:
                self._start_batches()

        task.add_done_callback(finished)

    async def close(self) -> None:
        for worker in (self._reader, self._ckpt):
            if worker is not None:
                await worker.close()
        self._reader = self._ckpt = None
        async with self._lock:
            while self._queued or self._in_flight:  # the batches asked for before
                await asyncio.sleep(0.001)
            await self._writer.close()


def _exec(conn: sqlite3.Connection, sql: str) -> None:
    conn.execute(sql)


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:  # SQLite may already have rolled back (disk full...)
        conn.execute("ROLLBACK")


# --- PostgreSQL -------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def to_dollar(sql: str) -> str:
    """``?`` placeholders numbered for Postgres (the store's SQL has no ``?`` in literals)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _m: f"${next(counter)}", sql)


def _count(status: str) -> int:
    """The row count of an asyncpg status line (``UPDATE 1``, ``INSERT 0 3``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgTx(Tx):
    dialect: Dialect = "postgres"
    for_update = " FOR UPDATE"

    def __init__(self, conn: Any) -> None:
        self._c = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._c.execute(to_dollar(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self._c.executemany(to_dollar(sql), [tuple(r) for r in rows])

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = await self._c.fetchrow(to_dollar(sql), *params)
        return row

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._c.fetch(to_dollar(sql), *params))


async def _pg_run_stmt(conn: Any, i: int, s: Stmt) -> int:
    """Statement ``i`` of a batch on asyncpg's ``conn`` (SQLite's: :func:`_run_stmt`): its
    row count, or the id it returns; :class:`BatchRefused` if the count is not the one it
    expects."""
    if s.many is not None:
        if s.many:
            await conn.executemany(to_dollar(s.sql), [tuple(r) for r in s.many])
        count = len(s.many)
    elif s.returns_id:
        return int(await conn.fetchval(to_dollar(s.sql), *s.params))
    else:
        count = _count(await conn.execute(to_dollar(s.sql), *s.params))
    if s.expect is not None and count != s.expect:
        raise BatchRefused(i, count)
    return count


async def _session_kept(conn: Any) -> None:
    """What the pool does to a released connection beyond asyncpg's own rollback of a
    transaction left open: nothing. The store leaves no session state behind (no LISTEN,
    no cursor or advisory lock outliving its transaction, no SET), so asyncpg's default
    reset query (``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``) would
    cost a round trip to the server at every release, about five per click, for nothing
    (issue 16). The pool's ``reset`` argument needs asyncpg 0.30 (``pyproject.toml``)."""


class PostgresBackend(Backend):
    """A pool of asyncpg connections; no process-wide lock (the database arbitrates)."""

    dialect: Dialect = "postgres"

    def __init__(self, target: str, pool: Any) -> None:
        self.target = target
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 8) -> PostgresBackend:
        import asyncpg  # type: ignore[import-untyped]  # only Postgres deployments load it

        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            command_timeout=60,
            statement_cache_size=512,
            reset=_session_kept,
        )
        return cls(url, pool)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield _PgTx(conn)
        self.writes += 1

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as conn:
            yield _PgTx(conn)

    async def batch(self, stmts: Sequence[Stmt]) -> list[int]:
        if len(stmts) == 1 and stmts[0].many is None and stmts[0].expect is None:
            # One statement is a transaction of its own in PostgreSQL: BEGIN and COMMIT
            # would be two more round trips to the server (a delivered post's mark, about
            # 0.6 per click under load; issue 16).
            async with self._pool.acquire() as conn:
                counts = [await _pg_run_stmt(conn, 0, stmts[0])]
        else:
            async with self._pool.acquire() as conn, conn.transaction():
                counts = [await _pg_run_stmt(conn, i, s) for i, s in enumerate(stmts)]
        self.writes += 1
        return counts

    async def write_one(self, sql: str, params: Sequence[Any]) -> Row | None:
        """One statement (``$n`` placeholders) as a transaction of its own, in one round
        trip: its first row (a decision's commit, :mod:`bot.store.pg_commit`)."""
        async with self._pool.acquire() as conn:
            row: Row | None = await conn.fetchrow(sql, *params)
        self.writes += 1
        return row

    async def close(self) -> None:
        await self._pool.close()  # asyncpg's close is idempotent
