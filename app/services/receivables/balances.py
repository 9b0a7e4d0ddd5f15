"""Open amounts: what each issued statement still asks, what is left of a receipt, a customer's balance."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.domain.clock import local_date, local_today
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
    from app.domain.clock import local_midnight

    return local_midnight(as_of + dt.timedelta(days=1))


def open_statement_rows(s: Session, customer_id: int | None = None, as_of: dt.date | None = None) -> list[OpenRow]:
    """Every issued statement (not credit notes) with what was credited and paid on it: three plain
    set-based queries (statements, credit notes by original, allocations by statement) joined in
    memory, so no planner can turn them into a nested loop over tens of thousands of rows.

    With `as_of` (a Shanghai date), the books as they stood at the end of that day: statements and
    credit notes issued by then, payments received on or before it and allocated by then, deposits
    applied on or before it (and recorded by then), so a month-end aging can be reproduced later."""
    issued = [Statement.status == StatementStatus.ISSUED]
    if customer_id is not None:
        issued.append(Statement.customer_id == customer_id)
    end = as_of_end(as_of) if as_of is not None else None
    if end is not None:
        issued.append(Statement.issued_at < end)
    credited = dict(s.execute(
        select(Statement.original_id, func.sum(Statement.total))
        .where(*issued, Statement.kind == StatementKind.CREDIT_NOTE, Statement.original_id.is_not(None))
        .group_by(Statement.original_id)).all())
    pq = select(PaymentAllocation.statement_id, func.sum(PaymentAllocation.amount))
    if customer_id is not None or end is not None:
        pq = pq.join(Payment, Payment.id == PaymentAllocation.payment_id)
    if customer_id is not None:
        pq = pq.where(Payment.customer_id == customer_id)
    if end is not None:
        pq = pq.where(Payment.received_on <= as_of, Payment.created_at < end, PaymentAllocation.created_at < end)
    paid = dict(s.execute(pq.group_by(PaymentAllocation.statement_id)).all())
    # deposits and prepayments applied to a statement count as paid on it (app/services/deposits.py)
    dq = (select(DepositEntry.statement_id, func.sum(DepositEntry.amount))
          .where(DepositEntry.entry == "apply").group_by(DepositEntry.statement_id))
    if customer_id is not None:
        dq = dq.where(DepositEntry.customer_id == customer_id)
    if end is not None:
        dq = dq.where(DepositEntry.on_date <= as_of, DepositEntry.created_at < end)
    for sid, amount in s.execute(dq).all():
        paid[sid] = Decimal(paid.get(sid, 0)) - Decimal(amount)
    return [OpenRow(r.id, r.number, r.subsidiary_id, r.customer_id, r.issued_at, r.due_date, Decimal(r.total),
                    Decimal(credited.get(r.id, 0)), Decimal(paid.get(r.id, 0)), r.period)
            for r in s.execute(select(Statement.id, Statement.number, Statement.subsidiary_id, Statement.customer_id,
                                      Statement.issued_at, Statement.due_date, Statement.total, Statement.period)
                               .where(*issued, Statement.kind == StatementKind.STATEMENT))]


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
