"""``manage.py tables_worker``: a django-tasks-db worker for the tables queue that also queues
again the jobs of workers that died (the framework leaves their tasks "running" for ever).

Run as many as you like, on any machines sharing the database: each claims tasks with a row
lock, and the re-queue is a compare-and-set, so a job is never taken over twice.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.db import InterfaceError, OperationalError, connection
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

from computed.services import jobs_promote, jobs_requeue_stale
from computed.tables import engine_warm
from computed.tasks import QUEUE

logger = logging.getLogger(__name__)
CHECK_EVERY = 60.0  # seconds between looks for stale jobs (STALE_JOB is two minutes)
RETRY_EVERY = 2.0  # seconds between attempts to reach a database that went away


def _watch(stop: threading.Event) -> None:
    # A thread of the worker process (never of a web process): the task loop may be inside
    # a minute-long computation while a dead colleague's job waits.
    while not stop.wait(CHECK_EVERY):
        try:
            jobs_requeue_stale()
            jobs_promote()
        except Exception:
            logger.exception("the look for stale jobs failed")
        finally:
            connection.close()


# Seconds between looks for a task when the queue is empty (the framework's default is 1 s):
# the calculator's reader waits for the worker to take the job, so look more often; one
# indexed query per look.
POLL_EVERY = 0.2


class Command(DbWorkerCommand):
    help = "Run the tables queue's tasks, re-queueing jobs whose worker died."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.set_defaults(interval=POLL_EVERY)

    def handle(self, *args: Any, **options: Any) -> None:
        if not options.get("queue_name") or options["queue_name"] == "default":
            options["queue_name"] = QUEUE
        if not options.get("batch"):
            engine_warm()  # about 1.5 s: the first calculator answers come sooner
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(stop,), daemon=True)
        try:
            while True:
                # The database may go away (a restart, a fail-over): db_worker's loop then
                # raises and would end the process; wait for it and go on instead. A task
                # running at that moment fails with the database; its job goes stale and is
                # re-queued.
                try:
                    requeued = jobs_requeue_stale()
                    jobs_promote()
                    connection.close()
                    if requeued:
                        self.stdout.write(f"re-queued {requeued} job(s) of stopped workers")
                    if not watcher.is_alive():
                        watcher.start()
                    super().handle(*args, **options)
                    return
                except (OperationalError, InterfaceError) as exc:
                    logger.warning("the database is away (%s); trying again", exc)
                    connection.close()
                    time.sleep(RETRY_EVERY)
        finally:
            stop.set()
