"""The trainer's records.

``Decision`` is the one record of every choice a learner makes, in a drill or at the table: the
situation, the rules, the choice, the best move, the chart's move and the EV of every option.
Statistics and the teachers' dashboards read only this table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from blackjack.moves import Move

MOVE_CHOICES = [(m.value, m.value) for m in Move]


class Decision(models.Model):
    class Source(models.TextChoices):
        DRILL = "drill", _("Drill")
        TABLE = "table", _("Table")

    class Category(models.TextChoices):
        HARD = "hard", _("Hard totals")
        SOFT = "soft", _("Soft totals")
        PAIR = "pair", _("Pairs")
        INSURANCE = "insurance", _("Insurance")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decisions"
    )
    source = models.CharField(max_length=8, choices=Source.choices)
    # Where the decision came from, e.g. "round:41" or "situation:7"; free text so that the
    # trainer does not depend on the game app's tables.
    source_ref = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    rules = models.JSONField()  # blackjack.rules.Rules.to_dict()
    rules_key = models.CharField(max_length=16, db_index=True)  # Rules.key()
    hand = models.JSONField()  # card codes, e.g. ["8s", "8d"]
    dealer_up = models.CharField(max_length=4)  # card code, e.g. "10h"
    removed = models.JSONField(default=list, blank=True)  # other cards seen, codes

    category = models.CharField(max_length=10, choices=Category.choices)
    # The chart cell the situation falls in: kind "hard" / "soft" / "pair", the row value (total,
    # or the pair card's points) and the dealer's up card in points (1 = ace).
    chart_kind = models.CharField(max_length=4)
    chart_row = models.PositiveSmallIntegerField()
    dealer_points = models.PositiveSmallIntegerField()

    choice = models.CharField(max_length=10, choices=MOVE_CHOICES)
    best = models.CharField(max_length=10, choices=MOVE_CHOICES)
    chart_move = models.CharField(max_length=10, choices=MOVE_CHOICES)
    ev = models.JSONField()  # {move: EV per unit of the initial bet}, legal options only
    ev_lost = models.FloatField()  # ev[best] - ev[choice], >= 0
    correct = models.BooleanField()
    time_taken_ms = models.PositiveIntegerField(null=True, blank=True)
    # The opaque tag of the drill this was answered in, e.g. "assignment:42" (a class
    # assignment); null (not "") for a free drill or the table, so that the partial index
    # below leaves those rows out.  See trainer/context.py.
    context = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "created_at"]),
            # Assignment progress: the answers of one context, per user, in a date range;
            # partial, so that the many decisions without a context cost it nothing.
            models.Index(
                fields=["context", "user", "created_at"],
                condition=models.Q(context__isnull=False),
                name="decision_context_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.choice} ({self.best}) {self.source}"


class Situation(models.Model):
    """A dealt drill question, kept server-side so that the answer cannot forge the cards.

    It belongs to one user and is answered once: ``decision`` is set by the answer.  The exact
    analysis is stored at deal time, so the answer costs no mathematics.
    """

    class Kind(models.TextChoices):
        PLAY = "play", _("Play")
        INSURANCE = "insurance", _("Insurance")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="situations"
    )
    rules = models.JSONField()  # Rules.to_dict()
    rules_key = models.CharField(max_length=16)
    hand = models.JSONField()  # card codes, e.g. ["8s", "8d"]
    dealer_up = models.CharField(max_length=4)
    focus = models.CharField(max_length=12)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAY)
    # {move: EV per unit of the initial bet} of every legal option, and the chart's move.
    ev = models.JSONField()
    chart_move = models.CharField(max_length=10, choices=MOVE_CHOICES)
    # The dealer's bust chance for these cards (after the peek where there is one), for the
    # "why" line; null for an insurance question.
    dealer_bust = models.FloatField(null=True, blank=True)
    dealt_at = models.DateTimeField(auto_now_add=True)
    # Copied to the decision; null like Decision.context.
    context = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    decision = models.OneToOneField(
        Decision, null=True, blank=True, on_delete=models.SET_NULL, related_name="situation"
    )

    class Meta:
        ordering = ["-dealt_at", "-id"]
        indexes = [models.Index(fields=["user", "dealt_at"])]

    def __str__(self) -> str:
        return f"{self.user_id}: {' '.join(self.hand)} v {self.dealer_up}"


class ComputedTable(models.Model):
    """Heavy mathematics computed once per rule set and shared by every app server: the
    analyses of every two-card hand, the chart derived from them, the "chart or exact" list."""

    key = models.CharField(max_length=64, unique=True)
    data = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key


class ChartJob(models.Model):
    """Progress of computing a rule set's tables, polled by the chart page."""

    rules_key = models.CharField(max_length=16, unique=True)
    rules = models.JSONField()
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=1)
    finished = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.rules_key}: {self.done}/{self.total}"

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.done / max(1, self.total)))


class WeakSpot(models.Model):
    """A chart cell the learner has missed, in a Leitner box: a miss puts it back in box 1,
    a right answer moves it up one box and pushes its next review further away."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="weak_spots"
    )
    chart_kind = models.CharField(max_length=4)
    chart_row = models.PositiveSmallIntegerField()
    dealer_points = models.PositiveSmallIntegerField()
    box = models.PositiveSmallIntegerField(default=1)
    misses = models.PositiveIntegerField(default=0)
    due_at = models.DateTimeField()
    # A concrete hand of the cell that was missed, so that a review shows the learner's case.
    example = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "chart_kind", "chart_row", "dealer_points"], name="weak_spot_cell"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.chart_kind} {self.chart_row} v {self.dealer_points}"
