"""Writes of the computed tables: storing a rule set's tables, and the jobs computing them."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from blackjack import Rules
from computed import limits
from computed.models import ChartJob, ComputedTable
from computed.store import DatabaseTableStore
from computed.tables import chart_key, compute_tables, drill_key

logger = logging.getLogger(__name__)

# A running job whose heartbeat (``updated_at``) has not moved for this long is taken to have
# died with its worker and is queued again.
STALE_JOB = timedelta(minutes=2)
# Jobs handed to the queue at once (queued or running); more wait in line, in order.
MAX_PENDING = 4
ACTIVE = (ChartJob.Status.QUEUED, ChartJob.Status.RUNNING)
PENDING = (ChartJob.Status.WAITING, *ACTIVE)

# Work a job kind does before the tables (the product its requester waits for, e.g. the house
# edge: the tables follow, for the trainer), given the job's progress report, and whether it
# is stored: the articles app registers the house edge here (it sits above this app, so it
# hands its work down, not the reverse).
KIND_WORK: dict[str, Callable[[Rules, Callable[[int, int], None]], None]] = {}
KIND_STORED: dict[str, Callable[[Rules], bool]] = {}


class RateLimited(Exception):
    """The requester asked for too many new rule sets lately."""


class JobTakenOver(Exception):
    """This run's ticket is no longer the job's: it was re-queued as dead; stop quietly."""


def tables_store(
    *, rules: Rules, data: dict[str, Any], chart: dict[str, Any] | None = None
) -> None:
    """Store a rule set's drill document (and its chart, when given)."""
    store = DatabaseTableStore()
    if chart is not None:
        store.put(chart_key(rules), json.dumps(chart).encode())
    store.put(drill_key(rules), json.dumps(data).encode())


def tables_stored(rules: Rules) -> bool:
    return ComputedTable.objects.filter(key__in=[drill_key(rules), chart_key(rules)]).count() == 2


def chart_job_run(*, rules: Rules) -> None:
    """Compute and store a rule set's tables here and now (the bootstraps and
    ``manage.py trainer_tables``, never a web request), reporting on its ``ChartJob`` if any."""
    key = rules.key()

    def progress(done: int, total: int) -> None:
        ChartJob.objects.filter(rules_key=key).update(
            done=done, total=total, updated_at=timezone.now()
        )

    try:
        data = compute_tables(rules, progress, store=DatabaseTableStore())
        tables_store(rules=rules, data=data)
        ChartJob.objects.filter(rules_key=key).update(
            status=ChartJob.Status.DONE, finished=True, updated_at=timezone.now()
        )
    except Exception as exc:
        ChartJob.objects.filter(rules_key=key).update(
            status=ChartJob.Status.FAILED, error=repr(exc)[:500]
        )
        raise


def chart_job_ensure(rules: Rules) -> ChartJob | None:
    """The job of ``rules`` to show, ``None`` when the tables are stored.

    Starts nothing (issue 15, finding 1: a GET never starts work); work is asked for by
    ``job_request`` from a POST. Kept for the callers that only wanted to know.
    """
    if tables_stored(rules):
        return None
    return ChartJob.objects.filter(rules_key=rules.key()).first()


def _stored(rules: Rules, kind: str) -> bool:
    # A kind with its own product (the house edge) is done when that is stored: the tables
    # were only the way to it.
    extra = KIND_STORED.get(kind)
    return extra(rules) if extra is not None else tables_stored(rules)


def job_request(
    *,
    rules: Rules,
    kind: str = ChartJob.Kind.TABLES,
    user_key: str | None,
    address: str | None,
) -> ChartJob | None:
    """Ask for the tables of ``rules`` (and the work of ``kind``) to be computed by a worker.

    ``None`` when they are stored already. Joining a job already pending is free; new work
    (a new row, or a failed or incomplete one started again) counts against the requester's
    limits (``RateLimited``). Beyond ``MAX_PENDING`` jobs the new one waits in line.
    """
    if _stored(rules, kind):
        return None
    key = rules.key()
    job = ChartJob.objects.filter(rules_key=key).first()
    if job is not None and job.status in PENDING:
        if kind != job.kind and kind != ChartJob.Kind.TABLES:
            # The worker reads the kind again once the tables are done.
            ChartJob.objects.filter(pk=job.pk).update(kind=kind)
            job.kind = kind
        return job
    if not limits.job_allowed(user_key=user_key, address=address):
        raise RateLimited
    now = timezone.now()
    fresh = {
        "status": ChartJob.Status.WAITING,
        "kind": kind,
        "queued_at": now,
        "ticket": secrets.token_hex(16),
        "task_id": "",
        "done": 0,
        "total": 1,
        "finished": False,
        "error": "",
    }
    if job is None:
        try:
            with transaction.atomic():
                job = ChartJob.objects.create(rules_key=key, rules=rules.to_dict(), **fresh)
        except IntegrityError:  # another request created it first: join that one
            return ChartJob.objects.get(rules_key=key)
    else:
        # Start a failed (or finished but incomplete) job again, unless someone just did.
        ChartJob.objects.filter(pk=job.pk, ticket=job.ticket, status=job.status).update(
            updated_at=now, **fresh
        )
    jobs_promote()
    return ChartJob.objects.get(rules_key=key)


def job_place(job: ChartJob) -> int | None:
    """The waiting job's place in line (1 = next), ``None`` when it is not waiting."""
    if job.status != ChartJob.Status.WAITING or job.queued_at is None:
        return None
    ahead = ChartJob.objects.filter(status=ChartJob.Status.WAITING, queued_at__lt=job.queued_at)
    return ahead.count() + 1


def _enqueue(job: ChartJob) -> None:
    from computed.tasks import compute_job

    result = compute_job.enqueue(job.pk, job.ticket)
    ChartJob.objects.filter(pk=job.pk, ticket=job.ticket).update(task_id=str(result.id)[:64])


def jobs_promote() -> None:
    """Hand waiting jobs to the queue, oldest first, while fewer than ``MAX_PENDING`` are.

    Each promotion is a compare-and-set on the row (status and ticket), so two callers never
    enqueue one job twice; two racing callers may together exceed the bound by one.
    """
    while ChartJob.objects.filter(status__in=ACTIVE).count() < MAX_PENDING:
        nxt = (
            ChartJob.objects.filter(status=ChartJob.Status.WAITING)
            .order_by("queued_at", "pk")
            .first()
        )
        if nxt is None:
            return
        moved = ChartJob.objects.filter(
            pk=nxt.pk, status=ChartJob.Status.WAITING, ticket=nxt.ticket
        ).update(status=ChartJob.Status.QUEUED, updated_at=timezone.now())
        if moved:
            nxt.status = ChartJob.Status.QUEUED
            _enqueue(nxt)


def jobs_requeue_stale() -> int:
    """Queue again every running job whose worker died (heartbeat older than ``STALE_JOB``).

    The framework leaves a killed worker's task "running" for ever; this is the compare-and-set
    on our row (same status, ticket and heartbeat as read) that lets exactly one caller take
    each job over; the new ticket stops the old run should it wake up. Returns how many.
    """
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    count = 0
    stale = ChartJob.objects.filter(status=ChartJob.Status.RUNNING, updated_at__lt=now - STALE_JOB)
    for job in stale:
        ticket = secrets.token_hex(16)
        taken = ChartJob.objects.filter(
            pk=job.pk, status=job.status, ticket=job.ticket, updated_at=job.updated_at
        ).update(status=ChartJob.Status.QUEUED, ticket=ticket, done=0, updated_at=now)
        if not taken:
            continue
        if job.task_id:
            DBTaskResult.objects.filter(id=job.task_id, status="RUNNING").update(
                status="FAILED", finished_at=now
            )
        logger.warning("re-queued the tables job of %s: its worker stopped", job.rules_key)
        job.ticket = ticket
        _enqueue(job)
        count += 1
    return count


def job_run(*, job_id: int, ticket: str) -> None:
    """Run one job in a worker: the tables, then its kind's extra work; progress and the
    heartbeat on the row, as long as ``ticket`` is still the job's."""
    mine = ChartJob.objects.filter(pk=job_id, ticket=ticket)
    if not mine.filter(status=ChartJob.Status.QUEUED).update(
        status=ChartJob.Status.RUNNING, updated_at=timezone.now()
    ):
        return  # taken over, or done by another run
    job = ChartJob.objects.get(pk=job_id)
    rules = Rules.from_dict(job.rules)

    def progress(done: int, total: int) -> None:
        if not mine.update(done=done, total=total, updated_at=timezone.now()):
            raise JobTakenOver

    def kind_work() -> Callable[[Rules, Callable[[int, int], None]], None] | None:
        kind = ChartJob.objects.filter(pk=job_id).values_list("kind", flat=True).first()
        return KIND_WORK.get(kind or "")

    try:
        work = kind_work()
        if work is not None:
            work(rules, progress)
        if not tables_stored(rules):
            data = compute_tables(rules, progress, store=DatabaseTableStore())
            tables_store(rules=rules, data=data)
        later = kind_work() if work is None else None  # the kind changed meanwhile
        if later is not None:
            if not mine.update(updated_at=timezone.now()):
                raise JobTakenOver
            later(rules, progress)
        mine.update(status=ChartJob.Status.DONE, finished=True, updated_at=timezone.now())
    except JobTakenOver:
        logger.info("the tables job of %s was taken over", job.rules_key)
    except Exception as exc:  # shown on the page as failed, with a retry button
        logger.exception("computing the tables of %s failed", job.rules_key)
        mine.update(status=ChartJob.Status.FAILED, error=repr(exc)[:500])
    finally:
        jobs_promote()
