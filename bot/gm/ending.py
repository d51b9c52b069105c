"""The end of a match: final image, results, seed reveal and log; or its closing."""

from __future__ import annotations

import logging

from bot.gm import present
from bot.gm.live import Live
from bot.gm.msg import Actor, Attachment, Embed, Msg, Reply, clip
from bot.gm.posting import Out, PostingMixin
from bot.i18n import t

log = logging.getLogger(__name__)


class EndingMixin(PostingMixin):
    """A match that is over, abandoned or cancelled."""

    async def _finish_outs(self, live: Live) -> list[Out]:
        """The end of a match (planned with its last commit): the round board closed, then
        the final image, results, seed reveal and the log (built from the store)."""
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
        files = []
        if image:
            embed.image = f"match{live.mid}-final.png"
            files.append(Attachment(embed.image, image))
        closed = present.round_msg(live.mid, match, [], [], {}, lang)
        return [
            Out("edit", closed, role="round", create=False),
            Out("post", Msg(embeds=[embed], files=files), log_lang=lang),
        ]

    async def _close(self, live: Live, actor: Actor, status: str) -> Reply:
        lang = live.lang
        text = t(lang, "close." + status, who=f"<@{actor.user_id}>", mid=live.mid)
        rec = live.rec
        if rec.status == "lobby":
            msg = present.lobby_msg(
                rec.id, rec.game, rec.mode, rec.options, rec.seats, rec.host_id, lang, closed=text
            )
            outs = [Out("edit", msg, role="lobby", create=False)]
        else:
            match = live.match
            assert match is not None
            closed = present.round_msg(live.mid, match, [], [], {}, lang)
            outs = [
                Out("edit", closed, role="round", create=False),
                Out("post", Msg(content=text), log_lang=lang),
            ]
        # The status and what it shows, in one transaction (its timers go with it).
        await self.store.set_status(live.mid, status, outbox=[o.entry(live.target) for o in outs])
        self._live.pop(live.mid, None)
        live.deadlines.clear()
        await self._flush(live.mid)
        return Reply.say(t(actor.lang, "close.done", mid=live.mid))
