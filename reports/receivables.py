"""Receivables reports: aging (应收账款账龄) and the customer statement of account (往来对账单).

Plain dataclasses in (built by app.services.receivables), ReportLab out, on the house template."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer

from .base import Context, Party, RenderResult, available_width, build_pdf, fmt_date, fmt_money

BUCKET_KEYS = ("not_due", "d1_30", "d31_60", "d61_90", "over_90")

_WORDS = {
    "aging": ("应收账款账龄分析表", "Receivables aging"),
    "as_of": ("截至", "As of"),
    "subsidiary": ("公司", "Subsidiary"),
    "customer": ("客户", "Customer"),
    "not_due": ("未到期", "Not yet due"),
    "d1_30": ("逾期1–30天", "1–30 days"),
    "d31_60": ("逾期31–60天", "31–60 days"),
    "d61_90": ("逾期61–90天", "61–90 days"),
    "over_90": ("逾期90天以上", "> 90 days"),
    "total": ("合计", "Total"),
    "credit": ("预收/未核销", "Unapplied credit"),
    "grand_total": ("总计", "Grand total"),
    "subtotal": ("小计", "Subtotal"),
    "unit": ("单位：人民币元", "Amounts in RMB (yuan)"),
    "account": ("往来对账单", "Statement of account"),
    "period": ("对账期间", "Period"),
    "date": ("日期", "Date"),
    "document": ("单据", "Document"),
    "description": ("摘要", "Description"),
    "debit": ("应收（借方）", "Charged"),
    "credit_col": ("已收（贷方）", "Received"),
    "balance": ("余额", "Balance"),
    "opening": ("期初余额", "Opening balance"),
    "closing": ("期末余额", "Closing balance"),
    "period_charged": ("本期应收", "Charged in period"),
    "period_received": ("本期已收", "Received in period"),
    "to": ("致", "To"),
    "from": ("对账方", "From"),
    "confirm": ("客户确认", "Customer confirmation"),
    "confirm_ok": ("□ 以上余额核对相符。", "□ The balance above agrees with our records."),
    "confirm_diff": ("□ 以上余额不符，差异及说明：", "□ The balance does not agree; difference and details:"),
    "seal": ("客户（盖章）：", "Customer (seal):"),
    "signed": ("经办人签字：", "Signed by:"),
    "sign_date": ("日期：", "Date:"),
    "request": ("请核对以下往来款项，并于收到后 10 日内签字盖章寄回。余额为正数表示贵方尚欠我方款项。",
                "Please check the items below, then sign, seal and return this within 10 days. "
                "A positive balance is owed to us."),
}


def w(ctx: Context, key: str) -> str:
    zh, en = _WORDS[key]
    return en if ctx.lang == "en" else zh


@dataclass(frozen=True)
class AgingLine:
    subsidiary: str
    customer: str
    buckets: tuple[Decimal, ...]  # in BUCKET_KEYS order
    credit: Decimal

    @property
    def total(self) -> Decimal:
        return sum(self.buckets, Decimal(0))


@dataclass(frozen=True)
class AgingDoc:
    as_of: date
    lines: tuple[AgingLine, ...]
    language: str = "zh"
    company: Party | None = None


@dataclass(frozen=True)
class AccountEntry:
    day: date
    document: str
    description: str
    debit: Decimal   # charged: statements (credit notes negative)
    credit: Decimal  # received: payments (reversals negative)


@dataclass(frozen=True)
class AccountDoc:
    customer: Party
    company: Party
    date_from: date
    date_to: date
    opening: Decimal
    entries: tuple[AccountEntry, ...]
    language: str = "zh"
    number: str = ""

    @property
    def charged(self) -> Decimal:
        return sum((e.debit for e in self.entries), Decimal(0))

    @property
    def received(self) -> Decimal:
        return sum((e.credit for e in self.entries), Decimal(0))

    @property
    def closing(self) -> Decimal:
        return self.opening + self.charged - self.received


def aging_story(doc: AgingDoc, ctx: Context) -> list:
    p = ctx.p
    width = available_width(ctx, landscape=True)
    story: list = [p(w(ctx, "aging"), "title"),
                   ctx.table([[f"{w(ctx, 'as_of')} {fmt_date(doc.as_of)}", w(ctx, "unit")]], [width / 2, width / 2],
                             header_rows=0, zebra=False, right=(1,),
                             extra=[("GRID", (0, 0), (-1, -1), 0, colors.white)]),
                   Spacer(0, 2 * mm)]
    head = [w(ctx, "subsidiary"), w(ctx, "customer")] + [w(ctx, k) for k in BUCKET_KEYS] + \
        [w(ctx, "total"), w(ctx, "credit")]
    fixed = [18 * mm] + [0] + [26 * mm] * 7
    fixed[1] = width - sum(fixed)
    # Thousands of customers: the rows are measured once and laid out a page at a time (the audit
    # report's EventPages), never one long table that ReportLab re-measures at every page split.
    from .audit import _PAD_BOTTOM, _PAD_SIDES, _PAD_TOP, EventPages, wrap_lines

    font, size = ctx.fonts.regular, ctx.style["font_size"] - 0.5
    leading, pad = size + 2.5, _PAD_TOP + _PAD_BOTTOM

    def fit(text: str, col: int) -> tuple[str, float]:
        lines = wrap_lines(text, fixed[col] - _PAD_SIDES, font, size)
        return "\n".join(lines), len(lines) * leading

    header, header_h = [], leading
    for col, h in enumerate(head):
        text, height = fit(h, col)
        header.append(text)
        header_h = max(header_h, height)
    rows: list = []
    heights: list[float] = []
    totals = [Decimal(0)] * 7
    # grouped by subsidiary (in the order they first appear), each group closed by its subtotal
    groups: dict[str, list[AgingLine]] = {}
    for ln in doc.lines:
        groups.setdefault(ln.subsidiary, []).append(ln)
    subtotal_rows: set[int] = set()
    for sub, lines in groups.items():
        sub_totals = [Decimal(0)] * 7
        for ln in lines:
            nums = list(ln.buckets) + [ln.total, ln.credit]
            totals = [a + b for a, b in zip(totals, nums)]
            sub_totals = [a + b for a, b in zip(sub_totals, nums)]
            customer, height = fit(ln.customer, 1)
            rows.append([ln.subsidiary, customer] + [fmt_money(n) if n else "" for n in nums])
            heights.append(max(height, leading) + pad)
        label, height = fit(f"{w(ctx, 'subtotal')} {sub}", 1)
        row = ["", label] + [fmt_money(n) for n in sub_totals]
        subtotal_rows.add(id(row))
        rows.append(row)
        heights.append(max(height, leading) + pad)
    right = tuple(range(2, 9))

    def page_table(chunk):
        bold = [i for i, r in enumerate(chunk) if id(r) in subtotal_rows]
        return ctx.table(chunk, fixed, right=right,
                         extra=[c for i in bold for c in (("FONTNAME", (0, i), (-1, i), ctx.fonts.bold),
                                                          ("BACKGROUND", (0, i), (-1, i), ctx.colour["zebra"]))])
    if rows:
        story.append(EventPages(rows, heights, header, page_table, header_h + pad))
    total_row = [w(ctx, "grand_total"), ""] + [fmt_money(n) for n in totals]
    story.append(ctx.table([total_row], fixed, header_rows=0, zebra=False, right=right,
                           extra=[("FONTNAME", (0, 0), (-1, 0), ctx.fonts.bold),
                                  ("BACKGROUND", (0, 0), (-1, 0), ctx.colour["header_bg"])]))
    return story


def render_aging(doc: AgingDoc, path: str | os.PathLike, *, style: dict | None = None,
                 font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, aging_story(doc, ctx), ctx, doc=doc, title=w(ctx, "aging"),
                     number=doc.as_of.isoformat(), letterhead=doc.company, landscape=True)


def account_story(doc: AccountDoc, ctx: Context) -> list:
    p = ctx.p
    width = available_width(ctx)
    sep = "：" if ctx.lang == "zh" else ": "
    story: list = [p(w(ctx, "account"), "title")]
    half = width / 2
    story.append(ctx.table([[w(ctx, "to") + sep + doc.customer.name, w(ctx, "from") + sep + doc.company.name],
                            [w(ctx, "period") + sep + f"{fmt_date(doc.date_from)} – {fmt_date(doc.date_to)}",
                             ""]], [half, half], header_rows=0, zebra=False))
    story += [Spacer(0, 2 * mm), p(w(ctx, "request")), Spacer(0, 3 * mm)]
    widths = [24 * mm, 40 * mm, 0, 28 * mm, 28 * mm, 28 * mm]
    widths[2] = width - sum(widths)
    rows: list = [[w(ctx, "date"), w(ctx, "document"), w(ctx, "description"), w(ctx, "debit"),
                   w(ctx, "credit_col"), w(ctx, "balance")],
                  [fmt_date(doc.date_from), "", w(ctx, "opening"), "", "", fmt_money(doc.opening)]]
    bal = doc.opening
    for e in doc.entries:
        bal += e.debit - e.credit
        rows.append([fmt_date(e.day), p(e.document, "cell"), p(e.description, "cell"),
                     fmt_money(e.debit) if e.debit else "", fmt_money(e.credit) if e.credit else "",
                     fmt_money(bal)])
    rows.append([fmt_date(doc.date_to), "", w(ctx, "closing"), fmt_money(doc.charged), fmt_money(doc.received),
                 fmt_money(doc.closing)])
    n = len(rows) - 1
    story.append(ctx.table(rows, widths, right=(3, 4, 5), long=True,
                           extra=[("FONTNAME", (0, n), (-1, n), ctx.fonts.bold),
                                  ("BACKGROUND", (0, n), (-1, n), ctx.colour["header_bg"])]))
    story.append(Spacer(0, 3 * mm))
    summary = [[w(ctx, "opening"), fmt_money(doc.opening)], [w(ctx, "period_charged"), fmt_money(doc.charged)],
               [w(ctx, "period_received"), fmt_money(doc.received)], [w(ctx, "closing"), fmt_money(doc.closing)]]
    story.append(ctx.table(summary, [width - 50 * mm, 50 * mm], header_rows=0, zebra=False, right=(1,),
                           extra=[("FONTNAME", (0, 3), (-1, 3), ctx.fonts.bold)]))
    sign = [[p(w(ctx, "confirm_ok"), "cell"), ""], [p(w(ctx, "confirm_diff"), "cell"), ""], ["", ""], ["", ""],
            [w(ctx, "seal"), w(ctx, "signed")], ["", ""], ["", ""], [w(ctx, "sign_date"), ""]]
    story.append(KeepTogether([p(w(ctx, "confirm"), "h2"),
                               ctx.table(sign, [half, half], header_rows=0, zebra=False,
                                         extra=[("SPAN", (0, 0), (1, 0)), ("SPAN", (0, 1), (1, 1))])]))
    return story


def render_account(doc: AccountDoc, path: str | os.PathLike, *, style: dict | None = None,
                   font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, account_story(doc, ctx), ctx, doc=doc, title=w(ctx, "account"), number=doc.number,
                     letterhead=doc.company)
