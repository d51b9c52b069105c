"""The game master and the store: logs built from the store, failed commits undone.

Played through :class:`GameMaster` (what the Discord layer runs, minus discord)
on a real SQLite file, clicking the private prompts' buttons like a player.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from bot.cli.verify import check_dice, check_replay
from bot.engine import Match
from bot.engine.log import markdown_log, parse_log
from bot.gm import Actor, DmResult, GameMaster, ManualClock, Msg
from bot.gm.ids import parse
from bot.gm.msg import Button, Reply
from bot.i18n import t
from bot.store import Store

GUILD = 10
CHANNEL = 20
ANN = Actor(user_id=1, name="Ann", lang="fr")


class Publisher:
    """Records what would be posted on Discord."""

    def __init__(self) -> None:
        self.sent: list[Msg] = []
        self.next_id = 1000

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        self.sent.append(msg)
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        self.sent.append(msg)
        return True

    async def dm(self, user_id: int, msg: Msg) -> DmResult:
        return DmResult.CLOSED

    async def retire(self, channel_id: int, message_id: int) -> bool:
        return True

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        return None


class Table:
    """A game master on a database file, restartable like the bot process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pub = Publisher()
        self.store: Store | None = None
        self.gm: GameMaster | None = None

    async def open(self) -> GameMaster:
        self.store = await Store.open(self.path)
        self.gm = GameMaster(self.store, self.pub, ManualClock())
        await self.gm.recover()
        return self.gm

    async def restart(self) -> GameMaster:
        assert self.store is not None
        await self.store.close()
        return await self.open()

    async def start(self) -> int:
        gm = await self.open()
        await gm.open_lobby(
            ANN,
            guild_id=GUILD,
            channel_id=CHANNEL,
            guild_locale="fr",
            game_id="test-pick",
            mode="default",
        )
        live = await gm.live_in(CHANNEL)
        assert live is not None
        await gm.lobby_action(live.mid, "addai", ANN)
        await gm.lobby_action(live.mid, "start", ANN)
        return live.mid


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    tab = Table(tmp_path / "arena.sqlite3")
    yield tab
    if tab.store is not None:
        await tab.store.close()


def pick_button(reply: Reply, label: str) -> Button:
    """Ann's button for option ``label`` on her one prompt."""
    prompts = [m for m in reply.private if m.rows]
    assert len(prompts) == 1, [m.content for m in reply.private]
    buttons = [b for row in prompts[0].rows if isinstance(row, list) for b in row]
    return next(b for b in buttons if b.label == label)


async def click(gm: GameMaster, mid: int, button: Button) -> Reply:
    c = parse(button.custom_id)
    assert c is not None and c.action == "pick"
    return await gm.component(mid, c.action, c.ver, c.arg, ANN)


async def pick(gm: GameMaster, mid: int, label: str) -> Reply:
    return await click(gm, mid, pick_button(await gm.hand(mid, ANN), label))


def round_of(gm: GameMaster, mid: int) -> int:
    live = gm._live.get(mid)  # noqa: SLF001
    assert live is not None and live.match is not None
    return int(live.match.state.round)


def posted_log(pub: Publisher, mid: int) -> dict[str, Any]:
    logs = [f for m in pub.sent for f in m.files if f.filename == f"match{mid}-log.md"]
    assert len(logs) == 1
    return parse_log(logs[0].data.decode())


async def test_final_log_verifies_after_restarts_in_the_middle(table: Table) -> None:
    """Issue 10 item 2: a reloaded match has lost its earlier events, the log must not."""
    mid = await table.start()
    gm = table.gm
    assert gm is not None
    await pick(gm, mid, "3")  # the only 3 of round 1: a roll
    assert round_of(gm, mid) == 2
    gm = await table.restart()
    await pick(gm, mid, "3")  # and round 2's
    gm = await table.restart()
    assert round_of(gm, mid) == 3
    await pick(gm, mid, "1")
    assert table.store is not None
    record = await table.store.get(mid)
    assert record is not None and record.status == "finished"
    data = posted_log(table.pub, mid)
    assert data["seed"] and len([e for e in data["events"] if e["kind"] == "roll"]) >= 2
    assert check_dice(data)[0], check_dice(data)
    assert check_replay(data) == (True, check_replay(data)[1]), check_replay(data)
    assert len(data["choices"]) == record.version


class ReplaySpy:
    """Counts the store's replays of a match's decisions (the real ones still run)."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = store.replay_match
        self.calls: list[int] = []
        monkeypatch.setattr(store, "replay_match", self)

    async def __call__(self, match_id: int) -> Match:
        self.calls.append(match_id)
        return await self.real(match_id)


async def test_a_match_that_ends_here_writes_its_log_without_a_replay(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: the match that just ended holds every event since setup, so its log is
    written from it (a replay took 40-55 ms under the interpreter lock); the very bytes
    the replay of the stored decisions gives."""
    mid = await table.start()
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    spy = ReplaySpy(store, monkeypatch)
    await pick(gm, mid, "3")
    await pick(gm, mid, "3")
    await pick(gm, mid, "1")
    record = await store.get(mid)
    assert record is not None and record.status == "finished"
    assert spy.calls == []
    logs = [f for m in table.pub.sent for f in m.files if f.filename == f"match{mid}-log.md"]
    assert len(logs) == 1
    assert logs[0].data.decode() == markdown_log(await spy.real(mid), "fr")
    assert not gm._ended  # noqa: SLF001  (nothing kept once posted)


async def test_a_match_reloaded_in_the_middle_is_replayed_for_its_log(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reloaded match lost the events before the restart: its log comes from the replay."""
    mid = await table.start()
    await pick(table.gm, mid, "3")  # type: ignore[arg-type]
    gm = await table.restart()
    assert table.store is not None
    spy = ReplaySpy(table.store, monkeypatch)
    await pick(gm, mid, "3")
    await pick(gm, mid, "1")
    assert spy.calls == [mid]
    record = await table.store.get(mid)
    assert record is not None and record.status == "finished"
    data = posted_log(table.pub, mid)
    assert check_replay(data)[0] and len(data["choices"]) == record.version


def fail_commits(store: Store, monkeypatch: pytest.MonkeyPatch, which: set[int]) -> list[int]:
    """Make the ``which``-th calls (1-based) of ``commit_decision`` fail like a locked database."""
    real: Callable[..., Awaitable[None]] = store.commit_decision
    calls: list[int] = []

    async def flaky(*args: Any, **kwargs: Any) -> None:
        calls.append(len(calls) + 1)
        if len(calls) in which:
            raise sqlite3.OperationalError("database is locked")
        await real(*args, **kwargs)

    monkeypatch.setattr(store, "commit_decision", flaky)
    return calls


async def test_a_failed_commit_is_undone_and_the_same_click_works_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10 item 3: the player is told plainly to try again; the same button then works."""
    mid = await table.start()
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    before = await store.get(mid)
    assert before is not None
    calls = fail_commits(store, monkeypatch, {1})
    button = pick_button(await gm.hand(mid, ANN), "3")
    reply = await click(gm, mid, button)
    assert [m.content for m in reply.private] == [t("fr", "err.commit_failed")]
    assert len(calls) == 1
    after = await store.get(mid)
    assert after is not None and after.version == before.version
    live = gm._live[mid]  # noqa: SLF001
    assert live.match is not None and live.match.version == before.version
    reply = await click(gm, mid, button)  # the very same click
    assert reply.update is not None and "3" in (reply.update.content or "")
    assert "périmé" not in (reply.update.content or "")
    assert round_of(gm, mid) == 2
    assert await store.check_replay(mid)


async def test_an_ai_commit_that_fails_is_played_again_on_the_next_access(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    mid = await table.start()
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    # Ann's pick commits (call 1); the AI's pick of round 2 that follows fails (call 2).
    calls = fail_commits(store, monkeypatch, {2})
    reply = await pick(gm, mid, "3")
    assert reply.update is not None
    record = await store.get(mid)
    assert record is not None
    live = gm._live[mid]  # noqa: SLF001
    assert live.match is not None and live.match.version == record.version
    assert [d.seat for d in live.match.pending()] == [0, 1]  # the AI's pick is not lost...
    await pick(gm, mid, "3")  # ...it plays when Ann looks at her prompt, then Ann picks
    await pick(gm, mid, "1")
    assert len(calls) >= 5
    record = await store.get(mid)
    assert record is not None and record.status == "finished"
    assert await store.check_replay(mid)
    data = posted_log(table.pub, mid)
    assert check_replay(data)[0] and check_dice(data)[0]
