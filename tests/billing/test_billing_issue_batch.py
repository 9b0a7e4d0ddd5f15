"""Issuing in batches: a few transactions for many statements, numbers gapless and in the order
one-by-one issuing gave, one move of the audit head per batch, an interrupted issue completed by
issuing again (on SQLite and PostgreSQL)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import event, select

from app.audit.trail import verify_audit_chain
from app.services import billing as BS
from app.services.billing import issue as issue_module
from models import AuditEvent, Customer, Statement
from models.choices import StatementStatus
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

NOW = cst(2026, 12, 1, 9)
N = 7


def _drafts(db, admin, manager, n=N):
    w = make_world(db, n_racks=n, n_customers=n)
    with db.session() as s:
        customers = list(s.execute(select(Customer.id).order_by(Customer.id)).scalars())
    for k, cid in enumerate(customers[:n], start=1):
        signed(db, manager, admin, w, [rack_item(w, k, str(1000 * k))], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
               customer_id=cid)
    run = BS.run_billing(db, admin, "2026-10", as_of=NOW)
    assert run.statements_created == n
    return run


class Statements:
    """Counts moves of the audit head and COMMITs while issuing: an UPDATE of audit_head, or on
    PostgreSQL with the owner's functions (migration 0016) one audit_append call, which moves it once."""

    def __init__(self, db):
        self.db, self.head_updates, self.commits = db, 0, 0

    def _sql(self, conn, cursor, statement, *args):
        s = statement.lstrip().upper()
        self.head_updates += s.startswith("UPDATE AUDIT_HEAD") + 2 * s.startswith("SELECT AUDIT_APPEND(")

    def _commit(self, conn):
        self.commits += 1

    def __enter__(self):
        event.listen(self.db.engine, "before_cursor_execute", self._sql)
        event.listen(self.db.engine, "commit", self._commit)
        return self

    def __exit__(self, *exc):
        event.remove(self.db.engine, "before_cursor_execute", self._sql)
        event.remove(self.db.engine, "commit", self._commit)


def test_issue_numbers_a_period_in_batches_gaplessly(db, admin, manager, monkeypatch):
    run = _drafts(db, admin, manager)
    monkeypatch.setattr(issue_module, "ISSUE_BATCH", 3)
    with Statements(db) as c:
        result = BS.issue_statements(db, admin, period="2026-10")
    # 7 statements in batches of 3: three transactions, each moving the audit head once (counted as its
    # two UPDATEs, seq then hash, where the client writes the head itself)
    assert c.commits == 3 and c.head_updates == 3 * 2, (c.commits, c.head_updates)
    assert [n for _i, n, _t in result.issued] == [f"GZ-202610-{i:06d}" for i in range(1, N + 1)]
    # numbered in the order subsidiary, customer, id (as one-by-one issuing numbered them)
    by_customer = sorted(run.statements, key=lambda st: (st.subsidiary_id, st.customer_id, st.id))
    assert [i for i, _n, _t in result.issued] == [st.id for st in by_customer]
    for (sid, number, total), st in zip(result.issued, by_customer):
        assert total == st.total
        got = BS.get_statement(db, sid)
        assert (got.number, got.status, got.total, got.version) == (number, StatementStatus.ISSUED, st.total,
                                                                    st.version + 1)
        assert got.issued_at is not None
    with db.session() as s:
        events = s.execute(select(AuditEvent.object_id, AuditEvent.object_label).where(
            AuditEvent.action == "statement.issue").order_by(AuditEvent.seq)).all()
        assert [(int(o), lbl) for o, lbl in events] == [(i, n) for i, n, _t in result.issued]
        assert verify_audit_chain(s).ok


def test_issue_sets_each_due_date_from_the_terms(db, admin, manager, monkeypatch):
    from app.services.receivables import set_payment_terms

    run = _drafts(db, admin, manager, n=3)
    numbers = {st.id: st.lines[0].contract_number for st in run.statements}
    first = sorted(numbers)[0]
    set_payment_terms(db, admin, numbers[first], 0, "预付")
    monkeypatch.setattr(issue_module, "ISSUE_BATCH", 2)
    BS.issue_statements(db, admin, period="2026-10")
    with db.session() as s:
        rows = dict(s.execute(select(Statement.id, Statement.due_date)).all())
        issued = dict(s.execute(select(Statement.id, Statement.issued_at)).all())
    from app.domain.rating import local_date
    for sid, due in rows.items():
        assert due == local_date(issued[sid]) + dt.timedelta(days=0 if sid == first else 30), sid


def test_an_interrupted_issue_is_completed_without_a_gap(db, admin, manager, monkeypatch):
    _drafts(db, admin, manager)
    monkeypatch.setattr(issue_module, "ISSUE_BATCH", 2)
    calls = []

    def stop_after_first_batch():
        calls.append(1)
        return len(calls) > 1  # the first batch commits, then the issuer is stopped (as a crash would)
    part = BS.issue_statements(db, admin, period="2026-10", cancelled=stop_after_first_batch)
    assert part.cancelled and [n for _i, n, _t in part.issued] == ["GZ-202610-000001", "GZ-202610-000002"]
    assert BS.pending_drafts(db, "2026-10") == N - 2
    rest = BS.run_billing(db, admin, "2026-10", as_of=NOW, issue=True)
    assert rest.lines_created == 0 and rest.pending_drafts == 0
    assert list(rest.issued) == [f"GZ-202610-{i:06d}" for i in range(3, N + 1)]
    with db.session() as s:
        assert verify_audit_chain(s).ok
