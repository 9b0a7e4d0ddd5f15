"""Receivables: payment terms and due dates, bank receipts, their allocation and reversal.

- A statement's due date is set when it is issued: the issue date (Asia/Shanghai) plus the payment
  term of its contracts (`Contract.payment_term_days`, default 30; the shortest when a statement
  bills several contracts; 0 for prepaid terms). A credit note is due on its issue date.
- A payment is a bank receipt of a customer. It is allocated to the customer's issued statements
  oldest due first (or by hand, in part); what is not allocated is the customer's credit balance
  and may be allocated later. A statement's open amount is its total, less its issued credit
  notes, less the payments allocated to it.
- Nothing is edited or deleted: a wrong payment is reversed by a counter-entry (a "reversal"
  payment of the negated amount, and negated allocations), with a reason. Every write is audited.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Iterable

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_date, local_today, parse_date
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.money import format_amount, round_fen
from app.domain.validators import money_field
from app.domain.wording import alternate, free_text
from app.services.billing.statements import DEFAULT_TERM_DAYS, find_statement
from app.store.db import Database
from app.store.tablefile import read_records
from app.store.uow import UnitOfWork
from models import Contract, Customer, DepositEntry, Payment, PaymentAllocation, Statement, Subsidiary
from models.choices import PaymentMethod, StatementKind, StatementStatus

METHODS = tuple(PaymentMethod.values())  # transfer, cash, cheque, draft, other: labels on the ChoiceSet
ZERO = Decimal("0.00")


def set_payment_terms(db: Database, actor: Actor, contract: str, days: int, wording: str | None = None) -> None:
    """Change a contract's payment terms (days after issue; wording as printed, e.g. 月结 30 天)."""
    require(actor, "draft_contracts")
    if not isinstance(days, int) or not 0 <= days <= 365:
        raise ValidationError({"payment_term_days": "payment terms are 0 to 365 days after the statement is issued"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = s.execute(select(Contract).where(Contract.number == contract)).scalar_one_or_none()
        if c is None:
            raise NotFound(f"there is no contract {contract}")
        before = {"payment_term_days": c.payment_term_days, "payment_terms": c.payment_terms}
        c.payment_term_days, c.payment_terms = days, (wording or "").strip() or None
        c.updated_by = uow.actor.login
        s.flush()
        uow.audit("contract.payment_terms", "contract", c.id, c.number, before=before,
                  after={"payment_term_days": days, "payment_terms": c.payment_terms})
        uow.commit()


# --------------------------------------------------------------------------- look-ups
def find_customer(s: Session, key: str | int) -> Customer:
    """A customer by id, unified social credit code or exact name (or a unique part of it)."""
    text = str(key).strip()
    if not text:
        raise ValidationError({"customer": "name the customer (credit code or name)"})
    if "\x00" in text:  # in no stored name (and PostgreSQL refuses it as a parameter)
        raise NotFound(f"there is no customer {text!r} (give the credit code or the name)")
    if text.isdigit():
        c = s.get(Customer, int(text))
        if c is not None:
            return c
    c = s.execute(select(Customer).where(or_(Customer.credit_code == text.upper(), Customer.name == text))
                  ).scalars().first()
    if c is not None:
        return c
    found = list(s.execute(select(Customer).where(Customer.name.contains(text)).limit(3)).scalars())
    if len(found) == 1:
        return found[0]
    if found:
        raise ValidationError({"customer": f"{text!r} names several customers ({', '.join(c.name for c in found)}…); "
                                           "give the credit code or the full name"})
    raise NotFound(f"there is no customer {text!r} (give the credit code or the name)")


def find_payment(s: Session, key: str | int, lock: bool = False) -> Payment:
    """A receipt by id (P12 or 12) or by its bank reference."""
    text = str(key).strip()
    q = select(Payment)
    digits = text[1:] if text[:1] in "Pp" else text
    cond = and_(Payment.bank_ref == text, Payment.kind == "receipt")
    if digits.isdigit():
        cond = or_(cond, Payment.id == int(digits))
    q = q.where(cond).order_by(Payment.id)
    if lock:
        q = q.with_for_update()
    p = s.execute(q).scalars().first()
    if p is None:
        raise NotFound(f"there is no payment {text!r} (give its id, e.g. P12, or its bank reference)")
    return p


def _find_statement(s: Session, key: str | int, lock: bool = False) -> Statement:
    return find_statement(s, key, lock=lock)


def _money(text, field: str = "amount") -> Decimal:
    """An amount to the fen typed by a person (the one rule: app.domain.validators.money_field)."""
    return money_field(text, field)


# --------------------------------------------------------------------------- open amounts
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


# --------------------------------------------------------------------------- payments
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


# --------------------------------------------------------------------------- import
IMPORT_COLUMNS = {"customer": ("customer", "客户", "付款单位"), "date": ("date", "日期", "到账日期"),
                  "amount": ("amount", "金额"), "ref": ("ref", "bank_ref", "流水号", "银行流水号"),
                  "payer": ("payer", "付款人", "付款户名"), "method": ("method", "方式", "付款方式")}


@dataclass(frozen=True)
class PaymentImport:
    payments: tuple[PaymentInfo, ...]

    @property
    def total(self) -> Decimal:
        return sum((p.amount for p in self.payments), ZERO)


def _read_rows(path: Path) -> list[dict]:
    return read_records(path)


def import_payments(db: Database, actor: Actor, source: str | Path | Iterable[dict]) -> PaymentImport:
    """Bank receipts from CSV or XLSX (columns customer, date, amount, ref, and optionally payer and
    method; Chinese headers as in a bank's export are understood). All rows or none: any bad row
    refuses the file with every row's error. Each receipt is allocated oldest due first."""
    require(actor, "run_billing")
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise NotFound(f"there is no file {path}")
        raw = _read_rows(path)
    else:
        raw = list(source)
    if not raw:
        raise ValidationError({"file": "the file has no receipts"})
    alias = {a.lower(): key for key, names in IMPORT_COLUMNS.items() for a in names}
    rows = [{alias.get(str(k).strip().lower(), str(k)): v for k, v in r.items()} for r in raw]
    missing = {"customer", "date", "amount", "ref"} - set(rows[0])
    if missing:
        raise ValidationError({"file": f"the file needs the columns customer, date, amount, ref; missing "
                                       f"{', '.join(sorted(missing))}"})
    errors: dict[str, str] = {}
    parsed = []
    seen: dict[str, int] = {}
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        for n, r in enumerate(rows, start=2):
            try:
                amount, day, ref, method, payer = _check_payment_fields(
                    r.get("amount"), r.get("date") if not isinstance(r.get("date"), str) else r["date"].strip(),
                    str(r.get("ref") or ""), str(r.get("method") or "") or "transfer",
                    str(r.get("payer") or "") or None)
                c = find_customer(s, str(r.get("customer") or ""))
                if ref in seen:
                    raise RuleViolation(f"the bank reference {ref} is also on row {seen[ref]}")
                seen[ref] = n
                if s.execute(select(Payment.id).where(Payment.bank_ref == ref, Payment.kind == "receipt")).first():
                    raise RuleViolation(f"a receipt with the bank reference {ref} is already recorded")
                parsed.append((c, amount, day, ref, method, payer))
            except ValidationError as exc:
                errors[f"row {n}"] = "; ".join(f"{k}: {v}" if k else v for k, v in exc.errors.items())
            except (NotFound, RuleViolation) as exc:
                errors[f"row {n}"] = exc.message
        if errors:
            raise ValidationError(errors)
        added = [_add(uow, c, amount, day, ref, method, payer, True) for c, amount, day, ref, method, payer in parsed]
        infos = tuple(_info(s, p) for p in added)
        uow.audit("payment.import", "payment", None, f"{len(added)} receipts",
                  after={"rows": len(added), "total": sum((p.amount for p in infos), ZERO)})
        uow.commit()
        return PaymentImport(infos)


# --------------------------------------------------------------------------- export
PAYMENT_COLUMNS = ("id", "kind", "customer", "credit_code", "date", "amount", "payer", "ref", "method",
                   "reverses", "reason", "allocated", "unallocated", "statements", "recorded_by")


def export_payments_rows(db: Database) -> tuple[list[str], list[list]]:
    with db.session() as s:
        alloc = dict(s.execute(select(PaymentAllocation.payment_id, func.sum(PaymentAllocation.amount))
                               .group_by(PaymentAllocation.payment_id)).all())
        numbers: dict[int, list[str]] = {}
        for pid, number in s.execute(select(PaymentAllocation.payment_id, Statement.number)
                                     .join(Statement, Statement.id == PaymentAllocation.statement_id)
                                     .order_by(PaymentAllocation.id)):
            if number not in numbers.setdefault(pid, []):
                numbers[pid].append(number)
        reversed_ids = set(s.execute(select(Payment.reverses_id).where(Payment.reverses_id.is_not(None))).scalars())
        rows = []
        for p, name, code in s.execute(select(Payment, Customer.name, Customer.credit_code)
                                       .join(Customer, Customer.id == Payment.customer_id).order_by(Payment.id)):
            used = round_fen(Decimal(alloc.get(p.id, 0)))
            left = ZERO if p.kind != "receipt" or p.id in reversed_ids else round_fen(Decimal(p.amount) - used)
            rows.append([f"P{p.id}", p.kind, name, code, p.received_on.isoformat(), round_fen(Decimal(p.amount)),
                         p.payer or "", p.bank_ref, p.method, f"P{p.reverses_id}" if p.reverses_id else "",
                         p.reason or "", used, left, " ".join(numbers.get(p.id, [])), p.created_by or ""])
        return list(PAYMENT_COLUMNS), rows


# --------------------------------------------------------------------------- aging
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
        for r in open_statement_rows(s):
            open_amt = round_fen(Decimal(r.total) + Decimal(r.credited) - Decimal(r.paid))
            late = (as_of - effective_due(r.due_date, r.issued_at)).days
            if open_amt > 0 and late > days:
                e = out.setdefault(r.customer_id, [ZERO, 0])
                e[0] += open_amt
                e[1] = max(e[1], late)
        names = dict(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(list(out)))).all()) if out else {}
    return sorted(((names[cid], a, d) for cid, (a, d) in out.items()), key=lambda t: (-t[2], t[0]))


# --------------------------------------------------------------------------- statement of account
def _party(obj, bank: bool = False, lang: str = "zh"):
    """A customer or subsidiary as printed; an English document takes a subsidiary's English name,
    address and bank (`alternate`; a customer has none and prints as registered)."""
    from reports.base import Party

    return Party(name=alternate(obj, "name", lang), credit_code=obj.credit_code or "",
                 address=alternate(obj, "address", lang),
                 bank_name=alternate(obj, "bank_name", lang) if bank else "", bank_account=(obj.bank_account or "") if bank else "",
                 phone=getattr(obj, "phone", None) or "")


def account_doc(db: Database, customer: str | int, date_from: dt.date, date_to: dt.date, *, language: str = "zh"):
    """The customer's statement of account (往来对账单) from date_from to date_to (Shanghai dates):
    opening balance, issued statements and credit notes (by issue date), payments and reversals
    (by the date the money moved), closing balance. Covers every subsidiary that billed them."""
    from app.domain.clock import local_midnight
    from reports.receivables import AccountDoc, AccountEntry

    if date_to < date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    start, end = local_midnight(date_from), local_midnight(date_to + dt.timedelta(days=1))
    zh = language != "en"
    with db.session() as s:
        c = find_customer(s, customer)
        issued = (Statement.customer_id == c.id, Statement.status == StatementStatus.ISSUED)
        opening = Decimal(s.execute(select(func.coalesce(func.sum(Statement.total), 0))
                                    .where(*issued, Statement.issued_at < start)).scalar())
        opening -= Decimal(s.execute(select(func.coalesce(func.sum(Payment.amount), 0))
                                     .where(Payment.customer_id == c.id, Payment.received_on < date_from)).scalar())
        opening += Decimal(s.execute(select(func.coalesce(func.sum(DepositEntry.amount), 0)).where(
            DepositEntry.customer_id == c.id, DepositEntry.entry == "apply", DepositEntry.on_date < date_from)).scalar())
        entries = []
        originals = dict(s.execute(select(Statement.id, Statement.number).where(*issued)).all())
        for st in s.execute(select(Statement).where(*issued, Statement.issued_at >= start, Statement.issued_at < end)
                            .order_by(Statement.issued_at, Statement.id)).scalars():
            if st.kind == StatementKind.CREDIT_NOTE:
                desc = (f"红字冲销 {originals.get(st.original_id, '')}" if zh
                        else f"credit note for {originals.get(st.original_id, '')}")
            else:
                desc = (f"{st.period} 对账单，到期日 {st.due_date or ''}" if zh
                        else f"statement {st.period}, due {st.due_date or ''}")
            entries.append(AccountEntry(local_date(st.issued_at), st.number, desc, round_fen(Decimal(st.total)),
                                        ZERO))
        for p in s.execute(select(Payment).where(Payment.customer_id == c.id, Payment.received_on >= date_from,
                                                 Payment.received_on <= date_to)
                           .order_by(Payment.received_on, Payment.id)).scalars():
            if p.kind == "reversal":  # the reason as typed; not a Chinese one in English (app.domain.wording)
                desc = f"冲回收款：{p.reason}" if zh else f"payment reversed: {free_text(p.reason, 'en')}".rstrip(": ")
            else:
                desc = (f"银行收款 {p.payer or ''}" if zh else f"bank receipt {p.payer or ''}").strip()
            entries.append(AccountEntry(p.received_on, p.bank_ref, desc, ZERO, round_fen(Decimal(p.amount))))
        for e, number in s.execute(select(DepositEntry, Statement.number)
                                   .join(Statement, Statement.id == DepositEntry.statement_id)
                                   .where(DepositEntry.customer_id == c.id, DepositEntry.entry == "apply",
                                          DepositEntry.on_date >= date_from, DepositEntry.on_date <= date_to)
                                   .order_by(DepositEntry.on_date, DepositEntry.id)):
            what = ("押金" if e.kind == "deposit" else "预付款") if zh else e.kind
            desc = f"{what}抵扣 {number}" if zh else f"{what} applied to {number}"
            entries.append(AccountEntry(e.on_date, f"D{e.id}", desc, ZERO, round_fen(-Decimal(e.amount))))
        entries.sort(key=lambda e: (e.day, e.credit != 0))
        sub_id = s.execute(select(Statement.subsidiary_id).where(Statement.customer_id == c.id)
                           .group_by(Statement.subsidiary_id).order_by(func.count().desc(), Statement.subsidiary_id)
                           ).scalars().first()
        sub = s.get(Subsidiary, sub_id) if sub_id else s.execute(select(Subsidiary).order_by(Subsidiary.id)).scalars().first()
        return AccountDoc(_party(c), _party(sub, bank=True, lang=language), date_from, date_to, round_fen(opening), tuple(entries),
                          language="en" if not zh else "zh",
                          number=f"{date_from:%Y%m%d}-{date_to:%Y%m%d}")


def aging_doc(db: Database, as_of: dt.date | None = None, *, language: str = "zh"):
    from reports.receivables import AgingDoc, AgingLine

    ag = aging(db, as_of)
    return AgingDoc(ag.as_of, tuple(AgingLine(r.subsidiary, r.customer, tuple(r.buckets[b] for b in BUCKETS),
                                              r.credit) for r in ag.rows), language=language)


def write_aging_xlsx(doc, path: Path) -> int:
    from openpyxl import Workbook

    from reports.receivables import BUCKET_KEYS
    from reports.receivables import w as word

    class _L:  # the report's words in its language
        lang = doc.language
    wb = Workbook()
    ws = wb.active
    ws.title = "aging"
    ws.append([f"{word(_L, 'aging')} {word(_L, 'as_of')} {doc.as_of.isoformat()}"])
    ws.append([word(_L, "subsidiary"), word(_L, "customer")] + [word(_L, k) for k in BUCKET_KEYS]
              + [word(_L, "total"), word(_L, "credit")])
    for ln in doc.lines:
        ws.append([ln.subsidiary, ln.customer] + list(ln.buckets) + [ln.total, ln.credit])
    totals = [sum((ln.buckets[i] for ln in doc.lines), ZERO) for i in range(len(BUCKET_KEYS))]
    ws.append([word(_L, "grand_total"), ""] + totals + [sum(totals, ZERO), sum((ln.credit for ln in doc.lines), ZERO)])
    for row in ws.iter_rows(min_row=3, min_col=3):
        for cell in row:
            cell.number_format = "#,##0.00"
    wb.save(path)
    return len(doc.lines)


def print_receivables_report(db: Database, actor: Actor, which: str, path: str | Path, **kw):
    """Write the aging report (PDF or XLSX by suffix) or a statement of account (PDF); audited as a print."""
    from reports.receivables import render_account, render_aging

    require(actor, "print")
    path = Path(path)
    suffix = path.suffix.lower()
    lang = kw.pop("language", None) or "zh"
    if which == "aging":
        doc = aging_doc(db, kw.get("as_of"), language=lang)
        if suffix == ".xlsx":
            write_aging_xlsx(doc, path)
            what, pages = f"aging as of {doc.as_of}, {len(doc.lines)} rows", None
        elif suffix == ".pdf":
            r = render_aging(doc, path)
            what, pages = f"aging as of {doc.as_of}, {len(doc.lines)} rows", r.pages
        else:
            raise ValidationError({"output": "the aging report is written as .pdf or .xlsx"})
        label = f"aging {doc.as_of}"
    elif which == "account":
        if suffix != ".pdf":
            raise ValidationError({"output": "the statement of account is written as .pdf"})
        doc = account_doc(db, kw["customer"], kw["date_from"], kw["date_to"], language=lang)
        r = render_account(doc, path)
        what, pages = f"{doc.customer.name}, closing balance ¥{format_amount(doc.closing)}", r.pages
        label = doc.number
    else:
        raise ValidationError({"report": f"no receivables report {which!r}"})
    with UnitOfWork(db, actor) as uow:
        uow.audit("print", "receivables", None, label, after={"report": which, "file": path.name, "pages": pages})
        uow.commit()
    return doc, what, pages
