"""Reads from a REAL streaming standby of the test server (issue 26): tests/store/standby.py makes it.

Without IDC_TEST_PG_URL these tests skip; with it, a standby that cannot be made fails them.
"""
from __future__ import annotations

import time

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.store.db import Database, reading
from tests.conftest import PG_URL, drop_db, make_db
from tests.store.standby import StandbyUnavailable, make_standby

pytestmark = pytest.mark.skipif(not PG_URL, reason="needs IDC_TEST_PG_URL (PostgreSQL)")


@pytest.fixture(scope="module")
def standby():
    u = make_url(PG_URL)
    try:
        sb = make_standby(u.host or "127.0.0.1", u.port or 5432)
    except StandbyUnavailable as exc:   # with a PostgreSQL server these tests need its standby: fail
        pytest.fail(f"no standby could be made: {exc}")
    yield sb
    sb.stop()


@pytest.fixture
def replicated(standby, tmp_path, pg_template):
    """A fresh test database on the primary, read through the standby once it has replayed it."""
    plain = make_db("postgresql", tmp_path, pg_template)
    name = make_url(plain.url).database
    db = Database(plain.url, read_url=standby.url(name))
    db._test_drop = plain._test_drop
    plain.dispose()
    db.committed()
    # the clone's CREATE DATABASE reaching the standby: replay waits behind whatever else the test
    # server wrote (other sessions' clones), so the wait is on the standby's replay, up to 5 minutes
    deadline = time.monotonic() + 300
    while not _replayed(standby, db.commit_lsn):
        assert time.monotonic() < deadline, f"the standby has not replayed {db.commit_lsn} in 5 minutes"
    assert db.replica.usable(db.commit_lsn), db.replica.status
    yield db
    drop_db(db)


def _replayed(standby, lsn: str) -> bool:
    import psycopg

    with psycopg.connect(host="127.0.0.1", port=standby.port, user="postgres", dbname="postgres") as c:
        return c.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (lsn,)).fetchone()[0]


def _on_standby(db) -> bool:
    with reading(replica=True), db.session() as s:
        return s.execute(text("SELECT pg_is_in_recovery()")).scalar()


def test_replica_reads_come_from_the_standby_and_writes_from_the_primary(replicated):
    assert _on_standby(replicated) is True
    with replicated.session() as s:                        # outside reading(): the primary
        assert s.execute(text("SELECT pg_is_in_recovery()")).scalar() is False
    with reading(), replicated.session() as s:             # a plain background read: the primary
        assert s.execute(text("SELECT pg_is_in_recovery()")).scalar() is False


def test_a_write_is_visible_to_its_writer_at_once_on_the_replica(replicated):
    from app.services.users import add_user

    add_user(replicated, None, "rywuser", "admin", "correct-horse-1", "读写")
    assert replicated.commit_lsn is not None
    with reading(replica=True), replicated.session() as s:
        assert s.execute(text("SELECT count(*) FROM app_user WHERE login = 'rywuser'")).scalar() == 1


def test_the_lag_is_measured(replicated):
    lag = replicated.replica.lag_seconds()
    assert lag is not None and lag >= 0 and replicated.replica.lag == lag
    assert replicated.replica.status is None or "behind" in replicated.replica.status


def test_the_standby_stopped_the_console_reads_the_primary_with_a_status_line(replicated, standby):
    seen = []
    replicated.replica.on_status = seen.append
    standby.halt()
    try:
        replicated.replica.engine.dispose()            # its pooled connections went with the server
        assert _on_standby(replicated) is False        # no error: the primary answered
        assert seen and "unavailable" in seen[-1]
        assert replicated.replica.down                 # what the status bar shows (MainWindow.show_replica_state)
    finally:
        standby.start()
