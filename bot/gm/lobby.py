"""The lobby: opening one, its buttons and menus, an uploaded data file, the start."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.engine import GameInfo, IllegalDecision, Match, SeatSpec
from bot.engine.dice import new_seed
from bot.engine.registry import all_games, get_game
from bot.engine.text import lang_of
from bot.gm import present
from bot.gm import timers as tm
from bot.gm.apply import ApplyMixin
from bot.gm.live import Live
from bot.gm.msg import Actor, Embed, Msg, Reply, Upload
from bot.gm.posting import Out
from bot.i18n import t

UPLOAD_MAX = 64 * 1024
"""Largest data file accepted from ``/arena start file:``."""


class LobbyMixin(ApplyMixin):
    """Lobby commands and buttons, up to the first round of a match."""

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
        upload: Upload | None = None,
        mode_of: str | None = None,
    ) -> Reply:
        """``mode_of``: the game the chosen ``mode`` belongs to (the command offers every
        game's modes); a mode of another game is refused."""
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
                upload=upload,
                mode_of=mode_of,
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
        upload: Upload | None = None,
        mode_of: str | None = None,
    ) -> Reply:
        lang = actor.lang
        try:
            info = get_game(game_id).info
        except KeyError:
            names = ", ".join(g.id for g in all_games())
            return Reply.say(t(lang, "err.unknown_game", game=game_id, games=names))
        names = ", ".join(f"`{m.names.get(lang)}`" for m in info.modes)
        if mode and mode_of is not None and mode_of != info.id:
            try:
                other = get_game(mode_of).info
                what = other.mode(mode).names.get(lang)
            except KeyError:
                other, what = None, mode
            if other is not None:
                return Reply.say(
                    t(
                        lang,
                        "err.mode_of_other_game",
                        mode=what,
                        other=other.names.get(lang),
                        game=info.names.get(lang),
                        modes=names,
                    )
                )
            return Reply.say(t(lang, "err.unknown_mode", mode=mode, modes=names))
        try:
            mode_info = info.mode(mode or None)
        except KeyError:
            return Reply.say(t(lang, "err.unknown_mode", mode=mode, modes=names))
        options: dict[str, Any] = info.default_options()
        if ai_level:
            levels = [lv.id for lv in present.ai_levels(info)]
            if ai_level not in levels:
                return Reply.say(
                    t(lang, "err.unknown_level", level=ai_level, levels=", ".join(levels) or "—")
                )
            self._apply_setting(info, options, [], present.LevelSetting(ai_level))
        if upload is not None:
            refusal = await self._load_upload(info, mode_info.id, options, upload, lang)
            if refusal is not None:
                return refusal
        settings = await self.store.guild_settings(guild_id)
        locale = settings.locale or guild_locale or "en"
        mlang = lang_of(locale)
        # A thread per match (issue 11.2): made at Start if the lobby's toggle is on (the
        # server's setting, on unless a manager turned it off); the lobby stays here.
        options.setdefault(present.THREAD_KEY, settings.use_threads)
        existing = await self.store.active_in_channel(channel_id)
        if existing is not None:
            return Reply.say(t(lang, "err.busy", mid=existing.id))
        mid = await self.store.create_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
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
        return Reply.say(t(lang, "lobby.opened", mid=mid, where=where))

    async def _load_upload(
        self, info: GameInfo, mode: str, options: dict[str, Any], upload: Upload, lang: str
    ) -> Reply | None:
        """Put an uploaded file's CONTENT in the options (a replay needs nothing else).

        Only for games declaring an option a host fills by upload
        (``OptionSpec.upload_for``, :meth:`GameInfo.upload_option`). The game itself
        validates it, by setting up a throwaway match with AI seats: a bad file is
        refused, with the game's first errors, before any lobby exists.
        """
        spec = info.upload_option()
        if spec is None:
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
        trial = {**present.game_options(options), spec.id: text}
        count = min(info.mode(mode).player_counts)
        seats = [SeatSpec(name=f"AI {i + 1}", ai=True) for i in range(count)]
        try:
            await asyncio.to_thread(Match.create, info.id, seats, "upload-check", mode, trial)
        except IllegalDecision as exc:
            return Reply.say(
                t(lang, "err.upload_invalid", name=upload.filename, errors=exc.reason.get(lang))
            )
        options[spec.id] = text
        options[present.UPLOAD_NAME_KEY] = upload.filename[:100]
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
                default = info.ai_levels[0].id if info.ai_levels else None
                level = options.get(present.AI_LEVEL_KEY) or default
                seats.append(SeatSpec(name=f"Robot {n}", ai=True, ai_level=level))
            elif action == "mode":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                offered = [m.id for m in info.modes] if len(info.modes) > 1 else []
                if value not in offered:
                    return Reply.say(t(lang, "err.not_offered"))
                mode = info.mode(value).id
            elif action == "opt":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                if not self._set_option(info, options, seats, value or ""):
                    return Reply.say(t(lang, "err.not_offered"))
            elif action == "mine":
                refusal = self._set_own(info, mode, options, seats, actor, value or "")
                if refusal is not None:
                    return Reply.say(refusal)
            elif action == "seat":
                if not host:
                    return Reply.say(t(lang, "err.host_only"))
                refusal = self._set_seat(info, mode, options, seats, value or "", lang)
                if refusal is not None:
                    return Reply.say(refusal)
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
    def _put_choice(
        info: GameInfo,
        mode: str,
        options: dict[str, Any],
        seats: list[SeatSpec],
        seat: int,
        choice_id: str,
        value: str,
        lang: str,
    ) -> str | None:
        """Give ``seat`` the value ``value`` of the seat choice ``choice_id``; a unique
        value another seat holds is refused (the refusal, in ``lang``)."""
        choice = next(c for c in present.seat_choices(info, mode, options) if c.id == choice_id)
        values = present.seat_values(options, seats)
        owner = present.holder(seats, values, choice_id, value)
        if choice.unique and owner not in (-1, seat):
            held = choice.value(value)
            shown = held.names.get(lang) if held else value
            return t(lang, "err.seat_taken", value=shown, who=seats[owner].name)
        table = dict(options.get(present.SEAT_CHOICES_KEY) or {})
        key = present.seat_key(seats[seat])
        table[key] = {**(table.get(key) or {}), choice_id: value}
        options[present.SEAT_CHOICES_KEY] = table
        return None

    @classmethod
    def _set_own(
        cls,
        info: GameInfo,
        mode: str,
        options: dict[str, Any],
        seats: list[SeatSpec],
        actor: Actor,
        value: str,
    ) -> str | None:
        """The players' own-seat menu: the clicking player's seat gets the value offered."""
        lang = actor.lang
        mine = [i for i, s in enumerate(seats) if s.user_id == actor.user_id]
        if not mine:
            return t(lang, "err.not_seated")
        offered = {
            v: (c, x)
            for v, _, _, c, x in present.own_seat_entries(info, mode, options, seats, "en")
        }
        if value not in offered:
            return t(lang, "err.not_offered")
        choice_id, value_id = offered[value]
        return cls._put_choice(info, mode, options, seats, mine[0], choice_id, value_id, lang)

    @classmethod
    def _set_seat(
        cls,
        info: GameInfo,
        mode: str,
        options: dict[str, Any],
        seats: list[SeatSpec],
        value: str,
        lang: str,
    ) -> str | None:
        """The host's seat menu: an AI seat's level, a seat's choice, or which seat to show."""
        offered = {
            v: x for v, _, _, x in present.host_seat_entries(info, mode, options, seats, "en")
        }
        setting = offered.get(value)
        if setting is None:
            return t(lang, "err.not_offered")
        if isinstance(setting, present.FocusSetting):
            options[present.SEAT_FOCUS_KEY] = setting.seat
            return None
        if setting.choice == present.LEVEL:
            seats[setting.seat] = seats[setting.seat].model_copy(update={"ai_level": setting.value})
            return None
        return cls._put_choice(
            info, mode, options, seats, setting.seat, setting.choice, setting.value, lang
        )

    @staticmethod
    def _set_option(
        info: GameInfo, options: dict[str, Any], seats: list[SeatSpec], value: str
    ) -> bool:
        """Apply one value of the lobby's options menu, if the menu offers exactly it."""
        thread = present.THREAD_KEY in options
        offered = {v: s for v, _, s in present.lobby_settings(info, "en", thread=thread)}
        setting = offered.get(value)
        if setting is None:
            return False
        LobbyMixin._apply_setting(info, options, seats, setting)
        return True

    @staticmethod
    def _apply_setting(
        info: GameInfo, options: dict[str, Any], seats: list[SeatSpec], setting: present.Setting
    ) -> None:
        if isinstance(setting, present.TimerSetting):
            timers = dict(options.get(tm.TIMERS_KEY) or {})
            for key in setting.timers:
                timers[key] = setting.seconds
            options[tm.TIMERS_KEY] = timers
        elif isinstance(setting, present.LevelSetting):
            options[present.AI_LEVEL_KEY] = setting.level
            for i, s in enumerate(seats):
                if s.user_id is None:
                    seats[i] = s.model_copy(update={"ai_level": setting.level})
            level_spec = present.level_option(info)
            if level_spec is not None:
                options[level_spec.id] = setting.level
        else:
            options[setting.spec_id] = setting.value

    async def _start(self, live: Live, actor: Actor) -> Reply:
        rec = live.rec
        try:
            info = get_game(rec.game).info
            seats = present.seats_for_start(info, rec.mode, rec.options, rec.seats)
            match = Match.create(
                rec.game, seats, new_seed(), rec.mode, present.game_options(rec.options)
            )
        except IllegalDecision as exc:
            return Reply.say(exc.reason.get(actor.lang))
        live.timers = tm.timers(rec.options)
        await self._save_timers(rec.id, live.timers)  # kept by start_match
        lang = live.lang
        where = await self._move_to_thread(live, actor)
        rec = live.rec
        closed = present.lobby_msg(
            rec.id,
            rec.game,
            rec.mode,
            rec.options,
            rec.seats,
            rec.host_id,
            lang,
            closed=t(lang, "lobby.started") + "\n" + where,
        )
        info = match.game.info
        intro = Msg(
            embeds=[
                Embed(
                    title=t(lang, "start.title", game=info.names.get(lang), mid=rec.id),
                    description="\n".join(
                        present.seat_line(i, s, lang, info) for i, s in enumerate(match.seats)
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
        # Stored with the start, then delivered: the lobby closed, the introduction, the
        # setup's step and the first round board survive a crash right after Start.
        await self._start_live(
            live, match, [Out("edit", closed, role="lobby", create=False), Out("post", intro)]
        )
        # The outbox closes the lobby (through this click's token): not a second time here.
        return Reply()

    async def _move_to_thread(self, live: Live, actor: Actor) -> str:
        """Issue 11.2: the match gets its own thread at Start unless the host turned the
        lobby's toggle off. Where the bot may not make one (no permission, the lobby is
        itself in a thread), the match stays in the channel. Returns the line the closed
        lobby shows about where the match is played."""
        rec = live.rec
        lang = live.lang
        if rec.thread_id is not None or not rec.options.get(present.THREAD_KEY):
            return t(lang, "watch.played_in", where=f"<#{live.target}>")
        name = f"{get_game(rec.game).info.names.get(lang)} #{rec.id} — {actor.name}"
        thread_id = await self.publisher.create_thread(rec.channel_id, name[:100])
        if thread_id is None:
            return t(lang, "watch.no_thread")
        await self.store.set_thread(rec.id, thread_id)
        fresh = await self.store.get(rec.id, snapshot=False)
        if fresh is not None:
            live.rec = fresh
        return t(lang, "watch.played_in", where=f"<#{thread_id}>")
