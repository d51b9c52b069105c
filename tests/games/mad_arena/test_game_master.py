"""A whole Team Spirit match through the game master (what the Discord layer runs, minus discord).

One user runs three fighters: their private prompts come several at once,
each naming its fighter; they answer with the prompt buttons (custom ids
with the drawn version); the channel gets images and dice logs at
checkpoints, never a secret pick.
"""

from __future__ import annotations

from pathlib import Path

import bot.games.mad_arena  # noqa: F401
from bot.gm import Actor, DmResult, GameMaster, ManualClock, Msg
from bot.gm.ids import parse
from bot.gm.msg import Button
from bot.store import Store

GUILD = 10
CHANNEL = 20


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

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        return None

    async def retire(self, channel_id: int, message_id: int) -> bool:
        return False


def _buttons(msg: Msg) -> list[Button]:
    return [b for row in msg.rows if isinstance(row, list) for b in row]


def _action(button: Button) -> str | None:
    """What a button does, from its custom id (None: not one of ours)."""
    c = parse(button.custom_id)
    return c.action if c is not None else None


def _text(msg: Msg) -> str:
    return msg.text()


async def test_team_spirit_match_with_one_user_running_three_fighters(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "arena.sqlite3")
    pub = Publisher()
    gm = GameMaster(store, pub, ManualClock())
    ann = Actor(user_id=1, name="Ann", lang="fr")
    try:
        await gm.open_lobby(
            ann,
            guild_id=GUILD,
            channel_id=CHANNEL,
            guild_locale="fr",
            game_id="mad-arena",
            mode="team-spirit",
        )
        live = await gm.live_in(CHANNEL)
        assert live is not None
        mid = live.mid
        await gm.lobby_action(mid, "addai", ann)
        await gm.lobby_action(mid, "start", ann)
        live = await gm.live_in(CHANNEL)
        assert live is not None and live.match is not None
        match = live.match
        mine = {f.name for f in match.game.view(match.state, 0).fighters if f.seat == 0}
        assert len(mine) == 3
        most_at_once = 0
        for _ in range(2000):
            if match.over:
                break
            reply = await gm.hand(mid, ann)
            prompts = [m for m in reply.private if m.rows]
            assert prompts, [m.content for m in reply.private]
            most_at_once = max(most_at_once, len(prompts))
            for p in prompts:
                assert any(name in (p.content or "") for name in mine)
            prompt = prompts[0]
            for _depth in range(3):
                buttons = _buttons(prompt)
                picks = [b for b in buttons if _action(b) == "pick"]
                target = (picks or [b for b in buttons if _action(b) == "grp"])[0]
                c = parse(target.custom_id)
                assert c is not None
                out = await gm.component(mid, c.action, c.ver, c.arg, ann)
                if c.action == "pick":
                    break
                assert out.update is not None
                prompt = out.update
        assert match.over and most_at_once == 3
        public = "\n".join(_text(m) for m in pub.sent)
        assert "🤫" not in public  # the private "you chose" events stay private
        assert "a choisi sa carte" in public and "révèle" in public and "PV" in public
        images = [f for m in pub.sent for f in m.files if f.filename.endswith(".png")]
        assert images and all(f.data[:4] == b"\x89PNG" for f in images)
        rec = await store.get(mid)
        assert rec is not None and rec.status == "finished"
    finally:
        await store.close()
