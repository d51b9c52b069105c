"""Reads the store answers from memory (one process): private notices known to be none,
the messages playing a match's roles, users' preferences. Each is read again once this
process writes it, even when a read overlaps the write; with Postgres (another process
may write) every call reads."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from bot.engine import Text
from bot.store import OutboxEntry, Store
from bot.store.backend import Tx
from bot.store.store import _ReadCache
from tests.store.helpers import ai_step, new_live

SECRET = Text(fr="🤫 Vous avez choisi 3.", en="🤫 You chose 3.")


class Reads:
    """Counts the store's reads (each is a hop to the database thread)."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        read: Callable[[], AbstractAsyncContextManager[Tx]] = store._read

        def counted() -> AbstractAsyncContextManager[Tx]:
            self.count += 1
            return read()

        store._read = counted  # type: ignore[method-assign]
        self.alone = not store.shared

    def expect(self, in_memory: int, in_all: int) -> int:
        """Reads expected: ``in_memory`` when answers are kept, else ``in_all``."""
        return in_memory if self.alone else in_all


async def test_seats_without_notices_are_answered_without_a_read_until_one_is_added(
    store: Store,
) -> None:
    match_id, match = await new_live(store)
    reads = Reads(store)
    assert await store.notices(match_id, [0, 1]) == []
    assert await store.notices(match_id, [1]) == []
    assert reads.count == reads.expect(1, 2)
    await store.add_notices(match_id, 0, [(1, SECRET)])
    assert [n.text for n in await store.notices(match_id, [1])] == [SECRET]
    assert await store.notices(match_id, [0]) == []

    async def read_meanwhile() -> None:  # inside the commit, before its notices are written
        assert await store.notices(match_id, [0]) == []

    store._between_statements = read_meanwhile
    choice, _ = ai_step(match)
    await store.commit_decision(match_id, choice, match, notices=[(0, SECRET)])
    assert [n.text for n in await store.notices(match_id, [0])] == [SECRET]


async def test_a_match_s_messages_are_read_once_until_a_role_changes(store: Store) -> None:
    match_id, _ = await new_live(store)
    reads = Reads(store)
    assert await store.messages(match_id) == {}
    await store.set_message(match_id, "round", 10, 555)
    seen = await store.messages(match_id)
    assert seen == {"round": (10, 555)}
    seen["round"] = (0, 0)  # a caller's copy: what is kept does not change
    assert await store.messages(match_id) == {"round": (10, 555)}
    assert reads.count == reads.expect(2, 3)
    await store.add_public(
        match_id, [OutboxEntry(kind="post", channel_id=10, role="end", payload={})]
    )
    (item,) = await store.outbox(match_id)
    await store.outbox_delivered(item, 777, role="end")
    assert await store.messages(match_id) == {"end": (10, 777), "round": (10, 555)}
    await store.clear_message(match_id, "round")
    assert await store.messages(match_id) == {"end": (10, 777)}


async def test_preferences_are_read_once_until_they_change(store: Store) -> None:
    reads = Reads(store)
    assert (await store.user_prefs(7)).dm is False
    first = await store.user_prefs(7)
    first.dm = True  # a caller's copy
    assert (await store.user_prefs(7)).dm is False
    assert reads.count == reads.expect(1, 3)
    await store.set_user_prefs(7, dm=True, locale="fr")
    prefs = await store.user_prefs(7)
    assert (prefs.dm, prefs.locale) == (True, "fr")
    await store.set_user_prefs(7, dm_closed=True)
    assert (await store.user_prefs(7)).dm_closed is True


async def test_a_read_overlapping_a_write_is_not_kept(store: Store) -> None:
    """A read that began before a write and ends after it may hold the old value: it is
    returned, but the next call reads again."""
    match_id, _ = await new_live(store)
    reads = Reads(store)
    stale = store._roles.stamp(match_id)
    await store.set_message(match_id, "round", 10, 1)
    store._roles.keep(match_id, stale, {})  # what that older read would keep: refused
    assert await store.messages(match_id) == {"round": (10, 1)}
    assert reads.count == 1


async def test_a_delivery_giving_a_role_keeps_the_roles_without_a_read(store: Store) -> None:
    """The message a delivered post now plays is known from the delivery itself: the roles
    kept before it stay kept, with that one changed (a new table every round)."""
    match_id, match = await new_live(store)
    await store.set_message(match_id, "round", 10, 555)
    assert await store.messages(match_id) == {"round": (10, 555)}
    choice, _ = ai_step(match)
    table = OutboxEntry(kind="post", channel_id=10, role="table", payload={})
    await store.commit_decision(match_id, choice, match, outbox=[table, table])
    first, second = await store.outbox(match_id)
    reads = Reads(store)
    await store.outbox_delivered(first, 777, role="table")
    assert await store.messages(match_id) == {"round": (10, 555), "table": (10, 777)}
    await store.outbox_delivered(second, 778, role="table")
    assert await store.messages(match_id) == {"round": (10, 555), "table": (10, 778)}
    assert reads.count == reads.expect(0, 2)


def test_a_value_written_through_is_read_again_after_an_overlapping_write() -> None:
    cache: _ReadCache[int, dict[str, int]] = _ReadCache(True)
    cache.keep(1, cache.stamp(1), {"a": 1})
    with cache.writing_through(1, lambda v: v.update(b=2)):
        assert cache.get(1) is None  # while it is written, nothing is answered
    assert cache.get(1) == {"a": 1, "b": 2}
    with cache.writing_through(1, lambda v: v.update(c=3)), cache.writing(1):
        pass  # another write of the same key, begun and ended meanwhile
    assert cache.get(1) is None
    with cache.writing_through(1, lambda v: v.update(d=4)):
        pass  # nothing kept before: nothing to change
    assert cache.get(1) is None
