"""Private notices (schema version 5): stored with their decision, handed over once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Text
from bot.store import Store, StoreConflict
from tests.store.helpers import ai_step, migrate_sqlite, new_live

SECRET = Text(fr="🤫 Vous avez choisi 3.", en="🤫 You chose 3.")


async def test_notices_commit_with_their_decision_and_are_delivered_once(
    db_path: Path, store: Store
) -> None:
    match_id, match = await new_live(store)
    choice, _ = ai_step(match)
    await store.commit_decision(match_id, choice, match, notices=[(0, SECRET), (1, SECRET)])
    await store.add_notices(match_id, match.version, [(1, Text(fr="b", en="b"))])
    await store.close()
    store = await Store.open(db_path)  # a restart keeps them
    try:
        mine = await store.notices(match_id, [0])
        assert [(n.seat, n.version, n.text, n.delivered) for n in mine] == [
            (0, match.version, SECRET, False)
        ]
        assert [n.text.en for n in await store.notices(match_id, [1])] == ["🤫 You chose 3.", "b"]
        assert await store.notices(match_id, []) == []
        await store.mark_notices_delivered(n.id for n in mine)
        assert await store.notices(match_id, [0]) == []
        assert len(await store.notices(match_id, undelivered=False)) == 3
        assert len(await store.notices(match_id)) == 2
    finally:
        await store.close()


async def test_a_refused_commit_stores_no_notice(store: Store) -> None:
    match_id, match = await new_live(store)
    choice, _ = ai_step(match)
    await store.commit_decision(match_id, choice, match)
    with pytest.raises(StoreConflict):
        await store.commit_decision(match_id, choice, match, notices=[(0, SECRET)])
    assert await store.notices(match_id) == []


async def test_version_4_database_gains_the_notices_table(sqlite_path: Path) -> None:
    sqlite_path.parent.mkdir(parents=True)
    assert await migrate_sqlite(sqlite_path, 4) == 4
    store = await Store.open(sqlite_path)
    try:
        match_id, match = await new_live(store)
        await store.add_notices(match_id, 0, [(0, SECRET)])
        assert [n.text for n in await store.notices(match_id)] == [SECRET]
    finally:
        await store.close()
