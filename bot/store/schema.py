"""The SQLite schema as an ordered list of migrations.

The database records the number of the last migration it received in
``schema_version``. Opening a store applies every later migration in order,
each in its own ``BEGIN IMMEDIATE`` transaction together with the new version
number, so an interrupted upgrade leaves the database at a whole version.
Never edit a released migration: append a new one (see ``docs/store.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.store.records import SchemaTooNew


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]
    """Executed one by one (not ``executescript``, which would commit on its own)."""


APPEND_ONLY_TRIGGERS: tuple[str, ...] = (
    """
            CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
            BEGIN SELECT RAISE(ABORT, 'the decision log is append-only'); END
            """,
    """
            CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions
            BEGIN SELECT RAISE(ABORT, 'the decision log is append-only'); END
            """,
)
"""The triggers that keep ``decisions`` append-only (created by migration 1). Only the
one-time upgrade of a live match's format-1 log (``Store.load_match``) drops them, and
recreates them inside the same transaction."""
APPEND_ONLY_TRIGGER_NAMES: tuple[str, ...] = ("decisions_no_update", "decisions_no_delete")

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "matches, seats and the append-only decision log",
        (
            """
            CREATE TABLE matches (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id    INTEGER NOT NULL,
                channel_id  INTEGER NOT NULL,
                thread_id   INTEGER,
                host_id     INTEGER NOT NULL,
                game        TEXT    NOT NULL,
                mode        TEXT    NOT NULL,
                options     TEXT    NOT NULL DEFAULT '{}',
                status      TEXT    NOT NULL DEFAULT 'lobby'
                            CHECK (status IN ('lobby', 'live', 'finished', 'abandoned', 'cancelled')),
                seed        TEXT,
                version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
                snapshot    TEXT,
                start_seats TEXT,
                locale      TEXT    NOT NULL DEFAULT 'en',
                created_at  REAL    NOT NULL,
                updated_at  REAL    NOT NULL,
                started_at  REAL,
                finished_at REAL
            )
            """,
            "CREATE INDEX matches_active ON matches (status) WHERE status IN ('lobby', 'live')",
            "CREATE INDEX matches_channel ON matches (channel_id, thread_id)",
            "CREATE INDEX matches_thread ON matches (thread_id) WHERE thread_id IS NOT NULL",
            "CREATE INDEX matches_guild_recent ON matches (guild_id, updated_at)",
            """
            CREATE TABLE seats (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                idx      INTEGER NOT NULL CHECK (idx >= 0),
                name     TEXT    NOT NULL,
                user_id  INTEGER,
                ai       INTEGER NOT NULL DEFAULT 0 CHECK (ai IN (0, 1)),
                ai_level TEXT,
                PRIMARY KEY (match_id, idx)
            )
            """,
            "CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL",
            """
            CREATE TABLE decisions (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                match_id   INTEGER NOT NULL REFERENCES matches (id),
                seq        INTEGER NOT NULL CHECK (seq >= 1),
                seat       INTEGER NOT NULL,
                key        TEXT    NOT NULL,
                option     TEXT    NOT NULL,
                by_ai      INTEGER NOT NULL DEFAULT 0 CHECK (by_ai IN (0, 1)),
                created_at REAL    NOT NULL,
                UNIQUE (match_id, seq)
            )
            """,
            # The log is append-only: the database itself refuses edits and deletions.
            *APPEND_ONLY_TRIGGERS,
        ),
    ),
    Migration(
        2,
        "Discord messages a match owns, and decision deadlines",
        (
            """
            CREATE TABLE messages (
                match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                role       TEXT    NOT NULL,
                channel_id INTEGER NOT NULL,
                message_id INTEGER NOT NULL,
                updated_at REAL    NOT NULL,
                PRIMARY KEY (match_id, role)
            )
            """,
            """
            CREATE TABLE deadlines (
                match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                key       TEXT    NOT NULL,
                seat      INTEGER NOT NULL,
                due_at    REAL    NOT NULL,
                remind_at REAL    NOT NULL,
                reminded  INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
                PRIMARY KEY (match_id, key)
            )
            """,
            "CREATE INDEX deadlines_due ON deadlines (due_at)",
        ),
    ),
    Migration(
        3,
        "guild settings and user preferences",
        (
            """
            CREATE TABLE guild_settings (
                guild_id    INTEGER PRIMARY KEY,
                locale      TEXT,
                use_threads INTEGER NOT NULL DEFAULT 0 CHECK (use_threads IN (0, 1)),
                updated_at  REAL    NOT NULL
            )
            """,
            """
            CREATE TABLE user_prefs (
                user_id    INTEGER PRIMARY KEY,
                dm         INTEGER NOT NULL DEFAULT 0 CHECK (dm IN (0, 1)),
                dm_closed  INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
                locale     TEXT,
                updated_at REAL    NOT NULL
            )
            """,
        ),
    ),
    Migration(
        4,
        "per-match table settings (decision deadlines) kept apart from the game options",
        (
            "ALTER TABLE matches ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'",
            # Bots before version 4 kept the deadlines as ``timer:<timing>`` rows of
            # the messages table (seconds in message_id): move them over.
            """
            UPDATE matches SET settings = json_object(
                'timers',
                (
                    SELECT json_group_object(substr(role, 7), message_id)
                    FROM messages
                    WHERE messages.match_id = matches.id AND role LIKE 'timer:%'
                )
            )
            WHERE EXISTS (
                SELECT 1 FROM messages
                WHERE messages.match_id = matches.id AND role LIKE 'timer:%'
            )
            """,
            "DELETE FROM messages WHERE role LIKE 'timer:%'",
        ),
    ),
    Migration(
        5,
        "private notices not yet shown to their player survive a restart",
        (
            """
            CREATE TABLE notices (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seat       INTEGER NOT NULL CHECK (seat >= 0),
                version    INTEGER NOT NULL,
                text_fr    TEXT    NOT NULL,
                text_en    TEXT    NOT NULL,
                delivered  INTEGER NOT NULL DEFAULT 0 CHECK (delivered IN (0, 1)),
                created_at REAL    NOT NULL
            )
            """,
            "CREATE INDEX notices_pending ON notices (match_id, seat) WHERE delivered = 0",
        ),
    ),
    Migration(
        6,
        "structured answers in the decision log, and the log format of each match",
        (
            # JSON of a structured answer ({"options": [...]} or {"amounts": {...}});
            # NULL for a one-option choice, whose id stays in ``option``.
            "ALTER TABLE decisions ADD COLUMN answer TEXT",
            # 1: choices recorded before structured decisions (upgraded by the game when
            # replayed); new matches are logged in ``bot.engine.match.LOG_FORMAT``.
            "ALTER TABLE matches ADD COLUMN log_format INTEGER NOT NULL DEFAULT 1",
        ),
    ),
    Migration(
        7,
        "the outbox: public posts and edits a commit implies, stored with it, delivered after",
        (
            """
            CREATE TABLE outbox (
                id           INTEGER PRIMARY KEY AUTOINCREMENT,
                match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                version      INTEGER NOT NULL,
                kind         TEXT    NOT NULL CHECK (kind IN ('post', 'edit')),
                role         TEXT,
                channel_id   INTEGER NOT NULL,
                payload      TEXT,
                message_id   INTEGER,
                attempts     INTEGER NOT NULL DEFAULT 0,
                delivered    INTEGER NOT NULL DEFAULT 0 CHECK (delivered IN (0, 1)),
                created_at   REAL    NOT NULL,
                delivered_at REAL
            )
            """,
            "CREATE INDEX outbox_pending ON outbox (match_id, id) WHERE delivered = 0",
            # What the game master shows publicly between posts (events not yet posted,
            # the round board's state), written with each decision: a restart resumes it.
            "ALTER TABLE matches ADD COLUMN public_state TEXT",
            # Deadline ticks read only what is due (reminders included) through an index.
            "CREATE INDEX deadlines_remind ON deadlines (remind_at) WHERE reminded = 0",
        ),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version


async def current_version(db: aiosqlite.Connection) -> int:
    """The schema version of ``db``; 0 for an empty database."""
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ) as cur:
        if await cur.fetchone() is None:
            return 0
    async with db.execute("SELECT version FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Bring ``db`` (opened in autocommit mode) up to ``target``; return the version reached.

    Each step runs with its version bump in one transaction: a crash during an
    upgrade leaves the previous version intact and the next open retries it.
    """
    steps = MIGRATIONS  # read at call time so tests can substitute the list
    versions = [m.version for m in steps]
    if versions != list(range(1, len(steps) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n in order, got {versions}")
    latest = versions[-1]
    target = latest if target is None else target
    version = await current_version(db)
    if version > latest:
        raise SchemaTooNew(
            f"database schema version {version} is newer than this bot's ({latest}); "
            "upgrade the bot instead of opening this file with an older one"
        )
    for step in steps:
        if step.version <= version or step.version > target:
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            for sql in step.statements:
                await db.execute(sql)
            await db.execute("DELETE FROM schema_version")
            await db.execute("INSERT INTO schema_version (version) VALUES (?)", (step.version,))
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
        version = step.version
    return version
