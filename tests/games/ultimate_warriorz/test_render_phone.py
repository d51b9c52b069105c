"""Ultimate Warriorz's image on a phone (issue 11 items 4 and 5): every text 28 px or more per
1024 px of width, nothing cut, legal targets marked with the buttons' labels, and a
secret pick never drawn before it is revealed."""

from __future__ import annotations

import pytest

from bot.engine import Match, SeatSpec
from bot.engine.decisions import Option
from bot.games.ultimate_warriorz.cards import NAMES
from bot.render.common import font
from bot.render.fighters import BOX_W, ZONE_PAD, badge_size, plain, tag_lines
from tests.support.drawn_text import (
    check_a_played_match,
    first_marking,
    labels_drawn_over_the_board,
    recording,
)


def _match(mode: str, n: int, seed: str) -> Match:
    seats = [SeatSpec(name=f"Player with a long name {k}", ai=True) for k in range(n)]
    return Match.create("ultimate-warriorz", seats, seed, mode)


@pytest.mark.parametrize(
    ("mode", "n"),
    [("team-spirit", 2), ("tribal-rumble", 3), ("tribal-rumble", 8), ("team-spirit", 8)],
)
def test_every_text_reads_on_a_phone(monkeypatch: pytest.MonkeyPatch, mode: str, n: int) -> None:
    m = _match(mode, n, f"phone-{mode}-{n}")
    assert check_a_played_match(monkeypatch, m) >= 6


@pytest.mark.parametrize("want", ["zones", "fighters"])
def test_a_prompt_marks_its_targets_with_the_buttons_labels(
    monkeypatch: pytest.MonkeyPatch, want: str
) -> None:
    m = _match("tribal-rumble", 5, "phone-marks")
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
    m = _match("tribal-rumble", 4, "phone-secret")
    while not any(d.kind == "pick" for d in m.pending()):
        m.apply(m.ai_choice(m.pending()[0]))
    picks = [d for d in m.pending() if d.kind == "pick"]
    assert len(picks) >= 2
    with recording(monkeypatch) as before:
        m.game.render(m.view(None), "en")
        m.game.render(m.view(picks[1].seat), "en")
    m.apply(m.ai_choice(picks[0]))
    with recording(monkeypatch) as after:
        m.game.render(m.view(None), "en")
        m.game.render(m.view(picks[1].seat), "en")
    # Nothing the pick chose is drawn: the two images read the same.
    assert sorted(after) == sorted(before)


def test_board_text_names_players_trophies_and_the_legend_in_each_language() -> None:
    m = _match("team-spirit", 2, "phone-text")
    for lang, word in (("en", "Team"), ("fr", "Équipe")):
        lines = m.game.board_text(m.view(None), lang)
        assert any("Player with a long name 0" in ln and word in ln for ln in lines)
        assert sum("PP" in ln for ln in lines) >= 4
        assert "⚡" in lines[-1] and "✿" in lines[-1]
    assert m.game.board_text(m.view(None), "fr") != m.game.board_text(m.view(None), "en")


def test_every_fighters_name_and_hp_fit_its_badge() -> None:
    """The longest name with two-digit HP still fits a zone's badge at phone size."""
    inner = BOX_W - 2 * ZONE_PAD
    for name in NAMES.values():
        size = badge_size(inner, name, "♥16")
        f = font(size, True)
        assert size >= 28 and f.getlength(name) + f.getlength("♥16") + 30 <= inner, name


def test_board_text_fits_the_tables_text_block() -> None:
    """The table clips its text block at 1000 characters: a whole match with the longest
    Discord names (32 characters) never reaches it, in either language."""
    seats = [SeatSpec(name=f"A name thirty-two characters {k:03d}", ai=True) for k in range(8)]
    m = Match.create("ultimate-warriorz", seats, "phone-text-size", "team-spirit")
    longest = 0
    while not m.over:
        for lang in ("en", "fr"):
            longest = max(longest, len("\n".join(m.game.board_text(m.view(None), lang))))
        m.apply(m.ai_choice(m.pending()[0]))
    assert 300 < longest <= 1000
