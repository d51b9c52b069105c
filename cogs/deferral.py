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
nothing reaches Discord about a click before its acknowledgement. A pick's prompt shows
the answer taken as soon as it is committed (:meth:`Deferral.early`, fed by
:func:`bot.gm.posting.answer_early`), before the AI seats reply and the next prompts are
drawn: a pick against AI seats is then answered in one call too, and at once. A press
on a public table whose edits already have another click's token is answered by the
first private message itself (``Hook.answer_privately``) rather than by a deferral and a
follow-up; the first press on a table is still deferred, lending its token. A command is
answered the same way, by its first (private) message within :data:`QUICK_ANSWER`, else
deferred ("thinking") meanwhile and answered by a follow-up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar

from bot.gm.msg import Msg

QUICK_ANSWER = 0.015
"""Seconds a click's handling may take and still be answered by its result alone. Kept
short: a deferred click's acknowledgement comes this much later (plus the event loop's
lag), and the load benchmark's goal for it is 50 ms at p99."""

_PENDING: ContextVar[Deferral | None] = ContextVar("arena_pending_deferral", default=None)


class Deferral:
    """One click's deferral, armed for :data:`QUICK_ANSWER` from its creation.

    ``answer``, if given, shows the clicked prompt's new face as the click's answer when
    the game master knows it before its handling ends (:meth:`early`): True if shown,
    None if a deferral answered the click instead, False if Discord refused both."""

    __slots__ = ("_defer", "_answer", "_handle", "_task", "shown")

    def __init__(
        self,
        defer: Callable[[], Awaitable[bool]],
        answer: Callable[[Msg], Awaitable[bool | None]] | None = None,
    ) -> None:
        self._defer: Callable[[], Awaitable[bool]] | None = defer
        self._answer = answer
        self._task: asyncio.Future[bool] | None = None
        self.shown: Msg | None = None
        """What the click's answer showed in place of the clicked message, if anything."""
        self._handle = asyncio.get_running_loop().call_later(QUICK_ANSWER, self._fire)

    def _fire(self) -> None:
        if self._task is None and self._defer is not None:
            self._task = asyncio.ensure_future(self._defer())

    def early(self, update: Msg) -> None:
        """The clicked prompt's new face before the handling ends (a pick committed, the
        AI seats not played yet): the click's answer at once, if it has none yet. The
        handling goes on meanwhile; :meth:`settle` waits for this answer."""
        if self._answer is None or self._task is not None:
            return
        self._handle.cancel()
        self._task = asyncio.ensure_future(self._answer_with(self._answer, update))

    async def _answer_with(
        self, answer: Callable[[Msg], Awaitable[bool | None]], update: Msg
    ) -> bool:
        shown = await answer(update)
        if shown:
            self.shown = update
        return shown is not False

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
        # Nothing more to answer: the callbacks (which hold the interaction) are let go,
        # though a task started meanwhile may keep this object in its context.
        self._defer = self._answer = None
        task, self._task = self._task, None
        return None if task is None else await task


async def answer_first() -> None:
    """Before a call to Discord made while a click is handled: the click deferred first,
    if it has no answer yet (nothing is sent about a click before its acknowledgement)."""
    pending = _PENDING.get()
    if pending is not None:
        await pending.now()
