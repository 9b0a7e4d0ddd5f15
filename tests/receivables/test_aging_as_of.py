"""Aging as of a past date is historical (SQLite and PostgreSQL): it counts what was issued,
received and allocated by the end of that day (Asia/Shanghai), so a month-end aging can be
reproduced later.

The books (setup writes rows with their real dates; each statement 3,300.00 + 198.00 VAT):

| when (Shanghai)    | what                                                        |
|--------------------|-------------------------------------------------------------|
| 1 Nov 09:00        | S-OCT issued, 3,498.00, due 1 Dec                            |
| 10 Nov             | P1 received and allocated to S-OCT, 1,000.00                 |
| 14 Nov (entered 1 Dec) | P0 received 14 Nov, recorded on 1 Dec, 200.00 unallocated |
| 2 Dec 09:00        | S-NOV issued, 3,498.00, due 1 Jan                            |
| 3 Dec              | P2 received and allocated to S-OCT, 2,398.00                 |
| 4 Dec              | a deposit of 500.00 applied to S-NOV                         |
| 5 Dec              | a credit note of −100.00 against S-OCT                       |

| as of  | S-OCT open                              | S-NOV open           | credit | total  |
|--------|-----------------------------------------|----------------------|--------|--------|
| 15 Nov | 3,498 − 1,000 = 2,498.00 (not yet due)  | not issued yet       | 0.00   | 2,498.00 |
| 31 Dec | 3,498 − 1,000 − 2,398 − 100 = 0.00      | 3,498 − 500 = 2,998.00 (not yet due) | 200.00 | 2,998.00 |
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from app.services import receivables as R
from models import Customer, DepositEntry, Payment, PaymentAllocation, Statement
from models.choices import StatementKind, StatementStatus
from tests.billing.test_billing_world import cst, make_world


def _books(db, undated: bool = False):
    w = make_world(db)
    utc = dt.timezone.utc
    with db.session() as s:
        def statement(number, period, issued, due, total, **kw):
            st = Statement(number=number, kind=kw.pop("kind", StatementKind.STATEMENT), subsidiary_id=w.subsidiary_id,
                           customer_id=w.customer_id, period=period, status=StatementStatus.ISSUED,
                           subtotal=total, tax=D("0"), total=total, issued_at=issued.astimezone(utc), due_date=due,
                           created_at=issued.astimezone(utc), **kw)
            s.add(st)
            s.flush()
            return st

        def payment(ref, received, recorded, amount, to=None):
            p = Payment(customer_id=w.customer_id, received_on=received, amount=amount, bank_ref=ref,
                        created_at=recorded.astimezone(utc))
            s.add(p)
            s.flush()
            if to is not None:
                s.add(PaymentAllocation(payment_id=p.id, statement_id=to.id, amount=amount,
                                        created_at=recorded.astimezone(utc)))
        oct_ = statement("GZ-202610-000001", "2026-10", cst(2026, 11, 1, 9), dt.date(2026, 12, 1), D("3498.00"))
        payment("P1", dt.date(2026, 11, 10), cst(2026, 11, 10, 15), D("1000.00"), oct_)
        payment("P0", dt.date(2026, 11, 14), cst(2026, 12, 1, 10), D("200.00"))
        nov = statement("GZ-202611-000001", "2026-11", cst(2026, 12, 2, 9), dt.date(2027, 1, 1), D("3498.00"))
        payment("P2", dt.date(2026, 12, 3), cst(2026, 12, 3, 11), D("2398.00"), oct_)
        s.add(DepositEntry(customer_id=w.customer_id, kind="deposit", entry="apply", on_date=dt.date(2026, 12, 4),
                           amount=D("-500.00"), statement_id=nov.id, created_at=cst(2026, 12, 4, 10).astimezone(utc)))
        statement("GZ-CN-202612-000001", "2026-10", cst(2026, 12, 5, 10), dt.date(2026, 12, 5), D("-100.00"),
                  kind=StatementKind.CREDIT_NOTE, original_id=oct_.id)
        if undated:   # issued before due dates existed: due 30 days after issue (31 Oct), nothing paid
            statement("GZ-202609-000001", "2026-09", cst(2026, 10, 1, 9), None, D("1000.00"))
        s.commit()
    return w


def _figures(ag):
    return [(r.buckets["not_due"], r.total, r.credit) for r in ag.rows]


def test_aging_as_of_a_past_date_counts_only_what_was_issued_and_paid_by_then(db):
    _books(db)
    assert _figures(R.aging(db, dt.date(2026, 11, 15))) == [(D("2498.00"), D("2498.00"), D("0.00"))]
    assert _figures(R.aging(db, dt.date(2026, 12, 31))) == [(D("2998.00"), D("2998.00"), D("200.00"))]
    # the end of the day in Shanghai: S-NOV (2 Dec 09:00) is out on 1 Dec, in on 2 Dec
    assert R.aging(db, dt.date(2026, 12, 1)).rows[0].total == D("2498.00")
    assert R.aging(db, dt.date(2026, 12, 2)).rows[0].total == D("5996.00")
    # the open rows themselves, as of 15 November
    with db.session() as s:
        rows = R.open_statement_rows(s, as_of=dt.date(2026, 11, 15))
    assert [(r.number, r.total, r.credited, r.paid) for r in rows] == [
        ("GZ-202610-000001", D("3498.00"), D("0"), D("1000.00"))]


def test_overdue_reads_the_late_open_statements_alone_and_agrees_with_reading_them_all(db):
    """overdue_customers (the dashboard's overdue card) asks SQL for the statements due before a day that
    still ask an amount (R.open_late_rows); what it keeps is what reading every open row decides."""
    w = _books(db, undated=True)
    with db.session() as s:
        every = R.open_statement_rows(s)
        for as_of in (dt.date(2026, 10, 30), dt.date(2026, 10, 31), dt.date(2026, 11, 1), dt.date(2026, 12, 1),
                      dt.date(2026, 12, 2), dt.date(2027, 1, 1), dt.date(2027, 1, 2), dt.date(2027, 3, 1)):
            for days in (0, 1, 30, 31):
                def late(r):
                    return r.open > 0 and (as_of - R.effective_due(r.due_date, r.issued_at)).days > days
                got = [r for r in R.open_late_rows(s, as_of - dt.timedelta(days=days)) if late(r)]
                assert sorted(got, key=lambda r: r.id) == sorted(filter(late, every), key=lambda r: r.id), (as_of, days)
        name = s.get(Customer, w.customer_id).name
    # S-OCT is settled (1,000 + 2,398 paid, 100 credited); S-NOV asks 2,998 after its deposit, due 1 Jan;
    # the undated one 1,000, due 31 Oct
    assert R.overdue_customers(db, 0, dt.date(2027, 1, 2)) == [(name, D("3998.00"), 63)]
    assert R.overdue_customers(db, 30, dt.date(2027, 1, 2)) == [(name, D("1000.00"), 63)]
    assert R.overdue_customers(db, 0, dt.date(2026, 10, 31)) == []
    assert R.overdue_customers(db, 0, dt.date(2026, 11, 1)) == [(name, D("1000.00"), 1)]
