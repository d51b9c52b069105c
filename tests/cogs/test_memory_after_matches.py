"""A finished match leaves nothing of itself in the bot's memory (issue 16 item 5): a bot
that runs for weeks plays thousands of matches, and one kept per match would end it."""

from __future__ import annotations

import gc
import random

from bot.engine import Match
from bot.gm.live import Live
from tests.cogs.driver import Driver
from tests.cogs.test_full_matches import open_and_fill

GAMES = ("mad-arena", "arena", "ultimate-warriorz", "madsteam")


async def test_finished_matches_are_let_go(driver: Driver) -> None:
    d = driver
    for i, game in enumerate(GAMES):
        mid = await open_and_fill(d, game, d.users[:4])
        await d.play_out(mid, random.Random(i))
        assert d.bot is not None
        record = await d.bot.store.get(mid, snapshot=False)
        assert record is not None and record.status == "finished"
    # MAD against its AI, the tie-break never proposed (it could end the match by agreement).
    ann = d.users[0]
    await d.slash(ann, "start", game="mad", ai_level="easy")
    lobby = d.lobby()
    await d.press(ann, lobby, "Add AI")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    mid = int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1])
    await d.play_out(
        mid,
        random.Random(9),
        chooser=lambda m, x: next((o.id for o in x.options if "tie" not in o.id), x.options[0].id),
    )
    assert d.bot is not None
    gm = d.bot.gm
    assert not gm._live  # noqa: SLF001
    assert not gm._ended  # noqa: SLF001  (each log was posted)
    assert not gm._open_prompts  # noqa: SLF001
    assert not gm._dm_later and not gm._must_reload and not gm._must_advance  # noqa: SLF001
    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, (Match, Live))]
    assert alive == [], [type(o).__name__ for o in alive]
