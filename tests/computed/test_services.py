import json
from dataclasses import replace
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone

from blackjack import PRESETS
from computed import limits, services
from computed.models import ChartJob, ComputedTable
from computed.services import chart_job_ensure, job_request
from computed.tables import chart_key
from tests.computed.docs import docs_for

pytestmark = pytest.mark.django_db
S = ChartJob.Status


def _fake_compute(rules, progress, store):
    docs = docs_for(rules)
    store.put(chart_key(rules), json.dumps(docs["chart"]).encode())
    progress(5, 10)
    return docs["data"]


def _who(tag: str) -> dict:
    # Own rate-limit keys per test: a shared Redis is never flushed.
    return {"user_key": f"u-{tag}-{timezone.now().timestamp()}", "address": f"a-{tag}"}


def test_chart_job_ensure_starts_nothing(monkeypatch):
    rules = PRESETS["sixdeck"]
    monkeypatch.setattr(services, "compute_tables", lambda *a, **k: pytest.fail("computed"))
    assert chart_job_ensure(rules) is None
    assert ChartJob.objects.count() == 0


def test_a_request_computes_once_in_the_queue_and_reports_progress(monkeypatch):
    rules = PRESETS["sixdeck"]
    calls = []

    def fake(r, progress, store):
        calls.append(r)
        return _fake_compute(r, progress, store)

    monkeypatch.setattr(services, "compute_tables", fake)
    job = job_request(rules=rules, **_who("once"))  # the immediate backend runs it at once
    assert calls == [rules]
    assert job is not None and job.status == S.DONE and job.finished and job.percent == 50
    assert job.task_id  # the django-tasks result of the run
    assert ComputedTable.objects.count() == 2  # the chart and the drill document
    assert job_request(rules=rules, **_who("once")) is None  # stored: nothing more to do
    assert calls == [rules]


def test_a_kinds_own_work_runs_before_the_tables(monkeypatch):
    """The house edge (kind "edge") is what its requester waits for: it comes first, with the
    job's progress, and the tables follow."""
    rules = PRESETS["sixdeck"]
    order = []

    def work(r, progress):
        order.append("edge")
        progress(3, 10)

    def tables(r, progress, store):
        order.append("tables")
        return _fake_compute(r, progress, store)

    monkeypatch.setattr(services, "compute_tables", tables)
    monkeypatch.setitem(services.KIND_WORK, ChartJob.Kind.EDGE, work)
    monkeypatch.setitem(services.KIND_STORED, ChartJob.Kind.EDGE, lambda r: False)
    job = job_request(rules=rules, kind=ChartJob.Kind.EDGE, **_who("first"))
    assert order == ["edge", "tables"]
    assert job is not None and job.status == S.DONE


def test_a_failed_job_is_failed_and_a_new_request_retries(monkeypatch):
    rules = PRESETS["sixdeck"]

    def boom(r, progress, store):
        raise ValueError("card not in the shoe")

    monkeypatch.setattr(services, "compute_tables", boom)
    job = job_request(rules=rules, **_who("fail"))
    assert job is not None and job.status == S.FAILED and "card not in the shoe" in job.error
    assert chart_job_ensure(rules).status == S.FAILED  # a read does not restart it
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = job_request(rules=rules, **_who("fail"))
    assert job is not None and job.status == S.DONE and job.error == ""


def test_joining_a_pending_job_is_free_and_new_work_is_rate_limited(monkeypatch):
    monkeypatch.setattr(limits, "JOB_LIMITS", {"user": (2, 600), "address": (100, 600)})
    monkeypatch.setattr(services, "_enqueue", lambda job: None)  # nobody runs them
    who = _who("limit")
    first = job_request(rules=PRESETS["sixdeck"], **who)
    for _ in range(5):
        assert job_request(rules=PRESETS["sixdeck"], **who).pk == first.pk
    job_request(rules=PRESETS["european"], **who)
    with pytest.raises(services.RateLimited):
        job_request(rules=PRESETS["live"], **who)
    # Another user from another address is not held back by this one.
    assert job_request(rules=PRESETS["live"], **_who("other")) is not None


def test_the_address_limit_holds_across_users(monkeypatch):
    monkeypatch.setattr(limits, "JOB_LIMITS", {"user": (100, 600), "address": (1, 600)})
    monkeypatch.setattr(services, "_enqueue", lambda job: None)
    address = f"10.9.8.{timezone.now().microsecond % 250}-{timezone.now().timestamp()}"
    job_request(rules=PRESETS["sixdeck"], user_key="a", address=address)
    with pytest.raises(services.RateLimited):
        job_request(rules=PRESETS["european"], user_key="b", address=address)


def test_beyond_the_bound_jobs_wait_in_line_and_move_up(monkeypatch):
    monkeypatch.setattr(services, "MAX_PENDING", 2)
    enqueued = []
    monkeypatch.setattr(services, "_enqueue", lambda job: enqueued.append(job.rules_key))
    sets = [
        PRESETS["sixdeck"],
        PRESETS["european"],
        PRESETS["live"],
        PRESETS["sixdeck"].__class__.from_dict({**PRESETS["sixdeck"].to_dict(), "decks": 2}),
    ]
    jobs = [job_request(rules=r, **_who(f"line{i}")) for i, r in enumerate(sets)]
    assert [j.status for j in jobs] == [S.QUEUED, S.QUEUED, S.WAITING, S.WAITING]
    assert [services.job_place(j) for j in jobs] == [None, None, 1, 2]
    assert len(enqueued) == 2
    ChartJob.objects.filter(pk=jobs[0].pk).update(status=S.DONE, slot=None)
    services.jobs_promote()
    jobs = [ChartJob.objects.get(pk=j.pk) for j in jobs]
    assert [j.status for j in jobs] == [S.DONE, S.QUEUED, S.QUEUED, S.WAITING]
    assert services.job_place(jobs[3]) == 1
    assert enqueued == [sets[0].key(), sets[1].key(), sets[2].key()]


def test_a_dead_workers_job_is_requeued_once(monkeypatch):
    rules = PRESETS["sixdeck"]
    job = ChartJob.objects.create(
        rules_key=rules.key(),
        rules=rules.to_dict(),
        status=S.RUNNING,
        ticket="old",
        done=3,
        slot=0,
    )
    ChartJob.objects.update(updated_at=timezone.now() - timedelta(minutes=10))
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    assert services.jobs_requeue_stale() == 1
    assert services.jobs_requeue_stale() == 0  # the compare-and-set took it once
    job.refresh_from_db()
    assert job.status == S.DONE and job.ticket != "old"


def test_a_running_job_with_a_fresh_heartbeat_is_left_alone(monkeypatch):
    rules = PRESETS["sixdeck"]
    ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), status=S.RUNNING, ticket="t", done=3, slot=0
    )
    monkeypatch.setattr(services, "compute_tables", lambda *a, **k: pytest.fail("twice"))
    assert services.jobs_requeue_stale() == 0
    assert job_request(rules=rules, **_who("fresh")).status == S.RUNNING


def test_a_run_whose_ticket_was_taken_over_stops_writing(monkeypatch):
    rules = PRESETS["sixdeck"]
    job = ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), status=S.QUEUED, ticket="mine", slot=0
    )

    def taken_over(r, progress, store):
        ChartJob.objects.filter(pk=job.pk).update(ticket="theirs")
        progress(1, 10)
        pytest.fail("went on after being taken over")

    monkeypatch.setattr(services, "compute_tables", taken_over)
    services.job_run(job_id=job.pk, ticket="mine")
    job.refresh_from_db()
    assert job.status == S.RUNNING and job.done == 0 and job.ticket == "theirs"


def test_the_task_fails_when_the_job_fails(monkeypatch):
    # Issue 15's known limit (a): the task row said "successful" for a failed job.
    rules = PRESETS["sixdeck"]

    def boom(r, progress, store):
        raise ValueError("card not in the shoe")

    monkeypatch.setattr(services, "compute_tables", boom)
    job = ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), status=S.QUEUED, ticket="t", slot=0
    )
    with pytest.raises(services.JobFailed, match="card not in the shoe"):
        services.job_run(job_id=job.pk, ticket="t")
    job.refresh_from_db()
    assert job.status == S.FAILED and job.slot is None and "card not in the shoe" in job.error


def test_a_job_that_was_taken_over_or_done_is_not_a_failed_task(monkeypatch):
    rules = PRESETS["sixdeck"]
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), status=S.QUEUED, ticket="t", slot=0
    )
    assert services.job_run(job_id=job.pk, ticket="other") == "not queued"
    assert services.job_run(job_id=job.pk, ticket="t") == "done"
    job.refresh_from_db()
    assert job.status == S.DONE and job.slot is None


def _sets(n: int) -> list:
    pays = (Fraction(3, 2), Fraction(6, 5))
    return [
        replace(PRESETS["thoth"], decks=d, blackjack_pays=p) for d in (1, 2, 4, 8) for p in pays
    ][:n]


def test_the_bound_holds_when_two_promoters_read_the_same_free_place(monkeypatch):
    # Issue 15's known limit (b): two callers that both counted 3 jobs could both add one.
    monkeypatch.setattr(services, "_enqueue", lambda job: None)
    jobs = [job_request(rules=r, **_who(f"race{i}")) for i, r in enumerate(_sets(5))]
    assert [j.status for j in jobs].count(S.QUEUED) == services.MAX_PENDING
    last = ChartJob.objects.get(pk=jobs[-1].pk)
    assert last.status == S.WAITING
    # A promoter that read the places before the others took them (a stale read):
    monkeypatch.setattr(services, "_free_slots", lambda: list(range(services.MAX_PENDING)))
    assert services._promote(last) is False
    assert ChartJob.objects.filter(status__in=services.ACTIVE).count() == services.MAX_PENDING
    assert ChartJob.objects.get(pk=last.pk).status == S.WAITING


def test_the_database_refuses_a_job_beyond_the_places():
    from django.db import IntegrityError, transaction

    rules = _sets(2)
    ChartJob.objects.create(rules_key=rules[0].key(), rules={}, status=S.QUEUED, slot=1)
    with pytest.raises(IntegrityError), transaction.atomic():  # the same place twice
        ChartJob.objects.create(rules_key=rules[1].key(), rules={}, status=S.QUEUED, slot=1)
    with pytest.raises(IntegrityError), transaction.atomic():  # active without a place
        ChartJob.objects.create(rules_key=rules[1].key(), rules={}, status=S.RUNNING)
    with pytest.raises(IntegrityError), transaction.atomic():  # a place while waiting
        ChartJob.objects.create(rules_key=rules[1].key(), rules={}, status=S.WAITING, slot=2)


def test_a_queued_job_whose_task_was_never_stored_is_requeued(monkeypatch):
    # Issue 15's known limit (c), the immediate backend: a queued job with no task at all
    # (the promoting process died before enqueueing) and untouched for STALE_JOB.
    rules = PRESETS["sixdeck"]
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    job = ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), status=S.QUEUED, ticket="t", slot=0
    )
    assert services.jobs_requeue_stale() == 0  # just promoted: its task may be on its way
    ChartJob.objects.update(updated_at=timezone.now() - timedelta(minutes=10))
    assert services.jobs_requeue_stale() == 1
    job.refresh_from_db()
    assert job.status == S.DONE and job.ticket != "t"


# --- the line's bound (issue 33, finding 2) -------------------------------------------------


def _fill(monkeypatch, *, pending: int, waiting: int) -> list:
    """``pending`` jobs handed to the queue and ``waiting`` in line, which is then full."""
    monkeypatch.setattr(services, "MAX_PENDING", pending)
    monkeypatch.setattr(services, "MAX_WAITING", waiting)
    monkeypatch.setattr(services, "_enqueue", lambda job: None)
    sets = _sets(pending + waiting + 2)
    for i, r in enumerate(sets[: pending + waiting]):
        job_request(rules=r, **_who(f"fill{i}"))
    return sets


def test_beyond_the_line_a_request_is_busy_and_writes_nothing(monkeypatch):
    sets = _fill(monkeypatch, pending=1, waiting=2)
    assert [j.status for j in ChartJob.objects.order_by("pk")] == [S.QUEUED, S.WAITING, S.WAITING]
    assert sorted(ChartJob.objects.exclude(line=None).values_list("line", flat=True)) == [0, 1]
    counted = []
    monkeypatch.setattr(limits, "job_allowed", lambda **who: counted.append(who) or True)
    with pytest.raises(services.Busy):
        job_request(rules=sets[3], **_who("late"))
    assert ChartJob.objects.count() == 3 and counted == []  # no row, nothing counted
    # A rule set already waiting is joined, not refused nor queued twice.
    again = job_request(rules=sets[2], **_who("again"))
    assert again is not None and again.status == S.WAITING and ChartJob.objects.count() == 3
    # Once the line moves on, there is room again.
    ChartJob.objects.filter(status=S.QUEUED).update(status=S.DONE, slot=None)
    services.jobs_promote()
    assert job_request(rules=sets[3], **_who("late")).status == S.WAITING
    assert ChartJob.objects.filter(status=S.WAITING).count() == 2


def test_a_request_for_many_rule_sets_starts_none_when_not_all_fit(monkeypatch):
    sets = _fill(monkeypatch, pending=1, waiting=3)
    ChartJob.objects.filter(rules_key=sets[3].key()).delete()  # one place free, two asked for
    with pytest.raises(services.Busy):
        services.jobs_request(rule_sets=sets[3:5], user_key="u-many", address="a-many")
    assert not ChartJob.objects.filter(rules_key__in=[r.key() for r in sets[3:5]]).exists()
    services.jobs_request(rule_sets=sets[3:4], user_key="u-many", address="a-many")
    assert ChartJob.objects.get(rules_key=sets[3].key()).status == S.WAITING


def test_a_failed_job_started_again_takes_a_place_in_line_or_is_busy(monkeypatch):
    sets = _fill(monkeypatch, pending=1, waiting=1)
    failed = ChartJob.objects.create(
        rules_key=sets[2].key(), rules=sets[2].to_dict(), status=S.FAILED, ticket="t", error="x"
    )
    with pytest.raises(services.Busy):
        job_request(rules=sets[2], **_who("retry"))
    failed.refresh_from_db()
    assert failed.status == S.FAILED and failed.ticket == "t" and failed.line is None
    ChartJob.objects.filter(status=S.WAITING).delete()
    job = job_request(rules=sets[2], **_who("retry"))
    assert job.status == S.WAITING and job.line == 0 and job.ticket != "t" and job.error == ""


def test_a_job_done_with_its_product_stored_is_never_queued_again(monkeypatch):
    rules = PRESETS["sixdeck"]
    monkeypatch.setattr(services, "compute_tables", _fake_compute)
    first = job_request(rules=rules, **_who("done"))
    assert first is not None and first.status == S.DONE
    monkeypatch.setattr(services, "_enqueue", lambda job: pytest.fail("queued twice"))
    assert job_request(rules=rules, **_who("done")) is None
    job = ChartJob.objects.get()
    assert (job.status, job.ticket, job.line, job.slot) == (S.DONE, first.ticket, None, None)


def test_the_database_refuses_a_waiting_job_without_its_own_place():
    from django.db import IntegrityError, transaction

    rules = _sets(3)
    ChartJob.objects.create(rules_key=rules[0].key(), rules={}, status=S.WAITING, line=0)
    with pytest.raises(IntegrityError), transaction.atomic():  # the same place twice
        ChartJob.objects.create(rules_key=rules[1].key(), rules={}, status=S.WAITING, line=0)
    with pytest.raises(IntegrityError), transaction.atomic():  # waiting without a place
        ChartJob.objects.create(rules_key=rules[1].key(), rules={}, status=S.WAITING)
    with pytest.raises(IntegrityError), transaction.atomic():  # a place in line while queued
        ChartJob.objects.create(rules_key=rules[2].key(), rules={}, status=S.QUEUED, slot=0, line=1)
