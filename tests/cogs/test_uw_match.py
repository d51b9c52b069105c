"""A whole Ultimate Warriorz match through Discord interactions (issue 12 item 10): one lucky
charm question answered, one left to expire (then "no": the charm is kept, and the public
never hears of the question).

The match seed is fixed (the dice, hence which charm questions come, would otherwise vary
from run to run), and the answered charm is looked for in public once its roll is resolved:
a roll's rolls are resolved together, so the charm's effect may be posted with the end of
the attacker's action, not at once."""

from __future__ import annotations

import os
import random

import pytest

from bot.games.ultimate_warriorz.cards import NAMES
from tests.cogs.driver import Driver

SEED = os.environ.get("UW_MATCH_SEED", "uw-match-charm-1")


async def test_ultimate_warriorz_tribal_rumble_with_a_charm_answered_and_one_expired(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.gm.lobby.new_seed", lambda: SEED)
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
    charm_user: str | None = None
    public_at_answer = 0
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
            charm_user = dec.args.fighter
            public_at_answer = len(d.public())
            await d.answer(user, dec, "flip-0")
            answered += 1
            continue
        if dec.kind == "charm" and expired == 0:
            fighter = dec.args.fighter
            line = f"{NAMES.get(fighter, fighter)} uses its lucky charm"
            used_before = sum(m.text().count(line) for m in d.public())
            await d.tick(31)
            live = await d.live(mid)
            assert live is None or live.match.decision(dec.key) is None
            if live is not None:
                assert live.match.state.fighter(fighter).charm  # expired: "no", charm kept
            # Declined by the deadline: the table and the summaries never say it was used.
            assert sum(m.text().count(line) for m in d.public()) == used_before
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
    assert charm_user is not None
    # The round's summary keeps its complete log: the answered charm is told there.
    after = [m.text() for m in d.public()[max(public_at_answer - 1, 0) :]]
    who = NAMES.get(charm_user, charm_user)
    assert any(f"{who} uses its lucky charm" in t for t in after), "the answered charm stays hidden"
    end = d.public()[-1]
    assert "is over" in end.text()
    d.fake.assert_all_acknowledged_first()
