"""The event loop the bot runs on (``bot/event_loop.py``, issue 16 item 5)."""

from __future__ import annotations

import asyncio
import sys

import pytest
import uvloop

from bot import event_loop


def test_uvloop_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(event_loop.ENV, raising=False)
    assert event_loop.chosen() == "uvloop"
    assert isinstance(event_loop.policy(), uvloop.EventLoopPolicy)


def test_the_environment_asks_for_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loop.ENV, "asyncio")
    assert event_loop.chosen() == "asyncio"
    assert type(event_loop.policy()) is asyncio.DefaultEventLoopPolicy
    assert event_loop.chosen("uvloop") == "uvloop"  # an explicit choice comes first


def test_an_unknown_loop_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loop.ENV, "uvlop")
    with pytest.raises(ValueError, match="uvloop, asyncio"):
        event_loop.chosen()


def test_without_uvloop_asyncio_unless_uvloop_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(event_loop.ENV, raising=False)
    monkeypatch.setitem(sys.modules, "uvloop", None)  # importing it fails (Windows)
    assert event_loop.chosen() == "asyncio"
    with pytest.raises(ImportError):
        event_loop.chosen("uvloop")


def test_install_sets_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    before = asyncio.get_event_loop_policy()
    try:
        assert event_loop.install("uvloop") == "uvloop"
        loop = asyncio.new_event_loop()
        try:
            assert isinstance(loop, uvloop.Loop)
        finally:
            loop.close()
    finally:
        asyncio.set_event_loop_policy(before)
