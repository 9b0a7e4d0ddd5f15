"""Audit report: summary (by actor and action, object type, day), then every event, checkpoint on each page.

The detail is laid out page by page: rows are measured once and packed into one table per page,
each with its header. One long table split at every page boundary re-measures all the rows left
at each split, which made the report quadratic (40k events: 158 s; docs/performance.md).
"""
from __future__ import annotations

import os

from reportlab.lib.pagesizes import A4, landscape as to_landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_date
from .documents import AuditReportDoc

# Fractions of the landscape frame width; free-text columns get the room.
_EVENT_COLS = (("seq", 0.05), ("time", 0.13), ("actor", 0.08), ("action", 0.10),
               ("object", 0.14), ("changes", 0.28), ("reason", 0.15), ("outcome", 0.07))
# Table cell geometry as Context.table sets it (font size - 0.5, leading + 2.5, paddings).
_PAD_TOP, _PAD_BOTTOM, _PAD_SIDES = 2, 2.5, 6

_WORDS = {
    "by_object": ("按对象类型", "By object type"),
    "by_day": ("按日（北京时间）", "By day (Asia/Shanghai)"),
    "omitted": ("本期间共 {n:,} 条事件，逐条列出约需 {pages:,} 页，超出可阅读的 PDF 篇幅，故未列出明细。"
                "上方汇总涵盖全部事件；完整明细请导出 CSV（导出总是完整的），或缩小期间、按操作人或操作筛选。",
                "The period has {n:,} events; listed one by one they would take about {pages:,} pages, "
                "more than a readable PDF, so the detail is left out. The summary above covers every "
                "event; the CSV export is always complete, or narrow the period or filter by actor or action."),
}


def _word(key: str, ctx: Context) -> str:
    zh, en = _WORDS[key]
    return zh if ctx.lang == "zh" else en


def frame_height(ctx: Context) -> float:
    m = ctx.style["page"]
    return to_landscape(A4)[1] - (m["margin_top_mm"] + m["margin_bottom_mm"]) * mm


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

    total = doc.total_events if doc.total_events is not None else len(doc.events)
    bold_last = [("FONTNAME", (0, -1), (-1, -1), ctx.fonts.bold)]
    story.append(p(t("summary"), "h2"))
    rows = [[t("actor"), t("action"), t("count")]]
    rows += [[s.actor, s.action, f"{s.count:,}"] for s in doc.summary]
    rows.append([t("totals"), "", f"{sum(s.count for s in doc.summary):,}"])
    story.append(ctx.table(rows, [width * 0.3, width * 0.3, width * 0.12], right=(2,), long=True, extra=bold_last))
    for key, cuts in (("by_object", doc.by_object), ("by_day", doc.by_day)):
        if not cuts:
            continue
        story.append(p(_word(key, ctx), "h2"))
        rows = [[t("object") if key == "by_object" else t("date"), t("count")]]
        rows += [[name, f"{n:,}"] for name, n in cuts]
        rows.append([t("totals"), f"{sum(n for _, n in cuts):,}"])
        story.append(ctx.table(rows, [width * 0.3, width * 0.12], right=(1,), long=True, extra=bold_last))

    if doc.omitted_pages:
        story += [p(f"{t('events')} ({total:,})", "h2"),
                  p(_word("omitted", ctx).format(n=total, pages=doc.omitted_pages), "body")]
        return story
    story += [p(f"{t('events')} ({total:,})", "h2"), Spacer(0, 1 * mm)]
    story += event_tables(doc, ctx, width)
    return story


def wrap_lines(text: str, room: float, font: str, size: float) -> list[str]:
    """`text` broken into lines no wider than `room`: at spaces where it can, else between characters
    (Chinese has no spaces; a long code or hash has none either)."""
    out: list[str] = []
    for line in text.split("\n"):
        if stringWidth(line, font, size) <= room:
            out.append(line)
            continue
        current = ""
        for word in line.split(" "):
            candidate = f"{current} {word}" if current else word
            if stringWidth(candidate, font, size) <= room:
                current = candidate
                continue
            if current:
                out.append(current)
            current = word
            while stringWidth(current, font, size) > room:
                # the longest head of the word that fits, at least one character
                lo, hi = 1, len(current)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if stringWidth(current[:mid], font, size) <= room:
                        lo = mid
                    else:
                        hi = mid - 1
                out.append(current[:lo])
                current = current[lo:]
        out.append(current)
    return out


class EventPages(Flowable):
    """The events from `start` on, laid out a page at a time.

    Each row is measured once up front; at a page boundary the frame asks us to split, and we
    hand it one table of the rows that fit (header included) and ourselves for the rest. Rows
    are never re-measured, so the cost is linear in the events, and pages are filled from
    wherever the detail starts, the first one included.
    """

    def __init__(self, rows: list, heights: list[float], header: list, make, header_h: float, start: int = 0):
        super().__init__()
        self._rows, self._heights, self._header, self._make = rows, heights, header, make
        self._header_h, self._start = header_h, start
        self._table = None

    def _fitting(self, height: float) -> int:
        room, heights = height - self._header_h, self._heights
        i = self._start
        while i < len(heights) and heights[i] <= room:
            room -= heights[i]
            i += 1
        return i - self._start

    def _table_for(self, k: int, aw: float, ah: float):
        """The table of the next k rows and its real height, fewer rows if we under-measured."""
        while True:
            table = self._make([self._header] + self._rows[self._start:self._start + k])
            h = table.wrap(aw, ah)[1]
            if h <= ah or k <= 1:
                return table, h, k
            k -= 1

    def wrap(self, aw, ah):
        if self._fitting(ah) < len(self._rows) - self._start:
            self.width, self.height = aw, ah + 1  # more than the page: the frame will split us
            self._table = None
            return self.width, self.height
        self._table, h, _ = self._table_for(len(self._rows) - self._start, aw, ah)
        self.width, self.height = aw, h
        return self.width, self.height

    def split(self, aw, ah):
        k = self._fitting(ah)
        if k == 0:
            return []  # not even one row here: start on the next page
        table, _, k = self._table_for(k, aw, ah)
        return [table, EventPages(self._rows, self._heights, self._header, self._make, self._header_h,
                                  self._start + k)]

    def draw(self):
        self._table.drawOn(self.canv, 0, 0)


def event_tables(doc: AuditReportDoc, ctx: Context, width: float) -> list:
    """The events: one flowable that lays out one table per page (header repeated)."""
    t = ctx.t
    cell = ctx.para["cell"]
    widths = [width * f for _, f in _EVENT_COLS]
    rooms = [w - _PAD_SIDES for w in widths]
    font, size = cell.fontName, cell.fontSize
    leading = ctx.style["font_size"] - 0.5 + 2.5
    header = [t(key) for key, _ in _EVENT_COLS]
    page_h = frame_height(ctx)

    def fit(text: str, col: int) -> tuple[str, float]:
        # Plain strings with our own line breaks: drawn line by line, several times faster than
        # Paragraphs (which the table would also wrap a second time), and their height is exact.
        lines = wrap_lines(text, rooms[col], font, size)
        if len(lines) > max_lines:  # a row must fit on a page; the CSV export has the whole text
            lines = lines[:max_lines - 1] + ["…"]
        return "\n".join(lines), len(lines) * leading

    pad = _PAD_TOP + _PAD_BOTTOM
    max_lines = int((page_h - 2 * (leading + pad)) // leading) - 1
    rows: list = []
    heights: list[float] = []
    for e in doc.events:
        cells = [str(e.seq), e.time_local]
        height = leading
        for col, text in ((2, e.actor), (3, e.action), (4, e.object), (5, e.changes), (6, e.reason),
                          (7, e.outcome)):
            value, h = fit(text, col)
            cells.append(value)
            if h > height:
                height = h
        rows.append(cells)
        heights.append(height + pad)
    if not doc.events:
        return [ctx.table([header, ["", t("empty")] + [""] * 6], widths, right=(0,))]

    def make(chunk: list):
        return ctx.table(chunk, widths, right=(0,))
    return [EventPages(rows, heights, header, make, leading + pad)]


def render_audit_report(doc: AuditReportDoc, path: str | os.PathLike, *, style: dict | None = None,
                        font_path: str | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    footer = f"{ctx.t('checkpoint')} {doc.checkpoint}"
    return build_pdf(path, audit_story(doc, ctx), ctx, doc=doc, title=doc.title, number=doc.number,
                     letterhead=doc.subsidiary, extra_footer=footer, landscape=True)
