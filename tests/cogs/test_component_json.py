"""A message's components built as JSON (``cogs.component_json``) are exactly what
discord.py's own items give for the same message (issue 16: CPU per click), and they
pass through discord.py's request building as a view would."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

from bot.gm.msg import (
    Button,
    FileBlock,
    Gallery,
    Msg,
    Row,
    Rule,
    Select,
    SelectOption,
    TextBlock,
)
from cogs.component_json import Components, layout_of, rows_of
from cogs.render import edit_kwargs, send_kwargs

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


# --- discord.py's items, as the bot built them before (the reference) ------------------
def _button(b: Button, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=b.label,
        custom_id=b.custom_id,
        style=STYLES[b.style],
        emoji=b.emoji,
        disabled=b.disabled,
        row=row,
    )


def _select(s: Select, row: int | None = None) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=s.custom_id,
        placeholder=s.placeholder,
        options=[
            discord.SelectOption(
                label=o.label, value=o.value, description=o.description, emoji=o.emoji
            )
            for o in s.options
        ],
        disabled=s.disabled,
        row=row,
    )


def reference_rows(msg: Msg) -> list[dict[str, Any]]:
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(msg.rows[:5]):
        if isinstance(row, Select):
            view.add_item(_select(row, r))
        else:
            for b in row[:5]:
                view.add_item(_button(b, r))
    return view.to_components()


def reference_layout(msg: Msg) -> list[dict[str, Any]]:
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
        inner: list[discord.ui.Item[Any]] = (
            [_select(row)] if isinstance(row, Select) else [_button(b) for b in row[:5]]
        )
        view.add_item(discord.ui.ActionRow(*inner))
    assert view.has_components_v2()
    return view.to_components()


# --- the messages compared ---------------------------------------------------------------
EMOJIS = [None, "⚔️", "🎲", "<:sword:123456789012345678>", "<a:spin:223456789012345678>"]
BUTTONS = [
    Button(label=f"Button {i}", custom_id=f"b:{i}", style=style, emoji=emoji, disabled=i % 3 == 0)
    for i, (style, emoji) in enumerate(
        (s, e) for s in ("primary", "secondary", "success", "danger") for e in EMOJIS
    )
]
SELECTS = [
    Select(
        custom_id="s:1",
        placeholder="Choose a card",
        options=[
            SelectOption(label="Fireball", value="0", description="3 damage", emoji="🔥"),
            SelectOption(label="Shield", value="1"),
            SelectOption(label="Custom", value="2", emoji="<:shield:323456789012345678>"),
            SelectOption(label="Long " * 30, value="3", description="Much " * 30),
        ],
    ),
    Select(
        custom_id="s:2",
        placeholder="Nothing to pick",
        options=[SelectOption(label="Only", value="x", description="")],
        disabled=True,
    ),
]
ROW_SETS: list[list[Row]] = [
    [BUTTONS[:2] + [Button(label="", custom_id="b:bare", emoji="🎲")]],
    [BUTTONS[i : i + 5] for i in range(0, 20, 5)],
    [BUTTONS[:7], SELECTS[0], BUTTONS[7:9], SELECTS[1], BUTTONS[9:10], BUTTONS[10:12]],
    [SELECTS[0]],
]
BLOCKS = [
    TextBlock(text="## Round 3\n**Ana** plays *Fireball* <@123>"),
    Gallery(images=["board.png", "hand.png"]),
    FileBlock(filename="log-en.md"),
    Rule(),
    TextBlock(text="-# a footnote"),
]


@pytest.mark.parametrize("rows", ROW_SETS, ids=lambda r: f"{len(r)}rows")
def test_classic_rows_are_discord_pys_json(rows: list[Row]) -> None:
    msg = Msg(content="hello", rows=rows)
    built = rows_of(msg)
    assert built is not None and not built.has_components_v2()
    assert built.to_components() == reference_rows(msg)


def test_a_message_without_rows_has_no_components() -> None:
    assert rows_of(Msg(content="hello")) is None
    assert "view" not in send_kwargs(Msg(content="hello"))
    assert edit_kwargs(Msg(content="hello"))["view"] is None  # clears the old buttons


@pytest.mark.parametrize("accent", [None, 0x8B1A1A])
@pytest.mark.parametrize("rows", [[], *ROW_SETS], ids=lambda r: f"{len(r)}rows")
def test_a_layout_is_discord_pys_json(rows: list[Row], accent: int | None) -> None:
    for blocks in (BLOCKS, BLOCKS[:1], BLOCKS[1:3]):
        msg = Msg(layout=list(blocks), rows=rows, accent=accent)
        built = layout_of(msg)
        assert built.has_components_v2()
        assert built.to_components() == reference_layout(msg)


@pytest.mark.parametrize("v2", [False, True])
def test_discord_py_builds_the_same_request_from_them(v2: bool) -> None:
    """Through discord.py's request building (every send and edit): the same payload,
    the components v2 flag included."""
    msg = Msg(layout=BLOCKS, rows=ROW_SETS[2]) if v2 else Msg(content="hi", rows=ROW_SETS[2])
    ours = rows_of(msg) if not v2 else layout_of(msg)
    theirs = reference_layout(msg) if v2 else reference_rows(msg)
    with handle_message_parameters(content=None if v2 else "hi", view=ours) as params:  # type: ignore[arg-type]
        payload = params.payload
    assert payload is not None
    assert payload["components"] == theirs
    assert payload.get("flags", 0) == (discord.MessageFlags(components_v2=True).value if v2 else 0)


def test_they_ask_discord_py_to_keep_nothing() -> None:
    """Like a stopped view: finished, not dispatchable (every click reaches
    ``Arena.on_interaction``), and a view in discord.py's eyes."""
    built = layout_of(Msg(layout=BLOCKS))
    assert isinstance(built, Components)
    assert hasattr(built, "__discord_ui_view__")
    assert built.is_finished() and not built.is_dispatchable() and built.timeout is None


def test_no_two_payloads_share_an_emoji() -> None:
    """Emoji are parsed once per string, but each payload gets its own dict: whatever
    reads a payload and changes it cannot change another message."""
    first = rows_of(Msg(content="a", rows=[[Button(label="A", custom_id="a", emoji="🎲")]]))
    second = rows_of(Msg(content="b", rows=[[Button(label="B", custom_id="b", emoji="🎲")]]))
    assert first is not None and second is not None
    first.to_components()[0]["components"][0]["emoji"]["name"] = "changed"
    assert second.to_components()[0]["components"][0]["emoji"] == {"id": None, "name": "🎲"}
