"""Bank files: receipts imported from a bank's CSV or XLSX export (all rows or none), payments exported."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Iterable

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.money import round_fen
from app.services.receivables.balances import ZERO
from app.services.receivables.lookups import find_customer
from app.services.receivables.payments import PaymentInfo, _add, _check_payment_fields, _info
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
