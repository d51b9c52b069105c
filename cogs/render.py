"""Turn the game master's plain :class:`bot.gm.Msg` into discord.py arguments."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.gm.msg import Embed, Msg, Select

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
    """Arguments for ``send`` (channel, followup)."""
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
    out: dict[str, Any] = {
        "content": msg.content,
        "embeds": [to_embed(e) for e in msg.embeds],
        "view": to_view(msg),
        "allowed_mentions": mentions_of(msg),
    }
    if msg.files or not msg.keep_files:
        out["attachments"] = files_of(msg)
    return out
