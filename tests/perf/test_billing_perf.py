"""The billing run reads a month in a handful of set-based queries, whatever the number of contracts.

The figures themselves are checked by the worked examples in test_billing.py; here: the number of
SQL statements does not grow with contracts, leases, downtime or meter readings; chunked IN lists
give the same result as one; a real run writes what the dry run showed, in batches.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from sqlalchemy import event

from app.services import billing as BS
from models.choices import PriceUnit
from tests.billing.test_billing_world import add_readings, cst, gpu_item, make_world, rack_item, signed

D = Decimal
NOW = cst(2026, 11, 29, 12)


class Count:
    def __init__(self, db):
        self.db, self.n, self.line_inserts = db, 0, 0

    def _on(self, conn, cursor, statement, *args):
        self.n += 1
        self.line_inserts += statement.lstrip().startswith("INSERT INTO statement_line")

    def __enter__(self):
        event.listen(self.db.engine, "before_cursor_execute", self._on)
        return self

    def __exit__(self, *exc):
        event.remove(self.db.engine, "before_cursor_execute", self._on)


def _contract(db, admin, manager, w, k: int):
    """Contract k: GPU k by the hour (down 3 h on 10 Oct), GPU 10+k by the month (down 1 day), rack k with
    an allowance and meter readings, for customer k % 2."""
    items = [gpu_item(w, [k], "20"), gpu_item(w, [10 + k], "31000", PriceUnit.MONTH),
             rack_item(w, k, "6000", power_allowance_kw=D("1"), kwh_price=D("1.2"))]
    signed(db, manager, admin, w, items, dt.date(2026, 9, 20), dt.date(2027, 9, 19),
           customer_id=w.customer_id if k % 2 else w.other_customer_id)
    BS.record_downtime(db, admin, gpu_id=w.gpu_ids[k - 1], start=cst(2026, 10, 10, 8), end=cst(2026, 10, 10, 11),
                       reason=f"GPU {k} 掉卡")
    BS.record_downtime(db, admin, gpu_id=w.gpu_ids[9 + k], start=cst(2026, 10, 5), end=cst(2026, 10, 6),
                       reason="过热")
    add_readings(db, w.rack_ids[k - 1], [(cst(2026, 9, 30) + dt.timedelta(days=d), str(1000 + 30 * d * k))
                                         for d in range(0, 33)])


def _dry(db, admin):
    with Count(db) as c:
        out = BS.run_billing(db, admin, "2026-10", dry_run=True, as_of=NOW)
    return out, c.n


def test_query_count_does_not_grow_with_contracts(db, admin, manager):
    w = make_world(db, n_racks=6, n_gpus=20)
    for k in (1, 2, 3):
        _contract(db, admin, manager, w, k)
    three, q3 = _dry(db, admin)
    for k in (4, 5, 6):
        _contract(db, admin, manager, w, k)
    six, q6 = _dry(db, admin)
    # usage, downtime credit; monthly fee, downtime credit; rack fee, power overage
    assert (three.lines_created, six.lines_created) == (3 * 6, 6 * 6)
    # 16: one constant query more than before for the amendments whose months must be run again
    # (billing.run.months_to_rebill, the run's warning); 17: one more for the period's approved SLA
    # credits (services/operations/credits.approved_credits); the count still does not grow with contracts
    assert q3 == q6 <= 17, (q3, q6)


def test_chunked_in_lists_give_the_same_run(db, admin, manager, monkeypatch):
    w = make_world(db, n_racks=6, n_gpus=20)
    for k in (1, 2, 3, 4, 5):
        _contract(db, admin, manager, w, k)
    whole, _ = _dry(db, admin)
    monkeypatch.setattr(BS.statements, "IN_CHUNK", 2)
    chunked, q = _dry(db, admin)
    assert chunked == whole
    assert any(ln.charge == "credit" and "掉卡" in ln.note for st in whole.statements for ln in st.lines)
    assert any(ln.charge == "power" for st in whole.statements for ln in st.lines)


def _strip(st):
    return (st.subsidiary_id, st.customer_id, st.subtotal, st.tax, st.total,
            [dataclasses.replace(ln, id=None) for ln in st.lines])


def test_real_run_writes_what_the_dry_run_showed_in_batches(db, admin, manager):
    w = make_world(db, n_racks=6, n_gpus=20)
    for k in (1, 2, 3, 4):
        _contract(db, admin, manager, w, k)
    dry, _ = _dry(db, admin)
    with Count(db) as c:
        real = BS.run_billing(db, admin, "2026-10", as_of=NOW)
    assert [_strip(st) for st in real.statements] == [_strip(st) for st in dry.statements]
    assert all(st.version == 2 and all(ln.id for ln in st.lines) for st in real.statements)
    # reads, counters, one flush of the statements, and three statements per audit event (the chain is
    # serial); the lines go in one batched INSERT … RETURNING (SQLite: one execute per row on one cursor)
    assert c.n - c.line_inserts <= 30 + 3 * (len(real.statements) + 1), (c.n, c.line_inserts)
    assert 1 <= c.line_inserts <= dry.lines_created
    # as get_statement shows it
    for st in real.statements:
        assert _strip(BS.get_statement(db, st.id)) == _strip(st)
    again = BS.run_billing(db, admin, "2026-10", as_of=NOW)
    assert (again.lines_created, again.skipped_existing) == (0, dry.lines_created)
