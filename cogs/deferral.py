"""A click answered by its result when that comes quickly, else deferred meanwhile.

A click used to be deferred first, then its result edited into the clicked message: two
calls to Discord, and on the real Discord the result a round trip later. Under the load
benchmark's full load 71% of clicks are handled within 10 ms and 87% within 20 ms
(issue 16), so a click now gets :data:`QUICK_ANSWER` to be handled: within it, the answer
to the click is the clicked message edited (one call,
:meth:`cogs.hooks.Hook.update_clicked`); past it, the click is deferred while its handling
goes on, as before, so its acknowledgement still comes within Discord's 3 seconds. A call
to Discord the handling makes in the click's name before its answer (a match's thread
created at Start, another prompt retired, a DM) first defers it (:func:`answer_first`):
nothing reaches Discord about a click before its acknowledgement.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar

QUICK_ANSWER = 0.015
"""Seconds a click's handling may take and still be answered by its result alone. Kept
short: a deferred click's acknowledgement comes this much later (plus the event loop's
lag), and the load benchmark's goal for it is 50 ms at p99."""

_PENDING: ContextVar[Deferral | None] = ContextVar("arena_pending_deferral", default=None)


class Deferral:
    """One click's deferral, armed for :data:`QUICK_ANSWER` from its creation."""

    __slots__ = ("_defer", "_handle", "_task", "_settled")

    def __init__(self, defer: Callable[[], Awaitable[bool]]) -> None:
        self._defer = defer
        self._task: asyncio.Future[bool] | None = None
        self._settled = False
        self._handle = asyncio.get_running_loop().call_later(QUICK_ANSWER, self._fire)

    def _fire(self) -> None:
        if self._task is None and not self._settled:
            self._task = asyncio.ensure_future(self._defer())

    @contextlib.contextmanager
    def armed(self) -> Iterator[None]:
        """While the click is handled: :func:`answer_first` defers it at once."""
        token = _PENDING.set(self)
        try:
            yield
        finally:
            _PENDING.reset(token)

    async def now(self) -> None:
        """Deferred now, unless it was or the click's answer is on its way."""
        self._handle.cancel()
        self._fire()
        if self._task is not None:
            await asyncio.shield(self._task)

    async def settle(self) -> bool | None:
        """The handling is over: True if the click was deferred, False if Discord refused
        the deferral (the interaction expired), None if it was not (its answer is to give)."""
        self._handle.cancel()
        self._settled = True
        return None if self._task is None else await self._task


async def answer_first() -> None:
    """Before a call to Discord made while a click is handled: the click deferred first,
    if it has no answer yet (nothing is sent about a click before its acknowledgement)."""
    pending = _PENDING.get()
    if pending is not None:
        await pending.now()
