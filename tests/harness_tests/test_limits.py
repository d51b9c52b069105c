"""Each Discord limit check catches its violation with a precise message,
and passes a payload at the limit."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.harness import Harness, World
from tests.harness import limits as L


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def button(
    cid: str | None = "b", label: str | None = "Go", style: int = 1, **extra: Any
) -> dict[str, Any]:
    b: dict[str, Any] = {"type": 2, "style": style, **extra}
    if cid is not None:
        b["custom_id"] = cid
    if label is not None:
        b["label"] = label
    return b


def select(n_options: int, cid: str = "s", **extra: Any) -> dict[str, Any]:
    opts = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n_options)]
    return {"type": 3, "custom_id": cid, "options": opts, **extra}


def msg(**payload: Any) -> list[str]:
    return L.check_message(payload, [], "test", ephemeral_allowed=False)


def test_content_limit() -> None:
    assert msg(content="x" * 2000) == []
    assert msg(content="x" * 2001) == ["test: content has 2001 chars > 2000"]


@pytest.mark.parametrize(
    ("embed", "needle"),
    [
        ({"title": "t" * 257}, "title has 257 chars > 256"),
        ({"description": "d" * 4097}, "description has 4097 chars > 4096"),
        ({"fields": [{"name": "n", "value": "v"}] * 26}, "26 fields > 25"),
        ({"fields": [{"name": "n" * 257, "value": "v"}]}, "name has 257 chars > 256"),
        ({"fields": [{"name": "n", "value": "v" * 1025}]}, "value has 1025 chars > 1024"),
        ({"fields": [{"name": "", "value": "v"}]}, "name is empty"),
        ({"footer": {"text": "f" * 2049}}, "footer.text has 2049 chars > 2048"),
        ({"author": {"name": "a" * 257}}, "author.name has 257 chars > 256"),
    ],
)
def test_embed_limits(embed: dict[str, Any], needle: str) -> None:
    errors = msg(embeds=[embed])
    assert any(needle in e for e in errors), errors


def test_embed_total_and_count() -> None:
    assert msg(embeds=[{"description": "d" * 4096}, {"description": "d" * 1904}]) == []
    errors = msg(embeds=[{"description": "d" * 4096}, {"description": "d" * 1905}])
    assert errors == ["test: embeds total 6001 chars > 6000"]
    assert msg(embeds=[{"title": "t"}] * 11) == ["test: 11 embeds > 10"]


@pytest.mark.parametrize(
    ("components", "needle"),
    [
        ([row(button(f"b{i}")) for i in range(6)], "6 action rows > 5"),
        ([row(*(button(f"b{i}") for i in range(6)))], "6 buttons > 5"),
        ([row(select(3), button("x"))], "a select must be alone in its row"),
        ([row(select(26))], "26 options (must be 1..25)"),
        ([row(select(0))], "0 options (must be 1..25)"),
        ([row(select(2, placeholder="p" * 151))], "placeholder has 151 chars > 150"),
        (
            [row({"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v"}]})],
            "label has 101 chars > 100",
        ),
        (
            [row({"type": 3, "custom_id": "s", "options": [{"label": "l", "value": "v" * 101}]})],
            "value has 101 chars > 100",
        ),
        (
            [
                row(
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [{"label": "l", "value": "v", "description": "d" * 101}],
                    }
                )
            ],
            "description has 101 chars > 100",
        ),
        ([row(button("c" * 101))], "has 101 chars (must be 1..100)"),
        ([row(button("")), row(button("ok"))], "has 0 chars"),
        ([row(button("same"), button("same"))], "duplicate custom_ids"),
        ([row(button("b", label="l" * 81))], "has 81 chars > 80"),
        (
            [row(button("b", style=5, url="https://x.invalid"))],
            "link button must not have a custom_id",
        ),
        ([row(button(None, style=5))], "link button without url"),
        ([row(button(None, style=1))], "needs a custom_id"),
        ([row(button("b", label=None))], "needs a label or an emoji"),
        ([{"type": 2, "style": 1, "custom_id": "b", "label": "x"}], "is not an action row"),
    ],
)
def test_component_limits(components: list[dict[str, Any]], needle: str) -> None:
    errors = msg(components=components)
    assert any(needle in e for e in errors), errors


def test_components_at_the_limit_pass() -> None:
    rows = [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(4)] + [row(select(25))]
    assert msg(components=rows) == []
    assert (
        msg(components=[row(button(None, style=5, url="https://x.invalid", label="Rules"))]) == []
    )


def test_files_and_ephemeral() -> None:
    big = ("big.png", 10 * 1024 * 1024 + 1, b"")
    assert L.check_message({}, [big], "t", ephemeral_allowed=True) == [
        "t: file 'big.png' is 10485761 bytes > 10485760"
    ]
    assert L.check_message({}, [("a", 1, b"a")] * 11, "t", ephemeral_allowed=True) == [
        "t: 11 files > 10"
    ]
    assert L.check_message({"flags": 64}, [], "t", ephemeral_allowed=True) == []
    (error,) = L.check_message({"flags": 64}, [], "t", ephemeral_allowed=False)
    assert "EPHEMERAL flag" in error


def test_modal_limits() -> None:
    ok = {
        "custom_id": "m",
        "title": "t" * 45,
        "components": [row({"type": 4, "custom_id": "i", "label": "l" * 45, "style": 1})],
    }
    assert L.check_modal(ok, "m") == []
    bad = {
        "custom_id": "m",
        "title": "t" * 46,
        "components": [row({"type": 4, "custom_id": "i", "label": "l" * 46, "style": 1})] * 6,
    }
    errors = L.check_modal(bad, "m")
    assert any("title" in e for e in errors)
    assert any("6 components" in e for e in errors)
    assert any("text input label" in e for e in errors)
    assert any("duplicate" in e for e in errors)


def test_autocomplete_and_commands() -> None:
    choices = [{"name": f"c{i}", "value": str(i)} for i in range(26)]
    assert L.check_autocomplete({"choices": choices}, "a") == ["a: 26 autocomplete choices > 25"]
    cmd = {
        "name": "arena",
        "description": "d",
        "name_localizations": {"fr": "Arène"},
        "options": [{"type": 1, "name": "start", "description": "x" * 101}],
    }
    errors = L.check_commands([cmd], "sync")
    assert any("'Arène' is not a valid lowercase command name" in e for e in errors), errors
    assert any("must be 1..100 chars" in e for e in errors), errors


class LimitBot(discord.Client):
    """Sends over-limit things through discord.py's real builders."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = discord.app_commands.CommandTree(self)

        @self.tree.command(description="Long custom id")
        async def longid(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="x", custom_id="c" * 101))
            await interaction.response.send_message("x", view=view)

        @self.tree.command(description="Huge embed")
        async def huge(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="t", description="d" * 4000)
            for i in range(3):
                embed.add_field(name=f"f{i}", value="v" * 1000)
            await interaction.response.send_message(embed=embed)


@pytest.mark.parametrize(
    ("command", "needle"), [("longid", "custom_id 'ccc"), ("huge", "embeds total")]
)
async def test_violations_from_real_discord_py_payloads(command: str, needle: str) -> None:
    world = World()
    h = await Harness.boot(LimitBot(), world)
    try:
        with pytest.raises(AssertionError, match=needle):
            await h.slash(world.players[0], command)
    finally:
        await h.close()
