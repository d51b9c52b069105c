"""Offline Discord end-to-end harness (see docs/testing-discord.md).

Works with any ``discord.Client`` / ``commands.Bot``: payload builders,
a fake REST API at discord.py's HTTP boundary, limit checks, fault injection
and a gateway-less runner.
"""

from . import payloads
from .fake_discord import Call, FakeDiscord, FakeInteraction, FakeMessage, FaultRule
from .runner import (
    Harness,
    World,
    dispatch,
    feed,
    prime,
    run_setup_hook,
    settle,
    shutdown,
    start,
)

__all__ = [
    "Call",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FaultRule",
    "Harness",
    "World",
    "dispatch",
    "feed",
    "payloads",
    "prime",
    "run_setup_hook",
    "settle",
    "shutdown",
    "start",
]
