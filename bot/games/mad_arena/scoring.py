"""§4 Victoire: last fighter / team standing, or points after the 12th round.

A survivor's score is the sum of its trophies' sizes, +3 if it ends in the
centre. In team modes a team scores the sum of its survivors; every seat of
the best team wins (eliminated team mates included). Exact ties are shared.
"""

from __future__ import annotations

from bot.engine.game import Ctx
from bot.engine.text import Text
from bot.games.mad_arena.state import MAState


def fighter_score(state: MAState, fid: str) -> int:
    f = state.f(fid)
    if not f.alive:
        return 0
    trophies = sum(state.data(t.fighter).size for t in f.trophies)
    return trophies + (3 if f.zone == state.centre else 0)


def team_seats(state: MAState, team: int) -> list[int]:
    return sorted({f.seat for f in state.fighters if f.team == team})


def team_name(state: MAState, team: int) -> str:
    return " & ".join(state.name(fid) for fid in state.teams[team])


def alive_teams(state: MAState) -> list[int]:
    return sorted({f.team for f in state.alive()})


def check_last_standing(state: MAState, ctx: Ctx) -> bool:
    """Ends the match at once when a single fighter (or team) is left in the arena."""
    if state.phase == "over":
        return True
    teams = alive_teams(state)
    if len(teams) != 1:
        return False
    team = teams[0]
    state.phase = "over"
    state.result_winners = team_seats(state, team)
    state.result_scores = {
        s: float(sum(fighter_score(state, f.id) for f in state.alive() if f.seat == s))
        for s in range(len(state.seat_names))
    }
    state.result_shared = False
    who = team_name(state, team)
    if len(state.teams[team]) == 1:
        state.result_text = Text(
            fr=f"🏆 {who} reste seul dans l'arène : c'est le Guerrier Ultime !",
            en=f"🏆 {who} is alone in the arena: the Ultimate Warrior!",
        )
    else:
        state.result_text = Text(
            fr=f"🏆 L'équipe {who} est la dernière debout et l'emporte !",
            en=f"🏆 Team {who} is the last standing and wins!",
        )
    ctx.emit(
        "game-over",
        state.result_text,
        winners=state.result_winners,
    )
    return True


def final_scores(state: MAState, ctx: Ctx) -> None:
    """After round 12: trophy sizes + 3 in the centre; team totals; ties shared."""
    state.phase = "over"
    state.action = None
    totals: dict[int, int] = {}
    for team in alive_teams(state):
        totals[team] = sum(fighter_score(state, f.id) for f in state.alive() if f.team == team)
    best = max(totals.values())
    top = [t for t, v in totals.items() if v == best]
    state.result_winners = sorted({s for t in top for s in team_seats(state, t)})
    state.result_shared = len(top) > 1
    seat_scores: dict[int, float] = {s: 0.0 for s in range(len(state.seat_names))}
    for team, v in totals.items():
        for s in team_seats(state, team):
            seat_scores[s] = float(v)
    state.result_scores = seat_scores
    parts = ", ".join(
        f"{team_name(state, t)} {v}" for t, v in sorted(totals.items(), key=lambda kv: -kv[1])
    )
    winners = " & ".join(team_name(state, t) for t in top)
    shared_fr = " (victoire partagée)" if len(top) > 1 else ""
    shared_en = " (shared victory)" if len(top) > 1 else ""
    state.result_text = Text(
        fr=f"🏁 Fin du 12e round. Points : {parts}. Vainqueur aux points : {winners}{shared_fr} !",
        en=f"🏁 End of round 12. Points: {parts}. Winner on points: {winners}{shared_en}!",
    )
    ctx.emit(
        "game-over",
        state.result_text,
        totals={str(k): v for k, v in totals.items()},
        winners=state.result_winners,
    )
