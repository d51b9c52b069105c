"""Persistence: matches, seats, the decision log, messages, timers and preferences
(SQLite by default, PostgreSQL for several processes).

Only the bot's I/O layer uses this package; the engine and the games never
import it (nor a database driver). See ``docs/store.md`` for the schema and the
transaction discipline.
"""

from bot.store.records import (
    ACTIVE_STATUSES,
    STATUSES,
    TERMINAL_STATUSES,
    Deadline,
    GuildSettings,
    MatchRecord,
    Notice,
    OutboxEntry,
    OutboxItem,
    PrunedMatch,
    SchemaTooNew,
    StoreConflict,
    UserPrefs,
)
from bot.store.schema import LATEST_VERSION, MIGRATIONS, Migration
from bot.store.store import Store

__all__ = [
    "ACTIVE_STATUSES",
    "LATEST_VERSION",
    "MIGRATIONS",
    "STATUSES",
    "TERMINAL_STATUSES",
    "Deadline",
    "GuildSettings",
    "MatchRecord",
    "Notice",
    "OutboxEntry",
    "OutboxItem",
    "PrunedMatch",
    "Migration",
    "SchemaTooNew",
    "Store",
    "StoreConflict",
    "UserPrefs",
]
