import json
from datetime import timedelta

import pytest
from django.utils import timezone

from blackjack import PRESETS
from computed import services
from computed.models import ChartJob, ComputedTable
from computed.services import chart_job_ensure
from computed.tables import chart_key
from tests.computed.docs import docs_for

pytestmark = pytest.mark.django_db


def _fake_compute(rules, progress, store):
    docs = docs_for(rules)
    store.put(chart_key(rules), json.dumps(docs["chart"]).encode())
    progress(5, 10)
    return docs["data"]


def test_chart_job_computes_once_and_reports_progress(monkeypatch):
    rules = PRESETS["sixdeck"]
    calls = []

    def fake(r, progress, store):
        calls.append(r)
        return _fake_compute(r, progress, store)

    monkeypatch.setattr(services, "compute_tables", fake)
    job = chart_job_ensure(rules)
    assert calls == [rules]
    assert job is not None and job.finished and job.done == 5 and job.percent == 50
    assert ComputedTable.objects.count() == 2  # the chart and the drill document
    assert chart_job_ensure(rules) is None  # stored: nothing more to do
    assert calls == [rules]


def test_a_stale_job_is_taken_over(monkeypatch):
    rules = PRESETS["sixdeck"]
    ChartJob.objects.create(rules_key=rules.key(), rules=rules.to_dict(), done=3, total=10)
    ChartJob.objects.update(updated_at=timezone.now() - timedelta(minutes=10))
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = chart_job_ensure(rules)
    assert job is not None and job.finished


def test_a_running_job_is_left_alone(monkeypatch):
    rules = PRESETS["sixdeck"]
    ChartJob.objects.create(rules_key=rules.key(), rules=rules.to_dict(), done=3, total=10)
    monkeypatch.setattr(services, "compute_tables", lambda r, p, store: pytest.fail("twice"))
    job = chart_job_ensure(rules)
    assert job is not None and not job.finished and job.done == 3
