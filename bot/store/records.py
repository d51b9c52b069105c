"""What the store hands back: plain pydantic records, no live connection inside."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.engine import SeatSpec, Text

Status = Literal["lobby", "live", "finished", "abandoned", "cancelled"]
STATUSES: tuple[str, ...] = ("lobby", "live", "finished", "abandoned", "cancelled")
ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "live")
"""A match in one of these is resumed after a restart."""
TERMINAL_STATUSES: tuple[str, ...] = ("finished", "abandoned", "cancelled")
"""A match in one of these is over: it gets ``finished_at`` and loses its timers."""


class StoreConflict(Exception):
    """The stored match is not in the state the caller assumed.

    Raised when a decision does not follow the stored version (another task
    committed first, or a decision was lost), or when a lobby-only change is
    made to a started match. Nothing was written.
    """


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot; refuse to touch it."""


class MatchRecord(BaseModel):
    """One row of ``matches`` with its seats."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    host_id: int
    game: str
    mode: str
    options: dict[str, Any]
    status: str
    seed: str | None
    version: int
    seats: list[SeatSpec] = Field(default_factory=list)
    locale: str
    snapshot: dict[str, Any] | None
    log_format: int = 1
    """How its decisions were logged: 1 before structured decisions (upgraded by the game
    on replay), ``bot.engine.match.LOG_FORMAT`` for matches started since."""
    created_at: float
    updated_at: float
    finished_at: float | None


class Deadline(BaseModel):
    """A decision timer that survives restarts (reminder first, then AI takeover)."""

    match_id: int
    key: str
    seat: int
    due_at: float
    remind_at: float
    reminded: bool


class Notice(BaseModel):
    """A private event for one seat (its hand, its secret pick...), kept until shown."""

    id: int
    match_id: int
    seat: int
    version: int
    """The match version whose decision produced it."""
    text: Text
    delivered: bool


class GuildSettings(BaseModel):
    guild_id: int
    locale: str | None = None
    use_threads: bool = True
    """The lobby's "play in a thread" default (issue 11.2): on for a server that never
    chose (a server that only set its language before kept its stored "off")."""


class UserPrefs(BaseModel):
    user_id: int
    dm: bool = False
    dm_closed: bool = False
    locale: str | None = None


class OutboxEntry(BaseModel):
    """A public post or edit a commit implies, written in that commit's transaction.

    ``payload`` is opaque to the store (the game master's rendered message and how to
    deliver it). ``kind`` ``post`` creates a message (``role``: the match message it
    becomes, e.g. ``round``); ``edit`` changes the message playing ``role``.
    """

    kind: Literal["post", "edit"]
    channel_id: int
    payload: dict[str, Any]
    role: str | None = None


class OutboxItem(OutboxEntry):
    """A stored :class:`OutboxEntry`, in delivery order (``id``) within its match."""

    id: int
    match_id: int
    version: int
    """The match version whose commit implied it."""
    message_id: int | None = None
    attempts: int = 0


class PrunedMatch(BaseModel):
    """A finished match deleted after ``ARENA_PRUNE_DAYS`` (its log file was posted)."""

    match_id: int
    guild_id: int
    game: str
    status: str
    finished_at: float | None
    pruned_at: float
