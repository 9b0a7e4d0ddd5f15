"""The monthly receivables summary per subsidiary: opening, billed, credited, received, closing.

For a Shanghai calendar month, per issuing subsidiary:
- opening = statements and credit notes issued before the month, less what was settled on them
  before it (payment allocations, net of reversals, and deposits/prepayments applied);
- billed = statements issued in the month; credited = credit notes issued in it (negative);
- received = allocations made and deposits applied in the month to the subsidiary's statements;
- closing = opening + billed + credited − received, which is the open amount of the subsidiary's
  statements at the end of the month (what the aging report shows as of that day).
An allocation counts on the day it was made (Shanghai), a deposit on its application date. Money
not yet allocated to a statement is the customer's credit, not a subsidiary's (aging shows it).
Four set-based queries, whatever the number of statements.
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.domain.money import round_fen
from app.domain.wording import alternate
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import DepositEntry, PaymentAllocation, Statement, Subsidiary
from models.choices import StatementKind, StatementStatus

ZERO = Decimal("0.00")


def summary_doc(db: Database, period: str, *, language: str = "zh"):
    from app.domain.rating import Period
    from reports.receivables_summary import SummaryDoc, SummaryLine

    p = Period.parse(period)
    first, after = p.first, p.next_first
    start, end = p.start, p.end
    with db.session() as s:
        # an English summary names a subsidiary by its English name (`alternate`)
        subs = {sub.id: (sub.code, alternate(sub, "name", language))
                for sub in s.execute(select(Subsidiary)).scalars()}
        acc: dict[int, dict[str, Decimal]] = {}

        def add(sid: int, key: str, value) -> None:
            acc.setdefault(sid, {k: ZERO for k in ("opening", "billed", "credited", "received")})[key] += \
                round_fen(Decimal(value or 0))
        issued = Statement.status == StatementStatus.ISSUED
        for before, cond in ((True, Statement.issued_at < start),
                             (False, (Statement.issued_at >= start) & (Statement.issued_at < end))):
            for sid, kind, total in s.execute(select(Statement.subsidiary_id, Statement.kind, func.sum(Statement.total))
                                              .where(issued, cond).group_by(Statement.subsidiary_id, Statement.kind)):
                add(sid, "opening" if before else ("billed" if kind == StatementKind.STATEMENT else "credited"), total)
        for before, cond in ((True, PaymentAllocation.created_at < start),
                             (False, (PaymentAllocation.created_at >= start) & (PaymentAllocation.created_at < end))):
            for sid, total in s.execute(select(Statement.subsidiary_id, func.sum(PaymentAllocation.amount))
                                        .join(Statement, Statement.id == PaymentAllocation.statement_id)
                                        .where(cond).group_by(Statement.subsidiary_id)):
                add(sid, "opening" if before else "received", -Decimal(total) if before else total)
        for before, cond in ((True, DepositEntry.on_date < first),
                             (False, (DepositEntry.on_date >= first) & (DepositEntry.on_date < after))):
            for sid, total in s.execute(select(Statement.subsidiary_id, func.sum(DepositEntry.amount))
                                        .join(Statement, Statement.id == DepositEntry.statement_id)
                                        .where(DepositEntry.entry == "apply", cond).group_by(Statement.subsidiary_id)):
                add(sid, "opening" if before else "received", total if before else -Decimal(total))
        lines = tuple(SummaryLine(subs[sid][0], subs[sid][1], v["opening"], v["billed"], v["credited"], v["received"])
                      for sid, v in sorted(acc.items(), key=lambda kv: subs[kv[0]][0]))
        return SummaryDoc(p.label, lines, language=language)


def write_summary_xlsx(doc, path: Path) -> int:
    from openpyxl import Workbook

    from reports.receivables_summary import COLUMNS, w

    wb = Workbook()
    ws = wb.active
    ws.title = "receivables"
    ws.append([f"{w(doc.language, 'title')} {doc.period}"])
    ws.append([w(doc.language, "subsidiary"), ""] + [w(doc.language, k) for k in COLUMNS])
    for ln in doc.lines:
        ws.append([ln.subsidiary, ln.name] + ln.values())
    ws.append([w(doc.language, "total"), ""] + doc.totals())
    for row in ws.iter_rows(min_row=3, min_col=3):
        for cell in row:
            cell.number_format = "#,##0.00"
    wb.save(path)
    return len(doc.lines)


def print_summary(db: Database, actor: Actor, period: str, path: str | Path, *, language: str | None = None):
    """Write the monthly summary as .pdf or .xlsx (by suffix); audited as a print."""
    from reports.receivables_summary import render_summary

    require(actor, "print")
    path = Path(path)
    doc = summary_doc(db, period, language=language or "zh")
    pages = None
    if path.suffix.lower() == ".xlsx":
        write_summary_xlsx(doc, path)
    elif path.suffix.lower() == ".pdf":
        pages = render_summary(doc, path).pages
    else:
        raise ValidationError({"output": "the receivables summary is written as .pdf or .xlsx"})
    with UnitOfWork(db, actor) as uow:
        uow.audit("print", "receivables", None, f"summary {doc.period}",
                  after={"report": "summary", "period": doc.period, "file": path.name, "pages": pages})
        uow.commit()
    return doc, pages
