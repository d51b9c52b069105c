"""A sent view is unlinked from its items (``cogs.render.release``), so it is freed at
once, not by a garbage collection (issue 16 item 5: young collections were the loop's
worst stalls under load, and discord.py's views were a large part of what they freed)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from bot.gm.msg import Attachment, Button, Gallery, Msg, Select, SelectOption, TextBlock
from cogs.render import (
    edit_kwargs,
    editing,
    files_of,
    release,
    releasing,
    send_kwargs,
    sending,
    to_layout,
    to_view,
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
def test_a_released_view_and_its_items_are_freed_at_once(no_collector: None, msg: Msg) -> None:
    view = to_layout(msg) if msg.v2 else to_view(msg)
    assert view is not None
    refs = [weakref.ref(view)] + [weakref.ref(item) for item in view.walk_children()]
    assert len(refs) > 3
    release(view)
    del view
    assert [r() for r in refs] == [None] * len(refs)


@pytest.mark.parametrize("msg", [CLASSIC, V2], ids=["classic", "v2"])
def test_an_unreleased_view_waits_for_the_collector(no_collector: None, msg: Msg) -> None:
    """What ``release`` is for: discord.py's views and items point at each other."""
    view = to_layout(msg) if msg.v2 else to_view(msg)
    ref = weakref.ref(view)
    del view
    assert ref() is not None
    gc.collect()
    assert ref() is None


def test_releasing_releases_after_the_call_even_when_it_fails(no_collector: None) -> None:
    for build in (send_kwargs, edit_kwargs):
        with pytest.raises(RuntimeError), releasing(build(V2)) as kwargs:
            ref = weakref.ref(kwargs["view"])
            assert kwargs["view"].children  # intact while the call uses it
            raise RuntimeError("Discord refused it")
        del kwargs
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
    for use in (sending, editing):
        with use(V2) as kwargs:
            ref = weakref.ref(kwargs["view"])
            assert kwargs["view"].children
        del kwargs
        assert ref() is None
