"""``/arena start file:<file>``: a group's own card values, uploaded from Discord (issue 3 item 1).

The game says which option a file fills (``OptionSpec.upload_for``); Mad Arena's
is its inline card data, validated by the game itself.
"""

from __future__ import annotations

import json
import tomllib

import discord
import pytest

from bot.engine.registry import get_game
from tests.cogs.driver import Driver


def default_toml() -> str:
    from bot.games.mad_arena.cards import DEFAULT_CARDS

    return DEFAULT_CARDS.read_text(encoding="utf-8")


@pytest.fixture
def cdn(monkeypatch: pytest.MonkeyPatch) -> dict[int, bytes]:
    """The files the fake CDN serves (the harness answers REST routes, not CDN downloads)."""
    files: dict[int, bytes] = {}

    async def read(self: discord.Attachment, *, use_cached: bool = False) -> bytes:
        if self.id not in files:
            raise discord.NotFound(_Resp(404), {"code": 0, "message": "404: Not Found"})
        return files[self.id]

    monkeypatch.setattr(discord.Attachment, "read", read)
    return files


class _Resp:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found"


def upload(d: Driver, cdn: dict[int, bytes], name: str, data: bytes, size: int | None = None):
    aid = d.snow()
    cdn[aid] = data
    url = f"https://cdn.discordapp.com/ephemeral-attachments/{d.channel_id}/{aid}/{name}"
    return {
        "id": str(aid),
        "filename": name,
        "size": len(data) if size is None else size,
        "url": url,
        "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
        "content_type": "text/plain; charset=utf-8",
        "ephemeral": True,
    }


async def test_uploaded_card_values_are_played_and_replayable(
    driver: Driver, cdn: dict[int, bytes]
) -> None:
    d = driver
    text = default_toml().replace("ranged = 1, defence = 5 }", "ranged = 1, defence = 6 }", 1)
    att = upload(d, cdn, "our-cards.toml", text.encode())
    fi = await d.slash(
        d.users[0],
        "start",
        game="mad-arena",
        mode="mad-arena:ultimate-warrior",
        attachments={"file": att},
    )
    assert "Lobby #1" in d.reply_text(fi)
    lobby = d.lobby()
    spec = get_game("mad-arena").info.upload_option()
    assert spec is not None
    assert f"{spec.names.en}: `our-cards.toml`" in lobby.text()
    assert "defence = 6" not in lobby.text(), "the file's content is not shown"
    rec = await d.bot.store.get(1)
    assert rec.options[spec.id] == text
    for u in d.users[1:4]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(d.users[0], d.fake.message(lobby.id), "Start")
    live = await d.live(1)
    assert live.match.state.card("agaric-1").defence == 6
    # The content is in the stored options: the match replays without the file.
    assert (await d.bot.store.get(1)).options[spec.id] == text
    assert await d.bot.store.check_replay(1)


async def test_json_upload_works_too(driver: Driver, cdn: dict[int, bytes]) -> None:
    d = driver
    raw = tomllib.loads(default_toml())
    raw["fighters"][0]["cards"][0]["defence"] = 6
    att = upload(d, cdn, "cards.json", json.dumps(raw).encode())
    fi = await d.slash(d.users[0], "start", game="mad-arena", attachments={"file": att})
    assert "Lobby #1" in d.reply_text(fi)
    spec = get_game("mad-arena").info.upload_option()
    assert spec is not None and (await d.bot.store.get(1)).options[spec.id].startswith("{")


async def test_malformed_file_is_refused_privately_in_french_and_opens_no_lobby(
    driver: Driver, cdn: dict[int, bytes]
) -> None:
    d = driver
    raw = tomllib.loads(default_toml())
    raw["fighters"][0]["cards"][0]["move"] = "far"
    raw["fighters"][1]["size"] = 3
    att = upload(d, cdn, "bad.json", json.dumps(raw).encode())
    fi = await d.slash(
        d.users[0], "start", game="mad-arena", locale="fr", attachments={"file": att}
    )
    [reply] = d.replies(fi)
    assert reply.ephemeral
    text = reply.text()
    assert "Désolé, je ne peux pas utiliser le fichier `bad.json`" in text
    assert "aucune salle d'attente n'a été ouverte" in text
    # The first validation errors, where and what.
    assert "fighters.0.cards.0.move" in text and "fighters.1" in text
    assert "Traceback" not in text
    assert d.public() == [], "nothing was posted in the channel"
    assert await d.bot.store.active_in_channel(d.channel_id) is None
    # Not TOML at all, nor UTF-8.
    att = upload(d, cdn, "photo.png", b"\x89PNG\r\n\x1a\n\xff\xfe")
    fi = await d.slash(d.users[0], "start", game="mad-arena", attachments={"file": att})
    assert "It is not UTF-8 text" in d.reply_text(fi)
    att = upload(d, cdn, "broken.toml", b"fighters = [")
    fi = await d.slash(d.users[0], "start", game="mad-arena", attachments={"file": att})
    assert "Invalid card file" in d.reply_text(fi) and d.public() == []


async def test_too_large_unreadable_and_unsupported_uploads(
    driver: Driver, cdn: dict[int, bytes]
) -> None:
    d = driver
    big = upload(d, cdn, "big.toml", b"x", size=65 * 1024)
    del cdn[int(big["id"])]  # over the limit: never downloaded
    fi = await d.slash(d.users[0], "start", game="mad-arena", attachments={"file": big})
    assert "`big.toml` is 65 KiB; a data file may be 64 KiB at most" in d.reply_text(fi)
    gone = upload(d, cdn, "gone.toml", b"")
    del cdn[int(gone["id"])]
    fi = await d.slash(d.users[0], "start", game="mad-arena", attachments={"file": gone})
    assert "could not download `gone.toml`" in d.reply_text(fi)
    att = upload(d, cdn, "cards.toml", default_toml().encode())
    fi = await d.slash(
        d.users[0], "start", game="test-pick", locale="fr", attachments={"file": att}
    )
    assert "ne prend pas de fichier de données" in d.reply_text(fi)
    assert d.public() == [] and await d.bot.store.active_in_channel(d.channel_id) is None


def test_the_file_option_is_a_localised_attachment(driver: Driver) -> None:
    cmd = driver.fake.command("arena", driver.guild_id)
    start = next(o for o in cmd["options"] if o["name"] == "start")
    upload = next(o for o in start["options"] if o["name"] == "file")
    assert upload["type"] == 11 and not upload.get("required")
    assert upload["name_localizations"]["fr"] == "fichier"
    assert "64 Kio" in upload["description_localizations"]["fr"]
