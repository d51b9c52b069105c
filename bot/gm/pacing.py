"""Per-channel pacing of public posts and edits (issue 16 item 4): a pure policy.

Discord lets a bot make about 5 message calls (posts and edits) per 5 seconds in one
channel, and about 50 requests per second in all; past that it answers 429 and the
call is lost time. The outbox (:mod:`bot.gm.posting`) asks this policy before every
channel call, and holds back what may not go yet: held edits of one message are then
merged into the newest (only the latest table state is sent), held posts keep their
order and go as soon as the channel may speak again.

The rules, per channel (a thread is a channel of its own):

- **a sliding window**: at most ``calls`` calls in any ``window`` seconds (a token
  bucket would let a burst plus its refill through, which Discord's fixed 5-second
  buckets refuse);
- **edits spread, posts first**: an edit leaves ``post_reserve`` of those calls to posts
  (a new table, a ping, the results); ``edit_burst`` edits may follow each other at once
  (a move shown, then the AI's reply), past that at most ``edit_burst`` in any
  ``edit_burst * edit_gap`` seconds, so a busy table is redrawn steadily, about once per
  ``edit_gap``, rather than in one burst and then not for seconds;
- **an idle channel speaks at once**: the window and the gap only hold back calls that
  follow recent ones, so a calm table's result is never delayed;
- **a refusal backs off**: when Discord still refused a call (a 429 after discord.py's
  own retries, a 5xx), the channel is left alone for one window;

and across channels at most ``global_calls`` channel calls per ``global_window``,
below Discord's global limit (the rest is left to DMs, which are not paced).

An edit that goes through the token of a recent click on the message (see
:mod:`cogs.publisher`, ``counted=False``) is an interaction webhook call: Discord counts
it neither in the global limit nor in the channel's bucket, but in the webhook token's
own bucket (its size comes in Discord's rate-limit headers, which discord.py follows;
Discord does not publish it). Such edits take nothing of the budgets above;
per channel, at most ``token_calls`` of them go in any ``token_window`` seconds (a
table's edits mostly share the token of its latest click).

Not paced: the answer to an interaction (the clicker's own confirmation and prompts go
through the interaction's token, which Discord does not count in these limits) and DM
prompts (a private channel of their own). Times come from a :class:`Clock`, so tests
drive the policy with a manual clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from bot.gm.clock import Clock, SystemClock

Kind = Literal["post", "edit"]

WAITS_KEPT = 10_000
"""Waits remembered for the percentiles of :meth:`PaceStats.summary` (the latest ones)."""
HELD_KEPT = 100_000
"""Rows remembered as held (a row another process delivered is never released here)."""
PRUNE_EVERY = 512
"""Calls between two sweeps of the channels idle for a whole window (bounded memory)."""


@dataclass(frozen=True)
class PaceLimits:
    """How fast one channel, and the bot in all, may be spoken to."""

    calls: int = 5
    """Calls allowed in any ``window`` seconds in one channel (Discord: 5 per 5 s)."""
    window: float = 5.0
    post_reserve: int = 1
    """Calls of a window an edit never takes: a post is not held behind table edits."""
    edit_burst: int = 2
    """Edits that may follow each other at once (a move shown, then the AI's reply a
    moment later); past that, edits are spread over the window (``edit_gap`` apart on
    average): at most ``edit_burst`` in any ``edit_burst * edit_gap`` seconds."""
    global_calls: int = 40
    """Channel calls allowed in any ``global_window`` seconds in all (Discord: about 50 per
    second, of which DMs and thread creation take the rest)."""
    global_window: float = 1.0
    token_calls: int = 4
    """Edits through a click's token allowed in any ``token_window`` seconds in one channel
    (a table's edits mostly share the token of its latest click, whose bucket discord.py
    follows from Discord's headers: this keeps a busy table from leaning on it)."""
    token_window: float = 2.0

    def __post_init__(self) -> None:
        if self.calls < 1 or self.window <= 0 or self.global_calls < 1:
            raise ValueError("pacing needs at least one call per positive window")
        if not 0 <= self.post_reserve < self.calls:
            raise ValueError("post_reserve must leave edits at least one call per window")
        if self.edit_burst < 1:
            raise ValueError("edit_burst must let at least one edit through")
        if self.token_calls < 1 or self.token_window <= 0:
            raise ValueError("token edits need at least one call per positive window")

    @property
    def edit_calls(self) -> int:
        """Calls of a window edits may take."""
        return self.calls - self.post_reserve

    @property
    def burst(self) -> int:
        """Edits that may follow each other at once (never more than a window's edits)."""
        return min(self.edit_burst, self.edit_calls)

    @property
    def edit_gap(self) -> float:
        """Seconds between two edits of a channel: its edit calls spread over the window."""
        return self.window / self.edit_calls


@dataclass
class PaceStats:
    """What pacing did, for the load benchmark and the logs."""

    calls: int = 0
    """Channel calls let through."""
    exempt: int = 0
    """Of those, edits through a click's token: not counted in Discord's global limit."""
    held: int = 0
    """Deliveries that had to wait for pace at least once (a merged edit counts once)."""
    merged: int = 0
    """Edits never sent: a newer edit of the same message carried their content."""
    refused: int = 0
    """Calls Discord still refused (429 after discord.py's retries, 5xx...): backed off."""
    waited_total: float = 0.0
    """Seconds deliveries waited for pace, summed."""
    waited_max: float = 0.0
    waits: deque[float] = field(default_factory=lambda: deque(maxlen=WAITS_KEPT))

    def waited(self, seconds: float) -> None:
        self.held += 1
        self.waited_total += seconds
        self.waited_max = max(self.waited_max, seconds)
        self.waits.append(seconds)

    def summary(self) -> dict[str, float | int]:
        """The figures as one flat dict (wait percentiles over the latest held rows)."""
        ordered = sorted(self.waits)

        def pct(p: float) -> float:
            if not ordered:
                return 0.0
            return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

        return {
            "calls": self.calls,
            "exempt": self.exempt,
            "held": self.held,
            "merged": self.merged,
            "refused": self.refused,
            "wait_mean_s": self.waited_total / self.held if self.held else 0.0,
            "wait_p50_s": pct(0.50),
            "wait_p95_s": pct(0.95),
            "wait_max_s": self.waited_max,
        }


@dataclass
class _Channel:
    recent: deque[float] = field(default_factory=deque)
    """Times of the calls of the last window, oldest first."""
    edits: deque[float] = field(default_factory=deque)
    """Times of the channel's edits of the last ``edit_burst * edit_gap`` seconds."""
    quiet_until: float = float("-inf")
    """No call before this (Discord refused one)."""
    tokens: deque[float] = field(default_factory=deque)
    """Times of the channel's edits through a click's token of the last ``token_window``."""


class Pacer:
    """The pacing policy: when each channel may be spoken to again (no I/O, no sleeping).

    The outbox asks :meth:`wait` before a call, and calls :meth:`spend` when it makes
    it (:meth:`refused` when Discord did not take it); :meth:`hold` and
    :meth:`released` measure how long deliveries waited.
    """

    def __init__(self, clock: Clock, limits: PaceLimits | None = None) -> None:
        self.clock = clock
        self.limits = limits or PaceLimits()
        self.stats = PaceStats()
        self._channels: dict[int, _Channel] = {}
        self._global: deque[float] = deque()
        self._held_since: dict[int, float] = {}
        self._since_prune = 0

    def now(self) -> float:
        return self.clock.now()

    def wait(self, channel_id: int, kind: Kind, cost: int = 1, counted: bool = True) -> float:
        """Seconds before ``cost`` calls of ``kind`` may be made in ``channel_id`` (0: now).

        ``counted``: a channel call, in the channel's and the global budgets (False: an
        edit through a click's token, in its own budget only)."""
        lim = self.limits
        now = self.now()
        ch = self._channels.get(channel_id)
        due = now
        if ch is not None and not counted:
            due = max(due, ch.quiet_until)
            self._expire(ch.tokens, now, lim.token_window)
            due = max(due, _free_at(ch.tokens, lim.token_calls, cost, lim.token_window))
        elif ch is not None:
            self._expire(ch.recent, now, lim.window)
            due = max(due, ch.quiet_until)
            room = lim.calls if kind == "post" else lim.edit_calls
            due = max(due, _free_at(ch.recent, room, cost, lim.window))
            if kind == "edit":
                span = lim.burst * lim.edit_gap
                self._expire(ch.edits, now, span)
                due = max(due, _free_at(ch.edits, lim.burst, cost, span))
        if counted:
            self._expire(self._global, now, lim.global_window)
            due = max(due, _free_at(self._global, lim.global_calls, cost, lim.global_window))
        return max(0.0, due - now)

    def spend(self, channel_id: int, kind: Kind, cost: int = 1, counted: bool = True) -> None:
        """``cost`` calls of ``kind`` are being made in ``channel_id`` now (``counted``: as
        in :meth:`wait`)."""
        now = self.now()
        ch = self._channels.get(channel_id)
        if ch is None:
            ch = self._channels[channel_id] = _Channel()
        if counted:
            ch.recent.extend([now] * cost)
            self._global.extend([now] * cost)
            if kind == "edit":
                ch.edits.extend([now] * cost)
        else:
            ch.tokens.extend([now] * cost)
            self.stats.exempt += cost
        self.stats.calls += cost
        self._since_prune += cost
        if self._since_prune >= PRUNE_EVERY:
            self._prune(now)

    def refused(self, channel_id: int) -> float:
        """Discord did not take a call in ``channel_id``: the channel is left alone for
        one window. Returns the seconds until it may be tried again."""
        now = self.now()
        ch = self._channels.get(channel_id)
        if ch is None:
            ch = self._channels[channel_id] = _Channel()
        ch.quiet_until = max(ch.quiet_until, now + self.limits.window)
        self.stats.refused += 1
        return ch.quiet_until - now

    def hold(self, row_id: int) -> None:
        """Outbox row ``row_id`` waits for pace (only its first hold counts)."""
        self._held_since.setdefault(row_id, self.now())
        while len(self._held_since) > HELD_KEPT:
            del self._held_since[next(iter(self._held_since))]

    def released(self, row_ids: list[int], merged: int = 0) -> None:
        """Rows ``row_ids`` reached Discord as one call (``merged`` of them were older
        edits it replaced): the wait is counted from the first hold of any of them."""
        self.stats.merged += merged
        since = [t for r in row_ids if (t := self._held_since.pop(r, None)) is not None]
        if since:
            self.stats.waited(max(0.0, self.now() - min(since)))

    def forget(self, row_ids: list[int]) -> None:
        """Rows given up or otherwise gone: no wait to count."""
        for r in row_ids:
            self._held_since.pop(r, None)

    @staticmethod
    def _expire(recent: deque[float], now: float, window: float) -> None:
        while recent and recent[0] <= now - window:
            recent.popleft()

    def _prune(self, now: float) -> None:
        """Drop channels with nothing left to remember (no call in the last window)."""
        self._since_prune = 0
        window = self.limits.window
        idle = [
            cid
            for cid, ch in self._channels.items()
            if (not ch.recent or ch.recent[-1] <= now - window)
            and ch.quiet_until <= now
            and (not ch.edits or ch.edits[-1] <= now - self.limits.burst * self.limits.edit_gap)
            and (not ch.tokens or ch.tokens[-1] <= now - self.limits.token_window)
        ]
        for cid in idle:
            del self._channels[cid]


def _free_at(recent: deque[float], room: int, cost: int, window: float) -> float:
    """When ``cost`` more calls fit among ``recent`` (times within the window, oldest
    first) with at most ``room`` calls in any window: once enough old ones left it."""
    if cost > room:
        cost = room  # a call costing more than a window allows waits for an empty window
    excess = len(recent) + cost - room
    if excess <= 0:
        return float("-inf")
    return recent[excess - 1] + window


DISCORD_RATE = 50
"""Requests per second Discord allows a bot in all (its global rate limit), unless Discord
raised it for that bot (``DISCORD_RATE_LIMIT``)."""
CHANNEL_SHARE = 0.8
"""The part of that limit channel posts and edits may take: DMs, thread creation and
command syncing take the rest (interaction answers are not counted by Discord)."""


def channel_budget(rate: int = DISCORD_RATE, share: float = 1.0) -> int:
    """Channel calls per second one process may make: :data:`CHANNEL_SHARE` of the bot's
    global ``rate``, times ``share``, this process's part of it (the limit is per bot
    token, so processes running some of the shards split it: 2 of 4 shards, half)."""
    if rate < 1 or not 0 < share <= 1:
        raise ValueError("a positive rate, and a share in (0, 1]")
    return max(1, int(rate * CHANNEL_SHARE * share))


def default_pacer(clock: Clock) -> Pacer | None:
    """Pacing for a game master living in real time (:class:`SystemClock`: the bot).

    Under a manual clock time moves only when a test moves it, so every call after a
    window's first few would wait for that: tests and benchmarks that want pacing set
    ``gm.pacer = Pacer(clock)`` themselves.
    """
    return Pacer(clock) if isinstance(clock, SystemClock) else None
