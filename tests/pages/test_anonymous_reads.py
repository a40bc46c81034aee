"""An anonymous GET writes nothing (issue 17): no session row, no guest, no job, no row of any
kind.  Every table's rows are counted before and after reading every page as a visitor without
an account, in every language."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from accounts.models import Role, User
from articles.content import SLUGS
from classroom.models import Classroom
from classroom.services import class_create
from core.languages import language_codes
from game.models import Table

pytestmark = pytest.mark.django_db


def _row_counts() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for name in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(name)}")
            counts[name] = cursor.fetchone()[0]
    return counts


def anonymous_paths(lang: str) -> list[str]:
    """Every page a visitor can GET, with the query strings the pages' own links and forms
    make (a variant's chart, a drill focus), and a few that answer 404 or send to log in."""
    base = f"/{lang}"
    klass = Classroom.objects.first()
    paths = [
        "/", "/robots.txt", "/sitemap.xml", "/healthz",
        f"{base}/", f"{base}/play/", f"{base}/play/history/", f"{base}/play/history/1/",
        f"{base}/play/variants/?preset=live",
        f"{base}/trainer/", f"{base}/trainer/?focus=pair&up=6&preset=live",
        f"{base}/trainer/stats/", f"{base}/trainer/s/1/",
        f"{base}/trainer/chart/", f"{base}/trainer/chart/?preset=live",
        f"{base}/trainer/chart/?preset=thoth&decks=1&soft17=hit",
        f"{base}/trainer/chart/?poll=1&preset=live",
        f"{base}/trainer/indices/", f"{base}/trainer/indices/?preset=sixdeck&system=ko",
        f"{base}/trainer/indices/?poll=1&preset=live", f"{base}/trainer/indices/?system=x",
        f"{base}/rules/", f"{base}/rules/house-edge/calculator/?preset=live",
        f"{base}/classes/", f"{base}/classes/join/", f"{base}/classes/join/ABCD1234/",
        f"{base}/accounts/signup/", f"{base}/accounts/login/", f"{base}/accounts/",
        f"{base}/no-such-page/",
    ]  # fmt: skip
    if klass is not None:
        paths += [f"{base}/classes/{klass.pk}/", f"{base}/classes/{klass.pk}/heat/"]
    paths += [f"{base}/play/table/{t.slug}/" for t in Table.objects.all()]
    paths += [f"{base}/rules/{slug}/" for slug in SLUGS]
    return paths


@pytest.fixture
def klass(db: None) -> Classroom:
    teacher = User.objects.create_user(username="imhotep", password="x", role=Role.TEACHER)
    return class_create(owner=teacher, name="Scribes of the morning")


@pytest.mark.parametrize("lang", language_codes())
def test_an_anonymous_visitor_reads_every_page_and_writes_nothing(tables, learner, klass, lang):
    before = _row_counts()
    client = Client()
    statuses = {}
    for path in anonymous_paths(lang):
        # A visitor's browser sends back the cookies it was given (CSRF, language).
        response = client.get(path)
        statuses[path] = response.status_code
        assert response.status_code < 500, path
    after = _row_counts()
    changed = {name: (before[name], after[name]) for name in before if before[name] != after[name]}
    assert changed == {}, changed
    # The pages were really served, not refused.
    assert statuses[f"/{lang}/"] == 200
    assert statuses[f"/{lang}/trainer/chart/"] == 200
    assert statuses[f"/{lang}/trainer/indices/"] == 200
    assert statuses[f"/{lang}/trainer/indices/?system=x"] == 400
    assert statuses[f"/{lang}/trainer/"] == 200


def test_a_second_visit_with_the_cookies_writes_nothing_either(tables):
    """The cookies of a first visit (CSRF, language) sent back: still no session row."""
    client = Client()
    client.get("/en/trainer/")
    before = _row_counts()
    for path in ("/en/trainer/", "/en/play/table/scribes/", "/uk/trainer/chart/", "/en/"):
        assert client.get(path).status_code == 200
    assert _row_counts() == before
    assert "sessionid" not in client.cookies
