"""The match store: SQLite (one file, the default) or PostgreSQL (several bot processes).

Transaction discipline (see ``docs/store.md``):

- Every write is one transaction (``BEGIN IMMEDIATE`` on SQLite, under the
  store's lock, so the write lock is held from the first read that decides
  the write). The hot writes (a decision, a delivered post, a timer) are
  batches: the whole transaction in one hop to the database thread, the lock
  held for the statements' own time (:mod:`bot.store.backend`). Reads take
  no lock: they see the last commit.
- A decision and the snapshot it produced are written in ONE transaction
  (:meth:`Store.commit_decision`), and only if the stored match is still at
  the version the decision was built on (compare-and-swap: across processes
  too). The Discord layer posts only after that returns, so whatever players
  saw is always recoverable from the database.
- The decision log is append-only (triggers refuse UPDATE/DELETE, except the
  deletion of a pruned match's log), and a match's ``version`` always equals
  the ``seq`` of its last logged decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import EllipsisType
from typing import Any, Generic, Literal, TypeVar

import orjson
from pydantic_core import to_json

from bot.engine import Choice, Match, SeatSpec, Text
from bot.engine.match import LOG_FORMAT, SNAPSHOT_FORMAT
from bot.store.backend import (
    Backend,
    BatchRefused,
    PostgresBackend,
    Row,
    SqliteBackend,
    Stmt,
    Tx,
    is_postgres_url,
)
from bot.store.counts import WriteCounts
from bot.store.mirror import OutboxMirror
from bot.store.pg_commit import COMMIT_DECISION, DecisionWrite
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
    StoreConflict,
    UserPrefs,
)
from bot.store.schema import (
    append_only_triggers,
    current_version,
    drop_append_only_triggers,
    migrate,
)

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]

_log = logging.getLogger(__name__)

_MATCH_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_id, game, mode, options, status, seed, "
    "version, snapshot, locale, log_format, created_at, updated_at, finished_at"
)
_INSERT_DECISION = (
    "INSERT INTO decisions (match_id, seq, seat, key, option, answer, by_ai, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
"""One row of the decision log (a commit, a start, an upgrade)."""
_INSERT_OUTBOX = (
    "INSERT INTO outbox (match_id, version, kind, role, channel_id, payload, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
"""One outbox row of a commit; its id comes back for the mirror (:func:`_outbox_rows`)."""
_INSERT_NOTICE = (
    "INSERT INTO notices (match_id, seat, version, text_fr, text_en, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
"""One private notice, stored undelivered."""
_UPSERT_DEADLINE = (
    "INSERT INTO deadlines (match_id, key, seat, due_at, remind_at, reminded) "
    "VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT (match_id, key) DO UPDATE SET "
    "seat = excluded.seat, due_at = excluded.due_at, "
    "remind_at = excluded.remind_at, reminded = 0"
)
"""A timer armed, or armed again from scratch."""


def _deadline_stmts(
    match_id: int, deadlines: Sequence[tuple[str, int, float, float]]
) -> list[Stmt]:
    """The upsert of the timers armed, (key, seat, due at, remind at) each."""
    if not deadlines:
        return []
    return [
        Stmt(
            _UPSERT_DEADLINE,
            many=[(match_id, key, seat, due, remind) for key, seat, due, remind in deadlines],
        )
    ]


_UPSERT_MESSAGE = (
    "INSERT INTO messages (match_id, role, channel_id, message_id, updated_at) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, role) DO UPDATE SET "
    "channel_id = excluded.channel_id, message_id = excluded.message_id, "
    "updated_at = excluded.updated_at"
)
"""The Discord message (channel, message) playing a role of a match, set or replaced."""


def _dumps(data: Any) -> str:
    """Compact JSON, non-ASCII kept as is: what ``json.dumps(data, separators=(",", ":"),
    ensure_ascii=False)`` writes (numbers may be spelt differently, ``1e16`` for
    ``1e+16``: the same values once read), by pydantic's encoder, several times faster
    on a large snapshot or a post with its image."""
    return to_json(data).decode()


def _payload_json(payload: dict[str, Any]) -> str:
    """An outbox payload as stored: the game master's message as JSON (string keys,
    strings, whole numbers, booleans) with its images in base64, tens of kB. orjson
    writes the same compact JSON, non-ASCII kept, about three times faster than
    :func:`_dumps` on such a payload, and reads it back about three times faster than
    :func:`json.loads` (issue 16: the event loop's work per click)."""
    return orjson.dumps(payload).decode()


def _answer_columns(choice: Choice) -> tuple[str, str | None]:
    """``(option, answer)`` as stored: a one-option choice keeps its id in ``option``;
    a structured one has ``option = ''`` and its ``options``/``amounts`` as JSON."""
    answer: dict[str, Any] = {}
    if choice.options is not None:
        answer["options"] = choice.options
    if choice.amounts is not None:
        answer["amounts"] = choice.amounts
    return choice.option or "", _dumps(answer) if answer else None


def _outbox_rows(
    match_id: int, version: int, entries: list[OutboxEntry], ids: Sequence[int]
) -> list[OutboxItem]:
    """The outbox rows ``entries`` became, with the ids their inserts returned (``ids``:
    the batch's results from the first insert on, other statements' after them): what
    :meth:`Store.outbox` would read back (the payload the very dict written, whose JSON
    is what the row holds)."""
    if len(ids) < len(entries):
        raise ValueError("an outbox row without its id")
    return [
        OutboxItem(
            id=row_id,
            match_id=match_id,
            version=version,
            kind=e.kind,
            role=e.role,
            channel_id=e.channel_id,
            payload=e.payload,
        )
        for e, row_id in zip(entries, ids, strict=False)
    ]


def _choice_of(row: Mapping[str, Any]) -> Choice:
    """The exact :class:`Choice` a stored row holds (inverse of :func:`_answer_columns`)."""
    if row["answer"] is None:
        return Choice(seat=row["seat"], key=row["key"], option=row["option"])
    answer = json.loads(row["answer"])
    return Choice(
        seat=row["seat"],
        key=row["key"],
        option=row["option"] or None,
        options=answer.get("options"),
        amounts=answer.get("amounts"),
    )


K = TypeVar("K")
V = TypeVar("V")


class _ReadCache(Generic[K, V]):
    """What this process read from the database, kept until it writes that key again.

    Only for a database no other process writes (SQLite; with Postgres another bot
    process may write it, so ``enabled`` is off). Every write of a key is counted when
    it begins and when it ends, and a read is kept only if the count did not move while
    it ran: a read overlapping a write (which may or may not have seen it) is never kept.
    Counts are only dropped with the match they belong to (:meth:`Store.prune`).
    """

    def __init__(self, enabled: bool, limit: int = 5000) -> None:
        self.enabled = enabled
        self._limit = limit
        self._writes: WriteCounts[K] = WriteCounts()
        self._values: dict[K, tuple[int, V]] = {}

    def stamp(self, key: K) -> int:
        """Taken before a read, given back to :meth:`keep`."""
        return self._writes.stamp(key)

    def get(self, key: K) -> V | None:
        """The value read last, if no write of ``key`` began since (None: read it)."""
        hit = self._values.get(key) if self.enabled else None
        return hit[1] if hit is not None and not self._writes.moved(key, hit[0]) else None

    def keep(self, key: K, stamp: int, value: V) -> None:
        """``value``, read from ``stamp`` on, unless a write of ``key`` began or ended since."""
        if not self.enabled or self._writes.moved(key, stamp):
            return
        self._values.pop(key, None)
        self._values[key] = (stamp, value)
        if len(self._values) > self._limit:
            del self._values[next(iter(self._values))]  # the oldest read: read again

    @contextlib.contextmanager
    def writing(self, *keys: K) -> Iterator[None]:
        """Around a write of ``keys``: counted before and after it."""
        with contextlib.ExitStack() as counted:
            for key in keys:
                counted.enter_context(self._writes.counting(key))
                self._values.pop(key, None)
            try:
                yield
            finally:
                for key in keys:
                    self._values.pop(key, None)

    @contextlib.contextmanager
    def writing_through(self, key: K, change: Callable[[V], None]) -> Iterator[None]:
        """Around a write of ``key`` whose effect on the value is known: once it succeeded,
        the value kept before it (if any) is kept again with ``change`` applied, unless
        another write of ``key`` began or ended meanwhile (then it is read again)."""
        before = self.get(key)
        start = self._writes.stamp(key)
        with self.writing(key):
            yield
        if before is not None:
            change(before)
            self.keep(key, start + 2, before)  # refused if another write moved the count

    def drop(self, key: K) -> None:
        """Forget ``key`` altogether (its match was deleted: nothing reads it again)."""
        self._writes.drop(key)
        self._values.pop(key, None)


@dataclass(frozen=True)
class _Logged:
    """One of today's choices replayed from an older log, with what its row keeps."""

    choice: Choice
    by_ai: bool
    """Whether the AI made it (every old step it merges was the AI's)."""
    created_at: float
    """When it was made (its last old step)."""


def _upgrade(
    record: MatchRecord, start: list[SeatSpec], rows: list[dict[str, Any]]
) -> tuple[Match, list[_Logged]]:
    """Replay stored rows from the seed, like :meth:`Match.replay` with the record's log format.

    Format-1 choices go through :meth:`Game.upgrade_choice` exactly as
    :meth:`Match.replay` feeds them (held until the game returns today's choice);
    this keeps, for each of today's choices, who made it and when. Old choices the
    game still holds at the end (part of an answer now asked in one go) are
    dropped: the player gives that answer again. Runs in a worker thread.
    """
    assert record.seed is not None
    match = Match.create(record.game, start, record.seed, record.mode, record.options)
    log: list[_Logged] = []
    held: list[Choice] = []
    held_rows: list[dict[str, Any]] = []
    for row in rows:
        choice = _choice_of(row)
        if record.log_format >= LOG_FORMAT:
            match.apply(choice)
            log.append(_Logged(choice, bool(row["by_ai"]), row["created_at"]))
            continue
        held.append(choice)
        held_rows.append(row)
        new = match.game.upgrade_choice(match.state, match.pending(), held)
        if new is not None:
            by_ai = all(bool(r["by_ai"]) for r in held_rows)
            created_at = held_rows[-1]["created_at"]
            held.clear()
            held_rows.clear()
            match.apply(new)
            log.append(_Logged(new, by_ai, created_at))
    match.seats = list(record.seats)
    return match, log


def _load_snapshot(text: str, choices: list[Choice]) -> Match | None:
    """A match from its snapshot JSON (worker thread); None when it must be replayed
    instead (an older snapshot format, or a log of format 1, marked ``!``)."""
    if text.startswith("!"):
        return None
    data = json.loads(text)
    if int(data.get("format", 1)) < SNAPSHOT_FORMAT:
        return None
    return Match.from_snapshot(data, choices=choices)


def snapshot_agrees(replayed: dict[str, Any], stored: dict[str, Any]) -> tuple[bool, str]:
    """Whether a replayed snapshot is the stored one; why not, in words.

    A snapshot of an older format (written before structured decisions) holds a game
    state today's code does not read, and its version counts the old steps: then the
    parts every format shares must agree, above all the dice stream (how many draws
    were used), which a skipped, extra or reordered roll would change.
    """
    if int(stored.get("format", 1)) >= SNAPSHOT_FORMAT:
        same = json.loads(_dumps(replayed)) == json.loads(_dumps(stored))
        return same, "the replay equals the stored snapshot" if same else (
            "the replayed state differs from the stored snapshot"
        )
    for part in ("dice", "mode", "options", "seats"):
        if json.loads(_dumps(replayed.get(part))) != json.loads(_dumps(stored.get(part))):
            return False, f"the replay's {part} differ from the stored (format 1) snapshot"
    return True, (
        f"the replay has the stored dice stream ({replayed['dice']['counter']} draws), mode, "
        "options and seats (the stored snapshot is of format 1)"
    )


class Store:
    """All persistence of the bot: one instance per process and file.

    Its lock serialises this process's statements; another process opening
    the same file (``verify``, a backup) waits on ``busy_timeout`` instead.
    """

    def __init__(
        self,
        backend: Backend,
        clock: Callable[[], float] = time.time,
        checkpoint_every: float = 1.0,
    ) -> None:
        self._backend = backend
        self._clock = clock
        self._between_statements: Callable[[], Awaitable[None]] | None = None
        """Test hook: awaited inside :meth:`commit_decision` between the version swap and
        the log insert, to prove a crash there leaves the old state or the new, never a mix
        (the commit then runs statement by statement instead of in one hop)."""
        self.checkpoints = 0
        """Background WAL checkpoints done so far (SQLite; for tests and diagnostics)."""
        alone = backend.dialect != "postgres"
        self._no_notices: _ReadCache[int, frozenset[int]] = _ReadCache(alone)
        """Seats of a match whose last read found no undelivered notice: answered without
        a read until a notice is added for the match."""
        self._roles: _ReadCache[int, dict[str, tuple[int, int]]] = _ReadCache(alone)
        """The messages playing each role of a match (read on every delivery)."""
        self._prefs: _ReadCache[int, UserPrefs] = _ReadCache(alone)
        """Users' preferences (read for every DM)."""
        self._outbox = OutboxMirror(alone)
        """Undelivered outbox rows as this process wrote them (read after every commit)."""
        self._ckpt_task: asyncio.Task[None] | None = None
        if isinstance(backend, SqliteBackend) and backend.target != ":memory:":
            self._ckpt_task = asyncio.create_task(
                self._checkpoint_loop(backend, checkpoint_every), name="store-wal-checkpoint"
            )

    @property
    def backend(self) -> Backend:
        """The database under the store (its dialect, counters; raw access for tests)."""
        return self._backend

    @property
    def shared(self) -> bool:
        """Whether other bot processes may write the same database (PostgreSQL): the game
        master then checks a match's stored version before deciding on its copy."""
        return self._backend.dialect == "postgres"

    # --- opening ---------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        clock: Callable[[], float] = time.time,
        checkpoint_every: float = 1.0,
        pool_size: int = 8,
    ) -> Store:
        """Open and migrate: a SQLite file path (created with its parent directories if
        needed) or a ``postgresql://`` URL (``ARENA_DATABASE_URL``).

        SQLite: ``journal_mode=WAL``: readers never block the writer and a commit is
        one sequential append to the WAL file. ``synchronous=NORMAL``: in WAL
        mode this still never corrupts the database and a committed
        transaction survives a crash of the bot process (the WAL is written
        before COMMIT returns); only an OS crash or power loss can roll back
        the last few commits, to an older but consistent state that the bot
        resumes from. In exchange no fsync happens per commit, only at
        checkpoints, which keeps decision commits to a few milliseconds (the
        budget is p99 <= 20 ms). Pass ``synchronous="FULL"`` to fsync every
        commit instead. ``foreign_keys=ON``: seats, messages and deadlines
        cannot point at a match that does not exist.

        WAL checkpoints (copying the WAL back into the database, with an
        fsync) run every ``checkpoint_every`` seconds on a third connection,
        off the commit path: SQLite's automatic checkpoint would otherwise run
        inside whichever decision commit crosses 1,000 WAL pages and make it
        100+ ms slow. The automatic one stays as a backstop at 10,000 pages.

        PostgreSQL: a pool of ``pool_size`` connections; durability and
        concurrency are the server's (a decision commit is a compare-and-swap on
        the match's version, so two processes never both apply one).
        """
        backend: Backend
        if is_postgres_url(target):
            backend = await PostgresBackend.open(str(target), pool_size=pool_size)
        else:
            memory = str(target) == ":memory:"
            backend = await SqliteBackend.open(
                target,
                [
                    "PRAGMA journal_mode=WAL",
                    f"PRAGMA synchronous={synchronous}",
                    "PRAGMA foreign_keys=ON",
                    "PRAGMA busy_timeout=5000",
                    *([] if memory else ["PRAGMA wal_autocheckpoint=10000"]),
                ],
                [
                    f"PRAGMA synchronous={synchronous}",
                    "PRAGMA foreign_keys=ON",
                    "PRAGMA busy_timeout=5000",
                ],
            )
        try:
            await migrate(backend)
        except BaseException:
            await backend.close()
            raise
        return cls(backend, clock, checkpoint_every)

    async def close(self) -> None:
        if self._ckpt_task is not None:
            self._ckpt_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ckpt_task
            self._ckpt_task = None
        await self._backend.close()

    async def _checkpoint_loop(self, backend: SqliteBackend, every: float) -> None:
        """PASSIVE checkpoints, only after writes: they never wait for, nor block, the writer."""
        seen = backend.writes
        while True:
            await asyncio.sleep(every)
            if backend.writes == seen:
                continue
            seen = backend.writes
            if await backend.checkpoint():  # busy: the next round (or the backstop) retries
                self.checkpoints += 1

    async def schema_version(self) -> int:
        async with self._backend.read() as db:
            return await current_version(db)

    # --- transactions ----------------------------------------------------------------
    def _write(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """One transaction (``BEGIN IMMEDIATE`` on SQLite), rolled back on any exception."""
        return self._backend.write()

    def _read(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """Reads of committed data, without the write lock."""
        return self._backend.read()

    # --- matches ---------------------------------------------------------------------
    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        game: str,
        mode: str,
        options: dict[str, Any],
        locale: str,
    ) -> int:
        """A new match in status ``lobby``; returns its id."""
        now = self._clock()
        insert = Stmt(
            "INSERT INTO matches (guild_id, channel_id, thread_id, host_id, game, mode, "
            "options, status, locale, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                thread_id,
                host_id,
                game,
                mode,
                _dumps(options),
                locale,
                now,
                now,
            ),
            returns_id=True,
        )
        (match_id,) = await self._backend.batch([insert])  # one hop: no lock held meanwhile
        return match_id

    async def update_lobby(
        self,
        match_id: int,
        *,
        seats: list[SeatSpec] | None = None,
        mode: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Change who sits where, the mode or the options while the match is a lobby."""
        stmts: list[Stmt] = []
        if mode is not None:
            stmts.append(Stmt("UPDATE matches SET mode = ? WHERE id = ?", (mode, match_id)))
        if options is not None:
            stmts.append(
                Stmt("UPDATE matches SET options = ? WHERE id = ?", (_dumps(options), match_id))
            )
        if seats is not None:
            stmts += self._seat_stmts(match_id, seats)
        await self._lobby_batch(match_id, stmts)

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        """The lobby's match will be played in ``thread_id`` (made at Start)."""
        await self._lobby_batch(
            match_id, [Stmt("UPDATE matches SET thread_id = ? WHERE id = ?", (thread_id, match_id))]
        )

    async def start_match(
        self,
        match_id: int,
        match: Match,
        *,
        outbox: Iterable[OutboxEntry] = (),
        public_state: dict[str, Any] | None = None,
        deadlines: Iterable[tuple[str, int, float, float]] = (),
    ) -> None:
        """The lobby becomes live: seed, effective mode/options, seats and first snapshot.

        Choices the match already holds (normally none) are logged in the same
        transaction, so the log always replays to the snapshot. ``outbox``: the public
        posts and edits the start implies (the lobby closed, the first board...),
        ``public_state`` and ``deadlines`` (key, seat, due_at, remind_at) the game
        master's, all written in the same transaction.
        """
        entries = list(outbox)
        timers = list(deadlines)
        snapshot = _dumps(match.snapshot())
        if len(match.choices) != match.version:
            raise ValueError("match.choices must hold every applied choice")
        now = self._clock()
        status = "finished" if match.over else "live"
        stmts = self._seat_stmts(match_id, match.seats)
        if match.choices:
            stmts.append(
                Stmt(
                    _INSERT_DECISION,
                    many=[
                        (match_id, seq, c.seat, c.key, *_answer_columns(c), 0, now)
                        for seq, c in enumerate(match.choices, start=1)
                    ],
                )
            )
        stmts.append(
            Stmt(
                "UPDATE matches SET status = ?, seed = ?, mode = ?, options = ?, snapshot = ?, "
                "start_seats = ?, version = ?, started_at = ?, updated_at = ?, finished_at = ?, "
                "log_format = ? WHERE id = ?",
                (
                    status,
                    match.seed,
                    match.mode,
                    _dumps(match.options),
                    snapshot,
                    _dumps([s.model_dump() for s in match.seats]),
                    match.version,
                    now,
                    now,
                    now if status == "finished" else None,
                    LOG_FORMAT,
                    match_id,
                ),
            )
        )
        first = len(stmts) + 1  # the outbox inserts' results, after the lobby's guard
        stmts += self._public_stmts(match_id, match.version, entries, public_state, timers, now)
        with self._outbox.writing(match_id) as mirrored:
            results = await self._lobby_batch(match_id, stmts, game=match.game_id, now=now)
            mirrored.succeeded(_outbox_rows(match_id, match.version, entries, results[first:]))

    async def commit_decision(
        self,
        match_id: int,
        choice: Choice,
        match: Match,
        *,
        by_ai: bool = False,
        notices: Iterable[tuple[int, Text]] = (),
        outbox: Iterable[OutboxEntry] = (),
        public_state: dict[str, Any] | None = None,
        deadlines: Iterable[tuple[str, int, float, float]] = (),
    ) -> None:
        """Log ``choice`` and store the snapshot it produced, in ONE transaction.

        ``match`` has already applied ``choice`` (so ``match.version`` is its
        sequence number). Raises :class:`StoreConflict`, writing nothing, if
        the stored version is not ``match.version - 1`` or the match is not live.
        ``notices`` (seat, text): the private events this decision produced for
        human seats, stored undelivered in the same transaction. ``outbox``: the
        public posts and edits it implies (delivered after the commit, in order,
        until Discord has them); ``public_state``: the game master's public state
        (events not posted yet, the round board); ``deadlines`` (key, seat, due_at,
        remind_at): timers it arms. All in the same transaction.
        """
        pending_notices = list(notices)
        entries = list(outbox)
        if match.choices and match.choices[-1] != choice:
            raise ValueError("commit_decision: choice is not the match's last applied choice")
        option, answer = _answer_columns(choice)
        write = DecisionWrite(
            match_id=match_id,
            version=match.version,
            # Serialised before taking the write lock, here: pydantic's encoder writes even
            # Madsteam's snapshot in about a millisecond, less than a hop to a worker
            # thread (which would hold the interpreter lock all the same).
            snapshot=_dumps(match.snapshot()),
            now=self._clock(),
            over=match.over,
            public_state=None if public_state is None else _dumps(public_state),
            log_format=LOG_FORMAT,
            seat=choice.seat,
            key=choice.key,
            option=option,
            answer=answer,
            by_ai=by_ai,
            notices=[(seat, text.fr, text.en) for seat, text in pending_notices],
            outbox=[(e.kind, e.role, e.channel_id, _payload_json(e.payload)) for e in entries],
            deadlines=list(deadlines),
        )
        hook = self._between_statements
        backend = self._backend
        try:
            with (
                self._no_notices.writing(*([match_id] if pending_notices else [])),
                self._outbox.writing(match_id) as mirrored,
            ):
                if hook is None and isinstance(backend, PostgresBackend):
                    ids = await self._commit_in_one_statement(backend, write)
                else:
                    stmts, first = self._decision_stmts(write)
                    if hook is None:
                        results = await backend.batch(stmts)  # one transaction, one hop
                    else:
                        async with self._write() as db:
                            results = await self._run(db, stmts[:1])
                            await hook()
                            results += await self._run(db, stmts[1:])
                    ids = results[first:]
                mirrored.succeeded(_outbox_rows(match_id, match.version, entries, ids))
        except BatchRefused:
            async with self._read() as db:
                await self._raise_commit_conflict(db, match_id, match.version)
            raise StoreConflict(f"match {match_id} changed during the commit") from None

    @staticmethod
    def _decision_stmts(w: DecisionWrite) -> tuple[list[Stmt], int]:
        """``w`` as a batch of statements (SQLite, or the test hook's statement-by-statement
        transaction), and the index of the first outbox insert, whose result is its id."""
        stmts = [
            # The compare-and-swap: the stored match must still be live at the version this
            # decision was built on. On Postgres the row stays locked until COMMIT, so a
            # second process committing the same version waits, then finds none (issue 15).
            # A match still logged in format 1 takes no new choice before load_match
            # upgraded it. The public state goes in the same statement (None: kept), one
            # statement fewer per decision (a round trip on Postgres; issue 16).
            Stmt(
                "UPDATE matches SET snapshot = ?, version = ?, updated_at = ?, status = ?, "
                "finished_at = ?, public_state = coalesce(?, public_state) "
                "WHERE id = ? AND status = 'live' AND version = ? AND log_format = ?",
                w.swap_params(),
                expect=1,
            ),
            Stmt(
                _INSERT_DECISION,
                (w.match_id, w.version, w.seat, w.key, w.option, w.answer, int(w.by_ai), w.now),
            ),
        ]
        if w.over:
            stmts.append(Stmt("DELETE FROM deadlines WHERE match_id = ?", (w.match_id,)))
        else:  # the answered decision's timer is done (re-armed below if asked again)
            stmts.append(
                Stmt("DELETE FROM deadlines WHERE match_id = ? AND key = ?", (w.match_id, w.key))
            )
        stmts += Store._notice_stmts(w.match_id, w.version, w.notices, w.now)
        first = len(stmts)
        stmts += [
            Stmt(_INSERT_OUTBOX, (w.match_id, w.version, *row, w.now), returns_id=True)
            for row in w.outbox
        ]
        if not w.over:
            stmts += _deadline_stmts(w.match_id, w.deadlines)
        return stmts, first

    @staticmethod
    async def _commit_in_one_statement(backend: PostgresBackend, write: DecisionWrite) -> list[int]:
        """``write`` on PostgreSQL in one round trip (:mod:`bot.store.pg_commit`): the
        new outbox rows' ids, in order; :class:`BatchRefused` if the compare-and-swap found
        another version, nothing written."""
        row = await backend.write_one(COMMIT_DECISION, write.params())
        if row is None or row["swapped"] != 1:
            raise BatchRefused(0, 0 if row is None else int(row["swapped"]))
        return [int(i) for i in row["ids"]]

    @staticmethod
    async def _run(db: Tx, stmts: list[Stmt]) -> list[int]:
        """``stmts`` one by one inside the open transaction ``db`` (as a batch would); their
        row counts, or the inserted row's id for a statement that returns it."""
        results: list[int] = []
        for i, st in enumerate(stmts):
            if st.many is not None:
                await db.executemany(st.sql, st.many)
                results.append(len(st.many))
                continue
            if st.returns_id:
                row = await db.fetchone(st.sql, st.params)
                assert row is not None, "an insert returning its id returns a row"
                results.append(int(row["id"]))
                continue
            count = await db.execute(st.sql, st.params)
            if st.expect is not None and count != st.expect:
                raise BatchRefused(i, count)
            results.append(count)
        return results

    async def _write_public(
        self,
        db: Tx,
        match_id: int,
        version: int,
        entries: list[OutboxEntry],
        public_state: dict[str, Any] | None,
        deadlines: list[tuple[str, int, float, float]],
        now: float,
    ) -> list[OutboxItem]:
        """Outbox rows, public state and timers of a commit (inside its transaction); the
        outbox rows as stored."""
        results = await self._run(
            db, self._public_stmts(match_id, version, entries, public_state, deadlines, now)
        )
        return _outbox_rows(match_id, version, entries, results)

    @staticmethod
    def _public_stmts(
        match_id: int,
        version: int | None,
        entries: list[OutboxEntry],
        public_state: dict[str, Any] | None,
        deadlines: list[tuple[str, int, float, float]],
        now: float,
    ) -> list[Stmt]:
        """The statements storing a commit's public side, the outbox rows first; with a
        ``version``, one insert per row returning its id (:func:`_outbox_rows`); ``version``
        None: the rows are numbered with the match's stored version, read by the insert
        itself."""
        stmts: list[Stmt] = []
        if entries and version is None:
            stmts.append(
                Stmt(
                    "INSERT INTO outbox (match_id, version, kind, role, channel_id, payload, "
                    "created_at) SELECT id, version, CAST(? AS TEXT), CAST(? AS TEXT), "
                    "CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) "
                    "FROM matches WHERE id = ?",
                    many=[
                        (e.kind, e.role, e.channel_id, _payload_json(e.payload), now, match_id)
                        for e in entries
                    ],
                )
            )
        elif entries:
            stmts += [
                Stmt(
                    _INSERT_OUTBOX,
                    (
                        match_id,
                        version,
                        e.kind,
                        e.role,
                        e.channel_id,
                        _payload_json(e.payload),
                        now,
                    ),
                    returns_id=True,
                )
                for e in entries
            ]
        if public_state is not None:
            stmts.append(
                Stmt(
                    "UPDATE matches SET public_state = ? WHERE id = ?",
                    (_dumps(public_state), match_id),
                )
            )
        return stmts + _deadline_stmts(match_id, deadlines)

    # --- outbox ----------------------------------------------------------------------
    async def add_public(
        self,
        match_id: int,
        entries: Iterable[OutboxEntry] = (),
        *,
        public_state: dict[str, Any] | None = None,
        deadlines: Iterable[tuple[str, int, float, float]] = (),
    ) -> None:
        """Queue public posts no decision implies (a lobby, a seat handed to the AI), with
        the public state and timers that go with them, in one transaction; the rows are
        numbered with the match's current version."""
        rows = list(entries)
        timers = list(deadlines)
        if not rows and public_state is None and not timers:
            return
        stmts = [
            # The match must exist (and, on Postgres, its row stays locked until COMMIT).
            Stmt("UPDATE matches SET version = version WHERE id = ?", (match_id,), expect=1),
            *self._public_stmts(match_id, None, rows, public_state, timers, self._clock()),
        ]
        try:
            # Rows numbered by the database's version, which the mirror cannot tell: the
            # match's copy is forgotten (no succeeded()), the next flush reads them.
            with self._outbox.writing(match_id):
                await self._backend.batch(stmts)  # one transaction, one hop
        except BatchRefused:
            raise KeyError(f"no match {match_id}") from None

    async def outbox(self, match_id: int, limit: int = 100) -> list[OutboxItem]:
        """Undelivered posts and edits of a match, in the order they must reach Discord:
        from the mirror of what this process wrote (:mod:`bot.store.mirror`) when it knows
        the match, else read (and kept when the read found them all)."""
        known = self._outbox.get(match_id, limit)
        if known is not None:
            return known
        stamp = self._outbox.stamp(match_id)
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT id, match_id, version, kind, role, channel_id, payload, message_id, "
                "attempts FROM outbox WHERE match_id = ? AND delivered = 0 ORDER BY id LIMIT ?",
                (match_id, limit),
            )
        items = [
            OutboxItem(
                id=r["id"],
                match_id=r["match_id"],
                version=r["version"],
                kind=r["kind"],
                role=r["role"],
                channel_id=r["channel_id"],
                payload=orjson.loads(r["payload"]) if r["payload"] else {},
                message_id=r["message_id"],
                attempts=r["attempts"],
            )
            for r in rows
        ]
        self._outbox.keep(match_id, stamp, items, complete=len(items) < limit)
        return items

    async def outbox_matches(self) -> list[int]:
        """Matches with undelivered outbox rows (an indexed scan), oldest row first."""
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT match_id, min(id) AS first FROM outbox WHERE delivered = 0 "
                "GROUP BY match_id ORDER BY first"
            )
        return [r["match_id"] for r in rows]

    async def outbox_delivered(
        self, item: OutboxItem, message_id: int | None, role: str | None = None
    ) -> None:
        """Discord has ``item``: mark it delivered (its payload, images included, is
        dropped) and, with ``role``, make the new message ``message_id`` play that role,
        in the same transaction."""
        now = self._clock()
        stmts = [
            Stmt(
                "UPDATE outbox SET delivered = 1, delivered_at = ?, message_id = "
                "coalesce(?, message_id), payload = NULL WHERE id = ?",
                (now, message_id, item.id),
            )
        ]
        roles: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
        if role is not None and message_id is not None:
            stmts.append(
                Stmt(_UPSERT_MESSAGE, (item.match_id, role, item.channel_id, message_id, now))
            )
            # The message now playing ``role`` is known: the roles kept stay kept.
            played = (item.channel_id, message_id)
            roles = self._roles.writing_through(item.match_id, lambda r: r.update({role: played}))
        with self._outbox.writing(item.match_id) as mirrored, roles:
            await self._backend.batch(stmts)
            mirrored.succeeded(gone=[item.id])

    async def outbox_failed(self, item_id: int) -> int:
        """One more failed delivery attempt of an outbox row; the attempts so far."""
        async with self._write() as db:
            await db.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (item_id,))
            row = await db.fetchone("SELECT attempts FROM outbox WHERE id = ?", (item_id,))
        attempts = int(row["attempts"]) if row else 0
        self._outbox.attempted(item_id, attempts)
        return attempts

    async def public_state(self, match_id: int) -> dict[str, Any] | None:
        """The game master's public state stored with the match's last commit, if any."""
        async with self._read() as db:
            row = await db.fetchone("SELECT public_state FROM matches WHERE id = ?", (match_id,))
        if row is None or not row["public_state"]:
            return None
        value = json.loads(row["public_state"])
        return value if isinstance(value, dict) else None

    async def _raise_commit_conflict(self, db: Tx, match_id: int, version: int) -> None:
        row = await db.fetchone(
            "SELECT version, status, log_format FROM matches WHERE id = ?", (match_id,)
        )
        if row is None:
            raise StoreConflict(f"match {match_id} does not exist")
        if row["status"] != "live":
            raise StoreConflict(f"match {match_id} is {row['status']}, not live")
        if row["log_format"] != LOG_FORMAT:
            raise StoreConflict(
                f"match {match_id} is logged in format {row['log_format']}: "
                "load_match upgrades it before it takes new decisions"
            )
        raise StoreConflict(
            f"match {match_id} is stored at version {row['version']}; "
            f"a decision producing version {version} does not follow it"
        )

    async def get(self, match_id: int, *, snapshot: bool = True) -> MatchRecord | None:
        """The match's row and seats; ``snapshot=False`` leaves its snapshot unread (None),
        which keeps a large JSON parse off the event loop when only the row is needed."""
        records = await self._records("WHERE id = ?", (match_id,), snapshots=snapshot)
        return records[0] if records else None

    async def load_match(self, match_id: int) -> Match:
        """The live match from its last snapshot, with its logged choices.

        Events from before the load are not kept (the snapshot holds the state,
        not the history); :meth:`replay_match` rebuilds them for the full log.

        A match stored by an older engine (a snapshot ``format`` below
        ``SNAPSHOT_FORMAT``, or a decision log of format 1) is never loaded from
        its snapshot, whose state today's game may not read: it is replayed, its
        old choices upgraded by the game, and a live one is stored upgraded once
        (:meth:`_store_upgrade`).
        """
        for _ in range(3):
            text = await self._snapshot_text(match_id)
            if text is None:
                raise KeyError(f"match {match_id} has not started")
            choices = await self.decisions(match_id)
            # Parsing a snapshot and rebuilding its state is CPU work: a worker thread.
            loaded = await asyncio.to_thread(_load_snapshot, text, choices)
            if loaded is not None:
                return loaded
            record = await self.get(match_id)
            if record is None or record.snapshot is None:
                raise KeyError(f"match {match_id} has not started")
            rows = await self._decision_rows(match_id)
            start = await self._start_seats(record)
            match, log = await asyncio.to_thread(_upgrade, record, start, rows)
            if record.status != "live":
                return match
            try:
                await self._store_upgrade(record, rows, match, log)
            except StoreConflict:
                continue  # the match moved while it was replayed: read it again
            return match
        raise StoreConflict(f"match {match_id} kept changing while it was being upgraded")

    async def _store_upgrade(
        self,
        record: MatchRecord,
        rows: list[dict[str, Any]],
        match: Match,
        log: list[_Logged],
    ) -> None:
        """Store a live match replayed from an older format, once, in ONE transaction.

        The snapshot becomes today's (format ``SNAPSHOT_FORMAT``, log format
        ``LOG_FORMAT``). If the game changed the choices while upgrading them
        (several old one-option steps merged into one structured answer, so the
        version count differs too), the log is rewritten with today's choices: the
        append-only triggers are dropped and recreated inside this transaction, so
        no other connection ever sees the log editable and a crash leaves the old
        log and snapshot whole. Raises :class:`StoreConflict` (nothing written) if
        the match changed since ``record`` was read.
        """
        old = [_choice_of(r) for r in rows]
        new = [entry.choice for entry in log]
        snapshot = _dumps(match.snapshot())
        now = self._clock()
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE matches SET snapshot = ?, version = ?, log_format = ?, updated_at = ? "
                "WHERE id = ? AND status = 'live' AND version = ? AND log_format = ?",
                (
                    snapshot,
                    match.version,
                    LOG_FORMAT,
                    now,
                    record.id,
                    record.version,
                    record.log_format,
                ),
            )
            if changed != 1:
                raise StoreConflict(f"match {record.id} changed while it was being upgraded")
            if new != old:
                for sql in drop_append_only_triggers(db.dialect):
                    await db.execute(sql)
                await db.execute("DELETE FROM decisions WHERE match_id = ?", (record.id,))
                for seq, entry in enumerate(log, start=1):
                    await self._insert_decision(
                        db, record.id, seq, entry.choice, entry.by_ai, entry.created_at
                    )
                for sql in append_only_triggers(db.dialect):
                    await db.execute(sql)
        _log.info(
            "match %s upgraded to log format %s (%s old decisions -> %s%s)",
            record.id,
            LOG_FORMAT,
            len(old),
            len(new),
            ", log rewritten" if new != old else "",
        )

    async def replay_match(self, match_id: int) -> Match:
        """The match rebuilt from seed + mode + options + the decision log (with all events).

        Setup sees the seats as they were at the start (a later AI takeover
        must not change what setup produced); the result carries today's seats.
        A log of format 1 is upgraded by the game as it is replayed. The replay
        runs in a worker thread: a long match must not stall the event loop.
        """
        record = await self.get(match_id)
        if record is None or record.seed is None:
            raise KeyError(f"match {match_id} has not started")
        start = await self._start_seats(record)
        match = await asyncio.to_thread(
            Match.replay,
            record.game,
            start,
            record.seed,
            record.mode,
            record.options,
            await self.decisions(match_id),
            record.log_format,
        )
        match.seats = list(record.seats)
        return match

    async def _snapshot_text(self, match_id: int) -> str | None:
        """The stored snapshot JSON (unparsed) of a started match, with its log format."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT snapshot, log_format FROM matches WHERE id = ?", (match_id,)
            )
        if row is None or row["snapshot"] is None:
            return None
        text: str = row["snapshot"]
        # A format-1 log is never loaded from its snapshot (marked for _load_snapshot).
        return text if row["log_format"] >= LOG_FORMAT else "!" + text

    async def _start_seats(self, record: MatchRecord) -> list[SeatSpec]:
        """The seats ``setup`` saw (``start_seats``); today's for a match stored without them."""
        async with self._read() as db:
            row = await db.fetchone("SELECT start_seats FROM matches WHERE id = ?", (record.id,))
        if row is not None and row["start_seats"] is not None:
            return [SeatSpec.model_validate(s) for s in json.loads(row["start_seats"])]
        return list(record.seats)

    async def check_replay(self, match_id: int) -> bool:
        """Whether the decision log replays exactly to the stored snapshot.

        A snapshot of an older format is compared on what every format shares
        (:func:`snapshot_agrees`).
        """
        record = await self.get(match_id)
        if record is None or record.snapshot is None:
            return False
        replayed = (await self.replay_match(match_id)).snapshot()
        return snapshot_agrees(replayed, record.snapshot)[0]

    async def _decision_rows(self, match_id: int) -> list[dict[str, Any]]:
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT seq, seat, key, option, answer, by_ai, created_at FROM decisions "
                "WHERE match_id = ? ORDER BY seq",
                (match_id,),
            )
        return [dict(r) for r in rows]

    async def decisions(self, match_id: int) -> list[Choice]:
        """The logged choices, in order, exactly as they were made (option, options or amounts)."""
        return [_choice_of(r) for r in await self._decision_rows(match_id)]

    async def decision_log(self, match_id: int) -> list[dict[str, Any]]:
        """The log rows for audits: seq, seat, key, option, options, amounts, by_ai, created_at.

        ``option`` is the id of a one-option answer; ``options`` (a set or an order)
        and ``amounts`` (an allocation) are those of a structured one, else None.
        """
        out: list[dict[str, Any]] = []
        for r in await self._decision_rows(match_id):
            choice = _choice_of(r)
            out.append(
                {
                    "seq": r["seq"],
                    "seat": r["seat"],
                    "key": r["key"],
                    "option": choice.option,
                    "options": choice.options,
                    "amounts": choice.amounts,
                    "by_ai": bool(r["by_ai"]),
                    "created_at": r["created_at"],
                }
            )
        return out

    async def active_matches(self, *, snapshots: bool = True) -> list[MatchRecord]:
        """Lobbies and live matches, oldest first: what a restarted bot resumes.

        ``snapshots=False`` leaves every snapshot unread (None): no JSON parse per match.
        """
        marks = ", ".join("?" * len(ACTIVE_STATUSES))
        return await self._records(
            f"WHERE status IN ({marks}) ORDER BY id", ACTIVE_STATUSES, snapshots=snapshots
        )

    async def active_ids(self) -> list[int]:
        """Ids of lobbies and live matches, oldest first (the partial index, no parsing)."""
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT id FROM matches WHERE status IN ('lobby', 'live') ORDER BY id"
            )
        return [r["id"] for r in rows]

    async def active_of_user_in_channel(self, channel_id: int, user_id: int) -> list[MatchRecord]:
        """Lobbies and live matches created in ``channel_id`` (threads of it included)
        where ``user_id`` holds a seat: indexed by seat user, no snapshot read."""
        return await self._records(
            "WHERE status IN ('lobby', 'live') AND channel_id = ? AND id IN "
            "(SELECT match_id FROM seats WHERE user_id = ?) ORDER BY id",
            (channel_id, user_id),
            snapshots=False,
        )

    async def active_in_channel(
        self, channel_id: int, *, snapshot: bool = True
    ) -> MatchRecord | None:
        """The lobby/live match played in this channel (not in a thread of it) or in this thread."""
        records = await self._records(
            "WHERE status IN ('lobby', 'live') AND "
            "((channel_id = ? AND thread_id IS NULL) OR thread_id = ?) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
            snapshots=snapshot,
        )
        return records[0] if records else None

    async def set_status(
        self, match_id: int, status: str, *, outbox: Iterable[OutboxEntry] = ()
    ) -> None:
        """Move a match to ``status``; a terminal status stamps ``finished_at`` and drops its timers.

        Terminal statuses are final, ``live`` needs a started match (use
        :meth:`start_match`) and a started match cannot go back to ``lobby``:
        any other move raises :class:`StoreConflict`.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}; expected one of {', '.join(STATUSES)}")
        now = self._clock()
        terminal = status in TERMINAL_STATUSES
        entries = list(outbox)
        added: list[OutboxItem] = []
        with self._outbox.writing(match_id) as mirrored:
            async with self._write() as db:
                row = await self._expect_status(db, match_id, STATUSES)
                current = row["status"]
                if current == status:
                    mirrored.succeeded()  # nothing written
                    return
                if current in TERMINAL_STATUSES:
                    raise StoreConflict(f"match {match_id} is already {current}")
                started = row["snapshot"] is not None
                if (status == "live" and not started) or (status == "lobby" and started):
                    raise StoreConflict(f"match {match_id} cannot go from {current} to {status}")
                await db.execute(
                    "UPDATE matches SET status = ?, updated_at = ?, finished_at = ? WHERE id = ?",
                    (status, now, now if terminal else None, match_id),
                )
                if terminal:
                    await db.execute("DELETE FROM deadlines WHERE match_id = ?", (match_id,))
                if entries:
                    vrow = await db.fetchone(
                        "SELECT version FROM matches WHERE id = ?", (match_id,)
                    )
                    version = vrow["version"] if vrow else 0
                    added = await self._write_public(db, match_id, version, entries, None, [], now)
            mirrored.succeeded(added)  # committed: the transaction is closed

    async def set_seats(self, match_id: int, seats: list[SeatSpec]) -> None:
        """Replace the seats (AI takeover, give back); a started match's snapshot follows.

        The version does not change: who controls a seat is not a game decision.
        """
        async with self._write() as db:
            row = await self._expect_status(db, match_id, STATUSES)
            current = await self._seat_count(db, match_id)
            if row["snapshot"] is not None and len(seats) != current:
                raise StoreConflict("a started match keeps its number of seats")
            await self._replace_seats(db, match_id, seats)
            params: tuple[Any, ...] = (self._clock(), match_id)
            sql = "UPDATE matches SET updated_at = ? WHERE id = ?"
            if row["snapshot"] is not None:
                snap = json.loads(row["snapshot"])
                snap["seats"] = [s.model_dump() for s in seats]
                sql = "UPDATE matches SET snapshot = ?, updated_at = ? WHERE id = ?"
                params = (_dumps(snap), *params)
            await db.execute(sql, params)

    async def recent(
        self, guild_id: int, channel_id: int | None = None, limit: int = 10
    ) -> list[MatchRecord]:
        """A guild's (or one channel's, threads included) matches, latest activity first."""
        params: tuple[int, ...]
        if channel_id is None:
            where, params = "WHERE guild_id = ?", (guild_id,)
        else:
            where = "WHERE guild_id = ? AND (channel_id = ? OR thread_id = ?)"
            params = (guild_id, channel_id, channel_id)
        return await self._records(
            f"{where} ORDER BY updated_at DESC, id DESC LIMIT ?", (*params, limit)
        )

    # --- per-match settings --------------------------------------------------------
    async def set_match_settings(self, match_id: int, settings: dict[str, Any]) -> None:
        """Replace the table settings of a match (deadlines...), which are not game options.

        ``start_match`` replaces ``options`` by the game's effective options (what a
        replay needs); these settings live in their own column and are kept.
        """
        stmt = Stmt(
            "UPDATE matches SET settings = ?, updated_at = ? WHERE id = ?",
            (_dumps(settings), self._clock(), match_id),
            expect=1,
        )
        try:
            await self._backend.batch([stmt])  # one hop, no lock held across the loop's turns
        except BatchRefused:
            raise KeyError(f"no match {match_id}") from None

    async def match_settings(self, match_id: int) -> dict[str, Any]:
        """The table settings of a match; ``{}`` when none were set (or no such match)."""
        async with self._read() as db:
            row = await db.fetchone("SELECT settings FROM matches WHERE id = ?", (match_id,))
        if row is None or not row["settings"]:
            return {}
        value = json.loads(row["settings"])
        return value if isinstance(value, dict) else {}

    # --- private notices -----------------------------------------------------------
    async def add_notices(
        self, match_id: int, version: int, notices: Iterable[tuple[int, Text]]
    ) -> None:
        """Store private texts (seat, text) for seats that have not seen them yet."""
        rows = list(notices)
        if not rows:
            return
        with self._no_notices.writing(match_id):
            texts = [(seat, text.fr, text.en) for seat, text in rows]
            await self._backend.batch(self._notice_stmts(match_id, version, texts, self._clock()))

    async def notices(
        self, match_id: int, seats: Iterable[int] | None = None, *, undelivered: bool = True
    ) -> list[Notice]:
        """The notices of a match (for ``seats`` only, if given), oldest first."""
        sql = "SELECT * FROM notices WHERE match_id = ?"
        params: list[Any] = [match_id]
        if undelivered:
            sql += " AND delivered = 0"
        wanted: list[int] | None = None
        if seats is not None:
            wanted = sorted(set(seats))
            if not wanted:
                return []
            sql += f" AND seat IN ({', '.join('?' for _ in wanted)})"
            params += wanted
        stamp = self._no_notices.stamp(match_id)
        quiet = self._no_notices.get(match_id)
        if undelivered and wanted is not None and quiet is not None and quiet.issuperset(wanted):
            return []  # nothing added since a read found none for these seats
        async with self._read() as db:
            rows = await db.fetchall(sql + " ORDER BY id", params)
        if undelivered and wanted is not None and not rows:
            self._no_notices.keep(match_id, stamp, (quiet or frozenset()) | frozenset(wanted))
        return [
            Notice(
                id=r["id"],
                match_id=r["match_id"],
                seat=r["seat"],
                version=r["version"],
                text=Text(fr=r["text_fr"], en=r["text_en"]),
                delivered=bool(r["delivered"]),
            )
            for r in rows
        ]

    async def mark_notices_delivered(self, ids: Iterable[int]) -> None:
        wanted = sorted(set(ids))
        if not wanted:
            return
        await self._backend.batch(
            [
                Stmt(
                    f"UPDATE notices SET delivered = 1 WHERE id IN ({', '.join('?' for _ in wanted)})",
                    wanted,
                )
            ]
        )

    @staticmethod
    def _notice_stmts(
        match_id: int, version: int, notices: Sequence[tuple[int, str, str]], now: float
    ) -> list[Stmt]:
        """The insert of private notices, (seat, French text, English text) each."""
        if not notices:
            return []
        return [
            Stmt(
                _INSERT_NOTICE,
                many=[(match_id, seat, version, fr, en, now) for seat, fr, en in notices],
            )
        ]

    # --- messages --------------------------------------------------------------------
    async def set_message(self, match_id: int, role: str, channel_id: int, message_id: int) -> None:
        """Remember (or replace) the Discord message playing ``role`` for a match."""
        with self._roles.writing(match_id):
            await self._set_message(match_id, role, channel_id, message_id)

    async def _set_message(
        self, match_id: int, role: str, channel_id: int, message_id: int
    ) -> None:
        await self._backend.batch(
            [Stmt(_UPSERT_MESSAGE, (match_id, role, channel_id, message_id, self._clock()))]
        )

    async def messages(self, match_id: int) -> dict[str, tuple[int, int]]:
        """The Discord message (channel, message) playing each role of a match; read on
        every delivery, so kept in memory until this process changes them (one process)."""
        known = self._roles.get(match_id)
        if known is not None:
            return dict(known)
        stamp = self._roles.stamp(match_id)
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT role, channel_id, message_id FROM messages WHERE match_id = ? ORDER BY role",
                (match_id,),
            )
        roles = {r["role"]: (r["channel_id"], r["message_id"]) for r in rows}
        self._roles.keep(match_id, stamp, dict(roles))
        return roles

    async def clear_message(self, match_id: int, role: str) -> None:
        with self._roles.writing(match_id):
            await self._backend.batch(
                [Stmt("DELETE FROM messages WHERE match_id = ? AND role = ?", (match_id, role))]
            )

    # --- deadlines -------------------------------------------------------------------
    async def set_deadline(
        self, match_id: int, key: str, seat: int, due_at: float, remind_at: float
    ) -> None:
        """Create or move the timer of decision ``key``; a moved timer may remind again."""
        await self._backend.batch(
            [
                Stmt(
                    "INSERT INTO deadlines (match_id, key, seat, due_at, remind_at, reminded) "
                    "VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT (match_id, key) DO UPDATE SET "
                    "seat = excluded.seat, due_at = excluded.due_at, "
                    "remind_at = excluded.remind_at, reminded = 0",
                    (match_id, key, seat, due_at, remind_at),
                )
            ]
        )

    async def mark_reminded(self, match_id: int, key: str) -> None:
        await self._backend.batch(
            [
                Stmt(
                    "UPDATE deadlines SET reminded = 1 WHERE match_id = ? AND key = ?",
                    (match_id, key),
                )
            ]
        )

    async def clear_deadline(self, match_id: int, key: str) -> None:
        await self._backend.batch(
            [Stmt("DELETE FROM deadlines WHERE match_id = ? AND key = ?", (match_id, key))]
        )

    async def due_deadlines(self, now: float, limit: int = 100) -> list[Deadline]:
        """Timers whose deadline or unsent reminder is due at ``now``, soonest first, at most
        ``limit`` (two indexed range scans: a tick never reads the timers still running)."""
        sql = (
            "SELECT match_id, key, seat, due_at, remind_at, reminded FROM deadlines "
            "WHERE due_at <= ? UNION SELECT match_id, key, seat, due_at, remind_at, reminded "
            "FROM deadlines WHERE reminded = 0 AND remind_at <= ? "
            "ORDER BY due_at, match_id, key LIMIT ?"
        )
        async with self._read() as db:
            rows = await db.fetchall(sql, (now, now, limit))
        return [Deadline(**{**dict(r), "reminded": bool(r["reminded"])}) for r in rows]

    async def deadlines(self, match_id: int | None = None) -> list[Deadline]:
        """Timers of one match, or of every match; soonest first."""
        sql = "SELECT match_id, key, seat, due_at, remind_at, reminded FROM deadlines"
        params: tuple[Any, ...] = ()
        if match_id is not None:
            sql += " WHERE match_id = ?"
            params = (match_id,)
        async with self._read() as db:
            rows = await db.fetchall(sql + " ORDER BY due_at, match_id, key", params)
        return [Deadline(**{**dict(r), "reminded": bool(r["reminded"])}) for r in rows]

    # --- several processes: leases, a match's head --------------------------------------
    async def take_lease(self, name: str, owner: str, now: float, ttl: float) -> bool:
        """Take or renew the lease ``name`` for ``ttl`` seconds; False while another owner
        holds an unexpired one. One statement, atomic on both backends."""
        counts = await self._backend.batch(
            [
                Stmt(
                    "INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, "
                    "expires_at = excluded.expires_at "
                    "WHERE leases.owner = excluded.owner OR leases.expires_at < ?",
                    (name, owner, now + ttl, now),
                )
            ]
        )
        return counts[0] == 1

    async def release_lease(self, name: str, owner: str) -> None:
        """Give the lease up (a clean shutdown): another process takes it at once."""
        await self._backend.batch(
            [Stmt("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))]
        )

    async def lease_owner(self, name: str, now: float) -> str | None:
        """Who holds the lease ``name`` now (None: nobody, or it expired)."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT owner FROM leases WHERE name = ? AND expires_at >= ?", (name, now)
            )
        return None if row is None else str(row["owner"])

    async def match_head(self, match_id: int) -> tuple[str, int] | None:
        """``(status, version)`` of a match, read without its snapshot: how a process
        sharing the database sees that another one moved the match on."""
        async with self._read() as db:
            row = await db.fetchone("SELECT status, version FROM matches WHERE id = ?", (match_id,))
        return None if row is None else (str(row["status"]), int(row["version"]))

    # --- pruning ---------------------------------------------------------------------
    async def prune(self, finished_before: float, limit: int = 200) -> list[int]:
        """Delete up to ``limit`` matches that ended (finished, abandoned, cancelled)
        before ``finished_before`` and owe no post: their log file was posted at the end.

        Each leaves a row in ``pruned`` (id, guild, game, status, when it ended, when it
        was pruned) so ``verify --db`` can say what happened to it; the append-only
        trigger lets only those matches' logs go. One transaction per call.
        """
        now = self._clock()
        async with self._write() as db:
            rows = await db.fetchall(
                "SELECT id FROM matches WHERE status IN ('finished', 'abandoned', 'cancelled') "
                "AND coalesce(finished_at, updated_at) < ? AND NOT EXISTS (SELECT 1 FROM "
                "outbox WHERE outbox.match_id = matches.id AND delivered = 0) "
                "ORDER BY id LIMIT ?",
                (finished_before, limit),
            )
            ids = [int(r["id"]) for r in rows]
            if not ids:
                return []
            marks = ", ".join("?" * len(ids))
            await db.execute(
                "INSERT INTO pruned (match_id, guild_id, game, status, finished_at, pruned_at) "
                f"SELECT id, guild_id, game, status, finished_at, CAST(? AS DOUBLE PRECISION) "
                f"FROM matches WHERE id IN ({marks})",
                (now, *ids),
            )
            for table in ("decisions", "seats", "messages", "deadlines", "notices", "outbox"):
                await db.execute(f"DELETE FROM {table} WHERE match_id IN ({marks})", ids)
            await db.execute(f"DELETE FROM matches WHERE id IN ({marks})", ids)
        for mid in ids:
            self._no_notices.drop(mid)
            self._roles.drop(mid)
            self._outbox.drop(mid)
        _log.info("pruned %s finished matches", len(ids))
        return ids

    async def pruned(self, match_id: int) -> PrunedMatch | None:
        """What is left of a pruned match, or None if it never was pruned."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT match_id, guild_id, game, status, finished_at, pruned_at FROM pruned "
                "WHERE match_id = ?",
                (match_id,),
            )
        return None if row is None else PrunedMatch(**dict(row))

    # --- preferences -----------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults if it never changed any."""
        async with self._read() as db:
            return await self._guild_settings_in(db, guild_id)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        locale: str | None | EllipsisType = ...,
        use_threads: bool | None = None,
    ) -> None:
        """Change only what is given (``locale=None`` clears the locale; ``...`` keeps it)."""
        async with self._write() as db:
            current = await self._guild_settings_in(db, guild_id)
            new_locale = current.locale if isinstance(locale, EllipsisType) else locale
            new_threads = current.use_threads if use_threads is None else use_threads
            await db.execute(
                "INSERT INTO guild_settings (guild_id, locale, use_threads, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "locale = excluded.locale, use_threads = excluded.use_threads, "
                "updated_at = excluded.updated_at",
                (guild_id, new_locale, int(new_threads), self._clock()),
            )

    async def user_prefs(self, user_id: int) -> UserPrefs:
        """The user's preferences, or the defaults if they never changed any; read for every
        DM, so kept in memory until this process changes them (one process)."""
        known = self._prefs.get(user_id)
        if known is not None:
            return known.model_copy()
        stamp = self._prefs.stamp(user_id)
        async with self._read() as db:
            prefs = await self._user_prefs_in(db, user_id)
        self._prefs.keep(user_id, stamp, prefs.model_copy())
        return prefs

    async def set_user_prefs(
        self,
        user_id: int,
        *,
        dm: bool | None = None,
        dm_closed: bool | None = None,
        locale: str | None | EllipsisType = ...,
    ) -> None:
        """Change only what is given (``locale=None`` clears the locale; ``...`` keeps it)."""
        with self._prefs.writing(user_id):
            await self._set_user_prefs(user_id, dm, dm_closed, locale)

    async def _set_user_prefs(
        self,
        user_id: int,
        dm: bool | None,
        dm_closed: bool | None,
        locale: str | None | EllipsisType,
    ) -> None:
        async with self._write() as db:
            current = await self._user_prefs_in(db, user_id)
            await db.execute(
                "INSERT INTO user_prefs (user_id, dm, dm_closed, locale, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "dm = excluded.dm, dm_closed = excluded.dm_closed, locale = excluded.locale, "
                "updated_at = excluded.updated_at",
                (
                    user_id,
                    int(current.dm if dm is None else dm),
                    int(current.dm_closed if dm_closed is None else dm_closed),
                    current.locale if isinstance(locale, EllipsisType) else locale,
                    self._clock(),
                ),
            )

    # --- helpers (called with the lock held) -----------------------------------------
    async def _guild_settings_in(self, db: Tx, guild_id: int) -> GuildSettings:
        row = await db.fetchone(
            "SELECT locale, use_threads FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings(
            guild_id=guild_id, locale=row["locale"], use_threads=bool(row["use_threads"])
        )

    async def _user_prefs_in(self, db: Tx, user_id: int) -> UserPrefs:
        row = await db.fetchone(
            "SELECT dm, dm_closed, locale FROM user_prefs WHERE user_id = ?", (user_id,)
        )
        if row is None:
            return UserPrefs(user_id=user_id)
        return UserPrefs(
            user_id=user_id,
            dm=bool(row["dm"]),
            dm_closed=bool(row["dm_closed"]),
            locale=row["locale"],
        )

    async def _expect_status(self, db: Tx, match_id: int, allowed: Iterable[str]) -> Row:
        row = await db.fetchone(
            "SELECT status, game, snapshot FROM matches WHERE id = ?" + db.for_update, (match_id,)
        )
        if row is None:
            raise KeyError(f"match {match_id} does not exist")
        if row["status"] not in tuple(allowed):
            raise StoreConflict(f"match {match_id} is {row['status']}")
        return row

    async def _seat_count(self, db: Tx, match_id: int) -> int:
        row = await db.fetchone("SELECT count(*) AS n FROM seats WHERE match_id = ?", (match_id,))
        return int(row["n"]) if row else 0

    async def _lobby_batch(
        self,
        match_id: int,
        stmts: list[Stmt],
        *,
        game: str | None = None,
        now: float | None = None,
    ) -> list[int]:
        """``stmts`` in one transaction, one hop, if the match is still a lobby (of
        ``game``): a guard statement first, so no transaction stays open across a round
        trip through the event loop per statement (every decision's commit waits for an
        open one, issue 16 item 1). Else nothing is written and the
        reason is raised as :meth:`_expect_status` raises it: :class:`KeyError` (no such
        match), :class:`StoreConflict` (not a lobby), :class:`ValueError` (another game's
        lobby). Returns the batch's results, the guard's first."""
        guard = Stmt(
            "UPDATE matches SET updated_at = ? WHERE id = ? AND status = 'lobby'"
            + (" AND game = ?" if game is not None else ""),
            (self._clock() if now is None else now, match_id)
            + ((game,) if game is not None else ()),
            expect=1,
        )
        try:
            return await self._backend.batch([guard, *stmts])
        except BatchRefused as refused:
            if refused.index != 0:
                raise
            async with self._read() as db:
                row = await self._expect_status(db, match_id, ("lobby",))
            if game is not None and row["game"] != game:
                raise ValueError(f"match {match_id} is a {row['game']} lobby, not {game}") from None
            raise StoreConflict(f"match {match_id} changed during the write") from None

    @staticmethod
    def _seat_stmts(match_id: int, seats: list[SeatSpec]) -> list[Stmt]:
        """The statements replacing a match's seats."""
        return [
            Stmt("DELETE FROM seats WHERE match_id = ?", (match_id,)),
            Stmt(
                "INSERT INTO seats (match_id, idx, name, user_id, ai, ai_level) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                many=[
                    (match_id, i, s.name, s.user_id, int(s.ai), s.ai_level)
                    for i, s in enumerate(seats)
                ],
            ),
        ]

    async def _replace_seats(self, db: Tx, match_id: int, seats: list[SeatSpec]) -> None:
        await self._run(db, self._seat_stmts(match_id, seats))

    async def _insert_decision(
        self,
        db: Tx,
        match_id: int,
        seq: int,
        choice: Choice,
        by_ai: bool,
        now: float,
    ) -> None:
        option, answer = _answer_columns(choice)
        await db.execute(
            _INSERT_DECISION,
            (match_id, seq, choice.seat, choice.key, option, answer, int(by_ai), now),
        )

    async def _records(
        self, where: str, params: tuple[Any, ...], *, snapshots: bool = True
    ) -> list[MatchRecord]:
        columns = (
            _MATCH_COLUMNS if snapshots else _MATCH_COLUMNS.replace("snapshot", "NULL AS snapshot")
        )
        async with self._read() as db:
            rows = await db.fetchall(f"SELECT {columns} FROM matches {where}", params)
            seats: dict[int, list[SeatSpec]] = {r["id"]: [] for r in rows}
            ids = list(seats)
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                found = await db.fetchall(
                    f"SELECT match_id, name, user_id, ai, ai_level FROM seats "
                    f"WHERE match_id IN ({marks}) ORDER BY match_id, idx",
                    chunk,
                )
                for s in found:
                    seats[s["match_id"]].append(
                        SeatSpec(
                            name=s["name"],
                            user_id=s["user_id"],
                            ai=bool(s["ai"]),
                            ai_level=s["ai_level"],
                        )
                    )
        return [
            MatchRecord(
                id=r["id"],
                guild_id=r["guild_id"],
                channel_id=r["channel_id"],
                thread_id=r["thread_id"],
                host_id=r["host_id"],
                game=r["game"],
                mode=r["mode"],
                options=json.loads(r["options"]),
                status=r["status"],
                seed=r["seed"],
                version=r["version"],
                seats=seats[r["id"]],
                locale=r["locale"],
                snapshot=json.loads(r["snapshot"]) if r["snapshot"] is not None else None,
                log_format=r["log_format"],
                created_at=r["created_at"],
                updated_at=r["updated_at"],
                finished_at=r["finished_at"],
            )
            for r in rows
        ]
