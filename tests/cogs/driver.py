"""A high-level driver for end-to-end tests of the Discord layer.

Built on the offline harness (:mod:`tests.harness`): a :class:`FakeDiscord`
answers every REST call; interactions are fed to discord.py's own
``ConnectionState.parse_interaction_create``. The bot runs on a real
:class:`bot.store.Store` in a temporary SQLite file and a manual clock, so a
test can restart it on the same file and advance time without sleeping.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord

from bot.app import ArenaBot
from bot.engine import Choice, Decision
from bot.engine.decisions import Allocation
from bot.gm import ManualClock
from bot.gm.ids import key_tag
from bot.gm.prompts import groups_of
from tests.harness import payloads as P
from tests.harness import runner
from tests.harness.fake_discord import FakeDiscord, FakeInteraction, FakeMessage

Json = dict[str, Any]
SETTLE = 30.0
"""Seconds a step may take (AI thinking in worker threads included)."""


class Driver:
    token = "fake-token"
    """The token the bot logs in with (a subclass may pick a recognisable one)."""

    def __init__(
        self,
        tmp_path: Path,
        *,
        players: int = 4,
        guild_locale: str = "en-US",
        snowflakes: P.Snowflakes | None = None,
    ) -> None:
        self.snow = snowflakes or P.Snowflakes()
        """Every id this driver's Discord hands out (several drivers sharing one database,
        as bench/bench_shards.py's processes do, each get their own, distinct ids)."""
        self.db_path: Path | str = tmp_path / "arena.sqlite3"
        """The bot's database: this SQLite file unless a PostgreSQL URL is set instead."""
        self.app_id = self.snow()
        self.bot_user = P.bot_user(self.snow())
        self.fake = FakeDiscord(
            application_id=self.app_id, bot_user=self.bot_user, snowflakes=self.snow
        )
        self.guild_id = self.snow()
        self.channel = P.text_channel(self.snow(), "arena", guild_id=self.guild_id)
        self.channel_id = int(self.channel["id"])
        names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
        self.users: list[Json] = []
        for i in range(players + 1):
            u = P.user(self.snow(), names[i])
            self.users.append(u)
        self.spectator = self.users[-1]
        self.users = self.users[:-1]
        self.owner = self.users[0]
        self.guild_locale = guild_locale
        self.guild = P.guild(
            self.guild_id,
            owner_id=int(self.owner["id"]),
            channels=[self.channel],
            members=[P.member(u) for u in [*self.users, self.spectator]],
            preferred_locale=guild_locale,
        )
        self.fake.add_guild(self.guild)
        self.clock = ManualClock()
        self.bot: ArenaBot | None = None
        self.locale: dict[int, str] = {}

    # --- lifecycle -----------------------------------------------------------------------
    async def start(self) -> ArenaBot:
        bot = ArenaBot(self.db_path, self.guild_id, clock=self.clock, tick_seconds=None)
        try:
            await runner.start(bot, self.fake, token=self.token)
            await runner.prime(
                bot,
                bot_user=self.bot_user,
                application_id=self.app_id,
                guilds=[self.guild],
                timeout=SETTLE,
            )
        except BaseException:
            # A failed start must not leave the store's worker thread alive:
            # it would keep the test process from exiting.
            await runner.shutdown(bot, self.fake)
            raise
        self.bot = bot
        await self.settle()
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.settle()
            await runner.shutdown(self.bot, self.fake)
            self.bot = None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Driver]:
        """The bot started for the block, stopped after it, and Discord's limits checked
        (what a test fixture yields)."""
        await self.start()
        try:
            yield self
        finally:
            await self.stop()
        self.fake.assert_clean()

    async def restart(self) -> ArenaBot:
        """A new process on the same SQLite file; Discord's state is kept."""
        await self.stop()
        return await self.start()

    async def settle(self, *, allow_errors: bool = False) -> None:
        """Wait until every task the bot started (handlers, worker threads) is done."""
        await runner.settle(self.bot, SETTLE, allow_errors=allow_errors)

    async def tick(self, seconds: float) -> None:
        """Advance the clock and fire due timers (what the bot's timer loop does)."""
        assert self.bot is not None
        self.clock.advance(seconds)
        await self.bot.gm.tick()
        await self.settle()

    # --- interactions --------------------------------------------------------------------
    def member(self, user: Json, *, manager: bool = False) -> Json:
        perms = P.MEMBER_PERMISSIONS
        if manager:
            perms = discord.Permissions(perms.value | discord.Permissions(manage_guild=True).value)
        return P.member(user, permissions=perms)

    async def dispatch(self, payload: Json) -> FakeInteraction:
        assert self.bot is not None
        fi = await runner.dispatch(self.bot, payload)
        assert fi is not None
        await self.settle()
        return fi

    async def slash(
        self,
        user: Json,
        sub: str,
        *,
        locale: str = "en-US",
        manager: bool = False,
        channel: Json | None = None,
        attachments: dict[str, Json] | None = None,
        **options: Any,
    ) -> FakeInteraction:
        """``attachments``: option name -> attachment JSON (sent in ``data.resolved``)."""
        cmd = self.fake.command("arena", self.guild_id)
        assert cmd is not None, "the /arena command was not synced"
        opts = [P.option(k, v) for k, v in options.items() if v is not None]
        resolved = None
        if attachments:
            opts += [P.option(k, a["id"], type=P.ATTACHMENT) for k, a in attachments.items()]
            resolved = {"attachments": {a["id"]: a for a in attachments.values()}}
        payload = P.application_command(
            self.member(user, manager=manager),
            "arena",
            [P.subcommand(sub, opts)],
            application_id=self.app_id,
            channel=channel or self.channel,
            guild_id=self.guild_id,
            command_id=int(cmd["id"]),
            command_guild_id=self.guild_id,
            locale=locale,
            guild_locale=self.guild_locale,
            resolved=resolved,
        )
        return await self.dispatch(payload)

    async def click(
        self,
        user: Json,
        message: FakeMessage,
        custom_id: str,
        *,
        values: list[str] | None = None,
        locale: str = "en-US",
        dm: bool = False,
    ) -> FakeInteraction:
        comp = next(
            (c for c in self.fake.components(message) if c.get("custom_id") == custom_id), None
        )
        assert comp is not None, f"{custom_id} is not on message {message.id}"
        assert not comp.get("disabled"), f"{custom_id} is disabled"
        channel = self.fake.channels[message.channel_id]
        payload = P.component_interaction(
            user if dm else self.member(user),
            message.to_json(),
            custom_id,
            application_id=self.app_id,
            channel=channel,
            guild_id=None if dm else (message.guild_id or self.guild_id),
            component_type=comp["type"],
            values=values,
            locale=locale,
            guild_locale=self.guild_locale,
        )
        return await self.dispatch(payload)

    async def click_json(self, user: Json, message: Json, custom_id: str) -> FakeInteraction:
        """Click a component of a message as it was then (an old copy of it)."""
        payload = P.component_interaction(
            self.member(user),
            message,
            custom_id,
            application_id=self.app_id,
            channel=self.fake.channels[int(message["channel_id"])],
            guild_id=self.guild_id,
        )
        return await self.dispatch(payload)

    async def press(
        self, user: Json, message: FakeMessage, label: str, **kw: Any
    ) -> FakeInteraction:
        button = self.fake.find_button(message, label=label)
        return await self.click(user, message, button["custom_id"], **kw)

    # --- reading what Discord received ----------------------------------------------------
    def public(self, channel_id: int | None = None) -> list[FakeMessage]:
        """A channel's messages; by default the test channel's and its threads' (a match
        is played in its own thread where one can be made), oldest first."""
        if channel_id is not None:
            return self.fake.messages_in(channel_id)
        chans = [self.channel_id] + [int(t["id"]) for t in self.fake.threads(self.channel_id)]
        found = [m for c in chans for m in self.fake.messages_in(c)]
        return sorted(found, key=lambda m: m.id)

    def ephemerals(self, user: Json) -> list[FakeMessage]:
        return self.fake.ephemerals_for(int(user["id"]))

    def last_ephemeral(self, user: Json) -> FakeMessage:
        return self.fake.last_ephemeral_for(int(user["id"]))

    def replies(self, fi: FakeInteraction) -> list[FakeMessage]:
        """Messages this interaction produced through its token (original + followups)."""
        original = fi.original_message_id
        ids = ([original] if original and original != fi.message_id else []) + fi.followup_ids
        return [self.fake.messages[i] for i in ids if i in self.fake.messages]

    def reply_text(self, fi: FakeInteraction) -> str:
        return "\n".join(m.text() for m in self.replies(fi))

    def with_button(self, label_re: str, channel_id: int | None = None) -> FakeMessage:
        """The latest public message offering a button whose label matches."""
        pat = re.compile(label_re)
        for m in reversed(self.public(channel_id)):
            if any(pat.search(c.get("label") or "") for c in self.fake.components(m)):
                return m
        raise AssertionError(f"no public message with a button matching {label_re!r}")

    def lobby(self, channel_id: int | None = None) -> FakeMessage:
        return self.with_button(r"^(Join|Rejoindre)$", channel_id)

    def round_message(self, channel_id: int | None = None) -> FakeMessage:
        return self.with_button(r"^(Make your choice|Faire mon choix)$", channel_id)

    def uid(self, user: Json) -> int:
        return int(user["id"])

    # --- playing through interactions ------------------------------------------------------
    def user_by_id(self, user_id: int) -> Json:
        return next(u for u in [*self.users, self.spectator] if int(u["id"]) == user_id)

    async def live(self, mid: int) -> Any:
        assert self.bot is not None
        return await self.bot.gm._get(mid)

    def prompt_for(self, messages: list[FakeMessage], decision: Decision) -> FakeMessage:
        """The private prompt (among ``messages``) whose components answer ``decision``."""
        tag = key_tag(decision.key)
        for m in reversed(messages):
            if any(f":{tag}" in (c.get("custom_id") or "") for c in self.fake.components(m)):
                return m
        raise AssertionError(f"no prompt for {decision.key} in {[m.text()[:80] for m in messages]}")

    async def choose_in(
        self, user: Json, prompt: FakeMessage, decision: Decision, option_id: str, **kw: Any
    ) -> FakeInteraction:
        """Click the option ``option_id`` in a private prompt, opening its group first if needed."""
        tag = key_tag(decision.key)
        idx = next(i for i, o in enumerate(decision.options) if o.id == option_id)
        for _ in range(3):
            comps = self.fake.components(prompt)
            for c in comps:
                cid = c.get("custom_id") or ""
                if ":pick:" in cid and cid.endswith(f":{tag}.{idx}"):
                    return await self.click(user, prompt, cid, **kw)
            for c in comps:
                cid = c.get("custom_id") or ""
                if ":sel:" in cid and f":{tag}." in cid:
                    if any(o["value"] == f"o{idx}" for o in c["options"]):
                        return await self.click(user, prompt, cid, values=[f"o{idx}"], **kw)
            opt = decision.options[idx]
            assert opt.group is not None, f"option {option_id} not offered in {comps}"
            g = groups_of(decision, "en").index(opt.group.get("en"))
            for c in comps:
                cid = c.get("custom_id") or ""
                if ":grp:" in cid and cid.endswith(f":{tag}.{g}"):
                    await self.click(user, prompt, cid, **kw)
                    break
                if ":sel:" in cid and any(o["value"] == f"g{g}" for o in c.get("options", [])):
                    await self.click(user, prompt, cid, values=[f"g{g}"], **kw)
                    break
            else:
                raise AssertionError(f"group of {option_id} not offered in {comps}")
            prompt = self.fake.message(prompt.id)
        raise AssertionError("could not reach the option")

    async def answer(
        self, user: Json, decision: Decision, option_id: str, *, channel_id: int | None = None
    ) -> FakeInteraction:
        """Make a decision the way a player does: the public button, then the private prompt."""
        fi = await self.press(user, self.round_message(channel_id), "Make your choice")
        prompt = self.prompt_for(self.replies(fi), decision)
        return await self.choose_in(user, prompt, decision, option_id)

    async def answer_draft(
        self,
        user: Json,
        decision: Decision,
        choice: Choice,
        *,
        channel_id: int | None = None,
        every_amount: bool = False,
    ) -> FakeInteraction:
        """Build a structured answer (Many, Order, Allocation) in its draft prompt, as a
        player does: the public button (in any language), each option or amount, then Confirm.

        An amount at its quantity's minimum is not entered (a fresh draft starts there),
        unless ``every_amount``: a draft the game refused keeps what was entered in it."""
        board = self.round_message(channel_id)
        hand = next(c for c in self.fake.components(board) if ":hand:" in c["custom_id"])
        fi = await self.click(user, board, hand["custom_id"])
        prompt = self.prompt_for(self.replies(fi), decision)

        def find(kind: str, end: str) -> str | None:
            for c in self.fake.components(self.fake.message(prompt.id)):
                cid = c.get("custom_id") or ""
                if f":{kind}:" in cid and cid.endswith(end):
                    return cid
            return None

        for oid in choice.options or []:
            idx = next(i for i, o in enumerate(decision.options) if o.id == oid)
            button = find("dopt", f".{idx}")
            if button is not None:
                await self.click(user, self.fake.message(prompt.id), button)
            else:
                select = find("dsel", f".o{idx // 25}")
                assert select is not None, f"option {oid} not offered"
                await self.click(user, self.fake.message(prompt.id), select, values=[str(idx)])
        ask = decision.ask
        if isinstance(ask, Allocation):
            for qi, q in enumerate(ask.quantities):
                amount = (choice.amounts or {}).get(q.id, q.min)
                if amount == q.min and not every_amount:
                    continue
                focus = find("dsel", ".f")
                if focus is not None:
                    await self.click(user, self.fake.message(prompt.id), focus, values=[str(qi)])
                select = find("dsel", f".q{qi}")
                assert select is not None, f"no amounts offered for {q.id}"
                await self.click(user, self.fake.message(prompt.id), select, values=[str(amount)])
        confirm = find("dok", "")
        assert confirm is not None, "no Confirm button"
        return await self.click(user, self.fake.message(prompt.id), confirm)

    async def play_out(
        self,
        mid: int,
        rnd: random.Random,
        *,
        channel_id: int | None = None,
        max_decisions: int = 3000,
        chooser: Callable[[Any, Decision], str] | None = None,
    ) -> int:
        """Answer every human decision through interactions until the match ends."""
        for n in range(max_decisions):
            live = await self.live(mid)
            if live is None:
                return n
            match = live.match
            humans = [d for d in match.pending() if not match.seats[d.seat].ai]
            assert humans, "a live match must wait for a human"
            d = humans[0]
            user = self.user_by_id(match.seats[d.seat].user_id)
            if d.structured:
                # A whole answer built in a draft: the game's AI gives a legal one.
                await self.answer_draft(user, d, match.ai_choice(d), channel_id=channel_id)
                continue
            option = chooser(match, d) if chooser else rnd.choice(d.options).id
            await self.answer(user, d, option, channel_id=channel_id)
        raise AssertionError(f"match {mid} not over after {max_decisions} decisions")
