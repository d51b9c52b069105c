"""The outbox mirror (``bot/store/mirror.py``): the rows a flush reads after a commit come
from what this process wrote, equal to what the database holds, and any doubt sends the
next read to the database."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Match
from bot.store import OutboxEntry, Store, StoreConflict
from bot.store.mirror import OutboxMirror
from bot.store.records import OutboxItem
from tests.store.helpers import new_live
from tests.store.test_outbox import ai_step, entry


async def stored(path: Path | str, mid: int) -> list[dict[str, Any]]:
    """The match's undelivered rows as another store reads them from the database."""
    other = await Store.open(path)
    try:
        return [i.model_dump() for i in await other.outbox(mid)]
    finally:
        await other.close()


def picture_entry() -> OutboxEntry:
    """A payload shaped like the game master's: nested, with text to escape and an image
    as base64."""
    return OutboxEntry(
        kind="edit",
        channel_id=2**62 + 5,
        role="table",
        payload={
            "msg": {
                "content": 'Tour 2 — « Näme » "quoted"\n',
                "files": [{"name": "board.png", "data": "iVBORw0KGgo=" * 50}],
                "rows": [[{"id": "p:1", "label": "⚔️", "disabled": False, "n": 1.5}]],
                "mentions": [],
            },
            "create": False,
        },
    )


async def committed(store: Store, outbox: list[OutboxEntry]) -> tuple[int, Match]:
    """A live match whose rows were read once (the mirror knows it from then on), then
    one AI step committed with ``outbox``."""
    mid, match = await new_live(store)
    assert await store.outbox(mid) == []
    ai_step(match)
    await store.commit_decision(mid, match.choices[-1], match, outbox=outbox)
    return mid, match


async def test_rows_after_a_commit_are_answered_without_a_read(
    store: Store, db_path: Path | str
) -> None:
    mid, _ = await committed(store, [entry("step"), picture_entry()])
    hits = store._outbox.hits
    items = await store.outbox(mid)
    alone = store.backend.dialect != "postgres"
    assert store._outbox.hits == hits + (1 if alone else 0)
    assert [i.model_dump() for i in items] == await stored(db_path, mid)
    assert [i.payload.get("text") for i in items] == ["step", None]
    assert items[1].payload == picture_entry().payload


async def test_delivered_rows_leave_the_mirror_as_they_leave_the_table(
    store: Store, db_path: Path | str
) -> None:
    mid, match = await committed(store, [entry("a"), entry("b", role="round")])
    first, second = await store.outbox(mid)
    await store.outbox_delivered(first, 111)
    assert [i.payload["text"] for i in await store.outbox(mid)] == ["b"]
    ai_step(match)
    await store.commit_decision(mid, match.choices[-1], match, outbox=[entry("c")])
    await store.outbox_delivered(second, 222, role="round")
    assert [i.model_dump() for i in await store.outbox(mid)] == await stored(db_path, mid)
    assert [i.payload["text"] for i in await store.outbox(mid)] == ["c"]
    assert await store.messages(mid) == {"round": (10, 222)}


async def test_a_failed_attempt_is_counted_in_the_mirror_too(
    store: Store, db_path: Path | str
) -> None:
    mid, _ = await committed(store, [entry("a")])
    (item,) = await store.outbox(mid)
    assert await store.outbox_failed(item.id) == 1
    assert await store.outbox_failed(item.id) == 2
    assert [i.attempts for i in await store.outbox(mid)] == [2]
    assert [i.model_dump() for i in await store.outbox(mid)] == await stored(db_path, mid)


async def test_a_refused_commit_leaves_the_mirror_as_the_table(
    store: Store, db_path: Path | str
) -> None:
    mid, match = await committed(store, [entry("a")])
    stale = match.choices[-1]
    with pytest.raises(StoreConflict):
        await store.commit_decision(mid, stale, match, outbox=[entry("never")])
    assert [i.payload["text"] for i in await store.outbox(mid)] == ["a"]
    assert [i.model_dump() for i in await store.outbox(mid)] == await stored(db_path, mid)


async def test_rows_numbered_by_the_database_are_read_from_it(
    store: Store, db_path: Path | str
) -> None:
    """``add_public`` rows take the stored version, which the mirror cannot tell: the
    match is read again, and the rows come back with that version."""
    mid, match = await new_live(store)
    ai_step(match)
    await store.commit_decision(mid, match.choices[-1], match)
    await store.outbox(mid)
    await store.add_public(mid, [entry("lobby", role="lobby")])
    hits = store._outbox.hits
    items = await store.outbox(mid)
    assert store._outbox.hits == hits  # read from the database
    assert [(i.version, i.payload["text"]) for i in items] == [(1, "lobby")]
    assert await store.outbox(mid) == items
    assert [i.model_dump() for i in items] == await stored(db_path, mid)


async def test_status_changes_with_posts_are_mirrored(store: Store, db_path: Path | str) -> None:
    mid, match = await new_live(store)
    ai_step(match)
    await store.commit_decision(mid, match.choices[-1], match)
    await store.outbox(mid)
    await store.set_status(mid, "abandoned", outbox=[entry("bye")])
    items = await store.outbox(mid)
    assert [(i.version, i.payload["text"]) for i in items] == [(1, "bye")]
    assert [i.model_dump() for i in items] == await stored(db_path, mid)


async def test_a_partial_read_is_not_kept(store: Store) -> None:
    mid, match = await new_live(store)
    ai_step(match)
    await store.commit_decision(
        mid, match.choices[-1], match, outbox=[entry("a"), entry("b"), entry("c")]
    )
    assert [i.payload["text"] for i in await store.outbox(mid, limit=2)] == ["a", "b"]
    hits = store._outbox.hits
    assert [i.payload["text"] for i in await store.outbox(mid)] == ["a", "b", "c"]
    assert store._outbox.hits == hits  # the first read saw two rows of three: read again
    if store.backend.dialect != "postgres":
        assert [i.payload["text"] for i in await store.outbox(mid, limit=1)] == ["a"]
        assert store._outbox.hits == hits + 1


async def test_a_commit_given_up_while_writing_sends_the_next_read_to_the_table(
    store: Store, db_path: Path | str
) -> None:
    """A commit whose caller stopped waiting may still reach the database: the mirror
    forgets the match rather than miss a row that would then never be posted."""
    mid, match = await new_live(store)
    await store.outbox(mid)
    ai_step(match)
    task = asyncio.ensure_future(
        store.commit_decision(mid, match.choices[-1], match, outbox=[entry("maybe")])
    )
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.2)  # the writer's thread finishes what it was handed
    assert [i.model_dump() for i in await store.outbox(mid)] == await stored(db_path, mid)


async def test_pruned_matches_leave_the_mirror(store: Store, clock: Any) -> None:
    mid, match = await new_live(store)
    await store.outbox(mid)
    await store.set_status(mid, "abandoned")
    assert await store.prune(clock.now + 10) == [mid]
    assert mid not in store._outbox._rows


def item(row_id: int, mid: int = 1) -> OutboxItem:
    return OutboxItem(id=row_id, match_id=mid, version=1, kind="post", channel_id=1, payload={})


def test_a_read_overlapping_a_write_is_not_kept() -> None:
    mirror = OutboxMirror(enabled=True)
    stamp = mirror.stamp(1)
    with mirror.writing(1) as write:
        write.succeeded([item(5)])
    mirror.keep(1, stamp, [], complete=True)  # read before the write ended: maybe stale
    assert mirror.get(1, 100) is None
    stamp = mirror.stamp(1)
    mirror.keep(1, stamp, [item(5)], complete=True)
    assert [r.id for r in mirror.get(1, 100) or []] == [5]


def test_a_write_that_did_not_say_it_succeeded_forgets_the_match() -> None:
    mirror = OutboxMirror(enabled=True)
    mirror.keep(1, mirror.stamp(1), [item(5)], complete=True)
    with pytest.raises(RuntimeError), mirror.writing(1):
        raise RuntimeError("the batch failed")
    assert mirror.get(1, 100) is None
    mirror.keep(1, mirror.stamp(1), [item(5)], complete=True)
    with mirror.writing(1):
        pass  # rows the mirror cannot tell (no succeeded())
    assert mirror.get(1, 100) is None


def test_rows_stay_in_id_order_and_the_mirror_is_bounded() -> None:
    mirror = OutboxMirror(enabled=True, limit=2)
    mirror.keep(1, mirror.stamp(1), [item(7)], complete=True)
    with mirror.writing(1) as write:
        write.succeeded([item(9), item(8)], gone=[7])
    assert [r.id for r in mirror.get(1, 100) or []] == [8, 9]
    mirror.keep(2, mirror.stamp(2), [], complete=True)
    mirror.get(1, 100)  # match 1 used last: match 2 is the one to go
    mirror.keep(3, mirror.stamp(3), [], complete=True)
    assert mirror.get(2, 100) is None
    assert mirror.get(1, 100) is not None and mirror.get(3, 100) == []


def test_a_disabled_mirror_knows_nothing() -> None:
    mirror = OutboxMirror(enabled=False)
    mirror.keep(1, mirror.stamp(1), [item(5)], complete=True)
    assert mirror.get(1, 100) is None
