"""The fast verify paths (app/audit/scan.py: SQLite chunks hashed in Python, PostgreSQL hashing in the
server) give exactly the exact path's verdict (hash_payload over the stored columns): the same first
bad event, in the same words, wherever it falls against the chunk and range boundaries; and they accept
nothing the exact path refuses, not even a forger's hash of a payload a careless database serialiser
would have built."""
from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from sqlalchemy import text

import app.audit.trail as audit
from app.audit import scan as audit_scan
from app.audit.trail import Actor, append_event, event_hash, verify_audit_chain, verify_audit_range

from tests.support.tamper_kit import drop_triggers

N = 22  # events in the chain: user.create, login and 20 appended here
CHUNK = 4


def _exact_sqlite(conn, lo, hi, expected_seq=None, expected_hash=None, chunk=None):
    return audit_scan.scan_rows([conn.execute(audit_scan.select_sql("sqlite").replace("%s", "?"), (lo, hi)).fetchall()],
                            expected_seq, expected_hash)


def _exact_pg(execute, lo, hi, expected_seq=None, expected_hash=None):
    return audit_scan.scan_rows([execute(audit_scan.select_sql("postgresql"), (lo, hi))], expected_seq, expected_hash)


@pytest.fixture
def chain(db, admin, monkeypatch):
    """A chain of N events with awkward text (quotes, backslashes, control characters, non-ASCII),
    checked in chunks of CHUNK events; the append-only triggers dropped (the forger's first step)."""
    monkeypatch.setattr(audit, "CHUNK_EVENTS", CHUNK)
    actor = Actor(1, "admin", "管理员", "admin")
    with db.session() as s:
        for i in range(N - 2):
            append_event(s, actor, request_id=f"r{i}", action="test.event", object_type="test", object_id=i,
                         object_label=["plain", "引号\"与\\反斜杠", "tab\tnl\ncr\r", "ctl\x01\x1f\x7f", None][i % 5],
                         before={"n": i, "s": "a\"b\\c\nd"} if i % 3 else None, after={"n": i + 1},
                         reason=None if i % 4 else f"理由 {i}\u2028")
        s.commit()
    drop_triggers(db)
    return db


def _verdicts(db, monkeypatch, **kw):
    """(fast, exact) results of the whole chain, serially (one connection)."""
    with db.session() as s:
        fast = verify_audit_chain(s, workers=1, **kw)
    with monkeypatch.context() as m:
        m.setattr(audit, "scan_sqlite", _exact_sqlite)
        m.setattr(audit, "scan_pg", _exact_pg)
        with db.session() as s:
            exact = verify_audit_chain(s, workers=1, **kw)
    return fast, exact


def _sql(db, *statements, **params):
    with db.engine.begin() as c:
        for st in statements:
            c.execute(text(st), params)


def test_a_sound_chain_with_awkward_text(chain, monkeypatch):
    fast, exact = _verdicts(chain, monkeypatch)
    assert fast == exact and fast.ok and fast.count == N


@pytest.mark.parametrize("seq", [1, 2, CHUNK, CHUNK + 1, 2 * CHUNK + 2, N - 1, N])
@pytest.mark.parametrize("tamper", [
    "UPDATE audit_event SET object_label = 'forged' WHERE seq = {s}",
    "UPDATE audit_event SET reason = 'line\nbreak' WHERE seq = {s}",
    "DELETE FROM audit_event WHERE seq = {s}",
    "UPDATE audit_event SET prev_hash = '{f}' WHERE seq = {s}",
    "UPDATE audit_event SET hash = substr(hash, 1, 63) || ',' WHERE seq = {s}",
])
def test_every_tampering_is_named_as_the_exact_path_names_it(chain, monkeypatch, tamper, seq):
    _sql(chain, tamper.format(s=seq, f="f" * 64))
    fast, exact = _verdicts(chain, monkeypatch)
    assert fast == exact
    assert not fast.ok


@pytest.mark.parametrize("seq", [CHUNK, CHUNK + 1])
def test_the_checkpoint_is_checked_inside_a_chunk(chain, monkeypatch, seq):
    with chain.engine.connect() as c:
        h = c.execute(text("SELECT hash FROM audit_event WHERE seq = :s"), {"s": seq}).scalar_one()
    for head in (f"{seq}:{h}", f"{seq}:{'0' * 64}", f"{N + 3}:{h}"):
        fast, exact = _verdicts(chain, monkeypatch, expect_head=head)
        assert fast == exact
    assert _verdicts(chain, monkeypatch, expect_head=f"{seq}:{h}")[0].ok


def test_a_range_verifies_alike(chain, monkeypatch):
    _sql(chain, "UPDATE audit_event SET object_label = 'forged' WHERE seq = 11")
    for a, b in ((3, 9), (5, 15), (12, 22)):
        with chain.session() as s:
            fast = verify_audit_range(s, a, b)
        with monkeypatch.context() as m:
            m.setattr(audit, "scan_sqlite", _exact_sqlite)
            m.setattr(audit, "scan_pg", _exact_pg)
            with chain.session() as s:
                exact = verify_audit_range(s, a, b)
        assert fast == exact
        assert fast.ok == (not a <= 11 <= b)


def _rehash_last(db, payload_sql: str):
    """The forger's step: the last event's hash becomes the SHA-256 of `payload_sql` (a payload the
    database builds), and the head follows, so that only the payload's bytes can tell."""
    with db.engine.begin() as c:
        seq = c.execute(text("SELECT max(seq) FROM audit_event")).scalar_one()
        payload = c.execute(text(f"SELECT {payload_sql} FROM audit_event WHERE seq = :s"), {"s": seq}).scalar_one()
        h = hashlib.sha256(bytes(payload)).hexdigest()
        c.execute(text("UPDATE audit_event SET hash = :h WHERE seq = :s"), {"h": h, "s": seq})
        c.execute(text("UPDATE audit_head SET hash = :h WHERE id = 1"), {"h": h})


def _careless_sqlite_payload(ts: str) -> str:
    """json_object without the shape checks of app.audit.scan._sqlite_payload."""
    args = ", ".join(f"'{f}', " + (ts if f == "ts" else f'"{f}"') for f in audit_scan.SORTED_FIELDS)
    return f"CAST(json_object({args}) AS BLOB)"


def test_a_forged_hash_of_a_differently_serialised_payload_is_refused(chain, monkeypatch):
    """Each forgery makes the database build a payload hash_payload would not (a ts in another shape,
    a REAL actor_id on SQLite, a prev_hash that needs escaping on PostgreSQL) and stores its hash:
    the exact path calls the event altered, and so must the fast one."""
    if chain.is_sqlite:
        forgeries = [
            ("UPDATE audit_event SET ts = substr(ts, 1, 24) WHERE seq = (SELECT max(seq) FROM audit_event)",
             _careless_sqlite_payload("replace(ts, ' ', 'T') || 'Z'")),
            ("UPDATE audit_event SET actor_id = 1e20 WHERE seq = (SELECT max(seq) FROM audit_event)",
             _careless_sqlite_payload("substr(ts, 1, 10) || 'T' || substr(ts, 12) || 'Z'")),
        ]
    else:
        forgeries = [("UPDATE audit_event SET prev_hash = 'f\"' || substr(prev_hash, 3) "
                      "WHERE seq = (SELECT max(seq) FROM audit_event)", audit_scan.pg_payload())]
    for tamper, payload_sql in forgeries:
        _sql(chain, tamper)
        _rehash_last(chain, payload_sql)
        fast, exact = _verdicts(chain, monkeypatch)
        assert fast == exact
        assert not fast.ok and fast.bad_seq == N and "altered" in fast.problem, fast


def test_an_event_rewritten_and_rehashed_by_the_rule_verifies(chain, monkeypatch):
    """The converse: a forger who hashes by the one definition (hash_payload) makes a consistent
    chain, and both paths say so (the remembered head and reconcile catch that: test_tamper.py)."""
    with chain.engine.begin() as c:
        row = c.execute(text("SELECT * FROM audit_event WHERE seq = :s"), {"s": N}).mappings().one()
        fields = dict(row)
        fields["reason"] = "rewritten\nwith a line break"
        ts = dt.datetime.fromisoformat(fields["ts"]) if isinstance(fields["ts"], str) else fields["ts"]
        fields["ts"] = ts.replace(tzinfo=dt.timezone.utc) if ts.tzinfo is None else ts
        h = event_hash(fields)
        c.execute(text("UPDATE audit_event SET reason = :r, hash = :h WHERE seq = :s"),
                  {"r": fields["reason"], "h": h, "s": N})
        c.execute(text("UPDATE audit_head SET hash = :h WHERE id = 1"), {"h": h})
    fast, exact = _verdicts(chain, monkeypatch)
    assert fast == exact and fast.ok
