"""The /arena commands that read or change a match outside its prompts."""

from __future__ import annotations

import logging
from typing import Any

from bot.engine.registry import all_games, get_game
from bot.gm import present
from bot.gm.msg import Actor, Attachment, Embed, Msg, Reply, clip
from bot.gm.play import PlayMixin
from bot.i18n import t

log = logging.getLogger(__name__)


class CommandsMixin(PlayMixin):
    """Status, hand, cancel, autopilot, rules, history and settings."""

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
