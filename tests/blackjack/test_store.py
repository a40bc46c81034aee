"""The table store: atomic files shared by processes, keys by rule set and format."""

import os

import pytest

from blackjack import (
    CACHE_DIR_ENV,
    FileStore,
    MemoryStore,
    Rules,
    default_store,
    load_json,
    save_json,
    table_key,
)
from blackjack.maths import FORMAT_VERSION


def test_file_store_round_trip(tmp_path):
    store = FileStore(tmp_path / "cache")
    assert store.get("chart-v1-x") is None
    store.put("chart-v1-x", b"one")
    store.put("chart-v1-x", b"two")
    assert store.get("chart-v1-x") == b"two"
    assert FileStore(tmp_path / "cache").get("chart-v1-x") == b"two"  # another process


def test_file_store_leaves_no_temporary_files(tmp_path):
    store = FileStore(tmp_path)
    store.put("edge-v1-y", b"{}")
    assert sorted(os.listdir(tmp_path)) == ["edge-v1-y.json"]


def test_file_store_refuses_keys_that_leave_the_directory(tmp_path):
    with pytest.raises(ValueError):
        FileStore(tmp_path).put("../escape", b"")


def test_default_store_reads_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    assert default_store().directory == tmp_path
    monkeypatch.delenv(CACHE_DIR_ENV)
    assert str(default_store().directory) == os.path.join("var", "blackjack-cache")


def test_keys_name_kind_version_and_rules():
    a, b = table_key("chart", Rules()), table_key("chart", Rules(decks=8))
    assert a != b
    assert a == f"chart-v{FORMAT_VERSION}-{Rules().key()}"


def test_json_helpers_ignore_a_damaged_entry():
    store = MemoryStore()
    save_json(store, "k", {"x": 1.5})
    assert load_json(store, "k") == {"x": 1.5}
    store.put("k", b"{not json")
    assert load_json(store, "k") is None
    assert load_json(None, "k") is None
