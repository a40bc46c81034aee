"""The task-queue entry points (django-tasks): what a worker process runs.

Web processes only enqueue (``computed.services.job_request``); ``manage.py tables_worker``
(django-tasks-db's ``db_worker`` plus the re-queue of dead workers' jobs) runs these.  The task
is defined in :mod:`computed.services`, beside the jobs it runs and enqueues, so that the two
modules import each other one way only; a task stored under this module's name (before that
move) still finds it here.
"""

from __future__ import annotations

from computed.services import QUEUE, compute_job

__all__ = ["QUEUE", "compute_job"]
