"""Pacing of a table's public calls (issue 16 item 4), through the harness.

The bot runs as in the other end-to-end tests (manual clock, fake Discord), with the
pacer of :mod:`bot.gm.pacing` switched on over that clock. A busy table (clicks 0.3 s
apart) makes at most 5 channel calls in any 5 seconds and fewer edits than the same
match unpaced, while the channel ends exactly as unpaced (nothing lost, the last state
shown); a calm table's edit goes at once; a 429 Discord still answers after
discord.py's retries is retried by the outbox.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.gm.msg import Msg
from bot.gm.pacing import Pacer
from tests.cogs.driver import Driver
from tests.cogs.test_full_matches import open_and_fill
from tests.harness.fake_discord import FakeMessage

MODE = "mad-arena:ultimate-warrior"
STAMP = re.compile(r"<t:\d+(:\w)?>")
CLICK_GAP = 0.3
"""Seconds between two clicks at the busy table."""


class Recorder:
    """The bot's publisher, noting each channel call with the game master's clock."""

    def __init__(self, inner: Any, clock: Any) -> None:
        self.inner = inner
        self.clock = clock
        self.calls: list[tuple[float, str, int]] = []

    def _note(self, kind: str, channel_id: int) -> None:
        self.calls.append((self.clock.now(), kind, channel_id))

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        self._note("post", channel_id)
        result: int | None = await self.inner.send(channel_id, msg)
        return result

    async def send_once(self, channel_id: int, msg: Msg, nonce: str) -> int | None:
        self._note("post", channel_id)
        result: int | None = await self.inner.send_once(channel_id, msg, nonce)
        return result

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        self._note("edit", channel_id)
        return bool(await self.inner.edit(channel_id, message_id, msg))

    async def retire(self, channel_id: int, message_id: int) -> bool:
        self._note("retire", channel_id)
        return bool(await self.inner.retire(channel_id, message_id))

    async def dm(self, user_id: int, msg: Msg) -> Any:
        return await self.inner.dm(user_id, msg)

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        result: int | None = await self.inner.create_thread(channel_id, name)
        return result

    def most_in_a_window(self, window: float = 5.0) -> int:
        """The most calls one channel got in any ``window`` seconds."""
        most = 0
        for t, _, ch in self.calls:
            most = max(
                most, sum(1 for u, _, c in self.calls if c == ch and t - window + 1e-9 < u <= t)
            )
        return most

    def count(self, kind: str) -> int:
        return sum(1 for _, k, _ in self.calls if k == kind)


async def _never(seconds: float) -> None:
    await asyncio.Event().wait()


def record(d: Driver, *, paced: bool) -> Recorder:
    """From now on: the calls noted, and paced over the driver's clock if ``paced`` (a
    wake then waits for the test's tick, which flushes what is due)."""
    assert d.bot is not None
    gm = d.bot.gm
    rec = Recorder(gm.publisher, d.clock)
    gm.publisher = rec
    if paced:
        gm.pacer = Pacer(d.clock)
        gm.pace_sleep = _never
    return rec


def seen(d: Driver) -> list[tuple[str, list[tuple[str, bytes]]]]:
    """The channel as players see it: each message's content and components (deadline
    stamps aside) and its attachments."""
    out = []
    for m in d.public():
        body = json.dumps([m.content, m.embeds, m.components], sort_keys=True)
        files = [(a["filename"], m.file_bytes(a["filename"])) for a in m.attachments]
        out.append((STAMP.sub("<t:?>", body), files))
    return out


def offers_a_choice(d: Driver) -> bool:
    try:
        d.round_message()
    except AssertionError:
        return False
    return True


async def busy_table(d: Driver, *, paced: bool, decisions: int) -> Recorder:
    """``decisions`` answered by clicks ``CLICK_GAP`` apart (the timer tick standing for
    the wake), then time until the outbox is empty."""
    assert d.bot is not None
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode=MODE)
    rec = record(d, paced=paced)
    rnd = random.Random(7)
    for _ in range(decisions):
        live = await d.live(mid)
        if live is None:
            break
        while not offers_a_choice(d):  # the next table is still held: wait for it
            await d.tick(CLICK_GAP)
        match = live.match
        x = next(x for x in match.pending() if not match.seats[x.seat].ai)
        user = d.user_by_id(match.seats[x.seat].user_id)
        if x.structured:
            await d.answer_draft(user, x, match.ai_choice(x))
        else:
            await d.answer(user, x, rnd.choice(x.options).id)
        await d.tick(CLICK_GAP)
    for _ in range(40):
        if not await d.bot.store.outbox(mid, limit=1):
            break
        await d.tick(0.5)
    assert not await d.bot.store.outbox(mid, limit=1)
    return rec


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.gm.lobby.new_seed", lambda: "pacing-test-seed")


async def test_a_busy_table_stays_within_the_channel_limit_and_loses_nothing(
    tmp_path: Path, fixed_seed: None
) -> None:
    runs: dict[bool, tuple[Recorder, Any, Pacer | None]] = {}
    for paced in (False, True):
        d = Driver(tmp_path / str(paced))
        await d.start()
        try:
            rec = await busy_table(d, paced=paced, decisions=40)
            assert d.bot is not None
            runs[paced] = (rec, seen(d), d.bot.gm.pacer)
            if d.bot is not None:
                d.bot.gm.stop_pacing()
        finally:
            await d.stop()
        d.fake.assert_clean()
    (plain, plain_seen, _), (held, paced_seen, pacer) = runs[False], runs[True]
    assert pacer is not None
    assert plain.most_in_a_window() > 5  # unpaced, this table would trip Discord's limit
    assert held.most_in_a_window() <= 5
    assert held.count("edit") < plain.count("edit")
    assert pacer.stats.merged > 0 and pacer.stats.held > 0
    assert held.count("post") == plain.count("post")  # posts are never merged or dropped
    assert paced_seen == plain_seen  # the same story, each message in its last state


async def test_a_calm_tables_edit_goes_at_once(driver: Driver) -> None:
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode=MODE)
    rec = record(d, paced=True)
    d.clock.advance(30)  # nothing happened for a while
    live = await d.live(mid)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    before = d.round_message().text()
    await d.answer(user, x, x.options[0].id)  # no tick: what the click itself delivered
    assert [k for _, k, _ in rec.calls] == ["edit"]
    assert d.round_message().text() != before
    assert d.bot is not None and d.bot.gm.pacer is not None
    assert d.bot.gm.pacer.stats.held == 0
    d.bot.gm.stop_pacing()


async def test_a_429_left_after_discord_py_retries_is_retried_by_the_outbox(
    driver: Driver,
) -> None:
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode=MODE)
    rec = record(d, paced=True)
    live = await d.live(mid)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    table: FakeMessage = d.round_message()
    edits = len(table.edits)
    before = table.text()
    d.fake.fail_next("PATCH", r"^/channels/\d+/messages/\d+$", 429, retry_after=0.5, times=5)
    await d.answer(user, x, x.options[0].id)
    refused = [c for c in d.fake.calls if c.method == "PATCH" and c.status == 429]
    assert refused and refused[-1].statuses == [429] * 5  # discord.py gave up
    assert d.fake.message(table.id).text() == before  # not shown yet, but kept
    assert d.bot is not None
    assert await d.bot.store.outbox(mid, limit=1)
    await d.tick(1.0)  # backed off: no call yet
    assert rec.count("edit") == 1
    await d.tick(4.0)
    assert rec.count("edit") == 2
    shown = d.fake.message(table.id)
    assert shown.text() != before and len(shown.edits) == edits + 1
    assert not await d.bot.store.outbox(mid, limit=1)
    assert d.bot.gm.pacer is not None and d.bot.gm.pacer.stats.refused == 1
    d.bot.gm.stop_pacing()
