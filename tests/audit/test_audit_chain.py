"""The audit trail: append-only in the database, every kind of tampering detected."""
from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.audit.trail import verify_audit_chain
from app.services.common import create_record
from tests.conftest import on_postgresql, table_counts


def _events(db, admin, n=5, start=0):
    for i in range(start, start + n):
        create_record(db, admin, "gpu_model", dict(name=f"Test GPU {i}", vendor="NVIDIA", memory_gb=16,
                                                   form_factor="pcie"))


def _verify(db, **kw):
    with db.session() as s:
        return verify_audit_chain(s, **kw)


def _drop_triggers(db):
    with db.engine.begin() as c:
        if db.is_sqlite:
            c.execute(text("DROP TRIGGER audit_event_no_update"))
            c.execute(text("DROP TRIGGER audit_event_no_delete"))
        else:
            c.execute(text("DROP TRIGGER audit_event_append_only ON audit_event"))


def test_clean_chain_verifies(db, admin):
    _events(db, admin)
    r = _verify(db)
    assert r.ok and r.count == 7  # user.create + login + 5 creates
    assert r.head.startswith("7:")


@pytest.mark.parametrize("sql", ["UPDATE audit_event SET reason = 'x' WHERE seq = 2",
                                 "DELETE FROM audit_event WHERE seq = 2"])
def test_database_refuses_update_and_delete(db, admin, sql):
    _events(db, admin, 2)
    with pytest.raises(DBAPIError, match="append-only"):
        with db.engine.begin() as c:
            c.execute(text(sql))
    assert _verify(db).ok


def test_edited_row_is_named(db, admin):
    _events(db, admin)
    _drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("UPDATE audit_event SET object_label = 'forged' WHERE seq = 4"))
    r = _verify(db)
    assert not r.ok and r.bad_seq == 4 and "altered" in r.problem


def test_deleted_row_is_named(db, admin):
    _events(db, admin)
    _drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM audit_event WHERE seq = 3"))
    r = _verify(db)
    assert not r.ok and r.bad_seq == 3 and "missing" in r.problem


def test_deleted_tail_is_named(db, admin):
    _events(db, admin)
    _drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM audit_event WHERE seq = 7"))
    r = _verify(db)
    assert not r.ok and r.bad_seq == 7


def test_inserted_row_is_named(db, admin):
    _events(db, admin)
    _drop_triggers(db)
    with db.engine.begin() as c:
        # Make room at seq 4 and insert a forged event there, re-hashed by the forger.
        rows = c.execute(text("SELECT seq FROM audit_event WHERE seq >= 4 ORDER BY seq DESC")).scalars().all()
        for seq in rows:
            c.execute(text("UPDATE audit_event SET seq = seq + 1 WHERE seq = :s"), {"s": seq})
        c.execute(text("""INSERT INTO audit_event (seq, ts, actor_login, actor_name, actor_role, host, app_version,
                       request_id, action, object_type, outcome, prev_hash, hash)
                       SELECT 4, ts, actor_login, actor_name, actor_role, host, app_version, request_id,
                       'user.create', 'user', 'success', hash, :h FROM audit_event WHERE seq = 3"""),
                  {"h": "f" * 64})
    r = _verify(db)
    assert not r.ok and r.bad_seq == 4


def test_reordered_rows_are_named(db, admin):
    _events(db, admin)
    _drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("UPDATE audit_event SET seq = -1 WHERE seq = 5"))
        c.execute(text("UPDATE audit_event SET seq = 5 WHERE seq = 6"))
        c.execute(text("UPDATE audit_event SET seq = 6 WHERE seq = -1"))
    r = _verify(db)
    assert not r.ok and r.bad_seq == 5


def test_expect_head_checkpoint(db, admin):
    _events(db, admin, 2)
    checkpoint = _verify(db).head
    _events(db, admin, 2, start=10)
    assert _verify(db, expect_head=checkpoint).ok
    seq = checkpoint.split(":")[0]
    r = _verify(db, expect_head=f"{seq}:{'0' * 64}")
    assert not r.ok and "rewritten" in r.problem
    r = _verify(db, expect_head=f"999:{'0' * 64}")
    assert not r.ok and "beyond" in r.problem


def _head_row(db):
    with db.engine.connect() as c:
        return tuple(c.execute(text("SELECT seq, hash FROM audit_head WHERE id = 1")).one())


def test_forged_append_without_moving_the_head_is_named(db, admin):
    """A correctly hashed and linked event added by SQL, leaving audit_head alone, is a forgery,
    not a deletion."""
    from app.audit.trail import Actor, append_event

    _events(db, admin)
    head = _head_row(db)
    with db.session() as s:
        append_event(s, Actor(None, "mallory", "Mallory", "admin"), request_id="forged", action="user.create",
                     object_type="user", object_id=99, object_label="mallory")
        s.commit()
    with db.engine.begin() as c:  # the forger puts the head back where it was
        c.execute(text("UPDATE audit_head SET seq = :s, hash = :h WHERE id = 1"), {"s": head[0], "h": head[1]})
    r = _verify(db)
    assert not r.ok and r.bad_seq == 8
    assert "appended without moving the recorded head" in r.problem and "forged" in r.problem
    assert "deleted" not in r.problem


def test_edited_head_row_is_named(db, admin):
    _events(db, admin)
    seq, _h = _head_row(db)
    with db.engine.begin() as c:
        c.execute(text("UPDATE audit_head SET hash = :h WHERE id = 1"), {"h": "e" * 64})
    r = _verify(db)
    assert not r.ok and r.bad_seq == seq and "head row was edited" in r.problem
    assert "deleted" not in r.problem


def test_head_row_moved_back_to_a_wrong_hash_is_named(db, admin):
    _events(db, admin)
    with db.engine.begin() as c:
        c.execute(text("UPDATE audit_head SET seq = 5, hash = :h WHERE id = 1"), {"h": "e" * 64})
    r = _verify(db)
    assert not r.ok and r.bad_seq == 5 and "head row was edited" in r.problem


def test_head_row_seq_pushed_forward_is_named(db, admin):
    _events(db, admin)
    with db.engine.begin() as c:
        c.execute(text("UPDATE audit_head SET seq = 9 WHERE id = 1"))
    r = _verify(db)
    assert not r.ok and "head row was edited" in r.problem


# --- audit_append takes a batch set-wise (migration 0023) and refuses it as the loop did -----------------

def _batch(db, n: int, *, spoil: dict | None = None) -> list[dict]:
    """n events that continue the head, hashed by app.audit.trail's definition; `spoil` = {index: changes}."""
    import datetime as dt

    from app.audit.trail import HASHED_FIELDS, hash_payload

    with db.engine.connect() as c:
        seq, prev = c.execute(text("SELECT seq, hash FROM audit_head")).one()
    ts = dt.datetime(2026, 11, 30, 8, 0, 0)
    out = []
    for i in range(n):
        e = dict(seq=seq + 1 + i, ts=ts.isoformat(timespec="microseconds"), actor_id=None, actor_login="t",
                 actor_name="t", actor_role="admin", host="h", app_version="v", request_id="r", action="test.batch",
                 object_type="test", object_id=str(i), object_label=f"e{i}", before=None, after=None, reason=None,
                 outcome="success", prev_hash=prev)
        e["hash"] = prev = hash_payload({**{k: e[k] for k in HASHED_FIELDS}, "ts": "2026-11-30T08:00:00.000000Z"})
        out.append(e)
    for i, changes in (spoil or {}).items():
        out[i].update(changes)
    return out


def _append(db, events) -> str:
    import json

    try:
        with db.engine.begin() as c:
            c.execute(text("SELECT audit_append(CAST(:e AS jsonb))"), {"e": json.dumps(events)})
    except DBAPIError as exc:
        return str(exc.orig).splitlines()[0]
    return "appended"


@on_postgresql
@pytest.mark.parametrize("spoil", [{3: {"seq": 99}}, {3: {"prev_hash": "f" * 64}}, {3: {"hash": "not a hash"}},
                                   {0: {"prev_hash": "0" * 64}}, {2: {"hash": "0" * 64, "seq": 1}}])
def test_audit_append_numbers_links_and_hashes_a_batch_itself(db, admin, spoil):
    """PostgreSQL's audit_append (SQLite appends in the program) from migration 0029: whatever seq, link
    and hash a client sends, the server numbers the batch after the head, links and hashes each event by
    app/audit/trail.py's definition, and moves the head once; the chain verifies."""
    _events(db, admin, 2)
    with db.engine.connect() as c:
        head, hh = c.execute(text("SELECT seq, hash FROM audit_head")).one()
    before = table_counts(db)
    assert _append(db, _batch(db, 6, spoil=spoil)) == "appended"
    with db.engine.connect() as c:
        rows = c.execute(text("SELECT seq, object_id, prev_hash, hash FROM audit_event WHERE seq > :h ORDER BY seq"),
                         {"h": head}).all()
    assert [r.seq for r in rows] == list(range(head + 1, head + 7)) and [r.object_id for r in rows] == list("012345")
    assert rows[0].prev_hash == hh and all(b.prev_hash == a.hash for a, b in zip(rows, rows[1:]))
    assert _verify(db).ok and _verify(db).count == before["audit_event"] + 6


@on_postgresql
def test_audit_append_refuses_a_batch_with_a_bad_event_and_appends_nothing(db, admin):
    _events(db, admin, 2)
    before = table_counts(db)
    bad = _batch(db, 6, spoil={3: {"action": None}})
    assert "null value" in _append(db, bad)
    assert table_counts(db) == before
    assert _verify(db).ok
