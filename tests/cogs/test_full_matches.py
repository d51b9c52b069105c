"""Whole matches of the real games through interactions only (issue 6 item 11)."""

from __future__ import annotations

import random

from bot.engine.log import markdown_log
from bot.engine.text import lang_of
from tests.cogs.driver import Driver


async def open_and_fill(d: Driver, game: str, users: list, **start: object) -> int:
    host = users[0]
    fi = await d.slash(host, "start", game=game, **start)
    assert "Lobby #" in d.reply_text(fi)
    lobby = d.lobby()
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(host, d.fake.message(lobby.id), "Start")
    return int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1])


async def assert_finished(d: Driver, mid: int, *, dice: bool = True) -> None:
    """The podium last (fairness data only for a game with dice, the log, Rematch), after
    the last round's summary, which shows the final image (once). The log is the one the
    replay of the stored decisions writes, to the byte (a match that ended in this process
    writes it from memory: issue 16)."""
    *_, story, end = d.public()
    assert "is over" in end.text()
    assert ("Seed: `" in end.text()) is dice
    names = [a["filename"] for a in end.attachments]
    assert f"match{mid}-log.md" in names
    assert not any(n.endswith(".png") for n in names)
    log = end.file_bytes(f"match{mid}-log.md").decode()
    assert "Seed: `" in log and "arena-master-log" in log
    assert d.bot is not None
    replayed = await d.bot.store.replay_match(mid)
    assert log == markdown_log(replayed, lang_of(d.guild_locale))
    assert d.fake.find_button(end, label="Rematch")
    assert f"match{mid}-board.png" in [a["filename"] for a in story.attachments]
    assert not d.fake.components(story)  # a summary offers nothing


async def test_mad_arena_ultimate_warrior_with_four_users(driver: Driver) -> None:
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    # Every private prompt names the fighter it is for.
    live = await d.live(mid)
    first = live.match.pending()
    assert first and all(x.subject for x in first)
    mine = first[0]
    player = d.user_by_id(live.match.seats[mine.seat].user_id)
    board = d.round_message()
    fi = await d.press(player, board, "Make your choice")
    prompt = d.replies(fi)[-1]
    assert prompt.ephemeral and f"**{mine.subject}**" in prompt.content
    # The card buttons show the card values.
    labels = [c.get("label") or "" for c in d.fake.components(prompt)]
    assert all("·" in lab for lab in labels), labels
    # The pick is confirmed privately (the game's private event), never in public.
    card = mine.options[0]
    await d.choose_in(player, prompt, mine, card.id)
    confirmation = d.fake.message(prompt.id).text()
    assert "✅" in confirmation and "🤫" in confirmation
    assert not any("🤫" in m.text() for m in d.public())
    n = await d.play_out(mid, random.Random(4))
    assert n > 8
    assert not any("🤫" in m.text() for m in d.public())
    await assert_finished(d, mid)
    d.fake.assert_all_acknowledged_first()


async def test_mad_arena_team_mode_one_user_several_fighters(driver: Driver) -> None:
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:2], mode="mad-arena:team-spirit")
    live = await d.live(mid)
    ann_seat = next(i for i, s in enumerate(live.match.seats) if s.user_id == d.uid(d.users[0]))
    mine = live.match.pending_for(ann_seat)
    assert len(mine) == 3
    fi = await d.press(d.users[0], d.round_message(), "Make your choice")
    texts = [m.content for m in d.replies(fi)]
    for x in mine:
        assert any(f"**{x.subject}**" in t for t in texts), (x.subject, texts)
    await d.play_out(mid, random.Random(5))
    await assert_finished(d, mid)


async def test_arena_with_four_users(driver: Driver) -> None:
    d = driver
    mid = await open_and_fill(d, "arena", d.users[:4])
    await d.play_out(mid, random.Random(6))
    await assert_finished(d, mid)


async def test_mad_human_against_easy_ai(driver: Driver) -> None:
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad", ai_level="easy")
    lobby = d.lobby()
    await d.press(ann, lobby, "Add AI")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    avoid_tiebreak = lambda m, x: next(  # noqa: E731
        (
            o.id
            for o in random.Random(m.version).sample(x.options, len(x.options))
            if "tie" not in o.id
        ),
        x.options[0].id,
    )
    n = await d.play_out(1, random.Random(1), chooser=avoid_tiebreak)
    assert n > 0
    await assert_finished(d, 1, dice=False)
    d.fake.assert_all_acknowledged_first()


async def test_mad_two_humans_with_a_typed_move(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[0], d.users[1]
    mid = await open_and_fill(d, "mad", [ann, bob])
    live = await d.live(mid)
    x = live.match.pending()[0]
    mover = d.user_by_id(live.match.seats[x.seat].user_id)
    other = bob if mover is ann else ann
    [thread] = d.fake.threads(d.channel_id)  # the match is played in its own thread
    fi = await d.slash(d.spectator, "status", channel=thread)
    [status] = d.replies(fi)
    assert status.ephemeral and "waiting for" in status.text()
    assert status.attachments and status.attachments[0]["filename"].endswith(".png")
    typed = next(o.id for o in x.options if o.id != "pass")
    refused = await d.slash(other, "play", text=typed)
    assert "Nothing is awaited from you" in d.reply_text(refused)
    fi = await d.slash(mover, "play", text=typed)
    assert "✅" in d.reply_text(fi)
    assert (await d.live(mid)).match.version == 1
    await d.play_out(mid, random.Random(2))
    await assert_finished(d, mid, dice=False)


async def test_mad_two_humans_survive_a_restart_mid_match(driver: Driver) -> None:
    """Issue 4 item 7: a whole MAD match through interactions, the bot restarted in the middle."""
    d = driver
    ann, bob = d.users[0], d.users[1]
    mid = await open_and_fill(d, "mad", [ann, bob])
    rnd = random.Random(7)

    def no_tiebreak(match: object, x: object) -> str:
        options = [o.id for o in x.options if o.id not in ("draw", "accept")]  # type: ignore[attr-defined]
        return rnd.choice(options or [o.id for o in x.options])  # type: ignore[attr-defined]

    for _ in range(6):
        live = await d.live(mid)
        x = live.match.pending()[0]
        await d.answer(d.user_by_id(live.match.seats[x.seat].user_id), x, no_tiebreak(None, x))
    before = (await d.live(mid)).match.snapshot()
    board = d.round_message()
    await d.restart()
    # The same SQLite file gives back exactly the same match...
    live = await d.live(mid)
    assert live.match.snapshot() == before
    # ...and the board posted before the restart still opens the right private prompt.
    x = live.match.pending()[0]
    mover = d.user_by_id(live.match.seats[x.seat].user_id)
    fi = await d.press(mover, board, "Make your choice")
    prompt = d.prompt_for(d.replies(fi), x)
    await d.choose_in(mover, prompt, x, no_tiebreak(None, x))
    assert (await d.live(mid)).match.version == before["version"] + 1
    await d.play_out(mid, rnd, chooser=no_tiebreak)
    await assert_finished(d, mid, dice=False)
    # The stored decision log replays to the stored snapshot.
    assert d.bot is not None
    replayed = await d.bot.store.replay_match(mid)
    record = await d.bot.store.get(mid)
    assert record is not None and replayed.snapshot() == record.snapshot
    d.fake.assert_all_acknowledged_first()
