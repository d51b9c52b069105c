"""AI thinking off the interpreter lock: long searches run in worker processes.

Why: a search in a thread holds the interpreter lock, so one hard MAD move (0.1 s of
CPU compiled by mypyc, 0.6 s interpreted; about 10 ms with the search's C core, which
releases the lock below the root but not at it) slows every match on the event loop
(issue 16). Levels a game marks
:attr:`LevelInfo.process <bot.engine.vocabulary.LevelInfo.process>` think in a
:class:`~bot.gm.loop_pool.LoopPool` (started at the deployed bot's start-up, else on
first use; one worker per core); the rest, and everything when a pool cannot start,
in the game master's worker threads (:func:`bot.gm.base.run_cpu`).

A worker gets only what the AI needs: the game id, the dumped state, the decision
(as its JSON: :class:`bot.engine.wire.DecisionWire`, cheaper to pickle on the loop than
the model), the exact state of the random generator the engine gives the AI
(:meth:`Match.ai_rng <bot.engine.match.Match.ai_rng>`) and the seat's level; it
returns the game's reply, made into a choice here. The answer is the one the
thread would give, so a seed still gives the same moves.

Workers start from a fork server, as :mod:`multiprocessing` does it: a script run
by path that drives the game master must keep its entry point under
``if __name__ == "__main__":`` (``python -m bot`` and every ``bench/`` script do).
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import random
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine import Choice, Decision, Match
from bot.engine.game import Reply
from bot.engine.match import reply_choice
from bot.engine.registry import get_game
from bot.engine.vocabulary import LevelInfo
from bot.engine.wire import DecisionWire
from bot.gm.base import run_cpu
from bot.gm.loop_pool import LoopPool
from bot.gm.workers import NO_PROCESSES, process_pool

log = logging.getLogger(__name__)


_pool: LoopPool | None = None
_pool_failed = False
"""A pool could not start here (no process support, no semaphores...): threads only."""


def seat_level(match: Match, decision: Decision) -> str | None:
    """The level the seat asked for, as :meth:`Match.ai_choice` passes it."""
    return match.seats[decision.seat].ai_level if decision.seat < len(match.seats) else None


def needs_process(levels: list[LevelInfo], level: str | None, options: dict[str, Any]) -> bool:
    """Whether ``level`` (else the host option ``ai_level``, else the game's default, its
    first level) thinks in a process; a level the game does not list counts as its
    slowest, so an old or odd id never blocks the loop."""
    flagged = {lv.id for lv in levels if lv.process}
    if not flagged:
        return False
    known = {lv.id for lv in levels}
    for candidate in (level, options.get("ai_level")):
        if isinstance(candidate, str) and candidate:
            return candidate in flagged or candidate not in known
    return levels[0].process


def think_in_worker(
    game_id: str,
    state: dict[str, Any],
    decision: DecisionWire,
    rng_state: tuple[Any, ...],
    level: str | None,
) -> Reply:
    """Run in a worker process: the game's AI on the rebuilt state, decision (sent as its
    JSON: :class:`bot.engine.wire.DecisionWire`) and generator."""
    game = get_game(game_id)
    rnd = random.Random()
    rnd.setstate(rng_state)
    return game.ai_choose(game.load(state), decision.decision(), rnd, level)


def pool() -> LoopPool | None:
    """The process pool, started on first use (blocking); ``None`` where processes
    cannot run."""
    global _pool, _pool_failed
    if _pool is not None or _pool_failed:
        return _pool
    try:
        _pool = process_pool("bot.gm.thinking", per_worker=1)  # a search can take 0.1 s or more
    except NO_PROCESSES as exc:
        log.warning("No process pool for the AI (%s); it thinks in threads", exc)
        _pool_failed = True
    return _pool


def warm() -> None:
    """Start the pool's worker processes now; blocking, so call it in a thread at start-up.

    Why: a worker is otherwise started by the first searches, on the event loop, and each
    start waits for the fork server (the first for seconds: the server imports the games),
    stalling every match meanwhile (issue 16 item 5, measured by ``bench/bench_load.py``).
    """
    pool()


def shutdown() -> None:
    """Stop the worker processes (tests, the bot's exit); the next search starts anew."""
    global _pool
    if _pool is not None:
        _pool.shutdown()
        _pool = None


async def think(match: Match, decision: Decision) -> Reply | None:
    """The AI's reply to ``decision`` from a worker process, or ``None`` when it should
    think in a thread instead (a quick level, or no pool)."""
    level = seat_level(match, decision)
    if not needs_process(match.game.info.ai_levels, level, match.options):
        return None
    executor = pool()
    if executor is None:
        return None
    job = (
        match.game_id,
        match.game.dump(match.state),
        DecisionWire.of(decision),
        match.ai_rng(decision).getstate(),
        level,
    )
    try:
        return await executor.run(think_in_worker, *job)
    except (BrokenProcessPool, pickle.PicklingError, OSError) as exc:
        log.warning("AI worker process failed (%s); thinking in a thread", exc)
        global _pool
        if isinstance(exc, BrokenProcessPool) and _pool is executor:
            _pool = None  # a new pool next time
            await asyncio.to_thread(executor.shutdown)
        return None


async def ai_choice(match: Match, decision: Decision) -> Choice:
    """The AI's :class:`~bot.engine.Choice` for ``decision``: in a worker process for the
    levels worth it, else in a worker thread; the same choice either way."""
    reply = await think(match, decision)
    if reply is None:
        return await run_cpu(match.ai_choice, decision)
    return reply_choice(decision, reply)
