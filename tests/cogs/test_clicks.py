"""Clicks a player spends (issue 11 item 3), counted over whole matches of every game
played through the offline Discord harness, the way a player does it.

A player answers a decision in the prompt they already have open when the bot sent it
with their previous answer (the follow-up of an action), else they press the round
board's "Make your choice" first; then groups, options, draft steps and Confirm. Each
component interaction is one click. An *action* is a run of one seat's successive
decisions for one subject (a fighter's action, an Arena! turn, a MAD move).

``python -m tests.cogs.test_clicks`` prints the figures as a Markdown table.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import bot.gm.lobby
from bot.engine import Decision
from bot.gm.ids import key_tag
from tests.cogs.driver import Driver
from tests.harness.fake_discord import FakeInteraction, FakeMessage

Json = dict[str, Any]


class ClickDriver(Driver):
    """Counts the component interactions humans send; keeps each user's open prompts."""

    def __init__(self, tmp_path: Path, *, players: int) -> None:
        super().__init__(tmp_path, players=players)
        self.clicks = 0
        self.open: dict[str, list[FakeMessage]] = {}

    async def click(
        self, user: Json, message: FakeMessage, custom_id: str, **kw: Any
    ) -> FakeInteraction:
        self.clicks += 1
        fi = await super().click(user, message, custom_id, **kw)
        replies = [m for m in self.replies(fi) if m.ephemeral]
        if replies:
            self.open[user["id"]] = replies
        return fi

    def open_prompt(self, user: Json, decision: Decision) -> FakeMessage | None:
        """The prompt for ``decision`` the player already has on screen, if any."""
        tag = key_tag(decision.key)
        for m in reversed(self.open.get(user["id"], [])):
            fresh = self.fake.message(m.id)
            if any(f":{tag}" in (c.get("custom_id") or "") for c in self.fake.components(fresh)):
                return fresh
        return None

    async def answer_open(self, user: Json, decision: Decision, option_id: str) -> int:
        """Answer in the open prompt, else open it from the round board; the clicks spent
        opening it (0 or 1)."""
        prompt = self.open_prompt(user, decision)
        opened = 0
        if prompt is None:
            fi = await self.press(user, self.round_message(), "Make your choice")
            prompt = self.prompt_for(self.replies(fi), decision)
            opened = 1
        await self.choose_in(user, prompt, decision, option_id)
        return opened


@dataclass(frozen=True)
class Setup:
    game: str
    humans: int
    mode: str | None = None


SETUPS = [
    Setup("mad", 2),
    Setup("arena", 2),
    Setup("mad-arena", 4, "mad-arena:ultimate-warrior"),
    Setup("ultimate-warriorz", 3, "ultimate-warriorz:tribal-rumble"),
    Setup("madsteam", 2),
]


@dataclass
class Figures:
    setup: Setup
    per_decision: list[int] = field(default_factory=list)
    per_action: list[int] = field(default_factory=list)
    in_prompt: list[int] = field(default_factory=list)
    """Clicks of each action once its prompt is open (without the round board's button)."""
    picks: list[int] = field(default_factory=list)
    """Clicks of secret card picks (``timing`` pick)."""


def choose(d: Decision, rnd: random.Random) -> str:
    """A random legal option; MAD's tie-break offers are left alone (one ends the match)."""
    ids = [o.id for o in d.options if not any(w in o.id for w in ("tie", "draw", "accept"))]
    return rnd.choice(ids or [o.id for o in d.options])


async def measure(setup: Setup, seed: str, tmp: Path, max_decisions: int = 3000) -> Figures:
    fresh_seed = bot.gm.lobby.new_seed
    bot.gm.lobby.new_seed = lambda: seed
    d = ClickDriver(tmp, players=setup.humans)
    await d.start()
    out = Figures(setup)
    try:
        users = d.users[: setup.humans]
        await d.slash(users[0], "start", game=setup.game, mode=setup.mode)
        lobby = d.lobby()
        for u in users[1:]:
            await d.press(u, d.fake.message(lobby.id), "Join")
        await d.press(users[0], d.fake.message(lobby.id), "Start")
        mid = int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1])
        rnd = random.Random(seed)
        current: tuple[int, str | None] | None = None
        for _ in range(max_decisions):
            live = await d.live(mid)
            if live is None:
                break
            match = live.match
            humans = [x for x in match.pending() if not match.seats[x.seat].ai]
            assert humans, "a live match waits for a human"
            # The seat and subject of the action in progress answer first, as a player does.
            x = next((h for h in humans if (h.seat, h.subject) == current), humans[0])
            user = d.user_by_id(match.seats[x.seat].user_id)
            before = d.clicks
            if x.structured:
                await d.answer_draft(user, x, match.ai_choice(x))
                opened = 1
            else:
                opened = await d.answer_open(user, x, choose(x, rnd))
            spent = d.clicks - before
            out.per_decision.append(spent)
            if x.timing == "pick":
                out.picks.append(spent)
            who = (x.seat, x.subject)
            if x.timing in ("turn", "action") and who == current:
                out.per_action[-1] += spent
                out.in_prompt[-1] += spent - opened
            else:
                out.per_action.append(spent)
                out.in_prompt.append(spent - opened)
            current = who if x.timing in ("turn", "action") else None
        else:
            raise AssertionError(f"{setup.game}: not over after {max_decisions} decisions")
        return out
    finally:
        await d.stop()
        bot.gm.lobby.new_seed = fresh_seed


def mean_max(values: list[int]) -> str:
    return f"{statistics.fmean(values):.2f} ({max(values)})" if values else "—"


def table(results: list[Figures]) -> str:
    rows = [
        "| game | humans | decisions | clicks/decision | clicks/action "
        "| clicks/action in its prompt | clicks/card pick |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        rows.append(
            f"| {r.setup.game} | {r.setup.humans} | {len(r.per_decision)} "
            f"| {mean_max(r.per_decision)} | {mean_max(r.per_action)} "
            f"| {mean_max(r.in_prompt)} | {mean_max(r.picks)} |"
        )
    return "\n".join(rows) + (
        "\n\nMean (max); one seeded match each, random legal answers. An action is one "
        "seat's successive decisions for one subject (a fighter's action, an Arena! turn); "
        "'in its prompt' leaves out the round board's button that opens the prompt."
    )


@pytest.mark.parametrize("setup", SETUPS, ids=[s.game for s in SETUPS])
async def test_clicks_per_decision_and_action(setup: Setup, tmp_path: Path) -> None:
    r = await measure(setup, f"clicks-{setup.game}", tmp_path)
    assert r.per_decision and min(r.per_decision) >= 1
    # A card pick is one click on the card once the prompt is open: two at most with the
    # round board's button.
    assert all(c <= 2 for c in r.picks), r.picks
    if setup.game == "mad-arena":
        # A fighter's action: at most 2 clicks on average once its prompt is open.
        assert statistics.fmean(r.in_prompt) <= 2.0, mean_max(r.in_prompt)


if __name__ == "__main__":

    async def main() -> None:
        results = []
        for s in SETUPS:
            with tempfile.TemporaryDirectory() as tmp:
                results.append(await measure(s, f"clicks-{s.game}", Path(tmp)))
                print(s.game, "done", file=sys.stderr)
        print(table(results))

    asyncio.run(main())
