"""Reads of the trainer app: a learner's drill situations.  Statistics are the decisions app's
(:mod:`decisions.selectors`), the tables the computed app's (:mod:`computed.selectors`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from accounts.models import User
from trainer.models import CountQuestion, Situation


def situation_open(*, user: User) -> Situation | None:
    """The learner's latest unanswered situation, if any."""
    return Situation.objects.filter(user=user, decision__isnull=True).first()


def situation_of(*, user: User, pk: int) -> Situation | None:
    """A situation of this learner's; ``None`` for anyone else's or none."""
    return Situation.objects.filter(pk=pk, user=user).first()


def count_open(*, user: User) -> CountQuestion | None:
    """The learner's latest unanswered counting question, if any."""
    return CountQuestion.objects.filter(user=user, decision__isnull=True).first()


def count_of(*, user: User, pk: int) -> CountQuestion | None:
    """A counting question of this learner's (with its decision); ``None`` for anyone
    else's or none."""
    return CountQuestion.objects.filter(pk=pk, user=user).select_related("decision").first()


# --- the user's own data download (privacy) ----------------------------------------------

EXPORT_CHUNK = 2000


def situations_export(*, user: User) -> Iterator[dict[str, Any]]:
    """Every drill question dealt to the user, oldest first, streamed.

    An answered one says which decision answered it; an open one (at most the one on the
    drill page) leaves out its EVs, chart move and bust chance: those are its answer.
    """
    rows = (
        Situation.objects.filter(user=user)
        .order_by("dealt_at", "id")
        .values(
            "id",
            "dealt_at",
            "focus",
            "kind",
            "context",
            "rules",
            "rules_key",
            "hand",
            "dealer_up",
            "ev",
            "chart_move",
            "dealer_bust",
            "count_system",
            "true_count",
            "index_play",
            "decision_id",
        )
    )
    for found in rows.iterator(chunk_size=EXPORT_CHUNK):
        row: dict[str, Any] = dict(found)
        row["decision"] = row.pop("decision_id")
        if row["decision"] is None:
            for answer in ("ev", "chart_move", "dealer_bust", "index_play"):
                row.pop(answer)
        yield row


def count_questions_export(*, user: User) -> Iterator[dict[str, Any]]:
    """Every counting question dealt to the user, oldest first, streamed; an open one (at
    most the one on the drill page) leaves out its right answer."""
    rows = (
        CountQuestion.objects.filter(user=user)
        .order_by("dealt_at", "id")
        .values(
            "id", "dealt_at", "kind", "system", "context", "rules", "rules_key", "cards",
            "pace_ms", "per_step", "running_count", "cards_left", "right_answer", "decision_id",
        )
    )  # fmt: skip
    for found in rows.iterator(chunk_size=EXPORT_CHUNK):
        row: dict[str, Any] = dict(found)
        row["decision"] = row.pop("decision_id")
        if row["decision"] is None:
            row.pop("right_answer")
            if row["kind"] == CountQuestion.Kind.RUNNING:
                row.pop("running_count")  # the running count is that question's answer
        yield row
