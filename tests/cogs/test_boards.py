"""A new round's table supersedes the previous one, which becomes its round's summary."""

from __future__ import annotations

import pytest

from bot.engine.registry import get_game
from tests.cogs.driver import Driver
from tests.cogs.test_flow import lobby_with, open_prompt


@pytest.fixture(autouse=True)
def rounds_that_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fixture game labels every round 0; here each pick round is its own round."""
    monkeypatch.setattr(type(get_game("test-pick")), "round_label", lambda self, s: s.round)


async def play_round(d: Driver, picks: list[tuple[dict, str]]) -> None:
    for user, label in picks:
        prompt = await open_prompt(d, user)
        await d.press(user, prompt, label)


async def test_superseded_table_becomes_a_summary_and_a_deleted_one_is_ignored(
    driver: Driver,
) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    table1 = d.round_message()
    await play_round(d, [(ann, "2"), (bob, "1")])
    table2 = d.round_message()
    assert table2.id != table1.id
    old = d.fake.message(table1.id)
    assert d.fake.components(old) == [], "the summary offers no button"
    assert "round 1" in old.text() and "waiting" not in old.text(), old.text()
    assert d.fake.find_button(table2, label="Make your choice")
    # Someone deleted the round-2 table: its summary edit answers 404 10008, which is fine
    # (through a click's token or the channel, whichever the bot uses).
    await play_round(d, [(ann, "3")])
    d.fake.fail_next("PATCH", "", 404, code=10008, target=table2.id)
    await play_round(d, [(bob, "2")])
    table3 = d.round_message()
    assert table3.id not in (table1.id, table2.id)
    assert (await d.live(1)).match.version == 4
    edits = [c for c in d.fake.calls if d.fake.target_of(c) == table2.id]
    assert edits[-1].statuses == [404]


async def test_a_rate_limited_summary_waits_and_nothing_overtakes_it(driver: Driver) -> None:
    """Discord too busy for the summary edit (429 after discord.py's retries): it stays in
    the outbox, the next table waits behind it, and the timer tick delivers both."""
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    table1 = d.round_message()
    await play_round(d, [(ann, "2")])
    d.fake.fail_next("PATCH", "", 429, retry_after=1.0, times=5, target=table1.id)
    await play_round(d, [(bob, "1")])
    assert d.round_message().id == table1.id  # still the live table, its button working
    assert (await d.live(1)).match.version == 2
    fi = await d.press(ann, d.fake.message(table1.id), "Make your choice")
    assert all(r.ephemeral for r in d.replies(fi)) and d.fake.components(d.replies(fi)[-1])
    await d.tick(5)
    table2 = d.round_message()
    assert table2.id != table1.id
    assert d.fake.components(d.fake.message(table1.id)) == []
