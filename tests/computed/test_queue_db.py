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
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
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
