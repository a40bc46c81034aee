"""The heavy mathematics computed once per rule set, and the progress of computing it.

The rows were the trainer's (``trainer_computedtable``, ``trainer_chartjob``); the tables keep
their names so that moving the models lost no row.
"""

from __future__ import annotations

from django.db import models


class ComputedTable(models.Model):
    """Heavy mathematics computed once per rule set and shared by every app server: the
    analyses of every two-card hand, the chart derived from them, the "chart or exact" list."""

    key = models.CharField(max_length=64, unique=True)
    data = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "trainer_computedtable"

    def __str__(self) -> str:
        return self.key


class ChartJob(models.Model):
    """Progress of computing a rule set's tables, polled by the chart page.

    The work itself runs in a django-tasks worker; this row is what the pages show and what
    the re-queue of a dead worker's job compares and sets (``ticket`` names the one task run
    allowed to write progress; ``updated_at`` is its heartbeat)."""

    class Status(models.TextChoices):
        WAITING = "waiting"  # in line: more jobs than the bound are pending
        QUEUED = "queued"  # handed to the task queue
        RUNNING = "running"
        FAILED = "failed"
        DONE = "done"

    class Kind(models.TextChoices):
        TABLES = "tables"  # the chart and the two-card analyses
        EDGE = "edge"  # those, then the house edge (the articles' calculator)
        INDICES = "indices"  # those, then the index plays of every count system
        # those, the Hi-Lo index plays, then the counting simulation (the articles' work)
        COUNT = "count"

    rules_key = models.CharField(max_length=16, unique=True)
    rules = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TABLES)
    ticket = models.CharField(max_length=32, blank=True)
    # Which of the ``MAX_PENDING`` places in the queue a queued or running job holds: unique,
    # and held exactly by those jobs (the constraints below), so the bound on jobs handed to
    # the queue holds however many processes promote at once, on PostgreSQL and SQLite.
    slot = models.PositiveSmallIntegerField(null=True, blank=True, unique=True)
    # Which of the ``MAX_WAITING`` places in line a waiting job holds, alike: unique, and held
    # exactly by the waiting jobs, so the line is bounded however many requests add to it.
    line = models.PositiveSmallIntegerField(null=True, blank=True, unique=True)
    task_id = models.CharField(max_length=64, blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=1)
    finished = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "trainer_chartjob"
        indexes = [models.Index(fields=["status", "queued_at"], name="chartjob_status_queued")]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(status__in=["queued", "running"], slot__isnull=False)
                    | (~models.Q(status__in=["queued", "running"]) & models.Q(slot__isnull=True))
                ),
                name="chartjob_slot_iff_active",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="waiting", line__isnull=False)
                    | (~models.Q(status="waiting") & models.Q(line__isnull=True))
                ),
                name="chartjob_line_iff_waiting",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rules_key}: {self.done}/{self.total}"

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.done / max(1, self.total)))
