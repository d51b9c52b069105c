"""``python -m bot simulate``: files, JSON summary, determinism, clear refusals."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.cli.verify import replay_from_log
from bot.engine import Match, SeatSpec
from bot.engine.autoplay import RunawayMatch, ai_step, play_out
from bot.engine.log import markdown_log, parse_log
from bot.engine.registry import all_games, get_game

SUMMARY_KEYS = ["game", "mode", "seed", "seats", "winners", "rounds", "decisions", "rolls"]


def test_writes_round_images_gif_and_log(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "sim"
    run = cli("simulate", "--game", "test-pick-img", "--seed", "7", "--out", str(out), "--json")
    assert run.code == 0, run.err
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "final.png",
        "log.md",
        "match.gif",
        "round-001.png",
        "round-002.png",
        "round-003.png",
    ]
    for name in names:
        if name.endswith(".png"):
            assert Image.open(out / name).format == "PNG"
    gif = Image.open(io.BytesIO((out / "match.gif").read_bytes()))
    assert gif.format == "GIF" and gif.n_frames >= 2
    summary = run.last_json()
    assert list(summary) == SUMMARY_KEYS
    assert summary["game"] == "test-pick-img" and summary["mode"] == "duel"
    assert summary["seed"] == "7" and summary["seats"] == ["AI 1", "AI 2"]
    assert summary["rounds"] == 3 and summary["decisions"] == 6


def test_summary_and_log_agree_with_the_engine(cli: Any, tmp_path: Path) -> None:
    run = cli(
        "simulate",
        "--game",
        "test-pick",
        "--players",
        "3",
        "--seed",
        "s9",
        "--out",
        str(tmp_path),
        "--json",
    )
    seats = [SeatSpec(name=f"AI {i}", ai=True) for i in (1, 2, 3)]
    match = play_out(Match.create("test-pick", seats, "s9"))
    outcome = match.outcome()
    assert outcome is not None
    summary = run.last_json()
    assert summary["winners"] == [seats[w].name for w in outcome.winners]
    assert summary["decisions"] == len(match.choices) == 9
    assert summary["rolls"] == sum(e.kind == "roll" for e in match.events)
    assert (tmp_path / "log.md").read_text(encoding="utf-8") == markdown_log(match, "en")
    # test-pick draws nothing: no image, no GIF, just the log.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.md"]


def test_same_seed_gives_identical_files(cli: Any, tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for out, seed in ((a, "42"), (b, "42"), (c, "43")):
        assert (
            cli("simulate", "--game", "test-pick-img", "--seed", seed, "--out", str(out)).code == 0
        )
    for p in a.iterdir():
        assert p.read_bytes() == (b / p.name).read_bytes(), p.name
    assert (a / "log.md").read_bytes() != (c / "log.md").read_bytes()


def test_without_seed_a_random_one_is_printed(cli: Any, tmp_path: Path) -> None:
    run = cli("simulate", "--game", "test-pick", "--out", str(tmp_path), "--json")
    assert run.code == 0
    first = run.out.splitlines()[0]
    assert first.startswith("Seed: ")
    assert run.last_json()["seed"] == first.removeprefix("Seed: ")
    other = cli("simulate", "--game", "test-pick", "--out", str(tmp_path / "2"), "--json")
    assert other.last_json()["seed"] != run.last_json()["seed"]


def test_players_default_to_the_modes_smallest_count(cli: Any, tmp_path: Path) -> None:
    run = cli(
        "simulate",
        "--game",
        "test-pick-img",
        "--mode",
        "trio",
        "--seed",
        "1",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert run.last_json()["seats"] == ["AI 1", "AI 2", "AI 3"]


def test_french_log_and_seat_names(cli: Any, tmp_path: Path) -> None:
    run = cli(
        "simulate",
        "--game",
        "test-pick-img",
        "--seed",
        "1",
        "--lang",
        "fr",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert run.last_json()["seats"] == ["IA 1", "IA 2"]
    log = (tmp_path / "log.md").read_text(encoding="utf-8")
    assert "## Journal" in log and "Vainqueurs" in log


def test_options_and_cards_are_typed_and_recorded(cli: Any, tmp_path: Path) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text("x = 1\n")
    out = tmp_path / "out"
    run = cli(
        "simulate", "--game", "test-pick-img", "--seed", "1", "--out", str(out),
        "--option", "loud=oui", "--option", "bonus=4", "--option", "style=bold", "--cards", str(cards),
    )  # fmt: skip
    assert run.code == 0, run.err
    log = (out / "log.md").read_text(encoding="utf-8")
    data = json.loads(log.split("<!-- arena-master-log\n")[1].split("\n-->")[0])
    assert data["options"] == {"loud": True, "bonus": 4, "style": "bold", "cards": str(cards)}


def test_files_of_an_earlier_run_are_replaced(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "round-099.png").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("mine")
    assert (
        cli("simulate", "--game", "test-pick-img", "--seed", "1", "--out", str(tmp_path)).code == 0
    )
    assert not (tmp_path / "round-099.png").exists()
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_an_output_path_that_is_a_file_is_a_message(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x")
    run = cli("simulate", "--game", "test-pick", "--seed", "1", "--out", str(tmp_path / "taken"))
    assert run.code == 2 and "Cannot write into" in run.err


def test_a_match_that_never_ends_is_reported_with_its_partial_log(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stuck(match: Match, **kwargs: Any) -> Match:
        ai_step(match)
        raise RunawayMatch(f"{match.game_id}: still running after 1 decisions")

    monkeypatch.setattr("bot.cli.simulate.play_out", stuck)
    run = cli("simulate", "--game", "test-pick-img", "--seed", "1", "--out", str(tmp_path))
    assert run.code == 1 and "did not end" in run.err
    log = (tmp_path / "log.md").read_text(encoding="utf-8")
    # An unfinished match reveals neither the seed nor any (possibly secret) choice.
    assert parse_log(log)["seed"] is None and parse_log(log)["choices"] == []
    assert "## Log" in log


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "nope"], "Unknown game 'nope'. Known games:"),
        (["--game", "test-pick", "--mode", "blitz"], "has no mode 'blitz'. Its modes: default"),
        (["--game", "test-pick", "--players", "5"], "played by 2, 3 players, not 5"),
        (
            ["--game", "test-pick-img", "--mode", "trio", "--players", "2"],
            "played by 3 players, not 2",
        ),
        (["--game", "test-pick-img", "--option", "colour=red"], "has no option 'colour'"),
        (["--game", "test-pick-img", "--option", "bonus"], "expects key=value"),
        (["--game", "test-pick-img", "--option", "bonus=lots"], "whole number"),
        (["--game", "test-pick-img", "--option", "bonus=9"], "between 0 and 5"),
        (["--game", "test-pick-img", "--option", "loud=maybe"], "yes or no"),
        (["--game", "test-pick-img", "--option", "style=fancy"], "one of plain, bold"),
        (["--game", "test-pick-img", "--cards", "missing.toml"], "no file at 'missing.toml'"),
        (["--game", "test-pick", "--cards", "x.toml"], "no 'cards' option"),
        (["--game", "test-pick", "--lang", "de"], "invalid choice"),
        ([], "--game"),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_2(
    cli: Any, tmp_path: Path, argv: list[str], message: str
) -> None:
    run = cli("simulate", "--out", str(tmp_path / "x"), *argv)
    assert run.code == 2
    assert message in run.err
    assert "Traceback" not in run.err
    assert not (tmp_path / "x").exists()


REAL_GAMES = sorted(g.id for g in all_games() if not g.id.startswith("test-"))


def quick_ai(game: str) -> list[str]:
    """``--option ai_level=<first level>`` for games with an AI level option (the
    project's convention, see ``bot.gm.present``): the command line is under test
    here, the strength of a game's AI is tested with the game."""
    for spec in get_game(game).info.options:
        if spec.id == "ai_level" and spec.type == "choice" and spec.choices:
            return ["--option", f"ai_level={spec.choices[0][0]}"]
    return []


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_real_game_simulates_deterministically(cli: Any, tmp_path: Path, game: str) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    argv = ["simulate", "--game", game, "--seed", "42", "--json", *quick_ai(game)]
    run = cli(*argv, "--out", str(a))
    assert run.code == 0, run.err
    summary = run.last_json()
    assert list(summary) == SUMMARY_KEYS and summary["game"] == game and summary["seed"] == "42"
    assert set(summary["winners"]) <= set(summary["seats"])
    assert summary["decisions"] > 0 and summary["rounds"] >= 1
    names = {p.name for p in a.iterdir()}
    assert {"log.md", "final.png", "match.gif"} <= names
    assert any(n.startswith("round-") and n.endswith(".png") for n in names)
    for name in names - {"log.md"}:
        Image.open(a / name).verify()
    log = (a / "log.md").read_text(encoding="utf-8")
    data = parse_log(log)
    assert len(data["choices"]) == summary["decisions"]
    assert summary["rolls"] == sum(e["kind"] == "roll" for e in data["events"])
    # The log is a function of the choices, and the choices of the seed.
    assert markdown_log(replay_from_log(data), "en") == log
    again = cli(*argv, "--out", str(b))
    assert again.code == 0 and again.last_json() == summary
    assert {p.name for p in b.iterdir()} == names
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert cli("verify", str(a / "log.md")).code == 0


def test_progress_goes_to_stderr_and_json_stays_last(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.cli import simulate

    monkeypatch.setattr(simulate, "PROGRESS_EVERY", 0.0)  # a line after every decision
    run = cli(
        "simulate", "--game", "test-pick-img", "--seed", "7", "--out", str(tmp_path), "--json"
    )
    assert run.code == 0, run.err
    lines = run.err.splitlines()
    assert lines[0].startswith("… round 1, 1 decisions, ")
    assert lines[-1].startswith("Played 3 rounds, ") and lines[-1].endswith(" s")
    assert run.last_json()["rounds"] == 3
    assert "round" not in run.out.replace("rounds", "").replace("round-", "")


def test_progress_lines_are_spaced_in_time() -> None:
    from bot.cli.simulate import Progress

    now = [100.0]
    out = io.StringIO()
    p = Progress(out, every=2.0, clock=lambda: now[0])
    for step in range(1, 11):
        now[0] += 0.5
        p.step(step, step * 3)
    p.done(10, 30)
    assert out.getvalue().splitlines() == [
        "… round 4, 12 decisions, 2 s elapsed",
        "… round 8, 24 decisions, 4 s elapsed",
        "Played 10 rounds, 30 decisions in 5.0 s",
    ]
