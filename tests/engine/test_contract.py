"""The contract every registered game keeps, checked over every game, mode and player count.

The cases come from the registry (every package under ``bot/games`` that
registers a game), so a new game is covered by registering. For each case a
few playouts answer random legal answers of every shape (One, Many, Order,
Allocation; an allocation the game refuses falls back to the game's AI) and check:

- every pending decision is well formed (unique keys and option ids, a real seat);
- every offered option of a One decision is accepted (applied to a fork when the
  decision is first offered: all of them in one playout per mode, a sample in the others);
- every refused answer (an id not offered, a wrong shape, a bad allocation, the
  wrong seat, a key not pending) leaves the match exactly as it was;
- ``game.load(game.dump(state))`` (through JSON) dumps, asks, shows (the public and
  one seat in turn) and ends the same (every third step and at the end);
- every pending decision sent to a worker process as its JSON
  (:class:`bot.engine.wire.DecisionWire`) comes back equal, each ``args`` of the
  game's own class (every third step);
- a secret choice changes nothing another seat (or the public) sees -- views,
  events, the decisions it is asked -- while the secret decisions asked together
  with it are still pending (two answers compared on forks: this differential test
  finds a leak of any form, not only a label in the JSON); the reveal may come once
  none of those is pending;
- a private event's text is not shown to a seat it is not meant for;

and at the end that the match is over within a step budget and that replaying
its choices gives the same snapshot and events.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from pydantic import BaseModel

import tests.engine.fixture_game  # noqa: F401  (registers test-shapes)
from bot.engine import Choice, Match, SeatSpec
from bot.engine.answers import allocation_ok
from bot.engine.decisions import Allocation, Decision, Many, One, Order
from bot.engine.errors import EngineError, IllegalDecision
from bot.engine.events import AnyEvent
from bot.engine.game import Game, View
from bot.engine.randomplay import random_choice
from bot.engine.registry import discovered_games, get_game
from bot.engine.wire import DecisionWire

PLAYOUTS = 1
"""Playouts per case: each mode gets one per player count and option value, several in all
(the whole file has to stay within about a minute on two shared cores)."""
SAMPLE = 2
"""Options tried per decision, except in the playout of each mode at its smallest player
count with default options, where every option of every decision is tried."""
MAX_STEPS = 5_000
FIXTURES = ["test-shapes"]
"""Engine fixture games checked too: test-shapes asks every shape the real games may not."""


def _games() -> list[Game[Any, Any]]:
    return [*discovered_games(), *(get_game(g) for g in FIXTURES)]


def _cases() -> list[Any]:
    """(game, mode, players, options): defaults for every mode and count, then each other
    value of a choice or yes/no option once, at the first mode's smallest count."""
    cases = []
    for game in _games():
        info = game.info
        for mode in info.modes:
            for n in mode.player_counts:
                cases.append(pytest.param(info.id, mode.id, n, {}, id=f"{info.id}-{mode.id}-{n}p"))
        mode = info.modes[0]
        for spec in info.options:
            values: list[Any] = []
            if spec.type == "choice":
                values = [v for v, _ in spec.choices if v != spec.default]
            elif spec.type == "bool":
                values = [not spec.default]
            for v in values:
                cases.append(
                    pytest.param(
                        info.id,
                        mode.id,
                        mode.player_counts[0],
                        {spec.id: v},
                        id=f"{info.id}-{mode.id}-{mode.player_counts[0]}p-{spec.id}={v}",
                    )
                )
    return cases


# --- helpers ----------------------------------------------------------------------------------
def _plain(data: Any) -> Any:
    return data.model_dump(mode="json") if isinstance(data, BaseModel) else data


def _json(data: Any) -> str:
    return json.dumps(_plain(data), sort_keys=True, ensure_ascii=False, default=str)


def _frozen(m: Match) -> str:
    """Everything a refusal must leave as it was."""
    return _json(
        {
            "snapshot": m.snapshot(),
            "choices": len(m.choices),
            "events": len(m.events),
            "pending": [d.model_dump(mode="json") for d in m.pending()],
        }
    )


def _fork(m: Match) -> Match:
    """A match to try an answer on: ``Match.apply`` copies the state before touching it."""
    return Match(
        m.game, m.mode, m.options, m.seats, m.dice, m.state, m.version, dict(m.pending_since)
    )


def _bad_choices(d: Decision, seats: int) -> list[Choice]:
    """Answers the engine must refuse for ``d``."""
    ids = [o.id for o in d.options]
    c = {"seat": d.seat, "key": d.key}
    bad = [
        Choice(**c, option="__not-offered__"),
        Choice(seat=d.seat, key="__not-pending__", option=ids[0] if ids else "x"),
        Choice(**c),
    ]
    if seats > 1:
        bad.append(Choice(seat=(d.seat + 1) % seats, key=d.key, option=ids[0] if ids else "x"))
    ask = d.ask
    if isinstance(ask, One):
        bad += [Choice(**c, options=ids[:1]), Choice(**c, amounts={})]
    elif isinstance(ask, Many | Order):
        bad += [
            Choice(**c, option=ids[0] if ids else "x"),
            Choice(**c, options=[*ids, "__not-offered__"]),
        ]
        if ids:
            bad.append(Choice(**c, options=[ids[0], ids[0]]))
        if isinstance(ask, Order) and ids:
            bad.append(Choice(**c, options=ids[:-1]))
        if isinstance(ask, Many):
            if ask.max is not None and ask.max < len(ids):
                bad.append(Choice(**c, options=ids[: ask.max + 1]))
            if ask.min > 0:
                bad.append(Choice(**c, options=ids[: ask.min - 1]))
    else:
        assert isinstance(ask, Allocation)
        low = {q.id: q.min for q in ask.quantities}
        bad += [
            Choice(**c, option="x"),
            Choice(**c, options=[]),
            Choice(**c, amounts={**low, "__not-a-quantity__": 0}),
        ]
        for q in ask.quantities:
            bad.append(Choice(**c, amounts={**low, q.id: q.max + 1}))
            bad.append(Choice(**c, amounts={**low, q.id: q.min - 1}))
        high = {q.id: q.max for q in ask.quantities}
        bad += [Choice(**c, amounts=a) for a in (low, high) if not allocation_ok(ask, a)]
    return bad


def _observed(m: Match, seat: int | None, events: list[AnyEvent]) -> str:
    """What ``seat`` (None: the public) learns: its view, its events, what it is asked."""
    asked = [
        d.model_dump(mode="json")
        for d in m.pending()
        if (d.seat == seat if seat is not None else not d.secret)
    ]
    return _json(
        {
            "view": _plain(m.view(seat)),
            "events": [e.model_dump(mode="json") for e in events if e.visible(seat)],
            "asked": asked,
        }
    )


# --- the checks -------------------------------------------------------------------------------
def _check_well_formed(m: Match) -> None:
    pending = m.pending()
    assert pending, "not over, yet nothing is pending"
    keys = [d.key for d in pending]
    assert len(keys) == len(set(keys)), keys
    for d in pending:
        assert 0 <= d.seat < len(m.seats), d.key
        ids = [o.id for o in d.options]
        assert len(ids) == len(set(ids)), (d.key, ids)
        if isinstance(d.ask, One | Order):
            assert ids, f"{d.key}: nothing to choose from"
        if isinstance(d.ask, Allocation):
            qids = [q.id for q in d.ask.quantities]
            assert len(qids) == len(set(qids)), (d.key, qids)


def _check_every_option_accepted(m: Match, rnd: random.Random, sample: int | None) -> None:
    """Each One decision's options (``sample``: only that many), when it is first offered."""
    for d in m.pending():
        if isinstance(d.ask, One) and m.pending_since[d.key] == m.version:
            options = d.options
            if sample is not None and len(options) > sample:
                options = rnd.sample(options, sample)
            for o in options:
                try:
                    _fork(m).apply(Choice(seat=d.seat, key=d.key, option=o.id))
                except EngineError as exc:
                    pytest.fail(f"{d.key}: offered option {o.id!r} refused: {exc.reason.en}")


def _check_refusals_change_nothing(m: Match) -> None:
    before = _frozen(m)
    for d in m.pending():
        for bad in _bad_choices(d, len(m.seats)):
            with pytest.raises(IllegalDecision):
                m.apply(bad)
    assert _frozen(m) == before, "a refused answer changed the match"


def _check_dump_load(m: Match) -> None:
    game = m.game
    dumped = game.dump(m.state)
    again = game.load(json.loads(json.dumps(dumped)))
    assert _json(game.dump(again)) == _json(dumped), "load(dump(state)) dumps differently"
    assert _json(game.pending(again)) == _json(m.pending()), "a loaded state asks differently"
    for seat in (None, m.version % len(m.seats)):
        assert _json(game.view(again, seat)) == _json(m.view(seat)), "a loaded state shows less"
    assert _json(game.outcome(again)) == _json(m.outcome()), "a loaded state ends differently"


def _check_decisions_travel(m: Match) -> None:
    for d in m.pending():
        back = pickle.loads(pickle.dumps(DecisionWire.of(d))).decision()
        assert back == d, f"{d.key}: the decision sent to a worker came back different"
        options = zip(back.options, d.options, strict=True)
        pairs = [(back.args, d.args), *((b.args, o.args) for b, o in options)]
        for got, sent in pairs:
            assert type(got) is type(sent), f"{d.key}: {type(sent)} came back {type(got)}"


def _check_secrets_stay_secret(m: Match, rnd: random.Random) -> None:
    """One secret decision a step (a random one), tried with two different answers."""
    secret = [d for d in m.pending() if d.secret]
    if not secret:
        return
    d = rnd.choice(secret)
    # Secret questions asked at the same time: until each is answered, ``d``'s answer
    # must not show (a new secret question asked after it, e.g. next round's picks
    # after a lucky charm's public effect, does not forbid a reveal).
    alongside = {p.key for p in secret if p.key != d.key}
    if isinstance(d.ask, One):
        ids = [o.id for o in d.options]
        tries: list[Choice | None] = [
            Choice(seat=d.seat, key=d.key, option=oid) for oid in rnd.sample(ids, min(2, len(ids)))
        ]
    else:
        tries = [random_choice(d, rnd) for _ in range(2)]
    seen: dict[int | None, set[str]] = {}
    for choice in tries:
        if choice is None:
            continue
        fork = _fork(m)
        try:
            events = fork.apply(choice)
        except IllegalDecision:
            continue  # an allocation the game refuses; One options are checked elsewhere
        if not any(p.secret and p.key in alongside for p in fork.pending()):
            continue  # the last of the secret answers asked together: the reveal may happen now
        for seat in [None, *range(len(m.seats))]:
            if seat != d.seat:
                seen.setdefault(seat, set()).add(_observed(fork, seat, events))
    for seat, observations in seen.items():
        who = "the public" if seat is None else f"seat {seat}"
        assert len(observations) == 1, f"{who} can tell what seat {d.seat} chose for {d.key}"


def _check_private_events(m: Match, events: list[AnyEvent]) -> None:
    for e in events:
        if e.visible_to is None:
            continue
        assert all(0 <= s < len(m.seats) for s in e.visible_to), e.visible_to
        for seat in [None, *range(len(m.seats))]:
            if e.visible(seat):
                continue
            shown = {t for o in events if o.visible(seat) for t in (o.text.fr, o.text.en)}
            view = _json(m.view(seat))
            for text in (e.text.fr, e.text.en):
                assert text not in shown, f"private {e.type!r} also shown to {seat}"
                assert _json(text)[1:-1] not in view, f"private {e.type!r} in the view of {seat}"


def _answer(m: Match, d: Decision, rnd: random.Random) -> list[AnyEvent]:
    """Apply a random answer; an allocation the game refuses falls back to its AI's."""
    choice = random_choice(d, rnd)
    if choice is not None:
        if not isinstance(d.ask, Allocation):
            return m.apply(choice)
        before = _frozen(m)
        try:
            return m.apply(choice)
        except IllegalDecision:
            assert _frozen(m) == before, "a refused allocation changed the match"
    return m.apply(m.ai_choice(d))


def _playout(
    game_id: str, mode: str, n: int, options: dict[str, Any], seed: str, sample: int | None
) -> Match:
    seats = [SeatSpec(name=f"Seat {i + 1}") for i in range(n)]
    m = Match.create(game_id, seats, seed, mode, options)
    rnd = random.Random(seed)
    _check_private_events(m, m.events)
    steps = 0
    while not m.over:
        assert steps < MAX_STEPS, f"{game_id} still running after {steps} random answers"
        _check_well_formed(m)
        _check_every_option_accepted(m, rnd, sample)
        _check_refusals_change_nothing(m)
        _check_secrets_stay_secret(m, rnd)
        events = _answer(m, rnd.choice(m.pending()), rnd)
        _check_private_events(m, events)
        if steps % 3 == 0:
            _check_dump_load(m)
            _check_decisions_travel(m)
        steps += 1
    assert m.pending() == [], "over, yet decisions are pending"
    _check_dump_load(m)
    again = Match.replay(game_id, seats, seed, mode, options, m.choices)
    assert _json(again.snapshot()) == _json(m.snapshot()), "the replay differs from the match"
    assert [e.model_dump() for e in again.events] == [e.model_dump() for e in m.events]
    restored = Match.from_snapshot(json.loads(json.dumps(m.snapshot())))
    assert _json(restored.snapshot()) == _json(m.snapshot())
    return m


@pytest.mark.parametrize(("game_id", "mode", "players", "options"), _cases())
def test_random_playouts_keep_the_contract(
    game_id: str, mode: str, players: int, options: dict[str, Any]
) -> None:
    smallest = get_game(game_id).info.mode(mode).player_counts[0]
    for i in range(PLAYOUTS):
        seed = f"contract-{game_id}-{mode}-{players}-{i}"
        full = i == 0 and not options and players == smallest
        _playout(game_id, mode, players, options, seed, None if full else SAMPLE)


@pytest.mark.parametrize("game_id", [g.info.id for g in _games()])
def test_views_are_the_games_typed_view(game_id: str) -> None:
    """Views are pydantic models (renderer, AI and prompts read typed fields)."""
    info = get_game(game_id).info
    mode = info.modes[0]
    seats = [SeatSpec(name=f"Seat {i + 1}") for i in range(mode.player_counts[0])]
    m = Match.create(game_id, seats, "typed-view", mode.id)
    for seat in [None, *range(len(seats))]:
        assert isinstance(m.view(seat), View), type(m.view(seat))


def test_every_game_package_is_covered() -> None:
    """The cases come from discovery: each package under bot/games that registers is here."""
    ids = {c.values[0] for c in _cases()}
    assert {g.info.id for g in discovered_games()} <= ids
    assert "test-shapes" in ids and "test-pick" not in ids
