"""Secrets stay secret in everything the bot sends (developers' guide, "Secrets stay secret").

Whole Mad Arena matches are played through interactions only; after every
interaction a :class:`SecrecyChecker` looks at the live state and at what
left the bot during that interaction (every REST call the fake Discord
recorded, and every log record at DEBUG, discord.py's included) and fails if:

- a public payload (a channel message, a non-ephemeral interaction response
  or an edit of a public message: content, embeds, components, attachment
  names) or a log record names a card that is still secret: a fighter's
  unrevealed pick or a card in a hand (by id, by label, or by its values
  string when no other card shares it), or holds the text of a private
  event (``visible_to`` set: "you chose X");
- a public custom_id is anything but ``am:<id>:<action>:<version>[:<arg>]``;
- a public PNG is not an image rendered by ``Match.render(seat=None)``, i.e.
  from ``Game.view(state, None)``; the public view itself holds no secret id;
- the bot token appears in any log record.

Only what was sent *during* an interaction is compared with the secrets
*after* it: a card revealed rounds ago goes back to its owner's hand at a
refill, and the old post that revealed it is history, not a leak.
The ultimate-warrior match runs in a French guild, team spirit in English.
The negative tests plant leaks and check that the detector catches them.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.app import ArenaBot
from bot.engine import Decision, Match, Option
from bot.engine.registry import get_game
from bot.games.mad_arena.combat import is_dragon
from bot.games.mad_arena.labels import card_label, card_stats
from bot.games.mad_arena.labels import stats_text as card_values
from bot.games.mad_arena.state import MAState
from bot.gm import posting, present
from bot.gm.ids import Hand, LobbyButton, parse
from bot.gm.msg import Button, TextBlock
from bot.gm.prompts import stats_text as option_values
from bot.i18n import t
from tests.cogs.driver import Driver
from tests.harness.fake_discord import Call

MAD_ARENA = get_game("mad-arena").info
TOKEN = "SECRET-TOKEN.Zm9vYmFy.arena-master-never-logs-me"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


class Leak(AssertionError):
    """Something secret reached a public place."""


def walk_custom_ids(obj: Any) -> Iterator[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "custom_id" and isinstance(v, str):
                yield v
            else:
                yield from walk_custom_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk_custom_ids(v)


SCORES = re.compile(r"Points ?: [^.\n]*\.")
"""The end-of-game points line (``Points: Cactus 3, Bonzaï 0.``), where a fighter's name and a
number are a score, not a card: blanked before looking for card labels."""


def label_pattern(label: str) -> re.Pattern[str]:
    """A card label as a word: ``Cactus 2`` but not the HP line ``Cactus 2 -> 1``."""
    return re.compile(r"(?<![\w])" + re.escape(label) + r"(?![\w])(?!\s*->)")


def find_secret(terms: list[tuple[str, re.Pattern[str]]], text: str) -> tuple[str, str] | None:
    """The first secret term found in ``text``: (what, pattern)."""
    scrubbed = SCORES.sub("Points: -.", text)
    for what, pat in terms:
        if pat.search(scrubbed):
            return what, pat.pattern
    return None


def secret_cards(state: MAState) -> dict[str, str]:
    """card id -> why it is secret: unrevealed picks and cards in hand (not public elsewhere)."""
    public: set[str] = set()
    for f in state.fighters:
        public.update(f.discard)
        public.update(f.removed)
        if f.in_play:
            public.add(f.in_play)
        public.update(t.card for t in f.trophies if t.card)
    out: dict[str, str] = {}
    for f in state.fighters:
        if is_dragon(state, f.id):
            continue  # its one card is always in play, face up (Règles spéciales du dragon)
        for c in f.hand:
            if c not in public:
                out[c] = f"in {f.id}'s hand"
        if f.pick and f.pick not in public:
            out[f.pick] = f"{f.id}'s unrevealed pick"
    return out


def value_strings(state: MAState, cid: str) -> set[str]:
    """Every way the bot writes a card's values (reveal line, button label, prompt line)."""
    card = state.card(cid)
    fid = card.fighter
    out: set[str] = set()
    for next_play in (True, False):
        stats = card_stats(state, cid, fid, next_play)
        text = card_values(stats)
        out |= {text.fr, text.en}
        opt = Option(id=cid, label=card_label(state, cid), stats=stats)
        out |= {
            option_values(opt, lang, compact=c, info=MAD_ARENA)
            for lang in ("fr", "en")
            for c in (True, False)
        }
    return out


def secret_terms(state: MAState) -> list[tuple[str, re.Pattern[str]]]:
    """(what, pattern) for every secret card: its id, its labels, its distinguishing values."""
    secrets = secret_cards(state)
    owners: dict[str, list[str]] = {}
    for f in state.fighters:  # the cards of this match's fighters (the dragon's too)
        for card in state.data(f.id).cards:
            for s in value_strings(state, card.id):
                owners.setdefault(s, []).append(card.id)
    terms: list[tuple[str, re.Pattern[str]]] = []
    for cid, why in secrets.items():
        what = f"{cid} ({why})"
        terms.append((what, re.compile(r"(?<![\w-])" + re.escape(cid) + r"(?![\w-])", re.I)))
        label = card_label(state, cid)
        for text in {label.fr, label.en}:
            terms.append((what, label_pattern(text)))
        for s in value_strings(state, cid):
            if set(owners[s]) == {cid}:
                terms.append((what, re.compile(re.escape(s))))
    return terms


def private_texts(match: Match) -> list[str]:
    """The texts of the events only some seats see (``visible_to`` set), in both languages."""
    out: set[str] = set()
    for e in match.events:
        text = getattr(e, "text", None)
        if e.visible_to is not None and text is not None:
            out |= {text.fr, text.en}
    return sorted(out)


class SecrecyChecker:
    """Checks what left the bot since the last check against the secrets of the live match."""

    def __init__(self, d: SecretDriver, caplog: pytest.LogCaptureFixture) -> None:
        self.d = d
        self.caplog = caplog
        self.seen_calls = 0
        self.seen_records = 0
        self.public_pngs: set[bytes] = set()
        self.render_seats: list[int | None] = []
        self.seat_pngs: dict[bytes, set[int]] = {}
        """Images drawn from one seat's own view (its prompts' board), by the seats drawn for."""
        self.seat_users: dict[int, int | None] = {}
        self.seat_images_sent = 0
        self.mid: int | None = None
        self.checks = 0
        self.public_payloads = 0
        self.terms_checked = 0
        self.private_checked = 0
        self.value_terms = 0

    # --- the render spy ----------------------------------------------------------------
    def spy_render(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = Match.render
        checker = self

        def render(
            match: Match, seat: int | None = None, lang: str = "en", decision: Any = None
        ) -> bytes:
            data = original(match, seat, lang, decision)
            checker.render_seats.append(seat)
            if seat is None:
                checker.public_pngs.add(data)
            else:
                checker.seat_pngs.setdefault(data, set()).add(seat)
            return data

        monkeypatch.setattr(Match, "render", render)

    # --- where a call went -------------------------------------------------------------
    def is_dm(self, channel_id: int) -> bool:
        return channel_id in self.d.fake.dm_channels.values()

    def call_is_public(self, call: Call) -> bool:
        """Whether what this call sent can be seen by anyone but its addressee."""
        fake = self.d.fake
        body = call.json if isinstance(call.json, dict) else {}
        if call.route_template == CALLBACK:
            fi = fake.interaction(call.path.split("/")[2])
            kind = body.get("type")
            if kind in (4, 5):
                flags = (body.get("data") or {}).get("flags") or 0
                return not flags & 64 and not self.is_dm(fi.channel_id)
            if kind == 7:
                clicked = fake.messages.get(fi.message_id or 0)
                return clicked is None or not (clicked.ephemeral or self.is_dm(clicked.channel_id))
            return False  # 6 (no message), 8 (autocomplete), 9 (a modal for one user)
        message_id = None
        if isinstance(call.response, dict) and "id" in call.response:
            message_id = int(call.response["id"])
        else:
            m = re.search(r"/messages/([0-9]+)$", call.path)
            if m:
                message_id = int(m[1])
            elif call.path.endswith("/messages/@original"):
                token = call.path.split("/")[3]
                fi = next((i for i in fake.interactions.values() if i.token == token), None)
                message_id = fi.original_message_id if fi else None
        msg = fake.messages.get(message_id or 0)
        if msg is not None:
            return not (msg.ephemeral or self.is_dm(msg.channel_id))
        m = re.match(r"^/channels/([0-9]+)/", call.path)
        if m:
            return not self.is_dm(int(m[1]))
        flags = body.get("flags") or 0
        return not flags & 64  # unknown target: public unless flagged ephemeral

    def addressee(self, call: Call) -> int | None:
        """The one user who sees what a private call sent (its ephemeral or DM message)."""
        fake = self.d.fake
        message_id = None
        if call.route_template == CALLBACK:
            # The message the answer created (4, 5) or edited (7): the interaction's
            # original response.
            message_id = fake.interaction(call.path.split("/")[2]).original_message_id
        elif isinstance(call.response, dict) and "id" in call.response:
            message_id = int(call.response["id"])
        elif call.path.endswith("/messages/@original"):
            token = call.path.split("/")[3]
            fi = next((i for i in fake.interactions.values() if i.token == token), None)
            message_id = fi.original_message_id if fi else None
        else:
            m = re.search(r"/messages/([0-9]+)$", call.path)
            message_id = int(m[1]) if m else None
        msg = fake.messages.get(message_id or 0)
        if msg is None:
            return None
        if msg.ephemeral:
            return msg.ephemeral_for
        return next((u for u, c in fake.dm_channels.items() if c == msg.channel_id), None)

    def check_seat_images(self, call: Call) -> None:
        """A seat's own board goes privately to that seat's player only."""
        for name, _, data in call.files:
            seats = self.seat_pngs.get(data)
            if not name.endswith(".png") or seats is None or data in self.public_pngs:
                continue
            user = self.addressee(call)
            if user is None or all(self.seat_users.get(s) != user for s in seats):
                raise Leak(f"the board of seat(s) {sorted(seats)} went to user {user}: {call!r}")
            self.seat_images_sent += 1

    # --- the checks ----------------------------------------------------------------------
    async def state(self) -> Match | None:
        assert self.mid is not None and self.d.bot is not None
        live = await self.d.live(self.mid)
        if live is not None and live.match is not None:
            return live.match
        if (await self.d.bot.store.get(self.mid)) is None:
            return None
        return await self.d.bot.store.replay_match(self.mid)

    async def check(self) -> None:
        match = await self.state() if self.mid is not None else None
        terms = secret_terms(match.state) if match is not None else []
        self.terms_checked += len(terms)
        self.value_terms += sum(1 for _, p in terms if "⚡" in p.pattern or "·" in p.pattern)
        private = private_texts(match) if match is not None else []
        if match is not None:
            self.seat_users = {i: s.user_id for i, s in enumerate(match.seats)}
        self.private_checked = max(self.private_checked, len(private))
        self.check_calls(terms, private, live=match is not None and not match.over)
        self.check_logs(terms, private)
        if match is not None:
            self.check_public_view(match, terms)
        self.checks += 1

    def check_calls(
        self,
        terms: list[tuple[str, re.Pattern[str]]],
        private: Sequence[str] = (),
        *,
        live: bool = True,
    ) -> None:
        calls = self.d.fake.calls[self.seen_calls :]
        self.seen_calls = len(self.d.fake.calls)
        for call in calls:
            if call.json is None and not call.files:
                continue
            if not self.call_is_public(call):
                self.check_seat_images(call)
                continue
            self.public_payloads += 1
            text = json.dumps(call.json, ensure_ascii=False) + "\n".join(
                n for n, _, _ in call.files
            )
            found = find_secret(terms, text)
            if found:
                raise Leak(f"{found[0]} in public {call!r}: {found[1]!r} in {text[:3000]}")
            # A private event's text (the "you chose X" line) is never public; nor in a
            # text attachment while the match runs (the final log holds every event by design).
            files = [
                d.decode("utf-8", "replace") for n, _, d in call.files if live and n[-4:] != ".png"
            ]
            for line in private:
                if any(line in x for x in [text, *files]):
                    raise Leak(f"private event {line!r} in public {call!r}")
            for custom_id in walk_custom_ids(call.json):
                # Public ids are lobby or board ids: no argument, so nothing private.
                c = parse(custom_id)
                if not isinstance(c, (LobbyButton, Hand)) or c.arg is not None:
                    raise Leak(f"public custom_id {custom_id!r} is not a lobby or board id")
            for name, _, data in call.files:
                if name.endswith(".png") and data not in self.public_pngs:
                    raise Leak(f"public image {name} was not rendered from view(state, None)")

    def check_logs(
        self,
        terms: list[tuple[str, re.Pattern[str]]],
        private: Sequence[str] = (),
    ) -> None:
        records = self.caplog.records[self.seen_records :]
        self.seen_records = len(self.caplog.records)
        formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
        for record in records:
            text = formatter.format(record)
            if TOKEN in text or TOKEN in repr(record.args):
                raise Leak(f"the bot token was logged by {record.name}: {text[:300]}")
            found = find_secret(terms, text)
            if found:
                raise Leak(f"{found[0]} logged by {record.name}: {text[:300]}")
            for line in private:
                if line in text:
                    raise Leak(f"private event {line!r} logged by {record.name}")

    def check_public_view(self, match: Match, terms: list[tuple[str, re.Pattern[str]]]) -> None:
        view = json.dumps(match.view(None).model_dump(mode="json"), ensure_ascii=False)
        for cid in secret_cards(match.state):
            if f'"{cid}"' in view:
                raise Leak(f"{cid} in view(state, None)")


class SecretDriver(Driver):
    """The driver with a recognisable token, checking secrecy after every interaction."""

    checker: SecrecyChecker | None = None

    token = TOKEN

    async def start(self) -> ArenaBot:
        bot = await super().start()
        assert bot.http.token == TOKEN  # the token the bot was given is the one we look for
        return bot

    def word(self, key: str, **kw: Any) -> str:
        """A catalogue string in the guild's language (public messages use it)."""
        return t("fr" if self.guild_locale.startswith("fr") else "en", key, **kw)

    async def answer(
        self, user: dict[str, Any], decision: Decision, option_id: str, **kw: Any
    ) -> Any:
        """The public board's button (in any language), then the private prompt."""
        board = self.round_message()
        button = next(c for c in self.fake.components(board) if ":hand:" in c["custom_id"])
        fi = await self.click(user, board, button["custom_id"])
        prompt = self.prompt_for(self.replies(fi), decision)
        return await self.choose_in(user, prompt, decision, option_id)

    async def dispatch(self, payload: dict[str, Any]) -> Any:
        fi = await super().dispatch(payload)
        if self.checker is not None:
            await self.checker.check()
        return fi


@pytest.fixture
async def sd(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> Any:
    """A driver whose checker runs after every interaction (``param``: the guild locale)."""
    caplog.set_level(logging.DEBUG)  # root: every logger, discord.py's and ours
    for name in ("discord", "bot", "cogs"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    d = SecretDriver(tmp_path, guild_locale=getattr(request, "param", "en-US"))
    checker = SecrecyChecker(d, caplog)
    checker.spy_render(monkeypatch)
    d.checker = checker
    async with d.running():
        yield d
    checker.check_logs([])  # shutdown logs: the token still never appears


async def open_match(d: SecretDriver, users: list[dict[str, Any]], mode: str) -> int:
    host = users[0]
    await d.slash(host, "start", game="mad-arena", mode=f"mad-arena:{mode}")
    lobby = d.lobby()
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), d.word("lobby.join"))
    await d.press(host, d.fake.message(lobby.id), d.word("lobby.start"))
    mid = int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1])
    assert d.checker is not None
    d.checker.mid = mid
    await d.checker.check()
    return mid


async def play(d: SecretDriver, users: int, mode: str, seed: int) -> SecrecyChecker:
    mid = await open_match(d, d.users[:users], mode)
    n = await d.play_out(mid, random.Random(seed))
    assert n > 8
    assert d.word("end.title", game="Mad Arena", mid=mid) in d.public()[-1].text()
    checker = d.checker
    assert checker is not None
    assert checker.public_pngs and checker.render_seats
    # Each private prompt carried its seat's own board, and only to that seat's player.
    assert any(s is not None for s in checker.render_seats) and checker.seat_images_sent > 8
    # discord.py's DEBUG records were captured (and checked).
    assert any(r.name.startswith("discord.") for r in checker.caplog.records)
    # The detector had secrets to look for, values strings among them.
    assert checker.terms_checked > 100 and checker.value_terms > 10
    assert checker.private_checked > 8  # the "you chose X" lines
    return checker


@pytest.mark.parametrize("sd", ["fr"], indirect=True)  # French public texts
async def test_ultimate_warrior_four_users_keep_picks_and_hands_secret(sd: SecretDriver) -> None:
    checker = await play(sd, 4, "ultimate-warrior", 11)
    assert checker.checks > 20 and checker.public_payloads > 20


async def test_team_spirit_two_users_keep_picks_and_hands_secret(sd: SecretDriver) -> None:
    checker = await play(sd, 2, "team-spirit", 12)
    assert checker.checks > 20 and checker.public_payloads > 20


# --- the detector can fail ------------------------------------------------------------------
async def test_a_private_event_made_public_is_caught(
    sd: SecretDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plant a leak: the step log also prints private events (the "you chose X" line)."""
    monkeypatch.setattr(
        present, "log_lines", lambda events, lang: [e.text.get(lang) for e in events]
    )
    with pytest.raises(Leak, match="unrevealed pick"):
        await play(sd, 2, "team-spirit", 12)
    sd.checker = None


@pytest.mark.parametrize("where", ["footer", "label"])
async def test_a_hand_on_the_public_board_is_caught(
    sd: SecretDriver, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Plant a leak: the live table shows a card of a pending pick (still in hand)."""
    original = posting.table_msg

    def leaky(
        mid: int, match: Match, label: int, pending: list[Decision], *a: Any, **kw: Any
    ) -> Any:
        msg = original(mid, match, label, pending, *a, **kw)
        picks = [d for d in pending if d.secret]
        if picks and msg.rows:
            card = picks[0].options[-1].label.en
            if where == "footer":
                msg.layout[-1] = TextBlock(f"{msg.layout[-1].text} {card}")
            else:
                extra = Button(card, f"am:{mid}:hand:{match.version}:1", disabled=True)
                msg.rows.append([extra])
        return msg

    monkeypatch.setattr(posting, "table_msg", leaky)
    with pytest.raises(Leak, match="hand"):
        await play(sd, 2, "team-spirit", 12)
    sd.checker = None


async def test_planted_log_custom_id_and_image_leaks_are_caught(sd: SecretDriver) -> None:
    """Plant each kind of leak by hand next to a real match: every one is caught."""
    checker = sd.checker
    assert checker is not None
    mid = await open_match(sd, sd.users[:2], "team-spirit")
    match = await checker.state()
    assert match is not None
    state: MAState = match.state
    fighter = next(f for f in state.fighters if f.hand)
    card = fighter.hand[0]
    terms = secret_terms(state)
    label = card_label(state, card).en
    # A log line naming a card in hand, by id, by label, by its values.
    for text in (f"choice {card}", f"picked {label}", next(iter(value_strings(state, card)))):
        with pytest.raises(Leak):
            logging.getLogger("bot.gm.play").debug("%s", text)
            checker.check_logs(terms)
    # The same label in an HP line is not a card.
    logging.getLogger("bot.gm.play").debug("%s", f"{label} -> 1 HP")
    checker.check_logs(terms)
    # The token in a log record.
    with pytest.raises(Leak, match="token"):
        logging.getLogger("discord.client").debug("logging in using static token %s", TOKEN)
        checker.check_logs([])
    # A public post (channel message) with a secret in a custom_id, a label, an image.
    channel = f"/channels/{sd.channel_id}/messages"
    planted: list[dict[str, Any]] = [
        {"components": [{"type": 1, "components": [{"custom_id": f"am:{mid}:pick:1:{card}"}]}]},
        {"components": [{"type": 1, "components": [{"custom_id": f"am:{mid}:hand:1:x.2"}]}]},
        {"components": [{"type": 1, "components": [{"custom_id": "pick-ann"}]}]},
        {"content": f"{fighter.id} plays {label}"},
    ]
    for body in planted:
        sd.fake.calls.append(
            Call(seq=-1, via="http", method="POST", route_template="", path=channel, json=body)
        )
        with pytest.raises(Leak):
            checker.check_calls(terms)
    # An image drawn from the owner's view with the hidden card face up in play.
    own = match.game.view(state, fighter.seat)
    mine = next(x for x in own.fighters if x.id == fighter.id)
    assert mine.hand
    mine.in_play = mine.hand[0]
    private_png = match.game.render(own, "en")
    sd.fake.calls.append(
        Call(
            seq=-1,
            via="http",
            method="POST",
            route_template="",
            path=channel,
            json={"content": "board"},
            files=[("board.png", len(private_png), private_png)],
        )
    )
    with pytest.raises(Leak, match="view"):
        checker.check_calls(terms)
    # A private event's text in a public message, or in a text file while the match runs.
    secret_line = "🤫 You chose Cactus 2 for Cactus."
    for body, files in (
        ({"content": secret_line}, []),
        ({}, [("log.md", 1, secret_line.encode())]),
    ):
        sd.fake.calls.append(
            Call(
                seq=-1,
                via="http",
                method="POST",
                route_template="",
                path=channel,
                json=body,
                files=files,
            )
        )
        with pytest.raises(Leak, match="private event"):
            checker.check_calls([], [secret_line])
    with pytest.raises(Leak, match="private event"):
        logging.getLogger("cogs.arena").info("%s", secret_line)
        checker.check_logs([], [secret_line])
    # The same kinds of payload are fine in a private (ephemeral) answer.
    fi = await sd.press(
        fighter_user(sd, match, fighter.seat), sd.round_message(), "Make your choice"
    )
    assert any(label in m.text() or "·" in str(m.components) for m in sd.replies(fi))
    # That seat's own board (its hand drawn face up) in another player's private message.
    seat_png = private_png
    checker.seat_pngs[seat_png] = {fighter.seat}
    owner = match.seats[fighter.seat].user_id
    other = next(u for u in sd.users[:2] if sd.uid(u) != owner)
    fi = await sd.press(other, sd.round_message(), "Make your choice")
    theirs = sd.replies(fi)[-1]
    assert theirs.ephemeral_for == sd.uid(other)
    sd.fake.calls.append(
        Call(
            seq=-1,
            via="webhook",
            method="PATCH",
            route_template="",
            path=f"/webhooks/{sd.app_id}/token/messages/{theirs.id}",
            json={"content": "board"},
            files=[("board.png", len(seat_png), seat_png)],
        )
    )
    with pytest.raises(Leak, match="board of seat"):
        checker.check_calls(terms)
    sd.checker = None


def fighter_user(d: SecretDriver, match: Match, seat: int) -> dict[str, Any]:
    return d.user_by_id(match.seats[seat].user_id)  # type: ignore[arg-type]


def test_loggers_that_print_payloads_are_capped_at_info() -> None:
    """discord.py's HTTP/webhook DEBUG lines carry private prompts; aiosqlite's carry snapshots."""
    import logging

    import bot.app

    for name in bot.app.SECRET_BEARING_LOGGERS:
        assert logging.getLogger(name).getEffectiveLevel() >= logging.INFO, name
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
