"""The decision record and the learner's weak spots: one owner for every app.

``Decision`` is the one record of every choice a learner makes, in a drill or at the table: the
situation, the rules, the choice, the best move, the chart's move and the EV of every option.
Statistics and the teachers' dashboards read only this table, through
:mod:`decisions.selectors`; play mode and the trainer write it through :mod:`decisions.services`.

The rows were the trainer's: the tables keep their names (``trainer_decision``,
``trainer_weakspot``) so that moving the models lost no row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from blackjack import Move

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
        # A blackjack against an ace: the same two answers (INSURE takes even money), but a
        # different question, so the record says which (issue 16, defect 6).
        EVEN_MONEY = "even_money", _("Even money")
        # Counting drills (issue 31): a number typed, not a move; no chart cell, no Move.
        RUNNING_COUNT = "running", _("Running count")
        TRUE_COUNT = "true_count", _("True count")

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

    # Empty ("") for a counting answer (a number, see ``answer``), which has no move.
    choice = models.CharField(max_length=10, choices=MOVE_CHOICES, blank=True)
    best = models.CharField(max_length=10, choices=MOVE_CHOICES, blank=True)
    chart_move = models.CharField(max_length=10, choices=MOVE_CHOICES, blank=True)
    ev = models.JSONField()  # {move: EV per unit of the initial bet}, legal options only
    ev_lost = models.FloatField()  # ev[best] - ev[choice], >= 0
    correct = models.BooleanField()
    time_taken_ms = models.PositiveIntegerField(null=True, blank=True)
    # The opaque tag of the drill this was answered in, e.g. "assignment:42" (a class
    # assignment); null (not "") for a free drill or the table, so that the partial index
    # below leaves those rows out.  See trainer/context.py.
    context = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001

    # Counting (issue 31).  ``count_system`` is a blackjack.counting system key ("hilo", ...)
    # for every decision made with a count (a counting drill, an index decision, a move at a
    # count-mode table), "" otherwise.  ``running_count`` / ``true_count`` / ``cards_left``:
    # the count the learner was shown or had to find (a counting drill) or played at (an
    # index decision or a table move: ``true_count``).  ``answer`` / ``right_answer``: the
    # number the learner typed and the right one, for the running-count and true-count
    # categories only (their ``choice``, ``best`` and chart cell are empty).
    count_system = models.CharField(max_length=8, blank=True, default="")
    running_count = models.SmallIntegerField(null=True, blank=True)
    true_count = models.SmallIntegerField(null=True, blank=True)
    cards_left = models.PositiveSmallIntegerField(null=True, blank=True)
    answer = models.IntegerField(null=True, blank=True)
    right_answer = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        db_table = "trainer_decision"
        indexes = [
            # A learner's decisions over time; covering (PostgreSQL), so that the class
            # dashboard sums its students' accuracy and EV lost from the index alone (the
            # category: a counting drill's answer is not a move, issue 31).
            models.Index(
                fields=["user", "created_at"],
                include=["correct", "ev_lost", "source", "category"],
                name="decision_user_time_idx",
            ),
            # Assignment progress: the answers of one context, per user, in a date range;
            # partial, so that the many decisions without a context cost it nothing.
            models.Index(
                fields=["context", "user", "created_at"],
                condition=models.Q(context__isnull=False),
                name="decision_context_idx",
            ),
            # Counting accuracy and speed per learner (the class dashboard, the stats page):
            # partial and covering, so the many decisions without a count cost it nothing.
            models.Index(
                fields=["user", "created_at"],
                include=["correct", "time_taken_ms", "category"],
                condition=~models.Q(count_system=""),
                name="decision_count_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.choice} ({self.best}) {self.source}"


# Answers to an offer made before the hand is played: they have no chart cell of their own.
OFFER_CATEGORIES: tuple[str, ...] = (Decision.Category.INSURANCE, Decision.Category.EVEN_MONEY)
# Answers that are a number (a count), not a move: no chart cell, no Move, no EV.
COUNT_CATEGORIES: tuple[str, ...] = (Decision.Category.RUNNING_COUNT, Decision.Category.TRUE_COUNT)
# Every category without a chart cell: left out of the heat map and the weak spots.
CELLESS_CATEGORIES: tuple[str, ...] = OFFER_CATEGORIES + COUNT_CATEGORIES
# The decisions made without a count: the basic-strategy record the heat maps, the weak spots
# and the costliest cells read.  A move made at a count (an index drill, judged by the EVs at
# that count; a count-mode table, where the coach plays the index) says nothing of the
# chart's cell (issue 31).
WITHOUT_COUNT = models.Q(count_system="")


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
        db_table = "trainer_weakspot"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "chart_kind", "chart_row", "dealer_points"], name="weak_spot_cell"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.chart_kind} {self.chart_row} v {self.dealer_points}"
