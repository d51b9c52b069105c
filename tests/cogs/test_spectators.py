"""Spectators (issue 11.8): someone without a seat who presses a seat's button, asks for
their hand or types a move is told, privately, that they are watching and how to join
the next match; never "this is not your seat" as if they had one. A player pressing
another seat's button keeps that answer."""

from __future__ import annotations

from bot.i18n import t
from tests.cogs.driver import Driver
from tests.cogs.test_flow import lobby_with, open_prompt


async def test_a_spectator_is_told_they_are_watching(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    board = d.round_message()
    tid = board.channel_id
    for locale, lang in (("en-US", "en"), ("fr", "fr")):
        fi = await d.press(d.spectator, d.fake.message(board.id), "Make your choice", locale=locale)
        [reply] = d.replies(fi)
        assert reply.ephemeral and reply.ephemeral_for == d.uid(d.spectator)
        assert reply.text() == t(lang, "watch.spectator")
        assert d.fake.components(reply) == [], "no button a spectator cannot use"
    assert "Rematch" in t("en", "watch.spectator") and "Revanche" in t("fr", "watch.spectator")
    # /arena hand and /arena play typed where the match is played: the same answer.
    fi = await d.slash(d.spectator, "hand", channel=d.fake.channels[tid])
    assert d.reply_text(fi) == t("en", "watch.spectator")
    fi = await d.slash(d.spectator, "play", channel=d.fake.channels[tid], text="2")
    assert d.reply_text(fi) == t("en", "watch.spectator")
    # A copy of Ann's private prompt clicked by the spectator, then by Bob (a player).
    prompt = await open_prompt(d, ann)
    pick = d.fake.find_button(prompt, label="3")["custom_id"]
    fi = await d.click(d.spectator, prompt, pick)
    assert d.reply_text(fi) == t("en", "watch.spectator")
    fi = await d.click(bob, prompt, pick)
    assert t("en", "err.not_your_seat") in d.reply_text(fi)
    assert (await d.live(1)).match.version == 0, "nothing was chosen"
