"""The outbox table (migration 7): public posts stored with the commit that implies them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.engine import Match
from bot.store import OutboxEntry, Store, StoreConflict
from tests.store.helpers import FIXTURE, migrate_sqlite, new_live


def entry(text: str, kind: str = "post", role: str | None = None) -> OutboxEntry:
    return OutboxEntry(kind=kind, channel_id=10, role=role, payload={"text": text})  # type: ignore[arg-type]


def ai_step(match: Match) -> None:
    d = match.pending()[0]
    match.apply(match.ai_choice(d))


async def commit_step(store: Store, outbox: list[OutboxEntry], **extra: Any) -> int:
    """A new live match, one AI step committed with ``outbox``; the match id."""
    mid, match = await new_live(store)
    ai_step(match)
    await store.commit_decision(mid, match.choices[-1], match, outbox=outbox, **extra)
    return mid


async def test_posts_are_written_with_the_decision_and_kept_in_order(store: Store) -> None:
    mid = await commit_step(
        store,
        [entry("step"), entry("board", role="round")],
        public_state={"batch": []},
        deadlines=[("k", 0, 50.0, 25.0)],
    )
    items = await store.outbox(mid)
    assert [i.payload["text"] for i in items] == ["step", "board"]
    assert [i.version for i in items] == [1, 1]
    assert await store.public_state(mid) == {"batch": []}
    assert [d.key for d in await store.deadlines(mid)] == ["k"]
    assert await store.outbox_matches() == [mid]


async def test_posts_without_a_decision_take_the_stored_version_in_one_transaction(
    store: Store,
) -> None:
    """``add_public`` numbers its rows with the match's stored version, read by the insert
    itself: one batch (one hop), and nothing written for a match that does not exist."""
    mid, match = await new_live(store)
    ai_step(match)
    await store.commit_decision(mid, match.choices[-1], match)
    writes = store.backend.writes
    await store.add_public(
        mid,
        [entry("lobby", role="lobby"), entry('näme ✓ "quoted"\n')],
        public_state={"batch": ["x"]},
        deadlines=[("k", 1, 60.0, 30.0)],
    )
    assert store.backend.writes == writes + 1
    items = await store.outbox(mid)
    assert [(i.version, i.kind, i.role, i.channel_id) for i in items] == [
        (1, "post", "lobby", 10),
        (1, "post", None, 10),
    ]
    assert items[1].payload == {"text": 'näme ✓ "quoted"\n'}
    assert await store.public_state(mid) == {"batch": ["x"]}
    assert [(d.key, d.seat) for d in await store.deadlines(mid)] == [("k", 1)]
    with pytest.raises(KeyError):
        await store.add_public(mid + 100, [entry("ghost")], public_state={"batch": []})
    assert await store.outbox(mid + 100) == []


async def test_a_refused_decision_writes_none_of_its_posts(store: Store) -> None:
    """Same transaction: a conflicting commit leaves no post behind it."""
    mid, match = await new_live(store)
    ai_step(match)
    ai_step(match)  # version 2 while the store is at 0: refused
    with pytest.raises(StoreConflict):
        await store.commit_decision(mid, match.choices[-1], match, outbox=[entry("ghost")])
    assert await store.outbox(mid) == []
    assert await store.public_state(mid) is None


async def test_delivery_marks_the_row_and_gives_the_message_its_role(store: Store) -> None:
    mid, _ = await new_live(store)
    await store.add_public(mid, [entry("board", role="round"), entry("next")])
    first, second = await store.outbox(mid)
    await store.outbox_delivered(first, 555, role="round")
    assert await store.messages(mid) == {"round": (10, 555)}
    assert [i.id for i in await store.outbox(mid)] == [second.id]
    assert await store.outbox_failed(second.id) == 1
    assert (await store.outbox(mid))[0].attempts == 1


async def test_due_deadlines_reads_only_what_is_due(store: Store) -> None:
    mid, _ = await new_live(store)
    await store.set_deadline(mid, "late", 0, 100.0, 50.0)
    await store.set_deadline(mid, "remind", 0, 300.0, 90.0)
    await store.set_deadline(mid, "later", 0, 900.0, 450.0)
    assert [d.key for d in await store.due_deadlines(40.0)] == []
    assert [d.key for d in await store.due_deadlines(60.0)] == ["late"]  # its reminder
    await store.mark_reminded(mid, "late")
    assert [d.key for d in await store.due_deadlines(95.0)] == ["remind"]
    await store.mark_reminded(mid, "remind")
    assert [d.key for d in await store.due_deadlines(100.0)] == ["late"]  # now its deadline


async def test_a_version_6_database_gets_the_outbox(sqlite_path: Path) -> None:
    sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    assert await migrate_sqlite(sqlite_path, 6) == 6
    async with aiosqlite.connect(sqlite_path, isolation_level=None) as db:
        await db.execute(
            "INSERT INTO matches (id, guild_id, channel_id, host_id, game, mode, options, status, "
            "locale, created_at, updated_at) "
            "VALUES (1, 5, 6, 7, ?, 'default', '{}', 'lobby', 'fr', 1.0, 1.0)",
            (FIXTURE,),
        )
    store = await Store.open(sqlite_path)
    try:
        rec = await store.get(1)
        assert rec is not None and rec.status == "lobby"
        assert await store.public_state(1) is None
        await store.add_public(1, [entry("lobby", role="lobby")])
        assert [i.role for i in await store.outbox(1)] == ["lobby"]
    finally:
        await store.close()


TRICKY = 'a\x00b\x1f"\\/é🎲\u2028\u2029\t\n'


async def test_a_payload_comes_back_as_it_was_written(store: Store) -> None:
    """Payloads are written and read with orjson (quicker on tens of kB of base64):
    what comes back equals what went in, odd characters and 64-bit ids included."""
    from bot.gm.msg import Attachment, Button, Msg
    from bot.gm.publisher import msg_to_json

    msg = Msg(
        content=TRICKY,
        rows=[[Button("🎲 " + TRICKY, "cid", emoji="🎲")]],
        files=[Attachment("board.png", bytes(range(256)) * 40)],
        mentions=[1234567890123456789, 2**63 - 1],
    )
    payload = {"msg": msg_to_json(msg), "create": False}
    mid = await commit_step(
        store, [OutboxEntry(kind="edit", channel_id=10, role="round", payload=payload)]
    )
    (item,) = await store.outbox(mid)
    assert item.payload == payload


def test_payloads_are_stored_as_the_former_encoder_wrote_them() -> None:
    """The stored text did not change with the encoder (rows written before read alike)."""
    from bot.store.store import _dumps, _payload_json

    payload = {
        "msg": {"content": TRICKY, "mentions": [1234567890123456789], "files": []},
        "create": False,
        "retire": True,
        "log": "fr",
    }
    assert _payload_json(payload) == _dumps(payload)
