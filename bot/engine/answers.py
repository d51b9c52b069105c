"""Checking a whole answer against its decision, before any game code runs.

Every refusal carries a bilingual reason a player can read; the state is never
touched here, so a refused answer changes nothing (:mod:`bot.engine.match`
also applies accepted answers to a private copy).
"""

from __future__ import annotations

from bot.engine.decisions import Allocation, Answer, Choice, Decision, Many, One, Option, Order
from bot.engine.errors import IllegalDecision
from bot.engine.text import Text, plural

NOT_ALLOWED = Text(fr="Ce choix n'est pas permis maintenant.", en="That option is not allowed now.")


def _refuse(fr: str, en: str) -> IllegalDecision:
    return IllegalDecision(Text(fr=fr, en=en))


def check_answer(decision: Decision, choice: Choice) -> Answer:
    """The :class:`Answer` for ``choice``, or :class:`IllegalDecision` with the reason."""
    ask = decision.ask
    if isinstance(ask, One):
        if choice.options is not None or choice.amounts is not None or choice.option is None:
            raise _refuse("Choisissez une seule option.", "Please choose exactly one option.")
        opt = decision.option(choice.option)
        if opt is None:
            raise IllegalDecision(NOT_ALLOWED)
        return Answer(choice, decision, [opt], {})
    if isinstance(ask, Allocation):
        return _check_allocation(decision, ask, choice)
    if choice.option is not None or choice.amounts is not None or choice.options is None:
        raise _refuse(
            "Cette réponse ne convient pas à cette question.",
            "That answer does not fit this question.",
        )
    chosen = _distinct_options(decision, choice.options)
    if isinstance(ask, Many):
        n = len(chosen)
        hi = len(decision.options) if ask.max is None else ask.max
        if n < ask.min:
            raise _refuse(
                f"Choisissez au moins {plural(ask.min, 'option', 'options', 'fr')}.",
                f"Please choose at least {plural(ask.min, 'option', 'options', 'en')}.",
            )
        if n > hi:
            raise _refuse(
                f"Choisissez au plus {plural(hi, 'option', 'options', 'fr')}.",
                f"Please choose at most {plural(hi, 'option', 'options', 'en')}.",
            )
        return Answer(choice, decision, chosen, {})
    assert isinstance(ask, Order)
    if len(chosen) != len(decision.options):
        missing = len(decision.options) - len(chosen)
        raise _refuse(
            f"Placez toutes les options dans l'ordre : il en manque {missing}.",
            f"Please put every option in order: {missing} still missing.",
        )
    return Answer(choice, decision, chosen, {})


def _distinct_options(decision: Decision, ids: list[str]) -> list[Option]:
    out: list[Option] = []
    seen: set[str] = set()
    for oid in ids:
        if oid in seen:
            raise _refuse(
                "Chaque option ne peut être choisie qu'une fois.",
                "Each option can be chosen only once.",
            )
        seen.add(oid)
        opt = decision.option(oid)
        if opt is None:
            raise IllegalDecision(NOT_ALLOWED)
        out.append(opt)
    return out


def _check_allocation(decision: Decision, ask: Allocation, choice: Choice) -> Answer:
    if choice.option is not None or choice.options is not None or choice.amounts is None:
        raise _refuse(
            "Cette réponse ne convient pas à cette question.",
            "That answer does not fit this question.",
        )
    amounts: dict[str, int] = {q.id: 0 for q in ask.quantities}
    for qid, value in choice.amounts.items():
        q = ask.quantity(qid)
        if q is None:
            raise IllegalDecision(NOT_ALLOWED)
        if type(value) is not int:
            raise _refuse("Les quantités sont des nombres entiers.", "Amounts are whole numbers.")
        amounts[qid] = value
    for q in ask.quantities:
        v = amounts[q.id]
        if v < q.min or v > q.max:
            raise _refuse(
                f"{q.label.fr} : entre {q.min} et {q.max}, pas {v}.",
                f"{q.label.en}: between {q.min} and {q.max}, not {v}.",
            )
    for total in ask.totals:
        ids = total.of or [q.id for q in ask.quantities]
        s = sum(amounts[i] for i in ids)
        what_fr = total.label.fr if total.label else "Le total"
        what_en = total.label.en if total.label else "The total"
        if (
            total.min is not None
            and total.max is not None
            and total.min == total.max
            and s != total.min
        ):
            raise _refuse(
                f"{what_fr} doit faire exactement {total.min} (vous en êtes à {s}).",
                f"{what_en} must be exactly {total.min} (you have {s}).",
            )
        if total.min is not None and s < total.min:
            raise _refuse(
                f"{what_fr} doit faire au moins {total.min} (vous en êtes à {s}).",
                f"{what_en} must be at least {total.min} (you have {s}).",
            )
        if total.max is not None and s > total.max:
            raise _refuse(
                f"{what_fr} doit faire au plus {total.max} (vous en êtes à {s}).",
                f"{what_en} must be at most {total.max} (you have {s}).",
            )
    return Answer(choice, decision, [], amounts)


def allocation_ok(ask: Allocation, amounts: dict[str, int]) -> bool:
    """Whether these amounts would be accepted (for a draft's Confirm button)."""
    decision = Decision(key="", seat=0, kind="", prompt=Text(fr="", en=""), ask=ask)
    try:
        _check_allocation(decision, ask, Choice(seat=0, key="", amounts=amounts))
    except IllegalDecision:
        return False
    return True
