"""What each seat may see (secrets stripped): hands and unrevealed picks are private."""

from __future__ import annotations

from typing import Any

from bot.games.mad_arena.arena import adjacent
from bot.games.mad_arena.combat import defence, gong_colour, is_dragon
from bot.games.mad_arena.labels import card_label, card_stats
from bot.games.mad_arena.scoring import fighter_score
from bot.games.mad_arena.state import MAState


def card_view(state: MAState, cid: str, fid: str, next_play: bool) -> dict[str, Any]:
    c = state.card(cid)
    return {
        "id": cid,
        "label": card_label(state, cid).model_dump(),
        "stats": card_stats(state, cid, fid, next_play),
        "secret": c.secret,
    }


def build_view(state: MAState, seat: int | None) -> dict[str, Any]:
    n = len(state.zones)
    fighters: list[dict[str, Any]] = []
    for f in state.fighters:
        data = state.data(f.id)
        own = seat is not None and f.seat == seat
        d: dict[str, Any] = {
            "id": f.id,
            "name": data.name,
            "colour": data.colour,
            "size": data.size,
            "dragon": data.dragon,
            "seat": f.seat,
            "player": state.seat_names[f.seat],
            "team": f.team,
            "hp": f.hp,
            "max_hp": data.size,
            "alive": f.alive,
            "zone": f.zone,
            "defence": defence(state, f.id),
            "in_play": card_view(state, f.in_play, f.id, False) if f.in_play else None,
            "discard": list(f.discard),
            "removed": list(f.removed),
            "hand_count": len(f.hand),
            "picked": f.pick is not None,
            "acted": f.acted,
            "netted": state.net_on == f.id,
            "played_since_refill": f.played_since_refill,
            "kick_used": f.kick_used,
            "trophies": [t.model_dump() for t in f.trophies],
            "trophy_points": sum(state.data(t.fighter).size for t in f.trophies),
            "score": fighter_score(state, f.id),
            "eliminated_by": f.eliminated_by,
            "eliminated_round": f.eliminated_round,
        }
        if own:
            d["hand"] = [card_view(state, cid, f.id, True) for cid in f.hand]
            d["pick"] = card_view(state, f.pick, f.id, True) if f.pick else None
            d["secret_unused"] = any(state.card(c).secret for c in f.hand) or (
                is_dragon(state, f.id) and not f.kick_used
            )
        fighters.append(d)
    a = state.action
    return {
        "game": "mad-arena",
        "mode": state.mode,
        "seat": seat,
        "round": state.round,
        "last_round": 12,
        "gong_colour": gong_colour(state),
        "phase": state.phase,
        "countdown": state.countdown,
        "zones": [
            {"index": i, "owner": fid, "name": state.name(fid), "adjacent": adjacent(i, n)}
            for i, fid in enumerate(state.zones)
        ],
        "centre": n,
        "fighters": fighters,
        "teams": state.teams,
        "net_on": state.net_on,
        "action": a.model_dump() if a else None,
        "last": state.last.model_dump() if state.last else None,
        "winners": state.result_winners if state.phase == "over" else None,
        "result": state.result_text.model_dump() if state.result_text else None,
        "shared": state.result_shared,
    }
