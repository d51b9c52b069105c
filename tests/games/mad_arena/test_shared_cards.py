"""Live Mad Arena matches share one card set per content (issue 16 item 5), and a match
still stores its whole card set (a replay needs nothing else)."""

from __future__ import annotations

from bot.engine import Match, SeatSpec
from bot.games.mad_arena.cards import DEFAULT_CARDS, load_cards

SEATS = [SeatSpec(name="Ann", user_id=1)] + [
    SeatSpec(name=f"Robot {k}", ai=True, ai_level="easy") for k in range(1, 4)
]


def new(seed: str, **options: object) -> Match:
    return Match.create("mad-arena", SEATS, seed=seed, mode="ultimate-warrior", options=options)


def test_matches_with_the_same_cards_share_one_set_through_moves_and_reloads() -> None:
    a, b = new("a"), new("b")
    cards = a.state.cards
    assert b.state.cards is cards
    for _ in range(20):  # moves copy the state, not its card set
        a.apply(a.ai_choice(a.pending()[0]))
    assert a.state.cards is cards
    reloaded = Match.from_snapshot(a.snapshot())
    assert reloaded.state.cards is cards
    # The snapshot still holds the whole set, as before.
    assert reloaded.snapshot()["state"]["cards"] == cards.model_dump(mode="json")


def test_a_group_s_own_cards_are_a_set_of_their_own() -> None:
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    changed = text.replace('name = "Agaric"', 'name = "Agaric the Bold"', 1)
    assert changed != text
    own = new("c", card_data=changed)
    default = new("d")
    assert own.state.cards is not default.state.cards
    assert own.state.cards.model_dump() == load_cards(data=changed).model_dump()
    assert new("e", card_data=changed).state.cards is own.state.cards


def test_a_copy_shares_the_cards_and_nothing_an_apply_changes() -> None:
    """``MadArena.copy`` rebuilds what an apply may change and shares the card set: a
    move applied to the copy leaves the original as it was."""
    m = new("copy")
    for _ in range(6):
        m.apply(m.ai_choice(m.pending()[0]))
    before = m.game.dump(m.state)
    twin = m.game.copy(m.state)
    assert twin.cards is m.state.cards
    assert m.game.dump(twin) == before
    assert twin.fighters[0] is not m.state.fighters[0]
    assert twin.fighters[0].hand is not m.state.fighters[0].hand
    twin.fighters[0].hand.append("ghost")
    twin.fighters[0].hp -= 1
    twin.teams[0].append("ghost")
    assert m.game.dump(m.state) == before
