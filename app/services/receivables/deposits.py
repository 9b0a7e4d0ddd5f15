"""Deposits (押金) and prepayments (预付款) per customer, and per contract when given.

Money held for the customer, not yet a payment of any statement: it is received (+), applied to
an issued statement (−, which then counts as paid on it: app.services.receivables), or refunded (−).
A deposit is refunded at the end of its contract (terminated or expired; one held for the customer
as a whole once they have no contract in force); a prepayment may be refunded at any time. A balance
never goes below zero. Entries are never edited or deleted; every write is audited.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_today, parse_date
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.money import format_amount, round_fen
from app.services.billing.statements import find_statement
from app.services.receivables.balances import statement_open_amount
from app.services.receivables.lookups import _money, find_customer
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract, ContractItem, Customer, DepositEntry, Statement, StatementLine
from models.choices import ContractStatus, DepositKind, StatementKind, StatementStatus

ZERO = Decimal("0.00")
ENDED = (ContractStatus.TERMINATED, ContractStatus.EXPIRED)
IN_FORCE = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED, ContractStatus.APPROVED)


def _kind(kind: str | None) -> str:
    text = (kind or DepositKind.DEPOSIT).strip()
    for v, en, zh in DepositKind.labels():
        if text in (v, zh) or text.lower() == en.lower():
            return v
    raise ValidationError({"kind": f"deposit (押金) or prepayment (预付款), not {text!r}"})


def _day(value) -> dt.date:
    if value is None:
        return local_today()
    try:
        value = parse_date(value)
    except DateError as exc:
        raise ValidationError({"date": message_of(exc)}) from None
    if value is None:
        return local_today()
    if value > local_today():
        raise ValidationError({"date": f"{value} is in the future"})
    return value


def _contract(s: Session, c: Customer, number: str | None) -> Contract | None:
    if not number:
        return None
    k = s.execute(select(Contract).where(Contract.number == number.strip())).scalar_one_or_none()
    if k is None:
        raise NotFound(f"there is no contract {number}")
    if k.customer_id != c.id:
        raise RuleViolation(f"contract {k.number} is another customer's")
    return k


def _balance(s: Session, customer_id: int, kind: str, contract_id: int | None) -> Decimal:
    q = select(func.coalesce(func.sum(DepositEntry.amount), 0)).where(
        DepositEntry.customer_id == customer_id, DepositEntry.kind == kind)
    q = q.where(DepositEntry.contract_id.is_(None) if contract_id is None else DepositEntry.contract_id == contract_id)
    return round_fen(Decimal(s.execute(q).scalar()))


def _held_on_contracts(s: Session, customer_id: int, kind: str) -> list[tuple[str, Decimal]]:
    """(contract number, balance) of each contract holding a balance of this kind for the customer."""
    rows = s.execute(select(Contract.number, func.sum(DepositEntry.amount))
                     .join(Contract, Contract.id == DepositEntry.contract_id)
                     .where(DepositEntry.customer_id == customer_id, DepositEntry.kind == kind)
                     .group_by(Contract.number).order_by(Contract.number)).all()
    return [(n, round_fen(Decimal(v))) for n, v in rows if round_fen(Decimal(v)) > 0]


@dataclass(frozen=True)
class EntryInfo:
    id: int
    customer: str
    contract: str | None
    kind: str
    entry: str
    on_date: dt.date
    amount: Decimal
    statement: str | None
    balance: Decimal  # of its customer × contract × kind after it

    def describe(self) -> str:
        what = {"receipt": "received", "apply": "applied", "refund": "refunded"}[self.entry]
        where = f" to {self.statement}" if self.statement else ""
        of = f" (contract {self.contract})" if self.contract else ""
        return (f"{DepositKind.label(self.kind)} D{self.id} {what} ¥{format_amount(abs(self.amount))}{where} "
                f"{self.on_date}, {self.customer}{of}; balance ¥{format_amount(self.balance)}")


def _info(s: Session, e: DepositEntry) -> EntryInfo:
    c = s.get(Customer, e.customer_id)
    k = s.get(Contract, e.contract_id) if e.contract_id else None
    st = s.get(Statement, e.statement_id) if e.statement_id else None
    return EntryInfo(e.id, c.name, k.number if k else None, e.kind, e.entry, e.on_date, Decimal(e.amount),
                     st.number if st else None, _balance(s, e.customer_id, e.kind, e.contract_id))


def _entry(uow: UnitOfWork, **kw) -> DepositEntry:
    e = DepositEntry(created_by=uow.actor.login, **kw)
    uow.session.add(e)
    uow.session.flush()
    return e


def receive_deposit(db: Database, actor: Actor, customer: str | int, amount, *, kind: str = "deposit",
                    on_date=None, contract: str | None = None, ref: str | None = None,
                    note: str | None = None) -> EntryInfo:
    """Record a deposit or prepayment received from a customer (for one contract, or the customer)."""
    require(actor, "run_billing")
    kind, on_date, amount = _kind(kind), _day(on_date), _money(amount)
    if amount <= 0:
        raise ValidationError({"amount": "the amount received is positive"})
    ref = (ref or "").strip() or None
    if ref and len(ref) > 64:
        raise ValidationError({"ref": "the bank reference is at most 64 characters"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = find_customer(s, customer)
        k = _contract(s, c, contract)
        e = _entry(uow, customer_id=c.id, contract_id=k.id if k else None, kind=kind, entry="receipt",
                   on_date=on_date, amount=amount, ref=ref, note=(note or "").strip() or None)
        info = _info(s, e)
        uow.audit("deposit.receive", "deposit", e.id, f"D{e.id}",
                  after={"customer": c.name, "contract": info.contract, "kind": kind, "date": on_date,
                         "amount": amount, "ref": ref, "balance": info.balance})
        uow.commit()
        return info


def apply_deposit(db: Database, actor: Actor, statement: str | int, *, kind: str = "deposit",
                  amount=None, contract: str | None = None, on_date=None) -> list[EntryInfo]:
    """Apply a customer's deposit or prepayment to an issued statement: from the named contract's
    balance, else from the balances of the contracts billed on it, then the customer's own. The
    amount defaults to as much as the statement is open and the balances hold."""
    require(actor, "run_billing")
    kind, on_date = _kind(kind), _day(on_date)
    want = None if amount is None else _money(amount)
    if want is not None and want <= 0:
        raise ValidationError({"amount": "apply a positive amount"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        st = find_statement(s, statement, lock=True)
        if st.kind != StatementKind.STATEMENT or st.status != StatementStatus.ISSUED:
            raise RuleViolation(f"a deposit is applied to an issued statement; {st.number or st.id} is not one")
        c = s.get(Customer, st.customer_id)
        open_amt = statement_open_amount(s, st)
        if open_amt <= 0:
            raise RuleViolation(f"statement {st.number} is settled; nothing is open on it")
        if contract:
            sources = [_contract(s, c, contract).id]
        else:
            billed = list(s.execute(select(ContractItem.contract_id).join(
                StatementLine, StatementLine.contract_item_id == ContractItem.id)
                .where(StatementLine.statement_id == st.id).distinct()).scalars())
            others = list(s.execute(select(DepositEntry.contract_id).where(
                DepositEntry.customer_id == c.id, DepositEntry.kind == kind).distinct()).scalars())
            sources = sorted(set(billed)) + [None] + sorted(x for x in set(others) if x is not None and x not in billed)
        balances = [(cid, _balance(s, c.id, kind, cid)) for cid in sources]
        held = sum((b for _cid, b in balances if b > 0), ZERO)
        label = DepositKind.label(kind)
        if held <= 0:
            raise RuleViolation(f"{c.name} holds no {label.lower()}" + (f" on contract {contract}" if contract else ""))
        take_total = min(open_amt, held) if want is None else want
        if take_total > open_amt:
            raise RuleViolation(f"statement {st.number} has ¥{format_amount(open_amt)} open, "
                                f"not ¥{format_amount(take_total)}")
        if take_total > held:
            raise RuleViolation(f"{c.name} holds ¥{format_amount(held)} of {label.lower()}, "
                                f"not ¥{format_amount(take_total)}")
        left, out = take_total, []
        for cid, b in balances:
            if left <= 0:
                break
            if b <= 0:
                continue
            take = min(b, left)
            e = _entry(uow, customer_id=c.id, contract_id=cid, kind=kind, entry="apply", on_date=on_date,
                       amount=-take, statement_id=st.id)
            info = _info(s, e)
            out.append(info)
            uow.audit("deposit.apply", "deposit", e.id, f"D{e.id}",
                      after={"customer": c.name, "contract": info.contract, "kind": kind, "statement": st.number,
                             "date": on_date, "amount": take, "balance": info.balance})
            left -= take
        uow.commit()
        return out


def refund_deposit(db: Database, actor: Actor, customer: str | int, *, kind: str = "deposit", amount=None,
                   contract: str | None = None, on_date=None, reason: str = "", ref: str | None = None) -> EntryInfo:
    """Refund (part of) a deposit or prepayment. A deposit is refunded once its contract has ended."""
    require(actor, "run_billing")
    kind, on_date = _kind(kind), _day(on_date)
    if not (reason or "").strip():
        raise ValidationError({"reason": "say why it is refunded (e.g. contract terminated)"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = find_customer(s, customer)
        k = _contract(s, c, contract)
        if kind == DepositKind.DEPOSIT:
            if k is not None and k.status not in ENDED:
                raise RuleViolation(f"the deposit of contract {k.number} is refunded when it ends "
                                    f"(it is {ContractStatus.label(k.status)})")
            if k is None and s.execute(select(Contract.id).where(Contract.customer_id == c.id,
                                                                Contract.status.in_(IN_FORCE))).first():
                raise RuleViolation(f"{c.name} has contracts in force; their deposit is refunded when they end")
        held = _balance(s, c.id, kind, k.id if k else None)
        amount = held if amount is None else _money(amount)
        if k is None and (amount <= 0 or amount > held):
            on_contracts = _held_on_contracts(s, c.id, kind)
            if on_contracts:
                where = "; ".join(f"¥{format_amount(v)} on contract {n}" for n, v in on_contracts)
                raise RuleViolation(f"{c.name} holds ¥{format_amount(held)} as a customer, without a contract; "
                                    f"the {kind} is held on its contracts: {where}. Name the contract "
                                    f"(--contract {on_contracts[0][0]})")
        if amount <= 0:
            raise RuleViolation(f"nothing to refund: {c.name} holds ¥{format_amount(held)}"
                                + (f" on contract {k.number}" if k else ""))
        if amount > held:
            raise RuleViolation(f"{c.name} holds ¥{format_amount(held)}" + (f" on contract {k.number}" if k else "")
                                + f", not ¥{format_amount(amount)}")
        e = _entry(uow, customer_id=c.id, contract_id=k.id if k else None, kind=kind, entry="refund",
                   on_date=on_date, amount=-amount, ref=(ref or "").strip() or None, note=reason.strip())
        info = _info(s, e)
        uow.audit("deposit.refund", "deposit", e.id, f"D{e.id}", reason=reason.strip(),
                  after={"customer": c.name, "contract": info.contract, "kind": kind, "date": on_date,
                         "amount": amount, "balance": info.balance})
        uow.commit()
        return info


@dataclass(frozen=True)
class DepositBalance:
    customer_id: int
    customer: str
    contract: str | None
    kind: str
    received: Decimal
    applied: Decimal
    refunded: Decimal

    @property
    def balance(self) -> Decimal:
        return self.received - self.applied - self.refunded


def balances(db: Database, customer: str | int | None = None) -> list[DepositBalance]:
    with db.session() as s:
        q = (select(DepositEntry.customer_id, Customer.name, Contract.number, DepositEntry.kind, DepositEntry.entry,
                    func.sum(DepositEntry.amount))
             .join(Customer, Customer.id == DepositEntry.customer_id)
             .outerjoin(Contract, Contract.id == DepositEntry.contract_id)
             .group_by(DepositEntry.customer_id, Customer.name, Contract.number, DepositEntry.kind, DepositEntry.entry))
        if customer is not None:
            q = q.where(DepositEntry.customer_id == find_customer(s, customer).id)
        acc: dict[tuple, dict] = {}
        for cid, name, number, kind, entry, total in s.execute(q):
            acc.setdefault((cid, name, number, kind), {})[entry] = abs(round_fen(Decimal(total)))
        return [DepositBalance(cid, name, number, kind, e.get("receipt", ZERO), e.get("apply", ZERO),
                               e.get("refund", ZERO))
                for (cid, name, number, kind), e in sorted(acc.items(), key=lambda kv: (kv[0][1], kv[0][2] or "",
                                                                                       kv[0][3]))]


DEPOSIT_COLUMNS = ("id", "customer", "credit_code", "contract", "kind", "entry", "date", "amount", "statement", "ref",
                   "note", "recorded_by")


def export_deposits_rows(db: Database) -> tuple[list[str], list[list]]:
    with db.session() as s:
        rows = []
        for e, name, code, number, st in s.execute(
                select(DepositEntry, Customer.name, Customer.credit_code, Contract.number, Statement.number)
                .join(Customer, Customer.id == DepositEntry.customer_id)
                .outerjoin(Contract, Contract.id == DepositEntry.contract_id)
                .outerjoin(Statement, Statement.id == DepositEntry.statement_id)
                .order_by(DepositEntry.id)):
            rows.append([f"D{e.id}", name, code, number or "", DepositKind.label(e.kind, "zh"), e.entry,
                         e.on_date.isoformat(), round_fen(Decimal(e.amount)), st or "", e.ref or "", e.note or "",
                         e.created_by or ""])
        return list(DEPOSIT_COLUMNS), rows
