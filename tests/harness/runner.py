"""Drive a discord.py client without a gateway: start, prime, dispatch, settle.

* :func:`start` runs discord.py's real ``Client.login`` (``GET /users/@me``,
  ``GET /oauth2/applications/@me``, then the bot's ``setup_hook``: extensions,
  ``tree.sync()``, ``add_view``, ``add_dynamic_items``) against a
  :class:`~tests.harness.fake_discord.FakeDiscord`; no socket is opened.
* :func:`prime` feeds READY and GUILD_CREATE to ``client._connection`` so the
  caches (guilds, channels, members, ``client.user``) are filled.
* :func:`dispatch` feeds an INTERACTION_CREATE payload to
  ``ConnectionState.parse_interaction_create``, exactly as the gateway would.
* :func:`settle` waits until every task spawned since is finished (tasks
  parked in a long ``asyncio.sleep``, such as view timeouts or the bot's
  decision timers, count as idle), then fails on any error logged meanwhile
  and on any Discord API misuse recorded by the fake.

:class:`Harness` bundles these with the payload builders for terse tests.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import traceback
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord
import discord.client

from . import payloads as P
from .fake_discord import CURRENT_INTERACTION, FakeDiscord, FakeInteraction, FakeMessage

Json = dict[str, Any]

DEFAULT_IGNORED_TASK_PREFIXES = ("discord-ui-view-timeout-", "arena-collector")
"""Tasks that wait forever by design: discord.py's view timeouts, and the long-lived bot's
garbage collector (:class:`bot.collector.QuietCollector`, which only sleeps and looks)."""


# ---------------------------------------------------------------------------
# task tracking and error capture
# ---------------------------------------------------------------------------


class _TaskTracker:
    """Task factory recording every task created on the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.tasks: list[asyncio.Task[Any]] = []
        self._previous = loop.get_task_factory()
        loop.set_task_factory(self._factory)  # type: ignore[arg-type]

    def _factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        if self._previous is not None:
            task = self._previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        self.tasks.append(task)
        if len(self.tasks) % 1024 == 0:
            self.tasks = [t for t in self.tasks if not _finished_quietly(t)]
        return task


def _finished_quietly(task: asyncio.Task[Any]) -> bool:
    """Done with nothing for :func:`settle` to report (no exception left unretrieved): a
    long run (the load bench) forgets it rather than keep every finished coroutine."""
    return task.done() and (task.cancelled() or not getattr(task, "_log_traceback", False))


class _ErrorLog(logging.Handler):
    """Collects ERROR records (discord.py logs handler exceptions there)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.seen = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_trackers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _TaskTracker] = (
    weakref.WeakKeyDictionary()
)
_error_log = _ErrorLog()


def _ensure_tracking() -> _TaskTracker:
    loop = asyncio.get_running_loop()
    tracker = _trackers.get(loop)
    if tracker is None:
        tracker = _trackers[loop] = _TaskTracker(loop)
    root = logging.getLogger()
    if _error_log not in root.handlers:
        root.addHandler(_error_log)
    return tracker


def error_records() -> list[logging.LogRecord]:
    """Every ERROR+ log record since tracking began (all loggers)."""
    return list(_error_log.records)


#: Coroutines that wait for something outside the current burst of work (a
#: user action, another interaction, a timer): a task suspended inside one of
#: them is idle, not busy.
_IDLE_CODES = {
    asyncio.Event.wait.__code__,
    asyncio.Condition.wait.__code__,
    asyncio.Queue.get.__code__,
    discord.Client.wait_for.__code__,
    discord.ui.view.BaseView.wait.__code__,
}


def _chain(task: asyncio.Task[Any]) -> tuple[list[Any], Any]:
    """The suspended coroutines of ``task``, outermost first, and what the
    innermost one awaits (a future, or None)."""
    coros = []
    coro: Any = task.get_coro()
    while coro is not None and hasattr(coro, "cr_code"):
        coros.append(coro)
        coro = coro.cr_await
    return coros, coro


def _idle(task: asyncio.Task[Any], threshold: float, depth: int = 0) -> bool:
    """Whether ``task`` waits for an outside event rather than for work in
    progress: blocked in ``asyncio.sleep(d >= threshold)``, in an Event /
    Condition / Queue wait, ``Client.wait_for``, ``View.wait``, in
    ``asyncio.wait_for`` around such a wait, or awaiting a task that is idle.
    Anything else (REST, aiosqlite, worker threads, locks) is busy."""
    if depth > 20:
        return False
    coros, awaited = _chain(task)
    if not coros:
        return False
    for coro in coros:
        if coro.cr_code in _IDLE_CODES:
            return True
    inner = coros[-1]
    if inner.cr_code is asyncio.sleep.__code__:
        return (inner.cr_frame.f_locals.get("delay", 0) if inner.cr_frame else 0) >= threshold
    if inner.cr_code is asyncio.wait_for.__code__ and inner.cr_frame is not None:
        fut = inner.cr_frame.f_locals.get("fut")
        if isinstance(fut, asyncio.Task):
            return _idle(fut, threshold, depth + 1)
        return False
    if isinstance(awaited, asyncio.Task):
        return _idle(awaited, threshold, depth + 1)
    return False


def _describe(task: asyncio.Task[Any]) -> str:
    """Task name and where it is suspended, outermost coroutine first."""
    where = []
    coro = task.get_coro()
    while coro is not None and hasattr(coro, "cr_code"):
        frame = coro.cr_frame
        where.append(f"{coro.cr_code.co_name}:{frame.f_lineno if frame else '?'}")
        coro = coro.cr_await
    if coro is not None:
        where.append(type(coro).__name__)
    return f"{task.get_name()} at {' -> '.join(where) or '?'}"


async def settle(
    client: discord.Client | None = None,
    timeout: float = 5.0,
    *,
    ignore: Callable[[asyncio.Task[Any]], bool] | None = None,
    park_threshold: float = 1.0,
    allow_errors: bool = False,
    check_fake: bool = True,
) -> None:
    """Wait until every task created since tracking began is done or idle
    (see :func:`_idle`: long sleeps, event/queue waits, ``wait_for``...).

    Fails (AssertionError) after ``timeout`` seconds listing the busy tasks,
    when an ERROR was logged since the previous settle (a handler raised;
    pass ``allow_errors=True`` when the test expects one) and when the
    client's FakeDiscord recorded a violation (``check_fake=False`` to skip)."""
    tracker = _ensure_tracking()
    loop = asyncio.get_running_loop()
    me = asyncio.current_task()
    deadline = loop.time() + timeout
    quiet_rounds = 0
    while True:
        await asyncio.sleep(0)
        busy = []
        for t in tracker.tasks:
            if t.done() or t is me:
                continue
            if t.get_name().startswith(DEFAULT_IGNORED_TASK_PREFIXES):
                continue
            if ignore is not None and ignore(t):
                continue
            if _idle(t, park_threshold):
                continue
            busy.append(t)
        if not busy:
            quiet_rounds += 1
            if quiet_rounds >= 3:
                break
            continue
        quiet_rounds = 0
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise AssertionError(
                f"settle(): {len(busy)} task(s) still busy after {timeout}s:\n  "
                + "\n  ".join(_describe(t) for t in busy)
            )
        await asyncio.wait(busy, timeout=min(remaining, 0.05), return_when=asyncio.FIRST_COMPLETED)
    failures = []
    for t in tracker.tasks:
        # only exceptions nobody retrieved (asyncio would log them at GC time)
        if t.done() and not t.cancelled() and getattr(t, "_log_traceback", False):
            exc = t.exception()  # retrieves it: asyncio will not log it again
            tb = "".join(traceback.format_exception(exc)) if exc is not None else ""
            failures.append(f"task {t.get_name()} raised {exc!r}\n{tb}")
    tracker.tasks = [t for t in tracker.tasks if not t.done()]
    new = _error_log.records[_error_log.seen :]
    _error_log.seen = len(_error_log.records)
    if not allow_errors:
        for r in new:
            text = f"{r.name}: {r.getMessage()}"
            if r.exc_info:
                text += "\n" + "".join(traceback.format_exception(*r.exc_info))
            failures.append(text)
    if failures:
        raise AssertionError("errors while handling:\n" + "\n".join(failures))
    fake = getattr(client, "_fake_discord", None) if client is not None else None
    if check_fake and fake is not None:
        fake.assert_clean()


# ---------------------------------------------------------------------------
# lifecycle
# ---------------------------------------------------------------------------


async def ensure_loop(client: discord.Client) -> None:
    """What ``login`` does first: bind the client to the running loop."""
    _ensure_tracking()
    if client.loop is discord.client._loop:
        await client._async_setup_hook()


async def start(client: discord.Client, fake: FakeDiscord, *, token: str = "fake-token") -> None:
    """Install ``fake`` on ``client`` (if needed) and run discord.py's real
    ``Client.login``: the bot's ``setup_hook`` runs with REST faked."""
    _ensure_tracking()
    _error_log.seen = len(_error_log.records)  # errors of earlier tests are not ours
    if getattr(client, "_fake_discord", None) is not fake:
        fake.install(client)
    await ensure_loop(client)
    await client.login(token)


async def run_setup_hook(client: discord.Client, fake: FakeDiscord) -> None:
    """The startup of :func:`start` without ``Client.login``: bind the loop,
    set the token and application id, run ``setup_hook``.  ``client.user``
    stays None until :func:`prime`; prefer :func:`start`, which runs the real
    login sequence."""
    _ensure_tracking()
    _error_log.seen = len(_error_log.records)
    if getattr(client, "_fake_discord", None) is not fake:
        fake.install(client)
    await ensure_loop(client)
    if client._connection.application_id is None:
        client._connection.application_id = fake.application_id
    await client.setup_hook()


async def prime(
    client: discord.Client,
    *,
    bot_user: Json,
    application_id: int,
    guilds: Sequence[Json] = (),
    timeout: float = 5.0,
) -> None:
    """Feed READY then GUILD_CREATE (per guild) into ``client._connection`` and
    wait for discord.py's ready sequence (``on_ready`` runs)."""
    await ensure_loop(client)
    state = client._connection
    fake: FakeDiscord | None = getattr(client, "_fake_discord", None)
    if fake is not None:
        for g in guilds:
            fake.add_guild(g)
    saved_timeout = state.guild_ready_timeout
    state.guild_ready_timeout = 0.01
    saved_chunk = state._chunk_guilds
    state._chunk_guilds = False  # there is no gateway to request members from
    try:
        state.parse_ready(
            copy.deepcopy(
                P.ready(
                    bot_user,
                    application_id=application_id,
                    guild_ids=[int(g["id"]) for g in guilds],
                )
            )
        )
        if state.application_id is None:
            state.application_id = int(application_id)
        for g in guilds:
            state.parse_guild_create(copy.deepcopy(g))
        task = state._ready_task
        if task is not None:
            await asyncio.wait_for(asyncio.shield(task), timeout)
    finally:
        state.guild_ready_timeout = saved_timeout
        state._chunk_guilds = saved_chunk
    await settle(client, timeout)


async def dispatch(client: discord.Client, payload: Json) -> FakeInteraction | None:
    """Feed INTERACTION_CREATE ``payload`` to discord.py's parser.  Tasks it
    spawns remember the interaction id, so each REST call they make is
    attributed to it.  Call :func:`settle` to wait for the handling."""
    _ensure_tracking()
    fake: FakeDiscord | None = getattr(client, "_fake_discord", None)
    fi = fake.register_interaction(payload) if fake is not None else None
    token = CURRENT_INTERACTION.set(int(payload["id"]))
    try:
        # Not copied: discord.py only reads it, and each payload is built afresh.
        client._connection.parse_interaction_create(payload)
    finally:
        CURRENT_INTERACTION.reset(token)
    await asyncio.sleep(0)
    return fi


async def feed(client: discord.Client, event: str, data: Json) -> None:
    """Feed any other gateway event (``"THREAD_DELETE"``, ``"CHANNEL_DELETE"``,
    ``"GUILD_MEMBER_REMOVE"``...) to its discord.py parser, as the gateway
    would; call :func:`settle` afterwards."""
    _ensure_tracking()
    parser = client._connection.parsers.get(event.upper())
    if parser is None:
        raise AssertionError(f"discord.py has no parser for gateway event {event!r}")
    parser(copy.deepcopy(data))
    await asyncio.sleep(0)


async def shutdown(client: discord.Client, fake: FakeDiscord | None = None) -> None:
    """Close the client (a restart: then install the same fake on a new one)."""
    await client.close()
    if fake is not None:
        fake.uninstall()


# ---------------------------------------------------------------------------
# a convenience facade
# ---------------------------------------------------------------------------


class Harness:
    """One bot against one FakeDiscord, with a ready-made world.

    ``world`` is a :class:`World` (users, guild, channel); every action builds
    the payload Discord would send, dispatches it and settles."""

    def __init__(self, client: discord.Client, fake: FakeDiscord, world: World) -> None:
        self.client, self.fake, self.world = client, fake, world
        self.settle_timeout = 5.0

    @classmethod
    async def boot(
        cls, client: discord.Client, world: World, *, fake: FakeDiscord | None = None
    ) -> Harness:
        """install + login (setup_hook) + READY/GUILD_CREATE, then settle."""
        fake = fake or FakeDiscord(application_id=world.application_id, bot_user=world.bot)
        await start(client, fake)
        await prime(
            client, bot_user=world.bot, application_id=world.application_id, guilds=[world.guild]
        )
        return cls(client, fake, world)

    async def close(self) -> None:
        await shutdown(self.client, self.fake)

    async def run(self, payload: Json, *, allow_errors: bool = False) -> FakeInteraction:
        fi = await dispatch(self.client, payload)
        await settle(self.client, self.settle_timeout, allow_errors=allow_errors)
        assert fi is not None
        return fi

    def _common(self, who: Json, channel: Json | None, locale: str | None) -> dict[str, Any]:
        channel = channel or self.world.channel
        in_dm = channel.get("type") == P.DM
        return dict(
            application_id=self.world.application_id,
            channel=channel,
            guild_id=None if in_dm else int(self.world.guild["id"]),
            locale=locale or self.world.locale_of(who),
            guild_locale=None if in_dm else self.world.guild["preferred_locale"],
        )

    def command_payload(
        self,
        who: Json,
        command: str,
        *,
        channel: Json | None = None,
        locale: str | None = None,
        focused: str | None = None,
        **options: Any,
    ) -> Json:
        """Payload for ``/group sub opt:value`` ("arena start", game="mad").

        Uses the id and guild of the command as last synced to the fake."""
        names = command.split()
        in_dm = (channel or self.world.channel).get("type") == P.DM
        opts, people = [], []
        for k, v in options.items():
            if isinstance(v, dict):  # a user or member payload: a USER option
                people.append(v)
                opts.append(P.option(k, P.user_of(v)["id"], type=P.USER, focused=k == focused))
            else:
                opts.append(P.option(k, v, focused=k == focused))
        if len(names) == 3:
            tree_opts = [P.subcommand_group(names[1], [P.subcommand(names[2], opts)])]
        elif len(names) == 2:
            tree_opts = [P.subcommand(names[1], opts)]
        else:
            tree_opts = opts
        who = (
            self.world.as_member(who)
            if (channel or self.world.channel).get("type") != P.DM
            else self.world.as_user(who)
        )
        gid = int(self.world.guild["id"])
        synced = self.fake.command(names[0], gid)
        return P.application_command(
            who,
            names[0],
            tree_opts,
            command_id=int(synced["id"]) if synced else None,
            command_guild_id=int(synced["guild_id"]) if synced and synced.get("guild_id") else None,
            autocomplete=focused is not None,
            resolved=P.resolved_users(*(self.world.as_member(p) for p in people), guild=not in_dm)
            if people
            else None,
            **self._common(who, channel, locale),
        )

    async def slash(
        self,
        who: Json,
        command: str,
        *,
        channel: Json | None = None,
        locale: str | None = None,
        allow_errors: bool = False,
        **options: Any,
    ) -> FakeInteraction:
        return await self.run(
            self.command_payload(who, command, channel=channel, locale=locale, **options),
            allow_errors=allow_errors,
        )

    async def autocomplete(
        self, who: Json, command: str, focused: str, *, locale: str | None = None, **options: Any
    ) -> list[Json]:
        fi = await self.run(
            self.command_payload(who, command, locale=locale, focused=focused, **options)
        )
        return fi.choices or []

    def _channel_of(self, message: FakeMessage) -> Json:
        ch = self.fake.channels.get(message.channel_id)
        if ch is None:
            raise AssertionError(f"message {message.id} is in unknown channel {message.channel_id}")
        return ch

    async def click(
        self,
        who: Json,
        message: FakeMessage,
        *,
        locale: str | None = None,
        allow_errors: bool = False,
        **criteria: Any,
    ) -> FakeInteraction:
        """Click the button of ``message`` matching ``criteria`` (label=...,
        custom_id=..., custom_id_prefix=..., label_contains=...).  Clicking a
        disabled button fails the test (Discord would not send it)."""
        button = self.fake.find_button(message, **criteria)
        if button.get("disabled"):
            raise AssertionError(
                f"button {button.get('label')!r} is disabled: a user cannot click it"
            )
        return await self.run(
            self.click_payload(who, message, button["custom_id"], locale=locale),
            allow_errors=allow_errors,
        )

    def click_payload(
        self,
        who: Json,
        message: FakeMessage,
        custom_id: str,
        *,
        locale: str | None = None,
        component_type: int = P.BUTTON,
        values: Sequence[str] | None = None,
    ) -> Json:
        channel = self._channel_of(message)
        if message.ephemeral_for is not None and message.ephemeral_for != int(P.user_of(who)["id"]):
            raise AssertionError(
                f"user {P.user_of(who)['id']} cannot see ephemeral message {message.id}"
            )
        who = self.world.as_user(who) if channel.get("type") == P.DM else self.world.as_member(who)
        return P.component_interaction(
            who,
            message.to_json(),
            custom_id,
            component_type=component_type,
            values=values,
            **self._common(who, channel, locale),
        )

    async def select(
        self,
        who: Json,
        message: FakeMessage,
        values: Sequence[str],
        *,
        locale: str | None = None,
        allow_errors: bool = False,
        **criteria: Any,
    ) -> FakeInteraction:
        """Choose ``values`` in the select of ``message`` matching ``criteria``."""
        sel = self.fake.find_select(message, **criteria)
        if sel.get("disabled"):
            raise AssertionError(f"select {sel.get('custom_id')!r} is disabled")
        allowed = {o["value"] for o in sel.get("options", [])}
        if sel.get("type") == P.STRING_SELECT and not set(values) <= allowed:
            raise AssertionError(
                f"values {list(values)} not among the select's options {sorted(allowed)}"
            )
        payload = self.click_payload(
            who, message, sel["custom_id"], locale=locale, component_type=sel["type"], values=values
        )
        return await self.run(payload, allow_errors=allow_errors)

    async def submit_modal(
        self,
        who: Json,
        opened_by: FakeInteraction,
        values: Mapping[str, str],
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Submit the modal the bot answered ``opened_by`` with."""
        if opened_by.modal is None:
            raise AssertionError(f"interaction {opened_by.id} was not answered with a modal")
        channel = self.fake.channels[opened_by.channel_id]
        msg = self.fake.messages.get(opened_by.message_id) if opened_by.message_id else None
        who = self.world.as_user(who) if channel.get("type") == P.DM else self.world.as_member(who)
        payload = P.modal_submit(
            who,
            opened_by.modal["custom_id"],
            values,
            modal=opened_by.modal,
            message_data=msg.to_json() if msg else None,
            **self._common(who, channel, locale),
        )
        return await self.run(payload)


class World:
    """A guild with one text channel, the bot and some players.

    ``players`` are member payloads; ``locales`` maps user id -> client
    locale sent in interactions (default "en-US")."""

    def __init__(
        self,
        *,
        player_names: Iterable[str] = ("alice", "bob", "carol", "dave"),
        preferred_locale: str = "en-US",
        snowflakes: P.Snowflakes | None = None,
        extra_channels: Iterable[str] = (),
    ) -> None:
        new = snowflakes or P.snowflake
        self.application_id = new()
        self.bot = P.bot_user(self.application_id)
        self.owner = P.user(new(), "owner")
        self.players = [P.member(P.user(new(), n)) for n in player_names]
        gid = new()
        self.admin_role = P.role(new(), "Admin", permissions=P.ADMIN_PERMISSIONS, position=1)
        self.channel = P.text_channel(new(), "arena", guild_id=gid)
        self.channels = [self.channel] + [
            P.text_channel(new(), n, guild_id=gid) for n in extra_channels
        ]
        members = [P.member(self.owner), P.member(self.bot), *self.players]
        self.guild = P.guild(
            gid,
            owner_id=int(self.owner["id"]),
            channels=self.channels,
            members=members,
            roles=[self.admin_role],
            preferred_locale=preferred_locale,
        )
        self.locales: dict[int, str] = {}

    def locale_of(self, who: Json) -> str:
        return self.locales.get(int(P.user_of(who)["id"]), "en-US")

    def as_user(self, who: Json) -> Json:
        return P.user_of(who)

    def as_member(self, who: Json) -> Json:
        """Interaction member form, with permissions (admins: all)."""
        if P.member_of(who) is None:
            uid = who["id"]
            found = [m for m in self.guild["members"] if m["user"]["id"] == uid]
            who = found[0] if found else P.member(who)
        if "permissions" in who:
            return who
        is_admin = (
            str(self.admin_role["id"]) in who.get("roles", [])
            or who["user"]["id"] == self.owner["id"]
        )
        perms = P.ADMIN_PERMISSIONS if is_admin else P.MEMBER_PERMISSIONS
        return {**who, "permissions": str(perms.value)}

    def user_id(self, who: Json) -> int:
        return int(P.user_of(who)["id"])
