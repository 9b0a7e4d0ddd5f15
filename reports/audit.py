"""Audit report: summary by actor and action, then every event, checkpoint on each page."""
from __future__ import annotations

import os
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_date
from .documents import AuditReportDoc

# Fractions of the landscape frame width; free-text columns get the room.
_EVENT_COLS = (("seq", 0.05), ("time", 0.13), ("actor", 0.08), ("action", 0.10),
               ("object", 0.14), ("changes", 0.28), ("reason", 0.15), ("outcome", 0.07))


def audit_story(doc: AuditReportDoc, ctx: Context) -> list:
    t, p = ctx.t, ctx.p
    width = available_width(ctx, landscape=True)
    story: list = [p(doc.title, "title")]
    meta = [[t("audit_period"), f"{fmt_date(doc.period_from)} — {fmt_date(doc.period_to)}",
             t("generated_at"), fmt_date(doc.generated_at)],
            [t("filters"), p(doc.filters or t("empty"), "cell"), t("checkpoint"), doc.checkpoint],
            [t("verification"), p(doc.verification, "cell"), "", ""]]
    story.append(ctx.table(meta, [width * 0.1, width * 0.35, width * 0.1, width * 0.45],
                           header_rows=0, zebra=False,
                           extra=[("SPAN", (1, 2), (3, 2)),
                                  ("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"]),
                                  ("BACKGROUND", (2, 0), (2, -2), ctx.colour["header_bg"])]))

    story.append(p(t("summary"), "h2"))
    rows = [[t("actor"), t("action"), t("count")]]
    rows += [[s.actor, s.action, f"{s.count:,}"] for s in doc.summary]
    rows.append([t("totals"), "", f"{sum(s.count for s in doc.summary):,}"])
    story.append(ctx.table(rows, [width * 0.3, width * 0.3, width * 0.12], right=(2,), long=True,
                           extra=[("FONTNAME", (0, -1), (-1, -1), ctx.fonts.bold)]))

    story += [p(f"{t('events')} ({len(doc.events):,})", "h2"), Spacer(0, 1 * mm)]
    cell = ctx.para["cell"]
    widths = [width * f for _, f in _EVENT_COLS]
    font, size = cell.fontName, cell.fontSize
    rows = [[t(key) for key, _ in _EVENT_COLS]]

    def wrap(text: str, col: int):
        # Plain strings (newlines allowed) lay out several times faster than Paragraphs,
        # which matters at 10,000 events; wrap only text that does not fit its column.
        room = widths[col] - 6
        if all(stringWidth(line, font, size) <= room for line in text.split("\n")):
            return text
        return Paragraph(escape(text).replace("\n", "<br/>"), cell)

    for e in doc.events:
        rows.append([str(e.seq), e.time_local, wrap(e.actor, 2), wrap(e.action, 3),
                     wrap(e.object, 4), wrap(e.changes, 5), wrap(e.reason, 6), wrap(e.outcome, 7)])
    if not doc.events:
        rows.append(["", t("empty")] + [""] * 6)
    story.append(ctx.table(rows, widths, right=(0,), long=True))
    return story


def render_audit_report(doc: AuditReportDoc, path: str | os.PathLike, *, style: dict | None = None,
                        font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    footer = f"{ctx.t('checkpoint')} {doc.checkpoint}"
    return build_pdf(path, audit_story(doc, ctx), ctx, doc=doc, title=doc.title, number=doc.number,
                     letterhead=doc.subsidiary, extra_footer=footer, landscape=True)
