"""What the game master keeps in memory about an active match, and small shared helpers."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine import Match
from bot.engine.drafts import Draft
from bot.engine.events import AnyEvent
from bot.engine.text import Text, lang_of
from bot.gm import timers as tm
from bot.i18n import t
from bot.store.records import MatchRecord

ACTIVE = ("lobby", "live")
MAX_AI_STEPS = 10_000


@dataclass
class DraftSlot:
    """A structured answer being built by a player (never logged, lost on restart)."""

    draft: Draft
    did: str
    """This draft's id in this process: a prompt of an unknown one predates a restart."""
    since: int
    """``pending_since`` of its decision when started: a re-asked decision starts afresh."""
    rev: int = 0
    """Bumped on every change: a click on an older copy of the prompt is not applied."""
    focus: int = 0
    """The quantity whose amounts are shown, when an allocation has too many for one row each."""


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
    drafts: dict[tuple[int, str], DraftSlot] = field(default_factory=dict)
    """Answers being built, by (seat, decision key); in memory only."""

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


def t_text(key: str) -> Text:
    """A catalogue message in both languages (for an engine refusal)."""
    return Text(fr=t("fr", key), en=t("en", key))
