"""The bulk-issue export: a month's fapiao heads and lines for the tax platform's import (批量开具)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.domain.money import format_amount, round_fen
from app.services.receivables.fapiao.cover import covers
from app.services.receivables.fapiao.fields import ZERO
from app.services.receivables.fapiao.taxcodes import _rate, line_kind, tax_codes
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract, ContractItem, Customer, InvoicingProfile, Statement, StatementLine
from models.choices import FapiaoStatus, FapiaoType, StatementKind, StatementStatus

# The tax platform's bulk-issue workbook (发票批量开具模板): a sheet of invoices (发票基本信息) and a
# sheet of their lines (发票明细信息), joined by 发票流水号 (here the statement number). Sources in
# docs/billing.md ("Fapiao"). 发票行性质 and 含税标志 are the platform's line fields (FPHXZ: 0 正常行,
# 1 折扣行, 2 被折扣行; HSBZ: 0 amounts without tax): a discount or credit goes out as a 折扣行 right
# under the line it reduces, with that line's name, code and rate, never as a negative line alone.
HEAD_COLUMNS = ("发票流水号", "发票类型", "购买方名称", "购买方纳税人识别号", "购买方地址电话", "购买方开户行及账号",
                "收票邮箱", "备注")
LINE_COLUMNS = ("发票流水号", "项目名称", "商品和服务税收分类编码", "规格型号", "单位", "数量", "单价", "金额", "税率",
                "税额", "发票行性质", "含税标志")
ROW_NORMAL, ROW_DISCOUNT, ROW_DISCOUNTED = "0", "1", "2"
TAX_EXCLUSIVE = "0"  # 含税标志: our amounts are without tax (金额 + 税额 = 价税合计)


@dataclass
class _Line:
    id: int
    item_id: int | None
    contract_id: int | None
    kind: str
    name: str
    period: str
    unit: str
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal
    rate: Decimal
    tax: Decimal
    left: Decimal = ZERO                 # what discounts may still take off it
    discounts: list | None = None        # [(amount, tax)] tied to it


def _tie_discounts(number: str, lines: list[_Line]) -> list[str]:
    """Tie each negative line (a discount item, a downtime credit) to the positive lines it reduces:
    its own item first, then its contract's lines, then the statement's, always at its own rate, never
    taking a line below zero. Returns the refusals (a discount no line can carry)."""
    problems = []
    for ln in lines:
        ln.left, ln.discounts = ln.amount if ln.amount > 0 else ZERO, []
    for neg in (ln for ln in lines if ln.amount < 0):
        def rank(p: _Line, neg=neg) -> int:
            return 0 if p.item_id == neg.item_id else 1 if p.contract_id == neg.contract_id else 2
        todo, tax_todo = -neg.amount, -neg.tax
        for p in sorted((p for p in lines if p.amount > 0 and p.rate == neg.rate and p.left > 0), key=rank):
            if todo == 0:
                break
            part = min(todo, p.left)
            part_tax = tax_todo if part == todo else min(tax_todo, round_fen(part * neg.rate))
            p.discounts.append((part, part_tax))
            p.left -= part
            todo, tax_todo = todo - part, tax_todo - part_tax
        if todo > 0:
            problems.append(f"{number}: “{neg.name}” (¥{format_amount(neg.amount)} at {(neg.rate * 100).normalize():f} %) "
                            f"is more than the lines at that rate it can reduce (¥{format_amount(todo)} left over)")
    return problems


def fapiao_lines(db: Database, period: str) -> tuple[list[list], list[list]]:
    """(invoice rows, line rows) for the issued statements of a period still to invoice (未开票).

    Refused (RuleViolation, nothing written) when a line's kind and rate have no tax code, or a
    discount cannot be tied to lines it reduces: the platform would refuse the batch.
    """
    from app.domain.rating import Period

    label = Period.parse(period).label
    with db.session() as s:
        codes = tax_codes(s)
        sts = list(s.execute(select(Statement).where(
            Statement.period == label, Statement.status == StatementStatus.ISSUED,
            Statement.kind == StatementKind.STATEMENT).order_by(Statement.number)).scalars())
        cov = covers(s, [st.id for st in sts])
        sts = [st for st in sts if cov[st.id].status == FapiaoStatus.NONE and cov[st.id].target > 0]
        profiles = {p.customer_id: p for p in s.execute(select(InvoicingProfile).where(
            InvoicingProfile.customer_id.in_({st.customer_id for st in sts} or {0}))).scalars()}
        customers = {c.id: c for c in s.execute(select(Customer).where(
            Customer.id.in_({st.customer_id for st in sts} or {0}))).scalars()}
        items = {lid: (kind, cid) for lid, kind, cid in s.execute(
            select(StatementLine.id, ContractItem.kind, ContractItem.contract_id)
            .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
            .where(StatementLine.statement_id.in_([st.id for st in sts] or [0]))).all()}
        contracts = dict(s.execute(select(StatementLine.statement_id, func.min(Contract.number))
                                   .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
                                   .join(Contract, Contract.id == ContractItem.contract_id)
                                   .where(StatementLine.statement_id.in_([st.id for st in sts] or [0]))
                                   .group_by(StatementLine.statement_id)).all())
        heads, rows, problems, missing = [], [], [], {}
        for st in sts:
            p, c = profiles.get(st.customer_id), customers[st.customer_id]
            heads.append([st.number, FapiaoType.label(p.fapiao_type if p else FapiaoType.DIGITAL_SPECIAL, "zh"),
                          p.title if p else c.name, p.tax_id if p else (c.credit_code or ""),
                          (p.address_phone or "") if p else "", (p.bank_account or "") if p else "",
                          (p.email or "") if p else "",
                          f"对账单 {st.number} {st.period}" + (f" 合同 {contracts[st.id]}" if st.id in contracts else "")])
            lines = []
            for ln in sorted(st.lines, key=lambda ln: ln.id):
                if ln.amount == 0:  # a zero line (no usage) is not a fapiao line: the platform refuses it
                    continue
                kind, cid = items.get(ln.id, (None, None))
                lines.append(_Line(ln.id, ln.contract_item_id, cid, line_kind(kind, ln.charge), ln.description,
                                   ln.period, ln.unit, Decimal(ln.quantity), Decimal(ln.unit_price),
                                   round_fen(Decimal(ln.amount)), _rate(ln.tax_rate), round_fen(Decimal(ln.tax))))
            problems += _tie_discounts(st.number, lines)
            for ln in lines:
                if ln.amount < 0:
                    continue
                tc = codes.get((ln.kind, ln.rate))
                if tc is None:
                    missing.setdefault((ln.kind, ln.rate), f"{st.number} “{ln.name}”")
                    continue
                name = f"*{tc.short_name}*{ln.name}"[:100]
                rate = ln.rate.normalize()
                rows.append([st.number, name, tc.code, ln.period, ln.unit, ln.quantity.normalize(),
                             ln.unit_price.normalize(), ln.amount, rate, ln.tax,
                             ROW_DISCOUNTED if ln.discounts else ROW_NORMAL, TAX_EXCLUSIVE])
                for amount, tax in ln.discounts:
                    rows.append([st.number, name, tc.code, ln.period, "", None, None, -amount, rate, -tax,
                                 ROW_DISCOUNT, TAX_EXCLUSIVE])
        for (kind, rate), where in missing.items():
            problems.append(f"no tax code for {kind} lines at {(rate * 100).normalize():f} % (first: {where}); "
                            f"add one: `fapiao tax-code {kind} --rate {rate.normalize():f} --code … --short-name … "
                            "--name …` or Users & settings → Tax codes / 没有该类项目在此税率下的税收分类编码，"
                            "请管理员在“用户与设置 → 税收分类编码”中添加")
        if problems:
            raise RuleViolation("the bulk-issue workbook is not written: " + "; ".join(problems))
        return heads, rows


def export_fapiao_lines(db: Database, actor: Actor, period: str, path: str | Path) -> tuple[int, int]:
    """Write the bulk-issue workbook of a period's statements not yet invoiced; audited as an export."""
    from openpyxl import Workbook

    require(actor, "export")
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise ValidationError({"output": "the bulk-issue file is an .xlsx workbook"})
    heads, lines = fapiao_lines(db, period)
    wb = Workbook()
    ws = wb.active
    ws.title = "发票基本信息"
    ws.append(list(HEAD_COLUMNS))
    for r in heads:
        ws.append(r)
    wl = wb.create_sheet("发票明细信息")
    wl.append(list(LINE_COLUMNS))
    for r in lines:
        wl.append(r)
    for row in wl.iter_rows(min_row=2):
        row[7].number_format = row[9].number_format = "#,##0.00"
        row[5].number_format = row[6].number_format = "General"
        row[8].number_format = "0%"
        row[10].number_format = row[11].number_format = "@"
    wb.save(path)
    with UnitOfWork(db, actor) as uow:
        uow.audit("export", "fapiao", None, path.name,
                  after={"kind": "fapiao-lines", "period": period, "invoices": len(heads), "lines": len(lines),
                         "file": path.name})
        uow.commit()
    return len(heads), len(lines)
