"""Benchmarks: engine and AI speed per game, render time per image, decision commit time.

Usage (from the repository root)::

    python bench/run.py            # about 1-3 minutes, prints Markdown tables
    python bench/run.py --quick    # a smoke run in well under a minute
    python bench/run.py --check    # exit 1 if a budget FAILs (or a game errors)

Figures (issue 2, item 8):

- engine decisions/s: replaying recorded decision logs (check + copy + apply +
  pending), i.e. the rules engine alone, without the AI;
- AI matches/s: whole matches played by the AI from setup to outcome, with a
  bounded time per game (a game whose AI cannot finish one match in the bound
  is reported as too slow, with a note, and its other figures use random legal
  play instead);
- render ms per image, p50/p95, at the game's own image size, for the public
  view after every checkpoint and some seat views (budget p95 <= 150 ms);
- decision commit ms, p50/p99, through :class:`bot.store.Store` with 1,000
  live matches in one SQLite file (budget p99 <= 20 ms).

Whatever games are registered when it runs are measured; the store bench
uses the registered game with the largest snapshots (the test fixture game if
none is registered).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import math
import os
import platform
import random
import sqlite3
import struct
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.engine import Choice, IllegalDecision, Match, SeatSpec  # noqa: E402
from bot.engine.game import GameInfo  # noqa: E402
from bot.engine.registry import all_games, get_game  # noqa: E402

RENDER_P95_BUDGET_MS = 150.0
COMMIT_P99_BUDGET_MS = 20.0
FIXTURE = "test-pick"


class TooSlow(Exception):
    """The AI did not finish one match within the per-game bound."""


@dataclass
class GameFigures:
    game: str
    mode: str
    seats: int
    decisions_per_match: float | None = None
    engine_decisions_per_s: float | None = None
    ai_matches_per_s: float | None = None
    ai_decisions_per_s: float | None = None
    render_images: int = 0
    render_p50_ms: float | None = None
    render_p95_ms: float | None = None
    image_size: str | None = None
    snapshot_bytes: int | None = None
    notes: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def render_ok(self) -> bool | None:
        if self.render_p95_ms is None:
            return None
        return self.render_p95_ms <= RENDER_P95_BUDGET_MS


@dataclass
class StoreFigures:
    game: str
    live_matches: int
    commits: int
    snapshot_bytes: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    db_mb: float
    setup_s: float
    synchronous: str = "NORMAL"

    @property
    def ok(self) -> bool:
        return self.p99_ms <= COMMIT_P99_BUDGET_MS


# --- helpers ---------------------------------------------------------------------------
def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (no interpolation: a real observed value)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


def ai_level_for(info: GameInfo, wanted: str) -> str | None:
    """The AI level the bench plays at: ``fastest`` is the game's first listed level.

    Games without levels (no ``ai_level`` option) return ``None``.
    """
    spec = next((o for o in info.options if o.id == "ai_level"), None)
    if spec is None or not spec.choices:
        return None
    levels = [lid for lid, _ in spec.choices]
    if wanted == "fastest":
        return levels[0]
    if wanted == "default":
        return str(spec.default)
    return wanted if wanted in levels else levels[0]


def seats_for(info: GameInfo, mode: str, level: str | None = None) -> list[SeatSpec]:
    count = info.mode(mode).player_counts[0]
    return [SeatSpec(name=f"P{i + 1}", ai=True, ai_level=level) for i in range(count)]


def random_step(match: Match, rnd: random.Random) -> tuple[Choice, list[Any]]:
    """A random legal option for the first pending decision (engine-only play).

    An option the game refuses once applied (``IllegalDecision``) is skipped; a
    structured decision (amounts, an order, several options) gets the AI's answer.
    """
    decision = match.pending()[0]
    if decision.structured:
        choice = match.ai_choice(decision)
        return choice, match.apply(choice)
    options = list(decision.options)
    rnd.shuffle(options)
    for option in options:
        choice = Choice(seat=decision.seat, key=decision.key, option=option.id)
        try:
            return choice, match.apply(choice)
        except IllegalDecision:
            continue
    raise RuntimeError(f"{match.game_id}: every option of {decision.key} was refused")


def play_ai(match: Match, deadline: float, max_decisions: int = 50_000) -> list[list[Any]]:
    """Play the AI to the end; return the events of each decision. Raises TooSlow at ``deadline``."""
    per_step: list[list[Any]] = []
    while not match.over:
        if time.perf_counter() > deadline:
            raise TooSlow(f"{match.version} decisions played")
        if len(per_step) >= max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions")
        decision = match.pending()[0]
        choice = match.ai_choice(decision)
        per_step.append(match.apply(choice))
    return per_step


def play_random(match: Match, seed: int, max_decisions: int = 50_000) -> list[list[Any]]:
    rnd = random.Random(seed)
    per_step: list[list[Any]] = []
    while not match.over:
        if len(per_step) >= max_decisions:
            raise RuntimeError(f"random play: no end after {max_decisions} decisions")
        per_step.append(random_step(match, rnd)[1])
    return per_step


def snapshot_bytes(match: Match) -> int:
    return len(json.dumps(match.snapshot(), separators=(",", ":"), ensure_ascii=False).encode())


# --- per-game figures ------------------------------------------------------------------
def bench_game(
    info: GameInfo, seconds: float, ai_bound: float, max_images: int, ai_level: str = "fastest"
) -> GameFigures:
    mode = info.modes[0].id
    level = ai_level_for(info, ai_level)
    seats = seats_for(info, mode, level)
    fig = GameFigures(
        game=info.id, mode=mode if level is None else f"{mode} (AI {level})", seats=len(seats)
    )
    game = get_game(info.id)

    # 1. Whole AI matches, for `seconds` (at least one, at most `ai_bound` for the first).
    logs: list[tuple[str, list[Choice]]] = []  # (seed, choices)
    sample: Match | None = None
    sample_steps: list[list[Any]] = []
    start = time.perf_counter()
    decisions = 0
    try:
        seed = 0
        while True:
            match = Match.create(info.id, seats, seed=f"bench-{seed}", mode=mode)
            steps = play_ai(match, deadline=start + max(ai_bound, seconds))
            logs.append((match.seed, list(match.choices)))
            decisions += match.version
            if sample is None:
                sample, sample_steps = match, steps
            seed += 1
            if time.perf_counter() - start >= seconds:
                break
        elapsed = time.perf_counter() - start
        fig.ai_matches_per_s = len(logs) / elapsed
        fig.ai_decisions_per_s = decisions / elapsed
        fig.decisions_per_match = decisions / len(logs)
    except TooSlow as exc:
        partial = match.version  # the unfinished match's decisions count for AI speed
        decisions += partial
        if logs:  # some matches finished: report what was measured
            elapsed = time.perf_counter() - start
            fig.ai_matches_per_s = len(logs) / elapsed
            fig.ai_decisions_per_s = decisions / elapsed
            fig.decisions_per_match = (decisions - partial) / len(logs)
        else:
            fig.ai_decisions_per_s = partial / (time.perf_counter() - start)
            fig.notes.append(
                f"AI too slow: no match finished in {max(ai_bound, seconds):.0f} s ({exc}, "
                f"{fig.ai_decisions_per_s:.1f} AI decisions/s); "
                "engine and render figures use random legal play"
            )
    if not logs:
        for seed in range(5):
            match = Match.create(info.id, seats, seed=f"bench-r{seed}", mode=mode)
            steps = play_random(match, seed)
            logs.append((match.seed, list(match.choices)))
            if sample is None:
                sample, sample_steps = match, steps
        fig.decisions_per_match = sum(len(log) for _, log in logs) / len(logs)

    # 2. The engine alone: replay the recorded logs for `seconds`.
    replayed = 0
    start = time.perf_counter()
    i = 0
    while True:
        seed_text, log = logs[i % len(logs)]
        Match.replay(info.id, seats, seed_text, mode, None, log)
        replayed += len(log)
        i += 1
        if time.perf_counter() - start >= seconds:
            break
    fig.engine_decisions_per_s = replayed / (time.perf_counter() - start)

    # 3. Rendering: the public view after each checkpoint, and a seat view now and then.
    assert sample is not None
    fig.snapshot_bytes = snapshot_bytes(sample)
    replay = Match.create(info.id, seats, seed=sample.seed, mode=mode)
    frames: list[tuple[dict[str, Any], str]] = [(replay.view(None), "public")]
    for n, (choice, events) in enumerate(zip(sample.choices, sample_steps, strict=True)):
        replay.apply(choice)
        if game.checkpoint(events) or replay.over:
            frames.append((replay.view(None), "public"))
            if n % 4 == 0:
                frames.append((replay.view(choice.seat), "seat"))
    if len(frames) > max_images:  # spread the sample over the whole match
        stride = len(frames) / max_images
        frames = [frames[int(k * stride)] for k in range(max_images)]
    times: list[float] = []
    size: tuple[int, int] | None = None
    start = time.perf_counter()
    for view, _kind in frames:
        t0 = time.perf_counter()
        png = game.render(view, "en")
        times.append((time.perf_counter() - t0) * 1000)
        size = size or png_size(png)
        if time.perf_counter() - start >= seconds and len(times) >= 10:
            break
    if size is None:
        fig.notes.append("renderer returns no PNG")
    else:
        fig.render_images = len(times)
        fig.render_p50_ms = percentile(times, 50)
        fig.render_p95_ms = percentile(times, 95)
        fig.image_size = f"{size[0]}x{size[1]}"
    return fig


# --- store figures ---------------------------------------------------------------------
async def bench_store(
    game_id: str, live: int, commits: int, directory: Path, synchronous: str = "NORMAL"
) -> StoreFigures:
    from bot.store import Store

    info = get_game(game_id).info
    mode = info.modes[0].id
    seats = seats_for(info, mode)
    path = directory / "bench.sqlite3"
    store = await Store.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    rnd = random.Random(1)
    t0 = time.perf_counter()

    async def new_match(n: int) -> tuple[int, Match]:
        """A live match a few decisions in, so snapshots and logs look like live play."""
        while True:
            match = Match.create(game_id, seats, seed=f"store-{n}", mode=mode)
            match_id = await store.create_lobby(
                guild_id=1 + n % 50,
                channel_id=10_000 + n,
                thread_id=None,
                host_id=1,
                game=game_id,
                mode=mode,
                options={},
                locale="en",
            )
            await store.start_match(match_id, match)
            for _ in range(rnd.randint(0, 10)):
                if match.over:
                    break
                choice, _ = random_step(match, rnd)
                await store.commit_decision(match_id, choice, match)
            if not match.over:
                return match_id, match
            n += 1_000_000  # a short game ended already: start another

    matches = [await new_match(n) for n in range(live)]
    created = live
    setup_s = time.perf_counter() - t0
    times: list[float] = []
    sizes: list[int] = []
    try:
        for _ in range(commits):
            k = rnd.randrange(len(matches))
            match_id, match = matches[k]
            choice, _ = random_step(match, rnd)
            t = time.perf_counter()
            await store.commit_decision(match_id, choice, match)
            times.append((time.perf_counter() - t) * 1000)
            if len(sizes) < 200:
                sizes.append(snapshot_bytes(match))
            if match.over:  # keep `live` matches live
                matches[k] = await new_match(created)
                created += 1
        active = len(await store.active_matches())
    finally:
        await store.close()
    db_bytes = sum(p.stat().st_size for p in directory.glob("bench.sqlite3*"))
    return StoreFigures(
        game=game_id,
        live_matches=active,
        commits=len(times),
        snapshot_bytes=int(sum(sizes) / max(1, len(sizes))),
        p50_ms=percentile(times, 50),
        p99_ms=percentile(times, 99),
        max_ms=max(times),
        db_mb=db_bytes / 1e6,
        setup_s=setup_s,
        synchronous=synchronous,
    )


# --- report ----------------------------------------------------------------------------
def fmt(value: float | None, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("PASS" if ok else "FAIL")


def report(games: list[GameFigures], store: StoreFigures | None, args: argparse.Namespace) -> str:
    lines = [
        f"Benchmarks ({time.strftime('%Y-%m-%d', time.gmtime())}, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, {os.cpu_count()} CPU, {platform.machine()}; "
        f"`python bench/run.py{' --quick' if args.quick else ''}`, {args.seconds:g} s per measurement)",
        "",
        "| Game | Mode | Seats | Decisions/match | Engine decisions/s | AI matches/s "
        "| Render p50 ms | Render p95 ms | Image | Render p95 <= 150 ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for g in games:
        if g.error:
            lines.append(f"| {g.game} | {g.mode} | {g.seats} | error: {g.error} |||||| FAIL |")
            continue
        lines.append(
            f"| {g.game} | {g.mode} | {g.seats} | {fmt(g.decisions_per_match)} "
            f"| {fmt(g.engine_decisions_per_s)} | {fmt(g.ai_matches_per_s, 2)} "
            f"| {fmt(g.render_p50_ms)} | {fmt(g.render_p95_ms)} | {g.image_size or '—'} "
            f"| {verdict(g.render_ok)} |"
        )
    if not games:
        lines.append("| (no game registered) ||||||||||")
    notes = [f"- {g.game}: {n}" for g in games for n in g.notes]
    notes.append(
        "- Engine decisions/s: replaying recorded logs (rules only); AI matches/s: whole "
        "matches with every seat played by the AI; images at each game's own size."
    )
    lines += ["", *notes]
    if store is not None:
        lines += [
            "",
            "| Store | Live matches | Commits | Snapshot | Commit p50 ms | Commit p99 ms "
            "| Max ms | DB size | Commit p99 <= 20 ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
            f"| {store.game} snapshots, WAL, synchronous={store.synchronous} | {store.live_matches:,} "
            f"| {store.commits:,} | {store.snapshot_bytes / 1000:.1f} kB | {store.p50_ms:.2f} "
            f"| {store.p99_ms:.2f} | {store.max_ms:.1f} | {store.db_mb:.1f} MB | {verdict(store.ok)} |",
        ]
    return "\n".join(lines)


def failures(games: list[GameFigures], store: StoreFigures | None) -> list[str]:
    out = [f"{g.game}: error {g.error}" for g in games if g.error]
    out += [
        f"{g.game}: render p95 {g.render_p95_ms:.1f} ms > {RENDER_P95_BUDGET_MS:g} ms"
        for g in games
        if g.render_ok is False and g.render_p95_ms is not None
    ]
    if store is not None and not store.ok:
        out.append(f"store: commit p99 {store.p99_ms:.2f} ms > {COMMIT_P99_BUDGET_MS:g} ms")
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--seconds", type=float, default=None, help="time per measurement (default 4, quick 1)"
    )
    p.add_argument(
        "--ai-bound",
        type=float,
        default=None,
        help="max seconds for the first AI match of a game (default 12, quick 4)",
    )
    p.add_argument(
        "--images",
        type=int,
        default=None,
        help="max images rendered per game (default 60, quick 15)",
    )
    p.add_argument(
        "--live", type=int, default=1000, help="live matches in the store bench (default 1000)"
    )
    p.add_argument(
        "--commits",
        type=int,
        default=None,
        help="timed decision commits (default 5000, quick 1000)",
    )
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument(
        "--ai-level",
        default="fastest",
        help="AI level for games that have levels: fastest (default), default, or a level id",
    )
    p.add_argument(
        "--synchronous",
        default="NORMAL",
        choices=["NORMAL", "FULL"],
        help="SQLite synchronous mode for the store bench (the bot uses NORMAL)",
    )
    p.add_argument(
        "--dir", type=Path, help="where the store bench's SQLite file goes (default: a temp dir)"
    )
    p.add_argument("--no-store", action="store_true", help="skip the store bench")
    p.add_argument("--quick", action="store_true", help="a fast smoke run")
    p.add_argument("--check", action="store_true", help="exit 1 when a budget FAILs")
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    q = args.quick
    args.seconds = args.seconds if args.seconds is not None else (1.0 if q else 4.0)
    args.ai_bound = args.ai_bound if args.ai_bound is not None else (4.0 if q else 12.0)
    args.images = args.images if args.images is not None else (15 if q else 60)
    args.commits = args.commits if args.commits is not None else (1000 if q else 5000)
    return args


def load_games() -> dict[str, str]:
    """Import every game package one by one; return the import errors by module.

    The registry stops at the first broken package; here a game that is being
    written and does not import yet becomes one error row, not a crashed bench.
    """
    from bot.engine import registry

    errors: dict[str, str] = {}
    for name in registry.game_packages():
        try:
            importlib.import_module(name)
        except Exception as exc:
            errors[name] = f"{type(exc).__name__}: {exc}"
    registry._loaded = True  # noqa: SLF001  (what could be imported is imported)
    return errors


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load_errors = load_games()
    infos = [g for g in all_games() if g.id != FIXTURE]
    if args.game:
        known = {g.id for g in infos}
        unknown = [g for g in args.game if g not in known]
        if unknown:
            print(
                f"unknown game(s): {', '.join(unknown)}; registered: {', '.join(sorted(known)) or 'none'}"
            )
            return 2
        infos = [g for g in infos if g.id in args.game]
    games: list[GameFigures] = []
    for module, error in load_errors.items():
        if not args.game or module.rsplit(".", 1)[-1] in args.game:
            games.append(GameFigures(game=module, mode="—", seats=0, error=error[:120]))
    for info in infos:
        print(f"… {info.id}", file=sys.stderr, flush=True)
        try:
            games.append(bench_game(info, args.seconds, args.ai_bound, args.images, args.ai_level))
        except Exception as exc:  # a game being written may still be broken: report, go on
            fig = GameFigures(
                game=info.id, mode=info.modes[0].id, seats=info.modes[0].player_counts[0]
            )
            fig.error = f"{type(exc).__name__}: {exc}"[:120]
            games.append(fig)

    store: StoreFigures | None = None
    if not args.no_store:
        measured = [g for g in games if g.snapshot_bytes and not g.error]
        if measured:
            game_id = max(measured, key=lambda g: g.snapshot_bytes or 0).game
        else:
            import tests.engine.fixture_game  # noqa: F401  (registers test-pick)

            game_id = FIXTURE
        print(f"… store ({args.live} live {game_id} matches)", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix="arena-bench-", dir=args.dir) as tmp:
            store = asyncio.run(
                bench_store(game_id, args.live, args.commits, Path(tmp), args.synchronous)
            )

    print(report(games, store, args))
    failed = failures(games, store)
    print()
    if failed:
        print("Budgets: FAIL")
        for f in failed:
            print(f"- {f}")
    else:
        print("Budgets: PASS")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "games": [asdict(g) for g in games],
                    "store": asdict(store) if store else None,
                    "failures": failed,
                },
                indent=2,
            )
        )
    return 1 if (failed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
