"""What the game master keeps in memory about an active match, and small shared helpers."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine import Match
from bot.engine.drafts import Draft
from bot.engine.events import AnyEvent, event_from_json
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
    table_open: bool = False
    """The current period's live table message is posted (role ``table``)."""
    table_view: str | None = None
    """Key of the public view whose image the table message shows (an unchanged view is
    not uploaded again)."""
    pinged: set[int] = field(default_factory=set)
    """Seats already pinged this round (``pinged_round``): pinged once when their turn or
    pick begins."""
    pinged_round: int | None = None
    timers: dict[str, int] = field(default_factory=lambda: dict(tm.DEFAULTS))
    """Deadline seconds by ``Decision.timing`` for this match."""
    drafts: dict[tuple[int, str], DraftSlot] = field(default_factory=dict)
    """Answers being built, by (seat, decision key); in memory only."""
    board_last: tuple[dict[str, Any], str | None] | None = None
    """The live table as last posted or edited (its JSON without the upload, and the key
    of the view its image shows): the same edit is not sent twice."""
    to_dm: list[str] = field(default_factory=list)
    """Keys of decisions the last table asked anew: their DM prompts go out after
    its commit (private, best effort: a restart loses them, the board's button does not)."""
    noticed: set[int] = field(default_factory=set)
    """Human seats told something privately by this process's commits since the game
    master last cleared it (:meth:`PlayMixin._decide_choice`: whether the AI seats' replies
    to a pick told its player anything, without reading the store to know)."""
    absent: dict[int, int] = field(default_factory=dict)
    """Expired deadlines per human seat (the second puts it on autopilot, issue 11.6)."""
    away: dict[int, int] = field(default_factory=dict)
    """Seats put on autopilot for absence, with the version they went away at: the notice's
    button (:class:`bot.gm.ids.Resume` of that version) gives the seat back in one click."""

    # --- what players see between posts: stored with every commit (``public_state``) ----
    def public_state(self) -> dict[str, Any]:
        """The public state to store with a commit, so a restart resumes it exactly."""
        return {
            "batch": [e.model_dump(mode="json") for e in self.batch],
            "batch_round": self.batch_round,
            "round_keys": [[k, seat, subject] for k, (seat, subject) in self.round_keys.items()],
            "table_open": self.table_open,
            "table_view": self.table_view,
            "pinged": sorted(self.pinged),
            "pinged_round": self.pinged_round,
            "absent": {str(seat): n for seat, n in sorted(self.absent.items())},
            "away": {str(seat): v for seat, v in sorted(self.away.items())},
        }

    def restore_public(self, data: dict[str, Any]) -> None:
        self.batch = [event_from_json(e) for e in data.get("batch", [])]
        self.batch_round = data.get("batch_round")
        self.round_keys = {k: (seat, subject) for k, seat, subject in data.get("round_keys", [])}
        self.table_open = bool(data.get("table_open", False))
        self.table_view = data.get("table_view")
        self.pinged = {int(s) for s in data.get("pinged", [])}
        self.pinged_round = data.get("pinged_round")
        self.absent = {int(seat): int(n) for seat, n in (data.get("absent") or {}).items()}
        self.away = {int(seat): int(v) for seat, v in (data.get("away") or {}).items()}

    def shadow(self) -> Live:
        """A copy whose public state can change without touching this one (a commit's
        plan: applied to ``self`` only once the store has taken it)."""
        return replace(
            self,
            batch=list(self.batch),
            round_keys=dict(self.round_keys),
            pinged=set(self.pinged),
            deadlines=dict(self.deadlines),
            absent=dict(self.absent),
            away=dict(self.away),
            to_dm=[],
        )

    def adopt(self, other: Live) -> None:
        """Take the public state of a committed shadow."""
        self.batch = other.batch
        self.batch_round = other.batch_round
        self.round_keys = other.round_keys
        self.table_open = other.table_open
        self.table_view = other.table_view
        self.pinged = other.pinged
        self.pinged_round = other.pinged_round
        self.deadlines = other.deadlines
        self.board_last = other.board_last
        self.to_dm = other.to_dm
        self.absent = other.absent
        self.away = other.away

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
