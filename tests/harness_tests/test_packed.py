"""The fake Discord without history keeps messages and handled clicks packed.

The load benchmark (``bench/bench_load.py``) runs the fake in the bot's own process: what
the fake keeps is scanned by the bot's garbage collector, a cost the bot does not have
against the real Discord. Packed, a message or a past click is one tracked object, and
the harness reads and answers exactly as before.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest

from cogs.hooks import Hook
from tests.cogs.driver import Driver
from tests.cogs.test_full_matches import assert_finished, open_and_fill
from tests.cogs.test_token_edits import _choose, _pick
from tests.harness.fake_discord import FakeMessage, PackedInteraction, PackedMessage, kept_json


@pytest.fixture
async def light(tmp_path: Path) -> AsyncIterator[Driver]:
    d = Driver(tmp_path)
    d.fake.keep_history = False
    async with d.running():
        yield d


def _tracked_inside(obj: object) -> list[object]:
    """Tracked objects ``obj`` holds, itself and its ``__dict__`` apart (a tuple of plain
    values counts as plain: the next collection untracks it)."""
    inner = [r for r in gc.get_referents(obj) if r is not getattr(obj, "__dict__", None)]
    inner += gc.get_referents(obj.__dict__)
    return [
        r
        for r in inner
        if gc.is_tracked(r)
        and not isinstance(r, type)
        and not (isinstance(r, tuple) and not any(gc.is_tracked(x) for x in r))
    ]


async def test_a_whole_match_plays_with_packed_messages_and_clicks(light: Driver) -> None:
    d = light
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    assert await d.play_out(mid, random.Random(3)) > 8
    await assert_finished(d, mid)
    messages = list(d.fake.messages.values())
    assert messages and all(type(m) is PackedMessage for m in messages)
    assert not [m for m in messages if _tracked_inside(m)]
    for fi in list(d.fake.interactions.values()):
        kind, ephemeral, original = fi.response_type, fi.ephemeral, fi.original_message_id
        followups = fi.followup_ids
        d.fake.lighten(fi.id)
        assert type(fi) is PackedInteraction and d.fake.interaction_of_token(fi.token) is fi
        assert (fi.response_type, fi.ephemeral, fi.original_message_id) == (
            kind,
            ephemeral,
            original,
        )
        assert fi.followup_ids == followups and fi.calls == []
        assert not _tracked_inside(fi)


async def test_a_packed_message_reads_as_it_was_sent_and_changes_only_by_assignment(
    light: Driver,
) -> None:
    d = light
    await d.slash(d.users[0], "start", game="mad-arena")
    lobby = d.lobby()
    packed = d.fake.message(lobby.id)
    assert type(packed) is PackedMessage and d.fake.find_button(packed, label="Join")
    plain = FakeMessage(**{f: getattr(packed, f) for f in FakeMessage.__dataclass_fields__})
    assert plain.to_json() == packed.to_json() and plain.text() == packed.text()
    packed.components.clear()  # a reader's copy
    assert d.fake.find_button(packed, label="Join")
    packed.reactions = [*packed.reactions, "🎲"]
    assert packed.reactions == ["🎲"] and packed.edits == []


async def test_a_lightened_click_still_edits_through_its_token_when_packed(
    light: Driver,
) -> None:
    """The bench's path (``keep_history`` off): a packed click's token still edits the
    table it was on."""
    d = light
    press, table_id, _ = await _pick(d)
    d.fake.lighten(press.id)
    assert type(press) is PackedInteraction
    calls_before = d.fake.call_count
    await _choose(d, press)
    assert d.fake.call_count > calls_before
    assert "has chosen" in d.fake.message(table_id).text()


async def test_a_packed_click_still_takes_a_follow_up_and_its_edit(light: Driver) -> None:
    """A follow-up sent through a handled (packed) click's token is that click's, so the
    token can edit it later, as Discord allows for 15 minutes."""
    d = light
    press, _, _ = await _pick(d)
    d.fake.lighten(press.id)
    assert d.bot is not None
    hook = Hook(press.application_id, press.token)  # as the bot keeps a click's webhook
    sent = await hook.send(d.bot, ephemeral=True, content="later")
    assert sent in press.followup_ids
    await hook.edit(d.bot, sent, content="edited")
    assert d.fake.message(sent).content == "edited"


async def test_without_files_a_message_describes_its_pictures_without_their_bytes(
    tmp_path: Path,
) -> None:
    """The load benchmark's fake keeps no uploaded bytes: Discord's CDN holds them."""
    d = Driver(tmp_path)
    d.fake.keep_history = False
    d.fake.keep_files = False
    async with d.running():
        await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
        pictured = [m for m in d.fake.messages.values() if m.attachments]
        assert pictured and not [m for m in d.fake.messages.values() if m.files]
        shown = pictured[0].attachments[0]
        assert shown["size"] > 0 and shown["width"] > 0 and shown["content_type"] == "image/png"
        with pytest.raises(AssertionError, match="keep_files off"):
            pictured[0].file_bytes(shown["filename"])


async def test_an_edit_replacing_a_picture_drops_the_old_bytes(tmp_path: Path) -> None:
    """Without history, a message holds the bytes of the attachments it shows, as on
    Discord (the table's picture is replaced at every round); with history, every
    picture uploaded stays readable."""
    kept = Driver(tmp_path / "history")
    async with kept.running():
        mid = await open_and_fill(
            kept, "mad-arena", kept.users[:4], mode="mad-arena:ultimate-warrior"
        )
        assert await kept.play_out(mid, random.Random(3)) > 8
        every = sum(len(m.files) for m in kept.fake.messages.values())
        shown = sum(len(m.attachments) for m in kept.fake.messages.values())
        assert every > shown
    d = Driver(tmp_path / "light")
    d.fake.keep_history = False
    async with d.running():
        mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
        assert await d.play_out(mid, random.Random(3)) > 8
        messages = list(d.fake.messages.values())
        for m in messages:
            assert set(m.files) == {int(a["id"]) for a in m.attachments}
            for a in m.attachments:
                assert len(m.file_bytes(a["filename"])) == a["size"]


def test_a_packed_field_holds_the_size_of_its_text() -> None:
    """orjson's output buffer is 4 kB or more whatever the text (never shrunk): a long load
    run's fake kept tens of thousands of them. A packed field holds what it says."""
    value = [{"type": 2, "label": "Attack", "custom_id": "am:1:2:3:4", "style": 1}] * 3
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [kept_json(value) for _ in range(200)]
        per_field = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()
    assert kept[0] == orjson.dumps(value)
    assert per_field < 2 * len(kept[0]) + 100, per_field
