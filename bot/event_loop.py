"""The event loop the bot runs on: uvloop where it is installed, asyncio's own otherwise.

Why (issue 16 item 5): under load the event loop's own bookkeeping (running handles,
timers, the self-pipe that threads wake it through, executor futures) was about a tenth
of the loop thread's time in pure Python; uvloop does it in C on libuv. Measured by
``bench/bench_load.py`` (``--loop``), the loop's lag p99 fell by about a third at the
same click rate. uvloop does not run on Windows, where the bot keeps asyncio's loop;
``ARENA_EVENT_LOOP=asyncio`` asks for asyncio's loop anywhere (to compare, or should a
library ever misbehave on uvloop).
"""

from __future__ import annotations

import asyncio
import importlib
import os

LOOPS = ("uvloop", "asyncio")
ENV = "ARENA_EVENT_LOOP"


def chosen(name: str | None = None) -> str:
    """The loop to run: ``name``, else the environment's choice, else uvloop if it can be
    imported here, else asyncio. An unknown name is refused (a typo must not silently
    measure or run another loop)."""
    name = name or os.environ.get(ENV) or None
    if name is not None and name not in LOOPS:
        raise ValueError(f"{ENV} must be one of {', '.join(LOOPS)}, not {name!r}")
    if name == "asyncio":
        return "asyncio"
    try:
        importlib.import_module("uvloop")
    except ImportError:
        if name == "uvloop":
            raise
        return "asyncio"
    return "uvloop"


def policy(name: str | None = None) -> asyncio.AbstractEventLoopPolicy:
    """The event loop policy of :func:`chosen`: ``asyncio.run`` (and so discord.py's
    ``Client.run``) then runs on that loop."""
    if chosen(name) == "uvloop":
        import uvloop

        return uvloop.EventLoopPolicy()
    return asyncio.DefaultEventLoopPolicy()


def install(name: str | None = None) -> str:
    """Run this process's next event loops on :func:`chosen`'s loop; returns its name."""
    which = chosen(name)
    asyncio.set_event_loop_policy(policy(which))
    return which
