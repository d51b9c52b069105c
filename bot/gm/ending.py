"""The end of a match: final image, results, seed reveal and log; or its closing."""

from __future__ import annotations

import logging

from bot.engine import Match
from bot.engine.log import markdown_log
from bot.gm import present
from bot.gm.live import Live
from bot.gm.msg import Actor, Attachment, Embed, Msg, Reply, clip
from bot.gm.posting import PostingMixin
from bot.i18n import t

log = logging.getLogger(__name__)


class EndingMixin(PostingMixin):
    """A match that is over, abandoned or cancelled."""

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
        files = [await self._log_file(live, match, lang)]
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
            files = [await self._log_file(live, match, lang)]
            await self._edit(
                live, "round", present.round_msg(live.mid, match, [], [], {}, lang), create=False
            )
            await self._post(live, Msg(content=text, files=files))
        return Reply.say(t(actor.lang, "close.done", mid=live.mid))

    async def _log_file(self, live: Live, match: Match, lang: str) -> Attachment:
        """The match log, built from the store (seed, options, logged decisions).

        A match reloaded after a restart holds only the events since then; the
        replay of the stored log has them all, so the attached log verifies after
        any number of restarts. Only if that replay fails (which ``verify`` would
        report too) is the in-memory match used, so players still get a log.
        """
        try:
            source = await self.store.replay_match(live.mid)
        except Exception:
            log.exception("match %s: the stored log does not replay; log from memory", live.mid)
            source = match
        return Attachment(f"match{live.mid}-log.md", markdown_log(source, lang).encode())
