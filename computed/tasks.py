"""The task-queue entry points (django-tasks): what a worker process runs.

Web processes only enqueue (``computed.services.job_request``); ``manage.py tables_worker``
(django-tasks-db's ``db_worker`` plus the re-queue of dead workers' jobs) runs these.
"""

from __future__ import annotations

from django_tasks import task

QUEUE = "tables"


@task(queue_name=QUEUE)
def compute_job(job_id: int, ticket: str) -> str:
    """Compute the tables (and any extra work of its kind) of one ``ChartJob``.

    The task's result is the job's: it fails (``JobFailed``) when the job failed, and
    otherwise returns what became of the job ("done", "taken over", "not queued").
    """
    from computed import services  # services enqueues this task: import at run time

    return services.job_run(job_id=job_id, ticket=ticket)
