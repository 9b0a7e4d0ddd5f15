"""The monthly receivables summary per subsidiary (应收账款月度汇总表): opening, billed, credited,
received, closing. A plain dataclass in (app.services.receivables.summary), ReportLab out."""
from __future__ import annotations

import os
from dataclasses import dataclass
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_money

_WORDS = {
    "title": ("应收账款月度汇总表", "Monthly receivables summary"),
    "period": ("期间", "Period"),
    "subsidiary": ("公司", "Subsidiary"),
    "opening": ("期初应收", "Opening"),
    "billed": ("本期开具", "Billed"),
    "credited": ("本期红字冲销", "Credited"),
    "received": ("本期收回", "Received"),
    "closing": ("期末应收", "Closing"),
    "total": ("合计", "Total"),
    "note": ("收回 = 核销到对账单的收款（含冲回）及押金/预付款抵扣，按核销日期；期末 = 期初 + 开具 + 红字 − 收回。",
             "Received = payments allocated to statements (net of reversals) and deposits or prepayments applied, "
             "by the day they were applied; closing = opening + billed + credited − received."),
}
COLUMNS = ("opening", "billed", "credited", "received", "closing")


def w(lang: str, key: str) -> str:
    zh, en = _WORDS[key]
    return en if lang == "en" else zh


@dataclass(frozen=True)
class SummaryLine:
    subsidiary: str
    name: str
    opening: Decimal
    billed: Decimal
    credited: Decimal  # negative
    received: Decimal

    @property
    def closing(self) -> Decimal:
        return self.opening + self.billed + self.credited - self.received

    def values(self) -> list[Decimal]:
        return [self.opening, self.billed, self.credited, self.received, self.closing]


@dataclass(frozen=True)
class SummaryDoc:
    period: str
    lines: tuple[SummaryLine, ...]
    language: str = "zh"

    def totals(self) -> list[Decimal]:
        return [sum((ln.values()[i] for ln in self.lines), Decimal(0)) for i in range(len(COLUMNS))]


def summary_story(doc: SummaryDoc, ctx: Context) -> list:
    p = ctx.p
    width = available_width(ctx, landscape=True)
    story: list = [p(w(ctx.lang, "title"), "title"), p(f"{w(ctx.lang, 'period')} {doc.period}"), Spacer(0, 3 * mm)]
    widths = [0] + [32 * mm] * len(COLUMNS)
    widths[0] = width - sum(widths)
    rows: list = [[w(ctx.lang, "subsidiary")] + [w(ctx.lang, k) for k in COLUMNS]]
    for ln in doc.lines:
        rows.append([p(f"{ln.subsidiary} {ln.name}", "cell")] + [fmt_money(v) for v in ln.values()])
    rows.append([w(ctx.lang, "total")] + [fmt_money(v) for v in doc.totals()])
    n = len(rows) - 1
    story.append(ctx.table(rows, widths, right=tuple(range(1, 1 + len(COLUMNS))), long=True,
                           extra=[("FONTNAME", (0, n), (-1, n), ctx.fonts.bold),
                                  ("BACKGROUND", (0, n), (-1, n), ctx.colour["header_bg"])]))
    story += [Spacer(0, 3 * mm), p(w(ctx.lang, "note"))]
    return story


def render_summary(doc: SummaryDoc, path: str | os.PathLike, *, style: dict | None = None,
                   font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, summary_story(doc, ctx), ctx, doc=doc, title=w(ctx.lang, "title"), number=doc.period,
                     landscape=True)
