"""The low-level API (FakeDiscord + start/prime/dispatch/settle) with a plain
``discord.Client``, raw payloads from ``payloads``, and the docs example."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.harness import (
    FakeDiscord,
    Harness,
    World,
    dispatch,
    prime,
    run_setup_hook,
    settle,
    start,
)
from tests.harness import payloads as P


class PlainClient(discord.Client):
    """A bare Client with a CommandTree: the harness needs no commands.Bot."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.seen: list[Any] = []
        game = app_commands.Group(name="game", description="Games")
        match = app_commands.Group(name="match", description="Matches", parent=game)

        @match.command(description="Join a match")
        async def join(
            interaction: discord.Interaction,
            seat: int,
            ai: bool = False,
            who: discord.Member | None = None,
        ) -> None:
            self.seen.append(
                (
                    seat,
                    ai,
                    who.id if who else None,
                    str(interaction.locale),
                    str(interaction.guild_locale),
                    interaction.channel_id,
                )
            )
            await interaction.response.send_message(f"seat {seat}")

        self.tree.add_command(game)

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
def world() -> World:
    return World(preferred_locale="fr")


async def test_low_level_prime_dispatch_settle(world: World) -> None:
    client = PlainClient()
    fake = FakeDiscord(application_id=world.application_id, bot_user=world.bot)
    await start(client, fake)
    await prime(
        client, bot_user=world.bot, application_id=world.application_id, guilds=[world.guild]
    )
    try:
        assert client.user is not None and client.user.id == int(world.bot["id"])
        guild = client.get_guild(int(world.guild["id"]))
        assert guild is not None and guild.preferred_locale is discord.Locale.french
        bob = world.as_member(world.players[1])
        carol = world.players[2]
        payload = P.application_command(
            bob,
            "game",
            [
                P.subcommand_group(
                    "match",
                    [
                        P.subcommand(
                            "join",
                            [
                                P.option("seat", 2),
                                P.option("ai", True),
                                P.option("who", carol["user"]["id"], type=P.USER),
                            ],
                        )
                    ],
                )
            ],
            resolved=P.resolved_users(carol),
            application_id=world.application_id,
            channel=world.channel,
            guild_id=int(world.guild["id"]),
            locale="en-GB",
            guild_locale="fr",
        )
        fi = await dispatch(client, payload)
        await settle(client)
        assert client.seen == [
            (2, True, int(carol["user"]["id"]), "en-GB", "fr", int(world.channel["id"]))
        ]
        assert fi is not None and fi.response_type == 4
        assert fake.last_public_message(world.channel["id"]).content == "seat 2"
        fake.assert_all_acknowledged_first()
    finally:
        await client.close()
        fake.uninstall()


async def test_payloads_parse_into_discord_objects(world: World) -> None:
    client = PlainClient()
    fake = FakeDiscord(application_id=world.application_id, bot_user=world.bot)
    await start(client, fake)
    thread = P.thread_channel(
        guild_id=int(world.guild["id"]),
        parent_id=int(world.channel["id"]),
        owner_id=int(world.bot["id"]),
    )
    guild_json = dict(world.guild, threads=[thread])
    await prime(
        client, bot_user=world.bot, application_id=world.application_id, guilds=[guild_json]
    )
    try:
        guild = client.get_guild(int(world.guild["id"]))
        assert guild is not None
        t = guild.get_thread(int(thread["id"]))
        assert t is not None and t.parent_id == int(world.channel["id"])
        msg_json = P.message(
            int(thread["id"]),
            author=world.bot,
            content="x",
            flags=P.EPHEMERAL,
            components=[
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}],
                }
            ],
        )
        payload = P.component_interaction(
            world.as_member(world.players[0]),
            msg_json,
            "go",
            application_id=world.application_id,
            channel=thread,
            guild_id=int(world.guild["id"]),
        )
        seen: list[discord.Interaction] = []

        @client.event
        async def on_interaction(interaction: discord.Interaction) -> None:
            seen.append(interaction)
            await interaction.response.defer()

        await dispatch(client, payload)
        await settle(client)
        (interaction,) = seen
        assert isinstance(interaction.channel, discord.Thread)
        assert interaction.message is not None and interaction.message.flags.ephemeral
        assert isinstance(interaction.user, discord.Member)
        assert interaction.data is not None and interaction.data["custom_id"] == "go"
        assert fake.interaction(interaction.id).response_type == 6
    finally:
        await client.close()
        fake.uninstall()


async def test_expire_before_dispatch_and_pending_thinking() -> None:
    world = World()

    class Bot(commands.Bot):
        def __init__(self) -> None:
            super().__init__(command_prefix="!", intents=discord.Intents.default())
            self.errors: list[Any] = []

        async def setup_hook(self) -> None:
            @self.tree.command(description="Defer and forget")
            async def lazy(interaction: discord.Interaction) -> None:
                try:
                    await interaction.response.defer(thinking=True)
                except discord.NotFound as exc:
                    self.errors.append(exc.code)

            await self.tree.sync()

    h = await Harness.boot(Bot(), world)
    try:
        payload = h.command_payload(world.players[0], "lazy")
        h.fake.expire_interaction(payload["id"])
        await dispatch(h.client, payload)
        await settle(h.client)
        assert h.client.errors == [10062]
        await h.slash(world.players[0], "lazy")
        with pytest.raises(AssertionError, match="never followed up"):
            h.fake.assert_no_pending_thinking()
    finally:
        await h.close()


# --- the example of docs/testing-discord.md, verbatim ---------------------


class DocBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        @self.tree.command(description="Say hi")
        async def hi(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(f"hi ({interaction.locale})", ephemeral=True)

        await self.tree.sync()


async def test_docs_example() -> None:
    world = World()
    world.locales[int(world.players[0]["user"]["id"])] = "fr"
    h = await Harness.boot(DocBot(), world)
    try:
        alice = world.players[0]
        fi = await h.slash(alice, "hi")
        h.fake.assert_acknowledged_first(fi.id)
        (msg,) = h.fake.ephemerals_for(int(alice["user"]["id"]))
        assert msg.content == "hi (fr)"
        assert h.fake.messages_in(world.channel["id"]) == []
    finally:
        await h.close()


class ChannelClient(discord.Client):
    """Uses the plain channel routes the fake answers."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.seen: list[Any] = []

        @self.tree.command(description="Channel routes")
        async def routes(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            first = await channel.send("one")
            await channel.send("two")
            async with channel.typing():
                pass
            await first.add_reaction("🎲")
            await first.pin()
            fetched = await channel.fetch_message(first.id)
            history = [m.content async for m in channel.history(limit=10)]
            again = await self.fetch_channel(channel.id)
            user = await self.fetch_user(interaction.user.id)
            self.seen.append((fetched.pinned, history, again.id == channel.id, user.id))
            await interaction.followup.send("done", ephemeral=True)


async def test_plain_channel_routes() -> None:
    world = World()
    h = await Harness.boot(ChannelClient(), world)
    try:
        await h.slash(world.players[0], "routes")
        ((pinned, history, same, user_id),) = h.client.seen
        assert pinned is True and history == ["two", "one"] and same
        assert user_id == int(world.players[0]["user"]["id"])
        first = h.fake.messages_in(world.channel["id"])[0]
        assert first.reactions == ["🎲"] and first.pinned
    finally:
        await h.close()


async def test_settle_reports_unretrieved_task_exceptions_only() -> None:
    world = World()
    h = await Harness.boot(PlainClient(), world)
    try:

        async def boom() -> None:
            raise ValueError("lost")

        async def handled() -> None:
            task = asyncio.create_task(boom())
            with contextlib.suppress(ValueError):
                await task

        asyncio.create_task(handled())
        await settle(h.client)  # the child's exception was retrieved by its parent
        asyncio.create_task(boom())
        with pytest.raises(AssertionError, match="raised ValueError\\('lost'\\)"):
            await settle(h.client)
    finally:
        await h.close()


async def test_members_intent_caches_members_without_chunking() -> None:
    world = World()
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents)
    fake = FakeDiscord(application_id=world.application_id, bot_user=world.bot)
    await start(client, fake)
    await prime(
        client, bot_user=world.bot, application_id=world.application_id, guilds=[world.guild]
    )
    try:
        guild = client.get_guild(int(world.guild["id"]))
        assert guild is not None and guild.chunked
        alice = guild.get_member(int(world.players[0]["user"]["id"]))
        assert alice is not None and alice.name == "alice"
        assert [c.route_template for c in fake.calls] == ["/users/@me", "/oauth2/applications/@me"]
    finally:
        await client.close()
        fake.uninstall()


async def test_opt_in_ack_deadline_expires_slow_acknowledgements() -> None:
    world = World()
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)
    outcomes: list[Any] = []

    @tree.command(description="Answers after a delay")
    async def slow(interaction: discord.Interaction, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await interaction.response.send_message("late?")
            outcomes.append("ok")
        except discord.NotFound as exc:
            outcomes.append(exc.code)

    h = await Harness.boot(client, world)
    h.fake.ack_deadline = 0.5
    try:
        await h.slash(world.players[0], "slow", delay=0.0)
        await h.slash(world.players[0], "slow", delay=0.7)
        assert outcomes == ["ok", 10062]
    finally:
        await h.close()


class WebhookClient(discord.Client):
    """Exercises the webhook message routes and thread edits."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.seen: list[Any] = []

        @self.tree.command(description="Webhook routes")
        async def hooks(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            original = await interaction.original_response()
            extra = await interaction.followup.send("second", wait=True)
            await extra.edit(
                content="second, edited", attachments=[discord.File(io.BytesIO(b"abc"), "log.md")]
            )
            fetched = await interaction.followup.fetch_message(extra.id)
            await interaction.delete_original_response()
            self.seen.append(
                (original.content, fetched.content, [a.filename for a in fetched.attachments])
            )

        @self.tree.command(description="Thread edits")
        async def archive(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel) and interaction.guild is not None
            thread = await channel.create_thread(name="old match")
            await thread.add_user(interaction.user)
            member = await interaction.guild.fetch_member(interaction.user.id)
            await thread.edit(archived=True, locked=True)
            try:
                await thread.send("too late")
            except discord.Forbidden as exc:
                self.seen.append(("locked", exc.code, member.id))
            await interaction.followup.send("archived")


async def test_webhook_message_routes() -> None:
    world = World()
    h = await Harness.boot(WebhookClient(), world)
    try:
        fi = await h.slash(world.players[0], "hooks")
        assert h.client.seen == [("first", "second, edited", ["log.md"])]
        assert h.fake.message(fi.original_message_id).deleted
        (extra,) = h.fake.messages_in(world.channel["id"])
        assert extra.id in fi.followup_ids and extra.file_bytes("log.md") == b"abc"
        assert extra.edits[0]["content"] == "second, edited"
        fi2 = await h.slash(world.players[1], "archive")
        assert h.client.seen[-1] == ("locked", 50083, int(world.players[1]["user"]["id"]))
        (thread,) = h.fake.threads()
        assert thread["thread_metadata"]["archived"] and thread["thread_metadata"]["locked"]
        assert h.fake.message(fi2.original_message_id).content == "archived"
    finally:
        await h.close()


def test_every_faked_route_is_one_discord_py_uses() -> None:
    """Guards the route table against typos: each template must appear in
    discord.py's own source (http.py or webhook/async_.py)."""
    from pathlib import Path

    import discord.http
    import discord.webhook.async_

    from tests.harness.fake_discord import _ROUTES

    source = (
        Path(discord.http.__file__).read_text() + Path(discord.webhook.async_.__file__).read_text()
    )
    missing = [(m, t) for m, t in _ROUTES if f"'{t}'" not in source]
    assert missing == []


async def test_non_persistent_views_on_responses_and_followups() -> None:
    world = World()
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)
    clicks: list[str] = []

    class Once(discord.ui.View):
        def __init__(self, tag: str) -> None:
            super().__init__(timeout=120)
            self.tag = tag

        @discord.ui.button(label="OK")
        async def ok(
            self, interaction: discord.Interaction, button: discord.ui.Button[Any]
        ) -> None:
            clicks.append(self.tag)
            button.disabled = True
            await interaction.response.edit_message(view=self)

    @tree.command(description="Views")
    async def views(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("a", view=Once("response"), ephemeral=True)
        await interaction.followup.send("b", view=Once("followup"), ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("c", view=Once("channel"))

    h = await Harness.boot(client, world)
    try:
        alice = world.players[0]
        await h.slash(alice, "views")
        a, b = h.fake.ephemerals_for(int(alice["user"]["id"]))
        (c,) = h.fake.messages_in(world.channel["id"])
        for msg in (a, b, c):
            await h.click(alice, msg, label="OK")
            assert h.fake.find_button(msg, label="OK")["disabled"] is True
        assert clicks == ["response", "followup", "channel"]
        with pytest.raises(AssertionError, match="disabled"):
            await h.click(alice, c, label="OK")
    finally:
        await h.close()


async def test_run_setup_hook_without_login(world: World) -> None:
    client = PlainClient()
    fake = FakeDiscord(application_id=world.application_id, bot_user=world.bot)
    await run_setup_hook(client, fake)
    try:
        assert [c.route_template for c in fake.calls] == ["/applications/{application_id}/commands"]
        await prime(
            client, bot_user=world.bot, application_id=world.application_id, guilds=[world.guild]
        )
        assert client.user is not None and client.is_ready()
    finally:
        await client.close()
        fake.uninstall()


async def test_answers_later_suspends_each_call_as_a_network_would() -> None:
    """``FakeDiscord.answers_later`` (the load benchmark's): a call made by the bot waits
    one more turn of the loop for its answer, so work already waiting runs before the
    caller goes on, as on a network; by default the answer comes at once."""
    world = World()
    h = await Harness.boot(PlainClient(), world)
    turns = 0

    async def tick() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    ticker = asyncio.create_task(tick())
    try:
        channel = h.client.get_channel(int(world.channel["id"]))
        assert isinstance(channel, discord.TextChannel)
        waited: dict[bool, int] = {}
        for later in (False, True, False):
            h.fake.answers_later = later
            before = turns
            await channel.send("hello")
            waited[later] = turns - before
        assert waited[True] == waited[False] + 1, waited
    finally:
        ticker.cancel()
        await h.close()
