"""The task-queue entry points (django-tasks): what a worker process runs.

Web processes only enqueue (``computed.services.job_request``); ``manage.py tables_worker``
(django-tasks-db's ``db_worker`` plus the re-queue of dead workers' jobs) runs these.
"""

from __future__ import annotations

from django_tasks import task

QUEUE = "tables"


@task(queue_name=QUEUE)
def compute_job(job_id: int, ticket: str) -> None:
    """Compute the tables (and any extra work of its kind) of one ``ChartJob``."""
    from computed import services  # services enqueues this task: import at run time

    services.job_run(job_id=job_id, ticket=ticket)
