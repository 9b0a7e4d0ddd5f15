"""Round trips, not only statements (issue 26, third round): across a WAN each time the console waits for
the server costs the link's RTT, whatever it sends. Counted at the bench's relay (bench/wan_relay.py, no
delay) on PostgreSQL, warm (each read once before it is counted, so that no connection is opened inside):
transaction control around reads, the login's probes of the server and a rack click's reads in a row
show here as round trips.
"""
from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from app.audit.query import audit_choices
from app.read import queries
from app.read.viewdata.rackside import rack_side
from app.services.users import login
from app.store.db import Database
from bench.wan_relay import DelayRelay
from models import AuditEvent, Device
from tests.conftest import PG_URL

# round trips are a server's: PostgreSQL's demo only (no SQLite copy that skips), the module skipped whole
# without IDC_TEST_PG_URL
pytestmark = [pytest.mark.parametrize("demo_db", ["postgresql"], indirect=True),
              pytest.mark.skipif(not PG_URL, reason="needs IDC_TEST_PG_URL (PostgreSQL)")]

# call -> round trips at most (before this round)
LOGIN = 8            # was 10 (BEGIN, 8 statements, COMMIT): the three probes of the server in one statement
LIST_RELOAD = 2      # was 6: the count and the first window side by side, no BEGIN/ROLLBACK around either
AUDIT_CHOICES = 1    # was 5: three DISTINCTs in one statement, no transaction
RACK_CLICK = 15      # was 24: one statement per read, no transaction control
QUEUE = 10           # was 15 (13 statements, each after the one before): the Operations page's queue


@pytest.fixture
def relayed(demo_db):
    u = make_url(demo_db.url)
    with DelayRelay(u.host or "127.0.0.1", u.port or 5432) as relay:
        db = Database(u.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False))
        try:
            yield db, relay
        finally:
            db.dispose()


def _trips(relay, fn) -> int:
    fn()                       # warm: the connections it needs are open, the engine set up
    before = relay.round_trips
    fn()
    return relay.round_trips - before


def test_the_first_login_costs_its_statements_and_its_transaction_only(relayed):
    db, relay = relayed
    db.current_revision()      # what the console's start does before its login dialog: the engine set up
    before = relay.round_trips
    login(db, "admin", "demo1234")
    assert relay.round_trips - before <= LOGIN


def test_a_list_page_reads_its_count_and_window_in_two_round_trips(relayed, qtbot):
    from ui.kit.tables import PagedTableModel

    db, relay = relayed
    for kind in ("rack", "device", "customer", "audit"):
        model = PagedTableModel(db, queries.SPECS[kind])
        assert _trips(relay, model.reload) <= LIST_RELOAD, kind
        assert model.rowCount() > 0 and model.total == queries.total(db, queries.SPECS[kind])


def test_the_audit_filter_choices_are_one_statement(relayed):
    db, relay = relayed
    assert _trips(relay, lambda: audit_choices(db)) <= AUDIT_CHOICES
    actors, actions, types = audit_choices(db)
    with db.read_session() as s:   # what three DISTINCT … ORDER BY statements give, each in the database's order
        for got, col in ((actors, AuditEvent.actor_login), (actions, AuditEvent.action), (types, AuditEvent.object_type)):
            assert got == list(s.execute(select(col).distinct().order_by(col)).scalars())


def test_a_rack_click_sends_no_transaction_control(relayed):
    db, relay = relayed
    with db.read_session() as s:
        rack_id = s.execute(select(Device.rack_id).where(Device.rack_id.is_not(None)).group_by(Device.rack_id)
                            .order_by(func.count().desc(), Device.rack_id).limit(1)).scalar_one()
    assert _trips(relay, lambda: rack_side(db, rack_id)) <= RACK_CLICK


def test_the_operations_queue_reads_in_ten_round_trips(relayed):
    """Its statements go in three waves side by side (queue_view); none costs a round trip of its own."""
    from app.services.operations.queue import queue_view

    db, relay = relayed
    assert _trips(relay, lambda: queue_view(db)) <= QUEUE


def test_the_first_connection_learns_the_server_in_one_statement(demo_db):
    """The engine's first connection: the TLS question, the startup, one statement (not seven round
    trips in a transaction); what the dialect knows afterwards is what SQLAlchemy's own questions give."""
    from sqlalchemy import create_engine

    u = make_url(demo_db.url)
    with DelayRelay(u.host or "127.0.0.1", u.port or 5432) as relay:
        db = Database(u.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False))
        try:
            assert db.revision_and_regions() == (db.head_revision(), True)
            first = relay.round_trips
            assert first <= 4     # TLS asked, startup, the server's facts, the revision with the regions
            assert db.revision_and_regions() == (db.head_revision(), True) and relay.round_trips - first == 1
            plain = create_engine(u)
            try:
                with plain.connect():
                    pass
                for fact in ("server_version_info", "default_schema_name", "default_isolation_level",
                             "_backslash_escapes"):
                    assert getattr(db.engine.dialect, fact) == getattr(plain.dialect, fact), fact
            finally:
                plain.dispose()
        finally:
            db.dispose()
