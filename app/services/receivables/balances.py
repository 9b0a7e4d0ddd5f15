"""Open amounts: what each issued statement still asks, what is left of a receipt, a customer's balance."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import and_, func, literal, null, or_, select, union_all
from sqlalchemy.orm import Session

from app.domain.clock import local_date, local_midnight, local_today
from app.domain.money import round_fen
from app.services.billing.statements import DEFAULT_TERM_DAYS
from app.services.receivables.lookups import find_customer
from app.store.db import Database
from models import Customer, DepositEntry, Payment, PaymentAllocation, Statement
from models.choices import StatementKind, StatementStatus

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class OpenRow:
    id: int
    number: str
    subsidiary_id: int
    customer_id: int
    issued_at: dt.datetime
    due_date: dt.date | None
    total: Decimal
    credited: Decimal  # the issued credit notes against it (negative)
    paid: Decimal      # the payments allocated to it (net of reversals)
    period: str = ""   # the month it bills (YYYY-MM)

    @property
    def open(self) -> Decimal:
        return round_fen(self.total + self.credited - self.paid)


def as_of_end(as_of: dt.date) -> dt.datetime:
    """The end of a Shanghai day (the next midnight): what was recorded by then counts as of that day."""
    return local_midnight(as_of + dt.timedelta(days=1))


def _issued(customer_id: int | None, end: dt.datetime | None) -> list:
    issued = [Statement.status == StatementStatus.ISSUED]
    if customer_id is not None:
        issued.append(Statement.customer_id == customer_id)
    if end is not None:
        issued.append(Statement.issued_at < end)
    return issued


def _credited_paid_applied(issued: list, customer_id: int | None, as_of: dt.date | None, end: dt.datetime | None):
    """Three grouped selects of (statement id, amount): the issued credit notes by original, the payments
    allocated, the deposits applied (negative: an application takes from the deposit)."""
    credited = (select(Statement.original_id.label("sid"), func.sum(Statement.total).label("amount"))
                .where(*issued, Statement.kind == StatementKind.CREDIT_NOTE, Statement.original_id.is_not(None))
                .group_by(Statement.original_id))
    pq = select(PaymentAllocation.statement_id.label("sid"), func.sum(PaymentAllocation.amount).label("amount"))
    if customer_id is not None or end is not None:
        pq = pq.join(Payment, Payment.id == PaymentAllocation.payment_id)
    if customer_id is not None:
        pq = pq.where(Payment.customer_id == customer_id)
    if end is not None:
        pq = pq.where(Payment.received_on <= as_of, Payment.created_at < end, PaymentAllocation.created_at < end)
    # deposits and prepayments applied to a statement count as paid on it (app/services/deposits.py)
    dq = (select(DepositEntry.statement_id.label("sid"), func.sum(DepositEntry.amount).label("amount"))
          .where(DepositEntry.entry == "apply"))
    if customer_id is not None:
        dq = dq.where(DepositEntry.customer_id == customer_id)
    if end is not None:
        dq = dq.where(DepositEntry.on_date <= as_of, DepositEntry.created_at < end)
    return credited, pq.group_by(PaymentAllocation.statement_id), dq.group_by(DepositEntry.statement_id)


_OPEN_COLUMNS = (Statement.id, Statement.number, Statement.subsidiary_id, Statement.customer_id, Statement.issued_at,
                 Statement.due_date, Statement.total, Statement.period)


def _open_row(r, credited, paid) -> OpenRow:
    return OpenRow(r.id, r.number, r.subsidiary_id, r.customer_id, r.issued_at, r.due_date, Decimal(r.total),
                   Decimal(credited), Decimal(paid), r.period)


def open_statement_rows(s: Session, customer_id: int | None = None, as_of: dt.date | None = None) -> list[OpenRow]:
    """Every issued statement (not credit notes) with what was credited and paid on it: three plain
    set-based queries (statements, credit notes by original, allocations by statement) joined in
    memory, so no planner can turn them into a nested loop over tens of thousands of rows.

    With `as_of` (a Shanghai date), the books as they stood at the end of that day: statements and
    credit notes issued by then, payments received on or before it and allocated by then, deposits
    applied on or before it (and recorded by then), so a month-end aging can be reproduced later."""
    end = as_of_end(as_of) if as_of is not None else None
    issued = _issued(customer_id, end)
    cq, pq, dq = _credited_paid_applied(issued, customer_id, as_of, end)
    credited = dict(s.execute(cq).all())
    paid = dict(s.execute(pq).all())
    for sid, amount in s.execute(dq).all():
        paid[sid] = Decimal(paid.get(sid, 0)) - Decimal(amount)
    return [_open_row(r, credited.get(r.id, 0), paid.get(r.id, 0))
            for r in s.execute(select(*_OPEN_COLUMNS).where(*issued, Statement.kind == StatementKind.STATEMENT))]


def open_late_rows(s: Session, due_before: dt.date) -> list[OpenRow]:
    """The issued statements due before `due_before` (a Shanghai date; effective_due) that still ask an
    amount, now: what open_statement_rows gives of them, the others left in the database (issue 26: the
    overdue card on the main window read all 31,627 statements of the large data into memory to keep a
    handful, 0.7-1.0 s of Python). One statement and no join: the late statements, the credit notes,
    the allocations and the deposits applied as signed rows of one UNION ALL, summed per statement (a
    join of those sums to the statements became a nested loop over them when the statistics were
    stale: 116 s). SQL is asked a superset (a day's slack on the undated, half a fen on SQLite's
    floating sums); the caller decides on the exact amounts and days, as with open_statement_rows."""
    issued = _issued(None, None)
    undated_before = local_midnight(due_before - dt.timedelta(days=DEFAULT_TERM_DAYS - 1))
    late = or_(Statement.due_date < due_before,
               and_(Statement.due_date.is_(None), Statement.issued_at < undated_before))
    zero, none = literal(0), null()
    branches = union_all(
        select(Statement.id.label("sid"), *_OPEN_COLUMNS[1:], zero.label("credited"), zero.label("paid"))
        .where(*issued, Statement.kind == StatementKind.STATEMENT, late),
        select(Statement.original_id, none, none, none, none, none, zero, none, Statement.total, zero)
        .where(*issued, Statement.kind == StatementKind.CREDIT_NOTE, Statement.original_id.is_not(None)),
        select(PaymentAllocation.statement_id, none, none, none, none, none, zero, none, zero, PaymentAllocation.amount),
        select(DepositEntry.statement_id, none, none, none, none, none, zero, none, zero, -DepositEntry.amount)
        .where(DepositEntry.entry == "apply")).subquery()
    c = branches.c
    total, credited, paid = func.sum(c.total), func.sum(c.credited), func.sum(c.paid)
    rows = s.execute(select(c.sid.label("id"), func.max(c.number).label("number"),
                            func.max(c.subsidiary_id).label("subsidiary_id"),
                            func.max(c.customer_id).label("customer_id"), func.max(c.issued_at).label("issued_at"),
                            func.max(c.due_date).label("due_date"), total.label("total"),
                            func.max(c.period).label("period"), credited.label("credited"), paid.label("paid"))
                     .group_by(c.sid)
                     .having(func.max(c.customer_id).is_not(None), total + credited - paid > Decimal("0.005")))
    return [_open_row(r, r.credited, r.paid) for r in rows]


def effective_due(due_date: dt.date | None, issued_at: dt.datetime | None) -> dt.date:
    """Statements issued before due dates existed are due 30 days after issue."""
    if due_date is not None:
        return due_date
    return local_date(issued_at) + dt.timedelta(days=DEFAULT_TERM_DAYS) if issued_at else local_today()


def statement_open_amount(s: Session, st: Statement) -> Decimal:
    credited = s.execute(select(func.coalesce(func.sum(Statement.total), 0)).where(
        Statement.original_id == st.id, Statement.kind == StatementKind.CREDIT_NOTE,
        Statement.status == StatementStatus.ISSUED)).scalar()
    paid = s.execute(select(func.coalesce(func.sum(PaymentAllocation.amount), 0))
                     .where(PaymentAllocation.statement_id == st.id)).scalar()
    applied = s.execute(select(func.coalesce(func.sum(DepositEntry.amount), 0))
                        .where(DepositEntry.statement_id == st.id, DepositEntry.entry == "apply")).scalar()
    return round_fen(Decimal(st.total) + Decimal(credited) - Decimal(paid) + Decimal(applied))


def payment_unallocated(s: Session, p: Payment) -> Decimal:
    """What is left of a receipt (net of its reversal, if any) to allocate."""
    if p.kind != "receipt":
        return ZERO
    rev = s.execute(select(Payment).where(Payment.reverses_id == p.id)).scalar_one_or_none()
    if rev is not None:
        return ZERO
    used = s.execute(select(func.coalesce(func.sum(PaymentAllocation.amount), 0))
                     .where(PaymentAllocation.payment_id == p.id)).scalar()
    return round_fen(Decimal(p.amount) - Decimal(used))


@dataclass(frozen=True)
class CustomerBalance:
    customer_id: int
    customer: str
    billed: Decimal       # issued statements, less credit notes
    received: Decimal     # receipts, less reversals
    balance: Decimal      # billed − received: owed by the customer (negative: in credit)
    open_statements: Decimal  # what the open statements still ask
    credit: Decimal       # payments not allocated to any statement (the customer's credit balance)
    deposits_applied: Decimal = ZERO  # deposits and prepayments applied to statements (settle like payments)


def customer_balance(db: Database, customer: str | int, *, as_of: dt.date | None = None) -> CustomerBalance:
    with db.session() as s:
        c = find_customer(s, customer)
        return _balance(s, c, as_of)


def _balance(s: Session, c: Customer, as_of: dt.date | None = None) -> CustomerBalance:
    q = select(func.coalesce(func.sum(Statement.total), 0)).where(
        Statement.customer_id == c.id, Statement.status == StatementStatus.ISSUED)
    pq = select(func.coalesce(func.sum(Payment.amount), 0)).where(Payment.customer_id == c.id)
    aq = (select(func.coalesce(func.sum(PaymentAllocation.amount), 0))
          .join(Payment, Payment.id == PaymentAllocation.payment_id).where(Payment.customer_id == c.id))
    billed = round_fen(Decimal(s.execute(q).scalar()))
    received = round_fen(Decimal(s.execute(pq).scalar()))
    allocated = round_fen(Decimal(s.execute(aq).scalar()))
    applied = -round_fen(Decimal(s.execute(select(func.coalesce(func.sum(DepositEntry.amount), 0)).where(
        DepositEntry.customer_id == c.id, DepositEntry.entry == "apply")).scalar()))
    open_total = ZERO
    for row in open_statement_rows(s, c.id):
        open_total += Decimal(row.total) + Decimal(row.credited) - Decimal(row.paid)
    return CustomerBalance(c.id, c.name, billed, received, billed - received - applied, round_fen(open_total),
                           received - allocated, applied)
