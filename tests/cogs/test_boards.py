"""A new round board retires the previous one's "Make your choice" button."""

from __future__ import annotations

import logging

import pytest

from tests.cogs.driver import Driver
from tests.cogs.test_flow import lobby_with, open_prompt


async def play_round(d: Driver, picks: list[tuple[dict, str]]) -> None:
    for user, label in picks:
        prompt = await open_prompt(d, user)
        await d.press(user, prompt, label)


async def test_superseded_board_loses_its_button_and_a_deleted_one_is_ignored(
    driver: Driver,
) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    board1 = d.round_message()
    await play_round(d, [(ann, "2"), (bob, "1")])
    board2 = d.round_message()
    assert board2.id != board1.id
    old = d.fake.message(board1.id)
    assert d.fake.components(old) == [], "the superseded board offers no button"
    assert old.embeds, "its text and image stay"
    # Only the components are sent: the board's text and image are not touched.
    [retire] = [
        c
        for c in d.fake.calls_to("PATCH", rf"/messages/{board1.id}$")
        if c.json.get("components") == [] and "embeds" not in c.json
    ]
    assert retire.statuses == [200]
    assert d.fake.find_button(board2, label="Make your choice")
    # Someone deleted the round-2 board: retiring it answers 404 10008, which is fine.
    await play_round(d, [(ann, "3")])
    d.fake.fail_next("PATCH", rf"^/channels/\d+/messages/{board2.id}$", 404, code=10008)
    await play_round(d, [(bob, "2")])
    board3 = d.round_message()
    assert board3.id not in (board1.id, board2.id)
    assert (await d.live(1)).match.version == 4
    assert [c.statuses for c in d.fake.calls_to("PATCH", rf"/messages/{board2.id}$")][-1] == [404]


async def test_rate_limited_retirement_is_logged_not_raised(
    driver: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    board1 = d.round_message()
    await play_round(d, [(ann, "2")])
    # Every attempt answers 429: discord.py retries, then gives up with HTTPException.
    d.fake.fail_next(
        "PATCH", rf"^/channels/\d+/messages/{board1.id}$", 429, retry_after=1.0, times=5
    )
    with caplog.at_level(logging.WARNING, logger="cogs.publisher"):
        await play_round(d, [(bob, "1")])
    assert any("could not retire" in r.getMessage() for r in caplog.records)
    board2 = d.round_message()
    assert board2.id != board1.id and (await d.live(1)).match.version == 2
    # The old button stayed, and a click on it still gets a fresh prompt privately.
    fi = await d.press(ann, d.fake.message(board1.id), "Make your choice")
    assert all(r.ephemeral for r in d.replies(fi)) and d.fake.components(d.replies(fi)[-1])
