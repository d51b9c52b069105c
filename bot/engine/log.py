"""The Markdown match log: every event and every roll, in one language.

Written at the end of a match (Discord attachment, simulator output) so a
player can check every die by hand, and read back by ``python -m bot verify``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from bot.engine.dice import seed_commitment, verify_rolls
from bot.engine.events import AnyEvent, RollEvent, event_from_json
from bot.engine.game import GameInfo, Outcome, SeatSpec
from bot.engine.match import LOG_FORMAT, Match


def public_events(events: list[AnyEvent], seat: int | None = None) -> list[AnyEvent]:
    return [e for e in events if e.visible(seat)]


def rolls_of(events: list[AnyEvent]) -> list[RollEvent]:
    return [e for e in events if isinstance(e, RollEvent)]


def log_json(match: Match) -> dict[str, Any]:
    """Everything needed to replay and verify a match, as one JSON object.

    Before the end only public events are included and no choices: a
    mid-match log must not reveal a secret pick. Once over, the seed is
    revealed anyway (which makes every draw recomputable), so everything goes in.
    """
    out = match.outcome()
    events = match.events if out is not None else public_events(match.events)
    return {
        "format": LOG_FORMAT,
        "game": match.game_id,
        "mode": match.mode,
        "options": match.options,
        "seats": [s.model_dump() for s in match.seats],
        "seed_sha256": match.commitment,
        "seed": match.seed if out is not None else None,
        "choices": [c.log_data() for c in match.choices] if out is not None else [],
        "events": [e.model_dump(mode="json") for e in events],
        "outcome": out.model_dump(mode="json") if out else None,
    }


def markdown_log(match: Match, lang: str = "en") -> str:
    """Public log of a match; the seed appears only once it is over.

    Its readable lines are rendered from its own data block
    (:func:`readable_lines`), so ``verify`` can check that no line a player
    reads was edited.
    """
    data = log_json(match)
    lines = readable_lines(data, lang, title(match.game.info, match.mode, lang))
    lines.append("<!-- arena-master-log")
    lines.append(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    lines.append("-->")
    return "\n".join(lines) + "\n"


def title(info: GameInfo, mode: str | None, lang: str) -> str:
    """The log's first line: the game and mode names."""
    return f"# {info.names.get(lang)} — {info.mode(mode).names.get(lang)}"


def readable_lines(data: dict[str, Any], lang: str, heading: str) -> list[str]:
    """The human-readable part of a Markdown log, from its data block alone.

    Seats, the seed commitment (and the seed once over), every public event
    (rolls with their draw indices) and the result, in ``lang``; it ends with
    the blank line before the data block.
    """
    fr = lang.startswith("fr")
    seats = [SeatSpec.model_validate(s) for s in data["seats"]]
    out = Outcome.model_validate(data["outcome"]) if data.get("outcome") else None
    lines = [heading, ""]
    lines.append(("Joueurs : " if fr else "Seats: ") + ", ".join(s.name for s in seats))
    lines.append(f"SHA-256 (seed): `{data['seed_sha256']}`")
    if out is not None:
        lines.append(f"Seed: `{data['seed']}`")
    lines.append("")
    lines.append("## " + ("Journal" if fr else "Log"))
    lines.append("")
    for e in public_events([event_from_json(e) for e in data["events"]]):
        lines.append(
            f"- {e.text.get(lang)}"
            + (f"  (#{','.join(map(str, e.indices))})" if isinstance(e, RollEvent) else "")
        )
    lines.append("")
    if out is not None:
        lines.append("## " + ("Résultat" if fr else "Result"))
        lines.append("")
        lines.append(out.reason.get(lang))
        names = [seats[w].name for w in out.winners]
        lines.append(
            ("Vainqueurs : " if fr else "Winners: ") + (", ".join(names) if names else "—")
        )
    lines.append("")
    return lines


def check_readable(text: str, data: dict[str, Any], heading: str | None) -> tuple[bool, str]:
    """Whether the readable lines of a Markdown log say what its data block says.

    The dice checks read the data block; players read the lines above it. Each
    line is compared with the one rendered from the data (in the log's own
    language; ``heading`` None: the game is unknown here, so the title is not
    compared), and the first difference is reported.
    """
    if text.lstrip().startswith("{"):
        return True, "a JSON log has no readable lines"
    written = text[: text.index("<!-- arena-master-log")].split("\n")
    written = [line.rstrip() for line in written]
    lang = "fr" if "## Journal" in written else "en"
    try:
        expected = readable_lines(data, lang, heading or (written[0] if written else ""))
    except (ValidationError, KeyError, TypeError, ValueError, IndexError):
        return False, "the data block's seats, events or result are malformed"
    expected = [line.rstrip() for line in expected]
    while written and not written[-1]:
        written.pop()
    while expected and not expected[-1]:
        expected.pop()
    for n, (got, want) in enumerate(zip(written, expected, strict=False), start=1):
        if got != want:
            return False, f"line {n} reads {got!r} but the data block says {want!r}"
    if len(written) < len(expected):
        return False, (
            f"line {len(written) + 1} is missing: the data block says {expected[len(written)]!r}"
        )
    if len(written) > len(expected):
        return False, f"line {len(expected) + 1} ({written[len(expected)]!r}) is not in the data"
    return True, f"all {len(written)} readable lines match the data block"


def parse_log(text: str) -> dict[str, Any]:
    """The JSON block of a Markdown log (or a bare JSON log)."""
    text = text.strip()
    if text.startswith("{"):
        return json.loads(text)
    start = text.index("<!-- arena-master-log")
    body = text[start:].split("\n", 1)[1]
    body = body[: body.rindex("-->")]
    return json.loads(body)


def verify_log(data: dict[str, Any]) -> tuple[bool, str]:
    """Recompute every roll from the revealed seed; also check the commitment."""
    seed = data.get("seed")
    if not seed:
        return False, "the log has no seed: the match is not over yet"
    if seed_commitment(seed) != data["seed_sha256"]:
        return False, "the seed does not match the SHA-256 published at the start"
    rolls = [e for e in map(event_from_json, data["events"]) if isinstance(e, RollEvent)]
    bad = verify_rolls(seed, [(r.dice, r.indices, r.sides) for r in rolls])
    if bad:
        return (
            False,
            f"{len(bad)} of {len(rolls)} rolls do not match the seed (first: roll #{bad[0] + 1})",
        )
    return True, f"all {len(rolls)} rolls match the seed"
