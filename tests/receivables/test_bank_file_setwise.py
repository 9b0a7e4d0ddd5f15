"""The bank-file import allocates set-wise (issue 26) and must allocate exactly as the one-at-a-time
rules do (record_payment: each receipt oldest due first, then the older month, after the receipts
before it). SQLite and PostgreSQL.

Three customers, six billed months with different payment terms, the first customer's shortened
from 60 days to 0 in September (so its September falls due before its August),
one statement partly credited and one partly settled by a deposit. A generated file of 120 receipts
(seeded: full, partial, over- and under-payments, customers named by code or name, receipts for a
customer with nothing open). Pass 1 records each row with record_payment, one at a time, and
reverses every receipt (the open amounts are back where they were); pass 2 imports the same rows
under new bank references. Row by row, the allocations and what is left must be the same.
"""
from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal as D

from sqlalchemy import event, func, select

from app.services import billing as BS
from app.services import receivables as R
from app.services.receivables import deposits as DP
from models import AuditEvent, Customer, Payment, PaymentAllocation, Statement
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

RECEIVED = dt.date(2026, 11, 20)


def _world(db, admin, manager):
    w = make_world(db, n_customers=3)
    with db.session() as s:
        ids = list(s.execute(select(Customer.id).order_by(Customer.id)).scalars())
    terms = {ids[0]: 60, ids[1]: 0, ids[2]: 45}
    prices = {ids[0]: ("1000", "2500"), ids[1]: ("700",), ids[2]: ("1800",)}
    rack, numbers = 1, {}
    for cid in ids:
        items = []
        for price in prices[cid]:
            items.append(rack_item(w, rack, price))
            rack += 1
        c = signed(db, manager, admin, w, items, dt.date(2026, 6, 1), dt.date(2027, 5, 31), customer_id=cid)
        R.set_payment_terms(db, manager, c.number, terms[cid])
        numbers[cid] = c.number
    for month in range(6, 12):  # June to November, each issued on the 1st of the next month
        if month == 9:  # the first customer's terms shorten: September falls due before August
            R.set_payment_terms(db, manager, numbers[ids[0]], 0)
        BS.run_billing(db, admin, f"2026-{month:02d}", issue=True, as_of=cst(2026, month + 1, 1, 9))
    sts = [s for s in BS.list_statements(db) if s.kind == "statement"]
    line = BS.get_statement(db, sts[1].number).lines[0]
    BS.credit_statement(db, admin, sts[1].number, "part of the month credited", line_ids=[line.id], amount="300")
    with db.session() as s:
        code = s.get(Customer, ids[2]).credit_code
    DP.receive_deposit(db, admin, code, "500", on_date=RECEIVED)
    DP.apply_deposit(db, admin, [s for s in sts if s.customer_id == ids[2]][0].number)
    return ids, sts


def _rows(db, ids, sts, n=120):
    rng = random.Random(26)
    with db.session() as s:
        who = {c.id: (c.credit_code, c.name) for c in s.execute(select(Customer).where(Customer.id.in_(ids))).scalars()}
    totals = [st.total for st in sts]
    rows = []
    for k in range(n):
        cid = rng.choice(ids)
        kind = rng.random()
        if kind < 0.2:
            amount = rng.choice(totals)                       # a statement's total
        elif kind < 0.9:
            amount = D(rng.randrange(1, 150000)) / 100        # any amount to the fen
        else:
            amount = rng.choice(totals) * 3                   # more than is open: the rest is credit
        rows.append({"客户": who[cid][k % 2], "到账日期": (RECEIVED - dt.timedelta(days=k % 9)).isoformat(),
                     "金额": f"{amount:,.2f}", "流水号": f"BF{k:04d}", "付款方式": "transfer"})
    return rows


def test_set_wise_import_allocates_as_one_receipt_at_a_time(db, admin, manager):
    ids, sts = _world(db, admin, manager)
    rows = _rows(db, ids, sts)
    one_by_one = []
    for r in rows:
        p = R.record_payment(db, admin, r["客户"], r["金额"], r["到账日期"], r["流水号"])
        one_by_one.append((p.amount, p.allocations, p.unallocated))
    assert sum(len(a) for _x, a, _y in one_by_one) > 25, "the file must exercise allocation"
    assert any(u > 0 for _x, _a, u in one_by_one) and any(u == 0 for _x, _a, u in one_by_one)
    for r in rows:
        R.reverse_payment(db, admin, r["流水号"], "test: back to the open amounts before the file")
    with db.session() as s:
        before_events = s.execute(select(func.max(AuditEvent.seq))).scalar()

    statements = []

    def count(*_a, **_k):
        statements.append(1)
    event.listen(db.engine, "before_cursor_execute", count)
    try:
        imported = R.import_payments(db, admin, [dict(r, 流水号="X" + r["流水号"]) for r in rows])
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    set_wise = [(p.amount, p.allocations, p.unallocated) for p in imported.payments]
    assert set_wise == one_by_one
    # set-wise: a few statements for the whole file, not a dozen a receipt
    assert len(statements) < len(rows), len(statements)
    # what was stored agrees with what was returned, and each receipt has its audit event
    with db.session() as s:
        stored = {}
        for ref, number, amount in s.execute(
                select(Payment.bank_ref, Statement.number, PaymentAllocation.amount)
                .join(PaymentAllocation, PaymentAllocation.payment_id == Payment.id)
                .join(Statement, Statement.id == PaymentAllocation.statement_id)
                .where(Payment.bank_ref.like("XBF%")).order_by(PaymentAllocation.id)):
            stored.setdefault(ref, []).append((number, D(amount)))
        events = s.execute(select(AuditEvent.action, AuditEvent.object_label).where(
            AuditEvent.seq > before_events).order_by(AuditEvent.seq)).all()
    assert stored == {f"X{r['流水号']}": list(a) for r, (_x, a, _y) in zip(rows, one_by_one) if a}
    assert [e.action for e in events] == ["payment.add"] * len(rows) + ["payment.import"]
    assert [e.object_label for e in events[:-1]] == [f"X{r['流水号']}" for r in rows]
