"""Seeded AI matches of Mad Arena, measured: who wins, CPU time per decision, wasted secret moves.

Shared by the AI tests and ``bench/bench_mad_arena_ai.py`` so both count the
same thing. A seat plays an AI level through :meth:`Match.ai_choice` (the
seat's ``ai_level``, as in a real match) or, with the level ``random``, a
uniformly random legal answer.

A secret move is *wasted* when its card is revealed and its fighter ends the
action without the secret attack (no ``secret`` event of its own). It is
*forced* when the card was the only one left in hand at the pick (the refill
rule makes every secret card come out by the end of the first hand): issue 14
counts waste excluding those.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.engine.answers import check_answer
from bot.engine.cputime import answer_time
from bot.engine.decisions import Allocation, Choice, Decision, Many, One, Order
from bot.engine.dice import DiceState, FairRng, normalise_seed
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, SeatSpec
from bot.engine.match import Match, reply_choice
from bot.games.mad_arena.args import ForFighter
from bot.games.mad_arena.game import MadArena
from bot.games.mad_arena.modes import PLAYER_COUNTS
from bot.games.mad_arena.state import MAState

RANDOM = "random"
"""The pseudo-level of a seat answering uniformly random legal choices."""

SETUPS: list[tuple[str, int]] = [(m, n) for m, counts in PLAYER_COUNTS.items() for n in counts]
"""Every (mode, people) the game allows: 2 to 7 players over the three modes."""


@dataclass
class SecretTally:
    """Secret moves played, wasted, and how many of each were the forced last card."""

    played: int = 0
    wasted: int = 0
    forced: int = 0
    forced_wasted: int = 0
    free_wasted_cards: list[str] = field(default_factory=list)

    def add(self, other: SecretTally) -> None:
        self.played += other.played
        self.wasted += other.wasted
        self.forced += other.forced
        self.forced_wasted += other.forced_wasted
        self.free_wasted_cards += other.free_wasted_cards

    @property
    def free(self) -> int:
        return self.played - self.forced

    @property
    def free_wasted(self) -> int:
        return self.wasted - self.forced_wasted

    def waste_rate(self) -> float:
        """Wasted secret moves among those chosen freely (the forced last card excluded)."""
        return self.free_wasted / self.free if self.free else 0.0


@dataclass
class MatchResult:
    levels: list[str]
    winners: list[int]
    secrets: SecretTally
    times: list[float]
    """Seconds per AI decision (random seats excluded)."""

    def share(self, level: str) -> float:
        """The part of the win held by seats of ``level`` (1 all, 0 none, 0.5 half the winners)."""
        if not self.winners:
            return 0.0
        return sum(1 for s in self.winners if self.levels[s] == level) / len(self.winners)


def random_choice(d: Decision, rnd: random.Random) -> Choice:
    """A uniformly random legal answer to ``d``."""
    ids = [o.id for o in d.options]
    if isinstance(d.ask, One):
        return Choice(seat=d.seat, key=d.key, option=rnd.choice(ids))
    if isinstance(d.ask, Many):
        hi = len(ids) if d.ask.max is None else min(len(ids), d.ask.max)
        return Choice(seat=d.seat, key=d.key, options=rnd.sample(ids, rnd.randint(d.ask.min, hi)))
    if isinstance(d.ask, Order):
        rnd.shuffle(ids)
        return Choice(seat=d.seat, key=d.key, options=ids)
    assert isinstance(d.ask, Allocation)
    total = d.ask.totals[0].min or 0
    amounts = {q.id: 0 for q in d.ask.quantities}
    for _ in range(total):
        amounts[rnd.choice(list(amounts))] += 1
    return Choice(seat=d.seat, key=d.key, amounts=amounts)


def play(seed: str, mode: str, levels: list[str], through_match: bool = False) -> MatchResult:
    """One match, seat ``i`` playing ``levels[i]``; deterministic for ``seed``.

    ``through_match``: every step goes through :class:`Match` (``Match.ai_choice``
    with the seat's ``ai_level``, as the bot plays). Otherwise the game object is
    driven directly, without the match's per-step state copy (several times
    faster), the AI getting the same kind of seeded ``rnd``."""
    seats = [SeatSpec(name=f"{lv}-{i}", ai=True, ai_level=lv) for i, lv in enumerate(levels)]
    if through_match:
        return _play_match(Match.create("mad-arena", seats, seed, mode), levels, seed)
    return _play_direct(seats, mode, levels, seed)


def _play_match(m: Match, levels: list[str], seed: str) -> MatchResult:
    rnd = random.Random(seed)
    tally = SecretTally()
    watch = SecretWatch(tally, {i for i, lv in enumerate(levels) if lv == RANDOM})
    times: list[float] = []
    while not m.over:
        d = m.pending()[0]
        state = m.state
        assert isinstance(state, MAState)
        if d.kind == "pick" and isinstance(d.args, ForFighter):
            watch.before_pick(state, d.args.fighter)
        if levels[d.seat] == RANDOM:
            choice = random_choice(d, rnd)
        else:
            with answer_time(times):
                choice = m.ai_choice(d)
        watch.see(m.apply(choice), state)
    out = m.outcome()
    assert out is not None
    return MatchResult(levels=levels, winners=list(out.winners), secrets=tally, times=times)


def _play_direct(seats: list[SeatSpec], mode: str, levels: list[str], seed: str) -> MatchResult:
    game = MadArena()
    ctx = Ctx(FairRng(DiceState(seed=normalise_seed(seed))))
    state = game.setup(seats, mode, game.info.default_options(), ctx)
    rnd = random.Random(seed)
    tally = SecretTally()
    watch = SecretWatch(tally, {i for i, lv in enumerate(levels) if lv == RANDOM})
    times: list[float] = []
    step = 0
    while (out := game.outcome(state)) is None:
        d = game.pending(state)[0]
        if d.kind == "pick" and isinstance(d.args, ForFighter):
            watch.before_pick(state, d.args.fighter)
        if levels[d.seat] == RANDOM:
            choice = random_choice(d, rnd)
        else:
            with answer_time(times):
                ai_rnd = random.Random(f"{seed}:{step}:{d.key}")
                choice = reply_choice(d, game.ai_choose(state, d, ai_rnd, levels[d.seat]))
        before = len(ctx.events)
        game.apply(state, check_answer(d, choice), ctx)
        watch.see(ctx.events[before:], state)
        step += 1
    return MatchResult(levels=levels, winners=list(out.winners), secrets=tally, times=times)


class SecretWatch:
    """Follows the public events: each revealed secret card, and whether its attack came."""

    def __init__(self, tally: SecretTally, skip: set[int] | None = None) -> None:
        self.tally = tally
        self.skip = skip or set()
        """Seats not counted (random-legal players)."""
        self.forced: set[str] = set()
        self.open: dict[str, str] = {}
        self.fired: set[str] = set()

    def before_pick(self, state: MAState, fid: str) -> None:
        """Note whether ``fid``'s pick is forced: its secret card alone in hand."""
        f = state.f(fid)
        self.forced.discard(fid)
        if len(f.hand) == 1 and state.card(f.hand[0]).secret is not None:
            self.forced.add(fid)

    def see(self, events: list[AnyEvent], state: MAState) -> None:
        for e in events:
            if e.visible_to is not None:
                continue
            fid = str(e.data.get("fighter", ""))
            if e.type == "reveal" and fid and not state.data(fid).dragon:
                if state.f(fid).seat in self.skip:
                    continue
                card = state.card(str(e.data["card"]))
                if card.secret is not None:
                    self.open[fid] = card.id
            elif e.type == "secret" and fid in self.open:
                self.fired.add(fid)
            elif e.type == "action-end" and fid in self.open:
                self.close(fid)
            elif e.type == "game-over":
                for who in list(self.open):
                    self.close(who)

    def close(self, fid: str) -> None:
        forced = fid in self.forced
        wasted = fid not in self.fired
        t = self.tally
        t.played += 1
        t.forced += forced
        if wasted:
            t.wasted += 1
            t.forced_wasted += forced
            if not forced:
                t.free_wasted_cards.append(self.open[fid])
        del self.open[fid]
        self.fired.discard(fid)


@dataclass
class Duel:
    """Level ``a`` against level ``b``: the part of the wins ``a``'s seats held, on average."""

    a: str
    b: str
    matches: int = 0
    score: float = 0.0
    secrets: SecretTally = field(default_factory=SecretTally)
    times: list[float] = field(default_factory=list)

    def rate(self) -> float:
        return self.score / self.matches if self.matches else 0.0


def duel_levels(a: str, b: str, people: int, flip: bool) -> list[str]:
    """Seats alternate ``a`` and ``b`` (``b`` first when ``flip``), so both sit everywhere."""
    first, second = (b, a) if flip else (a, b)
    return [first if i % 2 == 0 else second for i in range(people)]


def duel(
    a: str, b: str, per_setup: int, setups: list[tuple[str, int]] | None = None, tag: str = ""
) -> Duel:
    """``per_setup`` matches of each (mode, people), seats alternating, each seating flipped."""
    out = Duel(a=a, b=b)
    for mode, people in setups or SETUPS:
        for i in range(per_setup):
            levels = duel_levels(a, b, people, flip=i % 2 == 1)
            r = play(f"duel{tag}-{mode}-{people}-{i}", mode, levels)
            # With an odd number of seats one level has more seats: count its share per seat.
            na = levels.count(a)
            nb = levels.count(b)
            sa = r.share(a) / na
            sb = r.share(b) / nb if nb else 0.0
            out.score += sa / (sa + sb) if sa + sb else 0.5
            out.matches += 1
            out.secrets.add(r.secrets)
            out.times += r.times
    return out
