"""The real path once: django-tasks-db stores the task with our row, and a worker process's
loop (``manage.py tables_worker --batch``, here in this process) claims and runs it."""

import json

import pytest
from django.core.management import call_command
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from blackjack import PRESETS
from computed import services
from computed.models import ChartJob
from computed.tables import chart_key
from tests.computed.docs import docs_for

DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["tables"]}}


def _fake_compute(rules, progress, store):
    docs = docs_for(rules)
    store.put(chart_key(rules), json.dumps(docs["chart"]).encode())
    progress(7, 10)
    return docs["data"]


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_a_request_waits_for_a_worker_which_then_computes_it(monkeypatch):
    rules = PRESETS["european"]
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = services.job_request(rules=rules, user_key="db-path", address="db-path")
    assert job is not None and job.status == ChartJob.Status.QUEUED  # nothing ran here
    task = DBTaskResult.objects.get()
    assert str(task.id) == job.task_id and task.queue_name == "tables"
    assert task.status == "READY"
    call_command("tables_worker", batch=True, startup_delay=False, verbosity=0)
    job.refresh_from_db()
    assert job.status == ChartJob.Status.DONE and job.percent == 70
    task = DBTaskResult.objects.get()
    assert task.status == "SUCCESSFUL" and task.return_value == "done"
    assert services.tables_stored(rules)


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_a_worker_starting_requeues_a_dead_workers_job(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    rules = PRESETS["european"]
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = services.job_request(rules=rules, user_key="db-dead", address="db-dead")
    # The first worker claimed it, began, and was SIGKILLed: both rows stay "running".
    DBTaskResult.objects.update(status="RUNNING")
    ChartJob.objects.filter(pk=job.pk).update(
        status=ChartJob.Status.RUNNING, updated_at=timezone.now() - timedelta(minutes=5)
    )
    call_command("tables_worker", batch=True, startup_delay=False, verbosity=0)
    job.refresh_from_db()
    assert job.status == ChartJob.Status.DONE
    assert sorted(DBTaskResult.objects.values_list("status", flat=True)) == [
        "FAILED",
        "SUCCESSFUL",
    ]


def _work(rules, monkeypatch, tag):
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    return services.job_request(rules=rules, user_key=tag, address=tag)


def _worker():
    call_command("tables_worker", batch=True, startup_delay=False, verbosity=0)


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_a_failed_job_is_a_failed_task(monkeypatch):
    # Issue 15's known limit (a): the task row said "successful" when our job failed.
    rules = PRESETS["european"]
    job = _work(rules, monkeypatch, "db-fail")

    def boom(r, progress, store):
        raise ValueError("card not in the shoe")

    monkeypatch.setattr(services, "compute_tables", boom)
    _worker()
    job.refresh_from_db()
    task = DBTaskResult.objects.get()
    assert job.status == ChartJob.Status.FAILED and job.slot is None
    assert task.status == "FAILED" and task.exception_class_path.endswith("JobFailed")
    assert "card not in the shoe" in task.traceback


def _age(job, minutes=5):
    from datetime import timedelta

    from django.utils import timezone

    ChartJob.objects.filter(pk=job.pk).update(
        updated_at=timezone.now() - timedelta(minutes=minutes)
    )


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_a_queued_job_whose_task_row_was_lost_is_requeued(monkeypatch):
    # Issue 15's known limit (c): a queued job whose task is gone waited for ever.
    rules = PRESETS["european"]
    job = _work(rules, monkeypatch, "db-lost")
    DBTaskResult.objects.all().delete()  # pruned, or lost with a restored database
    _age(job)
    _worker()  # a worker starting looks for such jobs first
    job.refresh_from_db()
    assert job.status == ChartJob.Status.DONE and services.tables_stored(rules)
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_a_queued_job_whose_task_was_claimed_long_ago_by_a_dead_worker_is_requeued(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    rules = PRESETS["european"]
    job = _work(rules, monkeypatch, "db-claimed")
    # A worker claimed the task and died before the job's first heartbeat.
    DBTaskResult.objects.update(status="RUNNING", started_at=timezone.now() - timedelta(minutes=5))
    _age(job)
    assert services.jobs_requeue_stale() == 1
    _worker()
    job.refresh_from_db()
    assert job.status == ChartJob.Status.DONE
    assert sorted(DBTaskResult.objects.values_list("status", flat=True)) == [
        "FAILED",
        "SUCCESSFUL",
    ]


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_a_queued_job_waiting_for_a_busy_worker_is_left_alone(monkeypatch):
    rules = PRESETS["european"]
    job = _work(rules, monkeypatch, "db-busy")
    _age(job, minutes=30)  # long in line, but its task is ready and will run
    assert services.jobs_requeue_stale() == 0
    assert DBTaskResult.objects.get().status == "READY"


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DB_TASKS)
def test_the_worker_waits_for_a_database_that_went_away(monkeypatch):
    # bench/faults.py: a PostgreSQL restart ended db_worker's loop and with it the worker.
    from django.db import OperationalError
    from django_tasks_db.management.commands.db_worker import Command as DbWorker

    from computed.management.commands import tables_worker

    calls = []

    def flaky(self, *args, **options):
        calls.append(options["queue_name"])
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(DbWorker, "handle", flaky)
    monkeypatch.setattr(tables_worker, "RETRY_EVERY", 0.0)
    _worker()
    assert calls == ["tables", "tables"]
