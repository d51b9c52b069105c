"""Madsteam's image on a phone (issue 11 items 4 and 5): every text 28 px or more per
1024 px of width, nothing cut, the places a hero may go marked with the buttons' labels,
and another clan's set-up draw never drawn.

Each image here is drawn with its pieces' caches emptied first, so every string is drawn
(hence recorded and measured) rather than pasted from an earlier image."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import bot.games.madsteam.render as render
from bot.engine import Match, SeatSpec
from bot.games.madsteam.render import CELL_W, _movable
from bot.render.common import clear_drawing_caches
from bot.render.fighters import plain, tag_lines
from tests.support.drawn_text import (
    check_a_played_match,
    recording,
)


@pytest.fixture(autouse=True)
def every_piece_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    real = render.render_view

    def fresh(*args: Any, **kwargs: Any) -> bytes:
        clear_drawing_caches()
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "render_view", fresh)


def _match(n: int, seed: str) -> Match:
    seats = [SeatSpec(name=f"Player with a long name {k}", ai=True) for k in range(n)]
    return Match.create("madsteam", seats, seed)


@pytest.mark.parametrize("n", [2, 4])
def test_every_text_reads_on_a_phone(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    m = _match(n, f"phone-{n}")
    assert check_a_played_match(monkeypatch, m) >= 10


def test_a_move_prompt_marks_each_place_with_its_buttons_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    m = _match(3, "phone-marks")
    while not any(d.kind == "move" for d in m.pending()):
        m.apply(m.ai_choice(m.pending()[0]))
    d = next(d for d in m.pending() if d.kind == "move")
    view = m.view(d.seat)
    with recording(monkeypatch) as marked:
        m.game.render(view, "fr", d)
    with recording(monkeypatch) as bare:
        m.game.render(view, "fr")
    extra = Counter(t for t, _ in marked) - Counter(t for t, _ in bare)
    assert d.options
    # The heroes its options stand up are ringed: each a lying hero of the prompted clan.
    ringed = _movable(view, d)  # type: ignore[arg-type]
    own = {(h.place, h.value) for h in view.players[d.seat].heroes if not h.standing}  # type: ignore[attr-defined]
    assert ringed and {(s, p, v) for s, p, v in ringed if s == d.seat} == ringed
    assert {(p, v) for _, p, v in ringed} <= own
    for opt in d.options:
        for line in tag_lines([plain(opt.label.fr)], CELL_W - 20)[0]:
            assert extra[line] >= 1, (line, opt.label.fr)


def test_another_clans_setup_draw_is_never_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    m = _match(2, "phone-secret")
    while not any(p.drawn for p in m.view(0).players):  # type: ignore[attr-defined]
        m.apply(m.ai_choice(m.pending()[0]))
    drawn = {o.name.en for o in m.view(0).players[0].drawn}  # type: ignore[attr-defined]
    drawn |= {o.name.fr for o in m.view(0).players[0].drawn}  # type: ignore[attr-defined]
    assert drawn
    with recording(monkeypatch) as texts:
        m.game.render(m.view(None), "en")
        m.game.render(m.view(None), "fr")
    assert not any(name in t for t, _ in texts for name in drawn)


def test_board_text_gives_events_resources_and_objects_in_each_language() -> None:
    m = _match(3, "phone-text")
    for _ in range(80):
        m.apply(m.ai_choice(m.pending()[0]))
    en = m.game.board_text(m.view(None), "en")
    fr = m.game.board_text(m.view(None), "fr")
    assert en[0].startswith("Events in play") and fr[0].startswith("Événements en jeu")
    assert sum("Player with a long name" in ln for ln in en) == 3


def test_board_text_fits_the_tables_text_block() -> None:
    """The table clips its text block at 1000 characters: a whole match with the longest
    Discord names (32 characters) never reaches it, in either language."""
    seats = [SeatSpec(name=f"A name thirty-two characters {k:03d}", ai=True) for k in range(4)]
    m = Match.create("madsteam", seats, "phone-text-size", "standard")
    longest = 0
    while not m.over:
        for lang in ("en", "fr"):
            longest = max(longest, len("\n".join(m.game.board_text(m.view(None), lang))))
        m.apply(m.ai_choice(m.pending()[0]))
    assert 300 < longest <= 1000
