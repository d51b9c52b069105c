"""Restart-proof buttons and selects: what a component interaction asks for, if we offered it.

Everything a component needs is in its custom_id (:mod:`bot.gm.ids`), so a
button sent before a restart is answered by the new process. Every component
interaction reaches :meth:`cogs.arena.Arena.on_interaction`, which answers all
of them, including those this module refuses.

What a modified client controls (the custom id, the component type, the
values) is checked against what Discord shows on the clicked message: an
enabled component of that type with exactly that id, and for a select one
value among its options. The message itself comes from Discord, not from the
client.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.gm import ids

COMPONENT_KINDS: dict[int, ids.Kind] = {
    discord.ComponentType.button.value: "button",
    discord.ComponentType.string_select.value: "select",
}


def _walk(components: Iterable[Any]) -> Iterable[Any]:
    for c in components:
        yield c
        yield from _walk(getattr(c, "children", None) or [])


def on_message(
    message: discord.Message | None, kind: ids.Kind, custom_id: str, values: list[str] | None
) -> bool:
    """The clicked message has that enabled component, and the select that value."""
    if message is None:
        return False
    for c in _walk(message.components):
        if getattr(c, "custom_id", None) != custom_id or getattr(c, "disabled", False):
            continue
        if kind == "button" and isinstance(c, discord.Button):
            return values is None
        if kind == "select" and isinstance(c, discord.SelectMenu):
            offered = [o.value for o in c.options]
            return values is not None and len(values) == 1 and values[0] in offered
    return False


def _private(interaction: discord.Interaction) -> bool:
    """A private prompt: an ephemeral message, or a message in a DM."""
    message = interaction.message
    if interaction.guild_id is None:
        return True
    return message is not None and message.flags.ephemeral


def component_request(
    interaction: discord.Interaction,
) -> tuple[ids.ComponentId, list[str] | None] | None:
    """The typed id and the values of a component interaction, or None if we never
    offered that (an id we do not write, a button id sent as a select, an id not on
    the clicked message, a value not in the select, a prompt id on a public message)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    kind = COMPONENT_KINDS.get(data.get("component_type"))  # type: ignore[arg-type]
    raw = data.get("values")
    if not isinstance(custom_id, str) or kind is None:
        return None
    values: list[str] | None = None
    if raw is not None:
        if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
            return None
        values = list(raw)
    c = ids.parse(custom_id)
    if c is None or c.KIND != kind or (kind == "select") != (values is not None):
        return None
    if not on_message(interaction.message, kind, custom_id, values):
        return None
    public = isinstance(c, (ids.LobbyButton, ids.Hand))
    if public == _private(interaction):
        # A lobby or board id on a private prompt, or a prompt id on a public message:
        # its answer would overwrite the wrong message.
        return None
    return c, values
