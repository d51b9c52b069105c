"""The game master as a real process, for the kill test (issue 10 item 6).

``python -m tests.crash.runner DB CHANNEL GAME MODE KILL_AT`` plays one whole
match of GAME/MODE on the database DB (a SQLite file or a postgresql:// URL): human seats answered by a script
(their AI's answer, deterministic), the others AI seats, clock frozen, seed
fixed. Every public post, edit and button removal goes to CHANNEL, a JSON-lines
file standing for Discord (a post repeated with a nonce already used gets the
same message back, like Discord's ``enforce_nonce``). At its KILL_AT-th hook
(before or after a store commit or a Discord call; 0: never) the process sends
itself SIGKILL. Run again on the same files, it resumes (``recover``) and goes
on. Prints ``hooks=<n>`` when the match is over and every post delivered.

Images are replaced by a digest of the public view they show, so the check
still catches an image of the wrong moment without PNG encoding's CPU cost.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from bot.engine import Decision, Match
from bot.engine.match import reply_choice
from bot.engine.registry import get_game
from bot.gm import Actor, DmResult, GameMaster, ManualClock, Msg
from bot.gm.publisher import msg_to_json
from bot.store import Store
from bot.store.backend import is_postgres_url

GUILD, CHANNEL = 10, 20
HUMANS = [Actor(user_id=1, name="Ann", lang="en"), Actor(user_id=2, name="Bob", lang="en")]


class Killer:
    """Counts hooks; SIGKILLs this process at the chosen one."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.count = 0

    def hook(self) -> None:
        self.count += 1
        if self.count == self.at:
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)


class FileChannel:
    """Discord as a JSON-lines file: what was posted, edited and stripped, in order."""

    def __init__(self, path: Path, killer: Killer) -> None:
        self.path = path
        self.killer = killer
        self.nonces: dict[str, int] = {}
        self.next_id = 1000
        if path.exists():
            for line in path.read_text().splitlines():
                if not line.strip():
                    continue  # a line cut by the kill is never half-written (one write)
                op = json.loads(line)
                if op["op"] == "send":
                    self.next_id = max(self.next_id, op["id"])
                    if op.get("nonce"):
                        self.nonces[op["nonce"]] = op["id"]

    def _write(self, op: dict[str, Any]) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (json.dumps(op, sort_keys=True) + "\n").encode())
        finally:
            os.close(fd)

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        return await self.send_once(channel_id, msg, None)

    async def send_once(self, channel_id: int, msg: Msg, nonce: str | None) -> int | None:
        self.killer.hook()
        if nonce is not None and nonce in self.nonces:
            return self.nonces[nonce]
        self.next_id += 1
        self._write({"op": "send", "id": self.next_id, "nonce": nonce, "msg": msg_to_json(msg)})
        if nonce is not None:
            self.nonces[nonce] = self.next_id
        self.killer.hook()  # Discord has it; we do not know yet
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        self.killer.hook()
        self._write({"op": "edit", "id": message_id, "msg": msg_to_json(msg)})
        self.killer.hook()
        return True

    async def retire(self, channel_id: int, message_id: int) -> bool:
        self._write({"op": "retire", "id": message_id})
        return True

    async def dm(self, user_id: int, msg: Msg) -> DmResult:
        return DmResult.SENT

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        return None


def channel_state(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """What the channel finally shows: each message as last edited, oldest first."""
    shown: dict[int, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        op = json.loads(line)
        if op["op"] in ("send", "edit"):
            shown[op["id"]] = op["msg"]
        elif op["op"] == "retire" and op["id"] in shown:
            shown[op["id"]] = {**shown[op["id"]], "rows": []}
    return sorted(shown.items())


def _digest_render(
    self: Match, seat: int | None = None, lang: str = "en", decision: Decision | None = None
) -> bytes:
    view = self.view(seat).model_dump(mode="json")
    marks = decision.key if decision is not None else None
    return hashlib.sha256(json.dumps([view, lang, marks], sort_keys=True).encode()).digest()


def _hook_store(store: Store, killer: Killer) -> None:
    """Kill points before and after the store's commits."""
    for name in ("commit_decision", "start_match", "outbox_delivered", "add_public"):
        real = getattr(store, name)

        async def wrapped(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            killer.hook()
            result = await _real(*args, **kwargs)
            killer.hook()
            return result

        setattr(store, name, wrapped)


async def run(db: Path | str, channel: Path, game: str, mode: str, kill_at: int) -> int:
    import bot.gm.lobby

    bot.gm.lobby.new_seed = lambda: f"kill-test-{game}-{mode}"
    Match.render = _digest_render  # type: ignore[method-assign]
    killer = Killer(kill_at)
    store = await Store.open(db)
    _hook_store(store, killer)
    gm = GameMaster(store, FileChannel(channel, killer), ManualClock())
    await gm.recover()
    count = min(get_game(game).info.mode(mode).player_counts)
    humans = HUMANS[: min(2, count)]
    ids = await store.active_ids()
    if not ids and not await store.recent(GUILD, None, limit=1):
        await gm.open_lobby(
            humans[0],
            guild_id=GUILD,
            channel_id=CHANNEL,
            guild_locale="en",
            game_id=game,
            mode=mode,
            ai_level=_cheapest(game),
        )
        ids = await store.active_ids()
    for mid in ids:
        rec = await store.get(mid, snapshot=False)
        assert rec is not None
        if rec.status == "lobby":
            seated = {s.user_id for s in rec.seats}
            for h in humans:
                if h.user_id not in seated:
                    await gm.lobby_action(mid, "join", h)
            for _ in range(count - len((await store.get(mid, snapshot=False)).seats)):  # type: ignore[union-attr]
                await gm.lobby_action(mid, "addai", humans[0])
            await gm.lobby_action(mid, "start", humans[0])
        await play(gm, mid)
    for mid in await store.outbox_matches():
        async with gm.lock(mid):
            assert await gm._flush(mid)  # noqa: SLF001
    await store.close()
    print(f"hooks={killer.count}")
    return 0


def _cheapest(game: str) -> str | None:
    """The game's last declared AI level (the quickest to think): the test's CPU budget."""
    levels = get_game(game).info.ai_levels
    return levels[-1].id if levels else None


async def play(gm: GameMaster, mid: int) -> None:
    """Answer every human decision with that seat's AI answer, until the match is over."""
    while True:
        async with gm.lock(mid):
            live = await gm._get(mid)  # noqa: SLF001
            if live is None or live.match is None:
                return
            match = live.match
            mine = [d for d in match.pending() if not match.seats[d.seat].ai]
            if not mine:
                return
            d = mine[0]
            level = _cheapest(match.game_id)
            reply = await asyncio.to_thread(
                match.game.ai_choose, match.state, d, match.ai_rng(d), level
            )
            choice = reply_choice(d, reply)
            await gm._commit(live, choice, match.version, by_ai=False)  # noqa: SLF001
            if live.match is not None and not match.over:
                await gm._advance(live)  # noqa: SLF001


if __name__ == "__main__":
    db_arg, channel_arg, game_arg, mode_arg, kill_arg = sys.argv[1:6]
    db: Path | str = db_arg if is_postgres_url(db_arg) else Path(db_arg)
    sys.exit(asyncio.run(run(db, Path(channel_arg), game_arg, mode_arg, int(kill_arg))))
