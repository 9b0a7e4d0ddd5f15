"""The audit hash has one definition (app.audit.trail.hash_payload), pinned by a test vector: appending,
the Python verify path, the database-built payload of the fast verify path and the synthetic chain
of bench.scale all agree with it."""
from __future__ import annotations

import datetime as dt
import hashlib
import random

from sqlalchemy import select

from bench import scale
from app.audit.scan import fast_sql, scan_rows, select_sql
from app.audit.trail import (GENESIS_HASH, HASHED_FIELDS, Actor, append_event,
                       canonical_json, event_hash, format_ts, hash_payload)
from models import AuditEvent
from tests.conftest import on_postgresql

# A fixed event, with the characters a serialiser can get wrong (non-ASCII, quotes, backslash, newline).
FIXED = dict(seq=1, ts=dt.datetime(2026, 11, 30, 2, 3, 4, 567890, tzinfo=dt.timezone.utc), actor_id=1,
             actor_login="admin", actor_name="管理员", actor_role="admin", host="ops-pc-01", app_version="1.0.0",
             request_id="00000000-0000-4000-8000-000000000001", action="contract.approve", object_type="contract",
             object_id="7", object_label="GZ-2026-0007",
             before=canonical_json({"status": "pending_approval"}),
             after=canonical_json({"status": "approved", "approved_by": "admin", "amount": "12345.67",
                                   "note": "引号\"与\\反斜杠\n换行"}),
             reason=None, outcome="success", prev_hash=GENESIS_HASH)
FIXED_HASH = "f199ecf98c6f8d9536e37e6295091813a43c6a1c500858cf63194ffcf9bac6a0"


def test_the_test_vector():
    assert event_hash(FIXED) == FIXED_HASH
    payload = dict(FIXED, ts="2026-11-30T02:03:04.567890Z")
    assert hash_payload(payload) == FIXED_HASH
    assert format_ts(FIXED["ts"]) == "2026-11-30T02:03:04.567890Z"


def test_the_verify_paths_hash_a_stored_event_as_appending_did(db):
    """Store the fixed event (with this machine's host and version) and read it back through the
    Python path (select_sql + scan_rows) and the database-built payload (fast_sql)."""
    with db.session() as s:
        ev = append_event(s, Actor(1, "admin", "管理员", "admin"), request_id=FIXED["request_id"],
                          action=FIXED["action"], object_type="contract", object_id=7, object_label="GZ-2026-0007",
                          before={"status": "pending_approval"},
                          after={"status": "approved", "approved_by": "admin", "amount": "12345.67",
                                 "note": "引号\"与\\反斜杠\n换行"}, ts=FIXED["ts"])
        s.commit()
        seq, stored = ev.seq, ev.hash
    with db.session() as s:
        row = s.execute(select(AuditEvent).where(AuditEvent.seq == seq)).scalar_one()
        assert event_hash({k: getattr(row, k) for k in HASHED_FIELDS}) == stored
    dialect = db.engine.dialect.name
    with db.engine.connect() as conn:
        def sql(q):
            return q.replace("%s", "?") if dialect == "sqlite" else q
        rows = conn.exec_driver_sql(sql(select_sql(dialect)), (seq, seq)).fetchall()
        assert scan_rows([rows], None, None).first[3] is True
        (_seq, _prev, stored_too, payload), = conn.exec_driver_sql(sql(fast_sql(dialect)), (seq, seq)).fetchall()
        assert stored_too == stored and hashlib.sha256(bytes(payload)).hexdigest() == stored


def test_the_synthetic_chain_hashes_by_the_one_definition():
    plan = scale.Plan(random.Random(1), dt.date(2026, 11, 30), {}, {})
    plan.events = [("contract.approve", "contract", 7, "GZ-2026-0007", {"status": "approved", "note": "引号\"\n"}, None)]
    users = [(1, "admin", "管理员", "admin"), (2, "lina", "李娜", "account_manager")]
    rows = list(scale.audit_rows(plan, 1, GENESIS_HASH, 3, users))
    prev = GENESIS_HASH
    for row in rows:
        fields = dict(zip(scale.AUDIT_COLS, row))
        assert fields["prev_hash"] == prev
        fields["ts"] = fields["ts"].replace(" ", "T") + "Z"
        assert event_hash(fields) == fields["hash"]
        prev = fields["hash"]



@on_postgresql   # SQLite's events are hashed by app/audit/trail.py, whose vector the tests above pin
def test_the_server_hashes_by_the_one_definition(db):
    """PostgreSQL from migration 0029 hashes each event itself (idc_audit_payload, then sha256): the test
    vector gives the same hash there as in app/audit/trail.py, so both backends' chains verify the same way."""
    import orjson
    from sqlalchemy import text

    doc = dict(FIXED, ts="2026-11-30T02:03:04.567890", hash=None)
    with db.engine.connect() as c:
        payload, digest = c.execute(text(
            "SELECT p, encode(sha256(convert_to(p, 'UTF8')), 'hex') FROM (SELECT idc_audit_payload("
            "jsonb_populate_record(NULL::audit_event, CAST(:d AS jsonb))) AS p) x"),
            {"d": orjson.dumps(doc).decode()}).one()
    assert payload.encode() == orjson.dumps(dict(FIXED, ts="2026-11-30T02:03:04.567890Z"), option=orjson.OPT_SORT_KEYS)
    assert digest == FIXED_HASH
