"""Turn the game master's plain :class:`bot.gm.Msg` into discord.py arguments."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

import discord

from bot.gm.msg import Button, Embed, FileBlock, Gallery, Msg, Row, Select, TextBlock

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def to_embed(spec: Embed) -> discord.Embed:
    e = discord.Embed(title=spec.title, description=spec.description, colour=spec.colour)
    for name, value, inline in spec.fields:
        e.add_field(name=name, value=value or "—", inline=inline)
    if spec.image:
        e.set_image(url=f"attachment://{spec.image}")
    if spec.footer:
        e.set_footer(text=spec.footer)
    return e


def _item(row: Row) -> list[discord.ui.Item[Any]]:
    """One row's components (a select alone, or up to 5 buttons)."""
    if isinstance(row, Select):
        return [
            discord.ui.Select(
                custom_id=row.custom_id,
                placeholder=row.placeholder,
                options=[
                    discord.SelectOption(
                        label=o.label, value=o.value, description=o.description, emoji=o.emoji
                    )
                    for o in row.options
                ],
                disabled=row.disabled,
            )
        ]
    return [_button(b) for b in row[:5]]


def _button(b: Button) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=b.label,
        custom_id=b.custom_id,
        style=_STYLES[b.style],
        emoji=b.emoji,
        disabled=b.disabled,
    )


def to_layout(msg: Msg) -> discord.ui.LayoutView:
    """A components v2 message: the blocks in one container (accent colour), then the
    rows as action rows. Stopped, like :func:`to_view`, so no click is held in memory."""
    view = discord.ui.LayoutView(timeout=None)
    items: list[discord.ui.Item[Any]] = []
    for block in msg.layout:
        if isinstance(block, TextBlock):
            items.append(discord.ui.TextDisplay(block.text))
        elif isinstance(block, Gallery):
            items.append(
                discord.ui.MediaGallery(
                    *(discord.MediaGalleryItem(f"attachment://{name}") for name in block.images)
                )
            )
        elif isinstance(block, FileBlock):
            items.append(discord.ui.File(f"attachment://{block.filename}"))
        else:
            items.append(discord.ui.Separator())
    view.add_item(discord.ui.Container(*items, accent_colour=msg.accent))
    for row in msg.rows:
        view.add_item(discord.ui.ActionRow(*_item(row)))
    view.stop()
    return view


def to_view(msg: Msg) -> discord.ui.View | None:
    """The components of ``msg``, as a view that is already stopped.

    A stopped view is never kept in discord.py's view store: every click reaches
    :meth:`cogs.arena.Arena.on_interaction` (restart-proof, nothing held in memory per
    message) and is answered there once.
    """
    if not msg.rows:
        return None
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(msg.rows[:5]):
        if isinstance(row, Select):
            sel: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=row.custom_id,
                placeholder=row.placeholder,
                options=[
                    discord.SelectOption(
                        label=o.label, value=o.value, description=o.description, emoji=o.emoji
                    )
                    for o in row.options
                ],
                disabled=row.disabled,
                row=r,
            )
            view.add_item(sel)
        else:
            for b in row[:5]:
                btn: discord.ui.Button[Any] = discord.ui.Button(
                    label=b.label,
                    custom_id=b.custom_id,
                    style=_STYLES[b.style],
                    emoji=b.emoji,
                    disabled=b.disabled,
                    row=r,
                )
                view.add_item(btn)
    view.stop()
    return view


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
            "view": to_layout(msg),
            "files": files_of(msg),
            "allowed_mentions": mentions_of(msg),
        }
    out: dict[str, Any] = {
        "content": msg.content,
        "embeds": [to_embed(e) for e in msg.embeds],
        "files": files_of(msg),
        "allowed_mentions": mentions_of(msg),
    }
    view = to_view(msg)
    if view is not None:
        out["view"] = view
    return out


def edit_kwargs(msg: Msg) -> dict[str, Any]:
    """Arguments for ``edit``: replaces content, embeds, attachments and components.

    ``Msg.keep_files``: the attachments are left as they are (not uploaded again), unless
    the message brings new files, which then replace them.
    """
    if msg.v2:
        v2: dict[str, Any] = {"view": to_layout(msg), "allowed_mentions": mentions_of(msg)}
        if msg.files or not msg.keep_files:
            v2["attachments"] = files_of(msg)
        return v2
    out: dict[str, Any] = {
        "content": msg.content,
        "embeds": [to_embed(e) for e in msg.embeds],
        "view": to_view(msg),
        "allowed_mentions": mentions_of(msg),
    }
    if msg.files or not msg.keep_files:
        out["attachments"] = files_of(msg)
    return out


def release(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Unlink a sent view from its items: a view and its items point at each other, so
    without this every post and edit leaves a cycle only a garbage collection frees, and
    young collections are the loop's worst stalls under load (issue 16 item 5). A stopped
    view (:func:`to_view`, :func:`to_layout`) is never used again once discord.py has
    built the request from it."""
    if view is None:
        return
    for item in list(view.walk_children()):
        clear = getattr(item, "clear_items", None)  # containers and rows hold children
        if callable(clear):
            clear()
    view.clear_items()


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
    """``send_kwargs``/``edit_kwargs`` for one call, their view and files released after
    it."""
    try:
        yield kwargs
    finally:
        release(kwargs.get("view"))
        release_files([*kwargs.get("files", ()), *kwargs.get("attachments", ())])
