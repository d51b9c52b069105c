"""``python -m bot simulate``: a full match played by the AI, offline.

Writes one PNG per round (the public view when each round starts), the final
position, an animated GIF of them and the Markdown event and dice log, so a
game can be watched and checked without Discord. The same seed gives the same
files byte for byte. A long match shows its progress on stderr (round, decisions,
elapsed time) and the time it took; stdout (and ``--json``'s last line) is unchanged.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.cli.errors import CliError
from bot.engine import Choice, Match, SeatSpec
from bot.engine.autoplay import RunawayMatch, play_out
from bot.engine.dice import new_seed
from bot.engine.errors import EngineError
from bot.engine.events import AnyEvent
from bot.engine.game import Game, GameInfo, OptionSpec
from bot.engine.log import markdown_log, rolls_of
from bot.engine.registry import all_games, get_game
from bot.render.gif import gif_bytes

PROGRESS_EVERY = 2.0
"""Seconds between two progress lines (a match shorter than that prints none)."""
LOG_NAME = "log.md"
GIF_NAME = "match.gif"
FINAL_NAME = "final.png"


@dataclass
class SimulateArgs:
    game: str
    players: int | None = None
    mode: str | None = None
    seed: str | None = None
    out: Path = Path("sim-out")
    json: bool = False
    cards: str | None = None
    options: list[str] = field(default_factory=list)
    lang: str = "en"


@dataclass
class SimResult:
    match: Match
    rounds: int
    files: list[Path]
    summary: dict[str, Any]


def seat_names(count: int, lang: str) -> list[str]:
    prefix = "IA" if lang == "fr" else "AI"
    return [f"{prefix} {i + 1}" for i in range(count)]


def build_match(args: SimulateArgs) -> Match:
    """Validate game, mode, player count and options; raise :class:`CliError` if wrong."""
    try:
        game = get_game(args.game)
    except KeyError:
        known = ", ".join(sorted(g.id for g in all_games())) or "none installed"
        raise CliError(f"Unknown game {args.game!r}. Known games: {known}.") from None
    info = game.info
    try:
        mode = info.mode(args.mode)
    except KeyError:
        modes = ", ".join(m.id for m in info.modes)
        raise CliError(f"{info.id} has no mode {args.mode!r}. Its modes: {modes}.") from None
    players = args.players if args.players is not None else min(mode.player_counts)
    if players not in mode.player_counts:
        counts = ", ".join(map(str, mode.player_counts))
        raise CliError(f"{info.names.en} ({mode.id}) is played by {counts} players, not {players}.")
    options = parse_options(game, args.options, args.cards)
    seed = args.seed if args.seed is not None else new_seed()
    seats = [SeatSpec(name=name, ai=True) for name in seat_names(players, args.lang)]
    try:
        return Match.create(info.id, seats, seed, mode.id, options)
    except EngineError as exc:
        raise CliError(exc.reason.get(args.lang)) from None


def parse_options(game: Game[Any, Any], raw: list[str], cards: str | None) -> dict[str, Any]:
    """``key=value`` words typed against the game's option specs."""
    info = game.info
    specs = {o.id: o for o in info.options}
    pairs: list[tuple[str, str]] = []
    for item in raw:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--option expects key=value, got {item!r}.")
        pairs.append((key.strip(), value.strip()))
    if cards is not None:
        if "cards" not in specs:
            raise CliError(f"{info.id} has no card data to replace (no 'cards' option).")
        pairs.append(("cards", cards))
    out: dict[str, Any] = {}
    for key, value in pairs:
        spec = specs.get(key)
        if spec is None:
            raise CliError(f"{info.id} has no option {key!r}. Its options: {_option_list(info)}.")
        out[key] = convert_option(spec, value)
    return out


_TRUE = {"1", "true", "yes", "on", "oui", "vrai"}
_FALSE = {"0", "false", "no", "off", "non", "faux"}


def convert_option(spec: OptionSpec, value: str) -> Any:
    if spec.type == "bool":
        low = value.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise CliError(f"Option {spec.id} is yes or no (true/false), not {value!r}.")
    if spec.type == "int":
        try:
            number = int(value)
        except ValueError:
            raise CliError(f"Option {spec.id} is a whole number, not {value!r}.") from None
        if (spec.min is not None and number < spec.min) or (
            spec.max is not None and number > spec.max
        ):
            raise CliError(
                f"Option {spec.id} must be between {spec.min} and {spec.max}, not {number}."
            )
        return number
    if spec.type == "choice":
        ids = [c[0] for c in spec.choices]
        if value not in ids:
            raise CliError(f"Option {spec.id} is one of {', '.join(ids)}, not {value!r}.")
        return value
    if not Path(value).is_file():
        raise CliError(f"Option {spec.id}: no file at {value!r}.")
    return value


def _option_list(info: GameInfo) -> str:
    return ", ".join(o.id for o in info.options) or "none"


class Progress:
    """Signs of life of a long simulation on ``stream`` (stderr): the round being played,
    the decisions made and the time elapsed, at most every ``every`` seconds, then
    how long the whole match took."""

    def __init__(
        self,
        stream: TextIO,
        every: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.every = PROGRESS_EVERY if every is None else every
        self.clock = clock
        self.start = clock()
        self.last = self.start

    def elapsed(self) -> float:
        return self.clock() - self.start

    def step(self, round_label: int, decisions: int) -> None:
        now = self.clock()
        if now - self.last < self.every:
            return
        self.last = now
        self.stream.write(
            f"… round {round_label}, {decisions} decisions, {now - self.start:.0f} s elapsed\n"
        )
        self.stream.flush()

    def done(self, rounds: int, decisions: int) -> None:
        self.stream.write(
            f"Played {rounds} rounds, {decisions} decisions in {self.elapsed():.1f} s\n"
        )
        self.stream.flush()


def play(match: Match, out: Path, lang: str, progress: Progress | None = None) -> SimResult:
    """Play ``match`` to the end with the AI, writing images, GIF and log into ``out``."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"Cannot write into {out}: {exc.strerror or exc}.") from None
    for old in [*out.glob("round-*.png"), out / FINAL_NAME, out / GIF_NAME, out / LOG_NAME]:
        old.unlink(missing_ok=True)  # an earlier, longer run must not leave stray rounds
    files: list[Path] = []
    frames: list[bytes] = []

    def snap(name: str) -> None:
        data = match.render(None, lang)
        if not data:
            return  # a game without a renderer (test fixtures): log only
        path = out / name
        path.write_bytes(data)
        files.append(path)
        frames.append(data)

    label = match.round_label()
    snap(_round_name(label))
    seen = {label}
    played = {label} if not match.over else set()  # rounds in which a decision was made

    def on_step(m: Match, choice: Choice, events: list[AnyEvent]) -> None:
        if m.over:
            return  # the final position is drawn once, below
        now = m.round_label()
        if progress is not None:
            progress.step(now, len(m.choices))
        played.add(now)
        if now not in seen:
            seen.add(now)
            snap(_round_name(now))

    runaway: RunawayMatch | None = None
    try:
        play_out(match, on_step=on_step)
    except RunawayMatch as exc:
        runaway = exc
    snap(FINAL_NAME)
    if frames:
        gif = out / GIF_NAME
        gif.write_bytes(gif_bytes(frames))
        files.append(gif)
    log = out / LOG_NAME
    log.write_text(markdown_log(match, lang), encoding="utf-8")
    files.append(log)
    if runaway is not None:
        raise CliError(f"The match did not end: {runaway}. The partial log is in {log}.", code=1)
    rounds = len(played)
    if progress is not None:
        progress.done(rounds, len(match.choices))
    return SimResult(match=match, rounds=rounds, files=files, summary=summary(match, rounds))


def summary(match: Match, rounds: int) -> dict[str, Any]:
    """The ``--json`` line: what a script needs to compare runs.

    ``rounds`` counts the rounds (``round_label`` values) in which a decision
    was made; ``rolls`` counts every roll, private ones included.
    """
    outcome = match.outcome()
    winners = [match.seats[w].name for w in outcome.winners] if outcome else []
    return {
        "game": match.game_id,
        "mode": match.mode,
        "seed": match.seed,
        "seats": [s.name for s in match.seats],
        "winners": winners,
        "rounds": rounds,
        "decisions": len(match.choices),
        "rolls": len(rolls_of(match.events)),
    }


def _round_name(label: int) -> str:
    return f"round-{label:03d}.png"


def simulate_command(args: SimulateArgs) -> int:
    if args.lang not in ("fr", "en"):
        raise CliError(f"--lang is fr or en, not {args.lang!r}.")
    seeded = args.seed is not None
    match = build_match(args)
    if not seeded:
        print(f"Seed: {match.seed}")
    result = play(match, args.out, args.lang, Progress(sys.stderr))
    outcome = match.outcome()
    s = result.summary
    print(
        f"{match.game.info.names.get(args.lang)} — {match.game.info.mode(match.mode).names.get(args.lang)}"
    )
    print(f"Seats: {', '.join(s['seats'])}")
    if outcome is not None:
        print(f"Result: {outcome.reason.get(args.lang)}")
    print(f"Winners: {', '.join(s['winners']) or 'none'}")
    print(f"Rounds: {s['rounds']}, decisions: {s['decisions']}, rolls: {s['rolls']}")
    print(f"SHA-256 of the seed: {match.commitment}; seed: {match.seed}")
    written = [f"{sum(f.suffix == '.png' for f in result.files)} images"]
    if any(f.suffix == ".gif" for f in result.files):
        written.append("an animated GIF")
    written.append("the event and dice log")
    print(f"Wrote {', '.join(written[:-1])} and {written[-1]} to {args.out}/")
    print(f"Check the dice with: python -m bot verify {args.out / LOG_NAME}")
    if args.json:
        print(json.dumps(s, ensure_ascii=False, sort_keys=False))
    return 0
