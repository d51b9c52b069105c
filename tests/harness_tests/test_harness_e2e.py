"""The harness itself, driven through a throwaway bot defined here.

Proves that real INTERACTION_CREATE payloads reach handlers through
discord.py's own parsing, that both REST paths (HTTPClient and the interaction
webhook adapter) are recorded and answered, and that limit violations,
unknown routes, double acknowledgements and injected faults surface as the
right failures / discord.py exceptions.
"""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.harness import Harness, World, dispatch, feed, settle
from tests.harness import payloads as P

PNG = (
    b"\x89PNG\r\n\x1a\n"
    + b"\x00\x00\x00\rIHDR"
    + (640).to_bytes(4, "big")
    + (480).to_bytes(4, "big")
)

FR = {
    "demo": "demo-fr",
    "Demo commands": "Commandes de démo",
    "start": "lancer",
    "Start a demo match": "Lancer une partie de démo",
    "seats": "places",
    "Number of seats": "Nombre de places",
}


class FrenchTranslator(app_commands.Translator):
    """Only French: enough to see name_localizations in the sync payload."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        if locale is discord.Locale.french:
            return FR.get(string.message)
        return None


class Roll(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:roll:(?P<n>\d+)"):
    """A restart-proof button: its state lives in the custom_id."""

    def __init__(self, n: int) -> None:
        self.n = n
        super().__init__(
            discord.ui.Button(
                label=f"Roll {n}", custom_id=f"demo:roll:{n}", style=discord.ButtonStyle.primary
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> Roll:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("roll", self.n, interaction.user.id))  # type: ignore[attr-defined]
        await interaction.response.send_message(f"You rolled {self.n}", ephemeral=True)


class AskName(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("name", self.name.value))  # type: ignore[attr-defined]
        await interaction.response.send_message(f"Hello {self.name.value}")


class Pick(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="demo:pick",
        options=[discord.SelectOption(label=f"Card {i}", value=str(i)) for i in range(1, 4)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        interaction.client.seen.append(("pick", select.values))  # type: ignore[attr-defined]
        await interaction.response.edit_message(content=f"Picked {select.values[0]}", view=None)

    @discord.ui.button(label="Name", custom_id="demo:ask")
    async def ask(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(AskName())


class Demo(commands.GroupCog, group_name="demo", group_description="Demo commands"):
    admin = app_commands.Group(name="admin", description="Admin tools")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=app_commands.locale_str("start"),
        description=app_commands.locale_str("Start a demo match"),
    )
    @app_commands.describe(seats=app_commands.locale_str("Number of seats"))
    @app_commands.rename(seats=app_commands.locale_str("seats"))
    async def start(self, interaction: discord.Interaction, seats: int, game: str = "mad") -> None:
        await interaction.response.defer(thinking=True)
        view = discord.ui.View(timeout=None)
        view.add_item(Roll(seats))
        self.bot.seen.append(
            ("start", seats, game, str(interaction.locale), str(interaction.guild_locale))
        )
        await interaction.followup.send(
            f"{game} with {seats} seats", file=discord.File(io.BytesIO(PNG), "board.png"), view=view
        )

    @app_commands.command(description="A secret")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True, view=Pick())

    @app_commands.command(description="DM me")
    async def dm(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send("psst")
        except discord.Forbidden as exc:
            self.bot.seen.append(("dm-refused", exc.status, exc.code))
            await interaction.followup.send("Your DMs are closed", ephemeral=True)
        else:
            await interaction.followup.send("Sent", ephemeral=True)

    @app_commands.command(description="Say something")
    async def say(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.response.send_message(text)
        except discord.HTTPException as exc:
            self.bot.seen.append(("say-failed", type(exc).__name__, exc.status, exc.code))

    @app_commands.command(description="Post in the channel, then answer (wrong order)")
    async def slow(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("working...")
        await interaction.response.send_message("done")

    @app_commands.command(description="Open a thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name="Match #1", type=discord.ChannelType.public_thread
        )
        await thread.send("Round 1")
        cached = self.bot.get_channel(thread.id)
        self.bot.seen.append(("thread", thread.id, type(cached).__name__))
        await interaction.followup.send(f"Playing in {thread.mention}")

    @app_commands.command(description="Open a thread on a message")
    async def threadmsg(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Lobby")
        view = discord.ui.View(timeout=None)
        view.add_item(Roll(6))
        assert isinstance(interaction.channel, discord.TextChannel)
        lobby = await interaction.channel.send("Board", view=view)
        thread = await lobby.create_thread(name="Match #2")
        await thread.send("Round 1", view=view)

    @app_commands.command(description="Uses a route the fake does not know")
    async def roles(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        await interaction.guild.fetch_roles()

    @app_commands.command(description="Edit a message that is gone")
    async def gone(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        assert isinstance(interaction.channel, discord.TextChannel)
        msg = await interaction.channel.send("soon gone")
        await msg.delete()
        try:
            await msg.edit(content="again")
        except discord.NotFound as exc:
            self.bot.seen.append(("gone", exc.status, exc.code))
        await interaction.followup.send("ok")

    @app_commands.command(description="Wait forever")
    async def hang(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.get_running_loop().create_future()  # nobody will resolve it

    @app_commands.command(description="Follow up, acknowledging first or not")
    async def early(self, interaction: discord.Interaction, ack: bool) -> None:
        if ack:
            try:
                await interaction.response.defer()
            except discord.NotFound:
                pass
        try:
            await interaction.followup.send("hello")
        except discord.NotFound as exc:
            self.bot.seen.append(("followup-failed", exc.code))

    @app_commands.command(description="Edit the original response")
    async def edit(
        self, interaction: discord.Interaction, target: discord.Member | None = None
    ) -> None:
        await interaction.response.defer()
        try:
            await interaction.edit_original_response(
                content=f"edited for {target.id if target else None}"
            )
        except discord.NotFound as exc:
            self.bot.seen.append(("edit-failed", exc.status, exc.code))
        else:
            self.bot.seen.append(("edited", target.id if target else None))

    @app_commands.command(description="Wait for a signal, then answer")
    async def later(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.wait_for(self.bot.go.wait(), timeout=300)
        await asyncio.sleep(0.01)  # short sleeps are work in progress
        await interaction.followup.send("went")

    @app_commands.command(description="Autocompleted")
    async def find(self, interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(card)

    @find.autocomplete("card")
    async def find_card(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["Agaric", "Amanite", "Bolet"]
        return [
            app_commands.Choice(name=n, value=n.lower()) for n in names if n.startswith(current)
        ]

    @admin.command(name="reset", description="Reset everything")
    async def reset(self, interaction: discord.Interaction) -> None:
        ch = interaction.channel
        self.bot.seen.append(
            (
                "reset",
                interaction.permissions.manage_guild,
                interaction.app_permissions.create_public_threads,
                type(ch).__name__,
                type(interaction.user).__name__,
            )
        )
        await interaction.response.send_message("reset", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self, dev_guild: int | None = None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), help_command=None)
        self.seen: list[tuple[Any, ...]] = []
        self.dev_guild = dev_guild
        self.go = asyncio.Event()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(FrenchTranslator())
        await self.add_cog(Demo(self))
        self.add_dynamic_items(Roll)
        self.add_view(Pick())
        if self.dev_guild:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


@pytest.fixture
async def h() -> Any:
    world = World()
    harness = await Harness.boot(DemoBot(), world)
    yield harness
    await harness.close()


def uid(who: dict[str, Any]) -> int:
    return int(P.user_of(who)["id"])


async def test_boot_runs_login_setup_hook_and_ready(h: Harness) -> None:
    bot, w = h.client, h.world
    assert bot.user is not None and bot.user.id == int(w.bot["id"])
    assert bot.application_id == w.application_id
    guild = bot.get_guild(int(w.guild["id"]))
    assert guild is not None and guild.preferred_locale is discord.Locale.american_english
    assert guild.get_channel(int(w.channel["id"])).name == "arena"
    assert guild.me is not None  # without the members intent only the bot is cached
    assert bot.is_ready()
    assert [(c.via, c.method, c.route_template) for c in h.fake.calls] == [
        ("http", "GET", "/users/@me"),
        ("http", "GET", "/oauth2/applications/@me"),
        ("http", "PUT", "/applications/{application_id}/commands"),
    ]


async def test_sync_payload_carries_french_localisations(h: Harness) -> None:
    (sync,) = h.fake.command_syncs
    (demo,) = sync.json
    assert demo["name"] == "demo" and demo["name_localizations"] == {"fr": "demo-fr"}
    assert demo["description_localizations"] == {"fr": "Commandes de démo"}
    start = next(o for o in demo["options"] if o["name"] == "start")
    assert start["name_localizations"] == {"fr": "lancer"}
    seats = next(o for o in start["options"] if o["name"] == "seats")
    assert seats["description_localizations"] == {"fr": "Nombre de places"}
    assert seats["type"] == P.INTEGER and seats["required"] is True
    assert h.fake.command("demo")["id"]  # echoed back with an id


async def test_guild_sync_and_guild_command_payload() -> None:
    world = World()
    gid = int(world.guild["id"])
    h = await Harness.boot(DemoBot(dev_guild=gid), world)
    try:
        (sync,) = h.fake.command_syncs
        assert sync.route_template == "/applications/{application_id}/guilds/{guild_id}/commands"
        assert h.fake.guild_commands[gid][0]["guild_id"] == str(gid)
        fi = await h.slash(world.players[0], "demo start", seats=2)
        assert fi.payload["data"]["guild_id"] == str(gid)
        assert ("start", 2, "mad", "en-US", "en-US") in h.client.seen
    finally:
        await h.close()


async def test_slash_defer_then_followup_with_file_and_view(h: Harness) -> None:
    w = h.world
    h.world.locales[uid(w.players[0])] = "fr"
    fi = await h.slash(w.players[0], "demo start", seats=3, game="arena")
    assert h.client.seen == [("start", 3, "arena", "fr", "en-US")]
    # both REST paths: callback and followup went through the webhook adapter
    assert [(c.via, c.method, c.route_template) for c in fi.calls] == [
        ("webhook", "POST", "/interactions/{webhook_id}/{webhook_token}/callback"),
        ("webhook", "POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ]
    assert fi.response_type == 5 and not fi.ephemeral
    h.fake.assert_acknowledged_first(fi.id)
    followup = fi.calls[1]
    assert followup.files == [("board.png", len(PNG), PNG)]
    assert followup.params == {"wait": 1, "with_components": 1}
    # the first followup after a thinking defer replaces the loading message
    msg = h.fake.last_public_message(w.channel["id"])
    assert msg.id == fi.original_message_id and not msg.loading
    assert msg.content == "arena with 3 seats"
    assert msg.file_bytes("board.png") == PNG
    assert (msg.attachments[0]["width"], msg.attachments[0]["height"]) == (640, 480)
    button = h.fake.find_button(msg, label="Roll 3")
    assert button["custom_id"] == "demo:roll:3" and button["disabled"] is False


async def test_dynamic_button_click_gets_private_answer(h: Harness) -> None:
    w = h.world
    await h.slash(w.players[0], "demo start", seats=4)
    board = h.fake.last_public_message(w.channel["id"])
    fi = await h.click(w.players[1], board, custom_id_prefix="demo:roll:")
    assert h.client.seen[-1] == ("roll", 4, uid(w.players[1]))
    assert fi.payload["message"]["id"] == str(board.id)
    (private,) = h.fake.ephemerals_for(uid(w.players[1]))
    assert private.content == "You rolled 4" and private.ephemeral
    assert h.fake.ephemerals_for(uid(w.players[0])) == []
    assert h.fake.last_public_message(w.channel["id"]).id == board.id  # not visible publicly
    with pytest.raises(AssertionError, match="cannot see ephemeral"):
        h.click_payload(w.players[0], private, "x")


async def test_ephemeral_view_select_and_modal(h: Harness) -> None:
    w = h.world
    alice = w.players[0]
    await h.slash(alice, "demo secret")
    prompt = h.fake.last_ephemeral_for(uid(alice))
    assert prompt.flags & P.EPHEMERAL
    fi = await h.select(alice, prompt, ["2"])
    assert fi.payload["message"]["flags"] & P.EPHEMERAL  # Discord sends the ephemeral flag back
    assert fi.response_type == 7
    assert h.client.seen[-1] == ("pick", ["2"])
    assert prompt.content == "Picked 2" and prompt.components == []
    await h.slash(alice, "demo secret")
    prompt2 = h.fake.last_ephemeral_for(uid(alice))
    opened = await h.click(alice, prompt2, label="Name")
    assert opened.response_type == 9 and opened.modal["title"] == "Your name"
    await h.submit_modal(alice, opened, {"demo:name": "Alice"})
    assert h.client.seen[-1] == ("name", "Alice")


async def test_subcommand_group_member_permissions_and_channel(h: Harness) -> None:
    w = h.world
    fi = await h.slash(w.owner, "demo admin reset")
    assert fi.payload["data"]["options"][0]["type"] == P.SUB_COMMAND_GROUP
    assert h.client.seen[-1] == ("reset", True, True, "TextChannel", "Member")
    await h.slash(w.players[0], "demo admin reset")
    assert h.client.seen[-1][1] is False


async def test_autocomplete_choices(h: Harness) -> None:
    choices = await h.autocomplete(h.world.players[0], "demo find", "card", card="Am")
    assert choices == [{"name": "Amanite", "value": "amanite"}]


async def test_dm_refused_raises_forbidden_50007(h: Harness) -> None:
    w = h.world
    bob = w.players[1]
    h.fake.close_dms(uid(bob))
    fi = await h.slash(bob, "demo dm")
    assert h.client.seen[-1] == ("dm-refused", 403, 50007)
    assert h.fake.dms_to(uid(bob)) == []
    (note,) = h.fake.ephemerals_for(uid(bob))
    assert note.content == "Your DMs are closed" and note.id == fi.original_message_id
    assert [c.statuses for c in fi.calls if c.via == "http"] == [[200], [403]]
    h.fake.open_dms(uid(bob))
    await h.slash(bob, "demo dm")
    assert [m.content for m in h.fake.dms_to(uid(bob))] == ["psst"]


async def test_expired_token_raises_notfound_10062(h: Harness) -> None:
    h.fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, code=10062)
    await h.slash(h.world.players[0], "demo say", text="hi")
    assert h.client.seen[-1] == ("say-failed", "NotFound", 404, 10062)


async def test_unknown_webhook_raises_notfound_10015(h: Harness) -> None:
    w = h.world
    fi = await h.slash(w.players[0], "demo edit", target=w.players[1])
    assert h.client.seen[-1] == ("edited", uid(w.players[1]))
    assert h.fake.message(fi.original_message_id).content == f"edited for {uid(w.players[1])}"
    h.fake.fail_next("PATCH", r"^/webhooks/\d+/[^/]+/messages/@original$", 404, code=10015)
    await h.slash(w.players[0], "demo edit")
    assert h.client.seen[-1] == ("edit-failed", 404, 10015)


async def test_followup_before_acknowledging_is_misuse(h: Harness) -> None:
    with pytest.raises(AssertionError, match="before interaction .* was acknowledged"):
        await h.slash(h.world.players[0], "demo early", ack=False)
    assert h.client.seen[-1] == ("followup-failed", 10015)


async def test_followup_after_an_expired_ack_is_only_an_error(h: Harness) -> None:
    h.fake.fail_next("POST", r"/callback$", 404, code=10062)
    await h.slash(h.world.players[0], "demo early", ack=True)
    assert h.client.seen[-1] == ("followup-failed", 10015)
    assert h.fake.violations == []


async def test_unknown_message_raises_notfound_10008(h: Harness) -> None:
    await h.slash(h.world.players[0], "demo gone")
    assert ("gone", 404, 10008) in h.client.seen


async def test_429_is_retried_by_discord_py_without_real_sleep(h: Harness) -> None:
    h.fake.fail_next("POST", r"^/channels/\d+/messages$", 429, retry_after=30.0)
    t0 = time.monotonic()
    fi = await h.slash(h.world.players[0], "demo gone")
    assert time.monotonic() - t0 < 2
    (post,) = [c for c in fi.calls if c.method == "POST" and c.via == "http"]
    assert post.statuses == [429, 200]
    assert 30.0 in post.slept and 30.0 in h.fake.slept


async def test_429_exhausting_retries_raises_httpexception(h: Harness) -> None:
    h.fake.fail_next("POST", r"/callback$", 429, retry_after=1.0, times=5)
    await h.slash(h.world.players[0], "demo say", text="hi")
    assert h.client.seen[-1] == ("say-failed", "HTTPException", 429, 0)


async def test_500_is_retried_then_raises(h: Harness) -> None:
    h.fake.fail_next("POST", r"/callback$", 500, times=1)
    await h.slash(h.world.players[0], "demo say", text="once")
    assert h.fake.last_public_message(h.world.channel["id"]).content == "once"
    h.fake.fail_next("POST", r"/callback$", 500, times=5)
    await h.slash(h.world.players[0], "demo say", text="never")
    assert h.client.seen[-1] == ("say-failed", "DiscordServerError", 500, 0)


async def test_thread_creation_feeds_thread_create(h: Harness) -> None:
    w = h.world
    await h.slash(w.players[0], "demo thread")
    (thread,) = h.fake.threads(parent_id=w.channel["id"])
    assert h.client.seen[-1] == ("thread", int(thread["id"]), "Thread")
    assert [m.content for m in h.fake.messages_in(thread["id"])] == ["Round 1"]
    assert thread["name"] == "Match #1" and thread["type"] == P.PUBLIC_THREAD


async def test_thread_on_message_and_buttons_in_it(h: Harness) -> None:
    w = h.world
    fi = await h.slash(w.players[0], "demo threadmsg")
    h.fake.assert_acknowledged_first(fi.id)
    lobby, board = h.fake.messages_in(w.channel["id"])
    assert lobby.id == fi.original_message_id and board.content == "Board"
    (thread,) = h.fake.threads(parent_id=w.channel["id"])
    assert int(thread["id"]) == board.id and board.thread_id == board.id
    await h.click(w.players[1], board, label="Roll 6")  # message JSON carries its thread
    (in_thread,) = h.fake.messages_in(thread["id"])
    await h.click(w.players[2], in_thread, label="Roll 6")
    assert [s[2] for s in h.client.seen] == [uid(w.players[1]), uid(w.players[2])]
    (reply,) = h.fake.ephemerals_for(uid(w.players[2]))
    assert reply.channel_id == int(thread["id"])


async def test_content_over_2000_chars_fails_the_test(h: Harness) -> None:
    with pytest.raises(AssertionError, match="content has 2001 chars > 2000"):
        await h.slash(h.world.players[0], "demo say", text="x" * 2001)
    assert any("2001" in v for v in h.fake.violations)


async def test_unknown_route_fails_the_test(h: Harness) -> None:
    with pytest.raises(
        AssertionError, match=r"unknown Discord route.*GET /guilds/\{guild_id\}/roles"
    ):
        await h.slash(h.world.players[0], "demo roles")
    assert [c.route_template for c in h.fake.unknown_calls] == ["/guilds/{guild_id}/roles"]


async def test_double_acknowledgement_is_detected(h: Harness) -> None:
    payload = h.command_payload(h.world.players[0], "demo say", text="twice")
    await dispatch(h.client, payload)
    await dispatch(h.client, payload)  # the same interaction handled twice
    with pytest.raises(AssertionError, match="acknowledged twice"):
        await settle(h.client)
    assert ("say-failed", "HTTPException", 400, 40060) in h.client.seen


async def test_call_order_shows_a_late_acknowledgement(h: Harness) -> None:
    fi = await h.slash(h.world.players[0], "demo slow")
    assert [c.route_template for c in fi.calls_before_ack] == ["/channels/{channel_id}/messages"]
    with pytest.raises(AssertionError, match="before acknowledging"):
        h.fake.assert_acknowledged_first(fi.id)


async def test_settle_times_out_on_a_stuck_handler(h: Harness) -> None:
    payload = h.command_payload(h.world.players[0], "demo hang")
    await dispatch(h.client, payload)
    with pytest.raises(AssertionError, match=r"(?s)still busy.*hang:"):
        await settle(h.client, timeout=0.3)
    for task in asyncio.all_tasks():
        if task.get_name() == "CommandTree-invoker":
            task.cancel()


async def test_settle_treats_event_waits_as_idle(h: Harness) -> None:
    fi = await h.slash(h.world.players[0], "demo later")  # returns: the handler is idle
    assert h.fake.message(fi.original_message_id).loading
    with pytest.raises(AssertionError, match="never followed up"):
        h.fake.assert_no_pending_thinking()
    h.client.go.set()
    await settle(h.client)
    assert h.fake.message(fi.original_message_id).content == "went"
    h.fake.assert_no_pending_thinking()


async def test_feed_other_gateway_events(h: Harness) -> None:
    await h.slash(h.world.players[0], "demo thread")
    (thread,) = h.fake.threads()
    assert h.client.get_channel(int(thread["id"])) is not None
    await feed(
        h.client,
        "THREAD_DELETE",
        {
            "id": thread["id"],
            "guild_id": thread["guild_id"],
            "parent_id": thread["parent_id"],
            "type": 11,
        },
    )
    await settle(h.client)
    assert h.client.get_channel(int(thread["id"])) is None


async def test_restart_keeps_discord_state_and_buttons_work() -> None:
    world = World()
    first = await Harness.boot(DemoBot(), world)
    await first.slash(world.players[0], "demo start", seats=5)
    board = first.fake.last_public_message(world.channel["id"])
    await first.close()
    second = await Harness.boot(DemoBot(), world, fake=first.fake)
    try:
        await second.click(world.players[2], board, label="Roll 5")
        assert second.client.seen == [("roll", 5, uid(world.players[2]))]
        assert len(second.fake.command_syncs) == 2
        assert second.fake.command_syncs[0].json == second.fake.command_syncs[1].json
    finally:
        await second.close()


async def test_uninstall_restores_discord_py() -> None:
    import discord.http
    import discord.webhook.async_ as wa

    original = wa.AsyncWebhookAdapter.request
    world = World()
    h = await Harness.boot(DemoBot(), world)
    assert wa.AsyncWebhookAdapter.request is not original
    assert discord.http.asyncio is not asyncio
    await h.close()
    assert wa.AsyncWebhookAdapter.request is original
    assert discord.http.asyncio is asyncio
    assert "request" not in vars(h.client.http)


async def test_dm_interaction_payload_parses_as_user_in_dm(h: Harness) -> None:
    w = h.world
    alice = w.players[0]
    dm = P.dm_channel(h.fake.dm_channel_id(uid(alice)), P.user_of(alice))
    fi = await h.slash(alice, "demo admin reset", channel=dm)
    assert "member" not in fi.payload and fi.payload["context"] == 1
    assert h.client.seen[-1][3:] == ("DMChannel", "User")


async def test_stale_snapshot_and_concurrent_clicks(h: Harness) -> None:
    w = h.world
    alice = w.players[0]
    await h.slash(alice, "demo secret")
    prompt = h.fake.last_ephemeral_for(uid(alice))
    old = prompt.snapshot()
    await h.select(alice, prompt, ["1"])
    assert prompt.components == [] and old.components  # the live message lost its select
    await h.select(alice, old, ["3"])  # a stale select still reaches the bot
    assert h.client.seen[-2:] == [("pick", ["1"]), ("pick", ["3"])]
    await h.slash(alice, "demo start", seats=2)
    board = h.fake.last_public_message(w.channel["id"])
    p1 = h.click_payload(w.players[1], board, "demo:roll:2")
    p2 = h.click_payload(w.players[1], board, "demo:roll:2")
    assert p1["id"] != p2["id"]
    await dispatch(h.client, p1)
    await dispatch(h.client, p2)
    await settle(h.client)
    assert len(h.fake.ephemerals_for(uid(w.players[1]))) == 2
