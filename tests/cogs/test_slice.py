"""A whole test-pick match through interactions: the vertical slice."""

from __future__ import annotations

from tests.cogs.driver import Driver


async def play_pick_round(d: Driver, users: list, option_label: str = "2") -> None:
    for u in users:
        board = d.round_message()
        fi = await d.press(u, board, "Make your choice")
        prompt = d.replies(fi)[-1]
        assert prompt.ephemeral
        await d.press(u, prompt, option_label)


async def test_vertical_slice(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[0], d.users[1]
    fi = await d.slash(ann, "start", game="test-pick")
    assert "Lobby #" in d.reply_text(fi)
    lobby = d.lobby()
    await d.press(bob, lobby, "Join")
    lobby = d.fake.message(lobby.id)
    assert f"<@{bob['id']}>" in lobby.text()
    await d.press(ann, lobby, "Start")
    for _ in range(3):
        await play_pick_round(d, [ann, bob])
    last = d.public()[-1]
    assert "is over" in last.text()
    assert any(a["filename"].endswith(".md") for a in last.attachments)
    d.fake.assert_all_acknowledged_first()
