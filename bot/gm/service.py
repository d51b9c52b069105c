"""The game master service: matches, locks, decisions, AI seats and timers.

One :class:`asyncio.Lock` per match serialises every change; each decision is
applied with the version its button was drawn for (the engine refuses stale
ones) and committed in one store transaction, so a double click or two
concurrent clicks apply a decision exactly once. AI thinking and rendering run
in worker threads. Deadlines live in the store, so timers survive a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.engine import Choice, Decision, IllegalDecision, Match, SeatSpec, StaleDecision
from bot.engine.dice import new_seed
from bot.engine.events import AnyEvent
from bot.engine.log import markdown_log
from bot.engine.registry import all_games, get_game
from bot.engine.text import lang_of
from bot.gm import present
from bot.gm import timers as tm
from bot.gm.clock import Clock, SystemClock
from bot.gm.ids import key_tag
from bot.gm.msg import CONTENT_MAX, Actor, Attachment, Embed, Msg, Reply, Upload, clip
from bot.gm.prompts import decision_msg
from bot.gm.publisher import DmResult, Publisher
from bot.i18n import t
from bot.store.records import MatchRecord, StoreConflict

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)

ACTIVE = ("lobby", "live")
CARD_DATA = "card_data"
"""The inline twin of a game's ``cards`` file option: the uploaded file's content."""
UPLOAD_MAX = 64 * 1024
MAX_AI_STEPS = 10_000


@dataclass
class Live:
    """What the game master keeps in memory about an active match."""

    rec: MatchRecord
    match: Match | None = None
    round_keys: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    """Decisions of the current round board: key -> (seat, subject)."""
    deadlines: dict[str, float] = field(default_factory=dict)
    batch: list[AnyEvent] = field(default_factory=list)
    """Events since the last public step post."""
    batch_round: int | None = None
    """The round the first event of ``batch`` happened in (the step's title)."""
    board_fresh: bool = False
    """The round board is the last thing posted (no step since)."""
    board_who: set[tuple[int, str | None]] = field(default_factory=set)
    """(seat, subject) asked on the round board when it was posted."""
    timers: dict[str, int] = field(default_factory=lambda: dict(tm.DEFAULTS))
    """Deadline seconds by ``Decision.timing`` for this match."""

    @property
    def mid(self) -> int:
        return self.rec.id

    @property
    def target(self) -> int:
        """Where the match is played: its thread, else its channel."""
        return self.rec.thread_id or self.rec.channel_id

    @property
    def lang(self) -> str:
        return lang_of(self.rec.locale)


class GameMaster:
    def __init__(self, store: Store, publisher: Publisher, clock: Clock | None = None) -> None:
        self.store = store
        self.publisher = publisher
        self.clock = clock or SystemClock()
        self._live: dict[int, Live] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._channel_locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def lock(self, mid: int) -> asyncio.Lock:
        return self._locks[mid]

    # --- loading -------------------------------------------------------------------
    async def _get(self, mid: int) -> Live | None:
        live = self._live.get(mid)
        if live is not None:
            return live
        rec = await self.store.get(mid)
        if rec is None or rec.status not in ACTIVE:
            return None
        live = Live(rec)
        if rec.status == "live":
            live.match = await self.store.load_match(mid)
            self._rebuild_round(live)
            live.deadlines = {d.key: d.due_at for d in await self.store.deadlines(mid)}
            live.timers = await self._load_timers(mid)
        self._live[mid] = live
        return live

    # Once a match starts, the store's ``options`` column holds the game's effective
    # options only (what a replay needs); the table's own settings (deadlines) are the
    # match's ``settings`` in the store, which ``start_match`` keeps.
    async def _save_timers(self, mid: int, timers: dict[str, int]) -> None:
        settings = await self.store.match_settings(mid)
        settings[tm.SETTINGS_KEY] = {k: int(v) for k, v in timers.items()}
        await self.store.set_match_settings(mid, settings)

    async def _load_timers(self, mid: int) -> dict[str, int]:
        saved = (await self.store.match_settings(mid)).get(tm.SETTINGS_KEY) or {}
        out = dict(tm.DEFAULTS)
        out.update({k: int(v) for k, v in saved.items() if k in out})
        return out

    @staticmethod
    def _rebuild_round(live: Live) -> None:
        """After a restart: the round board is what is pending plus what was answered since."""
        match = live.match
        assert match is not None
        pending = match.pending()
        if not pending:
            return
        start = min(match.pending_since.get(d.key, match.version) for d in pending)
        keys: dict[str, tuple[int, str | None]] = {}
        for c in match.choices[start:]:
            keys[c.key] = (c.seat, None)
        for d in pending:
            keys[d.key] = (d.seat, d.subject)
        live.round_keys = keys

    async def recover(self) -> None:
        """On start: reload live matches, let AI seats catch up, restore timers."""
        for rec in await self.store.active_matches():
            async with self.lock(rec.id):
                self._live.pop(rec.id, None)
                try:
                    live = await self._get(rec.id)
                    if live is not None and live.match is not None:
                        await self._advance(live, post_round=False)
                except Exception:
                    # One broken match (a game no longer installed...) must not stop the others.
                    log.exception("could not resume match %s", rec.id)
                    self._live.pop(rec.id, None)

    async def _here(self, channel_id: int, user_id: int) -> MatchRecord | None:
        """The match a command typed in ``channel_id`` is about.

        The channel's (or thread's) own match; else, in thread mode, the one
        match of this parent channel where the user is seated.
        """
        rec = await self.store.active_in_channel(channel_id)
        if rec is not None:
            return rec
        mine = [
            r
            for r in await self.store.active_matches()
            if r.channel_id == channel_id and any(s.user_id == user_id for s in r.seats)
        ]
        if len(mine) > 1:
            mine = [r for r in mine if r.status == "live"]
        return mine[0] if len(mine) == 1 else None

    async def live_in(self, channel_id: int) -> Live | None:
        rec = await self.store.active_in_channel(channel_id)
        if rec is None:
            return None
        return await self._get(rec.id)

    # --- lobby ---------------------------------------------------------------------
    async def open_lobby(
        self,
        actor: Actor,
        *,
        guild_id: int,
        channel_id: int,
        guild_locale: str | None,
        game_id: str,
        mode: str | None,
        ai_level: str | None = None,
        cards: Upload | None = None,
    ) -> Reply:
        # Two /arena start at once in one channel must not both find it free.
        async with self._channel_locks[channel_id]:
            return await self._open_lobby(
                actor,
                guild_id=guild_id,
                channel_id=channel_id,
                guild_locale=guild_locale,
                game_id=game_id,
                mode=mode,
                ai_level=ai_level,
                cards=cards,
            )

    async def _open_lobby(
        self,
        actor: Actor,
        *,
        guild_id: int,
        channel_id: int,
        guild_locale: str | None,
        game_id: str,
        mode: str | None,
        ai_level: str | None,
        cards: Upload | None = None,
    ) -> Reply:
        lang = actor.lang
        try:
            info = get_game(game_id).info
        except KeyError:
            names = ", ".join(g.id for g in all_games())
            return Reply.say(t(lang, "err.unknown_game", game=game_id, games=names))
        try:
            mode_info = info.mode(mode or None)
        except KeyError:
            names = ", ".join(m.id for m in info.modes)
            return Reply.say(t(lang, "err.unknown_mode", mode=mode, modes=names))
        options: dict[str, Any] = info.default_options()
        if ai_level:
            levels = [lv[0] for lv in present.ai_levels(info)]
            if ai_level not in levels:
                return Reply.say(
                    t(lang, "err.unknown_level", level=ai_level, levels=", ".join(levels) or "—")
                )
            self._set_option(info, options, [], f"lv:{ai_level}")
        if cards is not None:
            refusal = await self._load_upload(info, mode_info.id, options, cards, lang)
            if refusal is not None:
                return refusal
        settings = await self.store.guild_settings(guild_id)
        locale = settings.locale or guild_locale or "en"
        mlang = lang_of(locale)
        thread_id: int | None = None
        note = ""
        if settings.use_threads:
            thread_id = await self.publisher.create_thread(
                channel_id, f"{info.names.get(mlang)} — {actor.name}"[:100]
            )
            if thread_id is None:
                note = "\n" + t(lang, "lobby.no_thread")
        if thread_id is None:
            existing = await self.store.active_in_channel(channel_id)
            if existing is not None:
                return Reply.say(t(lang, "err.busy", mid=existing.id))
        mid = await self.store.create_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            host_id=actor.user_id,
            game=info.id,
            mode=mode_info.id,
            options=options,
            locale=locale,
        )
        seats = [SeatSpec(name=actor.name, user_id=actor.user_id)]
        await self.store.update_lobby(mid, seats=seats)
        rec = await self.store.get(mid)
        assert rec is not None
        live = Live(rec)
        self._live[mid] = live
        msg = present.lobby_msg(mid, rec.game, rec.mode, rec.options, rec.seats, rec.host_id, mlang)
        await self._post(live, msg, role="lobby")
        where = f"<#{live.target}>"
        return Reply.say(t(lang, "lobby.opened", mid=mid, where=where) + note)

    async def _load_upload(
        self, info: Any, mode: str, options: dict[str, Any], upload: Upload, lang: str
    ) -> Reply | None:
        """Put an uploaded card file's CONTENT in the options (a replay needs nothing else).

        Only for games with a ``cards`` file option and its inline twin ``card_data``.
        The game itself validates it, by setting up a throwaway match with AI seats:
        a bad file is refused, with the game's first errors, before any lobby exists.
        """
        ids = {spec.id for spec in info.options}
        if not {"cards", CARD_DATA} <= ids:
            return Reply.say(t(lang, "err.upload_unsupported", game=info.names.get(lang)))
        if upload.size > UPLOAD_MAX or (upload.data is not None and len(upload.data) > UPLOAD_MAX):
            return Reply.say(
                t(
                    lang,
                    "err.upload_too_big",
                    name=upload.filename,
                    size=-(-upload.size // 1024),
                    max=UPLOAD_MAX // 1024,
                )
            )
        if upload.data is None:
            return Reply.say(t(lang, "err.upload_unreadable", name=upload.filename))
        try:
            text = upload.data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return Reply.say(
                t(lang, "err.upload_invalid", name=upload.filename, errors=t(lang, "err.not_text"))
            )
        trial = {**present.game_options(options), CARD_DATA: text}
        count = min(info.mode(mode).player_counts)
        seats = [SeatSpec(name=f"AI {i + 1}", ai=True) for i in range(count)]
        try:
            await asyncio.to_thread(Match.create, info.id, seats, "upload-check", mode, trial)
        except IllegalDecision as exc:
            return Reply.say(
                t(lang, "err.upload_invalid", name=upload.filename, errors=exc.reason.get(lang))
            )
        options[CARD_DATA] = text
        options[present.CARDS_NAME_KEY] = upload.filename[:100]
        return None

    async def lobby_action(
        self, mid: int, action: str, actor: Actor, value: str | None = None
    ) -> Reply:
        async with self.lock(mid):
            live = await self._get(mid)
            lang = actor.lang
            if live is None:
                return Reply.say(t(lang, "err.no_match"))
            rec = live.rec
            if rec.status != "lobby":
                return Reply.say(t(lang, "err.started"))
            host = actor.user_id == rec.host_id
            info = get_game(rec.game).info
            counts = info.mode(rec.mode).player_counts
            seats = list(rec.seats)
            options = dict(rec.options)
            mode = rec.mode
            if action == "join":
                if any(s.user_id == actor.user_id for s in seats):
                    return Reply.say(t(lang, "err.already_seated"))
                if len(seats) >= max(counts):
                    return Reply.say(t(lang, "err.full"))
                seats.append(SeatSpec(name=actor.name, user_id=actor.user_id))
            elif action == "leave":
                if not any(s.user_id == actor.user_id for s in seats):
                    return Reply.say(t(lang, "err.not_seated"))
                if host:
                    return Reply.say(t(lang, "err.host_leave"))
                seats = [s for s in seats if s.user_id != actor.user_id]
            elif action == "addai":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                if len(seats) >= max(counts):
                    return Reply.say(t(lang, "err.full"))
                n = sum(1 for s in seats if s.user_id is None) + 1
                seats.append(
                    SeatSpec(name=f"Robot {n}", ai=True, ai_level=options.get(present.AI_LEVEL_KEY))
                )
            elif action == "mode":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                try:
                    mode = info.mode(value).id
                except KeyError:
                    return Reply.say(t(lang, "err.stale"))
            elif action == "opt":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                if not self._set_option(info, options, seats, value or ""):
                    return Reply.say(t(lang, "err.stale"))
            elif action == "start":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                if len(seats) not in counts:
                    return Reply.say(t(lang, "err.count", counts=present._counts(counts, lang)))
                return await self._start(live, actor)
            elif action == "cancel":
                if not (host or actor.manager):
                    return Reply.say(t(lang, "err.host_only"))
                return await self._close(live, actor, "cancelled")
            else:
                return Reply.say(t(lang, "err.stale"))
            await self.store.update_lobby(mid, seats=seats, mode=mode, options=options)
            rec2 = await self.store.get(mid)
            assert rec2 is not None
            live.rec = rec2
            msg = present.lobby_msg(
                mid, rec2.game, rec2.mode, rec2.options, rec2.seats, rec2.host_id, live.lang
            )
            return Reply(update=msg)

    @staticmethod
    def _set_option(info: Any, options: dict[str, Any], seats: list[SeatSpec], value: str) -> bool:
        kind, _, arg = value.partition(":")
        try:
            if kind in ("tp", "ta", "tr"):
                secs = int(arg)
                timers = dict(options.get(tm.TIMERS_KEY) or {})
                if kind == "tp":
                    timers["pick"] = timers["turn"] = secs
                elif kind == "ta":
                    timers["action"] = secs
                else:
                    timers["reaction"] = secs
                options[tm.TIMERS_KEY] = timers
                return True
            if kind == "lv":
                if arg not in [lv[0] for lv in present.ai_levels(info)]:
                    return False
                options[present.AI_LEVEL_KEY] = arg
                for i, s in enumerate(seats):
                    if s.user_id is None:
                        seats[i] = s.model_copy(update={"ai_level": arg})
                for spec in info.options:
                    if spec.id in ("ai_level", "level", "ai"):
                        options[spec.id] = arg
                return True
            if kind.startswith("o"):
                spec = info.options[int(kind[1:])]
                if spec.type == "bool":
                    options[spec.id] = arg == "1"
                elif spec.type == "choice":
                    options[spec.id] = spec.choices[int(arg)][0]
                elif spec.type == "int":
                    options[spec.id] = int(arg)
                else:
                    return False
                return True
        except (ValueError, IndexError):
            return False
        return False

    async def _start(self, live: Live, actor: Actor) -> Reply:
        rec = live.rec
        try:
            match = Match.create(
                rec.game, rec.seats, new_seed(), rec.mode, present.game_options(rec.options)
            )
        except IllegalDecision as exc:
            return Reply.say(exc.reason.get(actor.lang))
        await self.store.start_match(rec.id, match)
        live.timers = tm.timers(rec.options)
        await self._save_timers(rec.id, live.timers)
        rec2 = await self.store.get(rec.id)
        assert rec2 is not None
        live.rec = rec2
        live.match = match
        live.batch = list(match.events)
        lang = live.lang
        closed = present.lobby_msg(
            rec.id,
            rec.game,
            rec.mode,
            rec.options,
            rec.seats,
            rec.host_id,
            lang,
            closed=t(lang, "lobby.started"),
        )
        info = match.game.info
        intro = Msg(
            embeds=[
                Embed(
                    title=t(lang, "start.title", game=info.names.get(lang), mid=rec.id),
                    description="\n".join(
                        present.seat_line(i, s, lang) for i, s in enumerate(match.seats)
                    ),
                    colour=present.COLOUR,
                    fields=[
                        (
                            t(lang, "start.fair"),
                            t(lang, "start.commit", sha=match.commitment),
                            False,
                        )
                    ],
                )
            ]
        )
        await self._post(live, intro)
        await self._advance(live, force_step=True)
        return Reply(update=closed)

    # --- the heart: apply, let AI seats play, post -------------------------------------
    async def _commit(
        self, live: Live, choice: Choice, expected: int | None, by_ai: bool
    ) -> list[AnyEvent]:
        match = live.match
        assert match is not None
        label = match.round_label()
        events = match.apply(choice, expected_version=expected)
        if not live.batch:
            live.batch_round = label
        # Private events for human seats are stored with the decision, undelivered,
        # so a restart before the player looks does not lose them.
        notices = [
            (s, e.text)
            for e in events
            for s in sorted(set(e.visible_to or []))
            if s < len(match.seats) and not match.seats[s].ai
        ]
        try:
            await self.store.commit_decision(live.mid, choice, match, by_ai=by_ai, notices=notices)
        except StoreConflict:
            # Someone else's write won: reload the truth and call this one stale.
            live.match = await self.store.load_match(live.mid)
            self._rebuild_round(live)
            raise StaleDecision(t_text("err.stale")) from None
        live.batch.extend(events)
        if choice.key in live.deadlines:
            live.deadlines.pop(choice.key, None)
            await self.store.clear_deadline(live.mid, choice.key)
        return events

    async def _ai_choice(self, match: Match, decision: Decision) -> Choice:
        try:
            return await asyncio.to_thread(match.ai_choice, decision)
        except Exception:
            log.exception(
                "AI failed on %s in %s; taking the first legal option", decision.key, match.game_id
            )
            return Choice(seat=decision.seat, key=decision.key, option=decision.options[0].id)

    async def _advance(
        self, live: Live, *, force_step: bool = False, post_round: bool = True
    ) -> None:
        """Let AI seats play, post steps at checkpoints, then the round board and timers."""
        match = live.match
        assert match is not None
        for _ in range(MAX_AI_STEPS):
            if force_step or (live.batch and match.game.checkpoint(live.batch)):
                await self._post_step(live)
                force_step = False
            if match.over:
                await self._finish(live)
                return
            ai = [d for d in match.pending() if match.seats[d.seat].ai]
            if not ai:
                break
            choice = await self._ai_choice(match, ai[0])
            try:
                await self._commit(live, choice, match.version, by_ai=True)
            except IllegalDecision:
                # An AI bug must not stall the table: log it and play the first legal option.
                log.exception("AI choice refused in match %s", live.mid)
                first = ai[0].options[0].id
                fallback = Choice(seat=ai[0].seat, key=ai[0].key, option=first)
                await self._commit(live, fallback, match.version, by_ai=True)
        await self._round(live, post_round)

    async def _post_step(self, live: Live) -> None:
        match = live.match
        assert match is not None
        lang = live.lang
        lines = present.log_lines(live.batch, lang)
        live.board_fresh = False
        live.batch = []
        image = await self._render(match, lang)
        label = live.batch_round if live.batch_round is not None else match.round_label()
        live.batch_round = None
        title = t(lang, "step.title", game=match.game.info.names.get(lang), round=label)
        for msg in present.step_msgs(title, lines, image, f"match{live.mid}-v{match.version}.png"):
            await self._post(live, msg)

    @staticmethod
    async def _render(match: Match, lang: str, seat: int | None = None) -> bytes | None:
        try:
            data = await asyncio.to_thread(match.render, seat, lang)
        except Exception:
            log.exception("render failed for %s", match.game_id)
            return None
        return data or None

    async def _round(self, live: Live, post: bool) -> None:
        """Post or refresh the round board; arm deadlines; deliver DM prompts."""
        match = live.match
        assert match is not None
        pending = match.pending()
        humans = [d for d in pending if not match.seats[d.seat].ai]
        new = [d for d in humans if d.key not in live.round_keys]
        now = self.clock.now()
        for d in humans:
            if d.key not in live.deadlines:
                dur = live.timers[d.timing]
                live.deadlines[d.key] = now + dur
                await self.store.set_deadline(live.mid, d.key, d.seat, now + dur, now + dur / 2)
        who = {(d.seat, d.subject) for d in humans}
        # The same fighters asked again with nothing posted in between (a fighter's
        # successive in-action choices): refresh the board instead of pinging anew.
        continued = bool(new) and live.board_fresh and who == live.board_who
        if new:
            live.round_keys = {d.key: (d.seat, d.subject) for d in humans}
        answered = [v for k, v in live.round_keys.items() if k not in {d.key for d in humans}]
        msg = present.round_msg(live.mid, match, humans, answered, live.deadlines, live.lang)
        if new and not continued:
            previous = (await self.store.messages(live.mid)).get("round")
            posted = await self._post(live, msg, role="round")
            live.board_fresh, live.board_who = True, who
            if previous is not None and posted is not None and previous[1] != posted:
                await self._retire(*previous)
        elif post or continued:
            await self._edit(live, "round", msg)
        if new:
            await self._deliver_dms(live, new)

    async def _deliver_dms(self, live: Live, decisions: list[Decision]) -> None:
        match = live.match
        assert match is not None
        by_user: dict[int, list[Decision]] = defaultdict(list)
        for d in decisions:
            uid = match.seats[d.seat].user_id
            if uid is not None:
                by_user[uid].append(d)
        for uid, ds in by_user.items():
            prefs = await self.store.user_prefs(uid)
            if not prefs.dm or prefs.dm_closed:
                continue
            lang = lang_of(prefs.locale) if prefs.locale else live.lang
            for d in ds:
                msg = self._prompt(live, d, lang)
                msg.content = (
                    t(lang, "dm.header", mid=live.mid, where=f"<#{live.target}>")
                    + "\n"
                    + (msg.content or "")
                )
                result = await self.publisher.dm(uid, msg)
                if result is DmResult.CLOSED:
                    await self.store.set_user_prefs(uid, dm_closed=True)
                    await self._post(
                        live,
                        Msg(content=t(live.lang, "dm.closed", user=f"<@{uid}>"), mentions=[uid]),
                    )
                    break
                if result is DmResult.FAILED:
                    break

    def _prompt(
        self, live: Live, d: Decision, lang: str, group: int | None = None, page: int = 0
    ) -> Msg:
        match = live.match
        assert match is not None
        return decision_msg(
            live.mid,
            match.version,
            d,
            match.seats[d.seat].name,
            lang,
            group=group,
            page=page,
            due_at=live.deadlines.get(d.key),
        )

    async def _finish(self, live: Live) -> None:
        match = live.match
        assert match is not None
        lang = live.lang
        out = match.outcome()
        assert out is not None
        info = match.game.info
        names = [match.seats[w].name for w in out.winners]
        if not names:
            result = t(lang, "end.nobody")
        elif out.half:
            result = t(lang, "end.half", names=", ".join(names))
        elif out.shared or len(names) > 1:
            result = t(lang, "end.shared", names=", ".join(names))
        else:
            result = t(lang, "end.winner", names=names[0])
        fields = []
        if out.scores:
            fields.append(
                (
                    t(lang, "end.scores"),
                    clip(
                        "\n".join(
                            t(lang, "pair", name=match.seats[int(s)].name, value=f"{v:g}")
                            for s, v in out.scores.items()
                        ),
                        1024,
                    ),
                    False,
                )
            )
        fields.append(
            (
                t(lang, "end.seed"),
                t(lang, "end.seed_text", seed=match.seed, sha=match.commitment),
                False,
            )
        )
        image = await self._render(match, lang)
        embed = Embed(
            title=t(lang, "end.title", game=info.names.get(lang), mid=live.mid),
            description=clip(f"**{result}**\n{out.reason.get(lang)}", 3000),
            colour=0x50C878,
            fields=fields,
        )
        files = [Attachment(f"match{live.mid}-log.md", markdown_log(match, lang).encode())]
        if image:
            embed.image = f"match{live.mid}-final.png"
            files.insert(0, Attachment(embed.image, image))
        await self._edit(
            live, "round", present.round_msg(live.mid, match, [], [], {}, lang), create=False
        )
        await self._post(live, Msg(embeds=[embed], files=files))
        for d in list(live.deadlines):
            await self.store.clear_deadline(live.mid, d)
        live.deadlines.clear()
        self._live.pop(live.mid, None)

    async def _close(self, live: Live, actor: Actor, status: str) -> Reply:
        lang = live.lang
        await self.store.set_status(live.mid, status)
        for d in await self.store.deadlines(live.mid):
            await self.store.clear_deadline(live.mid, d.key)
        self._live.pop(live.mid, None)
        text = t(lang, "close." + status, who=f"<@{actor.user_id}>", mid=live.mid)
        rec = live.rec
        if rec.status == "lobby":
            msg = present.lobby_msg(
                rec.id, rec.game, rec.mode, rec.options, rec.seats, rec.host_id, lang, closed=text
            )
            await self._edit(live, "lobby", msg, create=False)
        else:
            match = live.match
            assert match is not None
            files = [Attachment(f"match{live.mid}-log.md", markdown_log(match, lang).encode())]
            await self._edit(
                live, "round", present.round_msg(live.mid, match, [], [], {}, lang), create=False
            )
            await self._post(live, Msg(content=text, files=files))
        return Reply.say(t(actor.lang, "close.done", mid=live.mid))

    # --- posting helpers ---------------------------------------------------------------
    async def _retire(self, channel_id: int, message_id: int) -> None:
        """A new round board supersedes the old one: its "Make your choice" button goes."""
        retire = getattr(self.publisher, "retire", None)
        if retire is None:
            return
        try:
            await retire(channel_id, message_id)
        except Exception:
            log.exception("retiring board %s failed", message_id)

    async def _post(self, live: Live, msg: Msg, role: str | None = None) -> int | None:
        mid = await self.publisher.send(live.target, msg)
        if mid is not None and role is not None:
            await self.store.set_message(live.mid, role, live.target, mid)
        return mid

    async def _edit(self, live: Live, role: str, msg: Msg, create: bool = True) -> None:
        where = (await self.store.messages(live.mid)).get(role)
        if where is not None and await self.publisher.edit(where[0], where[1], msg):
            return
        if create:
            await self._post(live, msg, role=role)

    # --- play ----------------------------------------------------------------------------
    def _seats_of(self, live: Live, user_id: int) -> list[int]:
        seats = live.match.seats if live.match is not None else live.rec.seats
        return [i for i, s in enumerate(seats) if s.user_id == user_id]

    def _mine(self, live: Live, user_id: int) -> list[Decision]:
        match = live.match
        assert match is not None
        return [
            d
            for d in match.pending()
            if match.seats[d.seat].user_id == user_id and not match.seats[d.seat].ai
        ]

    async def hand(self, mid: int, actor: Actor) -> Reply:
        """The clicking user's private prompts for everything awaited from them."""
        async with self.lock(mid):
            live = await self._get(mid)
            return await self._hand(live, actor)

    async def _hand(self, live: Live | None, actor: Actor, intro: str | None = None) -> Reply:
        lang = actor.lang
        if live is None:
            return Reply.say(t(lang, "err.no_match"))
        if live.match is None:
            return Reply.say(t(lang, "err.not_started"))
        if not self._seats_of(live, actor.user_id):
            return Reply.say(t(lang, "err.not_your_seat"))
        if any(
            live.match.seats[i].ai for i in self._seats_of(live, actor.user_id)
        ) and not self._mine(live, actor.user_id):
            return Reply.say(t(lang, "err.autopilot"))
        mine = self._mine(live, actor.user_id)
        out: list[Msg] = [Msg(content=intro)] if intro else []
        # Private notices not shown yet (from before a restart, or an AI move for this seat).
        secrets = await self._take_private(live, actor.user_id, lang)
        if secrets:
            out.append(Msg(content=clip("\n".join(secrets), CONTENT_MAX)))
        if not mine:
            out.append(Msg(content=t(lang, "err.nothing_awaited")))
        out += [self._prompt(live, d, lang) for d in mine]
        return Reply(private=out)

    def _find(self, live: Live, tag: str) -> Decision | None:
        assert live.match is not None
        for d in live.match.pending():
            if key_tag(d.key) == tag:
                return d
        return None

    async def component(
        self,
        mid: int,
        action: str,
        ver: int,
        arg: str | None,
        actor: Actor,
        values: list[str] | None = None,
    ) -> Reply:
        """Every private-prompt component: pick, group, back, page, select."""
        async with self.lock(mid):
            live = await self._get(mid)
            lang = actor.lang
            if live is None:
                return Reply(update=Msg(content=t(lang, "err.no_match")))
            if live.match is None:
                return Reply.say(t(lang, "err.not_started"))
            tag, _, rest = (arg or "").partition(".")
            d = self._find(live, tag)
            match = live.match
            if d is None or (ver < match.version and match.pending_since.get(d.key, 0) > ver):
                return await self._stale(live, actor)
            if match.seats[d.seat].user_id != actor.user_id:
                return Reply.say(t(lang, "err.not_your_seat"))
            if action == "back":
                return Reply(update=self._prompt(live, d, lang))
            if action == "grp":
                return Reply(update=self._prompt(live, d, lang, group=_int(rest)))
            if action == "page":
                return Reply(update=self._prompt(live, d, lang, page=_int(rest)))
            if action == "sel":
                value = (values or [""])[0]
                if value.startswith("g"):
                    return Reply(update=self._prompt(live, d, lang, group=_int(value[1:])))
                index = _int(value[1:]) if value.startswith("o") else -1
            elif action == "pick":
                index = _int(rest)
            else:
                return await self._stale(live, actor)
            if not 0 <= index < len(d.options):
                return await self._stale(live, actor)
            return await self._decide(live, d, d.options[index].id, ver, actor)

    async def _decide(
        self, live: Live, d: Decision, option_id: str, ver: int, actor: Actor
    ) -> Reply:
        lang = actor.lang
        match = live.match
        assert match is not None
        choice = Choice(seat=d.seat, key=d.key, option=option_id)
        try:
            await self._commit(live, choice, ver, by_ai=False)
        except StaleDecision:
            return await self._stale(live, actor)
        except IllegalDecision as exc:
            return Reply.say(exc.reason.get(lang))
        opt = d.option(option_id)
        label = opt.label.get(lang) if opt else option_id
        done = Msg(
            content=t(lang, "prompt.done", who=d.subject or match.seats[d.seat].name, choice=label)
        )
        before = match.version
        await self._advance(live)
        secrets = await self._take_private(live, actor.user_id, lang)
        if secrets:
            done.content = clip(f"{done.content}\n" + "\n".join(secrets), CONTENT_MAX)
        if live.match is None or match.over:
            return Reply(update=done)
        follow = [
            x
            for x in self._mine(live, actor.user_id)
            if match.pending_since.get(x.key, 0) >= before
        ]
        return Reply(update=done, private=[self._prompt(live, x, lang) for x in follow])

    async def _take_private(self, live: Live, user_id: int, lang: str) -> list[str]:
        """Texts of the stored private notices for this user's seats; handed over once.

        A notice addressed to several of the user's seats (team mode) is shown once.
        """
        seats = self._seats_of(live, user_id)
        if not seats:
            return []
        mine = await self.store.notices(live.mid, seats)
        if not mine:
            return []
        await self.store.mark_notices_delivered(n.id for n in mine)
        texts: list[str] = []
        seen: set[tuple[int, str]] = set()
        for n in mine:
            text = n.text.get(lang)
            if (n.version, text) not in seen:
                seen.add((n.version, text))
                texts.append(text)
        return texts

    async def _deliver_private(self, live: Live) -> None:
        """Private notices nobody collected by clicking (an AI move for an absent seat): by DM."""
        match = live.match
        if match is None:
            return
        for uid in {s.user_id for s in match.seats if s.user_id is not None}:
            prefs = await self.store.user_prefs(uid)
            if not prefs.dm or prefs.dm_closed:
                continue
            lang = lang_of(prefs.locale) if prefs.locale else live.lang
            texts = await self._take_private(live, uid, lang)
            if texts:
                await self.publisher.dm(uid, Msg(content=clip("\n".join(texts), CONTENT_MAX)))

    async def _stale(self, live: Live, actor: Actor) -> Reply:
        reply = await self._hand(live, actor, intro=t(actor.lang, "err.stale"))
        reply.strip = True
        return reply

    async def play_text(self, channel_id: int, actor: Actor, text: str) -> Reply:
        """A typed move (``/arena play``), read by the game's own notation."""
        lang = actor.lang
        rec = await self._here(channel_id, actor.user_id)
        if rec is None:
            return Reply.say(t(lang, "err.no_match_here"))
        async with self.lock(rec.id):
            live = await self._get(rec.id)
            if live is None or live.match is None:
                return Reply.say(t(lang, "err.not_started"))
            mine = self._mine(live, actor.user_id)
            if not mine:
                if not self._seats_of(live, actor.user_id):
                    return Reply.say(t(lang, "err.not_your_seat"))
                return Reply.say(t(lang, "err.nothing_awaited"))
            match = live.match
            for d in mine:
                try:
                    option = match.game.parse_option(match.state, d, text)
                except Exception:
                    log.exception("parse_option failed")
                    option = None
                if option is not None and d.option(option) is not None:
                    reply = await self._decide(live, d, option, match.version, actor)
                    if reply.update is not None:
                        reply.private.insert(0, reply.update)
                        reply.update = None
                    return reply
            sample = ", ".join(f"`{o.id}`" for o in mine[0].options[:10])
            return Reply.say(t(lang, "err.unreadable", text=text, sample=sample))

    # --- commands ------------------------------------------------------------------------
    async def status(self, channel_id: int, actor: Actor) -> Reply:
        lang = actor.lang
        rec = await self._here(channel_id, actor.user_id)
        if rec is None:
            return Reply.say(t(lang, "err.no_match_here"))
        async with self.lock(rec.id):
            live = await self._get(rec.id)
            if live is None:
                return Reply.say(t(lang, "err.no_match_here"))
            if live.match is None:
                r = live.rec
                return Reply(
                    private=[
                        present.lobby_msg(
                            r.id, r.game, r.mode, r.options, r.seats, r.host_id, lang, closed=""
                        )
                    ]
                )
            match = live.match
            humans = [d for d in match.pending() if not match.seats[d.seat].ai]
            msg = present.round_msg(live.mid, match, humans, [], live.deadlines, lang)
            image = await self._render(match, lang)
            if image:
                name = f"match{live.mid}-v{match.version}.png"
                msg.embeds[0].image = name
                msg.files = [Attachment(name, image)]
            msg.content = None
            msg.mentions = []
            return Reply(private=[msg])

    async def hand_here(self, channel_id: int, actor: Actor) -> Reply:
        rec = await self._here(channel_id, actor.user_id)
        if rec is None:
            return Reply.say(t(actor.lang, "err.no_match_here"))
        return await self.hand(rec.id, actor)

    async def cancel_here(self, channel_id: int, actor: Actor) -> Reply:
        rec = await self._here(channel_id, actor.user_id)
        if rec is None:
            return Reply.say(t(actor.lang, "err.no_match_here"))
        async with self.lock(rec.id):
            live = await self._get(rec.id)
            if live is None:
                return Reply.say(t(actor.lang, "err.no_match_here"))
            if not (actor.user_id == live.rec.host_id or actor.manager):
                return Reply.say(t(actor.lang, "err.host_or_manager"))
            return await self._close(
                live, actor, "cancelled" if live.match is None else "abandoned"
            )

    async def autopilot(self, channel_id: int, actor: Actor, on: bool) -> Reply:
        """Hand my seat(s) to the AI, or take them back (issue 6 item 6)."""
        lang = actor.lang
        rec = await self._here(channel_id, actor.user_id)
        if rec is None:
            return Reply.say(t(lang, "err.no_match_here"))
        async with self.lock(rec.id):
            live = await self._get(rec.id)
            if live is None or live.match is None:
                return Reply.say(t(lang, "err.not_started"))
            match = live.match
            mine = self._seats_of(live, actor.user_id)
            if not mine:
                return Reply.say(t(lang, "err.not_your_seat"))
            seats = list(match.seats)
            for i in mine:
                seats[i] = seats[i].model_copy(update={"ai": on})
            await self.store.set_seats(live.mid, seats)
            match.seats = seats
            key = "autopilot.on" if on else "autopilot.off"
            await self._post(
                live, Msg(content=t(live.lang, key + "_public", who=f"<@{actor.user_id}>"))
            )
            await self._advance(live)
            if on or live.match is None:
                return Reply.say(t(lang, key))
            return await self._hand(live, actor, intro=t(lang, key))

    async def rules(self, game_id: str | None, channel_id: int, actor: Actor) -> Reply:
        lang = actor.lang
        if not game_id:
            rec = await self.store.active_in_channel(channel_id)
            game_id = rec.game if rec else None
        if not game_id:
            return Reply.say(t(lang, "rules.which", games=", ".join(g.id for g in all_games())))
        try:
            info = get_game(game_id).info
        except KeyError:
            return Reply.say(
                t(
                    lang,
                    "err.unknown_game",
                    game=game_id,
                    games=", ".join(g.id for g in all_games()),
                )
            )
        fields = []
        for m in info.modes:
            text = t(lang, "lobby.counts", counts=present._counts(m.player_counts, lang))
            if m.summary:
                text += "\n" + m.summary.get(lang)
            fields.append((m.names.get(lang), clip(text, 500), False))
        embed = Embed(
            title=t(lang, "rules.title", game=info.names.get(lang)),
            description=clip(info.summary.get(lang), 3000),
            colour=present.COLOUR,
            fields=fields[:5],
        )
        return Reply(private=[Msg(embeds=[embed])])

    async def history(self, guild_id: int, channel_id: int, actor: Actor) -> Reply:
        lang = actor.lang
        recs = await self.store.recent(guild_id, channel_id, limit=10)
        if not recs:
            recs = await self.store.recent(guild_id, None, limit=10)
        if not recs:
            return Reply.say(t(lang, "history.none"))
        lines = []
        for r in recs:
            try:
                game = get_game(r.game).info.names.get(lang)
            except KeyError:
                game = r.game
            players = ", ".join(s.name for s in r.seats)
            winners = ""
            if r.status == "finished" and r.snapshot:
                try:
                    g = get_game(r.game)
                    out = g.outcome(g.load(r.snapshot["state"]))
                    if out is not None:
                        names = [r.seats[w].name for w in out.winners if w < len(r.seats)]
                        winners = " — 🏆 " + (", ".join(names) or t(lang, "end.nobody"))
                except Exception:
                    log.exception("history outcome of %s", r.id)
            status = t(lang, "status." + r.status)
            lines.append(
                f"#{r.id} · {game} · {status} · <t:{int(r.created_at)}:d> · {players}{winners}"
            )
        embed = Embed(
            title=t(lang, "history.title"),
            description="\n".join(lines)[:4000],
            colour=present.COLOUR,
        )
        return Reply(private=[Msg(embeds=[embed])])

    async def set_guild(
        self, guild_id: int, actor: Actor, *, threads: bool | None, locale: str | None
    ) -> Reply:
        lang = actor.lang
        if not actor.manager:
            return Reply.say(t(lang, "err.manager_only"))
        kwargs: dict[str, Any] = {}
        if threads is not None:
            kwargs["use_threads"] = threads
        if locale is not None:
            kwargs["locale"] = None if locale == "auto" else locale
        if kwargs:
            await self.store.set_guild_settings(guild_id, **kwargs)
        s = await self.store.guild_settings(guild_id)
        return Reply.say(
            t(
                lang,
                "settings.guild",
                threads=t(lang, "on") if s.use_threads else t(lang, "off"),
                locale=s.locale or t(lang, "settings.auto"),
            )
        )

    async def set_dm(self, actor: Actor, on: bool) -> Reply:
        # Turning DMs on again is the user saying "I opened them": try again.
        await self.store.set_user_prefs(actor.user_id, dm=on, dm_closed=False, locale=actor.lang)
        return Reply.say(t(actor.lang, "dm.on" if on else "dm.off"))

    # --- timers ----------------------------------------------------------------------------
    async def tick(self) -> None:
        """Fire due reminders and deadlines (called every few seconds, and by tests)."""
        now = self.clock.now()
        for dl in await self.store.deadlines():
            if dl.due_at <= now:
                await self._expire(dl.match_id, dl.key)
            elif dl.remind_at <= now and not dl.reminded:
                await self._remind(dl.match_id, dl.key, dl.due_at)

    async def _remind(self, mid: int, key: str, due_at: float) -> None:
        async with self.lock(mid):
            await self.store.mark_reminded(mid, key)
            live = await self._get(mid)
            if live is None or live.match is None:
                return
            d = live.match.decision(key)
            if d is None:
                return
            seat = live.match.seats[d.seat]
            if seat.user_id is None or seat.ai:
                return
            text = t(
                live.lang,
                "timer.remind",
                user=f"<@{seat.user_id}>",
                what=d.subject or seat.name,
                ts=int(due_at),
            )
            await self._post(live, Msg(content=text, mentions=[seat.user_id]))

    async def _expire(self, mid: int, key: str) -> None:
        async with self.lock(mid):
            live = await self._get(mid)
            if live is None or live.match is None:
                await self.store.clear_deadline(mid, key)
                return
            match = live.match
            d = match.decision(key)
            if d is None:
                live.deadlines.pop(key, None)
                await self.store.clear_deadline(mid, key)
                return
            seat = match.seats[d.seat]
            choice = await self._ai_choice(match, d)
            try:
                await self._commit(live, choice, match.version, by_ai=True)
            except (StaleDecision, IllegalDecision):
                log.exception("timeout choice refused in match %s", mid)
                return
            name = f"<@{seat.user_id}>" if seat.user_id is not None else seat.name
            who = f"{name} ({d.subject})" if d.subject else name
            await self._post(live, Msg(content=t(live.lang, "timer.expired", who=who)))
            await self._advance(live)
            await self._deliver_private(live)


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1


def t_text(key: str) -> Any:
    from bot.engine import Text

    return Text(fr=t("fr", key), en=t("en", key))
