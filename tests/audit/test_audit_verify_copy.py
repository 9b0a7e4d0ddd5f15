"""PostgreSQL's COPY verify path (app.audit.scan.scan_copy: raw columns by COPY, each payload built from
the text row and hashed in Python, serially or in worker processes) gives exactly the verdict of the
exact path (hash_payload over the stored columns) and of the server-hashing path: the same first bad
event in the same words, wherever it falls against the chunk and range boundaries; and it builds no
payload that differs from the canonical bytes."""
from __future__ import annotations

import hashlib

import psycopg
import pytest
from sqlalchemy import text

import app.audit.trail as audit
from app.audit import scan as audit_scan
from app.audit.trail import Actor, append_event, hash_payload, verify_audit_chain, verify_audit_range
from tests.conftest import on_postgresql
from tests.support.tamper_kit import drop_triggers

N = 40  # events in the chain, all appended here
CHUNK = 2  # verify's COPY chunks are 5 × this: 10 events
VECTORS = ["plain", "引号\"与\\反斜杠", "tab\tnl\ncr\r", "ctl\x01\x1f\x7f", None, "sep\u2028\u2029 🚀",
           "\\N", "a \"\\N\" b", '"', "</script> %s %% {}"]


def _exact_pg(execute, lo, hi, expected_seq=None, expected_hash=None):
    return audit_scan.scan_rows([execute(audit_scan.select_sql("postgresql"), (lo, hi))], expected_seq, expected_hash)


def _exact_copy(conn, lo, hi, expected_seq=None, expected_hash=None, chunk=None):
    return _exact_pg(lambda q, p: conn.execute(q, p).fetchall(), lo, hi, expected_seq, expected_hash)


@pytest.fixture
def chain(db, monkeypatch):
    monkeypatch.setattr(audit, "CHUNK_EVENTS", CHUNK)
    actor = Actor(1, "admin", "管理员", "admin")
    with db.session() as s:
        for i in range(N):
            v = VECTORS[i % len(VECTORS)]
            append_event(s, actor, request_id=f"r{i}", action="test.event", object_type="test",
                         object_id=None if i % 7 == 3 else i, object_label=v,
                         before={"n": i, "s": v} if i % 3 else None, after={"n": i + 1},
                         reason=None if i % 4 else f"理由 {i}")
        s.commit()
    drop_triggers(db)
    return db


def _verdict(db, monkeypatch, how: str, range_=None, **kw):
    with monkeypatch.context() as m:
        if how == "exact":
            m.setattr(audit, "scan_copy", _exact_copy)
            m.setattr(audit, "scan_pg", _exact_pg)
        m.setenv("IDC_AUDIT_HASH_HERE", "0" if how == "server" else "1")
        if how == "parallel":
            m.setenv("IDC_AUDIT_PARALLEL_MIN", "1")
            m.setattr(audit, "RANGE_MIN", 7)
        with db.session() as s:
            if range_:
                return verify_audit_range(s, *range_, **kw)
            return verify_audit_chain(s, workers=2 if how == "parallel" else 1, **kw)


def _all(db, monkeypatch, **kw):
    results = {how: _verdict(db, monkeypatch, how, **kw) for how in ("copy", "server", "exact", "parallel")}
    assert results["copy"] == results["server"] == results["exact"] == results["parallel"], results
    return results["copy"]


def _sql(db, *statements):
    with db.engine.begin() as c:
        for st in statements:
            c.execute(text(st))


@on_postgresql
def test_every_copy_payload_it_builds_is_the_canonical_one(chain):
    """Each row COPY sends is either refused (the exact path then checks it) or built into bytes whose
    SHA-256 is hash_payload's over the same stored columns; the plain rows are built."""
    dsn = chain.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn) as conn:
        with conn.cursor().copy(audit_scan.copy_sql(1, 10**9)) as copy:
            rows = [bytes(data) for data in copy]
        exact = conn.execute(audit_scan.select_sql("postgresql"), (1, 10**9)).fetchall()
    assert len(rows) == len(exact) == N
    built = 0
    for row, columns in zip(rows, exact):
        got = audit_scan.copy_payload(row)
        if got is None:
            continue
        built += 1
        assert hashlib.sha256(got[0]).hexdigest() == hash_payload(dict(zip(audit_scan.SORTED_FIELDS, columns))), row
        assert got[2].decode() == columns[-1]
    assert built >= N // 3
    assert audit_scan.copy_payload(rows[0].replace(b"\t", b"\t\x01", 1)) is None


@on_postgresql
def test_a_sound_chain_with_awkward_text(chain, monkeypatch):
    result = _all(chain, monkeypatch)
    assert result.ok and result.count == N


@on_postgresql
@pytest.mark.parametrize("seq", [1, 9, 10, 11, 21, N - 1, N])
@pytest.mark.parametrize("tamper", [
    "UPDATE audit_event SET object_label = 'forged' WHERE seq = {s}",
    "UPDATE audit_event SET reason = 'a \"quote\"' WHERE seq = {s}",
    "DELETE FROM audit_event WHERE seq = {s}",
    "UPDATE audit_event SET prev_hash = '{f}' WHERE seq = {s}",
    "UPDATE audit_event SET hash = '{f}' WHERE seq = {s}",
    "UPDATE audit_event SET actor_id = NULL WHERE seq = {s}",
])
def test_every_tampering_is_named_as_the_exact_path_names_it(chain, monkeypatch, tamper, seq):
    _sql(chain, tamper.format(s=seq, f="f" * 64))
    assert not _all(chain, monkeypatch).ok


@on_postgresql
def test_the_checkpoint_and_a_range_verify_alike(chain, monkeypatch):
    with chain.engine.connect() as c:
        h = c.execute(text("SELECT hash FROM audit_event WHERE seq = 15")).scalar_one()
    for head in (f"15:{h}", f"15:{'0' * 64}", f"{N + 3}:{h}"):
        _all(chain, monkeypatch, expect_head=head)
    assert _all(chain, monkeypatch, expect_head=f"15:{h}").ok
    _sql(chain, "UPDATE audit_event SET object_label = 'forged' WHERE seq = 17")
    for a, b in ((3, 9), (5, 25), (18, N)):
        assert _all(chain, monkeypatch, range_=(a, b)).ok == (not a <= 17 <= b)


@on_postgresql
def test_a_forged_hash_of_the_copy_text_is_refused(chain, monkeypatch):
    """A forger stores the SHA-256 of a payload built naively from COPY's text (its escapes left in):
    the exact path calls the event altered, and so must the COPY path."""
    _sql(chain, f"UPDATE audit_event SET reason = 'back\\slash' WHERE seq = {N}")
    dsn = chain.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn) as conn:
        with conn.cursor().copy(audit_scan.copy_sql(N, N)) as copy:
            (row,) = [bytes(data) for data in copy]
        assert audit_scan.copy_payload(row) is None
        naive = row.replace(b"\\\\", b"")  # what a builder ignoring COPY's escaping would hash
        f = naive.replace(b'"', b'\\"')[:-1].split(b"\t")[:-1]
        forged = hashlib.sha256(b",".join(f)).hexdigest()
        conn.execute("UPDATE audit_event SET hash = %s WHERE seq = %s", (forged, N))
        conn.execute("UPDATE audit_head SET hash = %s WHERE id = 1", (forged,))
    result = _all(chain, monkeypatch)
    assert not result.ok and result.bad_seq == N and "altered" in result.problem
