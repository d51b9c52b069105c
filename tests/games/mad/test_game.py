"""The engine contract for MAD: decisions, notation, refusals, views, images, replay, AI."""

from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from PIL import Image

from bot.engine import Choice, IllegalDecision, Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.games.mad import ai
from bot.games.mad.args import (
    Displacement,
    Permutation,
    ProposeTiebreak,
    Rotation,
    TiebreakQuestion,
    TiebreakReply,
    TurnArgs,
    TurnOf,
)
from bot.games.mad.core import BLUE, EXILE, RED, board, corvette_exiled, successors
from bot.games.mad.game import DRAW, GAME
from bot.games.mad.notation import key, turn_text
from bot.games.mad.state import TIEBREAK_TURNS
from bot.games.mad.view import LastView, MadView
from tests.games.mad.helpers import decision, ids, play, state

AI_SEATS = [
    SeatSpec(name="Ann", ai=True, ai_level="easy"),
    SeatSpec(name="Bob", ai=True, ai_level="easy"),
]


def new(seed: str | int = 1, **options: object) -> Match:
    return Match.create("mad", AI_SEATS, seed=seed, options=dict(options))


# --- decisions -----------------------------------------------------------------------------


def test_one_decision_with_grouped_short_ascii_options() -> None:
    m = new(positioning=False)
    [d] = m.pending()
    assert d.seat == 0 and d.kind == "turn" and d.subject == "red"
    for o in d.options:
        assert o.id.isascii() and ":" not in o.id and len(o.id) <= 40
        assert o.group is not None and o.label.fr and o.label.en
    groups = {o.group.fr for o in d.options if o.group}
    assert "Frégate 211 en c2" in groups and "Permutation" in groups and "Rotation" in groups
    assert len({o.id for o in d.options}) == len(d.options)


def test_options_cover_exactly_the_distinct_successor_positions() -> None:
    st = state("6x4", "R111@a1 B111@d6 R221@b5 R122@a2 R212@c2 B121@b6")
    b = board("6x4")
    results = set()
    for oid in ids(st) - {DRAW}:
        s2 = st.model_copy(deep=True)
        play(s2, oid)
        results.add(tuple(s2.pos))
    assert results == successors(b, tuple(st.pos), RED, False)


def test_bad_choice_is_refused_politely_and_changes_nothing() -> None:
    m = new()
    before = json.dumps(m.snapshot(), sort_keys=True)
    d = m.pending()[0]
    with pytest.raises(IllegalDecision) as e:
        m.apply(Choice(seat=0, key=d.key, option="a1-a9"))
    assert e.value.reason.fr and e.value.reason.en
    with pytest.raises(IllegalDecision):
        m.apply(Choice(seat=1, key=d.key, option="pass"))
    assert json.dumps(m.snapshot(), sort_keys=True) == before


def test_apply_refuses_an_option_that_is_not_legal() -> None:
    """Called directly (not through Match), apply still refuses, with a reason.

    A forged answer carrying an illegal displacement (b3 to b6: three squares) or
    the right move from the wrong seat changes nothing.
    """
    from bot.engine.decisions import Answer, Option
    from bot.engine.dice import DiceState, FairRng
    from bot.engine.game import Ctx
    from bot.engine.text import Text

    st = state("6x4", "R111@a1 B111@d6 R211@b3")
    before = st.model_copy(deep=True)
    d = decision(st)
    b = board("6x4")
    far = Option(
        id="b3-b6",
        label=Text(fr="b3-b6", en="b3-b6"),
        args=Displacement(ship=3, src=b.square("b3") or 0, dst=b.square("b6") or 0),
    )
    ctx = Ctx(FairRng(DiceState(seed="s")))
    with pytest.raises(IllegalDecision) as e:
        GAME.apply(st, Answer(Choice(seat=0, key=d.key, option=far.id), d, [far], {}), ctx)
    assert e.value.reason.fr and e.value.reason.en
    near = d.option("b3-b4")
    assert near is not None
    with pytest.raises(IllegalDecision):
        GAME.apply(st, Answer(Choice(seat=1, key=d.key, option=near.id), d, [near], {}), ctx)
    assert st == before and ctx.events == []


def test_options_carry_typed_args_matching_their_notation() -> None:
    """Every option says what it means (a typed turn); its id is only the notation."""
    st = state("6x4", "R111@a1 B111@d6 R211@b5 R112@c2 B121@c6")
    d = decision(st)
    assert isinstance(d.args, TurnOf) and d.args.side == RED
    b = board("6x4")
    pos = tuple(st.pos)
    for o in d.options:
        if o.id == DRAW:
            assert isinstance(o.args, ProposeTiebreak)
        else:
            assert isinstance(o.args, TurnArgs) and turn_text(b, pos, o.args.turn()) == o.id
    bonus = d.option("b5-b6+211=122")  # ship 3 (red 211), squares 17 (b5) and 21 (b6)
    assert bonus is not None and bonus.args == Displacement(
        ship=3, src=17, dst=21, bonus=Permutation(ships=(3, 4))
    )
    rot = d.option("112>121>211")
    assert rot is not None and rot.args == Rotation(ships=(1, 2, 3))


def test_typing_hint_shows_a_quiet_move_else_a_teleport() -> None:
    """The hint's example is a displacement without expulsion, else a permutation."""
    quiet = decision(state("6x4", "R111@a1 B111@d6 R211@b3"))
    assert quiet.hint is not None and "text:a1-a2`" in quiet.hint.en
    only_captures = decision(state("6x4", "R111@a1 B111@d6 B211@a2 B121@b1"))
    assert [o.id for o in only_captures.options] == ["a1xa2", "a1xb1", "111=222", DRAW]
    assert only_captures.hint is not None and "coup:111=222`" in only_captures.hint.fr


def test_bad_setup_options_are_refused() -> None:
    with pytest.raises(IllegalDecision):
        new(board="7x7")
    with pytest.raises(IllegalDecision):
        new(ai_level="grandmaster")


# --- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed,expected",
    [
        ("b3-b4", "b3-b4"),
        ("B3 B4", "b3-b4"),
        ("211 b3-b4", "b3-b4"),
        ("b3xb4", "b3-b4"),
        ("b5-b6 + 112=221", "b5-b6+112=221"),
        ("b5b6+221=112", "b5-b6+112=221"),
        ("121>211>112", "112>121>211"),
        ("211=122", "211=122"),
        ("122 211", "211=122"),
        ("départage", DRAW),
    ],
)
def test_parse_option_accepts_the_notation(typed: str, expected: str) -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3 R112@b5 R121@c2 R122@d2")
    d = decision(st)
    assert GAME.parse_option(st, d, typed) == expected


@pytest.mark.parametrize(
    "typed", ["b3-b6", "c3-c4", "112=222", "111>112>121", "hello", "", "b3-b4+121=212"]
)
def test_parse_option_rejects_illegal_or_garbage(typed: str) -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3 R112@b5 R121@c2 R122@d2")
    assert GAME.parse_option(st, decision(st), typed) is None


def test_parse_option_wrong_ship_prefix_is_refused() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3")
    assert GAME.parse_option(st, decision(st), "121 b3-b4") is None


def test_parse_option_pass_and_tiebreak_answers() -> None:
    b = board("6x4")
    st = state("6x4", "", turn=0)
    st.pos = list(b.start)
    assert GAME.parse_option(st, decision(st), "passe") == "pass"
    play(st, DRAW)
    d = decision(st)
    assert (
        GAME.parse_option(st, d, "oui") == "accept" and GAME.parse_option(st, d, "No") == "refuse"
    )


def test_notation_key_is_none_for_malformed_text() -> None:
    assert key("a1-") is None and key("+") is None and key("a1-a2+b1") is None


# --- events, view, image ----------------------------------------------------------------------


def test_turn_event_names_the_move_and_the_expulsion_in_both_languages() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3 B121@b4")
    [ev] = play(st, "b3xb4")
    assert ev.text.fr == "Rouge : 211 b3xb4 — Frégate 121 bleue expulsée"
    assert ev.text.en == "Red: 211 b3xb4 — blue frigate 121 expelled"
    assert ev.data["notation"] == "b3xb4"


def test_view_carries_everything_the_renderer_needs() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3 B121@b4")
    play(st, "b3xb4")
    v = GAME.view(st, None)
    assert isinstance(v, MadView)
    assert MadView.model_validate_json(v.model_dump_json()) == v
    assert v.last == LastView(
        side=RED, text="b3xb4", kind="211", src="b3", dst="b4", expelled=[10], via=None
    )
    assert {s.kind for s in v.ships if s.square is None and s.side == BLUE} >= {"121"}
    assert GAME.view(st, 0) == v.model_copy(update={"seat": 0})  # nothing is secret in MAD


def test_view_holds_the_counters_the_rules_derive() -> None:
    """Départage: the view says how many turns are left before the 40-turn tie-break
    and who a tie-break would give the half victory to (the last to expel, else blue)."""
    st = state("6x4", "R111@a1 B111@d6 R211@b3 B211@c5", streak=TIEBREAK_TURNS - 3)
    v = GAME.view(st, None)
    assert (v.to_move, v.turn_number, v.turns_left, v.tiebreak_winner) == (RED, 11, 3, BLUE)
    assert not v.positioning_turn and v.result is None
    play(st, "b3-b4")
    v = GAME.view(st, None)
    assert (v.to_move, v.turn_number, v.turns_left) == (BLUE, 12, 2)
    st2 = state("6x4", "R111@a1 B111@d6 R211@b3 B121@b4", last_expeller=BLUE)
    play(st2, "b3xb4")
    v2 = GAME.view(st2, None)
    assert (v2.turns_left, v2.tiebreak_winner) == (TIEBREAK_TURNS, RED)
    first = GAME.view(state("6x4", "R111@a1 B111@d6", turn=0), None)
    assert first.positioning_turn and first.turn_number == 1


def test_view_marks_a_bonus_move() -> None:
    """Coup bonus: the last turn says the displacement earned its teleport."""
    st = state("6x4", "R111@a1 B111@d6 R211@b5 R112@c2")
    play(st, "b5-b6+211=122")
    last = GAME.view(st, None).last
    assert last is not None and last.bonus and set(last.teleported) == {3, 4}
    st2 = state("6x4", "R111@a1 B111@d6 R211@b5 R112@c2")
    play(st2, "b5-b6")
    last2 = GAME.view(st2, None).last
    assert last2 is not None and not last2.bonus


def test_two_square_move_is_drawn_through_its_free_square_never_diagonally() -> None:
    """Le déplacement: no diagonal; a 2-square L move goes through a free square.

    The view names that square (``via``) and the image draws the path through
    its centre, so the highlight never suggests a diagonal move.
    """
    from io import BytesIO

    from PIL import Image

    from bot.games.mad.render import square_centre
    from bot.render.common import HIGHLIGHT

    st = state("6x4", "R111@a1 B111@d6 R211@b3 R121@b4")  # b4 taken: b3-c4 goes via c3
    play(st, "b3-c4")
    v = GAME.view(st, None)
    assert v.last is not None and v.last.via == "c3"
    img = Image.open(BytesIO(GAME.render(v, "fr"))).convert("RGB")
    # The path's yellow line crosses c3's centre.
    assert img.getpixel(tuple(map(int, square_centre(v, "c3")))) == HIGHLIGHT
    st2 = state("6x4", "R111@a1 B111@d6 R211@b3")
    play(st2, "b3-b5")
    assert GAME.view(st2, None).last == LastView(
        side=RED, text="b3-b5", kind="211", src="b3", dst="b5", via="b4"
    )
    st3 = state("6x4", "R111@a1 B111@d6 R211@b3")
    play(st3, "b3-b4")
    last3 = GAME.view(st3, None).last
    assert last3 is not None and last3.via is None


@pytest.mark.parametrize("board_id", ["6x4", "5x5"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_render_is_a_small_png_and_pure(board_id: str, lang: str) -> None:
    m = new(seed=7, board=board_id)
    for _ in range(12):
        d = m.pending()[0]
        m.apply(m.ai_choice(d))
    png = m.render(None, lang)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width <= 1024 and img.height <= 1200
    assert m.render(None, lang) == png


def test_render_final_position_and_offer() -> None:
    st = state("6x4", "R111@a1 B111@a3 R121@a2")
    play(st, "a2xa3")
    assert GAME.render(GAME.view(st, None), "fr")[:4] == b"\x89PNG"
    st2 = state("5x5", "R111@a1 B111@d5 R121@a2")
    play(st2, DRAW)
    assert GAME.render(GAME.view(st2, None), "en")[:4] == b"\x89PNG"


def test_checkpoint_only_after_a_turn_or_the_end() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3")
    assert not GAME.checkpoint(play(st, DRAW))
    assert not GAME.checkpoint(play(st, "refuse"))
    assert GAME.checkpoint(play(st, "b3-b4"))


# --- replay, persistence ---------------------------------------------------------------------


def test_replay_and_snapshot_roundtrip() -> None:
    m = play_out(new(seed="replay"), max_decisions=500)
    again = Match.replay("mad", AI_SEATS, "replay", None, {}, m.choices)
    assert again.snapshot() == m.snapshot()
    restored = Match.from_snapshot(json.loads(json.dumps(m.snapshot())))
    assert restored.snapshot() == m.snapshot()


def test_restart_mid_match_continues_identically() -> None:
    m = new(seed="mid", board="5x5")
    for _ in range(4):
        m.apply(m.ai_choice(m.pending()[0]))
    assert not m.over
    restored = Match.from_snapshot(json.loads(json.dumps(m.snapshot())), choices=list(m.choices))
    play_out(m, max_decisions=500)
    play_out(restored, max_decisions=500)
    assert restored.snapshot() == m.snapshot()


# --- AI ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ai.LEVELS)
def test_ai_takes_the_enemy_corvette_when_it_can(level: str) -> None:
    st = state("6x4", "R111@a1 B111@c4 R222@c2 B222@d6 B122@a6", ai_level=level)
    oid = GAME.ai_choose(st, decision(st), random.Random(1), level)
    play(st, oid)
    assert corvette_exiled(tuple(st.pos)) == BLUE


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_ai_saves_its_threatened_corvette(level: str) -> None:
    """Blue 121 threatens red 111 on b2; the searching levels move it or cover it."""
    st = state("6x4", "R111@b2 B111@d6 B121@b3 R112@d1 R211@a1")
    oid = GAME.ai_choose(st, decision(st), random.Random(1), level)
    play(st, oid)
    blue_can_win = any(
        corvette_exiled(p) == RED for p in successors(board("6x4"), tuple(st.pos), BLUE, False)
    )
    assert not blue_can_win


def test_ai_is_deterministic_for_a_seed() -> None:
    a = play_out(
        Match.create("mad", [SeatSpec(name="a", ai=True, ai_level="medium")] * 2, seed=3),
        max_decisions=300,
    )
    b = play_out(
        Match.create("mad", [SeatSpec(name="a", ai=True, ai_level="medium")] * 2, seed=3),
        max_decisions=300,
    )
    assert a.choices == b.choices


def test_hard_search_depth_and_time_budget() -> None:
    b = board("6x4")
    res = ai.search(b, b.start, RED, turn_no=2, time_budget=None, node_budget=3000)
    assert res.turn is not None and res.depth >= 2 and res.nodes <= 3001
    timed = ai.search(b, b.start, RED, turn_no=2, time_budget=0.2)
    assert timed.turn is not None and timed.seconds < 1.0


def test_hard_ai_sees_the_40_turn_tiebreak_coming() -> None:
    """Red would lose the tie-break on this 40th turn: hard gives a destroyer for a frigate to avoid it."""
    spec = "R111@a1 B111@d6 R221@b3 B121@b4 B222@b5 R222@c1 R122@a2 R212@b1 B112@c6"
    st = state("6x4", spec, streak=TIEBREAK_TURNS - 1, last_expeller=BLUE)
    assert GAME.ai_choose(st, decision(st), random.Random(0), "hard") == "b3xb4"
    calm = state("6x4", spec, streak=0, last_expeller=BLUE)
    assert GAME.ai_choose(calm, decision(calm), random.Random(0), "hard") != "b3xb4"


def test_ai_tiebreak_answer_accepts_only_a_win() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3")  # no expulsion yet: blue would win
    play(st, DRAW)
    d = decision(st)
    assert d.args == TiebreakQuestion(proposer=RED, winner=BLUE)
    assert {o.id: o.args for o in d.options} == {
        "accept": TiebreakReply(accept=True),
        "refuse": TiebreakReply(accept=False),
    }
    assert GAME.ai_choose(st, decision(st), random.Random(0)) == "accept"
    st2 = state("6x4", "R111@a1 B111@d6 R211@b3", last_expeller=RED)
    play(st2, DRAW)
    assert GAME.ai_choose(st2, decision(st2), random.Random(0)) == "refuse"


# --- property tests ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st_.integers(0, 10**6),
    board_id=st_.sampled_from(["6x4", "5x5"]),
    positioning=st_.booleans(),
    picks=st_.lists(st_.integers(0, 10**6), min_size=0, max_size=120),
)
def test_random_games_keep_the_invariants(
    seed: int, board_id: str, positioning: bool, picks: list[int]
) -> None:
    m = new(seed=seed, board=board_id, positioning=positioning)
    b = board(board_id)
    for i, pick in enumerate(picks):
        if m.over:
            break
        [d] = m.pending()
        st = m.state
        pos = tuple(st.pos)
        on_board = [sq for sq in pos if sq != EXILE]
        assert len(on_board) == len(set(on_board)) and corvette_exiled(pos) is None
        if d.kind == "turn":
            moves = [o for o in d.options if o.id != DRAW]
            assert len(moves) >= 1
            for o in moves[:: max(1, len(moves) // 6)]:
                assert GAME.parse_option(st, d, o.id) == o.id
            opt = moves[pick % len(moves)].id if i % 7 else d.options[pick % len(d.options)].id
        else:
            opt = d.options[pick % 2].id
        before = on_board_count = len(on_board)
        m.apply(Choice(seat=d.seat, key=d.key, option=opt))
        if opt not in (DRAW, "accept", "refuse"):
            assert tuple(m.state.pos) in successors(b, pos, d.seat, positioning and st.turn < 2)
            after = sum(1 for sq in m.state.pos if sq != EXILE)
            assert after in (before, before - 1) and on_board_count == before
    out = m.outcome()
    if out is not None:
        assert len(out.winners) == 1 and out.half == (m.state.result.kind != "corvette")


@settings(max_examples=6, deadline=None)
@given(seed=st_.integers(0, 10**6), board_id=st_.sampled_from(["6x4", "5x5"]))
def test_ai_games_end_with_one_winner(seed: int, board_id: str) -> None:
    m = play_out(new(seed=seed, board=board_id), max_decisions=400)
    out = m.outcome()
    assert out is not None and len(out.winners) == 1
    assert m.state.result is not None and (m.state.result.kind == "corvette") != out.half


def test_seat_level_overrides_the_host_option() -> None:
    seats = [SeatSpec(name="a", ai=True, ai_level="easy"), SeatSpec(name="b", ai=True)]
    m = Match.create("mad", seats, seed=5, options={"ai_level": "medium"})
    assert m.state.ai_level == "medium"
    d = m.pending()[0]
    calls: list[str | None] = []
    real = ai.choose

    def spy(*args: object, **kwargs: object) -> object:
        calls.append(args[5])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    ai.choose = spy  # type: ignore[assignment]
    try:
        m.apply(m.ai_choice(d))
        m.apply(m.ai_choice(m.pending()[0]))
    finally:
        ai.choose = real  # type: ignore[assignment]
    assert calls == ["easy", "medium"]


def test_round_label_counts_full_rounds() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b3 B211@c5", turn=0, positioning=False)
    assert GAME.round_label(st) == 1
    play(st, "b3-b4")
    assert GAME.round_label(st) == 1
    play(st, "c5-c4")
    assert GAME.round_label(st) == 2
