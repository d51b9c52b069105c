"""Retired prompts are true (issue 11.8): a private prompt the player still has open is
edited, without buttons, to say what happened once its decision no longer waits for it
(the AI answered at the deadline, the seat went on autopilot, the player answered in
another copy); past the token's life the stale click is answered instead."""

from __future__ import annotations

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
