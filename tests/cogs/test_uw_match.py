"""A whole Ultimate Warriorz match through Discord interactions (issue 12 item 10): one lucky
charm question answered, one left to expire (then "no": the charm is kept, and the public
never hears of the question)."""

from __future__ import annotations

import random

from tests.cogs.driver import Driver


async def test_ultimate_warriorz_tribal_rumble_with_a_charm_answered_and_one_expired(
    driver: Driver,
) -> None:
    d = driver
    users = d.users[:3]
    fi = await d.slash(
        users[0], "start", game="ultimate-warriorz", mode="ultimate-warriorz:tribal-rumble"
    )
    assert "Lobby #" in d.reply_text(fi)
    lobby = d.lobby()
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(users[0], d.fake.message(lobby.id), "Start")
    mid = int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1])
    rnd = random.Random(12)
    answered = expired = 0
    for _ in range(3000):
        live = await d.live(mid)
        if live is None:
            break
        match = live.match
        humans = [x for x in match.pending() if not match.seats[x.seat].ai]
        assert humans, "a live match must wait for a human"
        dec = humans[0]
        user = d.user_by_id(match.seats[dec.seat].user_id)
        if dec.kind == "charm" and answered == 0:
            await d.answer(user, dec, "flip-0")
            answered += 1
            assert any("lucky charm" in m.text() for m in d.public())
            continue
        if dec.kind == "charm" and expired == 0:
            fighter = dec.args.fighter  # type: ignore[union-attr]
            public_before = len(d.public())
            await d.tick(31)
            live = await d.live(mid)
            assert live is None or live.match.decision(dec.key) is None
            if live is not None:
                assert live.match.state.fighter(fighter).charm  # expired: "no", charm kept
            assert not any("charm" in m.text().lower() for m in d.public()[public_before:])
            expired += 1
            continue
        if dec.structured:
            await d.answer_draft(user, dec, match.ai_choice(dec))
            continue
        option = "no" if dec.kind == "charm" else rnd.choice(dec.options).id
        await d.answer(user, dec, option)
    else:
        raise AssertionError("the match did not end")
    assert answered == 1 and expired == 1
    end = d.public()[-1]
    assert "is over" in end.text()
    d.fake.assert_all_acknowledged_first()
