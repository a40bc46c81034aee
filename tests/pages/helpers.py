"""Decisions made in bulk for the pages that read a learner's history."""

from __future__ import annotations

from datetime import timedelta
from random import Random

from django.utils import timezone

from accounts.models import User
from blackjack import PRESETS
from decisions.models import Decision

CELLS = [("hard", r) for r in range(5, 20)] + [("soft", r) for r in range(13, 21)]
CELLS += [("pair", r) for r in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]


def decisions_for(
    user: User, n: int, rng: Random, *, days: int = 90, context: str | None = None
) -> None:
    """``n`` decisions over the last ``days`` days, four in five right (``context``: an
    assignment's tag).  Also bench/pages.py's, for its learners of up to 50,000 decisions."""
    thoth = PRESETS["thoth"]
    now = timezone.now()
    field = Decision._meta.get_field("created_at")
    # created_at is set on insert (auto_now_add): off while these rows are spread over the days.
    field.auto_now_add = False  # type: ignore[attr-defined]
    try:
        rows = []
        for _ in range(n):
            kind, row = rng.choice(CELLS)
            correct = rng.random() < 0.8
            lost = 0.0 if correct else rng.random() * 0.6
            rows.append(
                Decision(
                    user=user, source="drill" if rng.random() < 0.7 else "table",
                    rules=thoth.to_dict(), rules_key=thoth.key(), hand=["10s", "6d"],
                    dealer_up="10h", category={"pair": "pair", "soft": "soft"}.get(kind, "hard"),
                    chart_kind=kind, chart_row=row, dealer_points=rng.randint(1, 10),
                    choice="hit" if correct else "stand", best="hit", chart_move="hit",
                    ev={"hit": -0.4, "stand": -0.4 - lost}, ev_lost=lost, correct=correct,
                    context=context,
                    created_at=now - timedelta(seconds=rng.randint(0, days * 86400)),
                )
            )  # fmt: skip
        Decision.objects.bulk_create(rows, batch_size=5000)
    finally:
        field.auto_now_add = True  # type: ignore[attr-defined]
