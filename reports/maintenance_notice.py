"""The maintenance notice (维护通知) sent to one customer: the window in Asia/Shanghai, what is
worked on, which of the customer's racks, devices and cross-connects are affected and how, and
whom to call. Plain data in, PDF out (issue 24)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_date
from .documents import Party


@dataclass(frozen=True)
class NoticeRow:
    object_kind: str   # a label in the document's language (机柜 / Rack …)
    object: str
    impact: str        # the impact level's label in the document's language
    effect: str        # what it means, in the document's language
    contract: str
    colour: str


@dataclass(frozen=True)
class MaintenanceNoticeDoc:
    number: str            # MW-000012
    language: str
    issued: date
    provider: Party        # the subsidiary operating the site: letterhead
    customer: Party
    site: str
    title: str
    description: str
    target: str            # what is worked on, in the document's language (列头柜 PP-A)
    window_start: str      # local time text, Asia/Shanghai
    window_end: str
    duration: str
    state: str             # label in the document's language
    emergency: bool
    emergency_reason: str
    notice_hours: int
    noticed_at: str        # local time text, "" while not noticed
    rows: tuple[NoticeRow, ...]
    contact: str


_T: dict[str, tuple[str, str]] = {
    "title": ("维护通知", "Maintenance notice"),
    "emergency_title": ("紧急维护通知", "Emergency maintenance notice"),
    "to": ("致", "To"),
    "site": ("数据中心", "Facility"),
    "work": ("维护内容", "Work"),
    "target": ("维护对象", "Worked on"),
    "window": ("维护时间（北京时间 UTC+8）", "Window (Asia/Shanghai, UTC+8)"),
    "duration": ("预计时长", "Expected duration"),
    "state": ("状态", "State"),
    "noticed": ("通知时间", "Notice given"),
    "reason": ("紧急原因", "Why it cannot wait"),
    "body": ("尊敬的客户：为保障数据中心基础设施安全稳定运行，我司将于下述时间进行计划维护。"
             "依据合同约定，计划维护至少提前 {hours} 小时通知；按期通知的计划维护时段不计入服务等级（SLA）可用性考核。",
             "Dear customer, to keep the facility's infrastructure safe and reliable we will carry out the planned "
             "work below. Planned maintenance is noticed at least {hours} hours before it starts; planned "
             "maintenance noticed in time does not count against the service level (SLA)."),
    "body_emergency": ("尊敬的客户：因下述原因需进行紧急维护，未能提前 {hours} 小时通知，敬请谅解。"
                       "紧急维护时段计入服务等级（SLA）考核。",
                       "Dear customer, the work below cannot wait for the usual {hours} hours' notice; we apologise. "
                       "Emergency maintenance counts against the service level (SLA)."),
    "affected": ("受影响的贵司资源", "Your services affected"),
    "kind": ("类型", "Kind"),
    "object": ("对象", "Object"),
    "impact": ("影响", "Impact"),
    "effect": ("说明", "What it means"),
    "contract": ("合同", "Contract"),
    "none": ("贵司资源不受本次维护影响。", "None of your services is affected by this work."),
    "advice": ("建议：请确认设备的 A/B 双路电源均已接入并工作正常；仅接单路电源的设备将在维护期间断电。"
               "如需协助（如远程协助、临时调整），请在维护开始前联系我们。",
               "Please make sure your equipment's A and B power supplies are both connected and working; equipment "
               "on one side only goes dark during the work. If you need help (remote hands, a temporary change), "
               "contact us before the work starts."),
    "contact": ("联系人", "Contact"),
}


def _t(key: str, lang: str) -> str:
    zh, en = _T[key]
    return en if lang == "en" else zh


def notice_story(doc: MaintenanceNoticeDoc, ctx: Context) -> list:
    from reportlab.lib import colors

    lang, p = ctx.lang, ctx.p
    t = lambda k: _t(k, lang)  # noqa: E731
    width = available_width(ctx)
    label_w = 46 * mm
    story: list = [p(t("emergency_title" if doc.emergency else "title"), "title")]
    head = [[t("to"), p(doc.customer.name, "cell")],
            [t("site"), p(doc.site, "cell")],
            [t("work"), p(doc.title, "cell")],
            [t("target"), p(doc.target, "cell")],
            [t("window"), p(f"{doc.window_start} — {doc.window_end}", "cell")],
            [t("duration"), p(doc.duration, "cell")],
            [t("state"), p(doc.state, "cell")]]
    if doc.noticed_at:
        head.append([t("noticed"), p(doc.noticed_at, "cell")])
    if doc.emergency:
        head.append([t("reason"), p(doc.emergency_reason, "cell")])
    story.append(ctx.table(head, [label_w, width - label_w], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])]))
    story.append(Spacer(0, 4 * mm))
    story.append(p(t("body_emergency" if doc.emergency else "body").format(hours=doc.notice_hours)))
    if doc.description:
        story.append(p(doc.description))
    story.append(p(t("affected"), "h2"))
    if doc.rows:
        rows = [[t("kind"), t("object"), t("impact"), t("effect"), t("contract")]]
        extra = []
        for n, r in enumerate(doc.rows, start=1):
            rows.append([p(r.object_kind, "cell"), p(r.object, "cell"), p(r.impact, "cell"), p(r.effect, "cell"),
                         p(r.contract or "—", "cell")])
            extra.append(("TEXTCOLOR", (2, n), (2, n), colors.HexColor(r.colour)))
        widths = [22 * mm, 38 * mm, 26 * mm, 0, 34 * mm]
        widths[3] = width - sum(widths)
        story.append(ctx.table(rows, widths, zebra=True, extra=extra))
    else:
        story.append(p(t("none")))
    story.append(Spacer(0, 3 * mm))
    story.append(p(t("advice"), "small"))
    story.append(Spacer(0, 4 * mm))
    story.append(ctx.table([[t("contact"), p(doc.contact, "cell")]], [label_w, width - label_w], header_rows=0,
                           zebra=False, extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])]))
    return story


def render_maintenance_notice(doc: MaintenanceNoticeDoc, path: str | os.PathLike, *, style: dict | None = None,
                              font_path: str | os.PathLike | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    title = _t("emergency_title" if doc.emergency else "title", doc.language)
    return build_pdf(path, notice_story(doc, ctx), ctx, doc=doc, title=title, number=doc.number,
                     letterhead=doc.provider, extra_footer=fmt_date(doc.issued))
