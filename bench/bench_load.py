"""Load benchmark of the real bot through the offline Discord harness (issue 16 item 6).

Usage (from the repository root)::

    python bench/bench_load.py                          # 1,000 live, 100 active, 60 s
    python bench/bench_load.py --live 60 --active 10 --seconds 10   # a smoke run
    python bench/bench_load.py --ramp 2 1 0.5 0.25 --ramp-seconds 30  # the sustained rate
    python bench/bench_load.py --ramp 1 0.5 --discord-rate 250  # a bot Discord allows more

What runs is the bot as deployed, minus the network: :class:`bot.app.ArenaBot` on a
real SQLite store, every interaction parsed by discord.py itself and every REST call
answered by the harness's :class:`~tests.harness.fake_discord.FakeDiscord` (which
checks Discord's limits). The store first gets ``live - active`` idle live matches
(all five games, one human seat and AI seats of every declared level, each in its own
channel); the bot boots on it (its ``recover`` loads them all). Then ``active``
matches are opened through the lobby (``/arena start``, Join, Add AI, Start) and each
is played by one closed-loop client: it answers the match's human decisions the way
players do (the public button, groups, picks, drafts, Confirm), waiting about ``--think``
seconds (exponentially distributed, so clients never click in step) before each click; a finished match is replaced by a new one (lobby clicks
count as clicks). Clients press as fast as the bot answers, so the achieved rate is
what the machine sustains.

Printed in one run, beside the issue's goals: achieved clicks/s, Discord calls per
click, acknowledgement p50/p99 (dispatch to the interaction's callback), click to
public result p50/p95/p99 (dispatch to the last public post or edit the click caused,
AI replies and reveals included, over the clicks that changed the channel), event-loop
lag p99 and worst (a 5 ms heartbeat's lateness), how busy the loop was running
callbacks (on the clock, the load clients' steps apart: the lag follows it), the event
loop's callbacks over 50 ms (each one timed, with the CPU it spent and its name), CPU per
click (this process, its threads, its AI worker processes and its drawing processes; the
simulated clients and the fake Discord run in the same process and are counted too, and
the split is printed:
the bot's process, the fake Discord's and the load clients' shares of it, the AI
workers, the drawing workers),
and memory per live match per game (tracemalloc over reloading a sample of the idle matches; RSS growth over the whole live set as a cross-check). Beside them, the Discord
budget: channel posts and edits per click and per second against the pacing's global
budget, and the click rate that budget allows at this mix whatever the CPU (Discord does
not count interaction answers, it counts channel calls).

The bot runs on the event loop it runs on deployed (uvloop where it is installed, see
:mod:`bot.event_loop`); ``--loop asyncio`` measures it on asyncio's. Every REST call waits
one turn of the loop for its answer, as on a network (``FakeDiscord.answers_later``).

With ``--ramp``, steps of ``--ramp-seconds`` come first, the clients thinking less at each
step (a rising offered rate); the ramp's table ends with the highest achieved rate whose
click-to-public-result p95 stayed within the goal's second: what the machine sustains.

``bench/bench_shards.py`` runs this benchmark in several processes sharing one
PostgreSQL database, as the N-process deployment does, and merges their figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import random
import sys
import tempfile
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from discord.state import ConnectionState  # noqa: E402

import bot.gm.lobby  # noqa: E402
from bench.bench_loop import pct, store_live  # noqa: E402
from bot import event_loop  # noqa: E402
from bot.app import ArenaBot  # noqa: E402
from bot.engine import Decision, Match, SeatSpec  # noqa: E402
from bot.engine.randomplay import random_choice  # noqa: E402
from bot.engine.registry import get_game  # noqa: E402
from bot.gm import SystemClock, drawing, thinking  # noqa: E402
from bot.gm.loop_pool import LoopPool  # noqa: E402
from bot.gm.pacing import (  # noqa: E402
    DISCORD_RATE,
    PaceLimits,
    Pacer,
    PaceStats,
    channel_budget,
)
from bot.render.cache import IMAGES  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.cogs.driver import Driver  # noqa: E402
from tests.harness import payloads as P  # noqa: E402
from tests.harness import runner  # noqa: E402
from tests.harness.fake_discord import (  # noqa: E402
    CURRENT_INTERACTION,
    Call,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
)
from tests.harness.fake_discord import now as harness_now  # noqa: E402

Json = dict[str, Any]
GAMES = ("mad", "arena", "mad-arena", "ultimate-warriorz", "madsteam")
CLICK_TIMEOUT = 60.0
"""Seconds one click's handling may take before the client gives up waiting for it."""
IDLE_TASKS = runner.DEFAULT_IGNORED_TASK_PREFIXES
"""Tasks that wait forever by design, as the harness's settling knows them."""
IDLE_PER_PROCESS = 10_000_000
"""Idle players' user ids per process sharing a database (:func:`fill_idle`)."""
LAG_WINDOW = 30.0
"""Seconds per window of the loop lag's p99 as the run ages (the report's own row)."""

GOALS = {
    "clicks_per_s": ">= 150",
    "ack_p99_ms": "<= 50 ms",
    "result_p95_s": "<= 1 s",
    "lag_p99_ms": "<= 20 ms",
    "callbacks_over_50ms": "none",
    "kb_mad_arena": "<= 60 kB",
}


@dataclass(frozen=True)
class Setup:
    """One kind of active match: game, mode, human seats, AI seats."""

    game: str
    mode: str
    humans: int
    ai: int


ACTIVE_SETUPS = (
    Setup("mad", "mad:duel", humans=1, ai=1),
    Setup("arena", "arena:melee", humans=2, ai=2),
    Setup("mad-arena", "mad-arena:ultimate-warrior", humans=2, ai=2),
    Setup("ultimate-warriorz", "ultimate-warriorz:tribal-rumble", humans=2, ai=1),
    Setup("madsteam", "madsteam:standard", humans=2, ai=1),
    Setup("mad", "mad:duel", humans=2, ai=0),
)


def levels(game: str, quick_only: bool = False) -> list[str]:
    """The game's AI levels; ``quick_only``: those that do not think in a worker process
    (MAD's medium and hard search, about 10 ms of CPU per move with the C core), or, for a
    game whose every level does (Arena!), its last listed, the simplest."""
    every = get_game(game).info.ai_levels
    if not quick_only:
        return [lv.id for lv in every]
    return [lv.id for lv in every if not lv.process] or [every[-1].id]


# --- the event loop's lag --------------------------------------------------------------
class Heartbeat:
    """Sleeps ``every`` seconds again and again; each lateness is one sample of loop lag."""

    def __init__(self, every: float = 0.005) -> None:
        self.every = every
        self.lags: list[float] = []
        self.times: list[float] = []
        """When each sample's sleep began (``time.perf_counter``), for :meth:`windows`."""
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        # The real clock, not ``loop.time()``: uvloop's is the time its current turn began
        # (libuv caches it), which would hide the callbacks run before this one.
        clock = time.perf_counter
        while True:
            start = clock()
            await asyncio.sleep(self.every)
            self.lags.append(max(0.0, clock() - start - self.every))
            self.times.append(start)

    def windows(self, width: float) -> list[float]:
        """The lag p99 of each ``width`` seconds since the first sample, a last shorter
        window left out: whether the lag grows as a run ages (a leak, a cache filling) or
        only swings with the machine."""
        if not self.times:
            return []
        first, by_window = self.times[0], defaultdict(list)
        for at, lag in zip(self.times, self.lags, strict=True):
            by_window[int((at - first) // width)].append(lag)
        full = int((self.times[-1] - first) // width)
        return [pct(by_window[k], 99) for k in range(full)]

    def start(self) -> None:
        self.lags = []
        self.times = []
        self._task = asyncio.create_task(self._run(), name="bench-heartbeat")

    async def stop(self) -> list[float]:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return self.lags


class GcPauses:
    """Durations of the garbage collections while it is on: the full ones (generation 2)
    and the young ones (0 and 1), which hold the interpreter lock as long."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self.young: list[float] = []
        self._start = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        took = time.perf_counter() - self._start
        (self.pauses if info.get("generation") == 2 else self.young).append(took)

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)


class SlowCallbacks:
    """The event loop's callbacks timed one by one while measuring (issue 16 item 5: no
    callback over 50 ms): on asyncio's loop each ``Handle`` run, a task's step or a timer;
    on uvloop's (whose handles are C), each task's step (:class:`TimedSteps`: the bot's
    work runs in tasks; the loop's own futures and wake-ups are not timed there); garbage
    collections inside them included. Each one over the limit is named (its coroutine or
    function) with the CPU its thread spent in it: a callback that took long on the clock
    but not on the CPU waited for the machine (2 cores shared with the drawing and AI
    processes), it did not work that long."""

    LIMIT = 0.05
    READ_CPU_OVER = 0.001
    """A callback that took longer than this on the clock has its CPU read at its end; the
    others only add their time on the clock to :attr:`_unread`."""
    MARK_EVERY = 0.01
    """Seconds on the clock after which a callback's end reads the CPU clock anyway, so that
    the loop's own work between callbacks (not timed) since the last reading stays small."""

    def __init__(self, slower: float = 1.0) -> None:
        self.slower = slower
        """Each timed callback but the load clients' stretched to this many times its own
        time (``--slower``)."""
        self.count = 0
        self.over: list[tuple[float, float, str]] = []
        """(seconds, CPU seconds, name) of each callback over the limit."""
        self.worst: tuple[float, float, str] = (0.0, 0.0, "none")
        """(seconds, CPU seconds, name) of the longest callback, over the limit or not."""
        self.clients: set[asyncio.Task[None]] = set()
        """The load clients' tasks (:meth:`add_clients`): the CPU of their steps is the
        benchmark's, not the bot's (:attr:`clients_cpu`)."""
        self._client_coros: set[Any] = set()
        """Their coroutines, which a step on uvloop is told: ``asyncio.current_task()``
        would make a system call per step (``getpid``, in ``get_running_loop``)."""
        self.clients_cpu = 0.0
        self.busy = 0.0
        """Seconds the loop spent running callbacks (on the clock): with the measured
        time, how near saturation the loop is, which is what its lag follows."""
        self.clients_busy = 0.0
        """Of :attr:`busy`, the load clients' steps (which include discord.py's parsing
        of their clicks, the bot's work: :class:`HarnessClock` times it apart)."""
        self._run: Any = None
        # The thread's CPU clock is a system call (0.6 us on a quiet machine, 3.6 us
        # under this load, 34 readings per click when every callback read it: 2.7% of
        # the loop it measures). So it is read only at the end of a callback that took
        # over READ_CPU_OVER on the clock (the only ones that can be over the limit or
        # the worst): that callback's CPU is the CPU clock's advance since its last
        # reading less the clock time of the short callbacks run since, at most its
        # own clock time. A short callback's CPU is its time on the clock (it computes;
        # the system rarely preempts a thread within a millisecond). What is left over
        # is the loop's bookkeeping between callbacks since the last reading, which
        # MARK_EVERY keeps within a few milliseconds.
        self._cpu_mark = time.thread_time()
        self._clock_mark = time.perf_counter()
        self._unread = 0.0
        """Clock seconds of the callbacks run since the CPU clock was last read."""

    def add_clients(self, tasks: Iterable[asyncio.Task[Any]]) -> None:
        """Count these tasks' steps as the load clients'."""
        for task in tasks:
            self.clients.add(task)
            coro = task.get_coro()
            self._client_coros.add(coro.coro if isinstance(coro, TimedSteps) else coro)

    def _mark(self, cpu: float, clock: float) -> None:
        self._cpu_mark, self._clock_mark, self._unread = cpu, clock, 0.0

    def _record(self, started: float, client: bool, name: Callable[[Any], str], of: Any) -> None:
        """One callback timed, begun at ``started`` on the clock (``client``: a load
        client's step). ``name(of)`` names it, called only for the ones kept (the wrapper
        allocates nothing per callback on the loop it measures)."""
        ended = time.perf_counter()
        took = ended - started
        self.count += 1
        self.busy += took
        if took <= self.READ_CPU_OVER:
            spent = took
            self._unread += took
            if ended - self._clock_mark > self.MARK_EVERY:
                self._mark(time.thread_time(), ended)
        else:
            cpu = time.thread_time()
            spent = max(0.0, min(took, cpu - self._cpu_mark - self._unread))
            self._mark(cpu, ended)
        if took > self.LIMIT or took > self.worst[0]:
            timed_one = (took, spent, name(of))
            if took > self.LIMIT:
                self.over.append(timed_one)
            if took > self.worst[0]:
                self.worst = timed_one
        if client:
            self.clients_cpu += spent
            self.clients_busy += took

    def step(self, resume: Callable[[Any], Any], value: Any, coro: Any) -> Any:
        """One step of a task on uvloop: ``resume(value)`` (its coroutine's send or throw)."""
        started = time.perf_counter()
        try:
            return resume(value)
        finally:
            client = coro in self._client_coros
            if self.slower > 1.0 and not client:
                stretch(started, self.slower)
            self._record(started, client, _coro_name, coro)

    def __enter__(self) -> SlowCallbacks:
        self._mark(time.thread_time(), time.perf_counter())
        if not isinstance(asyncio.get_running_loop(), asyncio.BaseEventLoop):
            TimedSteps.meter = self  # uvloop: the tasks' steps (TimedSteps.install)
            return self
        run = self._run = asyncio.events.Handle._run
        timer = time.perf_counter
        clients, record, name, slower = self.clients, self._record, self.name, self.slower

        def timed(handle: asyncio.Handle) -> None:
            owner: Any = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
            started = timer()
            run(handle)
            client = owner in clients
            if slower > 1.0 and not client:
                stretch(started, slower)
            record(started, client, name, handle)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._run is None:
            TimedSteps.meter = None
            return
        asyncio.events.Handle._run = self._run  # type: ignore[method-assign]
        self._run = None

    def working(self) -> int:
        """Callbacks over the limit on the CPU too (not waiting for the machine)."""
        return sum(1 for _, spent, _ in self.over if spent > self.LIMIT)

    def names(self) -> dict[str, int]:
        """How many callbacks over the limit each coroutine or function had."""
        return dict(Counter(name for _, _, name in self.over).most_common(4))

    @staticmethod
    def name(handle: asyncio.Handle) -> str:
        callback = handle._callback  # type: ignore[attr-defined]
        owner = getattr(callback, "__self__", None)
        if isinstance(owner, asyncio.Task):
            return _coro_name(owner.get_coro())
        return getattr(callback, "__qualname__", type(callback).__name__)


def stretch(started: float, factor: float) -> None:
    """Spin until the callback begun at ``started`` has taken ``factor`` times as long as it
    did: that callback as on a machine ``factor`` times slower (``--slower``). A callback
    that waited meanwhile (preempted, or for the interpreter lock) is stretched by its wait
    too: the emulation errs on the slow side."""
    now = time.perf_counter()
    end = now + (factor - 1.0) * (now - started)
    while time.perf_counter() < end:
        pass


def _coro_name(coro: Any) -> str:
    return getattr(coro, "__qualname__", "task")


class TimedSteps:
    """A coroutine seen through by its task, each step (``send``, ``throw``) timed by the
    :class:`SlowCallbacks` measuring (:attr:`meter`), on uvloop, whose handles cannot be
    wrapped. :meth:`install` makes the loop's task factory wrap every task's coroutine,
    from before the bot boots, so that its long-lived tasks are timed too; while nothing
    is measured a step costs one more call. The coroutine's ``cr_*`` attributes show
    through (the harness reads where a task is suspended)."""

    __slots__ = ("coro",)
    meter: ClassVar[SlowCallbacks | None] = None

    def __init__(self, coro: Any) -> None:
        self.coro = coro

    @classmethod
    def install(cls, loop: asyncio.AbstractEventLoop) -> None:
        previous = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
            timed = cls(coro)
            if previous is not None:
                return previous(loop, timed, **kw)  # type: ignore[arg-type,return-value]
            return asyncio.Task(timed, loop=loop, **kw)  # type: ignore[arg-type]

        loop.set_task_factory(factory)  # type: ignore[arg-type]

    def send(self, value: Any) -> Any:
        meter = TimedSteps.meter
        if meter is None:
            return self.coro.send(value)
        return meter.step(self.coro.send, value, self.coro)

    def throw(self, exc: Any, *rest: Any) -> Any:
        meter = TimedSteps.meter
        if meter is None or rest:
            return self.coro.throw(exc, *rest)
        return meter.step(self.coro.throw, exc, self.coro)

    def close(self) -> None:
        self.coro.close()

    def __await__(self) -> TimedSteps:
        return self

    def __iter__(self) -> TimedSteps:
        return self

    def __next__(self) -> Any:
        return self.send(None)

    @property
    def cr_code(self) -> Any:
        return self.coro.cr_code

    @property
    def cr_frame(self) -> Any:
        return self.coro.cr_frame

    @property
    def cr_await(self) -> Any:
        return self.coro.cr_await


# --- waiting for one click's handling -----------------------------------------------------
class ClickTasks:
    """Tasks per interaction: a task created while an interaction is handled (the context
    variable the harness sets) belongs to it, and so do the tasks it starts."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.by_click: dict[int, list[asyncio.Task[Any]]] = defaultdict(list)
        self._made = 0
        previous = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
            task: asyncio.Task[Any]
            if previous is not None:
                task = previous(loop, coro, **kw)  # type: ignore[assignment]
            else:
                task = asyncio.Task(coro, loop=loop, **kw)
            cid = CURRENT_INTERACTION.get()
            if cid is not None:
                self.by_click[cid].append(task)
                self._made += 1
                if self._made % 1000 == 0:
                    self._sweep()
                context = kw.get("context")
                if context is not None:
                    # A task started in a fresh context (a paced flush armed by this click)
                    # still works for the click: its calls count as the click's.
                    context.run(CURRENT_INTERACTION.set, cid)
            return task

        loop.set_task_factory(factory)

    def _sweep(self) -> None:
        """Forget clicks whose tasks are all done (a task a click started after its wait
        ended, a paced flush say, would keep its finished coroutine alive forever: a leak
        of the bench that full collections would scan)."""
        for cid in [c for c, tasks in self.by_click.items() if all(t.done() for t in tasks)]:
            del self.by_click[cid]

    async def wait(self, cid: int, timeout: float = CLICK_TIMEOUT) -> bool:
        """Until every task of click ``cid`` is done; False on timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            busy = [
                t
                for t in self.by_click.get(cid, [])
                if not t.done() and not t.get_name().startswith(IDLE_TASKS)
            ]
            if not busy:
                self.by_click.pop(cid, None)
                return True
            left = deadline - time.perf_counter()
            if left <= 0:
                self.by_click.pop(cid, None)
                return False
            await asyncio.wait(busy, timeout=left)


# --- what the clicks measured ------------------------------------------------------------
@dataclass
class Stats:
    clicks: int = 0
    acks: list[float] = field(default_factory=list)
    results: list[float] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)
    """Dispatch to the click's first public call (its own move shown, before AI replies)."""
    calls: int = 0
    public_calls: int = 0
    timeouts: int = 0
    client_errors: Counter[str] = field(default_factory=Counter)
    refused_answers: int = 0
    """Answers the game refused (a random allocation it cannot take), then the AI's."""
    matches_started: int = 0
    matches_ended: int = 0
    held: list[tuple[int, float, float]] = field(default_factory=list)
    """Clicks whose public change waited for the channel's pace in a flush another click
    armed: (channel, when the click was handled, when it was dispatched)."""
    held_unresolved: int = 0


def is_public(call: Call, fake: FakeDiscord, fi: FakeInteraction) -> bool:
    """A call of click ``fi`` that changes what a channel shows everyone: a post, edit or
    deletion in a guild channel or thread (not a DM), a non-ephemeral interaction reply,
    or an update of a public message (the clicked one, the reply's own, or one edited
    through another click's token)."""
    if call.method not in ("POST", "PATCH", "DELETE"):
        return False
    parts = call.path.split("/")
    body = call.json or {}
    if call.route_template.startswith("/channels/"):
        channel = fake.channels.get(int(parts[2])) if parts[2].isdigit() else None
        return channel is not None and channel.get("type") != P.DM
    if call.route_template.endswith("/callback"):
        if body.get("type") == 7:  # an update of the clicked message
            clicked = fake.messages.get(fi.message_id or 0)
            return clicked is not None and not clicked.ephemeral
        if body.get("type") == 4:
            return not ((body.get("data") or {}).get("flags") or 0) & P.EPHEMERAL
        return False
    if call.route_template.startswith("/webhooks/"):
        if call.method == "POST":  # a followup
            return not (body.get("flags") or 0) & P.EPHEMERAL
        # The message edited, through this click's token or another's (cogs.publisher).
        message = fake.messages.get(fake.target_of(call) or 0)
        return message is not None and not message.ephemeral
    return False


class LoadDriver(Driver):
    """The harness driver with many channels and members, measuring every click and
    waiting for that click's own work only (many clients play at once)."""

    def __init__(
        self,
        tmp: Path,
        *,
        slots: int,
        humans: int,
        idle_channels: int,
        snowflakes: P.Snowflakes | None = None,
    ) -> None:
        super().__init__(tmp, players=2, snowflakes=snowflakes)
        self.slot_channels = [
            P.text_channel(self.snow(), f"arena-{i}", guild_id=self.guild_id) for i in range(slots)
        ]
        self.idle_channels = [
            P.text_channel(self.snow(), f"idle-{i}", guild_id=self.guild_id)
            for i in range(idle_channels)
        ]
        self.players = [P.user(self.snow(), f"player{i}") for i in range(humans)]
        self.users = self.users + self.players
        self.guild = P.guild(
            self.guild_id,
            owner_id=int(self.owner["id"]),
            channels=[self.channel, *self.slot_channels, *self.idle_channels],
            members=[P.member(u) for u in [*self.users, self.spectator]],
            preferred_locale=self.guild_locale,
        )
        self.fake.add_guild(self.guild)
        self.stats = Stats()
        self.think = 0.0
        self.pauses = random.Random(16)
        self.quick_ai = False
        """Active matches get only the AI levels that think in the bot's process."""
        self.slower = 1.0
        """The event loop's thread as on a machine this many times slower (``--slower``)."""
        self.tasks: ClickTasks | None = None
        self.measuring = False
        self.channel_writes: dict[int, list[float]] = defaultdict(list)
        """When each post or edit through a channel started, by channel."""
        # Discord keeps no history in the bot's process; the fake keeps only what the
        # figures need (each click's calls until it is measured, these times).
        self.fake.keep_history = False
        self.fake.keep_files = False  # the pictures are Discord's CDN's, not the bot's
        self.fake.on_call = self._seen
        # A call waits for its answer as on a network (the loop runs other work meanwhile).
        self.fake.answers_later = True

    def _seen(self, call: Call) -> None:
        parts = call.path.split("/")
        if call.method in ("POST", "PATCH") and len(parts) > 2 and parts[1] == "channels":
            if parts[2].isdigit():
                self.channel_writes[int(parts[2])].append(call.time)

    async def settle(self, *, allow_errors: bool = False) -> None:
        """Only at start and stop: the whole bot quiet (the harness's own check)."""
        await runner.settle(self.bot, 600.0, allow_errors=True)

    async def dispatch(self, payload: Json) -> FakeInteraction:
        assert self.bot is not None
        if self.tasks is None:
            self.tasks = ClickTasks(asyncio.get_running_loop())
        if self.think > 0:  # players do not click in step: exponential waits
            await asyncio.sleep(self.pauses.expovariate(1 / self.think))
        fi = await runner.dispatch(self.bot, payload)
        assert fi is not None
        done = await self.tasks.wait(fi.id)
        if self.measuring:
            s = self.stats
            s.clicks += 1
            s.timeouts += not done
            if fi.ack_delay is not None:
                s.acks.append(fi.ack_delay)
            calls = self.fake.interaction(fi.id).calls
            s.calls += len(calls)
            public = [c for c in calls if is_public(c, self.fake, fi)]
            s.public_calls += len(public)
            if public:
                s.results.append(max(c.time for c in public) - fi.dispatched_at)
                s.firsts.append(min(c.time for c in public) - fi.dispatched_at)
            elif (channel := int(payload.get("channel_id") or 0)) in self.paced_channels():
                # Its public change waits for the channel's pace, in a flush another click
                # armed: its result is the channel's next public call.
                s.held.append((channel, harness_now(), fi.dispatched_at))
        # The fake keeps every payload for tests to read; a deployed bot's process holds
        # none of it, and the garbage collector would scan it all run long.
        self.fake.lighten(fi.id)
        return fi

    def paced_channels(self) -> set[int]:
        """Channels with a paced flush armed and not yet fired."""
        assert self.bot is not None
        wakes = getattr(self.bot.gm, "_wakes", {})
        return {ch for ch, wake in wakes.items() if not wake.fired}

    def resolve_held(self) -> None:
        """The result of each click held by pace: the first public call in its channel
        after the click was handled (a click never seen through is counted until now)."""
        s = self.stats
        now = harness_now()
        by_channel = self.channel_writes
        for channel, handled, dispatched in s.held:
            later = [t for t in by_channel.get(channel, []) if t >= handled]
            s.results.append((min(later) if later else now) - dispatched)
            s.firsts.append((min(later) if later else now) - dispatched)
        s.held_unresolved = sum(
            1
            for channel, handled, _ in s.held
            if not any(t >= handled for t in by_channel.get(channel, []))
        )


# --- filling the store with idle live matches --------------------------------------------
def idle_specs(count: int) -> Iterator[tuple[str, str, list[str | None]]]:
    """(game, mode, AI level per seat) of ``count`` idle matches: the five games in turn,
    every declared level in turn, one human seat first."""
    for i in range(count):
        game = GAMES[i % len(GAMES)]
        info = get_game(game).info
        mode = info.modes[0]
        players = min(mode.player_counts)
        lv = levels(game)
        seats: list[str | None] = [None] + [
            lv[(i // len(GAMES) + k) % len(lv)] for k in range(players - 1)
        ]
        yield game, mode.id, seats


async def fill_idle(
    database: Path | str, channels: list[Json], guild_id: int, process: int = 0
) -> dict[str, list[int]]:
    """Idle live matches, one per channel; their ids by game. ``process`` tells apart the
    idle players and seeds of processes filling one database."""
    store = await Store.open(database)
    by_game: dict[str, list[int]] = defaultdict(list)
    try:
        for i, (game, mode, seat_levels) in enumerate(idle_specs(len(channels))):
            uid = 900_000_000 + IDLE_PER_PROCESS * process + i
            seats = [
                SeatSpec(name=f"Idle {i}", user_id=uid)
                if lv is None
                else SeatSpec(name=f"Robot {k}", ai=True, ai_level=lv)
                for k, lv in enumerate(seat_levels)
            ]
            seed = f"load-idle-{i}" if process == 0 else f"load-idle-{process}-{i}"
            match = Match.create(game, seats, seed=seed, mode=mode)
            mid = await store_live(
                store,
                match,
                guild_id=guild_id,
                channel_id=int(channels[i]["id"]),
                thread_id=None,
                host_id=uid,
            )
            by_game[game].append(mid)
    finally:
        await store.close()
    return by_game


# --- the clients ---------------------------------------------------------------------------
def no_tiebreak(d: Decision, rnd: random.Random) -> str:
    """MAD: players do not offer or accept the tie-break (a random one would end at once)."""
    options = [o.id for o in d.options if not any(w in o.id for w in ("tie", "draw", "accept"))]
    return rnd.choice(options or [o.id for o in d.options])


class Client:
    """One active table: opens a match through the lobby, plays its humans, again."""

    def __init__(self, d: LoadDriver, slot: int, humans: list[Json], seed: int) -> None:
        self.d = d
        self.slot = slot
        self.setup = ACTIVE_SETUPS[slot % len(ACTIVE_SETUPS)]
        self.channel = d.slot_channels[slot]
        self.channel_id = int(self.channel["id"])
        self.humans = humans[: self.setup.humans]
        self.rnd = random.Random(seed)
        self.mid: int | None = None
        self.table_channel = self.channel_id
        """Where the match's table is: the slot's channel, or the match's own thread."""
        self.round = 0
        self.answered: tuple[int | None, str] | None = None
        """The last decision this client answered (match, key): still pending at the next
        step means the game refused the answer (a random allocation it cannot pay)."""

    def table(self) -> tuple[int, FakeMessage]:
        """The newest table of the slot (its channel and its threads) and where it is."""
        d = self.d
        chans = [self.channel_id] + [int(t["id"]) for t in d.fake.threads(self.channel_id)]
        found: list[tuple[int, FakeMessage]] = []
        for ch in chans:
            with contextlib.suppress(AssertionError):
                found.append((ch, d.round_message(ch)))
        if not found:
            raise AssertionError(f"no table in channel {self.channel_id} or its threads")
        return max(found, key=lambda cm: cm[1].id)

    async def open(self) -> None:
        """``/arena start`` in the slot's channel, the others join, AI seats, Start."""
        d, s = self.d, self.setup
        lv = levels(s.game, quick_only=d.quick_ai)
        level = lv[(self.slot // len(ACTIVE_SETUPS) + self.round) % len(lv)]
        self.round += 1
        host = self.humans[0]
        start: dict[str, Any] = {"game": s.game, "mode": s.mode}
        if s.ai:
            start["ai_level"] = level
        await d.slash(host, "start", channel=self.channel, **start)
        lobby = d.lobby(self.channel_id)
        for u in self.humans[1:]:
            await d.press(u, d.fake.message(lobby.id), "Join")
        for _ in range(s.ai):
            await d.press(host, d.fake.message(lobby.id), "Add AI")
        await d.press(host, d.fake.message(lobby.id), "Start")
        self.table_channel, board = self.table()
        self.mid = int(d.fake.components(board)[0]["custom_id"].split(":")[1])
        d.stats.matches_started += 1

    async def step(self) -> None:
        """Answer one human decision (or open a new match when this one is over)."""
        d = self.d
        live = None if self.mid is None else await d.live(self.mid)
        if live is None or live.match is None:
            if self.mid is not None:
                d.stats.matches_ended += 1
            await self.open()
            return
        match = live.match
        humans = [x for x in match.pending() if not match.seats[x.seat].ai]
        if not humans:  # AI seats still thinking: the click that woke them is done
            await asyncio.sleep(0.05)
            return
        x = humans[0]
        user = d.user_by_id(match.seats[x.seat].user_id)
        again = self.answered == (self.mid, x.key)
        self.answered = (self.mid, x.key)
        if again and self.d.measuring:
            self.d.stats.refused_answers += 1
        if x.structured:
            # A random allocation the game refused is not tried again and again (clicks
            # that change nothing): the AI's answer, which the game takes, goes instead.
            # The draft kept what the refused answer entered: every amount is set again.
            choice = (None if again else random_choice(x, self.rnd)) or match.ai_choice(x)
            await d.answer_draft(user, x, choice, channel_id=self.table_channel, every_amount=again)
        else:
            option = (
                no_tiebreak(x, self.rnd)
                if match.game_id == "mad"
                else self.rnd.choice(x.options).id
            )
            await d.answer(user, x, option, channel_id=self.table_channel)

    async def run(self, until: float) -> None:
        while time.perf_counter() < until:
            try:
                await self.step()
            except Exception as e:  # a stale prompt, a refused click: note it, go on
                self.d.stats.client_errors[type(e).__name__] += 1
                await asyncio.sleep(0.05)


# --- memory ---------------------------------------------------------------------------------
async def memory_per_match(
    d: LoadDriver, by_game: dict[str, list[int]], sample: int
) -> dict[str, float]:
    """Bytes a live match holds, per game: a sample of idle matches dropped from memory,
    then reloaded under tracemalloc (what is shared between matches counts once)."""
    assert d.bot is not None
    gm = d.bot.gm
    out: dict[str, float] = {}
    for game in GAMES:
        ids = by_game.get(game, [])[:sample]
        if not ids:
            continue
        for mid in ids:
            gm._live.pop(mid, None)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for mid in ids:
            await gm._get(mid)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        out[game] = (after - before) / len(ids)
    return out


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a process from ``/proc`` (Linux); None if it is gone."""
    return _read_stat(Path(f"/proc/{pid}/stat"))


def _read_stat(path: Path) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) from a ``stat`` file of ``/proc``, a process's or one of
    its threads' (``/proc/<pid>/task/<tid>/stat``); None if it is gone."""
    try:
        text = path.read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks


def pool_pids(pool: LoopPool | None) -> set[int]:
    """The worker processes of a pool (none when it is not running)."""
    return pool.pids if pool is not None else set()


def thread_cpu(pid: int | None = None) -> dict[int, float]:
    """CPU seconds of each thread of a process (this one by default), by thread id, from
    ``/proc/<pid>/task`` (Linux; empty elsewhere)."""
    pid = os.getpid() if pid is None else pid
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return {}
    return {
        int(task.name): stat[1]
        for task in tasks
        if (stat := _read_stat(task / "stat")) is not None  # None: the thread ended meanwhile
    }


def thread_shares(
    before: dict[int, float], after: dict[int, float], wall: float, main: int
) -> tuple[float, float]:
    """(the main thread's, the other threads' together) CPU over ``wall`` seconds, each as
    a share of one core: the event loop's thread cannot use more than one core whatever
    the machine has, so its share is how near the bot's single-thread ceiling it runs.
    A thread started meanwhile counts from 0; one that ended is missed."""
    spent = {tid: cpu - before.get(tid, 0.0) for tid, cpu in after.items()}
    own = spent.pop(main, 0.0)
    return own / wall, sum(spent.values()) / wall


def cpu_by_pid(pids: set[int]) -> float:
    """CPU seconds of these processes (gone ones count 0)."""
    return sum(stat[1] for pid in pids if (stat := _proc_stat(pid)) is not None)


class HarnessClock:
    """CPU the offline Discord spends on the bot's calls (routing them, checking Discord's
    limits, building the JSON a real Discord would answer): the fake's work, which a
    deployed bot does not pay, timed on the event-loop thread while it is on. Also the
    bot's parsing of each click, which runs inside a load client's step (the client feeds
    the gateway event): it is subtracted from the clients' CPU
    (:attr:`SlowCallbacks.clients_cpu`), since a deployed bot does that parsing too.
    Each is timed on the clock: they are plain functions (no await) that only compute, so
    their time on the clock is their CPU unless the system preempts the thread within
    their tens of microseconds, and reading the clock costs 0.05 us where the thread's
    CPU clock, a system call, cost 3.6 us under load (14 readings per click)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.parse_seconds = 0.0
        self._saved: list[tuple[type, str, Any]] = []

    def _timed(self, fn: Any, total: str) -> Any:
        clock = self

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                setattr(clock, total, getattr(clock, total) + time.perf_counter() - start)

        return wrapper

    def __enter__(self) -> HarnessClock:
        timed: list[tuple[type, str, str]] = [
            (FakeDiscord, "_route", "seconds"),
            (FakeDiscord, "_check_limits", "seconds"),
            (ConnectionState, "parse_interaction_create", "parse_seconds"),
        ]
        for owner, name, total in timed:
            fn = owner.__dict__[name]
            self._saved.append((owner, name, fn))
            setattr(owner, name, self._timed(fn, total))
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, fn in self._saved:
            setattr(owner, name, fn)
        self._saved = []


def machine_ticks() -> tuple[int, int, int]:
    """(busy, steal, all) clock ticks of every core so far (``/proc/stat``'s first line):
    busy is everything but idle, I/O wait and steal; steal is what the host took from
    this virtual machine (a slow moment of the machine shows there, when it is the host's
    doing)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle, iowait, steal = fields[3], fields[4], fields[7] if len(fields) > 7 else 0
    everything = sum(fields[:8])
    return everything - idle - iowait - steal, steal, everything


def machine_shares(before: tuple[int, int, int], after: tuple[int, int, int]) -> dict[str, float]:
    """The whole machine's busy share and the host's (steal) between two readings."""
    span = max(1, after[2] - before[2])
    return {
        "machine_busy": (after[0] - before[0]) / span,
        "steal_share": (after[1] - before[1]) / span,
    }


def cpu_seconds() -> float:
    """CPU of this process (all its threads) and of its descendants alive now (the AI
    worker processes and their fork server)."""
    t = os.times()
    total = t.user + t.system
    parents: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat is not None:
                parents[stat[0]].append((int(entry.name), stat[1]))
    todo = [os.getpid()]
    while todo:
        for pid, cpu in parents.get(todo.pop(), []):
            total += cpu
            todo.append(pid)
    return total


def rss_bytes() -> int:
    """Resident memory of this process (``/proc/self/statm``)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


async def measure(
    d: LoadDriver, clients: list[Client], seconds: float, think: float, cores: int
) -> dict[str, Any]:
    """The figures of ``seconds`` of play, each client waiting about ``think`` seconds
    (exponentially distributed) before each click."""
    d.think = think
    d.stats = Stats()
    assert d.bot is not None
    pacer = d.bot.gm.pacer
    if pacer is not None:
        pacer.stats = PaceStats()
    d.measuring = True
    calls_before = d.fake.call_count
    beat = Heartbeat()
    ai_pids = pool_pids(thinking._pool)
    draw_pids = pool_pids(drawing._pool)
    collector = d.bot.collector
    collected0 = dict(collector.stats.collections) if collector is not None else {}
    found0 = collector.stats.found if collector is not None else 0
    collecting0 = collector.stats.seconds if collector is not None else 0.0
    rss0 = rss_bytes()
    with GcPauses() as pauses, HarnessClock() as harness, SlowCallbacks(d.slower) as slow:
        beat.start()
        cpu0 = cpu_seconds()
        own0 = sum(os.times()[:2])
        ai0, draw0 = cpu_by_pid(ai_pids), cpu_by_pid(draw_pids)
        threads0 = thread_cpu()
        ticks0 = machine_ticks()
        t0 = time.perf_counter()
        until = t0 + seconds
        tasks = [asyncio.create_task(c.run(until), name="load-client") for c in clients]
        slow.add_clients(tasks)
        await asyncio.gather(*tasks)
        wall = time.perf_counter() - t0
        # The clients' steps parse their clicks into discord.py: the bot's work, as in
        # ``clients_ms_per_click``.
        busy, clients_busy = slow.busy, slow.clients_busy - harness.parse_seconds
        cpu = cpu_seconds() - cpu0
        own = sum(os.times()[:2]) - own0
        ai_cpu = cpu_by_pid(ai_pids | pool_pids(thinking._pool)) - ai0
        draw_cpu = cpu_by_pid(draw_pids | pool_pids(drawing._pool)) - draw0
        loop_thread, other_threads = thread_shares(threads0, thread_cpu(), wall, os.getpid())
        lags = await beat.stop()
        machine = machine_shares(ticks0, machine_ticks())
    ended = time.time()
    rss_growth = rss_bytes() - rss0
    d.measuring = False
    d.resolve_held()
    d.think = 0.0
    collected = (
        {k: n - collected0.get(k, 0) for k, n in collector.stats.collections.items()}
        if collector is not None
        else {}
    )
    s = d.stats
    return dict(
        wall_s=wall,
        # Each click's times and the loop's lateness, for a merge of several processes'
        # runs (bench/bench_shards.py); the report prints only their percentiles.
        samples=dict(acks=s.acks, results=s.results, firsts=s.firsts, lags=lags),
        window=(ended - wall, ended),  # on the system's clock, to compare processes
        clicks=s.clicks,
        clicks_per_s=s.clicks / wall,
        calls_per_click=s.calls / max(1, s.clicks),
        public_calls_per_click=s.public_calls / max(1, s.clicks),
        unattributed_calls=d.fake.call_count - calls_before - s.calls,
        held_clicks=len(s.held),
        held_unresolved=s.held_unresolved,
        ack_p50_ms=1000 * pct(s.acks, 50),
        ack_p99_ms=1000 * pct(s.acks, 99),
        result_clicks=len(s.results),
        result_p50_s=pct(s.results, 50),
        result_p95_s=pct(s.results, 95),
        result_p99_s=pct(s.results, 99),
        first_p50_s=pct(s.firsts, 50),
        first_p95_s=pct(s.firsts, 95),
        lag_p99_ms=1000 * pct(lags, 99),
        lag_worst_ms=1000 * max(lags, default=0.0),
        lag_p99_by_window_ms=[1000 * lag for lag in beat.windows(LAG_WINDOW)],
        rss_growth_mb_per_min=rss_growth / 2**20 / (wall / 60),
        full_gcs=len(pauses.pauses),
        full_gc_worst_ms=1000 * max(pauses.pauses, default=0.0),
        young_gcs=len(pauses.young),
        young_gc_worst_ms=1000 * max(pauses.young, default=0.0),
        young_gcs_over_50ms=sum(1 for p in pauses.young if p > 0.05),
        collector={k: n for k, n in collected.items() if n},
        collector_found=(collector.stats.found - found0) if collector is not None else 0,
        collector_seconds=(collector.stats.seconds - collecting0) if collector is not None else 0.0,
        callbacks=slow.count,
        loop_busy=busy / wall,
        loop_clients_busy=clients_busy / wall,
        callbacks_over_50ms=len(slow.over),
        callbacks_over_50ms_cpu=slow.working(),
        callback_worst_ms=1000 * slow.worst[0],
        callback_worst_cpu_ms=1000 * slow.worst[1],
        callback_worst=slow.worst[2],
        callbacks_over_50ms_by_name=slow.names(),
        cpu_ms_per_click=1000 * cpu / max(1, s.clicks),
        own_ms_per_click=1000 * own / max(1, s.clicks),
        harness_ms_per_click=1000 * harness.seconds / max(1, s.clicks),
        clients_ms_per_click=1000 * (slow.clients_cpu - harness.parse_seconds) / max(1, s.clicks),
        ai_ms_per_click=1000 * ai_cpu / max(1, s.clicks),
        draw_ms_per_click=1000 * draw_cpu / max(1, s.clicks),
        drawing_processes=len(draw_pids),
        loop_thread_core=loop_thread,
        other_threads_core=other_threads,
        cpu_busy=cpu / wall / max(1, cores),
        **machine,
        timeouts=s.timeouts,
        client_errors=dict(s.client_errors),
        refused_answers=s.refused_answers,
        matches_started=s.matches_started,
        matches_ended=s.matches_ended,
        violations=len(d.fake.violations),
        load_after=os.getloadavg()[0],
        think=think,
        pacing=pacer.stats.summary() if pacer is not None else {},
        **discord_budget(pacer, s.clicks, wall),
    )


def discord_budget(pacer: Pacer | None, clicks: int, wall: float) -> dict[str, float]:
    """Channel calls per second against the pacing's global budget (below Discord's about
    50 requests per second per bot), and the click rate that budget allows at this mix's
    channel calls per click, whatever the CPU: interaction answers are not counted by
    Discord, channel posts and edits are (an edit through a click's token is an
    interaction call: reported apart, outside the budget)."""
    if pacer is None or not clicks:
        return {}
    calls = pacer.stats.calls - pacer.stats.exempt
    budget = pacer.limits.global_calls / pacer.limits.global_window
    per_click = calls / clicks
    return {
        "channel_calls_per_s": calls / wall,
        "channel_budget_per_s": budget,
        "channel_calls_per_click": per_click,
        "token_edits_per_click": pacer.stats.exempt / clicks,
        "discord_ceiling_clicks_per_s": budget / per_click if per_click else float("inf"),
    }


# --- the run --------------------------------------------------------------------------------
async def bench(
    args: argparse.Namespace,
    *,
    database: str | None = None,
    process: int = 0,
    processes: int = 1,
    ready: Callable[[], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """One run: the idle matches stored, the bot booted on them, the active ones opened,
    then the ramp's steps and the measured run.

    ``database``: a PostgreSQL URL (an empty database) instead of a throwaway SQLite
    file. ``process`` of ``processes``: this process is one of several bots sharing that
    database (``bench/bench_shards.py``), with ids, seeds and idle players of its own
    and its share of Discord's budget. ``ready`` is awaited once everything is open,
    before the first step: where those processes start measuring together."""
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    logging.getLogger("bot").setLevel(logging.CRITICAL)
    idle = max(0, args.live - args.active)
    fig: dict[str, Any] = {
        "live": args.live,
        "active": args.active,
        "seconds": args.seconds,
        "think": args.think,
        "load_before": os.getloadavg()[0],
        "cores": os.cpu_count() or 1,
        "long_lived": args.long_lived,
        "quick_ai": args.quick_ai,
        "loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
    }
    if not isinstance(asyncio.get_running_loop(), asyncio.BaseEventLoop):
        TimedSteps.install(asyncio.get_running_loop())  # before the bot's first task
    # As in a fresh process: a run before this one in the same process (the tests run the
    # bench on both loops) would have left every picture of these seeded matches drawn.
    IMAGES.clear()
    fresh_seed = bot.gm.lobby.new_seed
    thresholds = gc.get_threshold()
    deployed = ArenaBot.long_lived
    ArenaBot.long_lived = args.long_lived  # as deployed (ShardedArenaBot) unless --cold
    seeds = iter(range(10**9))
    tag = "" if process == 0 else f"{process}-"
    bot.gm.lobby.new_seed = lambda: f"load-{tag}{next(seeds)}"  # the matches' dice are fixed
    with tempfile.TemporaryDirectory() as tmp:
        d = LoadDriver(
            Path(tmp),
            slots=args.active,
            humans=2 * args.active,
            idle_channels=idle,
            snowflakes=P.Snowflakes(process=process),
        )
        if database is not None:
            d.db_path = database
        d.quick_ai = args.quick_ai
        d.slower = fig["slower"] = getattr(args, "slower", 1.0)
        started = time.perf_counter()
        by_game = await fill_idle(d.db_path, d.idle_channels, d.guild_id, process)
        fig["fill_s"] = time.perf_counter() - started
        gc.collect()
        rss0 = rss_bytes()
        started = time.perf_counter()
        await d.start()
        fig["boot_s"] = time.perf_counter() - started
        assert d.bot is not None
        # Pacing runs on real time in the deployed bot; the driver's clock is manual.
        rate = fig["discord_rate"] = getattr(args, "discord_rate", DISCORD_RATE)
        budget = channel_budget(rate, share=1 / processes)  # Discord's limit is per token
        d.bot.gm.pacer = Pacer(SystemClock(), PaceLimits(global_calls=budget))
        gc.collect()
        fig["rss_per_idle_kb"] = (rss_bytes() - rss0) / 1024 / max(1, idle)
        try:
            mem = await memory_per_match(d, by_game, args.memory_sample)
            fig["kb_per_match"] = {g: b / 1024 for g, b in mem.items()}
            clients = [
                Client(d, i, d.players[2 * i : 2 * i + 2], seed=i) for i in range(args.active)
            ]
            started = time.perf_counter()
            await asyncio.gather(*(c.open() for c in clients))
            fig["open_s"] = time.perf_counter() - started
            assert d.bot is not None
            fig["live_now"] = len(d.bot.gm._live)
            fig["live_here"] = idle + len(clients)
            if ready is not None:
                await ready()

            fig["ramp"] = []
            for think in args.ramp or []:
                row = await measure(d, clients, args.ramp_seconds, think, fig["cores"])
                fig["ramp"].append(row)
                print(ramp_line(row), file=sys.stderr, flush=True)
            fig.update(await measure(d, clients, args.seconds, args.think, fig["cores"]))
        finally:
            d.measuring = False
            with contextlib.suppress(Exception):
                await d.stop()
            thinking.shutdown()  # the AI worker processes
            drawing.shutdown()  # the drawing processes (the bot's close stops them too)
            bot.gm.lobby.new_seed = fresh_seed
            ArenaBot.long_lived = deployed
            gc.unfreeze()
            gc.set_threshold(*thresholds)
    return fig


def pacing_line(p: dict[str, Any]) -> str:
    """What the per-channel pacing of public calls did while measuring."""
    if not p:
        return "Pacing: off."
    return (
        f"Pacing: {p['calls']} channel calls let through, {p['held']} deliveries held "
        f"(waits p50 {p['wait_p50_s']:.2f} s, p95 {p['wait_p95_s']:.2f} s, worst "
        f"{p['wait_max_s']:.2f} s), {p['merged']} edits merged into newer ones, "
        f"{p['refused']} refused by Discord."
    )


def ramp_line(row: dict[str, Any]) -> str:
    """One step of the ramp as a Markdown table row."""
    return (
        f"| {row['think']:.2f} s | {row['clicks_per_s']:.1f} | "
        f"{row.get('channel_calls_per_s', 0.0):.1f} | "
        f"{row['result_p50_s']:.2f} / {row['result_p95_s']:.2f} s | "
        f"{row.get('first_p95_s', 0.0):.2f} s | "
        f"{row['ack_p99_ms']:.0f} ms | {row['lag_p99_ms']:.0f} ms | "
        f"{100 * row.get('loop_busy', 0.0):.0f}% | "
        f"{row.get('callbacks_over_50ms', 0)} ({row.get('callback_worst_ms', 0.0):.0f} ms"
        f"{', ' + row['callback_worst'] if row.get('callback_worst') else ''}) | "
        f"{row['cpu_ms_per_click']:.1f} ms | {100 * row['cpu_busy']:.0f}% |"
    )


def ramp_table(rows: list[dict[str, Any]]) -> list[str]:
    """The ramp: the offered rate rises as the clients think less; the highest achieved
    rate whose click-to-public-result p95 is within the goal's second is what the machine
    sustains."""
    if not rows:
        return []
    ok = [r for r in rows if r["result_p95_s"] <= 1.0]
    best = max(ok, key=lambda r: r["clicks_per_s"]) if ok else None
    own = [r for r in rows if r.get("first_p95_s", float("inf")) <= 1.0]
    best_own = max(own, key=lambda r: r["clicks_per_s"]) if own else None
    return [
        "",
        "| think (mean) | clicks/s | channel calls/s | result p50 / p95 | own change p95 "
        "| ack p99 | lag p99 | loop busy | callbacks over 50 ms (worst) | CPU/click | busy |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *(ramp_line(r) for r in rows),
        "",
        (
            f"Sustained with a public result p95 within 1 s: {best['clicks_per_s']:.1f} clicks/s "
            f"(clients thinking {best['think']:.2f} s on average)."
            if best
            else "No step of the ramp kept the public result p95 within 1 s."
        ),
        (
            f"Sustained with the click's own public change (before any AI reply) p95 within "
            f"1 s: {best_own['clicks_per_s']:.1f} clicks/s (clients thinking "
            f"{best_own['think']:.2f} s on average)."
            if best_own
            else "No step of the ramp kept the click's own public change (before any AI reply) "
            "p95 within 1 s."
        ),
    ]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(fig: dict[str, Any]) -> str:
    kb = fig["kb_per_match"]
    budget = (
        [
            (
                "channel calls per click; per second (paced budget); clicks/s that budget "
                "allows; table edits per click through a click's token (not counted)",
                f"{fig['channel_calls_per_click']:.2f}; {fig['channel_calls_per_s']:.1f} "
                f"({fig['channel_budget_per_s']:.0f}); {fig['discord_ceiling_clicks_per_s']:.0f}; "
                f"{fig['token_edits_per_click']:.2f}",
                "",
                "",
            )
        ]
        if "channel_calls_per_click" in fig
        else []
    )
    rows = [
        (
            "achieved clicks/s",
            f"{fig['clicks_per_s']:.1f}",
            GOALS["clicks_per_s"],
            verdict(fig["clicks_per_s"] >= 150),
        ),
        (
            "Discord calls per click (public ones)",
            f"{fig['calls_per_click']:.2f} ({fig['public_calls_per_click']:.2f})",
            "",
            "",
        ),
        *budget,
        (
            "ack p50 / p99",
            f"{fig['ack_p50_ms']:.1f} / {fig['ack_p99_ms']:.1f} ms",
            GOALS["ack_p99_ms"],
            verdict(fig["ack_p99_ms"] <= 50),
        ),
        (
            "click to public result p50 / p95 / p99",
            f"{fig['result_p50_s']:.2f} / {fig['result_p95_s']:.2f} / {fig['result_p99_s']:.2f} s",
            GOALS["result_p95_s"],
            verdict(fig["result_p95_s"] <= 1.0),
        ),
        (
            "click to its first public change p50 / p95 (before AI replies)",
            f"{fig['first_p50_s']:.2f} / {fig['first_p95_s']:.2f} s",
            "",
            "",
        ),
        (
            "event-loop lag p99 / worst",
            f"{fig['lag_p99_ms']:.1f} / {fig['lag_worst_ms']:.1f} ms",
            GOALS["lag_p99_ms"],
            verdict(fig["lag_p99_ms"] <= 20),
        ),
        *(
            [
                (
                    f"event-loop lag p99 by {LAG_WINDOW:.0f} s window",
                    ", ".join(f"{ms:.1f}" for ms in fig["lag_p99_by_window_ms"]) + " ms",
                    "",
                    "",
                )
            ]
            if len(fig.get("lag_p99_by_window_ms", [])) > 1
            else []
        ),
        (
            "event-loop busy running callbacks (of which the load clients' own steps)",
            f"{100 * fig['loop_busy']:.0f}% ({100 * fig['loop_clients_busy']:.0f}%)",
            "",
            "",
        ),
        (
            "event-loop callbacks over 50 ms, of all (over 50 ms of CPU too; the longest of all)",
            f"{fig['callbacks_over_50ms']} of {fig['callbacks']:,} "
            f"({fig['callbacks_over_50ms_cpu']}; {fig['callback_worst_ms']:.0f} ms, "
            f"{fig['callback_worst_cpu_ms']:.0f} of CPU, {fig['callback_worst']})",
            GOALS["callbacks_over_50ms"],
            verdict(fig["callbacks_over_50ms"] == 0),
        ),
        (
            "CPU per click",
            f"{fig['cpu_ms_per_click']:.1f} ms (machine {100 * fig['cpu_busy']:.0f}% busy"
            + (
                f" with the benchmark; with everything, {100 * fig['machine_busy']:.0f}%; "
                f"the host took {100 * fig['steal_share']:.1f}% of the cores"
                if "machine_busy" in fig
                else ""
            )
            + ")",
            "",
            "",
        ),
        (
            "of which: bot process (fake Discord, load clients) / AI workers / drawing workers",
            f"{fig['own_ms_per_click']:.1f} ({fig['harness_ms_per_click']:.1f}, "
            f"{fig['clients_ms_per_click']:.1f}) / "
            f"{fig['ai_ms_per_click']:.1f} / {fig['draw_ms_per_click']:.1f} ms",
            "",
            "",
        ),
        (
            "the bot's process by thread, share of one core: the event loop's (its ceiling "
            "is one core) / the others (the store, the pools' feeders)",
            f"{100 * fig['loop_thread_core']:.0f}% / {100 * fig['other_threads_core']:.0f}%",
            "",
            "",
        ),
        *(
            (
                f"memory per live {g} match",
                f"{v:.1f} kB",
                GOALS["kb_mad_arena"] if g == "mad-arena" else "",
                verdict(v <= 60) if g == "mad-arena" else "",
            )
            for g, v in kb.items()
        ),
        (
            "RSS growth over boot per idle match (bot start-up included)",
            f"{fig['rss_per_idle_kb']:.1f} kB",
            "",
            "",
        ),
        (
            "RSS growth while measuring (the bot with the fake Discord and the clients)",
            f"{fig['rss_growth_mb_per_min']:.1f} MB a minute",
            "",
            "",
        ),
    ]
    lines = [
        f"## Load: {fig['live_now']} live matches, {fig['active']} active, "
        f"{fig['wall_s']:.0f} s, think {fig['think']:.2f} s"
        + (
            ", active matches without the AI levels thinking in processes"
            if fig["quick_ai"]
            else ""
        )
        + (
            f", the event loop's thread as on a machine {fig['slower']:g} times slower"
            if fig.get("slower", 1.0) != 1.0
            else ""
        )
        + (
            f", Discord's global limit raised to {fig['discord_rate']} requests/s"
            if fig.get("discord_rate", DISCORD_RATE) != DISCORD_RATE
            else ""
        ),
        "",
        "| Figure | Value | Goal | |",
        "|---|---|---|---|",
        *(f"| {a} | {b} | {c} | {v} |" for a, b, c, v in rows),
        "",
        f"{fig['clicks']} clicks ({fig['result_clicks']} changed a channel), "
        f"{fig['matches_started']} matches opened and {fig['matches_ended']} finished "
        f"while measuring; {fig['full_gcs']} full garbage collections "
        f"(worst {fig['full_gc_worst_ms']:.0f} ms, start-up frozen and AI workers started before the clicks: {fig['long_lived']}) "
        f"and {fig.get('young_gcs', 0)} young ones (worst {fig.get('young_gc_worst_ms', 0.0):.0f} ms, "
        f"{fig.get('young_gcs_over_50ms', 0)} over 50 ms); "
        f"collections made by the bot's collector: "
        f"{fig.get('collector') or 'none'} ({fig.get('collector_seconds', 0.0):.2f} s in all; "
        f"their scans found {fig.get('collector_found', 0)} unreachable objects); callbacks over 50 ms by coroutine or function: "
        f"{fig.get('callbacks_over_50ms_by_name') or 'none'}; "
        f"{fig['timeouts']} clicks not done in {CLICK_TIMEOUT:.0f} s; "
        f"client errors {fig['client_errors'] or 'none'}; "
        f"{fig.get('refused_answers', 0)} answers the game refused (then the AI's); "
        f"{fig['unattributed_calls']} Discord calls outside clicks; "
        f"{fig['held_clicks']} clicks shown by a paced flush another click armed "
        f"({fig['held_unresolved']} not shown by the end, counted until then); "
        f"{fig['violations']} Discord limit violations; "
        f"{fig['drawing_processes']} drawing processes.",
        pacing_line(fig.get("pacing", {})),
        *ramp_table(fig.get("ramp", [])),
        f"Setup: {fig['fill_s']:.1f} s to store the idle matches, boot (recover) "
        f"{fig['boot_s']:.1f} s, {fig['open_s']:.1f} s to open the active ones. "
        f"Machine: {fig['cores']} cores, load average {fig['load_before']:.1f} before, "
        f"{fig['load_after']:.1f} after. Event loop: {fig['loop']}"
        + (" (callbacks timed: the tasks' steps)." if fig["loop"] == "uvloop" else "."),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--live", type=int, default=1000, help="live matches in all")
    parser.add_argument("--active", type=int, default=100, help="matches being played")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument("--think", type=float, default=0.0, help="seconds before each click")
    parser.add_argument(
        "--ramp",
        type=float,
        nargs="*",
        metavar="THINK",
        help="before the main run, steps of --ramp-seconds with these mean think times "
        "(e.g. 2 1 0.5 0.25 0): the highest rate with a public result p95 within 1 s",
    )
    parser.add_argument("--ramp-seconds", type=float, default=30.0, help="seconds per step")
    parser.add_argument(
        "--quick-ai",
        action="store_true",
        help="active matches without the AI levels that think in worker processes (MAD "
        "medium and hard search about 10 ms of CPU per move; Arena!, whose every level "
        "does, plays its easy one), to measure the bot itself",
    )
    parser.add_argument(
        "--discord-rate",
        type=int,
        default=DISCORD_RATE,
        help="Discord's global limit for the bot, requests/s (50; what DISCORD_RATE_LIMIT "
        "sets for a bot Discord granted more): the paced budget of channel calls is 80%% of it",
    )
    parser.add_argument(
        "--slower",
        type=float,
        default=1.0,
        metavar="FACTOR",
        help="emulate a machine FACTOR times slower for the event loop's thread (the "
        "limit under load): each timed callback on it but the load clients' own steps "
        "(which are Discord's users, not the bot) is stretched by a spin to FACTOR times "
        "its own time; the worker processes and the store's thread keep the machine's "
        "speed",
    )
    parser.add_argument(
        "--memory-sample",
        type=int,
        default=50,
        help="idle matches per game reloaded under tracemalloc",
    )
    parser.add_argument(
        "--cold",
        dest="long_lived",
        action="store_false",
        help="boot as tests do: no gc.freeze, AI workers started by the first searches",
    )
    parser.add_argument(
        "--loop",
        choices=event_loop.LOOPS,
        default=None,
        help="the event loop to run on (default: the bot's, uvloop where it is installed; "
        f"{event_loop.ENV} sets it too)",
    )
    args = parser.parse_args(argv)
    event_loop.install(args.loop)
    print(report(asyncio.run(bench(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
