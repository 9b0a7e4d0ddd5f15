"""Customer statement (对账单) and credit note (红字账单)."""
from __future__ import annotations

import os
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer

from .base import (Context, RenderResult, available_width, build_pdf, fmt_cny, fmt_date,
                   fmt_money, fmt_price, fmt_qty, fmt_rate)
from .documents import StatementDoc


# The receivables blocks' own words (zh, en).
_WORDS = {
    "payment": ("付款信息", "Payment details"),
    "payee": ("收款户名", "Payee"),
    "terms": ("付款条件", "Payment terms"),
    "pay_by": ("请于 {date} 前付款，付款时请注明对账单编号。", "Please pay by {date}, quoting the statement number."),
    "fapiao_status": ("开票状态", "Fapiao status"),
    "confirm": ("客户确认", "Customer confirmation"),
    "confirm_text": ("经核对，上述金额无误。如有异议，请于收到本对账单后 7 日内提出。",
                     "We confirm the amounts above are correct. Any query within 7 days of receipt."),
    "seal": ("客户（盖章）：", "Customer (seal):"),
    "seller_seal": ("销售方（盖章）：", "Seller (seal):"),
    "signed": ("经办人签字：", "Signed by:"),
    "date": ("日期：", "Date:"),
    "rmb": ("人民币", "RMB "),
}


def _w(ctx: Context, key: str) -> str:
    zh, en = _WORDS[key]
    return en if ctx.lang == "en" else zh


def receivable_blocks(doc: StatementDoc, ctx: Context, width: float) -> list:
    """Payment details (the seller's account, the terms, the due date) and the confirmation block
    with room for both parties' signatures and company seals."""
    p = ctx.p
    story: list = []
    sub = doc.subsidiary
    rows = [[_w(ctx, "payee"), sub.name]]
    if sub.bank_name:
        rows.append([ctx.t("bank"), sub.bank_name])
    if sub.bank_account:
        rows.append([ctx.t("account"), sub.bank_account])
    if doc.payment_terms:
        rows.append([_w(ctx, "terms"), doc.payment_terms])
    if doc.due_date:
        rows.append([ctx.t("due_date"), fmt_date(doc.due_date)])
    if doc.fapiao_status:
        rows.append([_w(ctx, "fapiao_status"), doc.fapiao_status])
    block = [p(_w(ctx, "payment"), "h2"),
             ctx.table([[a, p(b, "cell")] for a, b in rows], [width * 0.25, width * 0.75], header_rows=0,
                       zebra=False, extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])])]
    if doc.due_date:
        block += [Spacer(0, 1.5 * mm), p(_w(ctx, "pay_by").format(date=fmt_date(doc.due_date)))]
    story.append(KeepTogether(block))
    half = width / 2
    # both parties seal: the customer confirms, the seller (收款方) stands behind the figures
    sign = [[p(_w(ctx, "confirm_text"), "cell"), ""],
            [_w(ctx, "seal"), _w(ctx, "seller_seal")],
            ["", ""], ["", ""],
            [_w(ctx, "signed"), _w(ctx, "signed")],
            [_w(ctx, "date"), _w(ctx, "date")]]
    story.append(KeepTogether([p(_w(ctx, "confirm"), "h2"),
                               ctx.table(sign, [half, half], header_rows=0, zebra=False,
                                         extra=[("SPAN", (0, 0), (1, 0)),
                                                ("ROWBACKGROUNDS", (0, 0), (-1, -1), [None])])]))
    return story


def statement_story(doc: StatementDoc, ctx: Context) -> list:
    t, p = ctx.t, ctx.p
    width = available_width(ctx)
    title = doc.kind_label or t("credit_note" if doc.kind == "credit_note" else "statement")
    story: list = [p(title, "title")]

    meta = [(t("doc_no"), doc.number), (t("period"), doc.period_label),
            (t("issue_date"), fmt_date(doc.issue_date))]
    if doc.due_date:
        meta.append((t("due_date"), fmt_date(doc.due_date)))
    if doc.status:
        meta.append((t("status"), doc.status))
    if doc.fapiao_no:
        meta.append((t("fapiao_no"), doc.fapiao_no))
    # two label/value pairs per row
    rows = []
    for i in range(0, len(meta), 2):
        pair = list(meta[i]) + (list(meta[i + 1]) if i + 1 < len(meta) else ["", ""])
        rows.append(pair)
    q = width / 4
    story.append(ctx.table(rows, [q * 0.7, q * 1.3, q * 0.7, q * 1.3], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"]),
                                  ("BACKGROUND", (2, 0), (2, -1), ctx.colour["header_bg"])]))
    story.append(Spacer(0, 4 * mm))

    half = width / 2
    parties = [[t("seller"), t("buyer")],
               [p("\n".join(ctx.party_lines(doc.subsidiary)), "cell"),
                p("\n".join(ctx.party_lines(doc.customer)), "cell")]]
    story.append(ctx.table(parties, [half, half], zebra=False))
    story.append(Spacer(0, 4 * mm))

    # the columns fit their contents (a quantity to 10 decimals, a price of nine digits): the
    # description takes the rest; when that is too little, the figures' font shrinks
    rows = [["#", t("description"), t("quantity"), t("unit"), t("unit_price"), t("amount"),
             t("tax_rate"), t("tax")]]
    for n, line in enumerate(doc.lines, start=1):
        rows.append([str(n), None, fmt_qty(line.quantity), line.unit, fmt_price(line.unit_price),
                     fmt_money(line.amount), fmt_rate(line.tax_rate), fmt_money(line.tax)])
    widths, shrink = ctx.fit_columns(rows, [18, 0, 40, 50, 62, 72, 38, 60], 1, width)
    for row, line in zip(rows[1:], doc.lines):
        row[1] = p(line.description + (f"\n{line.note}" if line.note else ""), "cell")
    rows[0][1] = t("description")
    if not doc.lines:
        rows.append(["", t("empty"), "", "", "", "", "", ""])
    story.append(ctx.table(rows, widths, right=(2, 4, 5, 6, 7), centre=(0, 3), long=True, extra=shrink))

    totals = [[t("subtotal"), fmt_cny(doc.subtotal)], [t("tax_total"), fmt_cny(doc.tax)]]
    if doc.credits:
        totals.append([t("less_credits"), fmt_cny(-sum((c.amount for c in doc.credits), Decimal(0)))])
    n = len(totals)
    words = doc.total_in_words
    if words and not words.startswith("人民币"):
        words = _w(ctx, "rmb") + words  # 人民币 before the 大写, as a fapiao and a bank slip write it
    labels = [r[0] for r in totals] + [t("total"), t("in_words")]
    label_w = max(ctx.text_width(x, bold=True) for x in labels) + 12
    value_w = max(200.0, ctx.text_width(words) + 10)
    value_w = min(value_w, width - label_w)
    totals += [[t("total"), fmt_cny(doc.total)], [t("in_words"), ctx.p_fit(words, value_w)]]
    story.append(KeepTogether([ctx.table(
        totals, [width - value_w, value_w], header_rows=0, zebra=False, right=(0, 1),
        extra=[("FONTNAME", (0, n), (-1, n), ctx.fonts.bold),
               ("BACKGROUND", (0, n), (-1, n + 1), ctx.colour["header_bg"])])]))

    if doc.credits:
        story.append(p(t("credits"), "h2"))
        rows = [[t("description"), t("amount")]]
        rows += [[p(c.description, "cell"), fmt_cny(c.amount)] for c in doc.credits]
        story.append(ctx.table(rows, [width - 120, 120], right=(1,)))
    if doc.references:
        key = "original" if doc.kind == "credit_note" else "references"
        story.append(p(t(key), "h2"))
        story.append(p("、".join(doc.references) if ctx.lang == "zh" else ", ".join(doc.references)))
    if doc.notes:
        story.append(p(t("note"), "h2"))
        story.append(p(doc.notes))
    if doc.kind != "credit_note":
        story.append(Spacer(0, 3 * mm))
        story += receivable_blocks(doc, ctx, width)
    return story


def render_statement(doc: StatementDoc, path: str | os.PathLike, *, style: dict | None = None,
                     font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    title = doc.kind_label or ctx.t("credit_note" if doc.kind == "credit_note" else "statement")
    return build_pdf(path, statement_story(doc, ctx), ctx, doc=doc, title=title,
                     number=doc.number, letterhead=doc.subsidiary)
