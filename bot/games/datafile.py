"""A game's data file (cards, board data): TOML or JSON, validated by a pydantic model.

Mad Arena, Ultimate Warriorz and Madsteam ship their own file and let a group
load theirs (a path option on the bot's host, or an uploaded file's text kept
in the options so a replay needs nothing else). A bad file is a polite,
bilingual refusal naming its first errors, never a traceback.
"""

from __future__ import annotations

import json
import tomllib
import weakref
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from bot.engine.copying import intern_strings, share_fields_sets
from bot.engine.errors import IllegalDecision
from bot.engine.text import Text

S = TypeVar("S", bound=BaseModel)
M = TypeVar("M", bound=BaseModel)

DATA_MAX = 64 * 1024
"""Largest inline file accepted (bytes of UTF-8); the shipped files fit in a few KiB."""

SHARED_KEPT = 4
"""Shared models kept alive after no state holds them (:meth:`DataFile.shared`)."""


def validation_errors(exc: Exception, limit: int = 5) -> list[str]:
    """The first errors of a bad file, one short line each (``where: what``)."""
    if isinstance(exc, ValidationError):
        out = []
        for err in exc.errors()[:limit]:
            where = ".".join(str(x) for x in err.get("loc", ()))
            msg = str(err.get("msg", "")).removeprefix("Value error, ")
            out.append(f"{where}: {msg}" if where else msg)
        return out
    return [line for line in str(exc).splitlines() if line.strip()][:limit]


class DataFile(Generic[M]):
    """How one game reads its data file: the model, the shipped file and its name.

    ``kind`` names the file in sentences: ``Text(fr="de cartes", en="card")`` gives
    "Fichier de cartes invalide" / "Invalid card file".
    """

    def __init__(
        self,
        model: type[M],
        default: Path,
        kind: Text,
        *,
        inline_name: str = "data",
        limit: int = DATA_MAX,
        limit_host_files: bool = False,
        cache_default: bool = False,
    ) -> None:
        self.model = model
        self.default = default
        self.kind = kind
        self.inline_name = inline_name
        """How an uploaded file's text is named in a refusal (its option id)."""
        self.limit = limit
        self.limit_host_files = limit_host_files
        """Whether a file on the bot's host is held to ``limit`` like an upload."""
        self.cache_default = cache_default
        """Share one parsed default (only for a model nothing mutates)."""
        self._default: M | None = None
        self._in_use: dict[int, tuple[Any, weakref.ref[M]]] = {}
        """Shared models by ``id``: their JSON dump (what a stored state holds) and a weak
        reference (an entry goes when no live match holds its model any more)."""
        self._recent: deque[M] = deque(maxlen=SHARED_KEPT)
        """The last models handed out, kept alive: a process that loads a state and drops
        it (an AI worker) finds the same model at its next load."""

    def _refusal(self, name: str, exc: Exception) -> IllegalDecision:
        detail = "; ".join(validation_errors(exc))[:600]
        return IllegalDecision(
            Text(
                fr=f"Fichier {self.kind.fr} invalide ({name}) : {detail}",
                en=f"Invalid {self.kind.en} file ({name}): {detail}",
            )
        )

    def parse(
        self,
        text: str,
        *,
        json_format: bool | None = None,
        name: str | None = None,
        limit: int | None = None,
    ) -> M:
        """Validate a file's text; ``json_format=None`` guesses (``{`` first: JSON, else TOML)."""
        name = self.inline_name if name is None else name
        limit = self.limit if limit is None else limit
        if limit and len(text.encode("utf-8")) > limit:
            raise IllegalDecision(
                Text(
                    fr=f"Fichier {self.kind.fr} trop gros ({name}) : {limit // 1024} Kio au plus.",
                    en=f"{self.kind.en.capitalize()} file too large ({name}): "
                    f"{limit // 1024} KiB at most.",
                )
            )
        if json_format is None:
            json_format = text.lstrip().startswith("{")
        try:
            data = json.loads(text) if json_format else tomllib.loads(text)
            return self.model.model_validate(data)
        except (ValueError, ValidationError) as exc:
            raise self._refusal(name, exc) from None

    def load(self, path: str | Path | None = None, text: str | None = None) -> M:
        """``text`` (an uploaded file) wins over ``path`` (a file on the host); neither
        means the project's own file."""
        if text:
            return self.parse(text)
        if not path and self.cache_default and self._default is not None:
            return self._default
        p = Path(path) if path else self.default
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise IllegalDecision(
                Text(
                    fr=f"Impossible de lire le fichier {self.kind.fr} {p} : {exc.strerror}.",
                    en=f"Cannot read the {self.kind.en} file {p}: {exc.strerror}.",
                )
            ) from None
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self._refusal(p.name, exc) from None
        limit = self.limit if self.limit_host_files else 0
        parsed = self.parse(
            content, json_format=p.suffix.lower() == ".json", name=p.name, limit=limit
        )
        if not path and self.cache_default:
            self._default = parsed
        return parsed

    def shared(self, value: Any, build: Callable[[Any], M]) -> M:
        """One model object per content, shared by every live match that holds it.

        Why (issue 16 item 5): each match's state holds its whole data file (the
        project's, or a group's upload) so that a snapshot and a replay need nothing
        else; validated once per match it cost tens of kB each. It is still dumped
        with every state; only the objects in memory are shared, so the model must be
        one nothing mutates once validated. ``value`` is what the state is built from
        (stored JSON or a model), ``build`` the validation run when this content is
        not in use yet (a state field's wrap validator passes its handler). A stored
        state's JSON is compared with the dumps of the models in use (equal data, not
        a hash: no encoding, and faster than validating it again).
        """
        if isinstance(value, self.model):
            entry = self._in_use.get(id(value))
            if entry is not None and entry[1]() is value:
                return self._kept(value)
            raw = value.model_dump(mode="json")
        else:
            raw = value
        found = self._in_use_with(raw)
        if found is None:
            model = value if isinstance(value, self.model) else build(value)
            dump = raw if model is value else model.model_dump(mode="json")
            found = self._in_use_with(dump) if dump != raw else None
            if found is None:
                found = model
                key = id(model)

                def forget(ref: weakref.ref[M], key: int = key) -> None:
                    if self._in_use.get(key, (None, None))[1] is ref:
                        del self._in_use[key]

                self._in_use[key] = (dump, weakref.ref(model, forget))
        return self._kept(found)

    def dump_state(self, state: BaseModel, field: str) -> dict[str, Any]:
        """``state``'s JSON, its ``field`` (this file's shared model) being the dump kept
        with that model (dumping the data again cost most of a state's dump): the same
        JSON and key order as ``model_dump``; the kept part is not to be changed."""
        out = state.model_dump(mode="json", exclude={field})
        shared = self.dump_of(getattr(state, field))
        return {k: shared if k == field else out[k] for k in type(state).model_fields}

    def load_state(self, model: type[S], data: dict[str, Any], field: str) -> S:
        """The state of ``data``: its strings and its models' sets of given fields shared
        with every other live match (issue 16 item 5), its ``field`` shared by content
        when the state is validated (the field's validator calls :meth:`shared`)."""
        state = model.model_validate(
            {k: v if k == field else intern_strings(v) for k, v in data.items()}
        )
        share_fields_sets(state)
        return state

    def dump_of(self, model: M) -> Any:
        """``model.model_dump(mode="json")``, the one kept for a shared model (a state's
        dump reuses it instead of dumping its data again at every move): read it, never
        change it."""
        entry = self._in_use.get(id(model))
        if entry is not None and entry[1]() is model:
            return entry[0]
        return model.model_dump(mode="json")

    def _in_use_with(self, dump: Any) -> M | None:
        """The model in use whose dump equals ``dump``, if any."""
        for known, ref in list(self._in_use.values()):
            if known == dump:
                model = ref()
                if model is not None:
                    return model
        return None

    def _kept(self, model: M) -> M:
        """``model``, now first among the recent ones (the least recent one leaves)."""
        if not self._recent or self._recent[0] is not model:
            for i, m in enumerate(self._recent):
                if m is model:
                    del self._recent[i]
                    break
            self._recent.appendleft(model)
        return model
