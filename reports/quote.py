"""报价单 / Quotation: GPU capacity and colocation add-ons for one deal, priced for one term with
the other terms beside it, valid until a day, totals and 大写. Plain data in, PDF out."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_date, fmt_money, fmt_price, fmt_qty
from .documents import Party


@dataclass(frozen=True)
class QuoteLineRow:
    description: str
    quantity: Decimal
    unit: str                   # already in the document's language
    unit_price: Decimal
    first_month: Decimal        # before VAT
    tax_rate: str               # e.g. "13%"
    note: str = ""


@dataclass(frozen=True)
class QuoteTermRow:
    term: str                   # a label in the document's language
    unit_price: str             # the price as quoted, with its unit
    first_month: Decimal
    amount: Decimal             # the whole window, before VAT
    vat: Decimal
    total: Decimal
    in_words: str
    chosen: bool


@dataclass(frozen=True)
class QuoteDoc:
    number: str
    language: str
    issued: date
    valid_until: date
    provider: Party
    customer: Party
    title: str
    start: date
    end: date
    term: str                   # the chosen term, as a label
    capacity: str               # what is offered: model, GPUs, nodes, cluster, fabric
    nodes: str                  # the servers' names
    lines: tuple[QuoteLineRow, ...]
    terms: tuple[QuoteTermRow, ...]
    first_month_net: Decimal
    first_month_vat: Decimal
    first_month_total: Decimal
    net: Decimal
    vat: Decimal
    total: Decimal
    in_words: str
    hold: str = ""              # the hold's number and expiry


_T: dict[str, tuple[str, str]] = {
    "title": ("报价单", "Quotation"),
    "to": ("客户", "Customer"), "number": ("报价单号", "Quotation no."), "issued": ("报价日期", "Date"),
    "valid": ("有效期至", "Valid until"), "window": ("服务期", "Service period"), "term": ("计费方式", "Billing term"),
    "capacity": ("算力资源", "Capacity"), "nodes": ("预留节点", "Nodes held"), "hold": ("资源预留", "Hold"),
    "lines": ("报价明细（所选计费方式）", "Lines (the chosen term)"),
    "desc": ("项目", "Item"), "qty": ("数量", "Qty"), "unit": ("单位", "Unit"), "price": ("单价", "Unit price"),
    "month1": ("首月金额", "First month"), "rate": ("税率", "VAT"),
    "terms": ("计费方式对比（GPU 算力，全服务期）", "Terms side by side (GPU capacity, whole period)"),
    "t_term": ("计费方式", "Term"), "t_price": ("价格", "Price"), "t_amount": ("服务期金额（不含税）", "Period (excl. VAT)"),
    "t_vat": ("增值税", "VAT"), "t_total": ("价税合计", "Total"), "chosen": ("（本报价）", " (quoted)"),
    "totals": ("合计", "Totals"), "first": ("首月", "First month"), "whole": ("服务期合计", "Whole period"),
    "net": ("不含税金额", "Net"), "vat": ("增值税", "VAT"), "gross": ("价税合计", "Total incl. VAT"),
    "words": ("人民币大写", "In words (RMB)"),
    "notes": ("说明", "Notes"),
    "note_text": ("1. 按小时及混合计费按满负荷（每日 24 小时）测算，实际按用量结算。2. 本报价在有效期内有效，"
                  "预留节点在有效期届满后释放。3. 价格含增值税：GPU 算力租赁 13%，IDC 服务 6%。",
                  "1. Hourly and hybrid terms are estimated at full use (24 hours a day) and billed as used. "
                  "2. This quotation is valid until the date above; the held nodes are released after it. "
                  "3. VAT: GPU rental 13 %, IDC services 6 %."),
    "sign_customer": ("客户确认", "Accepted by the customer"), "sign_provider": ("报价方", "For the provider"),
    "sign_line": ("签字/盖章：______________  日期：________", "Signature / seal: ______________  Date: ________"),
}


def _t(key: str, lang: str) -> str:
    zh, en = _T[key]
    return en if lang == "en" else zh


def quote_story(doc: QuoteDoc, ctx: Context) -> list:
    lang, p = ctx.lang, ctx.p
    t = lambda k: _t(k, lang)  # noqa: E731
    width = available_width(ctx)
    label_w = 32 * mm
    half = width / 2
    story: list = [p(t("title"), "title")]
    head = [[t("to"), p(doc.customer.name, "cell"), t("number"), doc.number],
            [t("window"), f"{fmt_date(doc.start)} – {fmt_date(doc.end)}", t("issued"), fmt_date(doc.issued)],
            [t("term"), doc.term, t("valid"), fmt_date(doc.valid_until)],
            [t("capacity"), p(doc.capacity, "cell"), t("hold"), p(doc.hold or "—", "cell")]]
    story.append(ctx.table(head, [label_w, half - label_w, label_w, half - label_w], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"]),
                                  ("BACKGROUND", (2, 0), (2, -1), ctx.colour["header_bg"])]))
    if doc.nodes:
        story.append(Spacer(0, 2 * mm))
        story.append(p(f"{t('nodes')}：{doc.nodes}" if lang == "zh" else f"{t('nodes')}: {doc.nodes}", "small"))
    story.append(p(t("lines"), "h2"))
    rows = [[t("desc"), t("qty"), t("unit"), t("price"), t("month1"), t("rate")]]
    for ln in doc.lines:
        rows.append([p(ln.description + (f"<br/><font size=7>{ln.note}</font>" if ln.note else ""), "cell"),
                     fmt_qty(ln.quantity), ln.unit, fmt_price(ln.unit_price), fmt_money(ln.first_month), ln.tax_rate])
    story.append(ctx.table(rows, [width - 118 * mm, 16 * mm, 22 * mm, 28 * mm, 34 * mm, 18 * mm], right=(1, 3, 4),
                           centre=(5,)))
    if doc.terms:
        story.append(p(t("terms"), "h2"))
        rows = [[t("t_term"), t("t_price"), t("month1"), t("t_amount"), t("t_vat"), t("t_total")]]
        for tr in doc.terms:
            rows.append([p(tr.term + (t("chosen") if tr.chosen else ""), "cell"), p(tr.unit_price, "cell"),
                         fmt_money(tr.first_month), fmt_money(tr.amount), fmt_money(tr.vat), fmt_money(tr.total)])
        story.append(ctx.table(rows, [28 * mm, width - 144 * mm, 28 * mm, 32 * mm, 26 * mm, 30 * mm],
                               right=(2, 3, 4, 5)))
    story.append(p(t("totals"), "h2"))
    rows = [["", t("net"), t("vat"), t("gross")],
            [t("first"), fmt_money(doc.first_month_net), fmt_money(doc.first_month_vat), fmt_money(doc.first_month_total)],
            [t("whole"), fmt_money(doc.net), fmt_money(doc.vat), fmt_money(doc.total)]]
    story.append(ctx.table(rows, [label_w + 10 * mm, (width - label_w - 10 * mm) / 3, (width - label_w - 10 * mm) / 3,
                                  (width - label_w - 10 * mm) / 3], right=(1, 2, 3), zebra=False))
    story.append(Spacer(0, 2 * mm))
    story.append(ctx.table([[t("words"), p(doc.in_words, "cell")]], [label_w + 10 * mm, width - label_w - 10 * mm],
                           header_rows=0, zebra=False, extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])]))
    story.append(p(t("notes"), "h2"))
    story.append(p(t("note_text"), "small"))
    story.append(Spacer(0, 10 * mm))
    sign = [[p(t("sign_customer"), "cell"), p(t("sign_provider"), "cell")],
            [p(doc.customer.name, "cell"), p(doc.provider.name, "cell")],
            [p(t("sign_line"), "cell"), p(t("sign_line"), "cell")]]
    story.append(ctx.table(sign, [half, half], header_rows=0, zebra=False,
                           extra=[("GRID", (0, 0), (-1, -1), 0, ctx.colour["header_bg"]),
                                  ("TOPPADDING", (0, 2), (-1, -1), 10)]))
    return story


def render_quote(doc: QuoteDoc, path: str | os.PathLike, *, style: dict | None = None,
                 font_path: str | os.PathLike | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, quote_story(doc, ctx), ctx, doc=doc, title=_t("title", doc.language), number=doc.number,
                     letterhead=doc.provider)
