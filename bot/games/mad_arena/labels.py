"""Player-facing names of cards, zones and options (French and English)."""

from __future__ import annotations

from bot.engine.text import Text
from bot.games.mad_arena.cards import SECRET_NAMES, SECRET_SHORT, Card
from bot.games.mad_arena.state import MAState


def card_label(state: MAState, cid: str) -> Text:
    """``Cactus 2``, or ``★ Bramble net`` for the secret move (short: buttons hold 80 characters)."""
    c = state.card(cid)
    name = state.name(c.fighter)
    if c.secret is not None:
        s = SECRET_SHORT[c.secret]
        return Text(fr=f"★ {s.fr}", en=f"★ {s.en}")
    num = cid.rsplit("-", 1)[-1]
    return Text(fr=f"{name} {num}", en=f"{name} {num}")


def melee_shown(state: MAState, c: Card, fid: str, next_play: bool) -> int | str:
    """The melee dice a card would give now (computed for kamikaze and Terminotaure)."""
    f = state.f(fid)
    if c.secret == "kamikaze":
        return min(6, 8 - f.hp)
    if c.secret == "terminotaure":
        return f.played_since_refill + (1 if next_play else 0)
    return c.melee


def card_stats(state: MAState, cid: str, fid: str, next_play: bool = True) -> dict[str, int | str]:
    c = state.card(cid)
    stats: dict[str, int | str] = {
        "initiative": c.initiative if c.initiative is not None else "gong",
        "move": c.move,
        "melee": melee_shown(state, c, fid, next_play),
        "ranged": c.ranged,
        "defence": c.defence,
    }
    return stats


def card_detail(state: MAState, cid: str, fid: str) -> Text:
    """The line under a card button: its values, and what its secret move does."""
    c = state.card(cid)
    values = stats_text(card_stats(state, cid, fid))
    if c.secret is None:
        return values
    s = SECRET_NAMES[c.secret]
    return Text(
        fr=f"Botte secrète (une fois par partie) : {s.fr}. {values.fr}",
        en=f"Secret move (once per game): {s.en}. {values.en}",
    )


def stats_text(stats: dict[str, int | str]) -> Text:
    s = stats
    star = ""
    return Text(
        fr=f"⚡{s['initiative']} 👣{s['move']} ⚔️{s['melee']} 🏹{s['ranged']} 🛡️{s['defence']}+{star}",
        en=f"⚡{s['initiative']} 👣{s['move']} ⚔️{s['melee']} 🏹{s['ranged']} 🛡️{s['defence']}+{star}",
    )


def zone_text(state: MAState, zone: int) -> Text:
    if zone == state.centre:
        return Text(fr="le centre", en="the centre")
    who = state.name(state.zones[zone])
    return Text(fr=f"la zone {who}", en=f"{who}'s zone")


def zone_short(state: MAState, zone: int) -> Text:
    if zone == state.centre:
        return Text(fr="Centre", en="Centre")
    who = state.name(state.zones[zone])
    return Text(fr=f"Zone {who}", en=f"{who}'s zone")


def de(name: str) -> str:
    """French "de X" with elision: ``d'Agaric``, ``de Cactus``."""
    return f"d'{name}" if name[:1].lower() in "aeiouyéèêàâîïôûh" else f"de {name}"
