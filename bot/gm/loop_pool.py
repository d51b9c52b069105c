"""Worker processes driven by the event loop itself: no executor threads.

Why: ``concurrent.futures.ProcessPoolExecutor`` runs two threads in the bot's process, a
manager that waits for results and a feeder that pickles jobs into the workers' queue.
Under load (issue 16, ``bench/bench_load.py``: 120-140 clicks/s, 0.6 drawings a click)
they took 0.07 of a core, all of it under the interpreter lock the event loop needs, and
each job woke the manager through a pipe: the loop's write released the lock and often
waited for a thread to give it back (0.2 ms a job). Here each worker has one socket to the
bot: the loop writes a job to it (non-blocking, the rest when it drains) and reads its
result when the socket is readable (``add_reader``), so nothing but the loop touches the
jobs and the results.

A worker runs one job at a time, in the order sent; at most ``per_worker`` jobs are
sent to one worker (:data:`PER_WORKER`: the next is waiting in its socket when it
finishes one), the others wait on the loop. Jobs travel with :mod:`multiprocessing`'s
framing, so a worker simply ``recv_bytes``/``send_bytes`` on its end. A worker that dies (killed, out of memory)
breaks the pool as it does an executor: every job not answered fails with
:class:`~concurrent.futures.process.BrokenProcessPool`, and the caller starts another pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bot import native

log = logging.getLogger(__name__)

T = TypeVar("T")

PER_WORKER = 2
"""Jobs sent to one worker at once by default: the one it runs and the next, already in its
socket (short jobs: no gap between two). A pool of long jobs sends one at a time, so a job
never waits behind a long one while another worker is free."""
READ_SIZE = 1 << 18
"""Bytes read from a worker's socket at a time (an image is 30-100 kB)."""
JOIN_SECONDS = 5.0
"""How long :meth:`LoopPool.shutdown` waits for a worker to exit before killing it."""
_LONG = 0x7FFFFFFF
"""Longest frame with a 4-byte length (``multiprocessing``'s framing; longer: -1, then 8)."""

LOCKED_IO = native.load(
    "bot.gm.lockedio", Path(__file__).with_name("lockedio.c"), "os.read and os.write serve"
)
"""Reads and writes of the workers' (non-blocking) sockets that keep the interpreter lock
(``lockedio.c``), where it was built: ``os.read`` and ``os.write`` release it around the
system call, and the event loop then waited for it back behind the store's and the
executors' threads, up to the switch interval, at every job and every result."""
_read_now: Callable[[int, int], bytes] = os.read if LOCKED_IO is None else LOCKED_IO.read
_write_now: Callable[[int, bytes | bytearray], int] = (
    os.write if LOCKED_IO is None else LOCKED_IO.write
)


class Context(Protocol):
    """What the pool needs of a :mod:`multiprocessing` context (fork server or spawn)."""

    def Pipe(self, duplex: bool = True) -> tuple[Connection, Connection]: ...  # noqa: N802

    def Process(  # noqa: N802
        self, *, target: Callable[..., object], args: tuple[Any, ...], name: str, daemon: bool
    ) -> BaseProcess: ...


def _serve(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """A worker's life: say it is ready (its pid), then run each job it reads and send its
    outcome, ``(True, result)`` or ``(False, exception)``, until the bot closes the socket."""
    if initializer is not None:
        initializer()
    try:
        conn.send_bytes(pickle.dumps((True, os.getpid())))
        while True:
            try:
                data = conn.recv_bytes()
            except EOFError:
                return
            outcome: tuple[bool, Any]
            try:
                fn, args = pickle.loads(data)
                outcome = (True, fn(*args))
            except Exception as exc:
                outcome = (False, exc)
            try:
                payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # an unpicklable result or exception
                payload = pickle.dumps((False, pickle.PicklingError(repr(exc))))
            conn.send_bytes(payload)
    except (KeyboardInterrupt, BrokenPipeError, ConnectionResetError):
        return  # the bot stopped (Ctrl-C reaches the whole process group) or is gone


def _frame(payload: bytes) -> bytes:
    """``payload`` with :mod:`multiprocessing`'s length prefix."""
    if len(payload) > _LONG:
        return struct.pack("!iQ", -1, len(payload)) + payload
    return struct.pack("!i", len(payload)) + payload


def _unframe(buf: bytearray) -> bytes | None:
    """The first whole frame's payload, taken out of ``buf``; None until one is whole."""
    if len(buf) < 4:
        return None
    (size,) = struct.unpack_from("!i", buf)
    start = 4
    if size == -1:
        if len(buf) < 12:
            return None
        (size,) = struct.unpack_from("!Q", buf, 4)
        start = 12
    if len(buf) < start + size:
        return None
    payload = bytes(buf[start : start + size])
    del buf[: start + size]
    return payload


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    fd: int
    sent: deque[asyncio.Future[Any]] = field(default_factory=deque)
    """Futures of the jobs sent, oldest first: results come back in that order."""
    inbox: bytearray = field(default_factory=bytearray)
    outbox: bytearray = field(default_factory=bytearray)
    """Bytes of jobs not yet written (the socket was full)."""


class LoopPool:
    """A fixed number of worker processes, each job's result awaited on the event loop
    (:meth:`run`). Start it with :meth:`start` (blocking: in a thread at start-up); use
    it from one event loop at a time."""

    def __init__(
        self,
        ctx: Context,
        workers: int,
        initializer: Callable[[], None] | None = None,
        per_worker: int = PER_WORKER,
    ) -> None:
        self._ctx = ctx
        self._size = workers
        self._per_worker = per_worker
        self._initializer = initializer
        self._workers: list[_Worker] = []
        self._waiting: deque[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]] = (
            deque()
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broken: str | None = None

    # --- life ------------------------------------------------------------------------
    def start(self) -> None:
        """Start the workers and wait until each has said it is ready (blocking). Raises
        ``OSError`` (or what the context raises) where processes cannot run."""
        try:
            for _ in range(self._size):
                mine, theirs = self._ctx.Pipe(duplex=True)
                process = self._ctx.Process(
                    target=_serve,
                    args=(theirs, self._initializer),
                    name="arena-worker",
                    daemon=True,
                )
                process.start()
                theirs.close()
                self._workers.append(_Worker(process, mine, mine.fileno()))
            for w in self._workers:
                if not w.conn.poll(60):
                    raise OSError("a worker process did not start within 60 s")
                try:
                    pickle.loads(w.conn.recv_bytes())  # its pid: ready
                except EOFError:
                    raise OSError("a worker process ended before it was ready") from None
                os.set_blocking(w.fd, False)
        except BaseException:
            self._stop_processes()
            raise

    @property
    def pids(self) -> set[int]:
        """The workers' process ids (the load bench reads their CPU)."""
        return {w.process.pid for w in self._workers if w.process.pid is not None}

    @property
    def broken(self) -> bool:
        return self._broken is not None

    def shutdown(self) -> None:
        """Stop the workers: jobs not answered fail, each worker reads the end of its
        socket and exits (killed after :data:`JOIN_SECONDS`). Callable from any thread."""
        why = "the pool was shut down"
        loop = self._loop
        if loop is not None and not loop.is_closed():
            if not loop.is_running() or _in_loop_thread(loop):
                self._detach(why)
            else:  # the loop runs in another thread: it detaches, this thread waits
                done = threading.Event()

                def detach() -> None:
                    try:
                        self._detach(why)
                    finally:
                        done.set()

                try:
                    loop.call_soon_threadsafe(detach)
                except RuntimeError:  # closed meanwhile
                    pass
                else:
                    done.wait(JOIN_SECONDS)
        self._broken = self._broken or why
        self._stop_processes()

    def _stop_processes(self) -> None:
        for w in self._workers:
            with contextlib.suppress(OSError):
                w.conn.close()
        for w in self._workers:
            if w.process.pid is None:
                continue
            w.process.join(JOIN_SECONDS)
            if w.process.is_alive():
                w.process.kill()
                w.process.join(JOIN_SECONDS)
        self._workers = []

    # --- jobs ------------------------------------------------------------------------
    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process: its result, or its exception raised here.
        ``fn`` and the arguments must pickle (``fn`` by name). Raises
        :class:`BrokenProcessPool` once a worker has died or the pool was shut down."""
        if self._broken is not None:
            raise BrokenProcessPool(self._broken)
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._attach(loop)
        fut: asyncio.Future[T] = loop.create_future()
        self._waiting.append((fut, fn, args))
        self._dispatch()
        return await fut

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Watch the workers' sockets on ``loop`` (the first use, or a new loop in tests;
        the old one, if any, no longer runs)."""
        self._unwatch()
        self._loop = loop
        for w in self._workers:
            loop.add_reader(w.fd, self._readable, w)
            if w.outbox:
                loop.add_writer(w.fd, self._writable, w)

    def _detach(self, why: str) -> None:
        """Stop watching the sockets and fail every job not answered (on the loop)."""
        self._unwatch()
        self._broken = self._broken or why
        failed = [f for w in self._workers for f in w.sent] + [f for f, _, _ in self._waiting]
        for w in self._workers:
            w.sent.clear()
            w.outbox.clear()
        self._waiting.clear()
        for f in failed:
            _settle(f, error=BrokenProcessPool(why))

    def _unwatch(self) -> None:
        """Stop watching the workers' sockets on the loop that watched them, if still open."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            for w in self._workers:
                loop.remove_reader(w.fd)
                loop.remove_writer(w.fd)

    def _dispatch(self) -> None:
        """Send waiting jobs to the least busy workers, up to ``per_worker`` each."""
        while self._waiting and self._broken is None:
            w = min(self._workers, key=lambda x: len(x.sent))
            if len(w.sent) >= self._per_worker:
                return
            fut, fn, args = self._waiting.popleft()
            if fut.cancelled():
                continue
            try:
                payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # an argument that does not pickle: this job only
                fut.set_exception(pickle.PicklingError(f"cannot send the job: {exc!r}"))
                continue
            w.sent.append(fut)
            w.outbox += _frame(payload)
            self._write(w)

    def _write(self, w: _Worker) -> None:
        try:
            n = _write_now(w.fd, w.outbox)
        except BlockingIOError:
            n = 0
        except (OSError, ValueError) as exc:  # ValueError: lockedio found it blocking
            self._lost(w, f"a worker's socket failed: {exc}")
            return
        del w.outbox[:n]
        if w.outbox and self._loop is not None:
            self._loop.add_writer(w.fd, self._writable, w)

    def _writable(self, w: _Worker) -> None:
        if self._loop is not None:
            self._loop.remove_writer(w.fd)
        if w.outbox:
            self._write(w)

    def _readable(self, w: _Worker) -> None:
        while True:
            try:
                chunk = _read_now(w.fd, READ_SIZE)
            except BlockingIOError:
                break
            except (OSError, ValueError) as exc:  # ValueError: lockedio found it blocking
                self._lost(w, f"a worker's socket failed: {exc}")
                return
            if not chunk:
                self._lost(w, "a worker process ended abruptly")
                return
            w.inbox += chunk
            if len(chunk) < READ_SIZE:
                break
        while (payload := _unframe(w.inbox)) is not None:
            if not w.sent:
                self._lost(w, "a worker answered a job it was not sent")
                return
            fut = w.sent.popleft()
            try:
                ok, value = pickle.loads(payload)
            except Exception as exc:
                ok, value = False, exc
            if ok:
                _settle(fut, result=value)
            else:
                _settle(fut, error=value)
        self._dispatch()

    def _lost(self, w: _Worker, why: str) -> None:
        log.warning("%s (pid %s): the pool is broken", why, w.process.pid)
        self._detach(why)


def _settle(
    fut: asyncio.Future[Any], *, result: Any = None, error: BaseException | None = None
) -> None:
    """Give ``fut`` its outcome unless its caller gave up (cancelled), or its loop is gone
    (a test's loop closed while a job ran)."""
    if fut.done():
        return
    with contextlib.suppress(RuntimeError):
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(result)


def _in_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
