"""Suite-wide safety net: a leaked worker thread must never hang the test run.

aiosqlite runs each connection in a non-daemon thread; a test that fails
before closing its store would otherwise keep pytest alive after its summary,
and CI would time out instead of reporting the failure. If such threads are
still alive when pytest is done, we say so and exit with pytest's own status
(made a failure, since a leak is a bug).
"""

from __future__ import annotations

import os
import sys
import threading

import pytest

_status: dict[str, int] = {"code": 0}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _status["code"] = int(exitstatus)
    # The AI's process pool starts on a game master's first search in a process (any
    # Arena! AI seat, MAD's searching levels), as in the bot, whose close stops it; tests
    # drive game masters without it, so the session stops it here (its manager thread
    # would be counted below as a leak).
    if "bot.gm.thinking" in sys.modules:
        sys.modules["bot.gm.thinking"].shutdown()


def pytest_unconfigure(config: pytest.Config) -> None:
    lingering = [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread() and not t.daemon and t.is_alive()
    ]
    if not lingering:
        return
    names = ", ".join(sorted({t.name for t in lingering}))
    sys.stderr.write(
        f"\nERROR: threads still running after the tests (a store left open?): {names}\n"
    )
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(_status["code"] or 1)
