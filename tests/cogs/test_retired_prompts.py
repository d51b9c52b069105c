"""Retired prompts are true (issue 11.8): a private prompt the player still has open is
edited, without buttons, to say what happened once its decision no longer waits for it
(the AI answered at the deadline, the seat went on autopilot, the player answered in
another copy); past the token's life the stale click is answered instead."""

from __future__ import annotations

from dataclasses import replace

from bot.gm.play import FORGET_EVERY
from bot.gm.retired import EDIT_WINDOW
from bot.i18n import t
from tests.cogs.driver import Driver
from tests.cogs.test_flow import lobby_with, open_prompt


def closed(why: str) -> str:
    return t("en", "watch.retired", why=why)


async def test_the_ai_answer_at_the_deadline_closes_the_open_prompt(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    prompt = await open_prompt(d, ann)
    await d.press(bob, await open_prompt(d, bob), "2")
    assert d.fake.components(d.fake.message(prompt.id)), "still Ann's to answer"
    await d.tick(301)
    live = await d.live(1)
    assert live.match.version == 2, "the AI answered for Ann"
    shown = d.fake.message(prompt.id)
    assert shown.text() == closed(t("en", "watch.by_ai", who="Ann"))
    assert d.fake.components(shown) == [] and shown.attachments == []
    # The new round's prompt is Ann's again: opened, then left open while Bob answers.
    prompt = await open_prompt(d, ann)
    await d.press(bob, await open_prompt(d, bob), "1")
    assert d.fake.components(d.fake.message(prompt.id)), "nothing happened to Ann's seat"


async def test_a_copy_answered_elsewhere_and_autopilot(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    first = await open_prompt(d, ann)
    second = await open_prompt(d, ann)
    await d.press(ann, second, "3")
    answered = d.fake.message(second.id).text()
    assert "closed" not in answered, "the clicked copy shows its own answer"
    assert d.fake.message(first.id).text() == closed(t("en", "watch.answered"))
    assert d.fake.components(d.fake.message(first.id)) == []
    # Bob's open prompt, then Bob hands his seat to the AI: the prompt says so.
    prompt = await open_prompt(d, bob)
    await d.slash(bob, "autopilot", on=True, channel=d.fake.channels[prompt.channel_id])
    assert d.fake.message(prompt.id).text() == closed(t("en", "watch.by_autopilot", who="Bob"))
    # A French reader's prompt is closed in French.
    live = await d.live(1)
    if not live.match.over:
        fr = await open_prompt(d, ann, locale="fr")
        await d.tick(301)
        text = d.fake.message(fr.id).text()
        assert text.startswith("Ce choix est clos"), text


async def test_an_expired_token_leaves_the_stale_click_answer(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    fi = await d.press(ann, d.round_message(), "Make your choice")
    prompt = d.replies(fi)[-1]
    d.fake.expire_interaction(fi.id)
    await d.press(bob, await open_prompt(d, bob), "2")
    await d.tick(301)
    assert (await d.live(1)).match.version == 2
    assert d.fake.components(d.fake.message(prompt.id)), "the edit was refused: unchanged"
    fi = await d.press(ann, d.fake.message(prompt.id), "3")
    assert t("en", "err.stale") in d.reply_text(fi)
    assert (await d.live(1)).match.version == 2, "the stale click chose nothing"


async def test_prompts_past_their_edit_window_are_swept_once_a_minute(driver: Driver) -> None:
    """Prompts of a match that never moves again are forgotten once no longer editable;
    the sweep over every open prompt runs at most once per ``FORGET_EVERY``."""
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    await d.press(ann, d.round_message(), "Make your choice")
    assert d.bot is not None
    gm = d.bot.gm
    (shown,) = gm._open_prompts[1].values()
    late = shown.shown_at + EDIT_WINDOW + 1
    gm._forget_old_prompts(late)
    assert 1 not in gm._open_prompts
    gm._open_prompts[1] = {99: replace(shown, shown_at=late - EDIT_WINDOW - 1)}
    gm._forget_old_prompts(late + FORGET_EVERY / 2)  # swept a moment ago: not again
    assert 99 in gm._open_prompts[1]
    gm._forget_old_prompts(late + FORGET_EVERY)
    assert 1 not in gm._open_prompts
