"""A message's components as the JSON Discord takes, built straight from a :class:`Msg`.

Why: discord.py sends components from a ``View`` or ``LayoutView``: a view object, an
item object per button, select, text or gallery (a button parses its emoji, a view
draws 16 random bytes for its id), linked both ways, serialised once and then unlinked
again so that reference counting would free them. Every post and edit paid for that
on the event loop (about a tenth of a millisecond per message, and a ``getrandom``
system call). :class:`Components` is the finished JSON, which is what discord.py reads
from a view in a request (``to_components``, ``has_components_v2``), and a stopped
view's answers to the questions it asks before keeping a view for its clicks: finished,
not dispatchable. Every click still reaches :meth:`cogs.arena.Arena.on_interaction`.

The JSON is field for field what discord.py 2.7's items give (a test compares them
for every kind of row and block).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.gm.msg import Button, FileBlock, Gallery, Msg, Row, Select, TextBlock

Json = dict[str, Any]

_STYLES = {
    "primary": discord.ButtonStyle.primary.value,
    "secondary": discord.ButtonStyle.secondary.value,
    "success": discord.ButtonStyle.success.value,
    "danger": discord.ButtonStyle.danger.value,
}
_ACTION_ROW, _BUTTON, _SELECT = 1, 2, 3
_TEXT, _GALLERY, _FILE, _SEPARATOR, _CONTAINER = 10, 12, 13, 14, 17


@dataclass(frozen=True, slots=True)
class Components:
    """What discord.py needs of a stopped view to send its components."""

    __discord_ui_view__: ClassVar[bool] = True
    """discord.py's mark of a view (its ``send`` refuses other objects)."""
    timeout: ClassVar[None] = None

    components: list[Json]
    v2: bool

    def to_components(self) -> list[Json]:
        return self.components

    def has_components_v2(self) -> bool:
        return self.v2

    def is_finished(self) -> bool:
        """Stopped: discord.py keeps no view for the message's clicks."""
        return True

    def is_dispatchable(self) -> bool:
        return False


@functools.lru_cache(maxsize=256)
def _parsed_emoji(emoji: str) -> tuple[tuple[str, Any], ...]:
    return tuple(discord.PartialEmoji.from_str(emoji).to_dict().items())


def _emoji(emoji: str) -> Json:
    """An emoji as discord.py writes it (unicode, or ``<:name:id>`` for a custom one),
    parsed once per string; a new dict each time, so no payload shares one."""
    return dict(_parsed_emoji(emoji))


def _button(b: Button) -> Json:
    out: Json = {"type": _BUTTON, "style": _STYLES[b.style], "disabled": b.disabled}
    if b.label:  # an emoji-only button has none
        out["label"] = b.label
    out["custom_id"] = b.custom_id
    if b.emoji:
        out["emoji"] = _emoji(b.emoji)
    return out


def _select(s: Select) -> Json:
    options: list[Json] = []
    for o in s.options:
        option: Json = {"label": o.label, "value": o.value, "default": False}
        if o.description:
            option["description"] = o.description
        if o.emoji:
            option["emoji"] = _emoji(o.emoji)
        options.append(option)
    return {
        "type": _SELECT,
        "custom_id": s.custom_id,
        "min_values": 1,
        "max_values": 1,
        "disabled": s.disabled,
        "required": True,
        "placeholder": s.placeholder,
        "options": options,
    }


def _row(row: Row) -> Json:
    """One action row: a select alone, or up to 5 buttons."""
    items = [_select(row)] if isinstance(row, Select) else [_button(b) for b in row[:5]]
    return {"type": _ACTION_ROW, "components": items}


def _block(block: Any) -> Json:
    if isinstance(block, TextBlock):
        return {"type": _TEXT, "content": block.text}
    if isinstance(block, Gallery):
        return {
            "type": _GALLERY,
            "items": [
                {"media": {"url": f"attachment://{name}"}, "spoiler": False}
                for name in block.images
            ],
        }
    if isinstance(block, FileBlock):
        return {"type": _FILE, "file": {"url": f"attachment://{block.filename}"}, "spoiler": False}
    return {"type": _SEPARATOR, "divider": True, "spacing": 1}


def rows_of(msg: Msg) -> Components | None:
    """A classic message's buttons and selects (at most 5 rows); None without any."""
    if not msg.rows:
        return None
    return Components([_row(row) for row in msg.rows[:5]], v2=False)


def layout_of(msg: Msg) -> Components:
    """A components v2 message: its blocks in one container (accent colour), then its
    rows as action rows."""
    container: Json = {
        "type": _CONTAINER,
        "accent_color": msg.accent,
        "spoiler": False,
        "components": [_block(b) for b in msg.layout],
    }
    return Components([container, *(_row(row) for row in msg.rows)], v2=True)
