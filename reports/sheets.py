"""Rack sheet, capacity report and GPU fleet report."""
from __future__ import annotations

import os
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from .base import (Context, RenderResult, available_height, available_width, build_pdf,
                   fmt_cny, fmt_date, fmt_money, fmt_qty)
from .documents import CapacityDoc, FleetDoc, RackSheetDoc
from .rack import rack_drawing


def _pct(used, total) -> str:
    if not total:
        return "—"
    return f"{Decimal(used) * 100 / Decimal(total):.0f}%"


def _columns(declared, dicts) -> list[str]:
    cols = list(declared)
    for d in dicts:
        cols += [k for k in d if k not in cols]
    return cols


def _u_range(position: Decimal, height: Decimal) -> str:
    top = Decimal(position) + Decimal(height) - 1
    pos = fmt_qty(position)
    return f"U{pos}" if top <= position else f"U{pos}–U{fmt_qty(top)}"


def rack_sheet_story(doc: RackSheetDoc, ctx: Context) -> list:
    t, p, rack = ctx.t, ctx.p, doc.rack
    width = available_width(ctx)
    sep = "：" if ctx.lang == "zh" else ": "
    story: list = [p(f"{t('rack_sheet')}  {rack.name}", "title")]
    info = [[t("site"), p(rack.site, "cell"), t("room"), p(rack.room, "cell"), t("u_height"),
             f"{rack.u_height}U"],
            [t("power_capacity"), f"{rack.power_capacity_kw} kW", t("power_typical"),
             f"{rack.power_typical_kw} kW", t("lessee"), p(rack.customer or "—", "cell")]]
    if doc.generated_at:
        info.append([t("generated_at"), fmt_date(doc.generated_at), "", "", "", ""])
    w = width / 6
    story.append(ctx.table(info, [w * 0.75, w * 1.1, w * 0.75, w * 1.1, w * 0.75, w * 1.55], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (c, 0), (c, -1), ctx.colour["header_bg"])
                                  for c in (0, 2, 4)]))
    story.append(Spacer(0, 4 * mm))
    story.append(rack_drawing(rack, ctx, width, available_height(ctx) - 118 * mm))
    story.append(p(t("device_list"), "h2"))
    # devices top to bottom as on the drawing, then the reservations
    rows = [[t("position"), t("name"), t("model"), t("owner"), t("face")]]
    for dev in sorted(rack.devices, key=lambda d: -Decimal(d.position)):
        rows.append([_u_range(dev.position, dev.height), p(dev.name, "cell"), p(dev.model, "cell"),
                     p(dev.owner, "cell"), t(dev.face) if dev.face in ("front", "rear") else dev.face])
    for r in rack.reservations:
        face = t(r.face) if r.face in ("front", "rear") else f"{t('front')}/{t('rear')}"
        rows.append([f"U{r.u_from}–U{r.u_to}", p(f"{t('reserved')}{sep}{r.customer}", "cell"), "", "",
                     face])
    if len(rows) == 1:
        rows.append(["", t("empty"), "", "", ""])
    story.append(ctx.table(rows, [60, width * 0.3, width * 0.25, width - 60 - width * 0.55 - 50, 50],
                           long=True))
    return story


def render_rack_sheet(doc: RackSheetDoc, path: str | os.PathLike, *, style: dict | None = None,
                      font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, rack_sheet_story(doc, ctx), ctx, doc=doc,
                     title=f"{ctx.t('rack_sheet')} {doc.rack.name}", number=doc.number,
                     letterhead=doc.subsidiary)


def capacity_story(doc: CapacityDoc, ctx: Context, landscape: bool) -> list:
    t, p = ctx.t, ctx.p
    width = available_width(ctx, landscape)
    sep = "：" if ctx.lang == "zh" else ": "
    story: list = [p(f"{t('capacity')} — {doc.site}", "title"),
                   p(f"{t('generated_at')}{sep}{fmt_date(doc.generated_at)}", "small"),
                   Spacer(0, 3 * mm)]
    states = _columns(doc.gpu_states, (r.gpus_by_state for r in doc.rows))
    space = any(r.leased_u is not None for r in doc.rows)  # leased, reserved and free U per rack
    head = [t("room"), t("rack"), t("units"), t("utilisation")]
    head += [t("leased_u"), t("reserved_u"), t("free_u")] if space else []
    head += [t("power_kw"), t("utilisation")]
    rows = [head + [f"GPU {s}" for s in states]]

    def figures(group) -> list[str]:
        u = sum(r.units_used for r in group)
        ut = sum(r.units_total for r in group)
        pw = sum((Decimal(r.power_used_kw) for r in group), Decimal(0))
        pc = sum((Decimal(r.power_capacity_kw) for r in group), Decimal(0))
        lease = ([str(sum(r.leased_u or 0 for r in group)), str(sum(r.reserved_u or 0 for r in group)),
                  str(sum(r.free_u or 0 for r in group))] if space else [])
        return ([f"{u} / {ut}", _pct(u, ut)] + lease + [f"{fmt_qty(pw)} / {fmt_qty(pc)}", _pct(pw, pc)]
                + [str(sum(r.gpus_by_state.get(s, 0) for r in group)) for s in states])

    # racks grouped by room (in the order given), a subtotal after each room with several racks
    rooms: dict[str, list] = {}
    for r in doc.rows:
        rooms.setdefault(r.room, []).append(r)
    subtotal_rows = []
    for room, group in rooms.items():
        for r in group:
            rows.append([p(r.room, "cell"), p(r.rack, "cell")] + figures([r]))
        if len(group) > 1:
            subtotal_rows.append(len(rows))
            rows.append([p(room, "cell"), t("subtotal_short")] + figures(group))
    rows.append([t("totals"), str(len(doc.rows))] + figures(doc.rows))
    marks = [cmd for n in subtotal_rows for cmd in (
        ("BACKGROUND", (0, n), (-1, n), ctx.colour["header_bg"]),
        ("FONTNAME", (0, n), (-1, n), ctx.fonts.bold))]
    fixed = [72, 50, 92, 46, 46, 46, 46, 112, 46] if space else [72, 72, 80, 44, 96, 44]
    rest = max(width - sum(fixed), 30 * len(states))
    gw = rest / len(states) if states else 0
    widths = fixed + [gw] * len(states)
    if not states:
        widths[1] += width - sum(fixed)
    story.append(ctx.table(rows, widths, right=tuple(range(2, len(head) + len(states))), long=True,
                           zebra=False,
                           extra=marks + [("FONTNAME", (0, -1), (-1, -1), ctx.fonts.bold),
                                          ("LINEABOVE", (0, -1), (-1, -1), 1, ctx.colour["accent"])]))
    from .power import power_story
    story += power_story(doc.power, ctx, width)
    return story


def render_capacity(doc: CapacityDoc, path: str | os.PathLike, *, style: dict | None = None,
                    font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    states = _columns(doc.gpu_states, (r.gpus_by_state for r in doc.rows))
    landscape = len(states) > 3 or any(r.leased_u is not None for r in doc.rows)  # wide with the space columns
    return build_pdf(path, capacity_story(doc, ctx, landscape), ctx, doc=doc,
                     title=f"{ctx.t('capacity')} {doc.site}", number=doc.number,
                     letterhead=doc.subsidiary, landscape=landscape)


def fleet_story(doc: FleetDoc, ctx: Context, landscape: bool) -> list:
    t, p = ctx.t, ctx.p
    width = available_width(ctx, landscape)
    sep = "：" if ctx.lang == "zh" else ": "
    story: list = [p(doc.title or t("fleet"), "title"),
                   p(f"{t('generated_at')}{sep}{fmt_date(doc.generated_at)}", "small"),
                   Spacer(0, 3 * mm)]
    states = _columns(doc.states, (r.counts for r in doc.rows))
    rows = [[t("model")] + states + [t("totals"), t("book_value"), t("revenue_12m")]]
    tot_c = dict.fromkeys(states, 0)
    tot_bv = tot_rev = Decimal(0)
    for r in doc.rows:
        n = sum(r.counts.values())
        rows.append([p(r.model, "cell")] + [str(r.counts.get(s, 0)) for s in states]
                    + [str(n), fmt_money(r.book_value), fmt_money(r.revenue_12m)])
        for s in states:
            tot_c[s] += r.counts.get(s, 0)
        tot_bv += r.book_value
        tot_rev += r.revenue_12m
    rows.append([t("totals")] + [str(tot_c[s]) for s in states]
                + [str(sum(tot_c.values())), fmt_cny(tot_bv), fmt_cny(tot_rev)])
    money_w, model_w = 92, 90
    count_w = (width - model_w - 2 * money_w) / (len(states) + 1)
    widths = [model_w] + [count_w] * (len(states) + 1) + [money_w, money_w]
    story.append(ctx.table(rows, widths, right=tuple(range(1, len(states) + 4)), long=True,
                           extra=[("FONTNAME", (0, -1), (-1, -1), ctx.fonts.bold),
                                  ("LINEABOVE", (0, -1), (-1, -1), 1, ctx.colour["accent"])]))
    return story


def render_fleet(doc: FleetDoc, path: str | os.PathLike, *, style: dict | None = None,
                 font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    states = _columns(doc.states, (r.counts for r in doc.rows))
    landscape = len(states) > 5
    return build_pdf(path, fleet_story(doc, ctx, landscape), ctx, doc=doc,
                     title=doc.title or ctx.t("fleet"), number=doc.number,
                     letterhead=doc.subsidiary, landscape=landscape)
