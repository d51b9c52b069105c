"""What a match costs a channel and its players, per game: one Markdown table row each.

Usage (from the repository root)::

    python bench/bench_table.py                 # the five games, about a minute
    python bench/bench_table.py --save phone-pngs # also keeps one public and one private PNG

One whole match of each game is played through the offline Discord harness
(``tests/cogs/driver.py``) the way players do it: several human users press the
public "Make your choice" button, open groups, pick options, fill drafts and
confirm; AI seats, if any, play at the easiest level. Each match has a fixed seed
and the humans' plain picks come from a seeded ``random.Random`` (structured
answers from the game's own AI, as ``Driver.play_out`` does), so two runs print
the same table.

Per game it reports the rounds (``Game.round_label``: MAD counts a round as both
sides' turns), and per round the public messages posted, the public edits and the
pings (users a public message mentions and is allowed to notify), the bytes of PNG
images sent publicly, the sizes of those images; per human decision the clicks
(every button or select a human sends: the public button, groups, picks, draft steps,
Confirm). Lobby clicks are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import struct
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bot.gm.lobby  # noqa: E402
from bot.engine import Decision  # noqa: E402
from tests.cogs.driver import Driver  # noqa: E402
from tests.harness import payloads as P  # noqa: E402
from tests.harness.fake_discord import (  # noqa: E402
    FakeInteraction,
    FakeMessage,
    iter_components,
)

Json = dict[str, Any]
PNG = b"\x89PNG\r\n\x1a\n"
MENTION = re.compile(r"<@!?(\d+)>")
Chooser = Callable[[Any, Decision, random.Random], str]


@dataclass(frozen=True)
class Setup:
    """One benchmarked match: which game, how many humans and easy AI seats, which mode."""

    game: str
    humans: int
    ai: int = 0
    mode: str | None = None
    chooser: Chooser | None = None


def no_tiebreak(match: Any, d: Decision, rnd: random.Random) -> str:
    """MAD: players do not offer or accept the tie-break (a random one would end at once)."""
    options = [o.id for o in d.options if not any(w in o.id for w in ("tie", "draw", "accept"))]
    return rnd.choice(options or [o.id for o in d.options])


SETUPS = [
    Setup("mad", humans=2, chooser=no_tiebreak),
    Setup("arena", humans=4),
    Setup("mad-arena", humans=4, mode="mad-arena:ultimate-warrior"),
    Setup("ultimate-warriorz", humans=3, mode="ultimate-warriorz:tribal-rumble"),
    Setup("madsteam", humans=2, ai=1),
]


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == PNG and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    return None


class CountingDriver(Driver):
    """A driver that counts the component interactions humans send, and keeps the images
    their private replies carry."""

    def __init__(self, tmp_path: Path, *, players: int) -> None:
        super().__init__(tmp_path, players=players)
        self.clicks = 0
        self.private_pngs: list[bytes] = []
        self.calls: list[int] = []
        """Discord calls each click made (its acknowledgement and answer, and what the
        channel got from it, delivered in the same handler)."""

    async def click(
        self, user: Json, message: FakeMessage, custom_id: str, **kw: Any
    ) -> FakeInteraction:
        self.clicks += 1
        fi = await super().click(user, message, custom_id, **kw)
        self.calls.append(len(fi.calls))
        for m in self.replies(fi):
            if m.ephemeral:
                for a in m.attachments:
                    data = m.files.get(int(a["id"]), b"")
                    if data.startswith(PNG):
                        self.private_pngs.append(data)
        return fi


@dataclass
class Tally:
    """What the public channel received so far (messages, edits, pings, PNG bytes)."""

    messages: int = 0
    edits: int = 0
    pings: int = 0
    png_bytes: int = 0


def public_channels(d: Driver) -> set[int]:
    return {d.channel_id} | {int(t["id"]) for t in d.fake.threads(d.channel_id)}


def pings_of(body: Json) -> int:
    """Users a created message notifies: mentioned in its content (or, in a components v2
    message, its text displays) and allowed to be."""
    texts = [body.get("content") or ""]
    texts += [c.get("content") or "" for c in iter_components(body.get("components") or [])]
    mentioned = set(MENTION.findall("\n".join(texts)))
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return len(mentioned)
    if "users" in (allowed.get("parse") or []):
        return len(mentioned)
    return len(mentioned & {str(u) for u in allowed.get("users") or []})


def tally(d: Driver, since_id: int) -> Tally:
    """Public totals since the snowflake ``since_id`` (the match start)."""
    chans = public_channels(d)
    t = Tally()
    for m in d.fake.messages.values():
        if m.channel_id not in chans or m.ephemeral_for is not None:
            continue
        if m.id > since_id:
            t.messages += 1
        t.edits += len(m.edits)
        t.png_bytes += sum(
            len(data) for aid, data in m.files.items() if aid > since_id and data.startswith(PNG)
        )
    for c in d.fake.calls:
        if c.method != "POST":
            continue
        body = c.json or {}
        if c.route_template == "/channels/{channel_id}/messages":
            if int(c.path.split("/")[2]) in chans:
                t.pings += pings_of(body)
        elif c.route_template.endswith("/callback"):
            data = body.get("data") or {}
            if body.get("type") == 4 and not (data.get("flags") or 0) & P.EPHEMERAL:
                t.pings += pings_of(data)
        elif c.route_template.startswith("/webhooks/") and "/messages" not in c.route_template:
            if not (body.get("flags") or 0) & P.EPHEMERAL:
                t.pings += pings_of(body)
    return t


@dataclass
class Result:
    setup: Setup
    rounds: int
    per_round: dict[int, Tally]
    clicks: list[int]
    calls: list[int]
    public_sizes: Counter[tuple[int, int]]
    public_png: bytes | None
    private_png: bytes | None
    seconds: float


async def play(setup: Setup, seed: str, tmp: Path, database: str | None = None) -> Result:
    """Open the lobby, fill it, start, and answer every human decision by clicks; on a
    throwaway SQLite file, or on ``database`` (an empty PostgreSQL database)."""
    started = time.perf_counter()
    fresh_seed = bot.gm.lobby.new_seed
    bot.gm.lobby.new_seed = lambda: seed  # the match's dice are fixed
    d = CountingDriver(tmp, players=max(setup.humans, 2))
    if database is not None:
        d.db_path = database
    await d.start()
    try:
        users = d.users[: setup.humans]
        host = users[0]
        start: dict[str, Any] = {"game": setup.game, "mode": setup.mode}
        if setup.ai:
            start["ai_level"] = "easy"
        await d.slash(host, "start", **start)
        lobby = d.lobby()
        for u in users[1:]:
            await d.press(u, d.fake.message(lobby.id), "Join")
        for _ in range(setup.ai):
            await d.press(host, d.fake.message(lobby.id), "Add AI")
        since = d.snow()  # every later message and file has a larger snowflake
        base = tally(d, since)
        await d.press(host, d.fake.message(lobby.id), "Start")
        mid = int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1])
        rnd = random.Random(seed)
        per_round: dict[int, Tally] = {}
        clicks: list[int] = []
        last = base
        live = await d.live(mid)
        rnd_label = live.match.round_label() if live is not None else 0

        def book(now: Tally, label: int) -> None:
            nonlocal last
            t = per_round.setdefault(label, Tally())
            t.messages += now.messages - last.messages
            t.edits += now.edits - last.edits
            t.pings += now.pings - last.pings
            t.png_bytes += now.png_bytes - last.png_bytes
            last = now

        book(tally(d, since), rnd_label)  # the start's posts belong to the first round
        for _ in range(5000):
            live = await d.live(mid)
            if live is None:
                break
            match = live.match
            rnd_label = match.round_label()
            humans = [x for x in match.pending() if not match.seats[x.seat].ai]
            assert humans, "a live match waits for a human"
            x = humans[0]
            user = d.user_by_id(match.seats[x.seat].user_id)
            before = d.clicks
            if x.structured:
                await d.answer_draft(user, x, match.ai_choice(x))
            else:
                chooser = setup.chooser or (lambda m, dd, r: r.choice(dd.options).id)
                await d.answer(user, x, chooser(match, x, rnd))
            clicks.append(d.clicks - before)
            book(tally(d, since), rnd_label)
        else:
            raise AssertionError(f"{setup.game}: the match did not end")
        assert "is over" in d.public()[-1].text(), d.public()[-1].text()[:200]
        assert d.bot is not None
        final = await d.bot.store.replay_match(mid)
        rounds = max(final.round_label(), max(per_round))
        sizes: Counter[tuple[int, int]] = Counter()
        pngs: list[bytes] = []
        chans = public_channels(d)
        for m in sorted(d.fake.messages.values(), key=lambda m: m.id):
            if m.channel_id in chans and m.ephemeral_for is None:
                for aid, data in sorted(m.files.items()):
                    size = png_size(data)
                    if aid > since and size:
                        sizes[size] += 1
                        pngs.append(data)
        middle = len(pngs) // 2
        private = d.private_pngs[len(d.private_pngs) // 2] if d.private_pngs else None
        return Result(
            setup=setup,
            rounds=rounds,
            per_round=per_round,
            clicks=clicks,
            calls=list(d.calls),
            public_sizes=sizes,
            public_png=pngs[middle] if pngs else None,
            private_png=private,
            seconds=time.perf_counter() - started,
        )
    finally:
        await d.stop()
        bot.gm.lobby.new_seed = fresh_seed


def mean_max(values: list[float], fmt: str = "{:.1f}") -> str:
    if not values:
        return "–"
    top = max(values)
    shown = str(int(top)) if float(top).is_integer() else fmt.format(top)
    return f"{fmt.format(statistics.fmean(values))} ({shown})"


HEADER = (
    "| game | seats | rounds | decisions | public msgs/round | edits/round | pings/round "
    "| clicks/decision | Discord calls/click | image KB/round | public image px |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|"
)


def row(r: Result) -> str:
    s = r.setup
    rounds = list(r.per_round.values())
    seats = f"{s.humans} humans" + (f" + {s.ai} easy AI" if s.ai else "")
    name = s.game if s.mode is None else s.mode
    sizes = ", ".join(f"{w}×{h} ×{n}" for (w, h), n in r.public_sizes.most_common())
    return (
        f"| {name} | {seats} | {r.rounds} | {len(r.clicks)} "
        f"| {mean_max([t.messages for t in rounds])} "
        f"| {mean_max([t.edits for t in rounds])} "
        f"| {mean_max([t.pings for t in rounds])} "
        f"| {mean_max([float(c) for c in r.clicks], '{:.2f}')} "
        f"| {mean_max([float(c) for c in r.calls], '{:.2f}')} "
        f"| {mean_max([t.png_bytes / 1024 for t in rounds], '{:.0f}')} "
        f"| {sizes or '–'} |"
    )


async def main_async(args: argparse.Namespace) -> None:
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    wanted = set(args.games.split(",")) if args.games else None
    results = []
    fresh_database, stop = None, None
    if args.postgres:
        from bench.bench_store import pg_targets

        fresh_database, stop = await asyncio.to_thread(pg_targets, None)
    try:
        for setup in SETUPS:
            if wanted and setup.game not in wanted:
                continue
            database = await asyncio.to_thread(fresh_database) if fresh_database else None
            with tempfile.TemporaryDirectory() as tmp:
                r = await play(setup, f"bench-table-{setup.game}", Path(tmp), database)
            results.append(r)
            print(f"{setup.game}: {r.seconds:.1f}s", file=sys.stderr, flush=True)
            if save:
                if r.public_png:
                    (save / f"{setup.game}-public.png").write_bytes(r.public_png)
                if r.private_png:
                    (save / f"{setup.game}-private.png").write_bytes(r.private_png)
    finally:
        if stop is not None:
            await asyncio.to_thread(stop)
    print(HEADER)
    for r in results:
        print(row(r))
    print(
        "\nPer round: mean (max) over the rounds; clicks: mean (max) over human decisions. "
        "MAD's round is both sides' turns.",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--save", help="folder for one public and one private PNG per game")
    parser.add_argument("--games", help="comma-separated game ids (default: all five)")
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="each match on a fresh schema of a throwaway PostgreSQL server (the N-process "
        "deployment's store) instead of a SQLite file: the same counts are expected",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
