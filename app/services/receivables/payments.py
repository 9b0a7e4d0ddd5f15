"""Bank receipts: recorded, allocated oldest due first or by hand, reversed by a counter-entry."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_today, parse_date
from app.domain.errors import RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.money import format_amount, round_fen
from app.services.receivables.balances import (
    effective_due,
    open_statement_rows,
    payment_unallocated,
    statement_open_amount,
)
from app.services.receivables.lookups import _find_statement, _money, find_customer, find_payment
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Customer, Payment, PaymentAllocation, Statement
from models.choices import PaymentMethod, StatementKind, StatementStatus

METHODS = tuple(PaymentMethod.values())  # transfer, cash, cheque, draft, other: labels on the ChoiceSet


@dataclass(frozen=True)
class PaymentInfo:
    id: int
    customer: str
    received_on: dt.date
    amount: Decimal
    bank_ref: str
    method: str
    allocations: tuple[tuple[str, Decimal], ...]  # (statement number, amount)
    unallocated: Decimal

    def describe(self) -> str:
        parts = [f"payment P{self.id} {self.bank_ref} {self.received_on} ¥{format_amount(self.amount)} "
                 f"from {self.customer}"]
        for number, amount in self.allocations:
            parts.append(f"  allocated ¥{format_amount(amount)} to {number}")
        if self.unallocated:
            parts.append(f"  ¥{format_amount(self.unallocated)} left as the customer's credit balance")
        return "\n".join(parts)


def _check_payment_fields(amount, received_on, bank_ref, method, payer) -> tuple[Decimal, dt.date, str, str, str | None]:
    errors: dict[str, str] = {}
    try:
        amount = _money(amount)
        if amount <= 0:
            errors["amount"] = "a receipt is a positive amount; a wrong one is reversed (payments reverse)"
    except ValidationError as exc:
        errors.update(exc.errors)
    try:
        received_on = parse_date(received_on)
    except DateError as exc:
        errors["date"] = message_of(exc)
    if not isinstance(received_on, dt.date) and "date" not in errors:
        errors["date"] = "the date the money arrived (YYYY-MM-DD)"
    elif isinstance(received_on, dt.date) and received_on > local_today():
        errors["date"] = f"{received_on} is in the future"
    bank_ref = (bank_ref or "").strip()
    if not bank_ref or len(bank_ref) > 64:
        errors["ref"] = "the bank reference (流水号) of 1 to 64 characters"
    method = (method or "transfer").strip().lower()
    if method not in METHODS:
        errors["method"] = f"method is one of {', '.join(METHODS)}, not {method!r}"
    payer = (payer or "").strip() or None
    if payer and len(payer) > 255:
        errors["payer"] = "the payer's name is at most 255 characters"
    if errors:
        raise ValidationError(errors)
    return amount, received_on, bank_ref, method, payer


def _allocate(uow: UnitOfWork, p: Payment, st: Statement, amount: Decimal) -> None:
    s = uow.session
    s.add(PaymentAllocation(payment_id=p.id, statement_id=st.id, amount=amount, created_by=uow.actor.login))
    s.flush()


def _allocate_oldest(uow: UnitOfWork, p: Payment) -> list[tuple[str, Decimal]]:
    s = uow.session
    left = payment_unallocated(s, p)
    done = []
    rows = [r for r in open_statement_rows(s, p.customer_id)
            if Decimal(r.total) + Decimal(r.credited) - Decimal(r.paid) > 0]
    # oldest due first; a tie (statements issued together) goes to the older month first
    rows.sort(key=lambda r: (effective_due(r.due_date, r.issued_at), r.period, r.issued_at, r.id))
    for r in rows:
        if left <= 0:
            break
        due = round_fen(Decimal(r.total) + Decimal(r.credited) - Decimal(r.paid))
        take = min(due, left)
        st = s.get(Statement, r.id)
        _allocate(uow, p, st, take)
        done.append((r.number, take))
        left -= take
    return done


def _info(s: Session, p: Payment) -> PaymentInfo:
    allocs = s.execute(select(Statement.number, PaymentAllocation.amount)
                       .join(Statement, Statement.id == PaymentAllocation.statement_id)
                       .where(PaymentAllocation.payment_id == p.id).order_by(PaymentAllocation.id)).all()
    cust = s.get(Customer, p.customer_id)
    return PaymentInfo(p.id, cust.name, p.received_on, Decimal(p.amount), p.bank_ref, p.method,
                       tuple((n, Decimal(a)) for n, a in allocs), payment_unallocated(s, p))


def _add(uow: UnitOfWork, c: Customer, amount, received_on, bank_ref, method, payer, allocate: bool) -> Payment:
    s = uow.session
    if s.execute(select(Payment.id).where(Payment.bank_ref == bank_ref, Payment.kind == "receipt")).first():
        raise RuleViolation(f"a receipt with the bank reference {bank_ref} is already recorded")
    p = Payment(customer_id=c.id, kind="receipt", received_on=received_on, amount=amount, payer=payer or c.name,
                bank_ref=bank_ref, method=method, created_by=uow.actor.login)
    s.add(p)
    s.flush()
    allocs = _allocate_oldest(uow, p) if allocate else []
    uow.audit("payment.add", "payment", p.id, bank_ref,
              after={"customer_id": c.id, "customer": c.name, "date": received_on, "amount": amount,
                     "payer": p.payer, "method": method,
                     "allocations": [{"statement": n, "amount": a} for n, a in allocs]})
    return p


def record_payment(db: Database, actor: Actor, customer: str | int, amount, received_on, bank_ref: str, *,
                   method: str = "transfer", payer: str | None = None, allocate: bool = True) -> PaymentInfo:
    """Record a bank receipt; by default allocate it to the customer's open statements, oldest due
    first. What is left is the customer's credit balance."""
    require(actor, "run_billing")
    amount, received_on, bank_ref, method, payer = _check_payment_fields(amount, received_on, bank_ref, method,
                                                                         payer)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = find_customer(s, customer)
        p = _add(uow, c, amount, received_on, bank_ref, method, payer, allocate)
        info = _info(s, p)
        uow.commit()
        return info


def allocate_payment(db: Database, actor: Actor, payment: str | int, statement: str | int,
                     amount=None) -> PaymentInfo:
    """Allocate (part of) what is left of a payment to one issued statement of the same customer."""
    require(actor, "run_billing")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        p = find_payment(s, payment, lock=True)
        if p.kind != "receipt" or s.execute(select(Payment.id).where(Payment.reverses_id == p.id)).first():
            raise RuleViolation(f"payment {p.bank_ref} was reversed; nothing of it can be allocated")
        st = _find_statement(s, statement, lock=True)
        if st.kind != StatementKind.STATEMENT or st.status != StatementStatus.ISSUED:
            raise RuleViolation(f"payments are allocated to issued statements; {st.number or st.id} is not one")
        if st.customer_id != p.customer_id:
            raise RuleViolation(f"statement {st.number} is another customer's; payment {p.bank_ref} is "
                                f"{s.get(Customer, p.customer_id).name}'s")
        left, due = payment_unallocated(s, p), statement_open_amount(s, st)
        if due <= 0:
            raise RuleViolation(f"statement {st.number} is settled; nothing is open on it")
        if left <= 0:
            raise RuleViolation(f"payment {p.bank_ref} is fully allocated")
        amount = min(left, due) if amount is None else _money(amount)
        if amount <= 0:
            raise ValidationError({"amount": "allocate a positive amount"})
        if amount > left:
            raise RuleViolation(f"payment {p.bank_ref} has ¥{format_amount(left)} left, not ¥{format_amount(amount)}")
        if amount > due:
            raise RuleViolation(f"statement {st.number} has ¥{format_amount(due)} open, not ¥{format_amount(amount)}; "
                                "the rest stays as the customer's credit balance")
        _allocate(uow, p, st, amount)
        uow.audit("payment.allocate", "payment", p.id, p.bank_ref,
                  after={"statement": st.number, "statement_id": st.id, "amount": amount})
        info = _info(s, p)
        uow.commit()
        return info


def reverse_payment(db: Database, actor: Actor, payment: str | int, reason: str) -> PaymentInfo:
    """Reverse a wrong receipt by a counter-entry: a reversal of the negated amount, and each of its
    allocations negated (the statements are open again). The receipt itself stays as it was."""
    require(actor, "run_billing")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the payment is reversed"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        p = find_payment(s, payment, lock=True)
        if p.kind != "receipt":
            raise RuleViolation("a reversal is not reversed; record the receipt again instead")
        if s.execute(select(Payment.id).where(Payment.reverses_id == p.id)).first():
            raise RuleViolation(f"payment {p.bank_ref} is already reversed")
        rev = Payment(customer_id=p.customer_id, kind="reversal", received_on=local_today(), amount=-p.amount,
                      payer=p.payer, bank_ref=p.bank_ref, method=p.method, reverses_id=p.id,
                      reason=reason.strip(), created_by=uow.actor.login)
        s.add(rev)
        s.flush()
        net = s.execute(select(PaymentAllocation.statement_id, func.sum(PaymentAllocation.amount))
                        .where(PaymentAllocation.payment_id == p.id)
                        .group_by(PaymentAllocation.statement_id)).all()
        undone = []
        for sid, amount in net:
            if Decimal(amount) != 0:
                s.add(PaymentAllocation(payment_id=rev.id, statement_id=sid, amount=-Decimal(amount),
                                        created_by=uow.actor.login))
                undone.append({"statement_id": sid, "amount": Decimal(amount)})
        s.flush()
        uow.audit("payment.reverse", "payment", p.id, p.bank_ref, reason=reason.strip(),
                  before={"amount": p.amount, "allocations": undone},
                  after={"reversal_id": rev.id, "amount": rev.amount})
        info = _info(s, p)
        uow.commit()
        return info
