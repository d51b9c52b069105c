"""Public edits through the token of a click on the edited message (issue 16 item 4).

A click on a public message, answered without a new message (deferred, or the message
edited by the answer itself), has that message as its original response: its token may edit it for 15 minutes, and Discord does not count
interaction endpoints in a bot's global rate limit. The bot edits its tables that way
while such a token lives, and through the channel otherwise (none, too old, refused).
"""

from __future__ import annotations

import gc
from typing import Any

from cogs.hooks import Hook
from tests.cogs.driver import Driver
from tests.cogs.test_full_matches import open_and_fill
from tests.harness.fake_discord import Call, FakeInteraction


def _table_edits(d: Driver, table_id: int, since: int) -> list[Call]:
    return [c for c in d.fake.calls[since:] if d.fake.target_of(c) == table_id]


async def _pick(d: Driver) -> tuple[FakeInteraction, int, int]:
    """Someone presses the table's button and picks: (their click on the table, the
    table's id, the index of the first call of the pick)."""
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    table = d.round_message()
    live = await d.live(mid)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    press = await d.press(user, table, "Make your choice")
    return press, table.id, len(d.fake.calls)


async def _choose(d: Driver, press: FakeInteraction) -> None:
    live = await d.live(1)
    x = next(x for x in live.match.pending() if live.match.seats[x.seat].user_id == press.user_id)
    user = d.user_by_id(press.user_id)
    await d.choose_in(user, d.prompt_for(d.replies(press), x), x, x.options[0].id)


async def test_a_pick_edits_the_table_through_the_token_of_the_click_on_it(
    driver: Driver,
) -> None:
    d = driver
    press, table_id, since = await _pick(d)
    before = d.fake.message(table_id).text()
    await _choose(d, press)
    edits = _table_edits(d, table_id, since)
    assert edits and all(c.path.endswith(f"/{press.token}/messages/@original") for c in edits)
    assert all(c.statuses == [200] for c in edits)
    after = d.fake.message(table_id).text()
    assert after != before and "has chosen" in after
    assert d.bot is not None
    pacer: Any = d.bot.gm.pacer
    assert pacer is None or pacer.stats.exempt >= len(edits)


async def test_a_token_near_the_end_of_its_15_minutes_is_not_used(driver: Driver) -> None:
    d = driver
    press, table_id, since = await _pick(d)
    assert d.bot is not None
    publisher: Any = d.bot.gm.publisher
    real = publisher.clock
    publisher.clock = lambda: real() + 14 * 60 + 1  # the bot's view: 14 minutes later
    await _choose(d, press)
    edits = _table_edits(d, table_id, since)
    assert edits and all(c.route_template.startswith("/channels/") for c in edits)
    assert "has chosen" in d.fake.message(table_id).text()


async def test_a_token_discord_refuses_falls_back_to_the_channel(driver: Driver) -> None:
    """The token is dead at Discord (15 minutes passed there: 401 50027): the same edit
    goes through the channel at once, and the table shows the pick."""
    d = driver
    press, table_id, since = await _pick(d)
    press.dispatched_at -= 15 * 60 + 1
    await _choose(d, press)
    edits = _table_edits(d, table_id, since)
    assert [c.route_template.split("/")[1] for c in edits[:2]] == ["webhooks", "channels"]
    assert edits[0].statuses == [401] and edits[1].statuses == [200]
    assert "has chosen" in d.fake.message(table_id).text()
    later = len(d.fake.calls)
    await _choose_next(d, table_id)
    assert all(c.route_template.startswith("/channels/") for c in _table_edits(d, table_id, later))


async def _choose_next(d: Driver, table_id: int) -> None:
    """Another seat picks from its own prompt, opened from the table by someone whose
    click is not remembered: the forgotten token is not tried again."""
    live = await d.live(1)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    assert d.bot is not None
    publisher: Any = d.bot.gm.publisher
    remember = publisher.clicked
    publisher.clicked = lambda interaction: None
    try:
        press = await d.press(user, d.fake.message(table_id), "Make your choice")
    finally:
        publisher.clicked = remember
    await d.choose_in(user, d.prompt_for(d.replies(press), x), x, x.options[0].id)


def test_clicks_are_remembered_only_while_their_token_is_usable() -> None:
    """Memory stays bounded: one click per message (the latest), forgotten once too old
    to use or past the cap; a click on an ephemeral message is never remembered."""
    from types import SimpleNamespace

    from cogs import publisher as P

    now = [0.0]
    pub = P.DiscordPublisher(bot=None, clock=lambda: now[0])  # type: ignore[arg-type]

    def click(message_id: int, ephemeral: bool = False) -> Any:
        flags = SimpleNamespace(ephemeral=ephemeral)
        message = SimpleNamespace(id=message_id, flags=flags)
        return SimpleNamespace(message=message, application_id=9, token=f"token-{message_id}")

    pub.clicked(click(1))
    pub.clicked(click(2, ephemeral=True))
    assert pub.exempt(1) and not pub.exempt(2)
    now[0] = P.TOKEN_LIFE - P.TOKEN_MARGIN - 1
    pub.clicked(click(3))
    assert pub.exempt(1)
    now[0] += 2
    assert not pub.exempt(1) and pub.exempt(3)
    pub.clicked(click(4))
    assert list(pub._handles) == [3, 4]  # the stale click was dropped when 4 came
    for i in range(P.HANDLES_KEPT + 10):
        pub.clicked(click(100 + i))
    assert len(pub._handles) == P.HANDLES_KEPT
    # Only the webhook's two values are kept, not the interaction (issue 16 item 5).
    when, hook = pub._handles[100 + P.HANDLES_KEPT + 9]
    assert hook == Hook(9, f"token-{100 + P.HANDLES_KEPT + 9}") and "token" not in repr(hook)


async def test_a_lightened_click_still_edits_the_table_through_its_token(
    driver: Driver,
) -> None:
    """The load benchmark drops each handled click's JSON from the fake
    (``FakeDiscord.lighten``): its token, its response type and its messages stay."""
    d = driver
    press, table_id, since = await _pick(d)
    kind, ephemeral = press.response_type, press.ephemeral
    d.fake.lighten(press.id)
    assert press.payload == {} or set(press.payload) == {"authorizing_integration_owners"}
    assert all(c.json is None for c in press.calls)
    assert (press.response_type, press.ephemeral) == (kind, ephemeral)
    await _choose(d, press)
    edits = _table_edits(d, table_id, since)
    assert edits and all(c.path.endswith(f"/{press.token}/messages/@original") for c in edits)
    assert "has chosen" in d.fake.message(table_id).text()


def _interactions() -> int:
    import discord

    return sum(1 for o in gc.get_objects() if isinstance(o, discord.Interaction))


async def test_handled_clicks_leave_no_interaction_for_the_collector(driver: Driver) -> None:
    """A handled click's ``Interaction`` is freed by reference counting alone: the bot
    keeps its webhook's two values (:class:`cogs.hooks.Hook`), not the interaction, and
    breaks the cycle discord.py makes with its response (issue 16 item 5: what outlived
    young collections made them the loop's worst stalls)."""
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    gc.collect()
    gc.disable()
    try:
        before = _interactions()
        live = await d.live(mid)
        picks = live.match.pending()
        for x in picks:
            user = d.user_by_id(live.match.seats[x.seat].user_id)
            press = await d.press(user, d.round_message(), "Make your choice")
            await d.choose_in(user, d.prompt_for(d.replies(press), x), x, x.options[0].id)
        after = _interactions()
    finally:
        gc.enable()
    assert len(picks) >= 2 and all(x.kind == "action" for x in live.match.pending())
    assert after == before  # a press and a pick per seat, none left


async def test_handled_commands_leave_no_interaction_for_the_collector(
    driver: Driver,
) -> None:
    d = driver
    await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    gc.collect()
    gc.disable()
    try:
        before = _interactions()
        for sub in ("status", "hand"):
            fi = await d.slash(d.users[0], sub)
            assert fi.acknowledged
        after = _interactions()
    finally:
        gc.enable()
    assert after == before
