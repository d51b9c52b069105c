"""Whole AI matches in every mode and player count: invariants, replay, secrecy, AI fairness."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import bot.games.mad_arena  # noqa: F401
from bot.engine import Choice, Match, SeatSpec
from bot.engine.answers import check_answer
from bot.engine.autoplay import play_out
from bot.engine.decisions import Allocation, One
from bot.engine.match import reply_choice
from bot.games.mad_arena.render import render_arena
from tests.games.mad_arena.helpers import random_answer

CONFIGS = [
    ("ultimate-warrior", 4),
    ("ultimate-warrior", 5),
    ("ultimate-warrior", 6),
    ("ultimate-warrior", 7),
    ("team-spirit", 2),
    ("team-spirit", 6),
    ("brothers-in-arms", 3),
    ("brothers-in-arms", 4),
    ("brothers-in-arms", 6),
]


def new(mode: str, n: int, seed: int | str) -> Match:
    return Match.create(
        "mad-arena", [SeatSpec(name=f"P{i}", ai=True) for i in range(n)], seed=seed, mode=mode
    )


def check(match: Match, choice: Choice, events: list) -> None:
    st = match.state
    assert 1 <= st.round <= 12
    for f in st.fighters:
        assert 0 <= f.hp <= st.data(f.id).size
        assert f.alive == (f.hp > 0)
        assert 0 <= f.zone <= st.centre
        if st.data(f.id).dragon:
            assert f.zone == st.centre
    # §2.3: every fighter that lives through a round acted exactly once in it.
    # §2.4: a fighter with two moves ends elsewhere than where it started.
    acted: list[str] = match.__dict__.setdefault("_acted", [])
    for e in events:
        if e.type == "reveal":
            acted.append(e.data["fighter"])
        elif e.type == "move":
            path = match.__dict__.setdefault("_path", [])
            path.append(e.data["zone"])
        elif e.type == "action-end":
            path = match.__dict__.pop("_path", [])
            if len(path) == 2:
                assert path[1] not in match.__dict__.get("_start", ())
        elif e.type == "round" and e.data["round"] > 1:
            survivors = sorted(f.id for f in st.alive())
            assert sorted(x for x in acted if x in survivors) == survivors
            acted.clear()
    if st.action is not None and not match.__dict__.get("_path"):
        f = st.f(st.action.fighter)
        match.__dict__["_start"] = (st.action.start_zone, f.round_zone)
    # Every pick stays secret until its public reveal (even if its fighter is
    # eliminated first and never reveals it).
    hidden: set[str] = match.__dict__.setdefault("_hidden_picks", set())
    for e in events:
        if e.type == "pick":
            assert e.visible_to is not None
            hidden.add(e.data["card"])
        elif e.type == "reveal" and e.visible_to is None:
            hidden.discard(e.data["card"])
    public = match.view(None).model_dump_json() + json.dumps(
        [e.model_dump(mode="json") for e in events if e.visible_to is None and e.type != "reveal"]
    )
    hidden |= {f.pick for f in st.fighters if f.pick}
    views = {s: match.view(s).model_dump_json() for s in range(len(match.seats))} if hidden else {}
    for cid in hidden:
        assert f'"{cid}"' not in public
        owner = st.f(st.card(cid).fighter).seat
        assert all(f'"{cid}"' not in v for s, v in views.items() if s != owner)
    for d in match.pending():
        assert d.options or isinstance(d.ask, Allocation)
        assert len({o.id for o in d.options}) == len(d.options)
        assert d.subject and all(len(o.id) <= 40 and ":" not in o.id for o in d.options)


@settings(max_examples=27, deadline=None)
@given(cfg=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_random_ai_matches_keep_invariants_and_end_by_round_12(
    cfg: tuple[str, int], seed: int
) -> None:
    mode, n = cfg
    m = play_out(new(mode, n, seed), max_decisions=3000, on_step=check)
    out = m.outcome()
    assert out is not None and out.winners and m.state.round <= 12


def test_every_mode_and_player_count_plays_to_the_end() -> None:
    for mode, n in CONFIGS:
        m = play_out(new(mode, n, f"all-{mode}-{n}"), max_decisions=3000, on_step=check)
        assert m.over


def test_replay_reproduces_the_snapshot() -> None:
    m = play_out(new("team-spirit", 2, "replay"))
    again = Match.replay("mad-arena", m.seats, "replay", "team-spirit", None, m.choices)
    assert again.snapshot() == m.snapshot()
    restored = Match.from_snapshot(json.loads(json.dumps(m.snapshot())))
    assert restored.snapshot() == m.snapshot()


def test_ai_never_uses_other_seats_secret_picks() -> None:
    """The AI decides from its seat's view: other fighters' hidden picks cannot change it."""
    m = new("ultimate-warrior", 5, "peek")
    first = m.pending()[0]
    m.apply(m.ai_choice(first))
    for d in m.pending():
        base = m.game.ai_choose(m.state, d, random.Random(1))
        alt = m.game.copy(m.state)
        for f in alt.fighters:
            if f.seat != d.seat and f.pick:
                f.pick = f.hand[0] if f.hand else f.pick
        assert m.game.ai_choose(alt, d, random.Random(1)) == base


def test_render_every_phase_is_a_small_png() -> None:
    m = new("ultimate-warrior", 7, "img")
    for _ in range(40):
        if m.over:
            break
        d = m.pending()[0]
        m.apply(m.ai_choice(d))
    for seat in (None, 0):
        for lang in ("fr", "en"):
            png = m.render(seat, lang)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            w = int.from_bytes(png[16:20], "big")
            h = int.from_bytes(png[20:24], "big")
            assert w <= 1024 and h <= 1024
    done = play_out(m)
    public = done.game.view(done.state, None)
    assert render_arena(public, "fr") == render_arena(public, "fr")


@settings(max_examples=20, deadline=None)
@given(cfg=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_random_legal_choices_never_break_the_rules(cfg: tuple[str, int], seed: int) -> None:
    """Any legal button, in any order among pending prompts, keeps the invariants."""
    mode, n = cfg
    m = new(mode, n, seed)
    rnd = random.Random(seed)
    steps = 0
    while not m.over:
        ds = m.pending()
        assert ds and steps < 5000
        d = rnd.choice(ds)
        choice = random_answer(d, rnd)
        events = m.apply(choice)
        check(m, choice, events)
        steps += 1
    assert m.outcome() is not None


@settings(max_examples=12, deadline=None)
@given(cfg=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_every_pending_option_applies_cleanly_and_garbage_is_refused(
    cfg: tuple[str, int], seed: int
) -> None:
    """Engine contract: from any reachable state, every listed option of every
    pending decision (a few random orders and splits for the strike and the
    dragon's fire) applies without error (on a copy), and anything else is a
    polite IllegalDecision that leaves the match untouched."""
    from bot.engine import IllegalDecision
    from bot.engine.dice import FairRng
    from bot.engine.game import Ctx

    mode, n = cfg
    m = new(mode, n, seed)
    rnd = random.Random(seed)
    steps = 0
    while not m.over and steps < 400:
        ds = m.pending()
        if steps % 3 == 0:
            for d in ds:
                tries = (
                    [Choice(seat=d.seat, key=d.key, option=o.id) for o in d.options]
                    if isinstance(d.ask, One)
                    else [random_answer(d, rnd) for _ in range(3)]
                )
                for c in tries:
                    state = m.game.copy(m.state)
                    ctx = Ctx(FairRng(m.dice.model_copy()))
                    m.game.apply(state, check_answer(d, c), ctx)
                    m.game.pending(state)
                    m.game.view(state, None)
            before = json.dumps(m.snapshot(), sort_keys=True)
            d = ds[0]
            good = random_answer(d, rnd)
            for bad in (
                Choice(seat=d.seat, key=d.key, option="nope"),
                Choice(seat=d.seat, key=d.key, option="move-z99"),
                good.model_copy(update={"seat": (d.seat + 1) % n}),
                good.model_copy(update={"key": "r99:pick:agaric"}),
            ):
                try:
                    m.apply(bad)
                except IllegalDecision as exc:
                    assert exc.reason.fr and exc.reason.en
                else:
                    raise AssertionError(f"{bad} was accepted")
            assert json.dumps(m.snapshot(), sort_keys=True) == before
        d = rnd.choice(ds)
        m.apply(random_answer(d, rnd))
        steps += 1


def test_replay_reproduces_the_snapshot_in_every_mode() -> None:
    """Seed + options + ordered choices rebuild the same match, in every mode."""
    for mode, n in CONFIGS:
        m = play_out(new(mode, n, f"replay-{mode}-{n}"), max_decisions=3000)
        again = Match.replay("mad-arena", m.seats, m.seed, mode, None, m.choices)
        assert again.snapshot() == m.snapshot()
        assert [e.model_dump() for e in again.events] == [e.model_dump() for e in m.events]


def test_ai_decisions_never_depend_on_other_seats_secrets() -> None:
    """The AI reads only its seat's view: swapping other seats' hidden picks and
    hands for different cards never changes any of its answers, in any phase."""
    for mode, n, seed in [("ultimate-warrior", 7, "peek7"), ("team-spirit", 6, "peek6")]:
        m = new(mode, n, seed)
        steps = 0
        while not m.over and steps < 250:
            d = m.pending()[0]
            base = m.game.ai_choose(m.state, d, random.Random(steps))
            alt = m.game.copy(m.state)
            for f in alt.fighters:
                if f.seat == d.seat:
                    continue
                if f.pick and f.hand:
                    f.pick, f.hand[0] = f.hand[0], f.pick
                f.hand.reverse()
            assert m.game.ai_choose(alt, d, random.Random(steps)) == base
            m.apply(reply_choice(d, base))
            steps += 1
        assert steps > 50
