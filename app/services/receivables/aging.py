"""Aging: open amounts bucketed by days overdue as the books stood at the end of a day; overdue customers."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select

from app.domain.clock import local_today
from app.domain.money import round_fen
from app.services.receivables.balances import ZERO, as_of_end, effective_due, open_late_rows, open_statement_rows
from app.store.db import Database
from models import Customer, Payment, PaymentAllocation, Subsidiary

BUCKETS = ("not_due", "d1_30", "d31_60", "d61_90", "over_90")
BUCKET_LABELS = {"not_due": ("未到期", "Not yet due"), "d1_30": ("逾期 1–30 天", "1–30 days overdue"),
                 "d31_60": ("逾期 31–60 天", "31–60 days overdue"), "d61_90": ("逾期 61–90 天", "61–90 days overdue"),
                 "over_90": ("逾期 90 天以上", "> 90 days overdue")}


def bucket_of(days_overdue: int) -> str:
    if days_overdue <= 0:
        return "not_due"
    if days_overdue <= 30:
        return "d1_30"
    if days_overdue <= 60:
        return "d31_60"
    if days_overdue <= 90:
        return "d61_90"
    return "over_90"


@dataclass(frozen=True)
class AgingRow:
    subsidiary: str
    customer: str
    customer_id: int
    buckets: dict[str, Decimal]
    credit: Decimal  # unallocated payments (shown, not netted into the buckets)

    @property
    def total(self) -> Decimal:
        return sum(self.buckets.values(), ZERO)


@dataclass(frozen=True)
class Aging:
    as_of: dt.date
    rows: tuple[AgingRow, ...]

    def totals(self) -> dict[str, Decimal]:
        out = {b: ZERO for b in BUCKETS}
        for r in self.rows:
            for b in BUCKETS:
                out[b] += r.buckets[b]
        return out


def aging(db: Database, as_of: dt.date | None = None) -> Aging:
    """Open amounts of issued statements by subsidiary and customer, bucketed by days overdue as of
    a date, as the books stood at the end of that day (open_statement_rows(as_of=)): a past date
    leaves out what was issued, received or allocated later. Set-based: one query for the open
    statements, one for the unallocated payments."""
    as_of = as_of or local_today()
    end = as_of_end(as_of)
    with db.session() as s:
        subs = dict(s.execute(select(Subsidiary.id, Subsidiary.code)).all())
        names: dict[int, str] = {}
        acc: dict[tuple[int, int], dict[str, Decimal]] = {}
        for r in open_statement_rows(s, as_of=as_of):
            open_amt = Decimal(r.total) + Decimal(r.credited) - Decimal(r.paid)
            if open_amt == 0:
                continue
            due = effective_due(r.due_date, r.issued_at)
            key = (r.subsidiary_id, r.customer_id)
            acc.setdefault(key, {b: ZERO for b in BUCKETS})[bucket_of((as_of - due).days)] += round_fen(open_amt)
        received = (Payment.received_on <= as_of, Payment.created_at < end)
        paid = dict(s.execute(select(Payment.customer_id, func.sum(Payment.amount)).where(*received)
                              .group_by(Payment.customer_id)).all())
        used = dict(s.execute(select(Payment.customer_id, func.sum(PaymentAllocation.amount))
                              .join(Payment, Payment.id == PaymentAllocation.payment_id)
                              .where(*received, PaymentAllocation.created_at < end)
                              .group_by(Payment.customer_id)).all())
        credit = {cid: round_fen(Decimal(v) - Decimal(used.get(cid, 0))) for cid, v in paid.items()}
        ids = {cid for _sub, cid in acc} | {cid for cid, v in credit.items() if v}
        if ids:
            names = dict(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(ids))).all())
        rows = [AgingRow(subs.get(sub, str(sub)), names[cid], cid, b, ZERO) for (sub, cid), b in acc.items()]
        # a credit balance is the customer's, shown on their first row (or a row of its own)
        seen: set[int] = set()
        out = []
        for r in sorted(rows, key=lambda r: (r.subsidiary, r.customer)):
            c = credit.get(r.customer_id, ZERO) if r.customer_id not in seen else ZERO
            seen.add(r.customer_id)
            out.append(AgingRow(r.subsidiary, r.customer, r.customer_id, r.buckets, c))
        for cid, c in sorted(credit.items()):
            if c and cid not in seen:
                out.append(AgingRow("", names[cid], cid, {b: ZERO for b in BUCKETS}, c))
        return Aging(as_of, tuple(out))


def overdue_customers(db: Database, days: int, as_of: dt.date | None = None) -> list[tuple[str, Decimal, int]]:
    """Customers with an amount overdue more than `days` days: (name, amount so overdue, oldest days).
    Suspension proposals: a person decides."""
    as_of = as_of or local_today()
    out: dict[int, list] = {}
    with db.session() as s:
        for r in open_late_rows(s, as_of - dt.timedelta(days=days)):   # late > days: due before then
            open_amt = round_fen(Decimal(r.total) + Decimal(r.credited) - Decimal(r.paid))
            late = (as_of - effective_due(r.due_date, r.issued_at)).days
            if open_amt > 0 and late > days:
                e = out.setdefault(r.customer_id, [ZERO, 0])
                e[0] += open_amt
                e[1] = max(e[1], late)
        names = dict(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(list(out)))).all()) if out else {}
    return sorted(((names[cid], a, d) for cid, (a, d) in out.items()), key=lambda t: (-t[2], t[0]))
