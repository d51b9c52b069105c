"""A real PostgreSQL server for the tests: one per session, a fresh schema per test.

The server comes from ``pgserver`` (in the ``test`` extra: it ships the
binaries) or, failing that, from a PostgreSQL installed on the machine
(``initdb`` and ``pg_ctl`` under ``/usr/lib/postgresql/<n>/bin``, run as a
non-root user). If neither can start, the Postgres tests FAIL with the reason:
they are never skipped silently.

Each test gets its own schema (``CREATE SCHEMA`` takes a millisecond where
``CREATE DATABASE`` takes 200): the URL it receives sets ``search_path`` to it,
so every connection a store (or a subprocess) opens with that URL sees only
that test's tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

_counter = itertools.count(1)


@dataclass
class PgServer:
    """A running server: its base URL (database ``postgres``) and how to stop it."""

    url: str
    stop: Callable[[], None]

    def schema_url(self, schema: str) -> str:
        """The base URL with every connection's ``search_path`` set to ``schema``."""
        sep = "&" if "?" in self.url else "?"
        return f"{self.url}{sep}search_path={quote(schema)}"

    def new_schema(self) -> str:
        """A fresh, empty schema; the URL that works in it."""
        schema = f"t{os.getpid()}_{next(_counter)}"

        async def create() -> None:
            import asyncpg  # type: ignore[import-untyped]

            conn = await asyncpg.connect(self.url)
            try:
                await conn.execute(f'CREATE SCHEMA "{schema}"')
            finally:
                await conn.close()

        # A thread of its own: a fixture may run while the test's event loop is running.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, create()).result()
        return self.schema_url(schema)


def _from_pgserver(base: Path) -> PgServer:
    import pgserver  # type: ignore[import-untyped]

    data = base / "pgdata"
    srv = pgserver.get_server(data, cleanup_mode=None)
    pid = srv.get_pid()

    def stop() -> None:
        # SIGQUIT is PostgreSQL's immediate shutdown: a throwaway server need not
        # checkpoint nor wait for its clients; wait (briefly) for the postmaster to go.
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGQUIT)
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.02)

    return PgServer(srv.get_uri("postgres"), stop)


def _machine_bin() -> Path | None:
    root = Path("/usr/lib/postgresql")
    if not root.is_dir():
        return None
    for version in sorted(root.iterdir(), reverse=True):
        if (version / "bin" / "initdb").exists():
            return version / "bin"
    return None


def _from_machine(base: Path) -> PgServer:
    bindir = _machine_bin()
    if bindir is None:
        raise RuntimeError("no PostgreSQL found under /usr/lib/postgresql")
    data, sock = base / "pgdata", base / "sock"
    sock.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the server as 'nobody'
        shutil.chown(base, "nobody")
        shutil.chown(sock, "nobody")
        prefix = ["runuser", "-u", "nobody", "--"]
    subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *prefix,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-w",
            "-o",
            f"-k {sock} -c listen_addresses='' -c fsync=off",
            "-l",
            str(base / "log"),
            "start",
        ],
        check=True,
        capture_output=True,
    )

    def stop() -> None:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )

    return PgServer(f"postgresql://postgres@/postgres?host={sock}", stop)


def start_server() -> Iterator[PgServer]:
    """Start a server in a temporary directory, yield it, stop it and remove the files."""
    base = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    reasons: list[str] = []
    server: PgServer | None = None
    for starter in (_from_pgserver, _from_machine):
        try:
            server = starter(base)
            break
        except Exception as e:  # noqa: BLE001  (every reason is reported)
            reasons.append(f"{starter.__name__}: {type(e).__name__}: {e}")
    if server is None:
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(
            "could not start a PostgreSQL server for the Postgres store tests "
            "(install the test extra: pip install -e '.[test]', which brings pgserver): "
            + "; ".join(reasons),
            pytrace=False,
        )
    try:
        yield server
    finally:
        server.stop()
        # Removing a data directory takes seconds on a busy disk: not the tests' time.
        subprocess.Popen(["rm", "-rf", str(base)], start_new_session=True)


async def _tune(url: str) -> None:
    """A throwaway server: no fsync (each test's DDL would otherwise wait on the disk)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        for name in ("fsync", "synchronous_commit", "full_page_writes"):
            await conn.execute(f"ALTER SYSTEM SET {name} = off")
        await conn.execute("SELECT pg_reload_conf()")
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    for server in start_server():
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _tune(server.url)).result()
        yield server


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A URL to a fresh, empty schema of the session's server."""
    return pg_server.new_schema()
