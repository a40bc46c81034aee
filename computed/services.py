"""Writes of the computed tables: storing a rule set's tables, and the jobs computing them."""

from __future__ import annotations

import json
import logging
import threading
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from blackjack import Rules
from computed.models import ChartJob, ComputedTable
from computed.store import DatabaseTableStore
from computed.tables import chart_key, compute_tables, drill_key

logger = logging.getLogger(__name__)


# Tests switch this off and run the job in the test's own thread.
RUN_JOBS_IN_THREADS = True
# A job whose row has not moved for this long is taken to have died with its process.
STALE_JOB = timedelta(minutes=2)


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
    """Compute and store a rule set's tables, reporting progress on its ``ChartJob``."""
    key = rules.key()

    def progress(done: int, total: int) -> None:
        ChartJob.objects.filter(rules_key=key).update(
            done=done, total=total, updated_at=timezone.now()
        )

    try:
        data = compute_tables(rules, progress, store=DatabaseTableStore())
        tables_store(rules=rules, data=data)
        ChartJob.objects.filter(rules_key=key).update(finished=True, updated_at=timezone.now())
    except Exception as exc:  # shown on the progress page; the next visit retries
        ChartJob.objects.filter(rules_key=key).update(error=repr(exc)[:500])
        raise


def _run_in_thread(rules: Rules) -> None:
    try:
        chart_job_run(rules=rules)
    except Exception:
        logger.exception("computing the tables of %s failed", rules.key())
    finally:
        connection.close()


def chart_job_ensure(rules: Rules) -> ChartJob | None:
    """Start computing the tables of ``rules`` unless they are stored or being computed.

    Returns the job to show progress for, ``None`` when the tables are ready.  Only the
    process that creates (or takes over a stale) job row starts the work, so several app
    servers never compute the same tables twice.
    """
    if tables_stored(rules):
        return None
    now = timezone.now()
    job, created = ChartJob.objects.get_or_create(
        rules_key=rules.key(), defaults={"rules": rules.to_dict()}
    )
    start = created
    if not created and (job.error or (not job.finished and job.updated_at < now - STALE_JOB)):
        # Take the job over only if nobody else did since we read it.
        start = bool(
            ChartJob.objects.filter(pk=job.pk, updated_at=job.updated_at).update(
                done=0, error="", finished=False, updated_at=now
            )
        )
        job.refresh_from_db()
    if start:
        if RUN_JOBS_IN_THREADS:
            transaction.on_commit(
                lambda: threading.Thread(target=_run_in_thread, args=(rules,), daemon=True).start()
            )
        else:
            chart_job_run(rules=rules)
            job.refresh_from_db()
    return job
