"""The guard desk's daily visitor list: everyone expected or inside one site on one day, with their
ID (masked unless the printer may see it), company, space, escort, badge, times in and out, and
overstays marked. Plain data in, PDF out (issue 24)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date

from reportlab.lib import colors

from .base import Context, RenderResult, available_width, build_pdf
from .documents import Party


@dataclass(frozen=True)
class VisitorListRow:
    visit: str
    customer: str
    name: str
    id_type: str        # label in the document's language
    id_number: str      # masked unless the reader may see it
    company: str
    space: str
    escort: bool
    window: str         # local HH:MM–HH:MM (with the date when it is another day)
    badge: str
    checked_in: str
    checked_out: str
    overstay_min: int


@dataclass(frozen=True)
class VisitorListDoc:
    number: str
    language: str
    day: date
    site: str
    provider: Party
    printed_at: str
    rows: tuple[VisitorListRow, ...]


_T: dict[str, tuple[str, str]] = {
    "title": ("访客登记表", "Daily visitor list"),
    "site": ("数据中心", "Facility"),
    "day": ("日期", "Day"),
    "printed": ("打印时间", "Printed"),
    "head": (("申请单", "客户", "姓名", "证件", "证件号码", "单位", "区域", "陪同", "时段", "门禁卡", "进入", "离开"),
             ("Visit", "Customer", "Name", "ID", "ID number", "Company", "Space", "Escort", "Window", "Badge", "In",
              "Out")),
    "yes": ("需陪同", "escort"),
    "no": ("—", "—"),
    "over": ("超时 {m} 分钟", "overstayed {m} min"),
    "none": ("当日无访客。", "No visitors that day."),
    "summary": ("共 {n} 人；在场 {on} 人；超时 {over} 人。", "{n} visitor(s); {on} on site; {over} overstayed."),
    "sign": ("值班保安签字：__________________", "Guard on duty: __________________"),
}


def _t(key: str, lang: str):
    zh, en = _T[key]
    return en if lang == "en" else zh


def visitors_story(doc: VisitorListDoc, ctx: Context) -> list:
    lang, p = ctx.lang, ctx.p
    width = available_width(ctx, landscape=True)
    story: list = [p(_t("title", lang), "title"),
                   p(f"{_t('site', lang)}：{doc.site}    {_t('day', lang)}：{doc.day.isoformat()}    "
                     f"{_t('printed', lang)}：{doc.printed_at}" if lang == "zh" else
                     f"{_t('site', lang)}: {doc.site}    {_t('day', lang)}: {doc.day.isoformat()}    "
                     f"{_t('printed', lang)}: {doc.printed_at}")]
    if not doc.rows:
        story.append(p(_t("none", lang)))
        return story
    rows = [list(_t("head", lang))]
    extra = []
    for n, r in enumerate(doc.rows, start=1):
        out = r.checked_out + (("\n" if r.checked_out else "") + _t("over", lang).format(m=r.overstay_min)
                               if r.overstay_min else "")
        rows.append([p(r.visit, "cell"), p(r.customer, "cell"), p(r.name, "cell"), p(r.id_type, "cell"),
                     p(r.id_number, "cell"), p(r.company, "cell"), p(r.space, "cell"),
                     _t("yes", lang) if r.escort else _t("no", lang), p(r.window, "cell"), r.badge,
                     p(r.checked_in, "cell"), p(out.replace("\n", "<br/>"), "cell")])
        if r.overstay_min:
            extra.append(("TEXTCOLOR", (11, n), (11, n), colors.HexColor("#e53935")))
    widths = [50, 84, 40, 50, 104, 70, 50, 38, 62, 40, 36, 0]
    widths[-1] = width - sum(widths)
    story.append(ctx.table(rows, widths, long=True, extra=extra))
    on = sum(1 for r in doc.rows if r.checked_in and not r.checked_out)
    over = sum(1 for r in doc.rows if r.overstay_min)
    story.append(p(_t("summary", lang).format(n=len(doc.rows), on=on, over=over), "small"))
    story.append(p(_t("sign", lang)))
    return story


def render_visitor_list(doc: VisitorListDoc, path: str | os.PathLike, *, style: dict | None = None,
                        font_path: str | os.PathLike | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, visitors_story(doc, ctx), ctx, doc=doc, title=_t("title", doc.language), number=doc.number,
                     letterhead=doc.provider, landscape=True)
