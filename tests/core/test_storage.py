"""core.storage: a static file's URL is worked out once per process, from the manifest."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from core.storage import StaticFilesStorage


@pytest.fixture
def storage(tmp_path):
    manifest = {"paths": {"css/site.css": "css/site.0123abcd.css"}, "version": "1.1"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    with override_settings(DEBUG=False, STATIC_URL="/static/"):
        yield StaticFilesStorage(location=tmp_path, base_url="/static/")


def test_the_hashed_url_is_kept_after_the_first_asking(storage, monkeypatch):
    assert storage.url("css/site.css") == "/static/css/site.0123abcd.css"
    monkeypatch.setattr(storage, "hashed_files", {})  # the manifest is not read again
    assert storage.url("css/site.css") == "/static/css/site.0123abcd.css"


def test_a_name_the_manifest_lacks_is_refused_and_not_kept(storage):
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/made-up.css")
    assert ("css/made-up.css", False) not in storage._urls


def test_nothing_is_kept_with_debug_on(storage):
    with override_settings(DEBUG=True):
        assert storage.url("css/site.css") == "/static/css/site.css"
    assert storage._urls == {}
