"""PostgreSQL hashes the audit chain itself (app.audit.scan.pg_hash_sql): its payload and hash equal the one
definition (hash_payload of canonical JSON) for text a serialiser can get wrong, so a sound chain comes
back as its first row alone, and a changed row is flagged."""
from __future__ import annotations

from sqlalchemy import text

from app.audit.scan import pg_hash_sql
from app.audit.trail import Actor, append_event, verify_audit_chain
from tests.conftest import on_postgresql

VECTORS = ["plain", "管理员 · 引号\"与\\反斜杠", "tab\tnew\nline\rcr", "ctl\x01\x1f\x7f", "sep\u2028\u2029",
           "emoji 🚀𝕏", "slash / and </script>", "", "e\u0301 composed", "%s %% {}"]


@on_postgresql
def test_the_database_hash_equals_the_python_one(db):
    actor = Actor(1, "admin", "管理员", "admin")
    with db.session() as s:
        for i, v in enumerate(VECTORS):
            append_event(s, actor, request_id=f"r{i}", action="test.vector", object_type="test", object_id=i,
                         object_label=v or None, before={"v": v, "n": i, "nested": {"list": [v, 1.5, None]}},
                         after={v: v} if v else None, reason=v or None)
        s.commit()
    with db.engine.connect() as conn:
        rows = conn.exec_driver_sql(pg_hash_sql(), (1, 10**9, -1)).fetchall()
        assert [(r.seq, r.ok) for r in rows] == [(1, True)]          # only the first: every hash agreed
        n = conn.execute(text("SELECT count(*) FROM audit_event")).scalar()
        assert n == len(VECTORS)
    with db.session() as s:
        assert verify_audit_chain(s).ok
    with db.engine.begin() as conn:   # the owner edits a row: the database flags exactly that one
        conn.execute(text("ALTER TABLE audit_event DISABLE TRIGGER audit_event_append_only"))
        conn.execute(text("UPDATE audit_event SET reason = 'forged' WHERE seq = 4"))
        conn.execute(text("ALTER TABLE audit_event ENABLE TRIGGER audit_event_append_only"))
    with db.engine.connect() as conn:
        rows = conn.exec_driver_sql(pg_hash_sql(), (1, 10**9, -1)).fetchall()
        assert [(r.seq, r.ok) for r in rows] == [(1, True), (4, False)]
    with db.session() as s:
        result = verify_audit_chain(s)
    assert not result.ok and result.bad_seq == 4 and "altered" in result.problem
