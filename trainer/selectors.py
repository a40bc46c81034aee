"""Reads of the trainer app: a learner's drill situations.  Statistics are the decisions app's
(:mod:`decisions.selectors`), the tables the computed app's (:mod:`computed.selectors`)."""

from __future__ import annotations

from accounts.models import User
from trainer.models import Situation


def situation_open(*, user: User) -> Situation | None:
    """The learner's latest unanswered situation, if any."""
    return Situation.objects.filter(user=user, decision__isnull=True).first()


def situation_of(*, user: User, pk: int) -> Situation | None:
    """A situation of this learner's; ``None`` for anyone else's or none."""
    return Situation.objects.filter(pk=pk, user=user).first()
