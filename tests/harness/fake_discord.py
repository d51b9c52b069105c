"""A fake Discord REST API at discord.py's HTTP boundary.

:class:`FakeDiscord` sits *below* discord.py, so the library's own code paths
run unchanged: ``HTTPClient.request`` (rate limits, retries, exception
mapping) and ``AsyncWebhookAdapter.request`` (interaction callbacks,
followups, edits of the original response) are wrapped to record each call
with its ``Route``, then they run for real against a fake ``aiohttp`` session
that answers from an in-memory model of Discord (channels, messages,
interactions, commands).  Errors therefore surface as the real
``discord.Forbidden`` / ``NotFound`` / ``HTTPException`` built by discord.py.

Every payload is checked against Discord's limits (:mod:`tests.harness.limits`);
a violation or a call to a route the fake does not know raises
``AssertionError`` at the call site AND is kept in :attr:`FakeDiscord.violations`
(a bot that catches ``Exception`` cannot hide it: call :meth:`assert_clean`).

discord.py sleeps on 429s and 5xx retries (``asyncio.sleep(retry_after)``);
while installed, the ``asyncio`` name inside ``discord.http`` and
``discord.webhook.async_`` is replaced by a proxy whose ``sleep`` only yields
once and adds the delay to :attr:`FakeDiscord.slept` (simulated time), so the
retry logic runs for real without waiting.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import functools
import itertools
import mimetypes
import re
import struct
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import discord
import discord.http
import discord.webhook.async_ as webhook_async
import orjson
from multidict import CIMultiDict

from . import limits
from . import payloads as P

Json = dict[str, Any]

#: The call being made by the current task (set by the request wrappers).
_CURRENT_CALL: contextvars.ContextVar[Call | None] = contextvars.ContextVar(
    "fake_discord_call", default=None
)
#: The interaction whose handling the current task belongs to (set by runner.dispatch;
#: tasks created while handling it inherit it).
CURRENT_INTERACTION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "fake_discord_interaction", default=None
)

_ORIGINAL_WEBHOOK_REQUEST = webhook_async.AsyncWebhookAdapter.request
_REAL_SLEEP = asyncio.sleep

now = time.monotonic
"""The harness's clock: asyncio's ``loop.time()``, read afresh. uvloop's ``loop.time()`` is
the time its current turn of the loop began (libuv caches it), which would make a call
made late in a long turn look as early as the turn's start."""
_active_fakes: list[FakeDiscord] = []

TOKEN_LIFE = 15 * 60.0
"""Seconds an interaction's token may be used for its webhook (Discord: 15 minutes)."""

ERROR_MESSAGES = {
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10013: "Unknown User",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    40060: "Interaction has already been acknowledged.",
    50001: "Missing Access",
    50007: "Cannot send messages to this user",
    50013: "Missing Permissions",
    50027: "Invalid Webhook Token",
    50035: "Invalid Form Body",
    0: "",
}
REASONS = {
    200: "OK",
    204: "No Content",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


# ---------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------


@dataclass
class Call:
    """One REST call made by discord.py (one record even when retried)."""

    seq: int
    via: str  # 'http' (HTTPClient.request) or 'webhook' (AsyncWebhookAdapter.request)
    method: str
    route_template: str  # e.g. '/channels/{channel_id}/messages'
    path: str  # e.g. '/channels/123/messages'
    json: Any = None
    files: list[tuple[str, int, bytes]] = field(default_factory=list)
    params: dict[str, Any] | None = None
    reason: str | None = None
    interaction_id: int | None = None  # the dispatched interaction this call descends from
    time: float = 0.0  # now() when the call started
    statuses: list[int] = field(default_factory=list)  # one per attempt
    response: Any = None  # body of the last attempt
    error: str | None = None  # exception that left discord.py, if any
    slept: list[float] = field(default_factory=list)  # simulated retry waits
    fake: FakeDiscord | None = field(default=None, repr=False, compare=False)

    @property
    def status(self) -> int | None:
        return self.statuses[-1] if self.statuses else None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def __repr__(self) -> str:
        via = "W" if self.via == "webhook" else "H"
        return f"<Call #{self.seq} {via} {self.method} {self.path} -> {self.statuses}>"


def _same(data: Any) -> Any:
    return data


@dataclass
class FakeMessage:
    """Discord's view of one message: what was sent, then each edit applied."""

    id: int
    channel_id: int
    guild_id: int | None
    author: Json
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Json] = field(default_factory=list)
    files: dict[int, bytes] = field(default_factory=dict)  # attachment id -> content
    flags: int = 0
    type: int = 0
    ephemeral_for: int | None = None  # user id that alone sees this ephemeral message
    interaction_id: int | None = None  # set for interaction responses / followups
    interaction_meta: Json | None = None
    webhook_id: int | None = None
    edits: list[Json] = field(default_factory=list)  # every edit payload, in order
    deleted: bool = False
    edited: bool = False
    reactions: list[str] = field(default_factory=list)
    pinned: bool = False
    thread_id: int | None = None
    thread_json: Json | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        who = f" ephemeral_for={self.ephemeral_for}" if self.ephemeral_for else ""
        gone = " deleted" if self.deleted else ""
        return f"<FakeMessage {self.id} in {self.channel_id}{who}{gone} {self.content[:40]!r}>"

    def snapshot(self) -> FakeMessage:
        """A frozen copy: what a user's screen still shows after later edits
        (click its buttons to test stale prompts)."""
        return copy.deepcopy(self)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & P.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & P.LOADING)

    def file_bytes(self, filename: str) -> bytes:
        for a in self.attachments:
            if a["filename"] == filename:
                if int(a["id"]) not in self.files:
                    raise AssertionError(
                        f"message {self.id}'s {filename!r} was uploaded while the fake kept "
                        "no file's bytes (keep_files off)"
                    )
                return self.files[int(a["id"])]
        raise AssertionError(
            f"message {self.id} has no attachment {filename!r}: {[a['filename'] for a in self.attachments]}"
        )

    def text(self) -> str:
        """Content plus every embed text, for substring assertions."""
        parts = [self.content or ""]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        for c in iter_components(self.components):
            if c.get("type") == 10:  # components v2 text display
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    def to_json(self, fresh: bool = True) -> Json:
        """The message object as Discord returns it (and embeds in interactions).

        ``fresh=False``: its lists and objects are the message's own, for an answer that
        is serialized at once (the fake replaces them on an edit, never changes them)."""
        clone = P.clone_json if fresh else _same
        data: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author,
            "timestamp": P.snowflake_time(self.id),
            "edited_timestamp": P.snowflake_time(self.id) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": clone(self.attachments),
            "embeds": clone(self.embeds),
            "pinned": self.pinned,
            "flags": self.flags,
            "components": clone(self.components),
            "reactions": [],
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_meta is not None:
            data["interaction_metadata"] = clone(self.interaction_meta)
        if self.thread_json is not None:
            data["thread"] = clone(self.thread_json)
        return data


def kept_json(value: Any) -> bytes:
    """``value`` as orjson bytes the size of their text. orjson (3.12 on) returns its
    output in a buffer of at least 4 kB that it never shrinks: kept, each packed field
    held 4 kB or more, and a load run's fake grew by 200 MB a minute (page faults and
    cache misses the bot's figures paid). The copy is exact, and costs a fraction of the
    encoding."""
    return bytes(memoryview(orjson.dumps(value)))


def _packed(name: str, empty: Any) -> property:
    """An attribute kept as orjson bytes (``None`` as ``empty``): decoded on each read,
    so a reader gets its own copy, and assigning is the only way to change it."""
    key = "_packed_" + name

    def get(self: Any) -> Any:
        raw = self.__dict__.get(key)
        return copy.copy(empty) if raw is None else orjson.loads(raw)

    def set_(self: Any, value: Any) -> None:
        self.__dict__[key] = None if value is None else kept_json(value)

    return property(get, set_)


def _tupled(name: str) -> property:
    """A list attribute kept as a tuple of plain values; reads give a new list."""
    key = "_tupled_" + name

    def get(self: Any) -> list[Any]:
        return list(self.__dict__.get(key, ()))

    def set_(self: Any, value: Any) -> None:
        self.__dict__[key] = tuple(value)

    return property(get, set_)


class PackedMessage(FakeMessage):
    """A :class:`FakeMessage` whose JSON is kept serialized (``keep_history`` off).

    The load benchmark's fake keeps every message of a long run, tens of thousands, in
    the bot's own process; as lists and dicts (a v2 message's components nest a dozen)
    they made half of what the bot's young garbage collections scanned, a cost the bot
    does not have against the real Discord, which keeps them on its side. Packed, a
    message is one tracked object. The fake only ever replaces these attributes (see
    :meth:`FakeMessage.to_json`), so reads decoding a copy change nothing."""

    author = _packed("author", {})
    embeds = _packed("embeds", [])
    components = _packed("components", [])
    attachments = _packed("attachments", [])
    interaction_meta = _packed("interaction_meta", None)
    thread_json = _packed("thread_json", None)
    edits = _tupled("edits")
    reactions = _tupled("reactions")


@dataclass
class FakeInteraction:
    """What Discord knows of one dispatched interaction and its responses."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    application_id: int
    payload: Json
    message_id: int | None = None  # the clicked message (component interactions)
    dispatched_at: float = 0.0
    callbacks: list[Json] = field(default_factory=list)  # every callback payload received
    acked_at: float | None = None
    ack_seq: int | None = None
    original_message_id: int | None = None
    #: messages created by followups (the first followup after a thinking
    #: defer fills the original message instead: see original_message_id)
    followup_ids: list[int] = field(default_factory=list)
    modal: Json | None = None
    choices: list[Json] | None = None
    calls: list[Call] = field(default_factory=list)
    expired: bool = False
    dispatch_count: int = 1

    @property
    def response_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def acknowledged(self) -> bool:
        return bool(self.callbacks)

    @property
    def ephemeral(self) -> bool:
        """Whether the first response was ephemeral (message or deferral)."""
        if not self.callbacks:
            return False
        return bool(((self.callbacks[0].get("data") or {}).get("flags") or 0) & P.EPHEMERAL)

    @property
    def calls_before_ack(self) -> list[Call]:
        """REST calls this interaction's handling made before acknowledging it:
        each is a risk for the 3-second deadline."""
        out = []
        for c in self.calls:
            if self.ack_seq is not None and c.seq >= self.ack_seq:
                break
            out.append(c)
        return out

    @property
    def ack_delay(self) -> float | None:
        """Loop seconds from dispatch to the first callback (advisory)."""
        return None if self.acked_at is None else self.acked_at - self.dispatched_at


class PackedInteraction(FakeInteraction):
    """A handled :class:`FakeInteraction` made compact by :meth:`FakeDiscord.lighten`
    when ``keep_history`` is off: what later answers read (its callbacks' types and
    flags, its follow-ups, its payload's owners) kept as bytes and tuples, so the load
    benchmark's thousands of past clicks are not scanned by the bot's collector (see
    :class:`PackedMessage`). Its calls are gone (``call_count``, ``on_call``)."""

    payload = _packed("payload", {})
    callbacks = _packed("callbacks", [])
    modal = _packed("modal", None)
    choices = _packed("choices", None)
    followup_ids = _tupled("followup_ids")
    calls = _tupled("calls")

    @classmethod
    def pack(cls, fi: FakeInteraction) -> None:
        """Turn ``fi`` into a packed one in place (others hold it: tokens, clients)."""
        names = ("payload", "callbacks", "modal", "choices", "followup_ids")
        values = {name: fi.__dict__.pop(name) for name in names}
        fi.__dict__.pop("calls")
        fi.__class__ = cls
        for name, value in values.items():
            setattr(fi, name, value)
        fi.calls = []


@dataclass
class FaultRule:
    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    retry_after: float | None
    times: int | None  # None = forever
    is_global: bool = False
    target: int | None = None  # only calls editing or deleting this message, by any route
    hits: int = 0

    def matches(self, call: Call) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.method not in ("*", call.method) or not self.pattern.search(call.path):
            return False
        return self.target is None or (
            call.fake is not None and call.fake.target_of(call) == self.target
        )


class _Reply(Exception):
    """Raised by a route handler to answer with an error status."""

    def __init__(
        self, status: int, code: int = 0, message: str | None = None, body: Any = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = (
            body
            if body is not None
            else {"message": message or ERROR_MESSAGES.get(code, ""), "code": code}
        )


# ---------------------------------------------------------------------------
# fake aiohttp
# ---------------------------------------------------------------------------


class FakeResponse:
    """The subset of ``aiohttp.ClientResponse`` discord.py reads."""

    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = REASONS.get(status, "Unknown")
        self._text = (
            "" if body is None else (body if isinstance(body, str) else orjson.dumps(body).decode())
        )
        self.headers: CIMultiDict[str] = CIMultiDict(headers or {})
        if body is not None and not isinstance(body, str):
            self.headers.setdefault("Content-Type", "application/json")

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def json(self) -> Any:
        return orjson.loads(self._text) if self._text else None

    async def read(self) -> bytes:
        return self._text.encode()

    def release(self) -> None:
        pass


class _RequestContext:
    def __init__(self, fake: FakeDiscord, method: str, url: str) -> None:
        self.fake, self.method, self.url = fake, method, url

    async def __aenter__(self) -> FakeResponse:
        return await self.fake._answer(self.method, self.url)

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeSession:
    """Stands in for discord.py's ``aiohttp.ClientSession``: no socket ever."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake_discord = fake
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self._fake_discord, method, url)

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self._fake_discord, "GET", url)

    async def ws_connect(self, url: str, **kwargs: Any) -> Any:
        raise AssertionError(
            "FakeDiscord has no gateway: use tests.harness.runner.prime()/dispatch()"
        )

    async def close(self) -> None:
        self.closed = True


class _FastAsyncio(types.ModuleType):
    """``asyncio`` as seen by discord.http / webhook: sleep is simulated."""

    def __init__(self) -> None:
        super().__init__("asyncio")

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        call = _CURRENT_CALL.get()
        if call is not None:
            call.slept.append(float(delay))
            if call.fake is not None:
                call.fake.slept.append(float(delay))
        await _REAL_SLEEP(0)
        return result


_FAST_ASYNCIO = _FastAsyncio()


async def _webhook_request_wrapper(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
    fake: FakeDiscord | None = getattr(session, "_fake_discord", None)
    if fake is None:
        return await _ORIGINAL_WEBHOOK_REQUEST(self, route, session, **kwargs)
    payload = kwargs.get("payload")
    multipart = kwargs.get("multipart")
    return await fake._wrap_call(
        "webhook",
        route,
        payload if payload is not None else _payload_from_form(multipart),
        kwargs.get("files"),
        kwargs.get("params"),
        kwargs.get("reason"),
        lambda: _ORIGINAL_WEBHOOK_REQUEST(self, route, session, **kwargs),
    )


def _payload_from_form(form: Any) -> Any:
    for part in form or ():
        if part.get("name") == "payload_json":
            return orjson.loads(part["value"])
    return None


def _read_files(files: Any) -> list[tuple[str, int, bytes]]:
    out = []
    for f in files or ():
        fp = f.fp
        start = getattr(f, "_original_pos", 0)
        fp.seek(start)
        data = fp.read()
        fp.seek(start)
        out.append((f.filename, len(data), data))
    return out


def iter_components(components: list[Json]) -> Iterator[Json]:
    """Every component, depth first (rows, v2 containers, sections, labels)."""
    for c in components or ():
        yield c
        yield from iter_components(c.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                yield from iter_components([c[key]])


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


# ---------------------------------------------------------------------------
# the fake
# ---------------------------------------------------------------------------


class FakeDiscord:
    """In-memory Discord for one bot application.  Keep one instance across a
    simulated restart (``uninstall`` the old client, ``install`` the new one):
    Discord's state (messages, commands, DM channels) survives a bot restart."""

    def __init__(
        self, *, application_id: int, bot_user: Json, snowflakes: P.Snowflakes | None = None
    ) -> None:
        self.application_id = int(application_id)
        self.bot_user = bot_user
        self.bot_id = int(bot_user["id"])
        self.new_id = snowflakes or P.snowflake
        self.calls: list[Call] = []
        self.call_count = 0
        """Calls made in all (``calls`` holds them only while ``keep_history``)."""
        self.keep_history = True
        """Tests read every call and every edit of a message. The load benchmark
        (``bench/bench_load.py``) turns this off before any call, as Discord keeps none of
        it in the bot's process: a call is then kept only by its interaction until
        :meth:`lighten` (which packs the interaction: :class:`PackedInteraction`), a
        message keeps no edit history and its JSON is kept packed (:class:`PackedMessage`),
        and ``on_call`` sees each call as it is made."""
        self.keep_files = True
        """Tests read the files the bot uploads. The load benchmark turns this off: a
        message then describes its attachments (name, size, dimensions) without their
        bytes, which Discord's CDN holds, not the bot's process (kept, a load run's
        pictures grew it by 200 MB every 30 seconds)."""
        self.on_call: Callable[[Call], None] | None = None
        self.unknown_calls: list[Call] = []
        self.violations: list[str] = []
        self._v2_messages: dict[int, bool] = {}
        """Messages created or edited with IS_COMPONENTS_V2 (Discord never drops it)."""
        self.slept: list[float] = []
        self.users: dict[int, Json] = {self.bot_id: bot_user}
        self.guilds: dict[int, Json] = {}
        self.channels: dict[int, Json] = {}
        self.messages: dict[int, FakeMessage] = {}
        self._by_channel: dict[int, dict[int, FakeMessage]] = {}
        """The same messages by channel: a channel's listing does not sort every message of
        every channel (a long load benchmark holds tens of thousands)."""
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.global_commands: list[Json] = []
        self.guild_commands: dict[int, list[Json]] = {}
        self.command_syncs: list[Call] = []
        self.faults: list[FaultRule] = []
        self.client: discord.Client | None = None
        self._session: FakeSession | None = None
        self._saved: dict[str, Any] = {}
        self._seq = 0
        self._command_ids: dict[tuple[str, int, int | None], int] = {}
        self.auto_thread_create_event = True
        self.answers_later = False
        """A real request is I/O: the bot's coroutine waits for the answer and the event
        loop runs other work meanwhile. By default the fake answers at once, which keeps
        tests in step; the load benchmark turns this on so that each call suspends its
        caller for one turn of the loop (answered after the work already waiting), as on a
        network: otherwise a coroutine making several calls would run them all, and the
        fake's handling of each, in one callback a deployed bot never runs."""
        #: Opt-in real-time check of Discord's 3-second rule: a first callback
        #: later than this many seconds after dispatch gets 404 10062.
        self.ack_deadline: float | None = None
        self._expired_ids: set[int] = set()

    # -- installation -------------------------------------------------------

    def install(self, client: discord.Client) -> FakeDiscord:
        """Route ``client``'s REST traffic (both paths) to this fake."""
        if self.client is not None:
            raise AssertionError("FakeDiscord already installed on a client: uninstall() it first")
        self.client = client
        http = client.http
        self._session = FakeSession(self)
        self._saved = {
            "request": http.__dict__.get("request"),
            "static_login": http.__dict__.get("static_login"),
        }
        original_request = type(http).request.__get__(http)

        async def request(route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            if body is None and form:
                body = _payload_from_form(form)
            return await self._wrap_call(
                "http",
                route,
                body,
                files,
                kwargs.get("params"),
                kwargs.get("reason"),
                lambda: original_request(route, files=files, form=form, **kwargs),
            )

        async def static_login(token: str) -> Any:
            # HTTPClient.static_login without creating a real aiohttp session.
            http._HTTPClient__session = self._session  # type: ignore[attr-defined]
            http._global_over = asyncio.Event()
            http._global_over.set()
            http.token = token
            return await http.request(discord.http.Route("GET", "/users/@me"))

        http.request = request  # type: ignore[method-assign]
        http.static_login = static_login  # type: ignore[method-assign]
        http._HTTPClient__session = self._session  # type: ignore[attr-defined]
        if http._global_over is discord.utils.MISSING:
            http._global_over = asyncio.Event()
            http._global_over.set()
        if http.token is None:
            http.token = "fake-token"
        client._fake_discord = self  # type: ignore[attr-defined]
        if not _active_fakes:
            webhook_async.AsyncWebhookAdapter.request = _webhook_request_wrapper  # type: ignore[method-assign]
            discord.http.asyncio = _FAST_ASYNCIO  # type: ignore[attr-defined]
            webhook_async.asyncio = _FAST_ASYNCIO  # type: ignore[attr-defined]
        _active_fakes.append(self)
        return self

    def uninstall(self) -> None:
        """Undo :meth:`install` (the model is kept for a re-install)."""
        if self.client is None:
            return
        http = self.client.http
        for name, saved in self._saved.items():
            if saved is None:
                http.__dict__.pop(name, None)
            else:
                setattr(http, name, saved)
        try:
            del self.client._fake_discord  # type: ignore[attr-defined]
        except AttributeError:
            pass
        self.client = None
        if self in _active_fakes:
            _active_fakes.remove(self)
        if not _active_fakes:
            webhook_async.AsyncWebhookAdapter.request = _ORIGINAL_WEBHOOK_REQUEST  # type: ignore[method-assign]
            discord.http.asyncio = asyncio  # type: ignore[attr-defined]
            webhook_async.asyncio = asyncio  # type: ignore[attr-defined]

    # -- world --------------------------------------------------------------

    def add_user(self, user: Json) -> None:
        self.users[int(user["id"])] = user

    def add_guild(self, guild: Json) -> None:
        """Know a guild's channels and members (runner.prime calls this)."""
        gid = int(guild["id"])
        self.guilds[gid] = guild
        for ch in guild.get("channels", []) + guild.get("threads", []):
            ch = dict(ch)
            ch["guild_id"] = str(gid)
            self.channels[int(ch["id"])] = ch
        for m in guild.get("members", []):
            self.add_user(m["user"])

    def add_channel(self, channel: Json) -> None:
        self.channels[int(channel["id"])] = dict(channel)

    def register_interaction(self, payload: Json) -> FakeInteraction:
        """Remember a dispatched interaction so its responses can be checked."""
        known = self.interactions.get(int(payload["id"]))
        if known is not None:  # the same interaction delivered again
            known.dispatch_count += 1
            return known
        user = payload["member"]["user"] if "member" in payload else payload["user"]
        fi = FakeInteraction(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user_id=int(user["id"]),
            channel_id=int(payload["channel"]["id"]),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            application_id=int(payload["application_id"]),
            payload=payload,
            dispatched_at=now(),
            expired=int(payload["id"]) in self._expired_ids,
        )
        self.add_user(user)
        if "message" in payload:
            m = payload["message"]
            fi.message_id = int(m["id"])
            if fi.message_id not in self.messages:
                self._store_message_json(m)
        if int(payload["channel"]["id"]) not in self.channels:
            ch = dict(payload["channel"])
            if fi.guild_id is not None:
                ch["guild_id"] = str(fi.guild_id)
            self.channels[fi.channel_id] = ch
        self.interactions[fi.id] = fi
        self._by_token[fi.token] = fi
        return fi

    def _store_message_json(self, m: Json) -> FakeMessage:
        msg = self._message_type()(
            id=int(m["id"]),
            channel_id=int(m["channel_id"]),
            guild_id=int(m["guild_id"]) if m.get("guild_id") else None,
            author=m.get("author", self.bot_user),
            content=m.get("content", ""),
            embeds=list(m.get("embeds", [])),
            components=list(m.get("components", [])),
            attachments=list(m.get("attachments", [])),
            flags=m.get("flags", 0),
        )
        self._keep(msg)
        return msg

    def dm_channel_id(self, user_id: int) -> int:
        """The (stable) id of the DM channel with ``user_id``."""
        if user_id not in self.dm_channels:
            cid = self.new_id()
            self.dm_channels[user_id] = cid
            user = self.users.get(user_id) or P.user(user_id, f"user{user_id}")
            self.channels[cid] = P.dm_channel(cid, user)
        return self.dm_channels[user_id]

    # -- fault injection ----------------------------------------------------

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        code: int = 0,
        message: str | None = None,
        retry_after: float | None = None,
        times: int | None = 1,
        is_global: bool = False,
        target: int | None = None,
    ) -> FaultRule:
        """Answer the next ``times`` attempts of ``method`` on a path matching
        ``path_regex`` (``re.search`` on e.g. ``/channels/1/messages``) with an
        error.  ``method='*'`` matches any; ``times=None`` means forever.
        A 429 with ``retry_after`` carries Discord's rate-limit headers, so
        discord.py retries it (sleep simulated); 5 attempts in a row exhaust
        its retries and raise ``HTTPException`` (status 429). ``target``: only calls
        that edit or delete that message, through its channel or an interaction's token
        (see :meth:`target_of`)."""
        if status == 429 and retry_after is None:
            retry_after = 0.25
        rule = FaultRule(
            method=method.upper(),
            pattern=re.compile(path_regex),
            status=status,
            code=code,
            message=message
            if message is not None
            else ERROR_MESSAGES.get(code, REASONS.get(status, "")),
            retry_after=retry_after,
            times=times,
            is_global=is_global,
            target=target,
        )
        self.faults.append(rule)
        return rule

    def close_dms(self, user_id: int) -> FaultRule:
        """The user refuses DMs: every send to their DM channel is 403 50007."""
        cid = self.dm_channel_id(user_id)
        return self.fail_next("POST", rf"^/channels/{cid}/messages$", 403, code=50007, times=None)

    def open_dms(self, user_id: int) -> None:
        cid = self.dm_channel_id(user_id)
        self.faults = [
            f for f in self.faults if f.pattern.pattern != rf"^/channels/{cid}/messages$"
        ]

    def expire_interaction(self, interaction_id: int | str) -> None:
        """The interaction's token is dead (no ack within 3 s, or 15 min
        later): its callback answers 404 10062 and its webhook routes 404
        10015.  May be called before the interaction is dispatched."""
        self._expired_ids.add(int(interaction_id))
        fi = self.interactions.get(int(interaction_id))
        if fi is not None:
            fi.expired = True

    # -- checks -------------------------------------------------------------

    def violation(self, message: str) -> AssertionError:
        self.violations.append(message)
        return AssertionError(message)

    def assert_clean(self) -> None:
        """Fail if any limit violation, unknown route or protocol error happened
        (even if the bot caught the AssertionError)."""
        if self.violations:
            raise AssertionError("Discord API misuse:\n  " + "\n  ".join(self.violations))

    def target_of(self, call: Call) -> int | None:
        """The message ``call`` edits or deletes, through its channel or an interaction's
        webhook (``@original`` resolved through the token's interaction); else None."""
        if call.method not in ("PATCH", "DELETE"):
            return None
        parts = call.path.split("/")
        if call.route_template == "/channels/{channel_id}/messages/{message_id}":
            return int(parts[-1])
        if call.route_template.startswith("/webhooks/") and "/messages/" in call.path:
            if parts[-1] != "@original":
                return int(parts[-1])
            fi = self.interaction_of_token(parts[3])
            return None if fi is None else fi.original_message_id
        return None

    def interaction_of_token(self, token: str) -> FakeInteraction | None:
        """The interaction whose webhook token ``token`` is (None: no dispatched one)."""
        return self._by_token.get(token)

    def interaction(self, interaction_id: int | str) -> FakeInteraction:
        return self.interactions[int(interaction_id)]

    def lighten(self, interaction_id: int | str) -> None:
        """Drop the JSON a handled interaction no longer needs: its payload (but what a
        later answer reads), its callbacks' bodies (but their type and flags) and its
        calls' bodies. Discord keeps none of it in the bot's process; the fake keeps it
        for tests to read, which in a long load run (``bench/bench_load.py``) made every
        garbage collection scan hundreds of thousands of dead clicks' objects. Its token,
        messages and calls (route, time) stay usable; without ``keep_history`` its calls
        are dropped too (counted in ``call_count``, seen by ``on_call``)."""
        fi = self.interaction(interaction_id)
        owners = fi.payload.get("authorizing_integration_owners")
        fi.payload = {} if owners is None else {"authorizing_integration_owners": owners}
        fi.callbacks = [
            {"type": c["type"], "data": {"flags": (c.get("data") or {}).get("flags") or 0}}
            for c in fi.callbacks
        ]
        for call in fi.calls:
            call.json = call.response = None
            call.files = []
        if not self.keep_history and type(fi) is FakeInteraction:
            PackedInteraction.pack(fi)

    def assert_acknowledged_first(self, interaction_id: int | str) -> FakeInteraction:
        """The handling of this interaction acknowledged it (callback) before
        making any other REST call: the 3-second deadline is safe."""
        fi = self.interaction(interaction_id)
        if not fi.acknowledged:
            raise AssertionError(
                f"interaction {fi.id} was never acknowledged; its calls: {fi.calls}"
            )
        before = fi.calls_before_ack
        if before:
            raise AssertionError(
                f"interaction {fi.id} made REST calls before acknowledging it: {before}"
            )
        return fi

    def assert_no_pending_thinking(self) -> None:
        """No "Bot is thinking..." message was left without a followup/edit."""
        stuck = [
            (fi.id, fi.original_message_id)
            for fi in self.interactions.values()
            if fi.original_message_id is not None
            and self.messages[fi.original_message_id].loading
            and not self.messages[fi.original_message_id].deleted
        ]
        if stuck:
            raise AssertionError(f"deferred interactions never followed up (id, message): {stuck}")

    def assert_all_acknowledged_first(self) -> None:
        for iid in self.interactions:
            self.assert_acknowledged_first(iid)

    # -- queries ------------------------------------------------------------

    def message(self, message_id: int | str) -> FakeMessage:
        return self.messages[int(message_id)]

    def _message_type(self) -> type[FakeMessage]:
        """Messages are kept packed when no history is kept (:class:`PackedMessage`)."""
        return FakeMessage if self.keep_history else PackedMessage

    def _keep(self, msg: FakeMessage) -> None:
        self.messages[msg.id] = msg
        self._by_channel.setdefault(msg.channel_id, {})[msg.id] = msg

    def messages_in(
        self, channel_id: int | str, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Live messages of a channel, oldest first (ephemerals excluded by default)."""
        return [
            m
            for _, m in sorted(self._by_channel.get(int(channel_id), {}).items())
            if not m.deleted and (include_ephemeral or m.ephemeral_for is None)
        ]

    def last_public_message(self, channel_id: int | str) -> FakeMessage:
        msgs = self.messages_in(channel_id)
        if not msgs:
            raise AssertionError(f"no public message in channel {channel_id}")
        return msgs[-1]

    def ephemerals_for(
        self, user_id: int | str, *, channel_id: int | str | None = None
    ) -> list[FakeMessage]:
        """Ephemeral messages only ``user_id`` sees, oldest first."""
        return [
            m
            for _, m in sorted(self.messages.items())
            if m.ephemeral_for == int(user_id)
            and not m.deleted
            and (channel_id is None or m.channel_id == int(channel_id))
        ]

    def last_ephemeral_for(self, user_id: int | str) -> FakeMessage:
        msgs = self.ephemerals_for(user_id)
        if not msgs:
            raise AssertionError(f"no ephemeral message for user {user_id}")
        return msgs[-1]

    def dms_to(self, user_id: int | str) -> list[FakeMessage]:
        """Messages delivered in the DM channel with ``user_id``."""
        cid = self.dm_channels.get(int(user_id))
        return [] if cid is None else self.messages_in(cid)

    def calls_to(self, method: str, path_regex: str) -> list[Call]:
        pat = re.compile(path_regex)
        return [c for c in self.calls if c.method == method.upper() and pat.search(c.path)]

    def threads(self, parent_id: int | str | None = None) -> list[Json]:
        return [
            ch
            for ch in self.channels.values()
            if ch.get("type") in (P.PUBLIC_THREAD, P.PRIVATE_THREAD)
            and (parent_id is None or int(ch["parent_id"]) == int(parent_id))
        ]

    @staticmethod
    def components(message: FakeMessage | Json) -> list[Json]:
        """Flat list of the interactive components (buttons, selects) of a
        message, each a copy with its ``row`` index added."""
        comps = (
            message.components
            if isinstance(message, FakeMessage)
            else message.get("components", [])
        )
        out = []
        for r, top in enumerate(comps):
            for c in iter_components([top]):
                if c.get("type") == P.BUTTON or c.get("type") in P.SELECT_TYPES:
                    item = dict(c)
                    item["row"] = r
                    item.setdefault("disabled", False)
                    out.append(item)
        return out

    @classmethod
    def find_component(
        cls,
        message: FakeMessage | Json,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        label_contains: str | None = None,
        type: int | None = None,
    ) -> Json:
        """The single component matching every given criterion; fails listing
        what the message offers otherwise."""
        found = []
        for c in cls.components(message):
            if type is not None and c.get("type") != type:
                continue
            if label is not None and c.get("label") != label:
                continue
            if label_contains is not None and label_contains not in (c.get("label") or ""):
                continue
            if custom_id is not None and c.get("custom_id") != custom_id:
                continue
            if custom_id_prefix is not None and not (c.get("custom_id") or "").startswith(
                custom_id_prefix
            ):
                continue
            found.append(c)
        if len(found) != 1:
            offered = [
                (c.get("label") or c.get("placeholder"), c.get("custom_id"))
                for c in cls.components(message)
            ]
            crit = {
                k: v
                for k, v in dict(
                    label=label,
                    custom_id=custom_id,
                    prefix=custom_id_prefix,
                    label_contains=label_contains,
                ).items()
                if v
            }
            raise AssertionError(f"{len(found)} components match {crit}; message offers {offered}")
        return found[0]

    @classmethod
    def find_button(cls, message: FakeMessage | Json, **criteria: Any) -> Json:
        return cls.find_component(message, type=P.BUTTON, **criteria)

    @classmethod
    def find_select(cls, message: FakeMessage | Json, **criteria: Any) -> Json:
        found = [c for c in cls.components(message) if c.get("type") in P.SELECT_TYPES]
        if not criteria and len(found) == 1:
            return found[0]
        return cls.find_component(message, **criteria)

    # -- the request path ---------------------------------------------------

    async def _wrap_call(
        self,
        via: str,
        route: Any,
        body: Any,
        files: Any,
        params: Any,
        reason: Any,
        proceed: Callable[[], Any],
    ) -> Any:
        self._seq += 1
        path = route.url[len(discord.http.Route.BASE) :]
        call = Call(
            seq=self._seq,
            via=via,
            method=route.method,
            route_template=route.path,
            path=path,
            json=body,  # discord.py builds each request's payload afresh, never changes it
            files=_read_files(files),
            params=dict(params) if params else None,
            reason=reason,
            interaction_id=CURRENT_INTERACTION.get(),
            time=now(),
            fake=self,
        )
        self.call_count += 1
        if self.keep_history:
            self.calls.append(call)
        if self.on_call is not None:
            self.on_call(call)
        fi = self.interactions.get(call.interaction_id or 0)
        if fi is not None and type(fi) is not PackedInteraction:  # a packed one keeps none
            fi.calls.append(call)
        token = _CURRENT_CALL.set(call)
        try:
            self._check_limits(call)
            return await proceed()
        except BaseException as exc:
            call.error = repr(exc)
            raise
        finally:
            _CURRENT_CALL.reset(token)

    def _check_limits(self, call: Call) -> None:
        t, body = call.route_template, call.json
        where = f"{call.method} {call.path}"
        errors: list[str] = []
        if t == "/interactions/{webhook_id}/{webhook_token}/callback":
            kind = (body or {}).get("type")
            data = (body or {}).get("data") or {}
            if kind in (4, 7):
                errors = limits.check_message(data, call.files, where, ephemeral_allowed=kind == 4)
            elif kind == 5:
                errors = limits.check_message(data, call.files, where, ephemeral_allowed=True)
            elif kind == 9:
                errors = limits.check_modal(data, where)
            elif kind == 8:
                errors = limits.check_autocomplete(data, where)
        elif t.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            if call.method in ("POST", "PATCH"):
                errors = limits.check_message(
                    body, call.files, where, ephemeral_allowed=call.method == "POST"
                )
        elif t in (
            "/channels/{channel_id}/messages",
            "/channels/{channel_id}/messages/{message_id}",
        ):
            if call.method in ("POST", "PATCH"):
                errors = limits.check_message(body, call.files, where, ephemeral_allowed=False)
        elif t.endswith("/commands") and call.method == "PUT":
            errors = limits.check_commands(body or [], where)
        if errors:
            for e in errors:
                self.violations.append(e)
            raise AssertionError("Discord limits violated:\n  " + "\n  ".join(errors))

    async def _answer(self, method: str, url: str) -> FakeResponse:
        call = _CURRENT_CALL.get()
        if call is None or not url.startswith(discord.http.Route.BASE):
            raise self.violation(f"request outside discord.py's request paths: {method} {url}")
        for rule in self.faults:
            if rule.matches(call):
                rule.hits += 1
                return self._fault_response(call, rule)
        try:
            status, body = self._route(call)
        except _Reply as reply:
            status, body = reply.status, reply.body
        call.statuses.append(status)
        call.response = body
        if self.answers_later:
            await _REAL_SLEEP(0)
        if status == 204:
            return FakeResponse(204, None)
        return FakeResponse(status, body)

    def _fault_response(self, call: Call, rule: FaultRule) -> FakeResponse:
        call.statuses.append(rule.status)
        if rule.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": rule.retry_after,
                "global": rule.is_global,
            }
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(int(rule.retry_after or 0) + 1),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(rule.retry_after),
                "X-RateLimit-Bucket": "fakebucket",
                "X-RateLimit-Scope": "global" if rule.is_global else "user",
            }
            if rule.is_global:
                headers["X-RateLimit-Global"] = "true"
            call.response = body
            return FakeResponse(429, body, headers)
        body = {"message": rule.message, "code": rule.code}
        if rule.status >= 500:
            call.response = "500: Internal Server Error"
            return FakeResponse(
                rule.status, "500: Internal Server Error", {"Content-Type": "text/plain"}
            )
        call.response = body
        return FakeResponse(rule.status, body)

    # -- routes -------------------------------------------------------------

    def _route(self, call: Call) -> tuple[int, Any]:
        key = (call.method, call.route_template)
        handler = _ROUTES.get(key)
        if handler is None:
            self.unknown_calls.append(call)
            raise self.violation(
                f"unknown Discord route (not faked): {call.method} {call.route_template} ({call.path})"
            )
        parts = _path_params(call.route_template, call.path)
        return handler(self, call, **parts)

    def _message_from_payload(
        self,
        channel_id: int,
        body: Json,
        files: list[tuple[str, int, bytes]],
        *,
        message_id: int | None = None,
    ) -> FakeMessage:
        ch = self.channels.get(channel_id, {})
        msg = self._message_type()(
            id=message_id or self.new_id(),
            channel_id=channel_id,
            guild_id=int(ch["guild_id"]) if ch.get("guild_id") else None,
            author=self.bot_user,
        )
        self._apply_edit(msg, body, files, creating=True)
        self._keep(msg)
        return msg

    def _apply_edit(
        self,
        msg: FakeMessage,
        body: Json | None,
        files: list[tuple[str, int, bytes]],
        *,
        creating: bool = False,
    ) -> None:
        body = body or {}
        if not creating:
            if self.keep_history:
                msg.edits.append(P.clone_json(body))
            msg.edited = True
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = [dict(e, type=e.get("type", "rich")) for e in body["embeds"] or []]
        if "components" in body:
            msg.components = P.clone_json(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (P.EPHEMERAL if not creating else 0)
            msg.flags = (body["flags"] & ~P.LOADING) | keep
        new_atts = []
        for i, (name, size, data) in enumerate(files):
            aid = self.new_id()
            att: Json = {
                "id": str(aid),
                "filename": name,
                "size": size,
                "url": f"https://cdn.discordapp.com/attachments/{msg.channel_id}/{aid}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{msg.channel_id}/{aid}/{name}",
                "content_type": mimetypes.guess_type(name)[0] or "application/octet-stream",
            }
            for a in body.get("attachments") or []:
                if str(a.get("id")) == str(i) and a.get("description"):
                    att["description"] = a["description"]
            dims = _png_size(data)
            if dims:
                att["width"], att["height"] = dims
            if self.keep_files:
                msg.files[aid] = data
            new_atts.append(att)
        if creating:
            msg.attachments = new_atts
        elif "attachments" in body:
            keep_ids = {str(a.get("id")) for a in body["attachments"] or []}
            kept = [a for a in msg.attachments if a["id"] in keep_ids]
            msg.attachments = kept + new_atts
            if not self.keep_history:
                # A replaced attachment is gone from the message, as on Discord: its bytes
                # too (with history, every picture uploaded stays readable: the table
                # benchmark sums them).
                for gone in set(msg.files) - {int(a["id"]) for a in msg.attachments}:
                    del msg.files[gone]
        else:
            msg.attachments = msg.attachments + new_atts
        self._check_v2_message(msg, body, creating=creating)

    def _check_v2_message(self, msg: FakeMessage, body: Json, *, creating: bool) -> None:
        """Components v2 as Discord enforces them on the stored message: the flag cannot
        be removed by an edit, content/embeds cannot come back, and every
        ``attachment://`` url must name an attachment the message has after the edit."""
        was = self._v2_messages.get(msg.id, False)
        v2 = bool(msg.flags & limits.IS_COMPONENTS_V2)
        if was and not v2:
            self.violations.append(f"message {msg.id}: the IS_COMPONENTS_V2 flag was removed")
            v2 = True
        self._v2_messages[msg.id] = v2
        if not v2:
            return
        if msg.content or msg.embeds:
            self.violations.append(f"message {msg.id}: content or embeds on a v2 message")
        names = {a["filename"] for a in msg.attachments}
        for url in limits.media_urls(msg.components):
            if url.startswith("attachment://") and url[len("attachment://") :] not in names:
                self.violations.append(
                    f"message {msg.id}: {url} names no attachment of the message {sorted(names)}"
                )

    def _channel_or_404(self, channel_id: int) -> Json:
        ch = self.channels.get(channel_id)
        if ch is None:
            raise _Reply(404, 10003)
        return ch

    def _message_or_404(self, channel_id: int, message_id: int) -> FakeMessage:
        msg = self.messages.get(message_id)
        if (
            msg is None
            or msg.deleted
            or msg.channel_id != channel_id
            or msg.ephemeral_for is not None
        ):
            raise _Reply(404, 10008)
        return msg

    # application
    def _get_me(self, call: Call) -> tuple[int, Any]:
        return 200, self.bot_user

    def _get_app(self, call: Call) -> tuple[int, Any]:
        return 200, P.application(self.application_id, bot=self.bot_user)

    def _gateway(self, call: Call) -> tuple[int, Any]:
        return 200, {
            "url": "wss://gateway.discord.invalid",
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _put_commands(
        self, call: Call, application_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        if int(application_id) != self.application_id:
            raise _Reply(403, 50001)
        gid = int(guild_id) if guild_id else None
        out = []
        for cmd in call.json or []:
            kind = cmd.get("type", 1)
            key = (cmd["name"], kind, gid)
            cid = self._command_ids.setdefault(key, self.new_id())
            echoed: Json = {
                "id": str(cid),
                "application_id": str(self.application_id),
                "version": str(self.new_id()),
                "type": kind,
                "name": cmd["name"],
                "name_localizations": cmd.get("name_localizations"),
                "description": cmd.get("description", ""),
                "description_localizations": cmd.get("description_localizations"),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True),
                "nsfw": cmd.get("nsfw", False),
                "integration_types": cmd.get("integration_types", [0]),
                "contexts": cmd.get("contexts"),
            }
            if cmd.get("options"):
                echoed["options"] = copy.deepcopy(cmd["options"])
            if gid is not None:
                echoed["guild_id"] = str(gid)
            out.append(echoed)
        if gid is None:
            self.global_commands = out
        else:
            self.guild_commands[gid] = out
        self.command_syncs.append(call)
        return 200, out

    def _get_commands(
        self, call: Call, application_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        if guild_id is None:
            return 200, self.global_commands
        return 200, self.guild_commands.get(int(guild_id), [])

    def command(self, name: str, guild_id: int | None = None) -> Json | None:
        """The synced command ``name`` (guild registry first, then global)."""
        pools = ([self.guild_commands.get(guild_id, [])] if guild_id is not None else []) + [
            self.global_commands
        ]
        for pool in pools:
            for c in pool:
                if c["name"] == name:
                    return c
        return None

    # users & channels
    def _get_user(self, call: Call, user_id: str) -> tuple[int, Any]:
        u = self.users.get(int(user_id))
        if u is None:
            raise _Reply(404, 10013)
        return 200, u

    def _get_member(self, call: Call, guild_id: str, member_id: str) -> tuple[int, Any]:
        g = self.guilds.get(int(guild_id))
        for m in (g or {}).get("members", []):
            if m["user"]["id"] == str(member_id):
                return 200, m
        raise _Reply(404, 10007, "Unknown Member")

    def _create_dm(self, call: Call) -> tuple[int, Any]:
        uid = int((call.json or {})["recipient_id"])
        cid = self.dm_channel_id(uid)
        return 200, self.channels[cid]

    def _get_channel(self, call: Call, channel_id: str) -> tuple[int, Any]:
        return 200, self._channel_or_404(int(channel_id))

    def _edit_channel(self, call: Call, channel_id: str) -> tuple[int, Any]:
        ch = self._channel_or_404(int(channel_id))
        body = call.json or {}
        for k in ("name", "topic"):
            if k in body:
                ch[k] = body[k]
        meta = ch.get("thread_metadata")
        if meta is not None:
            for k in ("archived", "locked", "auto_archive_duration", "invitable"):
                if k in body:
                    meta[k] = body[k]
        return 200, ch

    def _delete_channel(self, call: Call, channel_id: str) -> tuple[int, Any]:
        ch = self._channel_or_404(int(channel_id))
        del self.channels[int(channel_id)]
        return 200, ch

    def _typing(self, call: Call, channel_id: str) -> tuple[int, Any]:
        self._channel_or_404(int(channel_id))
        return 204, None

    # messages
    def _post_message(self, call: Call, channel_id: str) -> tuple[int, Any]:
        cid = int(channel_id)
        ch = self._channel_or_404(cid)
        meta = ch.get("thread_metadata") or {}
        if meta.get("locked"):
            raise _Reply(403, 50083, "Thread is archived")
        if meta.get("archived"):
            meta["archived"] = False  # sending unarchives a thread
        msg = self._message_from_payload(cid, call.json or {}, call.files)
        ch["last_message_id"] = str(msg.id)
        return 200, msg.to_json(fresh=False)

    def _get_message(self, call: Call, channel_id: str, message_id: str) -> tuple[int, Any]:
        return 200, self._message_or_404(int(channel_id), int(message_id)).to_json(fresh=False)

    def _edit_message(self, call: Call, channel_id: str, message_id: str) -> tuple[int, Any]:
        msg = self._message_or_404(int(channel_id), int(message_id))
        self._apply_edit(msg, call.json, call.files)
        return 200, msg.to_json(fresh=False)

    def _delete_message(self, call: Call, channel_id: str, message_id: str) -> tuple[int, Any]:
        msg = self._message_or_404(int(channel_id), int(message_id))
        msg.deleted = True
        return 204, None

    def _history(self, call: Call, channel_id: str) -> tuple[int, Any]:
        self._channel_or_404(int(channel_id))
        params = call.params or {}
        msgs = self.messages_in(int(channel_id))
        if "before" in params:
            msgs = [m for m in msgs if m.id < int(params["before"])]
        if "after" in params:
            msgs = [m for m in msgs if m.id > int(params["after"])]
        limit = int(params.get("limit", 50))
        if "after" in params:
            picked = msgs[:limit]
        else:
            picked = msgs[-limit:] if limit else []
        return 200, [m.to_json(fresh=False) for m in reversed(picked)]  # newest first, as Discord

    def _pin(self, call: Call, channel_id: str, message_id: str) -> tuple[int, Any]:
        msg = self._message_or_404(int(channel_id), int(message_id))
        msg.pinned = call.method == "PUT"
        return 204, None

    def _add_reaction(
        self, call: Call, channel_id: str, message_id: str, emoji: str
    ) -> tuple[int, Any]:
        msg = self._message_or_404(int(channel_id), int(message_id))
        msg.reactions = [*msg.reactions, emoji]
        return 204, None

    def _remove_reaction(
        self, call: Call, channel_id: str, message_id: str, emoji: str
    ) -> tuple[int, Any]:
        msg = self._message_or_404(int(channel_id), int(message_id))
        msg.reactions = [e for e in msg.reactions if e != emoji]
        return 204, None

    # threads
    def _create_thread(
        self, call: Call, channel_id: str, message_id: str | None = None
    ) -> tuple[int, Any]:
        parent = self._channel_or_404(int(channel_id))
        if parent.get("type") not in (P.GUILD_TEXT, 5):
            raise _Reply(400, 50024, "Cannot execute action on this channel type")
        body = call.json or {}
        if message_id is not None:
            msg = self._message_or_404(int(channel_id), int(message_id))
            if msg.thread_id is not None:
                raise _Reply(400, 160004, "A thread has already been created for this message")
            tid = msg.id
            private = False
        else:
            tid = self.new_id()
            private = body.get("type", P.PRIVATE_THREAD) == P.PRIVATE_THREAD
        name = body.get("name", "")
        if not 1 <= len(name) <= 100:
            raise self.violation(
                f"{call.method} {call.path}: thread name {name!r} must be 1..100 chars"
            )
        thread = P.thread_channel(
            tid,
            name,
            guild_id=int(parent["guild_id"]),
            parent_id=int(channel_id),
            owner_id=self.bot_id,
            private=private,
            auto_archive_duration=body.get("auto_archive_duration", 4320),
            newly_created=True,
            member_user_id=self.bot_id,
        )
        if message_id is not None:
            self.messages[int(message_id)].thread_id = tid
            self.messages[int(message_id)].thread_json = thread
        self.channels[tid] = thread
        if self.auto_thread_create_event and self.client is not None:
            # Discord also sends THREAD_CREATE over the gateway to the creator.
            self.client._connection.parse_thread_create(copy.deepcopy(thread))
        return 201, thread

    def _thread_member(self, call: Call, channel_id: str, user_id: str = "@me") -> tuple[int, Any]:
        self._channel_or_404(int(channel_id))
        return 204, None

    # interactions
    def _interaction_for_callback(self, interaction_id: str, token: str) -> FakeInteraction:
        fi = self.interactions.get(int(interaction_id))
        if fi is None or fi.token != token:
            raise self.violation(
                f"callback for interaction {interaction_id} that was never dispatched through runner.dispatch()"
            )
        if fi.expired:
            raise _Reply(404, 10062)
        if not fi.callbacks and self.ack_deadline is not None:
            late = now() - fi.dispatched_at
            if late > self.ack_deadline:
                fi.expired = True
                raise _Reply(404, 10062)
        return fi

    def _callback(self, call: Call, webhook_id: str, webhook_token: str) -> tuple[int, Any]:
        fi = self._interaction_for_callback(webhook_id, webhook_token)
        body = call.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        if fi.callbacks:
            fi.callbacks = [*fi.callbacks, P.clone_json(body)]
            self.violations.append(
                f"interaction {fi.id} acknowledged twice (callback types {[c['type'] for c in fi.callbacks]})"
            )
            raise _Reply(400, 40060)
        allowed = {
            P.APPLICATION_COMMAND: {4, 5, 9},
            P.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            P.MODAL_SUBMIT: {4, 5, 6, 7},
            P.AUTOCOMPLETE: {8},
        }[fi.type]
        if kind not in allowed:
            raise self.violation(
                f"callback type {kind} is invalid for an interaction of type {fi.type}"
            )
        if kind in (6, 7) and fi.message_id is None:
            raise self.violation(
                f"callback type {kind} needs a component message (interaction {fi.id})"
            )
        fi.callbacks = [*fi.callbacks, P.clone_json(body)]
        fi.acked_at = now()
        fi.ack_seq = call.seq
        meta = {
            "id": str(fi.id),
            "type": fi.type,
            "user": self.users.get(fi.user_id),
            "authorizing_integration_owners": fi.payload.get("authorizing_integration_owners", {}),
        }
        if fi.message_id is not None:
            meta["interacted_message_id"] = str(fi.message_id)
        result: Json = {"interaction": {"id": str(fi.id), "type": fi.type}}
        msg: FakeMessage | None = None
        if kind in (4, 5):
            msg = self._message_from_payload(fi.channel_id, data, call.files)
            msg.type = 20 if fi.type == P.APPLICATION_COMMAND else 0
            msg.webhook_id = self.application_id
            msg.interaction_id = fi.id
            msg.interaction_meta = meta
            if kind == 5:
                msg.flags = P.LOADING | ((data.get("flags") or 0) & P.EPHEMERAL)
                msg.content = ""
            if msg.flags & P.EPHEMERAL:
                msg.ephemeral_for = fi.user_id
            fi.original_message_id = msg.id
        elif kind in (6, 7):
            msg = self.messages[fi.message_id]  # type: ignore[index]
            fi.original_message_id = msg.id
            if kind == 7:
                self._apply_edit(msg, data, call.files)
        elif kind == 9:
            fi.modal = copy.deepcopy(data)
        elif kind == 8:
            fi.choices = copy.deepcopy(data.get("choices") or [])
        if msg is not None:
            result["interaction"].update(
                {
                    "response_message_id": str(msg.id),
                    "response_message_loading": msg.loading,
                    "response_message_ephemeral": msg.ephemeral,
                }
            )
            # Discord returns the message only for these two (its interaction callback
            # resource object): a deferral's answer carries none.
            result["resource"] = {"type": kind}
            if kind in (4, 7):
                result["resource"]["message"] = msg.to_json(fresh=False)
        elif kind is not None:
            result["resource"] = {"type": kind}
        return 200, result

    def _interaction_for_webhook(
        self, call: Call, webhook_id: str, webhook_token: str
    ) -> FakeInteraction:
        fi = self._by_token.get(webhook_token)
        if fi is None or int(webhook_id) != self.application_id:
            raise self.violation(
                f"{call.method} {call.path}: webhook token of no dispatched interaction"
            )
        if fi.expired:
            raise _Reply(404, 10015)
        if now() - fi.dispatched_at > TOKEN_LIFE:
            raise _Reply(401, 50027)  # an interaction's token lives 15 minutes
        if not fi.callbacks:
            attempted = any(
                c.route_template == _CALLBACK and c.path.startswith(f"/interactions/{fi.id}/")
                for c in itertools.chain(fi.calls, self.calls)
            )
            if not attempted:  # a failed (faulted) callback is the bot's excuse
                self.violations.append(
                    f"{call.method} {call.route_template} before interaction {fi.id} was acknowledged"
                )
            raise _Reply(404, 10015)
        if fi.response_type in (8, 9) and call.route_template.endswith("@original"):
            raise _Reply(404, 10008)
        return fi

    def _original(self, fi: FakeInteraction) -> FakeMessage:
        if fi.original_message_id is None:
            raise _Reply(404, 10008)
        msg = self.messages[fi.original_message_id]
        if msg.deleted:
            raise _Reply(404, 10008)
        return msg

    def _followup(self, call: Call, webhook_id: str, webhook_token: str) -> tuple[int, Any]:
        fi = self._interaction_for_webhook(call, webhook_id, webhook_token)
        body = call.json or {}
        original = self.messages.get(fi.original_message_id) if fi.original_message_id else None
        if (
            fi.response_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first followup after a "thinking" defer replaces the loading
            # message; its ephemerality is the defer's.
            eph = original.flags & P.EPHEMERAL
            self._apply_edit(original, body, call.files)
            original.flags = (original.flags & ~P.LOADING) | eph
            return 200, original.to_json(fresh=False)
        msg = self._message_from_payload(fi.channel_id, body, call.files)
        msg.webhook_id = self.application_id
        msg.interaction_id = fi.id
        msg.type = 20 if fi.type == P.APPLICATION_COMMAND else 0
        if msg.flags & P.EPHEMERAL:
            msg.ephemeral_for = fi.user_id
        fi.followup_ids = [*fi.followup_ids, msg.id]  # (assigned: a packed one too)
        return 200, msg.to_json(fresh=False)

    def _webhook_message(self, call: Call, fi: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            return self._original(fi)
        mid = int(message_id)
        if mid not in fi.followup_ids and mid != fi.original_message_id:
            raise _Reply(404, 10008)
        msg = self.messages[mid]
        if msg.deleted:
            raise _Reply(404, 10008)
        return msg

    def _get_webhook_message(
        self, call: Call, webhook_id: str, webhook_token: str, message_id: str = "@original"
    ) -> tuple[int, Any]:
        fi = self._interaction_for_webhook(call, webhook_id, webhook_token)
        return 200, self._webhook_message(call, fi, message_id).to_json(fresh=False)

    def _edit_webhook_message(
        self, call: Call, webhook_id: str, webhook_token: str, message_id: str = "@original"
    ) -> tuple[int, Any]:
        fi = self._interaction_for_webhook(call, webhook_id, webhook_token)
        msg = self._webhook_message(call, fi, message_id)
        eph = msg.flags & P.EPHEMERAL
        self._apply_edit(msg, call.json, call.files)
        msg.flags = (msg.flags & ~P.LOADING) | eph
        return 200, msg.to_json(fresh=False)

    def _delete_webhook_message(
        self, call: Call, webhook_id: str, webhook_token: str, message_id: str = "@original"
    ) -> tuple[int, Any]:
        fi = self._interaction_for_webhook(call, webhook_id, webhook_token)
        msg = self._webhook_message(call, fi, message_id)
        msg.deleted = True
        return 204, None


@functools.lru_cache(maxsize=256)
def _template_regex(template: str) -> tuple[list[str], re.Pattern[str]]:
    """A route template's parameter names and the pattern of its paths (built once)."""
    names = re.findall(r"{(\w+)}", template)
    return names, re.compile("^" + re.sub(r"\\{\w+\\}", "([^/]+)", re.escape(template)) + "$")


def _path_params(template: str, path: str) -> dict[str, str]:
    names, regex = _template_regex(template)
    m = regex.match(path.split("?")[0])
    if not m:
        return {}
    return {n: unquote(v) for n, v in zip(names, m.groups(), strict=True)}


_W = "/webhooks/{webhook_id}/{webhook_token}"
_CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
_ROUTES: dict[tuple[str, str], Callable[..., tuple[int, Any]]] = {
    ("GET", "/users/@me"): FakeDiscord._get_me,
    ("GET", "/oauth2/applications/@me"): FakeDiscord._get_app,
    ("GET", "/applications/@me"): FakeDiscord._get_app,
    ("GET", "/gateway/bot"): FakeDiscord._gateway,
    ("PUT", "/applications/{application_id}/commands"): FakeDiscord._put_commands,
    ("GET", "/applications/{application_id}/commands"): FakeDiscord._get_commands,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): FakeDiscord._put_commands,
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands"): FakeDiscord._get_commands,
    ("GET", "/users/{user_id}"): FakeDiscord._get_user,
    ("GET", "/guilds/{guild_id}/members/{member_id}"): FakeDiscord._get_member,
    ("POST", "/users/@me/channels"): FakeDiscord._create_dm,
    ("GET", "/channels/{channel_id}"): FakeDiscord._get_channel,
    ("PATCH", "/channels/{channel_id}"): FakeDiscord._edit_channel,
    ("DELETE", "/channels/{channel_id}"): FakeDiscord._delete_channel,
    ("POST", "/channels/{channel_id}/typing"): FakeDiscord._typing,
    ("POST", "/channels/{channel_id}/messages"): FakeDiscord._post_message,
    ("GET", "/channels/{channel_id}/messages"): FakeDiscord._history,
    ("PUT", "/channels/{channel_id}/messages/pins/{message_id}"): FakeDiscord._pin,
    ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}"): FakeDiscord._pin,
    ("GET", "/channels/{channel_id}/messages/{message_id}"): FakeDiscord._get_message,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): FakeDiscord._edit_message,
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): FakeDiscord._delete_message,
    (
        "PUT",
        "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
    ): FakeDiscord._add_reaction,
    (
        "DELETE",
        "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
    ): FakeDiscord._remove_reaction,
    ("POST", "/channels/{channel_id}/threads"): FakeDiscord._create_thread,
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): FakeDiscord._create_thread,
    ("PUT", "/channels/{channel_id}/thread-members/@me"): FakeDiscord._thread_member,
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}"): FakeDiscord._thread_member,
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"): FakeDiscord._callback,
    ("POST", _W): FakeDiscord._followup,
    ("GET", _W + "/messages/@original"): FakeDiscord._get_webhook_message,
    ("PATCH", _W + "/messages/@original"): FakeDiscord._edit_webhook_message,
    ("DELETE", _W + "/messages/@original"): FakeDiscord._delete_webhook_message,
    ("GET", _W + "/messages/{message_id}"): FakeDiscord._get_webhook_message,
    ("PATCH", _W + "/messages/{message_id}"): FakeDiscord._edit_webhook_message,
    ("DELETE", _W + "/messages/{message_id}"): FakeDiscord._delete_webhook_message,
}
