"""The live table, the round summaries and the podium (issue 11 items 1, 2, 7-10)."""

from __future__ import annotations

EN: dict[str, str] = {
    "table.title": "{game} — round {round}",
    "table.until": "<t:{ts}:R>",
    "table.recent": "**Last events**",
    "table.footer": "Match #{mid} · press the button for your options, privately",
    "table.footer_secret": "Match #{mid} · choices stay secret until everyone has chosen",
    "table.quiet": "Nothing public happened in this round.",
    "table.continued": "Match #{mid}, round {round}: the log continues",
    "end.scores.arena": "Hit points left",
    "end.scores.mad": "Match points (1 a win, 0.5 a half victory)",
    "end.scores.mad-arena": "Points: sizes of the trophies, +3 in the centre",
    "end.scores.ultimate-warriorz": "Popularity points (PP)",
    "end.scores.madsteam": "Survival points (SP)",
    "end.log_only": "The full log is attached.",
    "end.rematch": "Rematch",
    "end.rematch_players": "Only the players of that match can ask for its rematch: "
    "open your own table with /arena start.",
}

FR: dict[str, str] = {
    "table.title": "{game} — manche {round}",
    "table.until": "<t:{ts}:R>",
    "table.recent": "**Derniers événements**",
    "table.footer": "Partie n° {mid} · le bouton vous montre vos choix, en privé",
    "table.footer_secret": "Partie n° {mid} · les choix restent secrets jusqu'à ce que tout "
    "le monde ait choisi",
    "table.quiet": "Rien de public ne s'est passé pendant cette manche.",
    "table.continued": "Partie n° {mid}, manche {round} : suite du journal",
    "end.scores.arena": "Points de vie restants",
    "end.scores.mad": "Points de match (1 par victoire, 0,5 pour une demi-victoire)",
    "end.scores.mad-arena": "Points : tailles des trophées, +3 au centre",
    "end.scores.ultimate-warriorz": "Points de popularité (PP)",
    "end.scores.madsteam": "Points de survie (PS)",
    "end.log_only": "Le journal complet est joint.",
    "end.rematch": "Revanche",
    "end.rematch_players": "Seuls les joueurs de cette partie peuvent en demander la "
    "revanche : ouvrez votre propre table avec /arena start.",
}
