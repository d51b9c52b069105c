"""What a post or an edit sends is freed at once after the call, not by a garbage
collection (issue 16 item 5: young collections were the loop's worst stalls under load):
its components are plain JSON (``cogs.component_json``), and its files are unlinked
from their buffers (``cogs.render.release_files``)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.gm.msg import Attachment, Button, Gallery, Msg, Select, SelectOption, TextBlock
from cogs.render import (
    edit_kwargs,
    editing,
    files_of,
    releasing,
    send_kwargs,
    sending,
)

ROWS: list[Any] = [
    [Button(label="A", custom_id="a"), Button(label="B", custom_id="b", style="primary")],
    Select(custom_id="s", placeholder="Pick", options=[SelectOption(label="x", value="1")]),
]
CLASSIC = Msg(content="hello", rows=ROWS)
V2 = Msg(layout=[TextBlock(text="## Round 2"), Gallery(images=["board.png"])], rows=ROWS)


@pytest.fixture
def no_collector() -> Iterator[None]:
    """Only reference counting frees objects meanwhile: a cycle would outlive the test."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("msg", [CLASSIC, V2], ids=["classic", "v2"])
def test_components_sent_are_freed_at_once(no_collector: None, msg: Msg) -> None:
    """No view and items pointing at each other: nothing is left for the collector."""
    for build in (send_kwargs, edit_kwargs):
        kwargs = build(msg)
        assert kwargs["view"].to_components()
        del kwargs
        assert gc.collect() == 0


def test_what_discord_pys_views_left_for_the_collector(no_collector: None) -> None:
    """Why the components are JSON: a discord.py view and its items form cycles."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="A", custom_id="a"))
    del view
    assert gc.collect() > 0


def test_releasing_releases_after_the_call_even_when_it_fails(no_collector: None) -> None:
    for build in (send_kwargs, edit_kwargs):
        msg = Msg(layout=V2.layout, rows=ROWS, files=[Attachment("board.png", b"png")])
        with pytest.raises(RuntimeError), releasing(build(msg)) as kwargs:
            (sent,) = kwargs.get("files") or kwargs["attachments"]
            ref = weakref.ref(sent.fp)
            sent.close()  # what discord.py does once the request is made
            raise RuntimeError("Discord refused it")
        del kwargs, sent
        assert ref() is None


def test_sent_files_are_freed_at_once(no_collector: None) -> None:
    """``discord.File.close`` leaves the buffer holding its own bound ``close``: a cycle
    per image sent, unless the file is released after the call."""
    msg = Msg(layout=V2.layout, rows=ROWS, files=[Attachment("board.png", b"png")])
    for build, key in ((send_kwargs, "files"), (edit_kwargs, "attachments")):
        with releasing(build(msg)) as kwargs:
            (sent,) = kwargs[key]
            ref = weakref.ref(sent.fp)
            sent.close()  # what discord.py does once the request is made
        del kwargs, sent
        assert ref() is None


def test_an_unreleased_file_waits_for_the_collector(no_collector: None) -> None:
    (sent,) = files_of(Msg(files=[Attachment("board.png", b"png")]))
    ref = weakref.ref(sent.fp)
    sent.close()
    del sent
    assert ref() is not None
    gc.collect()
    assert ref() is None


def test_sending_and_editing_release_like_releasing(no_collector: None) -> None:
    """The call sites' forms (``with sending(msg)``/``with editing(msg)``)."""
    msg = Msg(layout=V2.layout, rows=ROWS, files=[Attachment("board.png", b"png")])
    for use in (sending, editing):
        with use(msg) as kwargs:
            (sent,) = kwargs.get("files") or kwargs["attachments"]
            ref = weakref.ref(sent.fp)
            sent.close()
        del kwargs, sent
        assert ref() is None
