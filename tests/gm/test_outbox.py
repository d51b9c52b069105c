"""The outbox (issue 10 item 1): what a commit shows is stored with it and always delivered.

A "crash" here is the game master stopping right after a commit, before it
delivered anything (its delivery replaced by nothing), then a new game master
on the same SQLite file; the channel must end exactly as in a run without it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from bot.cli.verify import check_dice, check_replay
from bot.engine import Choice, Decision, Text
from bot.engine.decisions import Allocation, Many, Option, Order, Quantity, Total
from bot.engine.log import parse_log
from bot.engine.registry import get_game
from bot.gm import Actor, DmResult, GameMaster, ManualClock, Msg
from bot.gm.apply import fallback_choice
from bot.gm.ids import parse
from bot.gm.msg import Button, Reply
from bot.gm.publisher import RetryLater, msg_from_json, msg_to_json
from bot.store import Store

GUILD = 10
CHANNEL = 20
ANN = Actor(user_id=1, name="Ann", lang="fr")


class Channel:
    """What Discord shows: messages by id (edits replace them), with nonce dedup."""

    def __init__(self) -> None:
        self.messages: dict[int, dict[str, Any]] = {}
        self.nonces: dict[str, int] = {}
        self.next_id = 1000
        self.fail_sends = 0
        self.busy_edits = 0
        self.sends = 0

    def view(self) -> list[tuple[int, dict[str, Any]]]:
        return sorted(self.messages.items())

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        return await self.send_once(channel_id, msg, None)

    async def send_once(self, channel_id: int, msg: Msg, nonce: str | None) -> int | None:
        if self.fail_sends:
            self.fail_sends -= 1
            return None
        if nonce is not None and nonce in self.nonces:
            return self.nonces[nonce]  # Discord's enforce_nonce: the same message back
        self.sends += 1
        self.next_id += 1
        self.messages[self.next_id] = msg_to_json(msg)
        if nonce is not None:
            self.nonces[nonce] = self.next_id
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        if self.busy_edits:
            self.busy_edits -= 1
            raise RetryLater
        if message_id not in self.messages:
            return False
        self.messages[message_id] = msg_to_json(msg)
        return True

    async def retire(self, channel_id: int, message_id: int) -> bool:
        if message_id in self.messages:
            self.messages[message_id]["rows"] = []
        return True

    async def dm(self, user_id: int, msg: Msg) -> DmResult:
        return DmResult.CLOSED

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        return None


class Table:
    """A game master on a database file, restartable, that may "crash" after commits."""

    def __init__(self, path: Path, crash: bool = False) -> None:
        self.path = path
        self.channel = Channel()
        self.crash = crash
        self.store: Store | None = None
        self.gm: GameMaster | None = None

    async def open(self) -> GameMaster:
        if self.store is not None:
            await self.store.close()
        self.store = await Store.open(self.path)
        self.gm = GameMaster(self.store, self.channel, ManualClock())
        await self.gm.recover()
        if self.crash:
            self.gm._flush = _dead  # type: ignore[method-assign]
        return self.gm

    async def start(self) -> int:
        gm = await self.open()
        gm._flush = GameMaster._flush.__get__(gm)  # type: ignore[method-assign]  # the lobby
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
        if self.crash:
            gm._flush = _dead  # type: ignore[method-assign]
        await gm.lobby_action(live.mid, "start", ANN)
        return live.mid

    async def after(self) -> GameMaster:
        """After an action: a crashing table restarts (the only delivery is recovery's)."""
        assert self.gm is not None
        return await self.open() if self.crash else self.gm


async def _dead(mid: int) -> bool:
    return False


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.gm.lobby.new_seed", lambda: "outbox-test-seed")


async def pick(gm: GameMaster, mid: int, label: str) -> Reply:
    reply = await gm.hand(mid, ANN)
    prompts = [m for m in reply.private if m.rows]
    assert len(prompts) == 1, [m.content for m in reply.private]
    button: Button = next(
        b for row in prompts[0].rows if isinstance(row, list) for b in row if b.label == label
    )
    c = parse(button.custom_id)
    assert c is not None
    return await gm.component(mid, c.action, c.ver, c.arg, ANN)


async def play(table: Table) -> int:
    mid = await table.start()
    for label in ("3", "3", "1"):
        gm = await table.after()
        await pick(gm, mid, label)
    await table.after()
    assert table.store is not None
    await table.store.close()
    table.store = None
    return mid


@pytest.fixture
async def tables(tmp_path: Path, fixed_seed: None) -> AsyncIterator[tuple[Table, Table]]:
    yield Table(tmp_path / "a.sqlite3"), Table(tmp_path / "b.sqlite3", crash=True)


async def test_a_crash_after_every_commit_shows_the_same_channel(
    tables: tuple[Table, Table],
) -> None:
    """Item 1: each commit's posts are stored with it; a restart delivers them, in order."""
    plain, crashing = tables
    mid = await play(plain)
    assert await play(crashing) == mid
    assert crashing.channel.view() == plain.channel.view()
    final = [
        m
        for _, m in plain.channel.view()
        if any(f["filename"].endswith("-log.md") for f in m["files"])
    ]
    assert len(final) == 1
    data = parse_log(msg_from_json(final[0]).files[-1].data.decode())
    assert check_dice(data)[0] and check_replay(data)[0]


async def test_a_crash_right_after_start_still_posts_the_first_board(
    tables: tuple[Table, Table],
) -> None:
    """The lobby is closed (no Start button) and the first round board is posted."""
    _, crashing = tables
    mid = await crashing.start()
    assert crashing.store is not None
    assert len(crashing.channel.view()) == 1  # the lobby: the start's posts died with us
    lobby = crashing.channel.view()[0][1]
    assert any(
        b["custom_id"].endswith("start") or "start" in b["custom_id"]
        for r in lobby["rows"]
        for b in r.get("buttons", [])
    )
    await crashing.open()  # restart: recovery delivers
    shown = crashing.channel.view()
    assert len(shown) >= 3  # lobby, introduction, the live table (the setup in its log)
    assert not any(
        "start" in b["custom_id"] for r in shown[0][1]["rows"] for b in r.get("buttons", [])
    )
    roles = await crashing.store.messages(mid)
    board = crashing.channel.messages[roles["table"][1]]
    assert board["rows"] and board["mentions"] == [ANN.user_id]
    await crashing.store.close()


async def test_an_undelivered_post_waits_and_nothing_overtakes_it(
    tmp_path: Path, fixed_seed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A post Discord refused stays first in line: the tick delivers it, then the rest."""
    # Rounds that change (the fixture game labels every round 0): each pick of a new
    # round is a new table message, the previous one edited into its summary.
    monkeypatch.setattr(type(get_game("test-pick")), "round_label", lambda self, s: s.round)
    table = Table(tmp_path / "a.sqlite3")
    mid = await table.start()
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    before = len(table.channel.messages)
    table.channel.fail_sends = 10**6  # Discord down
    await pick(gm, mid, "3")  # the round's summary, a new table: no post goes out
    assert len(table.channel.messages) == before
    waiting = await store.outbox(mid)
    assert [i.kind for i in waiting].count("post") >= 1
    table.channel.fail_sends = 0
    await gm.tick()
    shown = table.channel.view()
    assert len(shown) == before + [i.kind for i in waiting].count("post")
    roles = await store.messages(mid)
    assert roles["table"][1] == shown[-1][0]  # the table came last, as planned
    assert await store.outbox(mid) == []
    await store.close()


async def test_a_post_repeated_after_a_crash_uses_its_nonce(
    tmp_path: Path, fixed_seed: None
) -> None:
    """Sent, then killed before it was marked delivered: the repeat is deduplicated."""
    plain = Table(tmp_path / "a.sqlite3")
    mid = await plain.start()
    assert plain.gm is not None and plain.store is not None
    await pick(plain.gm, mid, "3")
    await plain.store.close()
    table = Table(tmp_path / "b.sqlite3")
    assert await table.start() == mid
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    real = store.outbox_delivered
    died: list[int] = []

    async def crash_once(*args: Any, **kwargs: Any) -> None:
        if not died:
            died.append(1)
            raise RuntimeError("killed between send and mark")
        await real(*args, **kwargs)

    store.outbox_delivered = crash_once  # type: ignore[method-assign]
    await pick(gm, mid, "3")
    assert died
    await table.open()
    assert table.store is not None
    assert await table.store.outbox(mid) == []
    assert table.channel.view() == plain.channel.view()
    assert table.channel.sends == plain.channel.sends  # the repeat created nothing
    await table.store.close()


def test_a_message_survives_its_json() -> None:
    from bot.gm.msg import Attachment, Embed, Select, SelectOption

    msg = Msg(
        content="hi",
        embeds=[Embed(title="t", fields=[("a", "b", True)], image="x.png", footer="f")],
        rows=[
            [Button("b", "cid", "primary", emoji="🃏")],
            Select("s", "p", [SelectOption("l", "v")]),
        ],
        files=[Attachment("x.png", b"\x89PNG\x00")],
        mentions=[1],
    )
    assert msg_from_json(msg_to_json(msg)) == msg


def test_a_message_s_json_is_what_dataclasses_give() -> None:
    """The outbox's JSON is built field by field for speed; it must stay what
    ``dataclasses.asdict`` gives (rows stored before, and every field added later), as
    JSON: plain JSON values only, so the store's copy of a row it just wrote equals what
    reading the row back gives (``bot/store/mirror.py``)."""
    from dataclasses import asdict

    import orjson

    from bot.gm.msg import Embed, Select, SelectOption

    button = Button("b", "cid", "danger", emoji="🃏", disabled=True)
    select = Select("s", "p", [SelectOption("l", "v", "d", "🎲"), SelectOption("m", "w")], True)
    embed = Embed("t", "d", 0x123456, [("a", "b", True), ("c", "d", False)], "x.png", "f")
    data = msg_to_json(Msg(embeds=[embed], rows=[[button, Button("c", "d")], select]))
    assert data["rows"] == [
        {"buttons": [asdict(button), asdict(Button("c", "d"))]},
        {"select": asdict(select)},
    ]
    assert data["embeds"] == [orjson.loads(orjson.dumps(asdict(embed)))]
    assert orjson.loads(orjson.dumps(data)) == data


def _decision(ask: Any) -> Decision:
    opts = [Option(id=i, label=Text(fr=i, en=i)) for i in ("a", "b", "c")]
    return Decision(
        key="k", seat=0, kind="test", prompt=Text(fr="?", en="?"), options=opts, ask=ask
    )


@pytest.mark.parametrize(
    ("ask", "expected"),
    [
        (Many(min=2, max=3), Choice(seat=0, key="k", options=["a", "b"])),
        (Order(), Choice(seat=0, key="k", options=["a", "b", "c"])),
        (
            Allocation(
                quantities=[
                    Quantity(id="x", label=Text(fr="x", en="x"), min=1, max=2),
                    Quantity(id="y", label=Text(fr="y", en="y"), max=5),
                ],
                totals=[Total(min=4)],
            ),
            Choice(seat=0, key="k", amounts={"x": 2, "y": 2}),
        ),
    ],
)
def test_the_ai_fallback_answers_in_the_decision_s_shape(ask: Any, expected: Choice) -> None:
    """A failing AI must not stall the table with a one-option answer to a Many/Order/Allocation."""
    d = _decision(ask)
    assert fallback_choice(d) == expected
    from bot.engine.answers import check_answer  # the engine's own whole-answer check

    check_answer(d, fallback_choice(d))


async def test_timer_texts_name_the_subject_in_the_players_words(
    tmp_path: Path, fixed_seed: None
) -> None:
    """A reminder and a timeout say the game's own word for what is decided, not its id."""
    from bot.engine.registry import get_game
    from bot.gm.prompts import subject_name

    store = await Store.open(tmp_path / "mad.sqlite3")
    clock = ManualClock()
    channel = Channel()
    gm = GameMaster(store, channel, clock)
    await gm.open_lobby(
        ANN,
        guild_id=GUILD,
        channel_id=CHANNEL,
        guild_locale="fr",
        game_id="mad",
        mode=None,
        ai_level="easy",  # the AI's speed is not what this test is about
    )
    live = await gm.live_in(CHANNEL)
    assert live is not None
    await gm.lobby_action(live.mid, "addai", ANN)
    await gm.lobby_action(live.mid, "start", ANN)
    live = await gm.live_in(CHANNEL)
    assert live is not None and live.match is not None
    mine = [d for d in live.match.pending() if live.match.seats[d.seat].user_id == ANN.user_id]
    assert mine and mine[0].subject
    word = subject_name(mine[0].subject, "fr", get_game("mad").info)
    assert word != mine[0].subject
    texts: list[str] = []
    for step in (1000, 1000):  # past the reminder, then past the deadline
        clock.advance(step)
        await gm.tick()
        texts += [m["content"] or "" for _, m in channel.view() if m["content"]]
    reminder = [x for x in texts if "⏰" in x or "<t:" in x]
    assert reminder and all(word in x for x in reminder), texts
    assert not any(f"({mine[0].subject})" in x for x in texts)
    await store.close()


async def test_an_edit_discord_was_too_busy_for_is_retried(
    tmp_path: Path, fixed_seed: None
) -> None:
    """A rate-limited edit is not marked delivered: the next flush makes it."""
    table = Table(tmp_path / "a.sqlite3")
    mid = await table.start()
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    roles = await store.messages(mid)
    board_before = dict(table.channel.messages[roles["table"][1]])
    table.channel.busy_edits = 10**6
    reply = await gm.cancel_here(CHANNEL, ANN)  # edits the board (closed), posts the log
    assert reply.private
    waiting = await store.outbox(mid)
    assert [i.kind for i in waiting][:1] == ["edit"]
    assert table.channel.messages[roles["table"][1]] == board_before
    table.channel.busy_edits = 0
    await gm.tick()
    assert await store.outbox(mid) == []
    assert table.channel.messages[roles["table"][1]] != board_before
    assert table.channel.messages[roles["table"][1]]["rows"] == []
    await store.close()


async def test_a_flush_that_delivers_everything_reads_the_outbox_once(
    tmp_path: Path, fixed_seed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16 item 1: a pick's flush delivers its rows and stops there (nothing adds
    rows to the match while its lock is held), without a second read that would find
    none: one hop to the database less per flush. Everything still reaches the channel."""
    table = Table(tmp_path / "a.sqlite3")
    mid = await table.start()
    gm, store = table.gm, table.store
    assert gm is not None and store is not None
    reads: list[list[int]] = []
    """Per flush, the number of rows each of its reads found."""
    read, flush = store.outbox, gm._flush

    async def counted(match_id: int, limit: int = 100) -> Any:
        items = await read(match_id, limit)
        reads[-1].append(len(items))
        return items

    async def flushing(match_id: int) -> bool:
        reads.append([])
        return await flush(match_id)

    monkeypatch.setattr(store, "outbox", counted)
    monkeypatch.setattr(gm, "_flush", flushing)
    before = dict(table.channel.messages)
    await pick(gm, mid, "3")
    assert any(n > 0 for r in reads for n in r)
    assert all(len(r) == 1 for r in reads if r), reads  # [n], never [n, 0]
    assert table.channel.messages != before
    assert await read(mid) == []  # and nothing was left behind
    await store.close()


def test_an_image_read_back_soon_is_not_decoded_again() -> None:
    """An outbox row is usually delivered right after its commit: its image's bytes come
    from memory (the very object encoded), looked up by the stored text; an image this
    process no longer remembers (a restart, a long wait) is decoded, the same bytes."""
    import json as std_json

    from bot.gm import publisher
    from bot.gm.msg import Attachment

    image = bytes(range(256)) * 100
    stored = std_json.dumps(msg_to_json(Msg(files=[Attachment("a.png", image)])))
    again = msg_from_json(std_json.loads(stored))  # a new text object, equal content
    assert again.files[0].data is image
    publisher._DECODED.clear()
    decoded = msg_from_json(std_json.loads(stored)).files[0].data
    assert decoded == image and decoded is not image
    for i in range(publisher.DECODED_KEPT + 5):
        msg_to_json(Msg(files=[Attachment("b.png", i.to_bytes(4, "big"))]))
    assert len(publisher._DECODED) == publisher.DECODED_KEPT


async def test_only_the_boards_of_matches_in_memory_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last board drawn per match serves its summary; once the match is over and
    let go, its picture goes too (a long-lived bot kept one per match ever played)."""
    monkeypatch.setattr("bot.gm.posting.TABLE_PNGS_SLACK", 2)
    store = await Store.open(tmp_path / "boards.sqlite3")
    try:
        gm = GameMaster(store, Channel(), ManualClock())
        in_memory = {1: object(), 2: object()}
        gm._live = in_memory  # type: ignore[assignment]  # only which matches are in memory
        gm._keep_table_png(1, "k1", b"one")
        gm._keep_table_png(2, "k2", b"two")
        for mid in range(10, 40):  # matches played to their end and let go, one by one
            gm._keep_table_png(mid, f"k{mid}", b"png")
            assert len(gm._table_pngs) <= len(in_memory) + 2 + 1
            assert gm._table_pngs[mid] == (f"k{mid}", b"png")  # its summary's picture
        assert gm._table_pngs[1] == ("k1", b"one") and gm._table_pngs[2] == ("k2", b"two")
    finally:
        await store.close()
