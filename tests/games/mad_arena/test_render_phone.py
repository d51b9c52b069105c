"""Mad Arena's image on a phone (issue 11 items 4 and 5): every text 28 px or more per
1024 px of width, nothing cut, legal targets marked with the buttons' labels, and a
secret pick never drawn before it is revealed."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import Match, SeatSpec
from bot.engine.decisions import Allocation, Option
from bot.games.mad_arena.view import MAView
from bot.render.common import font
from bot.render.fighters import BOX_W, ZONE_PAD, Marks, badge_size, plain, tag_lines
from tests.support.drawn_text import (
    check_a_played_match,
    first_marking,
    labels_drawn_over_the_board,
    recording,
)


def _match(mode: str, n: int, seed: str) -> Match:
    seats = [SeatSpec(name=f"Player with a long name {k}", ai=True) for k in range(n)]
    return Match.create("mad-arena", seats, seed, mode)


@pytest.mark.parametrize(
    ("mode", "n"), [("team-spirit", 2), ("brothers-in-arms", 3), ("ultimate-warrior", 7)]
)
def test_every_text_reads_on_a_phone(monkeypatch: pytest.MonkeyPatch, mode: str, n: int) -> None:
    m = _match(mode, n, f"phone-{mode}-{n}")
    assert check_a_played_match(monkeypatch, m) >= 6


@pytest.mark.parametrize("want", ["zones", "fighters"])
def test_a_prompt_marks_its_targets_with_the_buttons_labels(
    monkeypatch: pytest.MonkeyPatch, want: str
) -> None:
    m = _match("ultimate-warrior", 5, "phone-marks")
    d = first_marking(m, want)
    extra = labels_drawn_over_the_board(monkeypatch, m, d)
    targets = [o for o in d.options if o.args is not None and _targets_board(o)]
    assert targets
    for opt in targets:
        # Each label is drawn whole, wrapped on the lines of its tag, over the plain board.
        for line in tag_lines([plain(opt.label.en)], BOX_W - 2 * ZONE_PAD)[0]:
            assert extra[line] >= 1, (line, opt.label.en)


def _targets_board(opt: Option) -> bool:
    return getattr(opt.args, "zone", None) is not None or bool(getattr(opt.args, "target", None))


def test_a_secret_pick_is_never_drawn_before_its_reveal(monkeypatch: pytest.MonkeyPatch) -> None:
    m = _match("ultimate-warrior", 4, "phone-secret")
    picks = [d for d in m.pending() if d.kind == "pick"]
    assert len(picks) >= 2
    with recording(monkeypatch) as before:
        m.game.render(m.view(None), "en")
        m.game.render(m.view(picks[1].seat), "en")
    m.apply(m.ai_choice(picks[0]))
    with recording(monkeypatch) as after:
        m.game.render(m.view(None), "en")
        m.game.render(m.view(picks[1].seat), "en")
    # Only the "card picked" tick may appear; no value of the hidden card.
    assert {t for t, _ in after} - {t for t, _ in before} <= {"✔"}


def test_board_text_names_players_trophies_and_the_legend_in_each_language() -> None:
    m = _match("team-spirit", 2, "phone-text")
    for lang, word in (("en", "Team"), ("fr", "Équipe")):
        lines = m.game.board_text(m.view(None), lang)
        assert any("Player with a long name 0" in ln and word in ln for ln in lines)
        assert "⚡" in lines[-1]
    assert m.game.board_text(m.view(None), "fr") != m.game.board_text(m.view(None), "en")


def test_every_fighters_name_and_hp_fit_its_badge() -> None:
    """The longest name with its full HP still fits a zone's badge at phone size."""
    view = _match("ultimate-warrior", 7, "phone-names").view(None)
    assert isinstance(view, MAView)
    inner = BOX_W - 2 * ZONE_PAD
    for fv in view.fighters:
        hp = f"♥{fv.max_hp}"
        size = badge_size(inner, fv.name, hp)
        f = font(size, True)
        assert size >= 28 and f.getlength(fv.name) + f.getlength(hp) + 30 <= inner, fv.name


def test_board_text_fits_the_tables_text_block() -> None:
    """The table clips its text block at 1000 characters: a whole match with the longest
    Discord names (32 characters) never reaches it, in either language."""
    seats = [SeatSpec(name=f"A name thirty-two characters {k:03d}", ai=True) for k in range(7)]
    m = Match.create("mad-arena", seats, "phone-text-size", "ultimate-warrior")
    longest = 0
    while not m.over:
        for lang in ("en", "fr"):
            longest = max(longest, len("\n".join(m.game.board_text(m.view(None), lang))))
        m.apply(m.ai_choice(m.pending()[0]))
    assert 300 < longest <= 1000


def test_the_dragons_split_fire_marks_each_fighter_it_may_hit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An allocation over fighters (the dragon's split fire) tags each one with its name,
    and the dragon, whose prompt it is, is outlined."""
    m = _match("ultimate-warrior", 7, "dr0")
    d = None
    while d is None and not m.over:
        d = next((x for x in m.pending() if isinstance(x.ask, Allocation)), None)
        if d is None:
            m.apply(m.ai_choice(m.pending()[0]))
    assert d is not None and isinstance(d.ask, Allocation)
    marks = Marks(d, "fr")
    assert marks.subject is not None
    view = m.view(d.seat)
    with recording(monkeypatch) as marked:
        m.game.render(view, "fr", d)
    with recording(monkeypatch) as bare:
        m.game.render(view, "fr")
    extra = Counter(t for t, _ in marked) - Counter(t for t, _ in bare)
    for q in d.ask.quantities:
        assert marks.fighter(q.id) == [q.label.fr]
        assert extra[q.label.fr] >= 1
