"""A decision's commit on PostgreSQL in one statement, so in one round trip (issue 16).

On SQLite a commit is a batch of statements run by the writer's thread in one hop. On
PostgreSQL each statement of a transaction is a round trip from the event loop to the
server, and a commit was eight of them (``BEGIN``, the compare-and-swap, the decision,
the answered timer, the outbox rows, the timers, ``COMMIT``): about 4.6 of the 10
queries per click under load. Here the same writes are the data-modifying common table
expressions of a single ``WITH`` statement, which PostgreSQL runs as one transaction of
its own. Every part reads from the compare-and-swap's ``RETURNING``, so when the stored
match is not the one this decision was built on nothing at all is written.

The rows it writes are those of :meth:`bot.store.Store.commit_decision`'s statements
(``tests/store_pg/test_one_statement_commit.py`` compares the tables), with one care:
all parts of a statement see the same snapshot, so the answered decision's timer is
deleted only if this commit does not arm it again (the upsert then overwrites it, as
the delete and the insert did in turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

COMMIT_DECISION = """
WITH cas AS (
    UPDATE matches SET snapshot = $1, version = $2, updated_at = $3, status = $4,
        finished_at = $5, public_state = coalesce($6, public_state)
    WHERE id = $7 AND status = 'live' AND version = $8 AND log_format = $9
    RETURNING id
), logged AS (
    INSERT INTO decisions (match_id, seq, seat, key, option, answer, by_ai, created_at)
    SELECT id, $2, $10, $11, $12, $13, $14, $3 FROM cas
), done AS (
    DELETE FROM deadlines USING cas
    WHERE deadlines.match_id = cas.id AND ($15 OR deadlines.key = $11)
        AND NOT (deadlines.key = ANY($16::text[]))
), told AS (
    INSERT INTO notices (match_id, seat, version, text_fr, text_en, created_at)
    SELECT cas.id, n.seat, $2, n.fr, n.en, $3
    FROM cas CROSS JOIN unnest($17::bigint[], $18::text[], $19::text[]) AS n (seat, fr, en)
), queued AS (
    INSERT INTO outbox (match_id, version, kind, role, channel_id, payload, created_at)
    SELECT cas.id, $2, o.kind, o.role, o.channel_id, o.payload, $3
    FROM cas CROSS JOIN unnest($20::text[], $21::text[], $22::bigint[], $23::text[])
        WITH ORDINALITY AS o (kind, role, channel_id, payload, n)
    ORDER BY o.n
    RETURNING id
), armed AS (
    INSERT INTO deadlines (match_id, key, seat, due_at, remind_at, reminded)
    SELECT cas.id, t.key, t.seat, t.due, t.remind, 0
    FROM cas CROSS JOIN unnest($16::text[], $24::bigint[], $25::float8[], $26::float8[])
        AS t (key, seat, due, remind)
    ON CONFLICT (match_id, key) DO UPDATE SET seat = excluded.seat,
        due_at = excluded.due_at, remind_at = excluded.remind_at, reminded = 0
)
SELECT (SELECT count(*) FROM cas) AS swapped, ARRAY(SELECT id FROM queued ORDER BY id) AS ids
"""
"""The outbox rows are inserted in the order of the entries (``ORDER BY`` the ordinality),
so their identity values rise in that order, which is the order of delivery."""


@dataclass(frozen=True)
class DecisionWrite:
    """Everything one decision's commit writes, as the columns hold it."""

    match_id: int
    version: int
    """The version the decision produced; the stored one must be ``version - 1``."""
    snapshot: str
    now: float
    over: bool
    public_state: str | None
    """The game master's public state as JSON; None keeps the stored one."""
    log_format: int
    seat: int
    key: str
    option: str
    answer: str | None
    by_ai: bool
    notices: Sequence[tuple[int, str, str]]
    """(seat, French text, English text) of each private notice."""
    outbox: Sequence[tuple[str, str | None, int, str]]
    """(kind, role, channel, payload JSON) of each outbox row, in delivery order."""
    deadlines: Sequence[tuple[str, int, float, float]]
    """(key, seat, due at, remind at) of each timer armed; ignored once the match is over."""

    def swap_params(self) -> tuple[Any, ...]:
        """The compare-and-swap's parameters, in order: the new snapshot, version, time,
        status, end and public state, then the match id, the version it must still have
        and the log format. The batch's ``UPDATE`` (SQLite) and :data:`COMMIT_DECISION`'s
        ``$1`` to ``$9`` take the same."""
        return (
            self.snapshot,
            self.version,
            self.now,
            "finished" if self.over else "live",
            self.now if self.over else None,
            self.public_state,
            self.match_id,
            self.version - 1,
            self.log_format,
        )

    def params(self) -> tuple[Any, ...]:
        """:data:`COMMIT_DECISION`'s parameters, in order."""
        # One row per key: the statement cannot upsert a row twice, and the batch's
        # executemany, upserting them in turn, kept the last.
        armed = [] if self.over else list({d[0]: d for d in self.deadlines}.values())
        return (
            *self.swap_params(),
            self.seat,
            self.key,
            self.option,
            self.answer,
            int(self.by_ai),
            self.over,
            [t[0] for t in armed],
            [n[0] for n in self.notices],
            [n[1] for n in self.notices],
            [n[2] for n in self.notices],
            [o[0] for o in self.outbox],
            [o[1] for o in self.outbox],
            [o[2] for o in self.outbox],
            [o[3] for o in self.outbox],
            [t[1] for t in armed],
            [t[2] for t in armed],
            [t[3] for t in armed],
        )
