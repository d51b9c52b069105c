"""Builders for raw Discord API v10 JSON, shaped as Discord sends it.

The end-to-end tests feed these dicts to discord.py's own parsers
(``ConnectionState.parse_ready``, ``parse_guild_create``,
``parse_interaction_create``, ``parse_thread_create``), so every field that
discord.py reads without a default must be present, and the rest mirror what
the gateway really sends (API v10, 2025).  Nothing here knows about our bot.

Ids are snowflakes from :class:`Snowflakes`, a deterministic generator, so a
test produces the same ids on every run.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord
from orjson import dumps as _json_dumps
from orjson import loads as _json_loads

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
#: Arbitrary fixed instant (2025-01-01T00:00:00Z) all generated ids start from.
BASE_TIME_MS = 1_735_689_600_000

#: Interaction types (Discord API: Interaction Object > Interaction Type).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

#: Channel types used here.
GUILD_TEXT, DM, GUILD_CATEGORY, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 4, 11, 12

#: Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: Component types (Discord API: Message Components).
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
SELECT_TYPES = frozenset(
    {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
)

#: Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 6, 7, 8, 9, 10, 11

#: Permissions a member of the test guilds has by default (view, send, threads...).
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
    change_nickname=True,
    create_instant_invite=True,
    connect=True,
    speak=True,
)
#: What the bot may do in a channel by default: enough for the thread mode.
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    manage_threads=True,
)
ADMIN_PERMISSIONS = discord.Permissions.all()


class Snowflakes:
    """Deterministic snowflake generator: strictly increasing, 1 ms apart.

    ``process`` fills the snowflake's worker and process bits (12 to 21), as Discord's
    own generators do: generators of different processes never hand out the same id."""

    PROCESSES = 1 << 10

    def __init__(self, start_ms: int = BASE_TIME_MS, process: int = 0) -> None:
        if not 0 <= process < self.PROCESSES:
            raise ValueError(f"process must be in [0, {self.PROCESSES}), not {process}")
        self._counter = itertools.count()
        self._start_ms = start_ms
        self._process = process << 12

    def __call__(self) -> int:
        n = next(self._counter)
        return ((self._start_ms + n - DISCORD_EPOCH_MS) << 22) | self._process | (n & 0xFFF)


#: Shared default generator; pass your own to isolate a test's ids.
snowflake = Snowflakes()


@functools.lru_cache(maxsize=8192)
def snowflake_time(snow: int) -> str:
    """ISO-8601 timestamp Discord would print for this snowflake (kept: a message is
    serialised on every edit and read, 1% of the load bench's event loop)."""
    ms = (int(snow) >> 22) + DISCORD_EPOCH_MS
    when = dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)
    return when.isoformat()


def _s(value: int | str | None) -> str | None:
    return None if value is None else str(value)


# ---------------------------------------------------------------------------
# users, members, roles, channels, guilds
# ---------------------------------------------------------------------------


def user(
    user_id: int | None = None,
    username: str = "player",
    *,
    global_name: str | None = None,
    bot: bool = False,
    avatar: str | None = None,
) -> Json:
    """A User object (new username system: discriminator "0")."""
    uid = user_id if user_id is not None else snowflake()
    data: Json = {
        "id": str(uid),
        "username": username,
        "discriminator": "0",
        "global_name": global_name if global_name is not None else username.title(),
        "avatar": avatar,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "collectibles": None,
        "primary_guild": None,
    }
    if bot:
        data["bot"] = True
        data["global_name"] = None if global_name is None else global_name
    return data


def bot_user(user_id: int | None = None, username: str = "Arena Master") -> Json:
    """The bot's own user (``bot: true``, verified email flags as READY sends)."""
    data = user(user_id, username, bot=True)
    data.update({"verified": True, "mfa_enabled": False, "email": None, "flags": 0})
    return data


def member(
    user_data: Json,
    *,
    roles: Sequence[int | str] = (),
    nick: str | None = None,
    permissions: int | discord.Permissions | None = None,
    joined_at: str = "2025-01-01T00:00:00+00:00",
) -> Json:
    """A guild Member object.  With ``permissions`` it is the interaction form
    (Discord adds the member's resolved channel permissions as a string)."""
    data: Json = {
        "user": user_data,
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in roles],
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }
    if permissions is not None:
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        data["permissions"] = str(value)
    return data


def role(
    role_id: int,
    name: str,
    *,
    permissions: int | discord.Permissions = 0,
    position: int = 1,
    managed: bool = False,
    color: int = 0,
) -> Json:
    """A Role object; the @everyone role has the guild's id and position 0."""
    value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
    return {
        "id": str(role_id),
        "name": name,
        "color": color,
        "colors": {"primary_color": color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(value),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }


def text_channel(
    channel_id: int | None = None,
    name: str = "general",
    *,
    guild_id: int | None = None,
    position: int = 0,
    parent_id: int | None = None,
    topic: str | None = None,
    overwrites: Sequence[Json] = (),
) -> Json:
    """A guild text channel (type 0)."""
    data: Json = {
        "id": str(channel_id if channel_id is not None else snowflake()),
        "type": GUILD_TEXT,
        "name": name,
        "position": position,
        "permission_overwrites": list(overwrites),
        "topic": topic,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": _s(parent_id),
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
        "icon_emoji": None,
        "theme_color": None,
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def overwrite(
    target_id: int,
    *,
    kind: int = 0,
    allow: int | discord.Permissions = 0,
    deny: int | discord.Permissions = 0,
) -> Json:
    """A permission overwrite (kind 0 = role, 1 = member)."""
    a = allow.value if isinstance(allow, discord.Permissions) else allow
    d = deny.value if isinstance(deny, discord.Permissions) else deny
    return {"id": str(target_id), "type": kind, "allow": str(a), "deny": str(d)}


def thread_channel(
    thread_id: int | None = None,
    name: str = "match",
    *,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    private: bool = False,
    archived: bool = False,
    locked: bool = False,
    auto_archive_duration: int = 1440,
    newly_created: bool | None = None,
    member_user_id: int | None = None,
) -> Json:
    """A thread channel (type 11 public / 12 private), as in THREAD_CREATE or
    the reply to ``POST /channels/{id}/threads``."""
    tid = thread_id if thread_id is not None else snowflake()
    data: Json = {
        "id": str(tid),
        "type": PRIVATE_THREAD if private else PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": snowflake_time(tid),
            "locked": locked,
            "create_timestamp": snowflake_time(tid),
            **({"invitable": True} if private else {}),
        },
    }
    if newly_created is not None:
        data["newly_created"] = newly_created
    if member_user_id is not None:
        data["member"] = {
            "id": str(tid),
            "user_id": str(member_user_id),
            "join_timestamp": snowflake_time(tid),
            "flags": 1,
        }
    return data


def dm_channel(channel_id: int, recipient: Json) -> Json:
    """A DM channel (type 1), as returned by ``POST /users/@me/channels``."""
    return {
        "id": str(channel_id),
        "type": DM,
        "last_message_id": None,
        "flags": 0,
        "recipients": [recipient],
    }


def guild(
    guild_id: int | None = None,
    name: str = "Test Server",
    *,
    owner_id: int,
    channels: Sequence[Json] = (),
    members: Sequence[Json] = (),
    roles: Sequence[Json] = (),
    threads: Sequence[Json] = (),
    preferred_locale: str = "en-US",
    everyone_permissions: int | discord.Permissions = MEMBER_PERMISSIONS,
    features: Sequence[str] = (),
) -> Json:
    """GUILD_CREATE data: a full guild with channels, members and roles.

    The @everyone role (id == guild id) is added first.  ``member_count``
    equals the number of members given, so discord.py considers the guild
    chunked and never asks the (absent) gateway for members."""
    gid = guild_id if guild_id is not None else snowflake()
    all_roles = [role(gid, "@everyone", permissions=everyone_permissions, position=0), *roles]
    chans = []
    for ch in channels:
        ch = dict(ch)
        ch["guild_id"] = str(gid)
        chans.append(ch)
    return {
        "id": str(gid),
        "name": name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "application_id": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "nsfw": False,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": preferred_locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "features": list(features),
        "roles": all_roles,
        "emojis": [],
        "stickers": [],
        "incidents_data": None,
        "latest_onboarding_question_id": None,
        "inventory_settings": None,
        "hub_type": None,
        "home_header": None,
        "version": 1,
        "region": "deprecated",
        # GUILD_CREATE extras
        "joined_at": "2025-01-01T00:00:00+00:00",
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(members),
        "members": list(members),
        "channels": chans,
        "threads": [dict(t) for t in threads],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
        "activity_instances": [],
    }


def ready(
    bot: Json, *, application_id: int, guild_ids: Iterable[int] = (), session_id: str = "fake"
) -> Json:
    """READY data for a bot: guilds are listed unavailable; GUILD_CREATE follows."""
    return {
        "v": 10,
        "user": bot,
        "user_settings": {},
        "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
        "relationships": [],
        "private_channels": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["rotterdam"],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": "wss://gateway.discord.invalid",
        "shard": [0, 1],
        "application": {"id": str(application_id), "flags": 0},
        "auth": {},
        "_trace": ["fake-gateway"],
    }


def application(
    application_id: int, *, bot: Json, owner: Json | None = None, name: str = "Arena Master"
) -> Json:
    """Reply to ``GET /applications/@me`` / ``/oauth2/applications/@me``."""
    return {
        "id": str(application_id),
        "name": name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": owner if owner is not None else user(None, "owner"),
        "team": None,
        "bot": bot,
        "rpc_origins": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "tags": [],
        "install_params": None,
        "integration_types_config": {"0": {}},
        "custom_install_url": None,
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
    }


# ---------------------------------------------------------------------------
# interactions
# ---------------------------------------------------------------------------


def option(name: str, value: Any, *, type: int | None = None, focused: bool = False) -> Json:
    """A command option value as sent in ``data.options``.

    The type is inferred from the Python value when not given: bool -> 5,
    int -> 4, float -> 10, anything else -> string (3)."""
    if type is None:
        if isinstance(value, bool):
            type = BOOLEAN
        elif isinstance(value, int):
            type = INTEGER
        elif isinstance(value, float):
            type = NUMBER
        else:
            type = STRING
    if type in (USER, CHANNEL, ROLE, MENTIONABLE):
        value = str(value)
    data: Json = {"name": name, "type": type, "value": value}
    if focused:
        data["focused"] = True
    return data


def subcommand(name: str, options: Sequence[Json] = ()) -> Json:
    """A subcommand (type 1) in ``data.options``."""
    return {"name": name, "type": SUB_COMMAND, "options": list(options)}


def subcommand_group(name: str, subcommands: Sequence[Json]) -> Json:
    """A subcommand group (type 2) holding subcommands."""
    return {"name": name, "type": SUB_COMMAND_GROUP, "options": list(subcommands)}


def _interaction_base(
    *,
    kind: int,
    data: Json | None,
    who: Json,
    application_id: int,
    guild_id: int | None,
    channel: Json,
    locale: str,
    guild_locale: str | None,
    app_permissions: int | discord.Permissions,
    interaction_id: int | None,
    token: str | None,
    entitlements: Sequence[Json],
    message: Json | None = None,
) -> Json:
    """The fields every interaction shares; ``who`` is a member or user payload and
    ``channel`` is shown with the permissions that member has in it."""
    user_data = user_of(who)
    member_data = member_of(who)
    perms = (member_data or {}).get("permissions", MEMBER_PERMISSIONS.value)
    channel = _channel_for_interaction(channel, int(perms))
    iid = interaction_id if interaction_id is not None else snowflake()
    app_perms = (
        app_permissions.value
        if isinstance(app_permissions, discord.Permissions)
        else app_permissions
    )
    payload: Json = {
        "id": str(iid),
        "application_id": str(application_id),
        "type": kind,
        "token": token if token is not None else f"itoken-{iid}",
        "version": 1,
        "locale": locale,
        "app_permissions": str(app_perms),
        "entitlements": list(entitlements),
        "entitlement_sku_ids": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "channel": channel,
        "channel_id": channel["id"],
    }
    if data is not None:
        payload["data"] = data
    if guild_id is not None:
        if member_data is None:
            member_data = member(user_data, permissions=MEMBER_PERMISSIONS)
        elif "permissions" not in member_data:
            member_data = {**member_data, "permissions": str(MEMBER_PERMISSIONS.value)}
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale or "en-US", "features": []}
        payload["guild_locale"] = guild_locale or "en-US"
        payload["member"] = member_data
        payload["context"] = 0  # GUILD
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
    else:
        payload["user"] = user_data
        payload["context"] = 1  # BOT_DM
        # guild-installed app used in the bot's DM: the guild owner key is "0"
        payload["authorizing_integration_owners"] = {"0": "0"}
    if message is not None:
        payload["message"] = message
    return payload


def _channel_for_interaction(
    channel: Json, permissions: int | discord.Permissions | None = None
) -> Json:
    """The partial channel object Discord embeds in interactions (with the
    invoking member's permissions in it)."""
    ch = dict(channel)
    ch.pop("permission_overwrites", None)
    if permissions is not None and ch.get("type") != DM:
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        ch["permissions"] = str(value)
    return ch


def user_of(who: Json) -> Json:
    """Accept a user or a member payload; return the user part."""
    return who["user"] if "user" in who and "id" not in who else who


def member_of(who: Json) -> Json | None:
    """The member payload if ``who`` is one, else None."""
    return who if "user" in who and "id" not in who else None


def application_command(
    who: Json,
    name: str,
    options: Sequence[Json] = (),
    *,
    application_id: int,
    channel: Json,
    guild_id: int | None = None,
    command_id: int | None = None,
    command_guild_id: int | None = None,
    command_type: int = 1,
    resolved: Json | None = None,
    locale: str = "en-US",
    guild_locale: str | None = None,
    app_permissions: int | discord.Permissions = BOT_PERMISSIONS,
    interaction_id: int | None = None,
    token: str | None = None,
    entitlements: Sequence[Json] = (),
    autocomplete: bool = False,
) -> Json:
    """INTERACTION_CREATE data for a slash command (type 2), or for its
    autocomplete (type 4, one option must be ``focused``).

    ``who`` is a member payload (guild) or a user payload (DM).  For a guild
    command synced to one guild, pass ``command_guild_id`` (Discord then puts
    ``data.guild_id``, which discord.py's tree uses to find the command)."""
    data: Json = {
        "id": str(command_id if command_id is not None else snowflake()),
        "name": name,
        "type": command_type,
        "options": list(options),
    }
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    if resolved is not None:
        data["resolved"] = resolved
    return _interaction_base(
        kind=AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND,
        data=data,
        who=who,
        application_id=application_id,
        guild_id=guild_id,
        channel=channel,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        interaction_id=interaction_id,
        token=token,
        entitlements=entitlements,
    )


def component_interaction(
    who: Json,
    message_data: Json,
    custom_id: str,
    *,
    application_id: int,
    channel: Json,
    guild_id: int | None = None,
    component_type: int = BUTTON,
    values: Sequence[str] | None = None,
    resolved: Json | None = None,
    locale: str = "en-US",
    guild_locale: str | None = None,
    app_permissions: int | discord.Permissions = BOT_PERMISSIONS,
    interaction_id: int | None = None,
    token: str | None = None,
    entitlements: Sequence[Json] = (),
) -> Json:
    """INTERACTION_CREATE data for a button click or a select (type 3).

    ``message_data`` is the clicked message as Discord returns it (with
    ``flags: 64`` when it is ephemeral).  For selects pass ``values`` and the
    select's ``component_type``."""
    data: Json = {"custom_id": custom_id, "component_type": component_type}
    if component_type in SELECT_TYPES:
        data["values"] = list(values or [])
        if resolved is not None:
            data["resolved"] = resolved
    return _interaction_base(
        kind=MESSAGE_COMPONENT,
        data=data,
        who=who,
        application_id=application_id,
        guild_id=guild_id,
        channel=channel,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        interaction_id=interaction_id,
        token=token,
        entitlements=entitlements,
        message=message_data,
    )


def modal_submit(
    who: Json,
    custom_id: str,
    values: Mapping[str, str],
    *,
    application_id: int,
    channel: Json,
    guild_id: int | None = None,
    modal: Json | None = None,
    message_data: Json | None = None,
    locale: str = "en-US",
    guild_locale: str | None = None,
    app_permissions: int | discord.Permissions = BOT_PERMISSIONS,
    interaction_id: int | None = None,
    token: str | None = None,
) -> Json:
    """INTERACTION_CREATE data for a modal submit (type 5).

    ``values`` maps text-input custom_ids to what the user typed.  When the
    sent modal (``modal``: the callback's ``data``) is given, the submitted
    components mirror its layout (action rows or labels), as Discord does."""
    components: list[Json] = []
    if modal is not None:
        for top in modal.get("components", []):
            if top.get("type") == ACTION_ROW:
                row = []
                for child in top.get("components", []):
                    if child.get("type") == TEXT_INPUT:
                        cid = child["custom_id"]
                        row.append(
                            {
                                "type": TEXT_INPUT,
                                "id": child.get("id", 0),
                                "custom_id": cid,
                                "value": values.get(cid, ""),
                            }
                        )
                components.append({"type": ACTION_ROW, "id": top.get("id", 0), "components": row})
            elif top.get("type") == 18:  # label wrapping one component
                child = top.get("component", {})
                cid = child.get("custom_id", "")
                inner: Json = {
                    "type": child.get("type"),
                    "id": child.get("id", 0),
                    "custom_id": cid,
                }
                if child.get("type") == TEXT_INPUT:
                    inner["value"] = values.get(cid, "")
                else:
                    v = values.get(cid, [])
                    inner["values"] = list(v) if not isinstance(v, str) else [v]
                components.append({"type": 18, "id": top.get("id", 0), "component": inner})
    else:
        for cid, value in values.items():
            components.append(
                {
                    "type": ACTION_ROW,
                    "components": [{"type": TEXT_INPUT, "custom_id": cid, "value": value}],
                }
            )
    return _interaction_base(
        kind=MODAL_SUBMIT,
        data={"custom_id": custom_id, "components": components},
        who=who,
        application_id=application_id,
        guild_id=guild_id,
        channel=channel,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        interaction_id=interaction_id,
        token=token,
        entitlements=(),
        message=message_data,
    )


def resolved_users(*whos: Json, guild: bool = True) -> Json:
    """``data.resolved`` for user options: users, and members (without their
    ``user`` key, with permissions) in a guild."""
    out: Json = {"users": {}}
    if guild:
        out["members"] = {}
    for who in whos:
        u = user_of(who)
        out["users"][u["id"]] = u
        if guild:
            m = dict(member_of(who) or member(u))
            m.pop("user", None)
            m.setdefault("permissions", str(MEMBER_PERMISSIONS.value))
            out["members"][u["id"]] = m
    return out


_user_of = user_of  # backward-compatible private names
_member_of = member_of


def message(
    channel_id: int,
    *,
    author: Json,
    content: str = "",
    message_id: int | None = None,
    guild_id: int | None = None,
    components: Sequence[Json] = (),
    embeds: Sequence[Json] = (),
    flags: int = 0,
    application_id: int | None = None,
) -> Json:
    """A Message object as Discord returns it (e.g. the ``message`` of a
    component interaction on a message the fake did not record)."""
    mid = message_id if message_id is not None else snowflake()
    data: Json = {
        "id": str(mid),
        "channel_id": str(channel_id),
        "type": 0,
        "content": content,
        "author": author,
        "timestamp": snowflake_time(mid),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": list(embeds),
        "pinned": False,
        "flags": flags,
        "components": list(components),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if application_id is not None:
        data["webhook_id"] = str(application_id)
        data["application_id"] = str(application_id)
    return data


def clone_json(data: Any) -> Any:
    """A deep copy of JSON data (what Discord sends or receives): a JSON round trip
    (orjson, as discord.py uses when installed), several times faster than
    ``copy.deepcopy`` on payloads, which the load benchmark spends the bot's core on at
    every call."""
    if data is None:
        return None
    return _json_loads(_json_dumps(data))
