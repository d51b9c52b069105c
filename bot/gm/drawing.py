"""Drawing off the interpreter lock: images are rendered in worker processes.

Why: drawing and encoding a board is most of the bot's CPU, and Pillow's drawing calls
hold the interpreter lock, so in a thread an image slows every match on the event loop
and never uses the second core (issue 16, measured by ``bench/bench_load.py``). A
long-lived bot (:attr:`bot.app.ArenaBot.long_lived`: the deployed one, the load bench)
starts a pool of worker processes at boot (:func:`start`, one worker per core,
:class:`bot.gm.loop_pool.LoopPool`: the loop itself sends jobs and reads results);
until then, in tests, and wherever processes cannot run, images are drawn in the game
master's threads as before (:func:`bot.gm.base.run_cpu`).

The view is computed here, on the loop (so it is the match's state at the time of the
call, never a later one), and looked up in the process's image cache
(:data:`bot.render.cache.IMAGES`); on a miss the worker gets only the game id, the view,
the language and the prompt's decision, and returns the PNG bytes, which are kept in the
cache. A renderer is a pure function of those, so a worker draws the same bytes a thread
would (``tests/gm/test_drawing.py``).

The view travels as its JSON, the very bytes its image key was made of
(:func:`bot.render.cache.view_json`), and its class, which pickles as a name: pickling
the model itself took 0.09 ms per view (then in the executor's feeder thread), under
the interpreter lock the event loop needs (issue 16 item 5), and the worker's validation
of the JSON is quicker than unpickling the model. A view validated from its JSON equals
the view (every game's sampled views: ``tests/render/test_view_json.py``). The prompt's
decision travels the same way, as the JSON its image key was made of with its arguments'
classes (:class:`bot.engine.wire.DecisionWire`): pickling the model took 30-200 µs.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
from concurrent.futures.process import BrokenProcessPool

from pydantic import BaseModel

from bot.engine import Decision, Match
from bot.engine.registry import get_game
from bot.engine.wire import DecisionWire
from bot.gm.base import run_cpu
from bot.gm.loop_pool import LoopPool
from bot.gm.workers import NO_PROCESSES, process_pool
from bot.render.cache import IMAGES, image_key, view_json

log = logging.getLogger(__name__)

_pool: LoopPool | None = None
_restarting: asyncio.Task[bool] | None = None


def draw_in_worker(
    game_id: str, view_type: type[BaseModel], view: bytes, lang: str, marks: DecisionWire | None
) -> bytes:
    """Run in a worker process: the game's renderer on the view and the decision rebuilt
    from their JSON."""
    game = get_game(game_id)
    shown = view_type.model_validate_json(view)
    if marks is None:
        return game.render(shown, lang)
    return game.render(shown, lang, marks.decision())


def start() -> bool:
    """Start the drawing processes now (blocking: call it in a thread at start-up);
    False when they cannot run here (images are then drawn in threads)."""
    global _pool
    if _pool is not None:
        return True
    try:
        pool = process_pool("bot.gm.drawing")
    except NO_PROCESSES as exc:
        log.warning("No drawing processes (%s); images are drawn in threads", exc)
        return False
    _pool = pool
    return True


def started() -> bool:
    return _pool is not None


def shutdown() -> None:
    """Stop the drawing processes (tests, the bot's exit): threads draw from now on."""
    global _pool
    if _pool is not None:
        _pool.shutdown()
        _pool = None


def _replace(broken: LoopPool) -> None:
    """A worker died (killed, out of memory): threads draw until a new pool has started."""
    global _pool, _restarting
    if _pool is not broken:
        return
    _pool = None
    if _restarting is None or _restarting.done():
        _restarting = asyncio.create_task(
            asyncio.to_thread(_restart, broken), name="drawing-restart"
        )


def _restart(broken: LoopPool) -> bool:
    """In a thread: the broken pool's other workers stopped, then a new pool."""
    broken.shutdown()
    return start()


def _drawer(match: Match) -> str:
    game = match.game
    return f"{type(game).__module__}.{type(game).__qualname__}"


async def render(
    match: Match,
    seat: int | None = None,
    lang: str = "en",
    decision: Decision | None = None,
) -> bytes:
    """The picture of ``seat``'s view (public: None), marked for ``decision`` if given:
    the same bytes as :meth:`Match.render`, drawn in a worker process when the pool runs."""
    pool = _pool
    if pool is None:
        if decision is None:
            return await run_cpu(match.render, seat, lang)
        return await run_cpu(match.render, seat, lang, decision)
    view = match.view(seat)
    key = image_key(_drawer(match), view, lang, decision)
    data = IMAGES.get(key)
    if data is not None:
        return data
    marks = None if decision is None else DecisionWire.of(decision)
    try:
        data = await pool.run(
            draw_in_worker, match.game_id, type(view), view_json(view), lang, marks
        )
    except (BrokenProcessPool, pickle.PicklingError, OSError) as exc:
        log.warning("drawing process failed (%s); drawing in a thread", exc)
        if isinstance(exc, BrokenProcessPool):
            _replace(pool)
        data = await run_cpu(match.game.render, view, lang, decision)
    if data:
        IMAGES.put(key, data)
    return data
