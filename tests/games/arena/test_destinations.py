"""Whole destinations in one answer (issue 11.3): the same rules and the same events
as the single steps ("Bouger": exact length, no pawn crossed, no hex twice)."""

from __future__ import annotations

import random

from bot.engine.decisions import Decision
from bot.games.arena.args import Attack, Move, Step
from bot.games.arena.board import Hex, label, neighbours
from bot.games.arena.rules import blocked_hexes
from bot.games.arena.state import ArenaState
from tests.games.arena.helpers import GAME, arrange, offered, play, steps

FAR = (-3, 3)


def _decision(state: ArenaState) -> Decision:
    return GAME.pending(state)[0]


def _ends_by_single_steps(state: ArenaState) -> set[Hex]:
    """Every hex the single steps can end a complete move on (brute force)."""
    ends: set[Hex] = set()

    def walk(s: ArenaState) -> None:
        ids = steps(s)
        if not ids:
            ends.add(s.fighters[0].pos)
            return
        for d in ids:
            nxt = GAME.copy(s)
            play(nxt, 0, d)
            if nxt.turn is not None and nxt.turn.seat == 0 and nxt.turn.step == "fight":
                walk(nxt)
            else:
                ends.add(nxt.fighters[0].pos)

    walk(GAME.copy(state))
    return ends


def _comparable(events: list) -> list[tuple[str, str, str]]:
    return [(e.type, e.text.fr, e.text.en) for e in events]


def test_destinations_are_exactly_the_ends_of_legal_moves() -> None:
    positions = [(0, 0), (1, -1), (-1, 1), (0, -2), (2, 0), (-2, 0)]
    for posture in ("defensive", "balancee", "agressive", "dechainee"):
        state = arrange(positions)
        play(state, 0, posture)
        moves = [o.args for o in _decision(state).options if isinstance(o.args, Move)]
        dests = {m.to for m in moves if m.target is None}
        assert dests == _ends_by_single_steps(state), posture
        blocked = blocked_hexes(state, 0)
        for m in moves:
            assert m.to == m.path[-1] and len(m.path) == state.turn.required
            hexes = [(0, 0), *m.path]
            assert len(set(hexes)) == len(hexes)  # never twice on one hex
            assert not set(m.path) & blocked  # never through or onto a pawn
            assert all(b in set(neighbours(a)) for a, b in zip(hexes, hexes[1:], strict=False))


def test_a_destination_is_labelled_with_its_hex_name() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "balancee")
    for opt in _decision(state).options:
        if isinstance(opt.args, Move) and opt.args.target is None:
            assert opt.label.fr == opt.label.en == label(opt.args.to)
            assert opt.id == f"m{label(opt.args.to)}"
        elif isinstance(opt.args, Move):
            assert opt.label.en.startswith(label(opt.args.to) + " ⚔ ")


def test_a_whole_move_makes_the_same_events_and_state_as_its_single_steps() -> None:
    for seed in range(6):
        rnd = random.Random(seed)
        state = arrange([(0, 0), (2, -3), (-3, 2)])
        play(state, 0, "dechainee")
        moves = [o for o in _decision(state).options if isinstance(o.args, Move)]
        opt = rnd.choice([o for o in moves if o.args.target is None])
        whole = GAME.copy(state)
        events = play(whole, 0, opt.id)
        stepped = GAME.copy(state)
        step_events = []
        for to in opt.args.path:
            d = _decision(stepped)
            sid = next(o.id for o in d.options if isinstance(o.args, Step) and o.args.to == to)
            step_events += play(stepped, 0, sid)
        if stepped.turn is not None and stepped.turn.seat == 0:
            step_events += play(stepped, 0, "end")
        assert _comparable(events) == _comparable(step_events)
        assert GAME.dump(whole) == GAME.dump(stepped)


def test_move_then_attack_in_one_answer_is_the_steps_then_the_attack() -> None:
    state = arrange([(0, 0), (3, -1), FAR], f1={"posture": "balancee"})
    play(state, 0, "balancee")
    opt = next(
        o
        for o in _decision(state).options
        if isinstance(o.args, Move) and o.args.target == 1 and o.args.to == (2, 0)
    )
    assert opt.label.en == f"{label((2, 0))} ⚔ Bob" and opt.stats["dmg"] == 1
    whole = GAME.copy(state)
    events = play(whole, 0, opt.id, dice=[6, 6, 1, 1])
    stepped = GAME.copy(state)
    step_events = []
    for to in opt.args.path:
        d = _decision(stepped)
        sid = next(o.id for o in d.options if isinstance(o.args, Step) and o.args.to == to)
        step_events += play(stepped, 0, sid)
    step_events += play(stepped, 0, "atk1", dice=[6, 6, 1, 1])
    assert _comparable(events) == _comparable(step_events)
    assert GAME.dump(whole) == GAME.dump(stepped)
    assert whole.fighters[1].hp == 6 and whole.turn.seat != 0


def test_attack_on_the_way_stays_possible_step_by_step() -> None:
    """Book: "bouger-attaquer-finir son mouvement" needs the single steps."""
    state = arrange([(0, 0), (2, 0), FAR], f1={"posture": "agressive"})
    play(state, 0, "agressive")
    d = _decision(state)
    assert {o.group.en for o in d.options if isinstance(o.args, Step)} == {"👣 Step by step"}
    assert d.hint is not None
    play(state, 0, "e", "atk1", dice=[6, 6, 6, 1])
    # Two hexes left, no second attack: destinations only (and the steps).
    d = _decision(state)
    assert not any(isinstance(o.args, Attack) for o in d.options)
    assert all(o.args.target is None for o in d.options if isinstance(o.args, Move))
    play(state, 0, next(o for o in offered(state) if o.startswith("m")))
    assert state.turn.seat != 0 and len(state.last.path) == 4


def test_a_typed_hex_name_is_the_whole_move_there() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "agressive")
    d = _decision(state)
    target = next(o for o in d.options if isinstance(o.args, Move))
    assert GAME.parse_option(state, d, label(target.args.to).lower()) == target.id
