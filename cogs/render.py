"""Turn the game master's plain :class:`bot.gm.Msg` into discord.py arguments."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

import discord

from bot.gm.msg import Embed, Msg
from cogs.component_json import layout_of, rows_of


def to_embed(spec: Embed) -> discord.Embed:
    e = discord.Embed(title=spec.title, description=spec.description, colour=spec.colour)
    for name, value, inline in spec.fields:
        e.add_field(name=name, value=value or "—", inline=inline)
    if spec.image:
        e.set_image(url=f"attachment://{spec.image}")
    if spec.footer:
        e.set_footer(text=spec.footer)
    return e


def files_of(msg: Msg) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in msg.files]


def mentions_of(msg: Msg) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(u) for u in msg.mentions],
    )


def send_kwargs(msg: Msg) -> dict[str, Any]:
    """Arguments for ``send`` (channel, followup); a v2 message has no content or embeds."""
    if msg.v2:
        return {
            "view": layout_of(msg),
            "files": files_of(msg),
            "allowed_mentions": mentions_of(msg),
        }
    out: dict[str, Any] = {
        "content": msg.content,
        "embeds": [to_embed(e) for e in msg.embeds],
        "files": files_of(msg),
        "allowed_mentions": mentions_of(msg),
    }
    view = rows_of(msg)
    if view is not None:
        out["view"] = view
    return out


def edit_kwargs(msg: Msg) -> dict[str, Any]:
    """Arguments for ``edit``: replaces content, embeds, attachments and components.

    ``Msg.keep_files``: the attachments are left as they are (not uploaded again), unless
    the message brings new files, which then replace them.
    """
    if msg.v2:
        v2: dict[str, Any] = {"view": layout_of(msg), "allowed_mentions": mentions_of(msg)}
        if msg.files or not msg.keep_files:
            v2["attachments"] = files_of(msg)
        return v2
    out: dict[str, Any] = {
        "content": msg.content,
        "embeds": [to_embed(e) for e in msg.embeds],
        "view": rows_of(msg),
        "allowed_mentions": mentions_of(msg),
    }
    if msg.files or not msg.keep_files:
        out["attachments"] = files_of(msg)
    return out


def release_files(files: list[discord.File]) -> None:
    """Unlink sent files from their buffers: ``discord.File.close`` puts the buffer's own
    bound ``close`` back on the buffer as an attribute, a cycle (buffer -> its dict -> the
    bound method -> buffer) that only a garbage collection frees, one per image sent."""
    for f in files:
        vars(f.fp).pop("close", None)


def sending(msg: Msg) -> contextlib.AbstractContextManager[dict[str, Any]]:
    """The arguments of one ``send`` of ``msg``, released after the call: what every
    post and follow-up uses, so no call site can forget the release."""
    return releasing(send_kwargs(msg))


def editing(msg: Msg) -> contextlib.AbstractContextManager[dict[str, Any]]:
    """The arguments of one ``edit`` to ``msg``, released after the call."""
    return releasing(edit_kwargs(msg))


@contextlib.contextmanager
def releasing(kwargs: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``send_kwargs``/``edit_kwargs`` for one call, their files released after it (the
    components are plain JSON, :mod:`cogs.component_json`: nothing to unlink)."""
    try:
        yield kwargs
    finally:
        release_files([*kwargs.get("files", ()), *kwargs.get("attachments", ())])
