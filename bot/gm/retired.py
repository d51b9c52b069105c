"""Private prompts a player still has open, so they can be retired truthfully (issue 11.8).

An ephemeral message can only be edited through the interaction that made it, for 15
minutes: the Discord layer hands the game master an ``edit`` callable for each prompt
it shows. When the prompt's decision is answered without it (the AI at a deadline, the
autopilot) or the match moves on, the prompt is edited to say what happened, without
buttons. Kept in memory only: after a restart (or past 15 minutes) a stale click is
answered by ``err.stale`` instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.engine import Match
from bot.gm import ids
from bot.gm.msg import Msg, Select
from bot.i18n import t

PromptEdit = Callable[[Msg], Awaitable[object]]
"""Edits the shown prompt (the interaction's webhook); raises when Discord refuses."""

EDIT_WINDOW = 14 * 60
"""Seconds an ephemeral prompt stays editable, a minute short of Discord's 15."""


@dataclass
class OpenPrompt:
    """One private prompt on a player's screen, answering ``tag`` as of version ``ver``."""

    mid: int
    tag: str
    ver: int
    seat: int
    lang: str
    shown_at: float
    edit: PromptEdit
    by_player: bool = False
    """Its decision was answered by the player (in another copy, or typed)."""


def prompt_id(msg: Msg) -> ids.Tagged | None:
    """The decision a private prompt answers: its first decision component's id."""
    for row in msg.rows:
        custom_ids = [row.custom_id] if isinstance(row, Select) else [b.custom_id for b in row]
        for custom_id in custom_ids:
            c = ids.parse(custom_id)
            if isinstance(c, ids.Tagged):
                return c
    return None


def still_open(match: Match, p: OpenPrompt) -> bool:
    """The prompt's decision is still awaited from its player, as the prompt asks it."""
    if match.over or match.seats[p.seat].ai:
        return False
    for d in match.pending():
        if ids.key_tag(d.key) == p.tag:
            return match.pending_since.get(d.key, 0) <= p.ver
    return False


def answered_since(match: Match, p: OpenPrompt) -> bool:
    """A choice for the prompt's decision and seat was applied after it was drawn."""
    n = match.version - p.ver
    recent = match.choices[-n:] if n > 0 else []
    return any(c.seat == p.seat and ids.key_tag(c.key) == p.tag for c in recent)


def retired_msg(match: Match, p: OpenPrompt) -> Msg:
    """What a closed prompt says instead: why it no longer asks anything."""
    who = match.seats[p.seat].name
    if p.by_player:
        why = t(p.lang, "watch.answered")
    elif match.seats[p.seat].ai:
        why = t(p.lang, "watch.by_autopilot", who=who)
    elif answered_since(match, p):
        # A human seat's decision answered without its player: the deadline's AI.
        why = t(p.lang, "watch.by_ai", who=who)
    elif match.over:
        why = t(p.lang, "watch.match_over")
    else:
        why = t(p.lang, "watch.moved_on")
    return Msg(content=t(p.lang, "watch.retired", why=why))
