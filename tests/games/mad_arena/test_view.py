"""The typed view carries the numbers the rules derive, so the image and the AI never re-derive them."""

from __future__ import annotations

import bot.games.mad_arena  # noqa: F401
from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.engine.decisions import Allocation, One, Order
from bot.engine.registry import get_game
from bot.games.mad_arena.args import (
    End,
    ForFighter,
    Free,
    Kick,
    Melee,
    Move,
    PlayCard,
    Ranged,
    StrikeTarget,
    Throw,
    ZoneAttack,
)
from bot.games.mad_arena.view import build_view
from tests.games.mad_arena.helpers import begin, build

D = "zamioculcas"
ASKS = {"strike-order": Order, "dragon-split": Allocation}
"""The two answers given whole: Baobab's strike order, the dragon's split of its dice."""


def test_dragon_card_initiative_is_the_gongs() -> None:
    """Règles spéciales du dragon: its card has no initiative; the gong gives 3 (blue) or 4 (red)."""
    st = build(["agaric", "bonzai", "cactus", D])
    st.f(D).in_play = D
    seen = []
    for r in (1, 2):
        st.round = r
        card = build_view(st, None).fighters[-1].in_play
        assert card is not None and card.stats["initiative"] == "gong"
        seen.append(card.initiative)
    assert seen == [3, 4]


def test_netted_fighter_cards_give_one_less_never_below_zero() -> None:
    """Cactus's net: -1 to move, melee and ranged dice (never below 0), on every card it may play."""
    st = build(["bonzai", "agaric", "cactus", "sorgho"])
    st.net_on = "bonzai"
    me = build_view(st, 0).fighters[0]
    assert me.hand is not None and me.netted
    by_id = {c.id: c for c in me.hand}
    for cid, card in by_id.items():
        printed = st.card(cid)
        assert card.move_now == max(0, printed.move - 1), cid
        assert card.ranged_now == max(0, printed.ranged - 1), cid
    # Kamikaze: min(6, 8 - HP) dice, minus the net's one.
    st.f("bonzai").hp = 3
    kamikaze = next(c for c in build_view(st, 0).fighters[0].hand or [] if c.secret == "kamikaze")
    assert kamikaze.melee_now == min(6, 8 - 3) - 1


def test_other_seats_see_no_hand_and_no_pick() -> None:
    """Hands and unrevealed picks are private (view of another seat, and the public's)."""
    st = build(["bonzai", "agaric", "cactus", "sorgho"])
    st.f("bonzai").pick = "bonzai-2"
    for seat in (None, 1):
        bonzai = build_view(st, seat).fighters[0]
        assert bonzai.hand is None and bonzai.pick is None and bonzai.picked
        assert "bonzai-2" not in build_view(st, seat).model_dump_json()
    own = build_view(st, 0).fighters[0]
    assert own.pick is not None and own.pick.id == "bonzai-2"


def test_action_dice_are_those_the_attack_buttons_roll() -> None:
    """§2.4: the acting fighter's dice in the view are the dice its attack options show."""
    st = build(["sorgho", "cactus", "agaric", "bonzai"], zones={"cactus": 0})
    st.net_on = "sorgho"
    begin(st, "sorgho", "sorgho-4")  # melee 3, ranged 1: netted, 2 and 0
    view = build_view(st, 0)
    assert view.action is not None
    assert (view.action.melee_dice, view.action.ranged_dice) == (2, 0)
    game = get_game("mad-arena")
    (d,) = game.pending(st)
    melee = [o for o in d.options if isinstance(o.args, Melee)]
    assert melee and all(o.stats["dice"] == view.action.melee_dice for o in melee)


def test_every_option_is_typed_and_every_stat_declared() -> None:
    """Every option carries typed args (the rules read nothing else); every decision names
    its fighter; every stat a button shows is one the game declares, with its symbol."""
    info = get_game("mad-arena").info
    declared = {s.key for s in info.stats}
    expected = {
        "pick": (PlayCard,),
        "action": (Move, Free, End, Melee, Ranged, Kick, ZoneAttack),
        "strike-order": (StrikeTarget,),
        "dragon-split": (),
        "kick-throw": (Throw,),
    }
    kinds: set[str] = set()
    # A match (medium AI) where every kind of decision comes up, the strike order included.
    for mode, n, seed in [("ultimate-warrior", 7, 7)]:
        m = Match.create(
            "mad-arena",
            [SeatSpec(name=f"P{i}", ai=True, ai_level="medium") for i in range(n)],
            seed=seed,
            mode=mode,
        )

        def check(match: Match, *_: object) -> None:
            for d in match.pending():
                kinds.add(d.kind)
                assert isinstance(d.ask, ASKS.get(d.kind, One)), (d.kind, d.ask)
                assert isinstance(d.args, ForFighter)
                assert d.subject == match.state.name(d.args.fighter)
                for o in d.options:
                    assert isinstance(o.args, expected[d.kind]), (d.kind, o.id, o.args)
                    assert set(o.stats) <= declared, (o.id, o.stats)
                    for v in o.stats.values():
                        assert not isinstance(v, str) or v in info.stat_values

        check(m)
        play_out(m, max_decisions=3000, on_step=check)
    assert kinds == set(expected)
