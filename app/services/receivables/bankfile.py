"""Bank files: receipts imported from a bank's CSV or XLSX export (all rows or none), payments exported."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Iterable

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import DomainError, NotFound, ValidationError
from app.domain.money import round_fen
from app.services.receivables.balances import ZERO, effective_due, open_statement_rows
from app.services.receivables.lookups import find_customer
from app.services.receivables.payments import PaymentInfo, _check_payment_fields
from app.store.db import Database
from app.store.tablefile import read_records
from app.store.uow import UnitOfWork
from models import Customer, Payment, PaymentAllocation, Statement

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
    refuses the file with every row's error. Each receipt is allocated oldest due first, in the file's
    order, exactly as record_payment would one at a time; set-wise: the customers, the bank references
    already recorded and the open statements are read once, the receipts and allocations inserted in
    batches, the audit events appended in batches."""
    require(actor, "run_billing")
    rows = _file_rows(source)
    with UnitOfWork(db, actor) as uow:
        parsed = _check_rows(uow.session, rows)
        uow.defer_audit()
        infos = _add_receipts(uow, parsed)
        uow.audit("payment.import", "payment", None, f"{len(infos)} receipts",
                  after={"rows": len(infos), "total": sum((p.amount for p in infos), ZERO)})
        uow.commit()
        return PaymentImport(infos)


def _file_rows(source: str | Path | Iterable[dict]) -> list[dict]:
    """The file's rows with its headers read as our column names; refused without the four needed."""
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
    return rows


def _receipt_ids(s: Session, refs: list[str]) -> dict[str, int]:
    """The receipts these bank references are on, by reference (at most one each: uq_payment_bank_ref_kind),
    read in chunks of 500 parameters."""
    found: dict[str, int] = {}
    for i in range(0, len(refs), 500):
        found.update(s.execute(select(Payment.bank_ref, Payment.id).where(
            Payment.kind == "receipt", Payment.bank_ref.in_(refs[i:i + 500]))).all())
    return found


def _check_rows(s: Session, rows: list[dict]) -> list[tuple]:
    """Every row checked as record_payment checks one (a customer named twice is looked up once);
    every row's error at once. (customer, amount, day, ref, method, payer) per row."""
    errors: dict[str, str] = {}
    checked: list[tuple[int, tuple]] = []
    customers: dict[str, Customer | DomainError] = {}
    for n, r in enumerate(rows, start=2):
        try:
            fields = _check_payment_fields(
                r.get("amount"), r.get("date") if not isinstance(r.get("date"), str) else r["date"].strip(),
                str(r.get("ref") or ""), str(r.get("method") or "") or "transfer",
                str(r.get("payer") or "") or None)
            key = str(r.get("customer") or "")
            if key not in customers:
                try:
                    customers[key] = find_customer(s, key)
                except (ValidationError, NotFound) as exc:
                    customers[key] = exc
            c = customers[key]
            if isinstance(c, DomainError):
                raise c
            checked.append((n, (c, *fields)))
        except ValidationError as exc:
            errors[f"row {n}"] = "; ".join(f"{k}: {v}" if k else v for k, v in exc.errors.items())
        except NotFound as exc:
            errors[f"row {n}"] = exc.message
    recorded = _receipt_ids(s, sorted({f[3] for _n, f in checked}))
    seen: dict[str, int] = {}
    parsed = []
    for n, f in checked:
        ref = f[3]
        if ref in seen:
            errors[f"row {n}"] = f"the bank reference {ref} is also on row {seen[ref]}"
            continue
        seen[ref] = n
        if ref in recorded:
            errors[f"row {n}"] = f"a receipt with the bank reference {ref} is already recorded"
            continue
        parsed.append(f)
    if errors:
        raise ValidationError(dict(sorted(errors.items(), key=lambda kv: int(kv[0].split()[1]))))
    return parsed


def _open_by_customer(s: Session, customer_ids: set[int]) -> dict[int, deque[list]]:
    """Each customer's open statements as [open amount, number, id], in the order a receipt pays
    them (payments._allocate_oldest's order: oldest due first, then the older month)."""
    rows = open_statement_rows(s, next(iter(customer_ids)) if len(customer_ids) == 1 else None)
    out: dict[int, list] = {}
    for r in rows:
        if r.customer_id in customer_ids and Decimal(r.total) + Decimal(r.credited) - Decimal(r.paid) > 0:
            out.setdefault(r.customer_id, []).append(r)
    return {cid: deque([r.open, r.number, r.id] for r in sorted(
        rs, key=lambda r: (effective_due(r.due_date, r.issued_at), r.period, r.issued_at, r.id)))
        for cid, rs in out.items()}


def _add_receipts(uow: UnitOfWork, parsed: list[tuple]) -> tuple[PaymentInfo, ...]:
    """Insert the receipts and their allocations in batches: each receipt, in the file's order, takes
    from what its customer's open statements still ask after the receipts before it."""
    s, login = uow.session, uow.actor.login
    s.flush()
    # one executemany; the new ids read back by bank reference (unique per receipt, checked above)
    s.execute(insert(Payment.__table__), [dict(customer_id=c.id, kind="receipt", received_on=day, amount=amount,
                                               payer=payer or c.name, bank_ref=ref, method=method, created_by=login)
                                          for c, amount, day, ref, method, payer in parsed])
    by_ref = _receipt_ids(s, [f[3] for f in parsed])
    ids = [by_ref[f[3]] for f in parsed]
    open_rows = _open_by_customer(s, {f[0].id for f in parsed})
    allocations, infos = [], []
    for pid, (c, amount, day, ref, method, payer) in zip(ids, parsed):
        left, done, queue = round_fen(amount), [], open_rows.get(c.id, ())
        while left > 0 and queue:  # the statements a receipt settles leave the front of the queue
            row = queue[0]
            take = min(row[0], left)
            row[0] -= take
            left -= take
            done.append((row[1], take))
            allocations.append(dict(payment_id=pid, statement_id=row[2], amount=take, created_by=login))
            if row[0] <= 0:
                queue.popleft()
        uow.audit("payment.add", "payment", pid, ref,
                  after={"customer_id": c.id, "customer": c.name, "date": day, "amount": amount,
                         "payer": payer or c.name, "method": method,
                         "allocations": [{"statement": n, "amount": a} for n, a in done]})
        infos.append(PaymentInfo(pid, c.name, day, Decimal(amount), ref, method, tuple(done), left))
    if allocations:
        s.execute(insert(PaymentAllocation.__table__), allocations)
    return tuple(infos)


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
