"""One person, several fighters (RULINGS "Modes"): per-fighter prompts, buttons, secrecy to the end."""

from __future__ import annotations

import json

import bot.games.mad_arena  # noqa: F401
from bot.engine import Match, SeatSpec
from bot.engine.events import RollEvent


def test_one_user_runs_three_fighters_through_a_whole_match_with_buttons() -> None:
    """Team Spirit at 2: seat 0 answers its prompts like buttons (made at their version)."""
    m = Match.create(
        "mad-arena",
        [SeatSpec(name="Ann"), SeatSpec(name="Bot", ai=True)],
        seed="ann",
        mode="team-spirit",
    )
    mine = {f.id for f in m.state.fighters if f.seat == 0}
    names = {m.state.name(f) for f in mine}
    several_at_once = False
    steps = 0
    while not m.over and steps < 3000:
        steps += 1
        ds = m.pending()
        human = [d for d in ds if d.seat == 0]
        if len(human) > 1:
            several_at_once = True
        for d in ds:
            assert d.subject and d.subject in d.prompt.en and d.subject in d.prompt.fr
            if d.seat == 0:
                assert d.subject in names
        if human:
            # Buttons for every pending prompt were drawn at these versions; answer them all.
            stamped = [(d, m.pending_since[d.key]) for d in human]
            for d, version in stamped:
                if m.decision(d.key) is None:
                    continue
                m.apply(m.ai_choice(d).model_copy(update={"seat": 0}), expected_version=version)
        else:
            m.apply(m.ai_choice(ds[0]))
    assert m.over and several_at_once


def test_unrevealed_picks_stay_hidden_during_the_countdown() -> None:
    """§2.3: a card is turned when its number is called; later ones stay face down."""
    m = Match.create(
        "mad-arena",
        [SeatSpec(name=f"P{i}", ai=True) for i in range(5)],
        seed="hide",
        mode="ultimate-warrior",
    )
    checked = 0
    while not m.over and checked < 200:
        d = m.pending()[0]
        m.apply(m.ai_choice(d))
        st = m.state
        if st.phase == "action":
            hidden = {f.pick for f in st.fighters if f.pick}
            public = m.view(None).model_dump_json() + json.dumps(
                [
                    e.model_dump()
                    for e in m.events[max(i for i, e in enumerate(m.events) if e.type == "round") :]
                    if e.visible_to is None and not isinstance(e, RollEvent)
                ]
            )
            for cid in hidden:
                assert f'"{cid}"' not in public
                owner = next(f for f in st.fighters if f.pick == cid)
                assert cid in m.view(owner.seat).model_dump_json()
                others = [s for s in range(5) if s != owner.seat]
                assert all(f'"{cid}"' not in m.view(s).model_dump_json() for s in others)
            checked += 1
    assert checked > 10
