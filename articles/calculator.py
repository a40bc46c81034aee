"""The house-edge calculator: the exact edge of the reader's rules, and how each option moved
it away from the house rules.  Reads stored edges only; :func:`calculator_start` (a POST) is the
one place that asks for new ones to be computed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from articles import figures
from articles.forms import CalculatorForm

# Option labels come from the form, so the calculator and its explanation name them alike.


@dataclass(frozen=True)
class Effect:
    field: str  # the form field
    label: str
    edge: float | None  # the edge with this one change from the house rules, if stored

    def delta(self, base: float) -> float | None:
        return None if self.edge is None else self.edge - base


@dataclass(frozen=True)
class Answer:
    rules: Any
    edge: figures.EdgeAnswer | None
    base: figures.EdgeAnswer | None
    effects: list[Effect]
    progress: figures.EdgeProgress | None  # while something is being computed
    is_house: bool

    @property
    def ready(self) -> bool:
        return self.edge is not None and all(e.edge is not None for e in self.effects)

    @property
    def total_delta(self) -> float | None:
        if self.edge is None or self.base is None:
            return None
        return self.edge.basic - self.base.basic

    @property
    def interaction(self) -> float | None:
        """What the options do together beyond the sum of their single effects."""
        total = self.total_delta
        if total is None or self.base is None or any(e.edge is None for e in self.effects):
            return None
        return total - sum(e.delta(self.base.basic) or 0.0 for e in self.effects)


def _needed(form: CalculatorForm) -> tuple[Any, list[tuple[str, str, Any]]]:
    options = form.options()
    rules = figures.rules_from_options(options)
    house = figures.HOUSE
    singles = []
    for name, field in CalculatorForm.OPTIONS.items():
        one = figures.rules_from_options({field: options[field]})
        if one != house:
            singles.append((name, str(form.fields[name].label), one))
    assert rules == house or singles
    return rules, singles


def calculator_answer(form: CalculatorForm) -> Answer:
    """What the calculator shows for a valid form; computes nothing."""
    rules, singles = _needed(form)
    edge = figures.edge_get(rules)
    base = figures.edge_get(figures.HOUSE)
    effects = (
        []
        if len(singles) < 2
        else [Effect(name, label, _basic(figures.edge_get(one))) for name, label, one in singles]
    )
    if len(singles) == 1:
        effects = [Effect(singles[0][0], singles[0][1], _basic(edge))]
    # While the chosen rules' edge is missing, the progress is that of its own job (the
    # reader's answer, computed first); then that of the options' own effects.
    pending = [r for r in _rule_sets(rules, singles) if figures.edge_get(r) is None]
    if edge is None:
        pending = [rules]
    progress = None
    states = [figures.edge_progress(r) for r in pending]
    if any(s is not None for s in states):
        # The mean over the rule sets still missing (stored ones would make a new set look
        # half done from the start).
        parts = sum(s.percent for s in states if s is not None)
        progress = figures.EdgeProgress(
            round(parts / len(pending)), any(s is not None and s.failed for s in states)
        )
    return Answer(rules, edge, base, effects, progress, rules == figures.HOUSE)


def _basic(answer: figures.EdgeAnswer | None) -> float | None:
    return None if answer is None else answer.basic


def _rule_sets(rules: Any, singles: list[tuple[str, str, Any]]) -> list[Any]:
    sets = [rules, figures.HOUSE]
    if len(singles) > 1:
        sets += [one for _n, _l, one in singles]
    return list(dict.fromkeys(sets))


def calculator_start(
    form: CalculatorForm, *, user_key: str | None = None, address: str | None = None
) -> None:
    """Ask the task queue for every edge the answer needs that is not stored.  Raises
    ``computed.services.Busy`` (having asked for none) when too many jobs wait already, and
    ``computed.services.RateLimited`` (after asking for those it could) when the requester
    asked for too much new work."""
    rules, singles = _needed(form)
    figures.edge_jobs_start(_rule_sets(rules, singles), user_key=user_key, address=address)


def house_form() -> CalculatorForm:
    form = CalculatorForm(CalculatorForm.house_initial())
    form.is_valid()
    return form


__all__ = ["Answer", "Effect", "calculator_answer", "calculator_start", "house_form", "replace"]
