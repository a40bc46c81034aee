"""Moving Decision, WeakSpot, ComputedTable and ChartJob out of the trainer loses no row.

The database is taken back to the trainer's 0002 (before the move), rows are written with the
models as they were then, and the database is migrated forward again: every row, the
situation's link to its decision and the models' content types are still there.  A fresh
database is covered by the test database itself, which is built by running every migration.
"""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from computed.models import ChartJob, ComputedTable
from decisions.models import Decision, WeakSpot
from trainer.models import Situation

# accounts too: the old models of trainer 0002 know the user table as accounts 0001 made it.
BEFORE = [
    ("accounts", "0001_initial"),
    ("trainer", "0002_drill_tables"),
    ("decisions", None),
    ("computed", None),
]


def _migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # the applied migrations as they now are
    return executor


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_load_after_it():
    decision_type = ContentType.objects.get_for_model(Decision).pk
    executor = _migrate(BEFORE)
    old = executor.loader.project_state(("trainer", "0002_drill_tables")).apps
    assert old.get_model("contenttypes", "ContentType").objects.get(pk=decision_type).app_label == (
        "trainer"
    )
    user = old.get_model("accounts", "User").objects.create(username="thoth")
    decision = old.get_model("trainer", "Decision").objects.create(
        user=user, source="drill", source_ref="situation:1", rules={"decks": 6},
        rules_key="k", hand=["10s", "6d"], dealer_up="10h", category="hard",
        chart_kind="hard", chart_row=16, dealer_points=10, choice="stand", best="hit",
        chart_move="hit", ev={"stand": -0.54, "hit": -0.53}, ev_lost=0.01, correct=False,
    )  # fmt: skip
    old.get_model("trainer", "Situation").objects.create(
        user=user, rules={"decks": 6}, rules_key="k", hand=["10s", "6d"], dealer_up="10h",
        focus="all", ev={"stand": -0.54, "hit": -0.53}, chart_move="hit", decision=decision,
    )  # fmt: skip
    old.get_model("trainer", "WeakSpot").objects.create(
        user=user, chart_kind="hard", chart_row=16, dealer_points=10, due_at=timezone.now(),
        example=[10, 6], misses=1,
    )  # fmt: skip
    old.get_model("trainer", "ComputedTable").objects.create(key="chart-v1-x", data={"a": 1})
    old.get_model("trainer", "ChartJob").objects.create(rules_key="k", rules={}, done=3)

    executor = _migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()

    moved = Decision.objects.get()
    assert (moved.pk, moved.user.username, moved.hand, moved.ev) == (
        decision.pk, "thoth", ["10s", "6d"], {"stand": -0.54, "hit": -0.53},
    )  # fmt: skip
    assert Situation.objects.get().decision == moved
    assert moved.situation.focus == "all"  # the reverse link of the moved model
    spot = WeakSpot.objects.get()
    assert (spot.user_id, spot.example, spot.misses) == (moved.user_id, [10, 6], 1)
    assert ComputedTable.objects.get().data == {"a": 1}
    assert ChartJob.objects.get().done == 3
    assert ContentType.objects.get_for_model(Decision).pk == decision_type  # relabelled, kept
    # The moved models still write: a new row takes the next id of the same table.
    again = Decision.objects.create(
        user=moved.user, source="table", rules={}, rules_key="k", hand=[], dealer_up="2c",
        category="hard", chart_kind="hard", chart_row=5, dealer_points=2, choice="hit",
        best="hit", chart_move="hit", ev={"hit": 0.0}, ev_lost=0.0, correct=True,
    )  # fmt: skip
    assert again.pk > moved.pk


def test_the_tables_keep_their_names():
    assert Decision._meta.db_table == "trainer_decision"
    assert WeakSpot._meta.db_table == "trainer_weakspot"
    assert ComputedTable._meta.db_table == "trainer_computedtable"
    assert ChartJob._meta.db_table == "trainer_chartjob"
