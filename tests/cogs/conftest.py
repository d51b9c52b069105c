"""Fixtures for the Discord layer's end-to-end tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import tests.cogs.draft_game  # noqa: F401  (registers test-drafts)
import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from tests.cogs.driver import Driver


@pytest.fixture
async def driver(tmp_path: Path) -> AsyncIterator[Driver]:
    async with Driver(tmp_path).running() as d:
        yield d
