"""A click or a command answered by its result in one call when handled quickly, else
deferred first (issue 16: Discord calls per click; ``cogs/deferral.py``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.engine import Decision, Text
from bot.engine.registry import get_game
from bot.gm import apply
from bot.i18n import t
from cogs import deferral
from tests.cogs.driver import Driver
from tests.cogs.test_flow import lobby_with, open_prompt
from tests.cogs.test_full_matches import open_and_fill
from tests.harness.fake_discord import FakeInteraction, FakeMessage
from tests.harness.payloads import Json


@dataclass
class Prompt:
    """A Mad Arena round's first awaited pick, its player's private prompt open."""

    mid: int
    live: Any
    decision: Decision
    user: Json
    message: FakeMessage


async def _prompt(d: Driver) -> Prompt:
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    live = await d.live(mid)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    press = await d.press(user, d.round_message(), "Make your choice")
    return Prompt(mid, live, x, user, d.prompt_for(d.replies(press), x))


async def _choose(d: Driver, p: Prompt) -> FakeInteraction:
    return await d.choose_in(p.user, p.message, p.decision, p.decision.options[0].id)


async def _pick(d: Driver) -> tuple[Any, FakeInteraction]:
    """A player's pick in their private prompt: (the match, the choice's click)."""
    p = await _prompt(d)
    return p.live, await _choose(d, p)


def _own_routes(fi: FakeInteraction) -> list[str]:
    """The routes of the calls made with the interaction's own token."""
    return [c.route_template for c in fi.calls if f"/{fi.token}" in c.path]


def _slow_down(d: Driver, monkeypatch: pytest.MonkeyPatch, method: str, seconds: float) -> None:
    """The game master's ``method`` takes ``seconds`` more (a slow handling)."""
    assert d.bot is not None
    gm: Any = d.bot.gm
    real = getattr(gm, method)

    async def slowed(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    monkeypatch.setattr(gm, method, slowed)


@contextlib.contextmanager
def _expiring(d: Driver) -> Iterator[None]:
    """Every interaction sent meanwhile has expired when the bot answers it (it reached
    the bot too late)."""
    real_register = d.fake.register_interaction

    def register(payload: Any) -> FakeInteraction:
        fi = real_register(payload)
        d.fake.expire_interaction(fi.id)
        return fi

    d.fake.register_interaction = register  # type: ignore[method-assign]
    try:
        yield
    finally:
        d.fake.register_interaction = real_register  # type: ignore[method-assign]


async def test_a_quick_click_is_answered_by_its_result_in_one_call(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A second for the pick (its prompt's board drawn meanwhile): quick whatever the
    # machine's load; how many clicks make it within the real 15 ms is bench_load's.
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    live, chosen = await _pick(d)
    own = [c for c in chosen.calls if f"/{chosen.token}" in c.path or f"/{chosen.id}/" in c.path]
    assert chosen.response_type == 7, "the prompt edited by the answer to the click"
    assert [c.route_template for c in own] == [
        "/interactions/{webhook_id}/{webhook_token}/callback"
    ]
    assert chosen.calls[0] is own[0], "nothing about the click before its answer"
    prompt = d.fake.message(chosen.message_id)  # type: ignore[arg-type]
    assert "You chose" in prompt.text()
    assert live.match.version >= 1


async def test_a_slow_click_is_deferred_then_edited(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past QUICK_ANSWER the click is deferred while it is handled: acknowledged at about
    QUICK_ANSWER (not when its handling ends), then its result edited in."""
    d = driver
    slow = 0.3
    _slow_down(d, monkeypatch, "click", slow)
    _, chosen = await _pick(d)
    assert chosen.response_type == 6
    assert chosen.ack_delay is not None and chosen.ack_delay < slow
    own = _own_routes(chosen)
    assert own[:2] == [
        "/interactions/{webhook_id}/{webhook_token}/callback",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ]


async def test_without_the_quick_answer_every_click_is_deferred(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 0.0)
    d = driver
    _, chosen = await _pick(d)
    assert chosen.response_type == 6
    assert len(chosen.calls) >= 2


async def test_a_call_made_in_the_clicks_name_defers_it_first(driver: Driver) -> None:
    """Start in a server that plays in threads: the match's thread is created while the
    click is handled, after the click's deferral (the harness checks that nothing about
    a click reaches Discord before its answer)."""
    d = driver
    ann, bob = d.users[:2]
    await d.slash(ann, "start", game="test-pick")
    await d.press(bob, d.lobby(), "Join")
    start = await d.press(ann, d.lobby(), "Start")
    routes = [c.route_template for c in start.calls]
    assert "/channels/{channel_id}/threads" in routes, routes
    assert routes[0].endswith("/callback") and start.response_type == 6


async def test_an_expired_click_gets_no_follow_up(
    driver: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses the answer (the click arrived too late): the bot sends nothing
    more about it and carries on. The click was handled before its answer was refused,
    so its pick stands, and the channel shows it."""
    d = driver
    p = await _prompt(d)
    version = p.live.match.version
    before = d.round_message().text()
    with _expiring(d):
        expired = await _choose(d, p)
    assert not expired.acknowledged
    assert [c.statuses for c in expired.calls if f"/{expired.id}/" in c.path] == [[404]]
    own_hook = f"/{expired.token}/"
    assert not [c for c in expired.calls if c.path.startswith("/webhooks/") and own_hook in c.path]
    assert "could not" in caplog.text
    assert (await d.live(p.mid)).match.version == version + 1
    assert "has chosen a card" not in before and "has chosen a card" in d.round_message().text()


async def test_a_public_click_answered_by_its_result_lends_its_token(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Join, answered by the lobby edited in the answer itself: that click's token may
    edit the lobby from then on (the table's edits go through it, cogs/publisher.py)."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    ann, bob = d.users[:2]
    await d.slash(ann, "start", game="test-pick")
    join = await d.press(bob, d.lobby(), "Join")
    assert join.response_type == 7
    assert "Players (2;" in d.lobby().text()
    assert d.bot is not None
    hook = d.bot.gm.publisher._handle(d.lobby().id)  # noqa: SLF001
    assert hook is not None and hook.token == join.token


async def test_an_answer_discord_refuses_for_its_content_still_acknowledges_the_click(
    driver: Driver, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The click's answer (the prompt edited) is refused with a 400: a deferral answers
    the click instead, so its player never sees "This interaction failed"."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    p = await _prompt(d)
    version = p.live.match.version
    d.fake.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 400, code=50035)
    chosen = await _choose(d, p)
    assert chosen.acknowledged and chosen.response_type == 6
    assert "could not update the clicked message: 400" in caplog.text
    assert (await d.live(p.mid)).match.version == version + 1  # the pick stands


async def test_a_pick_is_answered_before_the_ai_seats_reply(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MAD against its AI, which takes 0.3 s to move: the player's pick is answered (its
    prompt saying so) as soon as it is committed, before the AI's move; the reply after
    it brings the next prompt as a follow-up, without editing the answered prompt again."""
    slow = 0.3
    real = apply.ai_choice

    async def thinking(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(slow)
        return await real(*args, **kwargs)

    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad", ai_level="easy")
    await d.press(ann, d.lobby(), "Add AI")
    await d.press(ann, d.lobby(), "Start")
    monkeypatch.setattr(apply, "ai_choice", thinking)
    live = await d.live(1)
    [x] = [x for x in live.match.pending() if not live.match.seats[x.seat].ai]
    version = live.match.version
    press = await d.press(ann, d.round_message(), "Make your choice")
    chosen = await d.choose_in(ann, d.prompt_for(d.replies(press), x), x, x.options[0].id)
    assert chosen.response_type == 7 and chosen.ack_delay is not None
    assert chosen.ack_delay < slow, "answered before the AI's move"
    assert live.match.version >= version + 2, "the AI moved in the same handling"
    own = _own_routes(chosen)
    assert own[0] == "/interactions/{webhook_id}/{webhook_token}/callback"
    assert "/webhooks/{webhook_id}/{webhook_token}/messages/@original" not in own
    assert "/webhooks/{webhook_id}/{webhook_token}" in own, "the next prompt follows"


async def test_what_the_ai_seats_moves_tell_the_picker_comes_with_the_answer(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pick answered at its commit, then the AI seat's move tells its player something
    privately: the answered prompt is edited to say it too."""
    game = type(get_game("test-pick"))
    real = game.apply

    def apply_and_whisper(self: Any, state: Any, answer: Any, ctx: Any) -> None:
        real(self, state, answer, ctx)
        if answer.seat == 1:
            text = f"psst {state.round}"
            ctx.emit("whisper", Text(fr=text, en=text), visible_to=[0])

    monkeypatch.setattr(game, "apply", apply_and_whisper)
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="test-pick")
    await d.press(ann, d.lobby(), "Add AI")
    await d.press(ann, d.lobby(), "Start")
    live = await d.live(1)
    [x] = [x for x in live.match.pending() if not live.match.seats[x.seat].ai]
    assert x.seat == 0
    press = await d.press(ann, d.round_message(), "Make your choice")
    chosen = await d.choose_in(ann, d.prompt_for(d.replies(press), x), x, x.options[0].id)
    answered = d.fake.message(chosen.message_id).text()  # type: ignore[arg-type]
    assert "psst 2" in answered, "told by the AI's move after the pick"


async def test_a_press_on_a_table_with_a_token_is_answered_by_the_prompt_itself(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first "Make your choice" on a table lends its token to the table's edits
    (deferred, the prompt a follow-up); a second one, the table's edits having a token,
    is answered by the private prompt itself (one call), and the table still takes its
    edits through the first token."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    live = await d.live(mid)
    first, second = live.match.pending()[:2]
    users = [d.user_by_id(live.match.seats[x.seat].user_id) for x in (first, second)]
    table = d.round_message()
    lent = await d.press(users[0], table, "Make your choice")
    assert lent.response_type == 6 and d.replies(lent)
    press = await d.press(users[1], table, "Make your choice")
    assert press.response_type == 4 and press.ephemeral
    own = _own_routes(press)
    assert own == ["/interactions/{webhook_id}/{webhook_token}/callback"], own
    prompt = d.prompt_for(d.replies(press), second)
    assert prompt.ephemeral_for == d.uid(users[1])
    since = len(d.fake.calls)
    await d.choose_in(users[1], prompt, second, second.options[0].id)
    edits = [c for c in d.fake.calls[since:] if d.fake.target_of(c) == table.id]
    assert edits and all(f"/{lent.token}/" in c.path for c in edits)


# --- commands ---------------------------------------------------------------------------------
async def test_a_quick_command_is_answered_by_its_message_in_one_call(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/arena rules``: its private answer is the command's response itself, without a
    "thinking" deferral before it (two calls) or a follow-up after it."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    fi = await d.slash(d.users[0], "rules", game="mad")
    assert fi.response_type == 4 and fi.ephemeral
    routes = _own_routes(fi)
    assert routes[0] == "/interactions/{webhook_id}/{webhook_token}/callback"
    assert routes.count(routes[0]) == 1
    assert "/webhooks/{webhook_id}/{webhook_token}/messages/@original" not in routes
    replies = d.replies(fi)
    assert replies[0].id == fi.original_message_id and "MAD" in replies[0].text()
    assert all(m.ephemeral_for == d.uid(d.users[0]) for m in replies)


async def test_a_slow_command_is_deferred_then_answered(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past QUICK_ANSWER a command is deferred ("thinking", private) while it is handled,
    then its answer replaces the deferral's placeholder."""
    d = driver
    slow = 0.3
    _slow_down(d, monkeypatch, "rules", slow)
    fi = await d.slash(d.users[0], "rules", game="mad")
    assert fi.response_type == 5 and fi.ephemeral
    assert fi.ack_delay is not None and fi.ack_delay < slow
    assert "MAD" in d.reply_text(fi)
    assert not any(m.loading for m in d.replies(fi)), "no placeholder left thinking"


async def test_a_prompt_answering_a_command_is_watched_like_any_other(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/arena hand`` answered by the prompt itself: once the player answers in another
    copy, that prompt is closed through the command's original response."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    fi = await d.slash(ann, "hand")
    assert fi.response_type == 4
    prompt = d.fake.message(fi.original_message_id)  # type: ignore[arg-type]
    assert d.fake.components(prompt), "the command's answer is the prompt"
    await d.press(ann, await open_prompt(d, ann), "3")
    closed = d.fake.message(prompt.id)
    assert closed.text() == t("en", "watch.retired", why=t("en", "watch.answered"))
    assert d.fake.components(closed) == []


async def test_a_command_answer_discord_refuses_is_deferred_and_followed_up(
    driver: Driver, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The command's answer refused for its content (400): a deferral answers the command
    instead, so its user never sees "The application did not respond", and the answer
    follows it."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    d.fake.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 400, code=50035)
    fi = await d.slash(d.users[0], "rules", game="mad")
    assert fi.acknowledged and fi.response_type == 5
    assert "could not answer a command: 400" in caplog.text
    assert "MAD" in d.reply_text(fi)


async def test_an_expired_command_gets_nothing_more(
    driver: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    d = driver
    with _expiring(d):
        fi = await d.slash(d.users[0], "rules", game="mad")
    assert not fi.acknowledged
    assert [c.statuses for c in fi.calls if f"/{fi.id}/" in c.path] == [[404]]
    assert not [c for c in fi.calls if c.path.startswith("/webhooks/")]
    assert "could not" in caplog.text


async def test_a_stale_answer_to_a_command_keeps_its_fresh_prompt(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/arena play`` whose commit found the match moved on answers with a fresh prompt
    and "take the buttons off the clicked message": a command has none, so the fresh
    prompt, its own answer, keeps its buttons."""
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 1.0)
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    assert d.bot is not None
    gm: Any = d.bot.gm

    async def stale(channel_id: int, actor: Any, text: str) -> Any:
        reply = await gm.hand_here(channel_id, actor)
        reply.strip = True
        return reply

    monkeypatch.setattr(gm, "play_text", stale)
    fi = await d.slash(ann, "play", text="a1-a2")
    assert fi.response_type == 4
    prompt = d.fake.message(fi.original_message_id)  # type: ignore[arg-type]
    assert d.fake.components(prompt), "the fresh prompt keeps its buttons"
