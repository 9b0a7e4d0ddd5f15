"""The statement of account (往来对账单) and the aging report as printed (PDF, XLSX), audited as a print."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_date
from app.domain.errors import ValidationError
from app.domain.money import format_amount, round_fen
from app.domain.wording import alternate, free_text
from app.services.receivables.aging import BUCKETS, aging
from app.services.receivables.balances import ZERO
from app.services.receivables.lookups import find_customer
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import DepositEntry, Payment, Statement, Subsidiary
from models.choices import StatementKind, StatementStatus


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
