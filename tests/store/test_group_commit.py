"""SQLite batches committed in groups (issue 16 item 1): whatever waits when the writer's
thread is free goes in one job, one transaction with a savepoint per batch, never inside
an open ``write()`` transaction."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store.backend import BatchRefused, SqliteBackend, Stmt


@pytest.fixture
async def backend(tmp_path: Path) -> AsyncIterator[SqliteBackend]:
    b = await SqliteBackend.open(tmp_path / "g.sqlite3", ["PRAGMA journal_mode=WAL"])
    await b.batch([Stmt("CREATE TABLE t (x INTEGER NOT NULL)")])
    yield b
    await b.close()


def count_jobs(backend: SqliteBackend) -> list[int]:
    """The number of batches in each job handed to the writer's thread from now on."""
    jobs: list[int] = []
    writer = backend._writer
    submit = writer.submit

    def counted(fn: Callable[..., Any]) -> asyncio.Future[Any]:
        if isinstance(fn, functools.partial) and "batches" in fn.keywords:
            jobs.append(len(fn.keywords["batches"]))
        return submit(fn)

    writer.submit = counted  # type: ignore[method-assign]
    return jobs


def insert(x: int) -> list[Stmt]:
    return [Stmt("INSERT INTO t (x) VALUES (?)", (x,))]


async def rows(backend: SqliteBackend) -> list[int]:
    async with backend.read() as db:
        return [r["x"] for r in await db.fetchall("SELECT x FROM t ORDER BY rowid")]


async def test_batches_asked_while_one_runs_go_together_in_order(backend: SqliteBackend) -> None:
    jobs = count_jobs(backend)
    results = await asyncio.gather(*(backend.batch(insert(i)) for i in range(20)))
    assert results == [[1]] * 20
    assert await rows(backend) == list(range(20))
    assert jobs == [1, 19]  # the first went alone; the others waited for it, then together


async def test_a_new_rows_id_comes_back_from_its_batch_in_a_group(backend: SqliteBackend) -> None:
    jobs = count_jobs(backend)

    def returning(x: int) -> list[Stmt]:
        return [Stmt("INSERT INTO t (x) VALUES (?) RETURNING rowid", (x,), returns_id=True)]

    first, *others = await asyncio.gather(
        backend.batch(insert(0)), *(backend.batch(returning(x)) for x in (10, 20, 30))
    )
    assert first == [1]
    assert [ids[0] for ids in others] == [2, 3, 4]  # each batch's own row, in order
    assert jobs == [1, 3]
    async with backend.read() as db:
        got = await db.fetchall("SELECT rowid, x FROM t ORDER BY rowid")
    assert [(r["rowid"], r["x"]) for r in got] == [(1, 0), (2, 10), (3, 20), (4, 30)]


@pytest.mark.parametrize(
    ("second", "error"),
    [
        (Stmt("UPDATE t SET x = 0 WHERE x = -1", expect=1), BatchRefused),  # touches nothing
        (Stmt("INSERT INTO t (x) VALUES (NULL)"), sqlite3.IntegrityError),  # NOT NULL
    ],
)
async def test_a_failing_batch_rolls_back_alone_in_its_group(
    backend: SqliteBackend, second: Stmt, error: type[Exception]
) -> None:
    """A group is one transaction, each batch in a savepoint: a batch refused by its own
    expectation or by SQLite undoes its earlier statements, not the other batches'."""
    failing = [Stmt("INSERT INTO t (x) VALUES (?)", (100,)), second]
    jobs = count_jobs(backend)
    first = asyncio.ensure_future(backend.batch(insert(1)))
    await asyncio.sleep(0)
    results = await asyncio.gather(
        backend.batch(insert(2)),
        backend.batch(failing),
        backend.batch(insert(3)),
        return_exceptions=True,
    )
    await first
    assert jobs == [1, 3]
    assert results[0] == [1] and results[2] == [1]
    assert isinstance(results[1], error)
    assert await rows(backend) == [1, 2, 3]  # nothing of the failing batch


async def test_no_batch_runs_inside_an_open_write_transaction(backend: SqliteBackend) -> None:
    async with backend.write() as db:
        await db.execute("INSERT INTO t (x) VALUES (1)")
        later = asyncio.ensure_future(backend.batch(insert(2)))
        for _ in range(20):
            await asyncio.sleep(0.005)
        assert not later.done()  # it waits for the transaction
        await db.execute("INSERT INTO t (x) VALUES (3)")
    assert await later == [1]
    assert await rows(backend) == [1, 3, 2]


async def test_a_write_transaction_starts_after_the_batches_handed_over(
    backend: SqliteBackend,
) -> None:
    first = asyncio.ensure_future(backend.batch(insert(1)))
    await asyncio.sleep(0)  # handed to the writer's thread
    async with backend.write() as db:
        await db.execute("INSERT INTO t (x) VALUES (2)")
    await first
    assert await rows(backend) == [1, 2]


async def test_a_batch_whose_caller_gave_up_before_its_turn_is_not_run(
    backend: SqliteBackend,
) -> None:
    first = asyncio.ensure_future(backend.batch(insert(1)))
    await asyncio.sleep(0)
    gone = asyncio.ensure_future(backend.batch(insert(2)))
    await asyncio.sleep(0)  # queued behind the first
    gone.cancel()
    await first
    await backend.batch(insert(3))
    assert await rows(backend) == [1, 3]


async def test_close_waits_for_the_batches_asked_before(tmp_path: Path) -> None:
    b = await SqliteBackend.open(tmp_path / "c.sqlite3", ["PRAGMA journal_mode=WAL"])
    await b.batch([Stmt("CREATE TABLE t (x INTEGER NOT NULL)")])
    asked = [asyncio.ensure_future(b.batch(insert(i))) for i in range(5)]
    await asyncio.sleep(0)
    await b.close()
    assert [await a for a in asked] == [[1]] * 5
    again = await SqliteBackend.open(tmp_path / "c.sqlite3", [])
    try:
        assert await rows(again) == list(range(5))
    finally:
        await again.close()


async def test_a_batch_on_a_closed_store_fails_at_once(tmp_path: Path) -> None:
    b = await SqliteBackend.open(tmp_path / "x.sqlite3", [])
    await b.close()
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(b.batch(insert(1)), timeout=5)
    assert not b._in_flight  # the next batch is not held back by a job that never ran
