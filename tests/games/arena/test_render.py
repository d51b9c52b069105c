"""The board picture: a PNG no larger than 1024 px, pure and deterministic."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from tests.games.arena.helpers import GAME, arrange, play


def image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def busy_state():
    """Every marker at once: down, disarmed with the weapon elsewhere, knocked out, a path."""
    state = arrange(
        [(0, 0), (2, 0), (-3, 3), (0, -3), (3, -3)],
        f1={"posture": "agressive"},
        f2={"down": True, "hp": 3},
        f3={"disarmed": True, "weapon_at": (1, -2), "hp": 2},
        f4={"out": True, "hp": 0},
    )
    play(state, 0, "balancee", "e", "atk1", "ne", dice=[6, 5, 1])
    return state


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_render_fits_discord_and_is_deterministic(lang: str) -> None:
    view = GAME.view(busy_state(), None)
    a = GAME.render(view, lang)
    b = GAME.render(view, lang)
    assert a == b
    img = image(a)
    assert max(img.size) <= 1024


def test_languages_differ_and_the_view_is_not_mutated() -> None:
    view = GAME.view(busy_state(), None)
    before = repr(view)
    assert GAME.render(view, "fr") != GAME.render(view, "en")
    assert repr(view) == before


def test_the_last_path_is_highlighted() -> None:
    state = busy_state()
    plain = GAME.view(state, None)
    no_path = plain.model_copy(update={"last": None})
    assert GAME.render(plain, "en") != GAME.render(no_path, "en")


@pytest.mark.parametrize("n", [2, 6])
def test_render_at_start_and_at_the_end(n: int) -> None:
    m = Match.create("arena", [SeatSpec(name=f"Fighter{i}", ai=True) for i in range(n)], seed="r")
    image(m.render(None, "fr"))
    play_out(m)
    image(m.render(None, "en"))
    image(m.render(0, "fr"))


@pytest.mark.parametrize(
    "marker",
    [
        {"down": True},
        {"disarmed": True, "weapon_at": (1, -2)},
        {"resting": True},
        {"out": True, "hp": 0},
        {"hp": 2},
        {"posture": "dechainee"},
    ],
)
def test_each_marker_changes_the_picture(marker: dict) -> None:
    """Ground, disarmed + dropped weapon, resting, knocked out, HP and posture all show."""
    base = arrange([(0, 0), (2, 0), (-3, 3)])
    marked = arrange([(0, 0), (2, 0), (-3, 3)], f1=marker)
    for lang in ("fr", "en"):
        assert GAME.render(GAME.view(base, None), lang) != GAME.render(
            GAME.view(marked, None), lang
        )


def test_posture_buttons_show_the_handicap_and_disarmed_values() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"hp": 2, "disarmed": True, "weapon_at": (0, 0)})
    stats = {o.id: o.stats for o in GAME.pending(state)[0].options}
    assert stats["dechainee"] == {"move": 2, "atk": 2, "def": 0}
    assert stats["garde"] == {"move": 0, "atk": 0, "def": 2}
    assert stats["defensive"] == {"move": 1, "atk": 1, "def": 1}


def test_pawns_label_their_hp_with_a_heart_not_a_bare_number() -> None:
    """The roster lists fighters in turn order; a bare number on a pawn could be read
    as a seat or a rank, so the pawn's HP carries a heart (explained in the legend)."""
    from bot.games.arena.render import hp_label

    assert hp_label(3) == "3♥" and hp_label(7) == "7♥"


def test_the_message_text_shows_the_dice_and_the_wound_and_reads_older_records() -> None:
    """The last attack's dice, totals and wound formula moved from the picture (too small on
    a phone) to the lines shown next to it; a record without values still reads."""
    state = busy_state()
    view = GAME.view(state, None)
    assert view.last is not None and view.last.attack is not None
    atk = view.last.attack
    assert (atk.attack_value, atk.defence_value) == (2, 1)  # balancée vs agressive
    lines = GAME.board_text(view, "fr")
    text = "\n".join(lines)
    assert "Attaque Ann : `6` `5` = **11** · Défense Bob : `1` = **1**" in text
    assert "blessure 2 - 1 = 1" in text
    assert "Touché : -1 PV → Bob à 6 PV" in text and "Dernier tour : 🔴 Ann" in text
    older = atk.model_copy(update={"attack_value": None, "defence_value": None})
    old = view.model_copy(update={"last": view.last.model_copy(update={"attack": older})})
    old_text = "\n".join(GAME.board_text(old, "en"))
    assert "wound" not in old_text and "Hit: -" in old_text


def test_the_roster_is_in_turn_order_with_names_hexes_and_hp() -> None:
    state = busy_state()
    view = GAME.view(state, None)
    lines = GAME.board_text(view, "en")
    roster = lines[: len(view.order)]
    for line, seat in zip(roster, view.order, strict=True):
        assert view.fighters[seat].name in line
    eve = next(line for line in roster if "Eve" in line)
    assert "knocked out" in eve
    dee = next(line for line in roster if "Dee" in line)
    assert "2/7 HP" in dee and "disarmed" in dee and "🟡" in dee
    assert "On the ground" in next(line for line in roster if "Cid" in line)
    assert sum(line.startswith("▶") for line in roster) == 1


def fight_state():
    """Ann (A-side) has taken a posture and may move, with Bob in reach to attack."""
    state = arrange([(0, 0), (2, 0), (-3, 3)])
    play(state, 0, "agressive")
    while GAME.pending(state)[0].kind != "fight":
        play(state, 0, GAME.pending(state)[0].options[0].id)
    return state


def test_a_prompt_marks_its_destinations_with_the_buttons_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each destination of a move prompt is named on its hex by a yellow tag reading
    exactly its button's label; an attack's target carries a ⚔ badge."""
    from bot.games.arena import render
    from bot.games.arena.args import Move, Step
    from bot.render.common import HIGHLIGHT

    state = fight_state()
    decision = GAME.pending(state)[0]
    view = GAME.view(state, 0)
    tags: list[tuple[str, tuple[int, int, int]]] = []
    real_tag = render._tag

    def spy(draw, cx, cy, text, fill, ink, size=render.LABEL_SIZE):  # type: ignore[no-untyped-def]
        tags.append((text, fill))
        real_tag(draw, cx, cy, text, fill, ink, size)

    monkeypatch.setattr(render, "_tag", spy)
    marked = GAME.render(view, "en", decision)
    yellow = {t for t, fill in tags if fill == HIGHLIGHT}
    moves = [o for o in decision.options if isinstance(o.args, Move)]
    assert moves, "the fight decision offers whole moves"
    # A plain move's label is its destination's name: the very text of its tag.
    assert {o.label.en for o in moves if o.args.target is None} == yellow
    assert {o.label.fr for o in moves if o.args.target is None} == yellow
    steps = {o.args.to for o in decision.options if isinstance(o.args, Step)}
    assert steps <= {o.args.to for o in moves}
    marks = render.Marks(decision)
    assert marks.targets == {o.args.target for o in moves if o.args.target is not None}
    assert marks.targets, "Bob can be attacked after a move"
    tags.clear()
    plain = GAME.render(view, "en")
    assert not any(fill == HIGHLIGHT for _, fill in tags)
    assert plain != marked


def test_a_decision_without_places_marks_nothing() -> None:
    """A posture prompt has no destination: its picture is the plain board."""
    state = arrange([(0, 0), (2, 0), (-3, 3)])
    decision = GAME.pending(state)[0]
    assert decision.kind == "posture"
    view = GAME.view(state, 0)
    assert GAME.render(view, "fr", decision) == GAME.render(view, "fr")


def test_the_picture_is_phone_sized_and_cropped() -> None:
    """1024 px wide at most, and nothing but background cut away at the edges."""
    for state in (busy_state(), fight_state()):
        img = image(GAME.render(GAME.view(state, None), "fr"))
        assert 960 <= img.width <= 1024 and img.height <= 1120
