"""Overdue customers as suspension proposals, and the decisions people take on them.

A customer with an amount overdue more than N days (the installation setting
`overdue_suspension_days`, app/services/settings.py) is proposed for suspension. Nothing is
suspended automatically: a person decides "suspend" or "keep" with a reason, and the decision is
recorded and audited (the suspension itself is the contract's own audited action). A proposal
shows the last decision taken on the customer, if any.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_today
from app.domain.errors import RuleViolation, ValidationError
from app.read.settings import OVERDUE_SUSPENSION_DAYS
from app.services.receivables.aging import overdue_customers
from app.services.receivables.lookups import find_customer
from app.services.settings import get_setting
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Customer, OverdueDecision

DECISIONS = ("suspend", "keep")


@dataclass(frozen=True)
class Proposal:
    customer_id: int
    customer: str
    amount: Decimal      # overdue more than the threshold
    days: int            # the oldest overdue statement's days past due
    decision: str | None  # the last decision taken, if any
    decided_at: dt.datetime | None
    decided_by: str | None
    reason: str | None


def threshold(db: Database) -> int:
    return int(get_setting(db, OVERDUE_SUSPENSION_DAYS))


def proposals(db: Database, days: int | None = None, as_of: dt.date | None = None) -> list[Proposal]:
    """Customers overdue more than `days` (default: the setting), oldest first, with their last decision."""
    days = threshold(db) if days is None else days
    rows = overdue_customers(db, days, as_of)
    with db.session() as s:
        ids = dict(s.execute(select(Customer.name, Customer.id).where(Customer.name.in_([r[0] for r in rows] or [""])))
                   .all())
        last = {}
        if ids:
            newest = (select(OverdueDecision.customer_id, func.max(OverdueDecision.id).label("id"))
                      .where(OverdueDecision.customer_id.in_(list(ids.values())))
                      .group_by(OverdueDecision.customer_id).subquery())
            for d in s.execute(select(OverdueDecision).join(newest, newest.c.id == OverdueDecision.id)).scalars():
                last[d.customer_id] = d
        out = []
        for name, amount, late in rows:
            cid = ids[name]
            d = last.get(cid)
            out.append(Proposal(cid, name, amount, late, d.decision if d else None, d.decided_at if d else None,
                                d.decided_by if d else None, d.reason if d else None))
        return out


def decide(db: Database, actor: Actor, customer: str | int, decision: str, reason: str,
           as_of: dt.date | None = None) -> Proposal:
    """Record a person's decision on a customer's suspension proposal (audited)."""
    require(actor, "run_billing")
    decision = (decision or "").strip().lower()
    errors = {}
    if decision not in DECISIONS:
        errors["decision"] = "suspend or keep"
    if not (reason or "").strip():
        errors["reason"] = "say why (e.g. payment promised by the 15th)"
    if errors:
        raise ValidationError(errors)
    days = threshold(db)
    with db.session() as s:
        c = find_customer(s, customer)
        cid, name = c.id, c.name
    found = [p for p in proposals(db, days, as_of) if p.customer_id == cid]
    if not found:
        raise RuleViolation(f"{name} is not overdue more than {days} days; there is no proposal to decide")
    p = found[0]
    with UnitOfWork(db, actor) as uow:
        d = OverdueDecision(customer_id=cid, decision=decision, reason=reason.strip(), overdue_amount=p.amount,
                            overdue_days=p.days, decided_by=uow.actor.login)
        uow.session.add(d)
        uow.session.flush()
        uow.audit("customer.overdue_decision", "customer", cid, name, reason=reason.strip(),
                  after={"decision": decision, "overdue_amount": p.amount, "overdue_days": p.days,
                         "threshold_days": days, "as_of": as_of or local_today()})
        uow.commit()
        return Proposal(cid, name, p.amount, p.days, decision, d.decided_at, d.decided_by, d.reason)
