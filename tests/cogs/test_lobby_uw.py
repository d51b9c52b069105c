"""Ultimate Warriorz's lobby (issue 12 item 2): fighters chosen by the players, each seeing
which are taken, AI seats given one by the host or at random; Team Spirit teams composed
by the host in the lobby, sized as the book's configurations (checked at Start)."""

from __future__ import annotations

import pytest

from bot.engine import IllegalDecision
from bot.games.ultimate_warriorz.modes import lobby_teams
from tests.cogs.driver import Driver


def select(d: Driver, message, part: str) -> dict:
    return next(c for c in d.fake.components(message) if f":{part}:" in c["custom_id"])


async def pick(d: Driver, user, message, part: str, label: str):
    sel = select(d, message, part)
    matches = [o["value"] for o in sel["options"] if label in o["label"]]
    assert len(matches) == 1, (label, [o["label"] for o in sel["options"]])
    return await d.click(user, message, sel["custom_id"], values=matches)


async def test_players_choose_their_fighters_and_see_which_are_taken(driver: Driver) -> None:
    d = driver
    ann, bob, cat = d.users[:3]
    await d.slash(ann, "start", game="ultimate-warriorz", mode="ultimate-warriorz:tribal-rumble")
    lobby = d.lobby()
    for u in (bob, cat):
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(ann, d.fake.message(lobby.id), "Add AI")
    await pick(d, ann, d.fake.message(lobby.id), "mine", "Fighter: Agaric")
    fi = await pick(d, bob, d.fake.message(lobby.id), "mine", "Fighter: Agaric")
    assert "Agaric is already taken by Ann." in d.reply_text(fi)
    await pick(d, bob, d.fake.message(lobby.id), "mine", "Fighter: Baobab")
    lobby = d.fake.message(lobby.id)
    text = lobby.text()
    assert f"<@{ann['id']}> · Fighter: Agaric" in text
    assert f"<@{cat['id']}> · Fighter: not chosen yet" in text
    taken = {o["label"]: o.get("description") for o in select(d, lobby, "mine")["options"]}
    assert taken["Fighter: Agaric"] == "taken by Ann"
    assert taken["Fighter: Cactus"] is None
    # The host gives the robot its fighter; a player cannot set another seat.
    fi = await pick(d, bob, lobby, "seat", "Robot 1 — Fighter: Cactus")
    assert "Only the host" in d.reply_text(fi)
    await pick(d, ann, d.fake.message(lobby.id), "seat", "Robot 1 — Fighter: Cactus")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    live = await d.live(1)
    state = live.match.state
    by_seat = {f.seat: f.id for f in state.fighters}
    assert by_seat[0] == "agaric" and by_seat[1] == "baobab" and by_seat[3] == "cactus"
    assert by_seat[2] not in {"agaric", "baobab", "cactus"}, "Cat's dealt among the others"


async def test_host_composes_team_spirit_teams_in_the_lobby(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await d.slash(ann, "start", game="ultimate-warriorz", mode="ultimate-warriorz:team-spirit")
    lobby = d.lobby()
    await d.press(bob, d.fake.message(lobby.id), "Join")
    await d.press(ann, d.fake.message(lobby.id), "Add AI")
    await d.press(ann, d.fake.message(lobby.id), "Add AI")
    await pick(d, ann, d.fake.message(lobby.id), "opt", "Teams composed in the lobby")
    lobby = d.fake.message(lobby.id)
    assert "Team: not chosen yet" in lobby.text()
    # Too many values for one menu: the host picks a seat, then its values.
    labels = [o["label"] for o in select(d, lobby, "seat")["options"]]
    assert labels[:4] == ["✏️ Set 1. Ann", "▶ Set 2. Bob", "▶ Set Robot 1", "▶ Set Robot 2"]
    await pick(d, ann, lobby, "seat", "Set 2. Bob")
    await pick(d, ann, d.fake.message(lobby.id), "seat", "2. Bob — Team: Team 1")
    await pick(d, ann, d.fake.message(lobby.id), "seat", "Set 1. Ann")
    await pick(d, ann, d.fake.message(lobby.id), "seat", "1. Ann — Team: Team 1")
    await pick(d, ann, d.fake.message(lobby.id), "mine", "Fighter: Sorgho")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    live = await d.live(1)
    state = live.match.state
    mine = {f.seat: f for f in state.fighters}
    assert mine[0].id == "sorgho"
    assert mine[0].team == mine[1].team, "Ann and Bob together (team 1)"
    assert mine[2].team == mine[3].team != mine[0].team, "the robots fill the other pair"


def test_lobby_teams_follow_the_book_sizes() -> None:
    assert lobby_teams(4, ["1", "1", None, None]) == [[0, 1], [2, 3]]
    assert lobby_teams(5, ["2", None, "2", "2", None]) == [[0, 2, 3], [1, 4]]
    assert lobby_teams(6, ["1", "2", "3", None, None, None]) == [[0, 3], [1, 4], [2, 5]]
    assert sorted(map(len, lobby_teams(6, ["1", "1", "1", None, None, None]))) == [3, 3]
    with pytest.raises(IllegalDecision) as err:
        lobby_teams(5, ["1", "1", "1", "1", None])
    assert "3+2" in err.value.reason.en
    with pytest.raises(IllegalDecision):
        lobby_teams(3, [None, None, None])


def test_setup_checks_the_fighters_chosen_in_the_lobby() -> None:
    """§2 Attribution: one fighter per person, never twice, in the configuration played."""
    from bot.engine import Match, SeatSpec

    def seats(*fighters: str | None) -> list[SeatSpec]:
        return [
            SeatSpec(name=f"P{i}", ai=True, choices={"fighter": f} if f else {})
            for i, f in enumerate(fighters)
        ]

    tribal = "tribal-rumble"
    m = Match.create("ultimate-warriorz", seats("zamioculcas", None, "jojoba"), "s", tribal, {})
    assert {f.seat: f.id for f in m.state.fighters}[0] == "zamioculcas"
    with pytest.raises(IllegalDecision) as err:
        Match.create("ultimate-warriorz", seats("agaric", "agaric", None), "s", tribal, {})
    assert "same lot" in err.value.reason.en
    # Team Spirit, the book's 1st configuration for 4 people: Agaric, Baobab, Cactus, Sorgho.
    with pytest.raises(IllegalDecision) as err:
        Match.create("ultimate-warriorz", seats("jojoba", None, None, None), "s", "team-spirit", {})
    assert "not in this configuration" in err.value.reason.en
    # Dealt at random: the lobby's choices are not read.
    m = Match.create(
        "ultimate-warriorz", seats("agaric", "agaric", None), "s", tribal, {"fighters": "random"}
    )
    assert len(m.state.fighters) == 3
