"""Strings of the lobby's per-seat settings: AI levels and a game's seat choices."""

from __future__ import annotations

EN: dict[str, str] = {
    "seat.choice_open": "not chosen yet",
    "seat.taken_by": "taken by {who}",
    "lobby.seat_level": "AI level {level}",
    "lobby.seat_focus": "Set {seat}",
    "lobby.seat_pick": "Set a seat (host): AI level, choices…",
    "lobby.mine_pick": "Choose for your seat: {what}",
    "err.seat_taken": "{value} is already taken by {who}.",
}

FR: dict[str, str] = {
    "seat.choice_open": "pas encore choisi",
    "seat.taken_by": "pris par {who}",
    "lobby.seat_level": "niveau de l'IA {level}",
    "lobby.seat_focus": "Régler {seat}",
    "lobby.seat_pick": "Régler une place (hôte) : niveau de l'IA, choix…",
    "lobby.mine_pick": "Choisir pour votre place : {what}",
    "err.seat_taken": "{value} est déjà pris par {who}.",
}
