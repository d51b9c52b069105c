"""``python -m bot verify``: check a finished match's dice and decisions.

Independent checks, all required to pass:
1. every logged roll is recomputed from the revealed seed, whose SHA-256 must
   equal the commitment published at the start (``verify_log``);
2. the logged decisions are replayed from seed + options and must produce
   exactly the logged rolls and result (or, for a stored match, exactly the
   stored snapshot) — so no roll was skipped, reordered or invented;
3. for a Markdown log, the readable lines players read say exactly what the
   data block says (``check_text``): an edited roll or event line is caught.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.cli.errors import CliError
from bot.engine import Choice, Match, SeatSpec
from bot.engine.errors import EngineError
from bot.engine.events import RollEvent, event_from_json
from bot.engine.log import check_readable, log_json, parse_log, rolls_of, title, verify_log
from bot.engine.match import SNAPSHOT_FORMAT
from bot.engine.registry import get_game

OK = 0
MISMATCH = 1


def read_log(path: Path) -> dict[str, Any]:
    """The JSON data of a Markdown or JSON log file; :class:`CliError` if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"No log file at {path}.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"Cannot read {path}: {exc}.") from None
    try:
        data = parse_log(text)
    except (ValueError, json.JSONDecodeError):
        raise CliError(
            f"{path} is not an Arena Master log (no <!-- arena-master-log --> block or JSON object)."
        ) from None
    needed = {"game", "seats", "choices", "events", "seed_sha256"}
    if not isinstance(data, dict) or not needed <= data.keys():
        raise CliError(f"{path} is missing parts of a match log ({', '.join(sorted(needed))}).")
    return data


def replay_from_log(data: dict[str, Any]) -> Match:
    """Replay the logged decisions from seed + options."""
    return Match.replay(
        data["game"],
        [SeatSpec.model_validate(s) for s in data["seats"]],
        data["seed"],
        data.get("mode"),
        data.get("options"),
        [Choice.model_validate(c) for c in data["choices"]],
        log_format=int(data.get("format", 1)),
    )


def check_replay(data: dict[str, Any]) -> tuple[bool, str]:
    """Replay the choices and compare the replayed rolls and result with the log."""
    if not data.get("seed"):
        return False, "cannot replay: the seed is not revealed (the match is not over)"
    try:
        match = replay_from_log(data)
    except KeyError as exc:
        return False, f"cannot replay: {exc.args[0] if exc.args else exc}"
    except EngineError as exc:
        return False, f"the logged decisions do not replay: {exc.reason.en}"
    except ValidationError:
        return False, "cannot replay: the log's seats or decisions are malformed"
    try:
        logged = [e for e in map(event_from_json, data["events"]) if isinstance(e, RollEvent)]
    except ValidationError:
        return False, "the log's events are malformed"
    replayed = rolls_of(match.events)
    for i, (a, b) in enumerate(zip(logged, replayed, strict=False)):
        if _canonical(a.model_dump(mode="json")) != _canonical(b.model_dump(mode="json")):
            return (
                False,
                f"roll #{i + 1} differs from the replay: logged {a.text.en!r}, replayed {b.text.en!r}",
            )
    if len(logged) != len(replayed):
        return False, f"the log has {len(logged)} rolls but the replay makes {len(replayed)}"
    replayed_out = match.outcome()
    logged_out = data.get("outcome")
    if _canonical(replayed_out.model_dump(mode="json") if replayed_out else None) != _canonical(
        logged_out
    ):
        return False, "the replayed result differs from the logged result"
    return (
        True,
        f"{len(match.choices)} decisions replay to the same {len(replayed)} rolls and result",
    )


def verify_file(path: Path) -> int:
    data = read_log(path)
    print(f"Match log: {path} ({data['game']}, {data.get('mode')})")
    text = path.read_text(encoding="utf-8")
    return _report(
        [
            ("Dice", check_dice(data)),
            ("Replay", check_replay(data)),
            ("Text", check_text(text, data)),
        ]
    )


def check_text(text: str, data: dict[str, Any]) -> tuple[bool, str]:
    """The readable lines of a Markdown log against its data block (``check_readable``).

    The dice and the replay read the data block, but players read the lines: a
    roll changed there must not pass. The title is checked when this
    installation knows the game.
    """
    try:
        heading: str | None = title(get_game(data["game"]).info, data.get("mode"), "en")
        if "## Journal" in text:
            heading = title(get_game(data["game"]).info, data.get("mode"), "fr")
    except (KeyError, ValueError):
        heading = None
    return check_readable(text, data, heading)


def check_dice(data: dict[str, Any]) -> tuple[bool, str]:
    """``verify_log``, with a malformed roll reported instead of raised."""
    try:
        return verify_log(data)
    except (ValidationError, KeyError, TypeError, ValueError):
        return False, "the log's rolls are malformed"


StoreOpener = Callable[[str], Awaitable[Any]]


async def _open_store(path: str) -> Any:
    try:
        from bot.store import Store
    except ImportError as exc:
        raise CliError(f"The match store could not be loaded ({exc}).") from None
    return await Store.open(path)


async def verify_stored(db: Path | str, match_id: int, opener: StoreOpener | None = None) -> int:
    """Replay a stored match's decision log and check it against its stored state.

    ``db``: a SQLite file or a ``postgresql://`` URL. A match pruned after
    ``ARENA_PRUNE_DAYS`` is named as such (its log file is what remains to verify).
    """
    url = str(db).startswith(("postgresql://", "postgres://"))
    if not url and not Path(db).is_file():
        raise CliError(f"No database file at {db}.")
    where = "the database" if url else str(db)
    store = await (opener or _open_store)(str(db))
    try:
        record = await store.get(match_id)
        if record is None:
            pruned = await store.pruned(match_id) if hasattr(store, "pruned") else None
            if pruned is not None:
                raise CliError(_pruned_message(match_id, pruned))
            raise CliError(f"There is no match {match_id} in {where}.")
        print(f"Stored match {match_id}: {record.game} ({record.mode}), status {record.status}")
        if record.status != "finished" or not record.seed:
            print("NOT VERIFIED: the match is not finished, so its seed is still secret.")
            return MISMATCH
        try:
            match = await store.replay_match(match_id)
        except EngineError as exc:
            return _report(
                [("Replay", (False, f"the stored decisions do not replay: {exc.reason.en}"))]
            )
        except KeyError as exc:  # e.g. a game this installation does not have
            return _report(
                [("Replay", (False, f"cannot replay: {exc.args[0] if exc.args else exc}"))]
            )
        from bot.store.store import snapshot_agrees

        data = log_json(match)
        checks = [("Dice", verify_log(data))]
        if match.seed != record.seed:
            checks.append(
                ("Replay", (False, "the replay used a different seed than the stored one"))
            )
        elif record.snapshot is None:
            checks.append(("Replay", (False, "the match has no stored snapshot")))
        elif int(record.snapshot.get("format", 1)) >= SNAPSHOT_FORMAT:
            same = _canonical(match.snapshot()) == _canonical(record.snapshot)
            checks.append(
                (
                    "Replay",
                    (
                        True,
                        f"{len(match.choices)} decisions replay to the stored snapshot exactly",
                    )
                    if same
                    else (False, "the replayed state differs from the stored snapshot"),
                )
            )
        else:
            ok, why = snapshot_agrees(match.snapshot(), record.snapshot)
            checks.append(("Replay", (ok, f"{len(match.choices)} decisions replay: {why}")))
        return _report(checks)
    finally:
        await store.close()


def _day(ts: float | None) -> str:
    if ts is None:
        return "an unknown date"
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d")


def _pruned_message(match_id: int, pruned: Any) -> str:
    return (
        f"Match {match_id} ({pruned.game}, {pruned.status} on {_day(pruned.finished_at)}) was "
        f"pruned from the database on {_day(pruned.pruned_at)}: finished matches are deleted "
        "after ARENA_PRUNE_DAYS days, once their log file was posted in the channel.\n"
        "Verify that log file instead: python -m bot verify LOGFILE"
    )


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _report(checks: list[tuple[str, tuple[bool, str]]]) -> int:
    for name, (ok, message) in checks:
        print(f"{name}: {'OK' if ok else 'MISMATCH'}: {message}")
    if all(ok for _, (ok, _) in checks):
        print("VERIFIED: every roll and decision matches.")
        return OK
    print("NOT VERIFIED: see the mismatch above.")
    return MISMATCH


def verify_command(logfile: str | None, db: str | None, match_id: int | None) -> int:
    if logfile and (db or match_id is not None):
        raise CliError("Give either a log file or --db PATH --match ID, not both.")
    if logfile:
        return verify_file(Path(logfile))
    if db and match_id is not None:
        target = db if db.startswith(("postgresql://", "postgres://")) else Path(db)
        return asyncio.run(verify_stored(target, match_id))
    raise CliError(
        "Usage: python -m bot verify LOGFILE  or  python -m bot verify --db PATH --match ID"
    )
