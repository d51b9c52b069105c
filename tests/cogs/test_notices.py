"""Private events not yet shown to their player survive a restart (store notices)."""

from __future__ import annotations

from tests.cogs.driver import Driver


async def test_a_secret_pick_made_at_the_deadline_is_shown_after_a_restart(
    driver: Driver,
) -> None:
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad-arena", mode="mad-arena:ultimate-warrior")
    lobby = d.lobby()
    for u in d.users[1:4]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    # Nobody picks: at the deadline the AI picks each card; the 🤫 confirmations are
    # private, and nobody has DMs, so they wait in the store.
    await d.tick(301)
    assert not any("🤫" in m.text() for m in d.public()), "a secret reached the channel"
    waiting = await d.bot.store.notices(1)
    assert waiting and all(n.text.en.startswith("🤫 You chose") for n in waiting)
    await d.restart()
    seats = (await d.live(1)).match.seats
    with_notice = sorted({n.seat for n in waiting})
    first = d.user_by_id(seats[with_notice[0]].user_id)
    first_seats = {i for i, s in enumerate(seats) if s.user_id == d.uid(first)}
    fi = await d.slash(first, "hand")
    shown = d.reply_text(fi)
    mine = [n for n in waiting if n.seat in first_seats]
    assert mine and all(n.text.en in shown for n in mine)
    others = [n for n in waiting if n.seat not in first_seats]
    assert not any(n.text.en in shown for n in others), "only my own secrets"
    assert all(r.ephemeral for r in d.replies(fi))
    # Handed over once: the next /arena hand does not repeat them.
    fi = await d.slash(first, "hand", locale="fr")
    assert "🤫" not in d.reply_text(fi)
    # Another player sees theirs, in French.
    if others:
        second = d.user_by_id(seats[others[0].seat].user_id)
        fi = await d.slash(second, "hand", locale="fr")
        assert others[0].text.fr in d.reply_text(fi)
        assert "🤫 Vous avez choisi" in others[0].text.fr
