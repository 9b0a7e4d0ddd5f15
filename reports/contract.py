"""Service contract with schedule, rack elevations and equipment lists as annexes."""
from __future__ import annotations

import os

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, KeepTogether, PageBreak, Spacer

from .base import (Context, RenderResult, available_height, available_width, heading,
                   build_pdf, fmt_cny, fmt_date, fmt_price, fmt_qty, fmt_rate)
from .documents import ContractDoc
from .rack import rack_drawing


def _numbered(ctx: Context, texts) -> list:
    return [ctx.p(f"{n}. {text}", "term") for n, text in enumerate(texts, start=1)]


def _signature_block(doc: ContractDoc, ctx: Context, width: float):
    t = ctx.t
    half = width / 2

    sep = "：" if ctx.lang == "zh" else ": "

    def cell(role: str, name: str) -> list:
        return [ctx.p(f"{t(role)}{sep}{name}", "cell"),
                Spacer(0, 6 * mm),
                ctx.p(f"{t('signature')}{sep}________________", "cell"),
                Spacer(0, 16 * mm),
                ctx.p(f"{t('seal')}{sep}", "cell"),
                Spacer(0, 16 * mm),
                ctx.p(f"{t('date')}：______年____月____日" if ctx.lang == "zh"
                      else f"{t('date')}: ____________", "cell")]

    rows = [[cell("party_a", doc.customer.name), cell("party_b", doc.subsidiary.name)]]
    return ctx.table(rows, [half, half], header_rows=0, zebra=False,
                     extra=[("TOPPADDING", (0, 0), (-1, -1), 6),
                            ("LEFTPADDING", (0, 0), (-1, -1), 8)])


def _sums_table(doc: ContractDoc, ctx: Context, width: float):
    t, sums = ctx.t, doc.sums
    words = sums.total_in_words
    if words and not words.startswith(("人民币", "RMB")):
        words = ("人民币" if ctx.lang == "zh" else "RMB ") + words  # as a fapiao and a bank slip write it
    value_w = min(max(200.0, ctx.text_width(words) + 10), width * 0.7)
    rows = [[t("monthly_recurring"), fmt_cny(sums.monthly)], [t("one_off_total"), fmt_cny(sums.one_off)],
            [t("term_value"), fmt_cny(sums.term_value)], [t("vat"), fmt_cny(sums.vat)],
            [t("contract_total"), fmt_cny(sums.total)], [t("in_words"), ctx.p_fit(words, value_w)]]
    if sums.usage_based:
        rows.append([ctx.p(t("usage_extra"), "small"), ""])
    n = 4
    extra = [("FONTNAME", (0, n), (-1, n), ctx.fonts.bold),
             ("BACKGROUND", (0, n), (-1, n + 1), ctx.colour["header_bg"])]
    if sums.usage_based:
        extra.append(("SPAN", (0, 6), (1, 6)))
    return KeepTogether([ctx.table(rows, [width - value_w, value_w], header_rows=0, zebra=False, right=(0, 1),
                                   extra=extra)])


def _annexes(doc: ContractDoc, ctx: Context, width: float) -> list:
    """The annexes, numbered in order: each rack's elevation, the GPUs by serial, the devices."""
    t, p, lang = ctx.t, ctx.p, ctx.lang
    sep = "：" if ctx.lang == "zh" else ": "
    story: list = []
    annex_no = 0
    if doc.racks:
        for rack in doc.racks:
            annex_no += 1
            story += [PageBreak(), p(f"{heading('annex', lang)} {annex_no}  {heading('rack_elevations', lang)}", "h2"),
                      p(f"{t('rack')}{sep}{rack.name}    {t('site')}{sep}{rack.site}    "
                        f"{t('room')}{sep}{rack.room}    {t('u_height')}{sep}{rack.u_height}U    "
                        f"{t('power_capacity')}{sep}{rack.power_capacity_kw} kW", "small"),
                      *([p(f"{t('leased_range')}{sep}" + ("、" if lang == "zh" else ", ").join(
                          f"U{ls.u_from}–U{ls.u_to}" + (f" ({t(ls.face)})" if ls.face in ("front", "rear") else "")
                          for ls in rack.leases) + f"    {rack.leases[0].customer}", "body")] if rack.leases else []),
                      Spacer(0, 3 * mm),
                      rack_drawing(rack, ctx, width, available_height(ctx) - 30 * mm)]
    if doc.gpus:
        annex_no += 1
        story += [PageBreak(), p(f"{heading('annex', lang)} {annex_no}  {heading('gpu_list', lang)}", "h2")]
        rows = [["#", t("serial"), t("model"), t("host")]]
        rows += [[str(n), g.serial, g.model, g.host] for n, g in enumerate(doc.gpus, start=1)]
        story.append(ctx.table(rows, [30, (width - 30) * 0.4, (width - 30) * 0.25,
                                      (width - 30) * 0.35], centre=(0,), long=True))
    if doc.devices:
        annex_no += 1
        story += [CondPageBreak(60 * mm) if doc.gpus else PageBreak(),
                  p(f"{heading('annex', lang)} {annex_no}  {heading('device_list', lang)}", "h2")]
        rows = [["#", t("name"), t("serial"), t("model"), t("rack"), t("position")]]
        rows += [[str(n), p(d.name, "cell"), d.serial, p(d.model, "cell"), d.rack, d.position]
                 for n, d in enumerate(doc.devices, start=1)]
        w = width - 30
        story.append(ctx.table(rows, [30, w * 0.2, w * 0.2, w * 0.34, w * 0.12, w * 0.14],
                               centre=(0,), long=True))
    return story


def contract_story(doc: ContractDoc, ctx: Context) -> list:
    t, p, lang = ctx.t, ctx.p, ctx.lang
    width = available_width(ctx)
    story: list = [p(doc.title, "title")]
    if doc.draft:
        story.append(p(t("draft_note"), "h2"))
    # the signing copy: no internal status (履行中, 待审批) on the paper both parties sign
    meta = [[t("doc_no"), doc.number, t("sign_place") if doc.sign_place else "", doc.sign_place],
            [t("contract_term"), f"{fmt_date(doc.start)} — {fmt_date(doc.end)}", "", ""]]
    q = width / 4
    story.append(ctx.table(meta, [q * 0.7, q * 1.5, q * 0.6, q * 1.2], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"]),
                                  ("BACKGROUND", (2, 0), (2, -1), ctx.colour["header_bg"])]))
    story.append(Spacer(0, 3 * mm))
    half = width / 2
    story.append(ctx.table(
        [[heading("party_a", lang), heading("party_b", lang)],
         [p("\n".join(ctx.party_lines(doc.customer)), "cell"),
          p("\n".join(ctx.party_lines(doc.subsidiary)), "cell")]], [half, half], zebra=False))

    if doc.terms:
        story += [p(heading("terms", lang), "h2"), *_numbered(ctx, doc.terms)]

    story.append(p(heading("items", lang), "h2"))
    # the figures' columns fit their contents; the note is wide enough for "安装费每条 ¥1,200.00"
    rows = [["#", t("description"), t("quantity"), t("unit"), t("unit_price"), t("tax_rate"),
             t("service_start"), t("note")]]
    for n, item in enumerate(doc.items, start=1):
        rows.append([str(n), None, fmt_qty(item.quantity), item.unit, fmt_price(item.unit_price),
                     fmt_rate(item.tax_rate), fmt_date(item.service_start), None])
    widths, shrink = ctx.fit_columns(rows, [18, 0, 40, 42, 66, 38, 62, 92], 1, width)
    for row, item in zip(rows[1:], doc.items):
        row[1], row[7] = p(item.description, "cell"), p(item.note, "cell")
    if not doc.items:
        rows.append(["", t("empty")] + [""] * 6)
    story.append(ctx.table(rows, widths, right=(2, 4, 5), centre=(0, 3), long=True, extra=shrink))
    if doc.sums is not None:
        story.append(Spacer(0, 2 * mm))
        story.append(_sums_table(doc, ctx, width))

    if doc.service_level:
        story += [p(heading("service_level", lang), "h2"), p(doc.service_level)]
    if doc.billing_terms:
        story += [p(heading("billing_terms", lang), "h2"), *_numbered(ctx, doc.billing_terms)]

    story += [CondPageBreak(95 * mm), p(heading("signatures", lang), "h2")]
    if doc.approval:
        story.append(p(doc.approval))
    story.append(KeepTogether([_signature_block(doc, ctx, width)]))

    story += _annexes(doc, ctx, width)
    return story


def render_contract(doc: ContractDoc, path: str | os.PathLike, *, style: dict | None = None,
                    font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, contract_story(doc, ctx), ctx, doc=doc, title=doc.title,
                     number=doc.number, letterhead=doc.subsidiary,
                     watermark=ctx.t("draft_mark") if doc.draft else "")
