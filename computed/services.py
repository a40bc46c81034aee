"""Writes of the computed tables: storing a rule set's tables, and the jobs computing them."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tasks import task

from blackjack import Rules
from computed import limits
from computed.models import ChartJob, ComputedTable
from computed.store import DatabaseTableStore
from computed.tables import chart_key, compute_tables, drill_key

logger = logging.getLogger(__name__)

# A running job whose heartbeat (``updated_at``) has not moved for this long is taken to have
# died with its worker and is queued again; so is a queued job untouched as long whose task
# is gone (``jobs_requeue_stale``).
STALE_JOB = timedelta(minutes=2)
# Jobs handed to the queue at once (queued or running), exactly: each holds one of this many
# unique places (``ChartJob.slot``); more wait in line, in order.
MAX_PENDING = 4
# Jobs waiting in line behind those, at most, exactly: each holds one of this many unique places
# in line (``ChartJob.line``); beyond them a request is refused as busy (``Busy``) and starts
# nothing. A new rule set's edge takes a worker about 1.5 s on a quiet machine and up to 6 s
# under load (README, "Measured"), so with one worker the last of 4 + 16 has its answer within
# half a minute to two: longer, and the reader is better told to come back. It is above what
# one address may ask for in a window (``limits.JOB_LIMITS``: 10), so one requester alone
# cannot make the service busy for the others.
MAX_WAITING = 16
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


class Busy(Exception):
    """Every place in line is taken: nothing was asked for; the page says to come back."""


BUSY = _(
    "Too many computations are waiting just now, so nothing was started. "
    "Please try again in a few minutes."
)
# The busy answer's Retry-After: about the time the line takes to move on by a few jobs.
BUSY_RETRY_SECONDS = 60


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
            status=ChartJob.Status.DONE,
            slot=None,
            line=None,
            finished=True,
            updated_at=timezone.now(),
        )
    except Exception as exc:
        ChartJob.objects.filter(rules_key=key).update(
            status=ChartJob.Status.FAILED, slot=None, line=None, error=repr(exc)[:500]
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

    ``None`` when they are stored already; else its job (see ``jobs_request``).
    """
    if jobs_request(rule_sets=[rules], kind=kind, user_key=user_key, address=address):
        return None
    return ChartJob.objects.filter(rules_key=rules.key()).first()


def jobs_request(
    *,
    rule_sets: Sequence[Rules],
    kind: str = ChartJob.Kind.TABLES,
    user_key: str | None,
    address: str | None,
) -> list[Rules]:
    """Ask for the tables of every rule set (and the work of ``kind``) to be computed by a
    worker; returns the rule sets stored already.

    A rule set stored already, or whose job is pending, is never queued again (the job of a
    rule set is one row, ``rules_key`` being unique; joining a pending job is free). The rest
    is new work (a new row, or a failed or incomplete one started again): ``Busy``, and
    nothing asked for, when the line has fewer free places than that; else each counts
    against the requester's limits (``RateLimited``, after asking for those it could, in
    order) and takes a place in line. Beyond ``MAX_PENDING`` jobs the new ones wait there.
    """
    stored: list[Rules] = []
    new: list[tuple[Rules, ChartJob | None]] = []
    for rules in dict.fromkeys(rule_sets):
        # The row first, then the product: a job stores its product before it is done, so a
        # job read as done or failed with nothing stored is truly new work.
        job = ChartJob.objects.filter(rules_key=rules.key()).first()
        if job is not None and job.status in PENDING:
            _kind_add(job, kind)
        elif _stored(rules, kind):
            stored.append(rules)
        else:
            new.append((rules, job))
    if not new:
        return stored
    if len(_free_lines()) < len(new):
        raise Busy
    try:
        for rules, job in new:
            if not limits.job_allowed(user_key=user_key, address=address):
                raise RateLimited
            _line_up(rules=rules, kind=kind, job=job)
    finally:
        jobs_promote()
    return stored


def _kind_add(job: ChartJob, kind: str) -> None:
    if kind != job.kind and kind != ChartJob.Kind.TABLES:
        # The worker reads the kind again once the tables are done.
        ChartJob.objects.filter(pk=job.pk).update(kind=kind)


def _free_lines() -> list[int]:
    held = set(ChartJob.objects.filter(line__isnull=False).values_list("line", flat=True))
    if len(held) >= MAX_WAITING:  # places beyond the bound, held since before it existed
        return []
    return [place for place in range(MAX_WAITING) if place not in held]


def _line_up(*, rules: Rules, kind: str, job: ChartJob | None) -> bool:
    """Put ``rules``'s job in line, in a free place: a new row (``job`` is ``None``) or ``job``
    (failed, or done without ``kind``'s product) started again. ``False`` when another
    request did it first (its job is then the one to join); ``Busy`` when no place is free.

    The place is unique in the database, so two requests taking the same one cannot both
    succeed: the loser tries the next free one. The restart is also a compare-and-set on
    status and ticket, so a job started again by someone else is left to them.
    """
    key = rules.key()
    for place in _free_lines():
        now = timezone.now()
        fresh = {
            "status": ChartJob.Status.WAITING,
            "line": place,
            "kind": kind,
            "queued_at": now,
            "ticket": secrets.token_hex(16),
            "task_id": "",
            "done": 0,
            "total": 1,
            "finished": False,
            "error": "",
            "slot": None,
        }
        try:
            with transaction.atomic():
                if job is None:
                    ChartJob.objects.create(rules_key=key, rules=rules.to_dict(), **fresh)
                    return True
                return bool(
                    ChartJob.objects.filter(pk=job.pk, ticket=job.ticket, status=job.status).update(
                        updated_at=now, **fresh
                    )
                )
        except IntegrityError:
            if job is None and ChartJob.objects.filter(rules_key=key).exists():
                return False  # another request created it first: join that one
            continue  # another request took this place first
    raise Busy


def job_place(job: ChartJob) -> int | None:
    """The waiting job's place in line (1 = next), ``None`` when it is not waiting."""
    if job.status != ChartJob.Status.WAITING or job.queued_at is None:
        return None
    ahead = ChartJob.objects.filter(status=ChartJob.Status.WAITING, queued_at__lt=job.queued_at)
    return ahead.count() + 1


def _enqueue(job: ChartJob) -> None:
    result = compute_job.enqueue(job.pk, job.ticket)
    ChartJob.objects.filter(pk=job.pk, ticket=job.ticket).update(task_id=str(result.id)[:64])


def _free_slots() -> list[int]:
    held = set(ChartJob.objects.filter(slot__isnull=False).values_list("slot", flat=True))
    return [slot for slot in range(MAX_PENDING) if slot not in held]


def _promote(job: ChartJob) -> bool:
    """Move one waiting job into a free place in the queue: ``True`` when this caller did.

    The place (``slot``) is unique in the database, so two callers taking the same place
    cannot both succeed: the loser tries the next free one, and none left means the queue
    is full. The move is also a compare-and-set on status and ticket, so a job promoted by
    someone else is left to them.
    """
    for slot in _free_slots():
        try:
            with transaction.atomic():
                moved = ChartJob.objects.filter(
                    pk=job.pk, status=ChartJob.Status.WAITING, ticket=job.ticket
                ).update(
                    status=ChartJob.Status.QUEUED, slot=slot, line=None, updated_at=timezone.now()
                )
        except IntegrityError:  # another caller took this place first
            continue
        return bool(moved)
    return False


def jobs_promote() -> None:
    """Hand waiting jobs to the queue, oldest first, while a place is free.

    At most ``MAX_PENDING`` jobs are queued or running at any time, exactly: each holds one
    of that many unique places (see ``_promote``), on every database.
    """
    while _free_slots():
        nxt = (
            ChartJob.objects.filter(status=ChartJob.Status.WAITING)
            .order_by("queued_at", "pk")
            .first()
        )
        if nxt is None:
            return
        if _promote(nxt):
            nxt.status = ChartJob.Status.QUEUED
            _enqueue(nxt)


def _task_alive(task_id: str, *, since: datetime) -> bool | None:
    """Whether the queue still holds a live task of that id: ready to run, or claimed since
    ``since``. ``None`` when the task backend keeps no rows to look at (not the database's)."""
    from django_tasks_db.backend import DatabaseBackend
    from django_tasks_db.models import DBTaskResult

    if not isinstance(compute_job.get_backend(), DatabaseBackend):
        return None
    if not task_id:
        return False
    live = Q(status="READY") | Q(status="RUNNING", started_at__gte=since)
    return DBTaskResult.objects.filter(live, id=task_id).exists()


def _job_lost(job: ChartJob, *, since: datetime) -> bool:
    # A queued job is lost when its task will never run it: no task was stored (the process
    # promoting it died before enqueueing), the task row is gone (pruned, restored from an
    # older backup), it finished without starting the job, or a worker claimed it long ago
    # and died before the job's first heartbeat.
    alive = _task_alive(job.task_id, since=since)
    return not alive if alive is not None else not job.task_id


def jobs_requeue_stale() -> int:
    """Queue again every job whose worker died or whose task was lost. Returns how many.

    A running job whose heartbeat (``updated_at``) is older than ``STALE_JOB`` died with its
    worker (the framework leaves such a task "running" for ever). A queued job untouched as
    long whose task is gone or stale (``_job_lost``) would otherwise wait for ever. Taking a
    job over is a compare-and-set on our row (same status, ticket and heartbeat as read), so
    exactly one caller takes each; the new ticket stops the old run should it wake up.
    """
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    since = now - STALE_JOB
    count = 0
    old = ChartJob.objects.filter(status__in=ACTIVE, updated_at__lt=since)
    for job in old:
        if job.status == ChartJob.Status.QUEUED and not _job_lost(job, since=since):
            continue  # waiting for a busy worker: its task is still in the queue
        ticket = secrets.token_hex(16)
        taken = ChartJob.objects.filter(
            pk=job.pk, status=job.status, ticket=job.ticket, updated_at=job.updated_at
        ).update(status=ChartJob.Status.QUEUED, ticket=ticket, done=0, updated_at=now)
        if not taken:
            continue
        if job.task_id:
            DBTaskResult.objects.filter(id=job.task_id, status__in=["READY", "RUNNING"]).update(
                status="FAILED", finished_at=now
            )
        logger.warning("re-queued the tables job of %s (%s)", job.rules_key, job.status)
        job.ticket = ticket
        _enqueue(job)
        count += 1
    return count


class JobFailed(Exception):
    """Raised out of the task when our job failed, so that the task's result says so too."""


def job_run(*, job_id: int, ticket: str) -> str:
    """Run one job in a worker: the tables, then its kind's extra work; progress and the
    heartbeat on the row, as long as ``ticket`` is still the job's.

    Returns what became of it (``"done"``, ``"taken over"``, ``"not queued"``: the task
    succeeded) or raises ``JobFailed`` after marking the job failed (the task failed).
    """
    mine = ChartJob.objects.filter(pk=job_id, ticket=ticket)
    if not mine.filter(status=ChartJob.Status.QUEUED).update(
        status=ChartJob.Status.RUNNING, updated_at=timezone.now()
    ):
        return "not queued"  # taken over, or done by another run
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
        if not mine.update(
            status=ChartJob.Status.DONE, slot=None, finished=True, updated_at=timezone.now()
        ):
            raise JobTakenOver
        return "done"
    except JobTakenOver:
        logger.info("the tables job of %s was taken over", job.rules_key)
        return "taken over"
    except Exception as exc:  # shown on the page as failed, with a retry button
        logger.exception("computing the tables of %s failed", job.rules_key)
        mine.update(status=ChartJob.Status.FAILED, slot=None, error=repr(exc)[:500])
        raise JobFailed(f"the tables job of {job.rules_key} failed: {exc!r}"[:500]) from exc
    finally:
        jobs_promote()


# The task itself, beside the jobs it runs and enqueues, so that this module needs no other
# (``computed.tasks`` is the worker's entry point, and imports it from here).
QUEUE = "tables"


@task(queue_name=QUEUE)
def compute_job(job_id: int, ticket: str) -> str:
    """Compute the tables (and any extra work of its kind) of one ``ChartJob``.

    The task's result is the job's: it fails (``JobFailed``) when the job failed, and
    otherwise returns what became of the job ("done", "taken over", "not queued").
    """
    return job_run(job_id=job_id, ticket=ticket)
