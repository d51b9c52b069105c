"""The Markdown match log: every event and every roll, in one language.

Written at the end of a match (Discord attachment, simulator output) so a
player can check every die by hand, and read back by ``python -m bot verify``.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine.dice import seed_commitment, verify_rolls
from bot.engine.events import AnyEvent, RollEvent, event_from_json
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
    """Public log of a match; the seed appears only once it is over."""
    fr = lang.startswith("fr")
    info = match.game.info
    out = match.outcome()
    lines = [f"# {info.names.get(lang)} — {info.mode(match.mode).names.get(lang)}", ""]
    lines.append(("Joueurs : " if fr else "Seats: ") + ", ".join(s.name for s in match.seats))
    lines.append(f"SHA-256 (seed): `{match.commitment}`")
    if out is not None:
        lines.append(f"Seed: `{match.seed}`")
    lines.append("")
    lines.append("## " + ("Journal" if fr else "Log"))
    lines.append("")
    for e in public_events(match.events):
        lines.append(
            f"- {e.text.get(lang)}"
            + (f"  (#{','.join(map(str, e.indices))})" if isinstance(e, RollEvent) else "")
        )
    lines.append("")
    if out is not None:
        lines.append("## " + ("Résultat" if fr else "Result"))
        lines.append("")
        lines.append(out.reason.get(lang))
        names = [match.seats[w].name for w in out.winners]
        lines.append(
            ("Vainqueurs : " if fr else "Winners: ") + (", ".join(names) if names else "—")
        )
    lines.append("")
    lines.append("<!-- arena-master-log")
    lines.append(json.dumps(log_json(match), ensure_ascii=False, separators=(",", ":")))
    lines.append("-->")
    return "\n".join(lines) + "\n"


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
