"""Issue 10 item 6 (fuzz half): thousands of random interactions against the real bot.

The bot runs through the offline harness on a real SQLite store, with one
channel per installed game, each holding a live match (a new one is opened
whenever one ends). Random users (seated players, other members, the
spectator) send random interactions: real clicks on what they see (fresh or
stale), forged ones (ids and values never offered: other scripts' digits,
signs, spaces, newlines, leading zeros, future versions, other kinds, other
messages, unknown matches), other users' prompts, random commands and
options (some outside their choices, some from a DM), modals, autocompletes,
unknown commands, and clock ticks that let deadlines fire.

Asserted for every interaction: it was answered (a response or a deferral
reached the fake Discord), nothing logged an error and no task died (the
harness's ``settle``), no Discord limit was broken; and for every interaction
that is invalid input, the store is unchanged (every match's status, version,
snapshot, seats, options and mode; the server settings; no new match).

Each game's own images and AI are tested with the game: here every game
renders a tiny image and tables use the quickest AI level a game declares, so
the CPU goes to the interactions (about 60 s for the default size).

Default size: ``ARENA_FUZZ_INTERACTIONS`` (10,000) with seed ``ARENA_FUZZ_SEED``;
the same seed replays the same run. The counts are printed (``pytest -s``).
"""

from __future__ import annotations

import copy
import io
import os
import random
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engine.registry import all_games, get_game
from bot.gm import ids
from tests.cogs.driver import Driver
from tests.harness import payloads as P
from tests.harness.fake_discord import FakeInteraction, FakeMessage

Json = dict[str, Any]
SEED = int(os.environ.get("ARENA_FUZZ_SEED", "20261123"))
COUNT = int(os.environ.get("ARENA_FUZZ_INTERACTIONS", "10000"))
BUTTON, SELECT = 2, 3
POOL = 40
"""Messages remembered per channel or user (the ones a user could still click)."""
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
SUBCOMMANDS = (
    "start",
    "status",
    "hand",
    "rules",
    "abandon",
    "cancel",
    "history",
    "play",
    "settings",
    "dm",
    "autopilot",
)
GUILD_ONLY = set(SUBCOMMANDS) - {"rules", "dm"}
FORGED_VALUES = (
    "o+1",
    "o1\n",
    "o١",
    " o1",
    "o01",
    "o-1",
    "g+0",
    "+1",
    "1\n",
    "١",
    "０",
    "01",
    "-1",
    "",
    "tp:0",
    "tp:-60",
    "tp:99999999",
    "ta:0",
    "tr:-1",
    "lv:god",
    "o0:9",
    "zz",
    "x" * 100,
)


def _mutations(custom_id: str) -> list[str]:
    """Ids we never write, derived from a real one."""
    out = [
        custom_id + "\n",
        custom_id + " ",
        " " + custom_id,
        custom_id.translate(ARABIC),
        custom_id.translate(FULLWIDTH),
        re.sub(r"(\d+)$", r"+\1", custom_id),
        re.sub(r"(\d+)$", r"0\1", custom_id),
        re.sub(r":(\d+)$", r":-\1", custom_id),
        custom_id.upper(),
        custom_id[: max(1, len(custom_id) // 2)],
        custom_id.replace(":", "::", 1),
        "am:1:zap:0",
        "hello",
        "a" * 100,
    ]
    c = ids.parse(custom_id)
    if c is not None:
        parts = custom_id.split(":")
        if len(parts) >= 4:
            future = [*parts]
            future[3] = str(int(parts[3]) + 100_000)
            out.append(":".join(future))  # a future version (or a lobby id not at 0)
            unknown = [*parts]
            unknown[1] = str(int(parts[1]) + 900_000)
            out.append(":".join(unknown))  # a match that does not exist
        if isinstance(c, ids.Pick | ids.Group | ids.Page):
            out.append(type(c)(c.mid, c.ver, c.tag, c.n + 1000).encode())
        if isinstance(c, ids.DraftToggle):
            out.append(ids.DraftToggle(c.mid, c.ver, c.tag, c.did, c.rev, c.index + 1000).encode())
    return [m for m in out if m and m != custom_id]


class Fuzzer:
    def __init__(self, d: Driver, rnd: random.Random) -> None:
        self.d = d
        self.rnd = rnd
        self.counts: Counter[str] = Counter()
        self.channels: dict[int, tuple[str, str, int]] = {}
        """channel id -> (game, mode, seats) played there."""
        self.started: dict[int, int] = {}
        """channel id -> the match last started from it (a thread's match is found by it)."""
        self.public: dict[int, list[int]] = {}
        self.private: dict[int, list[int]] = {}
        """user id -> message ids of their ephemerals and DMs."""
        self.stale: list[FakeMessage] = []
        self.calls_seen = 0
        self.max_mid = 0

    # --- bookkeeping --------------------------------------------------------------------
    @property
    def members(self) -> list[Json]:
        return [*self.d.users, self.d.spectator]

    def remember(self, fi: FakeInteraction | None) -> None:
        fake = self.d.fake
        for call in fake.calls[self.calls_seen :]:
            body = call.response
            if (
                call.method == "POST"
                and isinstance(body, dict)
                and re.fullmatch(r"/channels/\d+/messages", call.path)
                and "id" in body
            ):
                msg = fake.messages.get(int(body["id"]))
                if msg is None:
                    continue
                dm = next((u for u, c in fake.dm_channels.items() if c == msg.channel_id), None)
                key = self.private if dm is not None else self.public
                pool = key.setdefault(dm if dm is not None else msg.channel_id, [])
                pool.append(msg.id)
                del pool[:-POOL]
        self.calls_seen = len(fake.calls)
        if fi is not None:
            for m in self.d.replies(fi):
                if m.ephemeral_for is not None:
                    pool = self.private.setdefault(m.ephemeral_for, [])
                    if m.id not in pool:
                        pool.append(m.id)
                        del pool[:-POOL]

    def visible(self, user: Json) -> list[FakeMessage]:
        """Messages ``user`` can click: public ones and their own ephemerals and DMs."""
        fake = self.d.fake
        ids_ = [m for pool in self.public.values() for m in pool]
        ids_ += self.private.get(int(user["id"]), [])
        out = [fake.messages[i] for i in ids_ if i in fake.messages]
        return [m for m in out if not m.deleted and fake.components(m)]

    async def fingerprint(self) -> Any:
        bot = self.d.bot
        assert bot is not None
        store = bot.store
        out: list[Any] = [
            (r.id, r.status, r.version, r.snapshot, r.seats, r.options, r.mode)
            for r in await store.active_matches()
        ]
        out.append(await store.get(self.max_mid + 1))  # no new match
        out.append(await store.guild_settings(self.d.guild_id))
        return out

    async def track_mids(self) -> None:
        bot = self.d.bot
        assert bot is not None
        while await bot.store.get(self.max_mid + 1) is not None:
            self.max_mid += 1

    # --- sending ------------------------------------------------------------------------
    async def dispatch(self, payload: Json, what: str, *, invalid: bool) -> FakeInteraction:
        before = await self.fingerprint() if invalid else None
        fi = await self.d.dispatch(payload)
        assert fi.acknowledged, f"{what}: never answered ({payload.get('data')!r})"
        self.remember(fi)
        if invalid:
            after = await self.fingerprint()
            assert after == before, f"{what}: invalid input changed the store ({payload!r})"
        else:
            await self.track_mids()
        self.counts[what] += 1
        self.counts["invalid" if invalid else "valid"] += 1
        return fi

    def component_payload(
        self,
        user: Json,
        message: Json,
        custom_id: str,
        kind: int,
        values: list[str] | None,
    ) -> Json:
        d = self.d
        channel = d.fake.channels[int(message["channel_id"])]
        dm = channel.get("type") == P.DM
        return P.component_interaction(
            user if dm else d.member(user),
            message,
            custom_id,
            application_id=d.app_id,
            channel=channel,
            guild_id=None if dm else d.guild_id,
            component_type=kind,
            values=values,
            locale=self.rnd.choice(["en-US", "fr", "en-GB", "de"]),
            guild_locale=d.guild_locale,
        )

    # --- actions ------------------------------------------------------------------------
    async def real_click(self, *, stale: bool = False) -> None:
        """A click a real client can send: an enabled component of a message the user sees."""
        rnd = self.rnd
        if stale and self.stale:
            msg = rnd.choice(self.stale)
            owner = msg.ephemeral_for
            user = (
                self.d.user_by_id(owner)
                if owner is not None and owner in {int(u["id"]) for u in self.members}
                else rnd.choice(self.members)
            )
        else:
            user = rnd.choice(self.members)
            seen = self.visible(user)
            if not seen:
                return
            msg = rnd.choice(seen)
            if rnd.random() < 0.05:
                self.stale.append(msg.snapshot())
                del self.stale[:-POOL]
        if msg.ephemeral_for is not None and msg.ephemeral_for != int(user["id"]):
            return
        comps = [c for c in self.d.fake.components(msg) if not c.get("disabled")]
        if not comps:
            return
        c = rnd.choice(comps)
        values = [rnd.choice(c["options"])["value"]] if c["type"] == SELECT else None
        payload = self.component_payload(user, msg.to_json(), c["custom_id"], c["type"], values)
        await self.dispatch(payload, "stale click" if stale else "click", invalid=False)

    async def forged_click(self) -> None:
        """A click carrying what was never offered; half of them planted on the message
        (as if Discord passed anything), so the game master's own checks are exercised."""
        rnd = self.rnd
        user = rnd.choice(self.members)
        seen = self.visible(user)
        if not seen:
            return
        msg = rnd.choice(seen)
        if msg.ephemeral_for is not None and msg.ephemeral_for != int(user["id"]):
            return
        comps = self.d.fake.components(msg)
        c = rnd.choice(comps)
        custom_id, kind = c["custom_id"], c["type"]
        offered = [o["value"] for o in c.get("options", [])]
        values: list[str] | None = [offered[0]] if kind == SELECT else None
        how = rnd.choice(["value", "id", "id", "kind", "values", "public"])
        if how == "value" and kind == SELECT:
            candidates = [v for v in FORGED_VALUES if v not in offered]
            candidates += [v + "\n" for v in offered[:3]] + [v.translate(ARABIC) for v in offered]
            candidates = [v for v in candidates if v not in offered]
            values = [rnd.choice(candidates)]
        elif how == "values" and kind == SELECT:
            values = rnd.choice([[], offered[:2] * 2, [offered[0], "zz"]])
            if len(values) == 1:
                return
        elif how == "kind":
            kind = SELECT if kind == BUTTON else BUTTON
            values = [rnd.choice(FORGED_VALUES + ("o0",))] if kind == SELECT else None
        elif how == "public":
            # A private prompt's id on a public message (its answer would overwrite it).
            parsed = ids.parse(custom_id)
            publics = [m for pool in self.public.values() for m in pool]
            if parsed is None or isinstance(parsed, ids.LobbyButton | ids.Hand) or not publics:
                return
            msg = self.d.fake.messages[rnd.choice(publics)]
        else:
            mutated = [m for m in _mutations(custom_id) if m]
            custom_id = rnd.choice(mutated)
        message = msg.to_json()
        if how == "public" or rnd.random() < 0.5:
            planted: Json = {"type": kind, "custom_id": custom_id[:100] or "x"}
            custom_id = planted["custom_id"]
            if kind == BUTTON:
                planted |= {"style": 2, "label": "forged"}
            else:
                planted["options"] = [{"label": "v", "value": v} for v in (values or [])][:25]
            message = copy.deepcopy(message)
            message.setdefault("components", []).append({"type": 1, "components": [planted]})
        payload = self.component_payload(user, message, custom_id, kind, values)
        await self.dispatch(payload, f"forged {how}", invalid=True)

    async def foreign_prompt(self) -> None:
        """Someone clicks another user's real private prompt (a modified client)."""
        rnd = self.rnd
        owners = [u for u, pool in self.private.items() if pool]
        if not owners:
            return
        owner = rnd.choice(owners)
        msg = self.d.fake.messages.get(rnd.choice(self.private[owner]))
        if msg is None or msg.ephemeral_for is None:
            return
        comps = [c for c in self.d.fake.components(msg) if not c.get("disabled")]
        others = [u for u in self.members if int(u["id"]) != owner]
        if not comps:
            return
        c = rnd.choice(comps)
        values = [rnd.choice(c["options"])["value"]] if c["type"] == SELECT else None
        payload = self.component_payload(
            rnd.choice(others), msg.to_json(), c["custom_id"], c["type"], values
        )
        await self.dispatch(payload, "foreign prompt", invalid=True)

    def command_payload(
        self, user: Json, sub: str, options: list[Json], *, channel: Json, dm: bool
    ) -> Json:
        d = self.d
        cmd = d.fake.command("arena", d.guild_id)
        assert cmd is not None
        return P.application_command(
            user if dm else d.member(user),
            "arena",
            [P.subcommand(sub, options)],
            application_id=d.app_id,
            channel=channel,
            guild_id=None if dm else d.guild_id,
            command_id=int(cmd["id"]),
            command_guild_id=d.guild_id,
            locale=self.rnd.choice(["en-US", "fr", "de"]),
            guild_locale=d.guild_locale,
        )

    async def command(self) -> None:
        rnd = self.rnd
        d = self.d
        user = rnd.choice(self.members)
        sub = rnd.choice(SUBCOMMANDS)
        dm = rnd.random() < 0.15
        channel_id = rnd.choice(list(self.channels))
        channel = (
            d.fake.channels[d.fake.dm_channel_id(int(user["id"]))]
            if dm
            else d.fake.channels[channel_id]
        )
        assert d.bot is not None
        rec = await d.bot.store.active_in_channel(channel_id)
        invalid = dm and sub in GUILD_ONLY
        opts: list[Json] = []
        if sub == "start":
            game = rnd.choice([*self.games, "chess", "mad-arena ", "MAD"])
            opts = [P.option("game", game)]
            invalid = invalid or game not in self.games or rec is not None
        elif sub == "rules":
            game = rnd.choice([*self.games, None, "zzz"])
            opts = [P.option("game", game)] if game else []
            invalid = True  # reading changes nothing
        elif sub in ("status", "hand", "history"):
            invalid = True  # reading changes nothing
        elif sub in ("cancel", "abandon"):
            if rec is None or int(user["id"]) == rec.host_id:
                return  # keep the tables alive; hosts cancel elsewhere in the suite
            invalid = True  # neither host nor manager: refused
        elif sub == "play":
            opts = [P.option("text", rnd.choice(["1", "2", "a1-a3", "o+1", "١", "pass", "x"]))]
        elif sub == "settings":
            value = rnd.choice(["de", "klingon", "auto ", "FR", 1])
            opts = [P.option("language", value) if value != 1 else P.option("threads", "yes")]
            invalid = True
        elif sub == "dm":
            opts = [P.option("enabled", rnd.choice([True, False, "maybe"]))]
        elif sub == "autopilot":
            on = rnd.choice([True, False, "yes"])
            opts = [P.option("on", on)]
            invalid = invalid or on == "yes"
        payload = self.command_payload(user, sub, opts, channel=channel, dm=dm)
        await self.dispatch(payload, f"/{sub}" + (" in DM" if dm else ""), invalid=invalid)

    async def oddity(self) -> None:
        """Modals we never opened, autocompletes we never offered, unknown commands."""
        rnd = self.rnd
        d = self.d
        user = rnd.choice(self.members)
        kind = rnd.choice(["modal", "autocomplete", "unknown"])
        if kind == "modal":
            payload = P.modal_submit(
                d.member(user),
                rnd.choice(["am:1:join:0", "x", "am:1:pick:1:abcdef12.0"]),
                {"field": "o+1"},
                application_id=d.app_id,
                channel=d.channel,
                guild_id=d.guild_id,
            )
        elif kind == "autocomplete":
            cmd = d.fake.command("arena", d.guild_id)
            assert cmd is not None
            payload = P.application_command(
                d.member(user),
                "arena",
                [
                    P.subcommand(
                        "start", [{"name": "game", "type": 3, "value": "m", "focused": True}]
                    )
                ],
                application_id=d.app_id,
                channel=d.channel,
                guild_id=d.guild_id,
                command_id=int(cmd["id"]),
                command_guild_id=d.guild_id,
                autocomplete=True,
            )
        else:
            payload = self.command_payload(
                user, rnd.choice(["teleport", "admin"]), [], channel=d.channel, dm=False
            )
        await self.dispatch(payload, kind, invalid=True)

    async def tick(self) -> None:
        """Time passes: deadlines fire (the AI decides for late seats, reminders go out)."""
        await self.d.tick(self.rnd.choice([20, 61, 150, 301]))
        self.remember(None)
        await self.track_mids()
        self.counts["tick"] += 1
        await self.maintain()

    # --- tables -------------------------------------------------------------------------
    async def setup(self) -> None:
        d = self.d
        cmd = d.fake.command("arena", d.guild_id)
        assert cmd is not None
        start = next(o for o in cmd["options"] if o["name"] == "start")
        game_opt = next(o for o in start["options"] if o["name"] == "game")
        self.games = [c["value"] for c in game_opt["choices"]]
        # Matches stay in their channels, where this fuzz clicks their public buttons (a
        # /settings command it sends may still turn threads on: maintain() copes).
        assert d.bot is not None
        await d.bot.store.set_guild_settings(d.guild_id, use_threads=False)
        await self.maintain()

    async def maintain(self) -> None:
        """Every channel holds a live match: open and start one where none is going on."""
        d = self.d
        assert d.bot is not None
        for channel_id, (game, mode, _) in self.channels.items():
            last = self.started.get(channel_id)
            started = await d.bot.store.get(last) if last is not None else None
            if started is not None and started.status == "live":
                continue
            rec = await d.bot.store.active_in_channel(channel_id)
            if rec is not None and rec.status == "live":
                continue
            host = d.users[(channel_id // 7) % len(d.users)]
            if rec is None:
                payload = self.command_payload(
                    host,
                    "start",
                    [
                        P.option("game", game),
                        P.option("mode", f"{game}:{mode}"),
                        *self.fastest_ai(game),
                    ],
                    channel=d.fake.channels[channel_id],
                    dm=False,
                )
                await self.dispatch(payload, "open", invalid=False)
                rec = await d.bot.store.active_in_channel(channel_id)
                assert rec is not None and rec.status == "lobby"
            lobby_id = next(
                i
                for i in reversed(self.public.get(channel_id, []))
                if any(
                    c.get("custom_id") == f"am:{rec.id}:start:0"
                    for c in d.fake.components(d.fake.messages[i])
                )
            )
            host = d.user_by_id(rec.host_id)
            seats = min(get_game(rec.game).info.mode(rec.mode).player_counts)
            humans = [u for u in d.users if int(u["id"]) != rec.host_id]
            for u in humans[: self.rnd.randint(0, 2)]:
                await self.lobby_click(u, lobby_id, rec.id, "join")
            while True:
                rec2 = await d.bot.store.get(rec.id)
                assert rec2 is not None
                if len(rec2.seats) >= seats:
                    break
                await self.lobby_click(host, lobby_id, rec.id, "addai")
            await self.lobby_click(host, lobby_id, rec.id, "start")
            rec3 = await d.bot.store.get(rec.id)
            assert rec3 is not None
            assert rec3.status in ("live", "finished"), rec3.status
            self.started[channel_id] = rec3.id
            self.counts["matches started"] += 1

    @staticmethod
    def fastest_ai(game: str) -> list[Json]:
        """The quickest AI level a game declares (the AI is tested with each game)."""
        levels = [lv.id for lv in get_game(game).info.ai_levels]
        return [P.option("ai_level", "easy")] if "easy" in levels else []

    async def lobby_click(self, user: Json, message_id: int, mid: int, action: str) -> None:
        msg = self.d.fake.messages[message_id]
        payload = self.component_payload(user, msg.to_json(), f"am:{mid}:{action}:0", BUTTON, None)
        await self.dispatch(payload, "lobby " + action, invalid=False)

    async def run(self, n: int) -> None:
        actions = [
            (self.real_click, 30),
            (self.forged_click, 30),
            (self.foreign_prompt, 8),
            (self.command, 14),
            (self.oddity, 4),
            (lambda: self.real_click(stale=True), 8),
            (self.tick, 3),
        ]
        funcs = [f for f, _ in actions]
        weights = [w for _, w in actions]
        while self.counts["valid"] + self.counts["invalid"] < n:
            await self.rnd.choices(funcs, weights)[0]()


def _tiny_png(self: Any, view: Any, lang: str = "en", decision: Any = None) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, "PNG")
    return buf.getvalue()


def _fast_dir(tmp_path: Path) -> Path:
    """A directory in memory when there is one: the fuzz measures the bot, not fsync."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return Path(tempfile.mkdtemp(prefix="arena-fuzz-", dir=shm))
    return tmp_path


def _seeds(seed: int) -> Iterator[str]:
    n = 0
    while True:
        n += 1
        yield f"fuzz-{seed}-{n}"


async def test_fuzz_random_interactions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(SEED)
    seeds = _seeds(SEED)
    monkeypatch.setattr("bot.gm.lobby.new_seed", lambda: next(seeds))
    # Images are the games' own business (tested with each game): a tiny one here
    # keeps the CPU on what this test is about.
    for info in all_games():
        monkeypatch.setattr(type(get_game(info.id)), "render", _tiny_png)
    where = _fast_dir(tmp_path)
    d = Driver(where, players=7)
    fuzz = Fuzzer(d, rnd)
    for info in all_games():
        if info.id.startswith("test-"):
            continue
        mode = info.modes[0]
        ch = P.text_channel(d.snow(), f"play-{info.id}", guild_id=d.guild_id)
        d.guild["channels"].append(ch)
        d.fake.add_channel({**ch, "guild_id": str(d.guild_id)})
        fuzz.channels[int(ch["id"])] = (info.id, mode.id, min(mode.player_counts))
    await d.start()
    try:
        fuzz.remember(None)
        await fuzz.setup()
        await fuzz.run(COUNT)
        await d.settle()
        d.fake.assert_clean()
    finally:
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(fuzz.counts.items()))
        print(f"\nfuzz seed {SEED}: {counts}")
        await d.stop()
        if where != tmp_path:
            shutil.rmtree(where, ignore_errors=True)
    assert fuzz.counts["invalid"] > COUNT // 3 and fuzz.counts["matches started"] >= len(
        fuzz.channels
    )
