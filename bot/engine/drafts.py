"""Drafts: a structured answer built step by step, committed once on Confirm.

A player answering a :class:`Many`, :class:`Order` or :class:`Allocation`
decision adds parts one click at a time, can go Back, and sees a live summary;
only :meth:`Draft.choice` (on Confirm) becomes a logged decision. A draft is a
plain value: the front end keeps it (it is never in the match log), and
:meth:`Draft.valid_for` tells whether it still fits the decision pending now.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.engine.answers import check_answer
from bot.engine.decisions import Allocation, Choice, Decision, Many, One, Order
from bot.engine.errors import IllegalDecision
from bot.engine.text import Text


class DraftStep(BaseModel):
    """One click: toggle/append an option, or set a quantity to an amount."""

    op: Literal["option", "amount"]
    ref: str
    amount: int = 0


class Draft(BaseModel):
    """The parts of an answer chosen so far for one decision."""

    key: str
    seat: int
    steps: list[DraftStep] = Field(default_factory=list)

    # --- building ------------------------------------------------------------------
    def toggle(self, decision: Decision, option_id: str) -> Draft:
        """Add an option (Many: or take it out again; Order: next in the order)."""
        if decision.option(option_id) is None:
            raise IllegalDecision(
                Text(
                    fr="Ce choix n'est pas permis maintenant.", en="That option is not allowed now."
                )
            )
        chosen = self.options()
        if isinstance(decision.ask, Order) and option_id in chosen:
            raise IllegalDecision(
                Text(fr="Cette option est déjà placée.", en="That option is already placed.")
            )
        if isinstance(decision.ask, Many) and option_id not in chosen:
            hi = len(decision.options) if decision.ask.max is None else decision.ask.max
            if len(chosen) >= hi:
                raise IllegalDecision(
                    Text(
                        fr=f"Vous avez déjà choisi le maximum ({hi}).",
                        en=f"You have already chosen the maximum ({hi}).",
                    )
                )
        return self.model_copy(
            update={"steps": [*self.steps, DraftStep(op="option", ref=option_id)]}
        )

    def set_amount(self, decision: Decision, quantity: str, amount: int) -> Draft:
        """Set one quantity of an allocation, within that quantity's bounds."""
        ask = decision.ask
        q = ask.quantity(quantity) if isinstance(ask, Allocation) else None
        if q is None:
            raise IllegalDecision(
                Text(
                    fr="Ce choix n'est pas permis maintenant.", en="That option is not allowed now."
                )
            )
        if not q.min <= amount <= q.max:
            raise IllegalDecision(
                Text(
                    fr=f"{q.label.fr} : entre {q.min} et {q.max}.",
                    en=f"{q.label.en}: between {q.min} and {q.max}.",
                )
            )
        step = DraftStep(op="amount", ref=quantity, amount=amount)
        return self.model_copy(update={"steps": [*self.steps, step]})

    def back(self) -> Draft:
        """Undo the last click (nothing to undo: the same draft)."""
        return self.model_copy(update={"steps": self.steps[:-1]})

    # --- reading -------------------------------------------------------------------
    def options(self) -> list[str]:
        """Chosen options in order (a toggled-twice option of a Many is out again)."""
        out: list[str] = []
        for s in self.steps:
            if s.op != "option":
                continue
            if s.ref in out:
                out.remove(s.ref)
            else:
                out.append(s.ref)
        return out

    def amounts(self, decision: Decision) -> dict[str, int]:
        ask = decision.ask
        out = {q.id: q.min for q in ask.quantities} if isinstance(ask, Allocation) else {}
        for s in self.steps:
            if s.op == "amount":
                out[s.ref] = s.amount
        return out

    def choice(self, decision: Decision) -> Choice:
        """The answer to commit on Confirm (checked by the match when applied)."""
        if isinstance(decision.ask, Allocation):
            return Choice(seat=self.seat, key=self.key, amounts=self.amounts(decision))
        if isinstance(decision.ask, One):
            chosen = self.options()
            return Choice(seat=self.seat, key=self.key, option=chosen[-1] if chosen else None)
        return Choice(seat=self.seat, key=self.key, options=self.options())

    def problem(self, decision: Decision) -> Text | None:
        """Why Confirm would be refused now (None: it would be accepted)."""
        try:
            check_answer(decision, self.choice(decision))
        except IllegalDecision as exc:
            return exc.reason
        return None

    def valid_for(self, decision: Decision) -> bool:
        """Whether every part still names something the decision offers (after a restart),
        each amount within its quantity's bounds now."""
        if decision.key != self.key or decision.seat != self.seat:
            return False
        ask = decision.ask
        for s in self.steps:
            if s.op == "option" and decision.option(s.ref) is None:
                return False
            if s.op == "amount":
                q = ask.quantity(s.ref) if isinstance(ask, Allocation) else None
                if q is None or not q.min <= s.amount <= q.max:
                    return False
        return True

    def summary(self, decision: Decision) -> Text:
        """What is chosen so far, in both languages, for the live prompt."""
        ask = decision.ask
        if isinstance(ask, Allocation):
            amounts = self.amounts(decision)
            fr = ", ".join(f"{q.label.fr} {amounts[q.id]}" for q in ask.quantities)
            en = ", ".join(f"{q.label.en} {amounts[q.id]}" for q in ask.quantities)
            return Text(fr=fr, en=en)
        labels = [o.label for oid in self.options() if (o := decision.option(oid)) is not None]
        if not labels:
            return Text(fr="rien pour l'instant", en="nothing yet")
        if isinstance(ask, Order):
            return Text(
                fr=" → ".join(f"{i}. {lbl.fr}" for i, lbl in enumerate(labels, 1)),
                en=" → ".join(f"{i}. {lbl.en}" for i, lbl in enumerate(labels, 1)),
            )
        return Text(fr=", ".join(lbl.fr for lbl in labels), en=", ".join(lbl.en for lbl in labels))
