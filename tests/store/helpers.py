"""Shared helpers for the store tests: play AI matches and commit every decision."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from bot.engine import Choice, IllegalDecision, Match, SeatSpec
from bot.engine.autoplay import ai_step
from bot.engine.registry import all_games, get_game
from bot.gm.apply import fallback_choice
from bot.store import Store
from bot.store.backend import SqliteBackend
from bot.store.schema import migrate

FIXTURE = "test-pick"


def norm(data: Any) -> Any:
    """What a value looks like after a trip through JSON (tuples -> lists, int keys -> str)."""
    return json.loads(json.dumps(data))


def seats_for(game_id: str, mode: str | None = None, count: int | None = None) -> list[SeatSpec]:
    info = get_game(game_id).info
    n = count or info.mode(mode).player_counts[0]
    return [SeatSpec(name=f"P{i + 1}", user_id=1000 + i) for i in range(n)]


def game_cases() -> list[tuple[str, str]]:
    """(game, mode) for the fixture game and every mode of every registered real game."""
    cases = [(FIXTURE, "default")]
    for info in all_games():
        if info.id == FIXTURE:
            continue
        cases.extend((info.id, m.id) for m in info.modes)
    return cases


async def new_live(
    store: Store,
    game_id: str = FIXTURE,
    *,
    mode: str | None = None,
    seed: str = "seed-1",
    guild_id: int = 1,
    channel_id: int = 10,
    thread_id: int | None = None,
    count: int | None = None,
) -> tuple[int, Match]:
    seats = seats_for(game_id, mode, count)
    match = Match.create(game_id, seats, seed=seed, mode=mode)
    match_id = await store.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        host_id=1000,
        game=game_id,
        mode=match.mode,
        options={},
        locale="fr",
    )
    await store.update_lobby(match_id, seats=seats)
    await store.start_match(match_id, match)
    return match_id, match


async def step(store: Store, match_id: int, match: Match, rnd: random.Random | None = None) -> None:
    """One decision, applied then committed (the Discord layer's order).

    The game's AI answers (``autoplay.ai_step``), or, given ``rnd``, a random
    legal option: the store does not care how good a move is.
    """
    if rnd is None:
        choice, _events = ai_step(match)
    else:
        decision = match.pending()[0]
        if decision.structured or not decision.options:
            # A Many/Order/Allocation (Mad Arena's split fire...): a minimal answer of its
            # shape, as the game master gives when the AI fails.
            choice = fallback_choice(decision)
        else:
            choice = Choice(
                seat=decision.seat, key=decision.key, option=rnd.choice(decision.options).id
            )
        match.apply(choice)
    await store.commit_decision(match_id, choice, match, by_ai=rnd is None)


def random_legal(match: Match, rnd: random.Random) -> Choice:
    """Apply a random option of the first pending decision, skipping any the game refuses."""
    decision = match.pending()[0]
    options = list(decision.options)
    rnd.shuffle(options)
    for option in options:
        choice = Choice(seat=decision.seat, key=decision.key, option=option.id)
        try:
            match.apply(choice)
        except IllegalDecision:
            continue
        return choice
    raise RuntimeError(f"every option of {decision.key} was refused")


async def play(
    store: Store,
    match_id: int,
    match: Match,
    limit: int | None = None,
    ai_seconds: float | None = None,
) -> int:
    """Play and commit until over (or ``limit`` decisions); returns how many were made.

    With ``ai_seconds``, a game whose AI is slower than that budget finishes
    its match with random legal moves, so these tests stay fast whatever the AI costs.
    """
    made = 0
    start = time.perf_counter()
    rnd: random.Random | None = None
    while not match.over and (limit is None or made < limit):
        if rnd is None and ai_seconds is not None and time.perf_counter() - start > ai_seconds:
            rnd = random.Random(f"{match.seed}:{made}")
        await step(store, match_id, match, rnd)
        made += 1
        if made > 20_000:
            raise RuntimeError(f"{match.game_id}: no end after {made} decisions")
    return made


async def migrate_sqlite(path: Path, target: int) -> int:
    """A SQLite file brought to schema ``target`` only (an older bot's database)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    backend = await SqliteBackend.open(path, [])
    try:
        return await migrate(backend, target=target)
    finally:
        await backend.close()
