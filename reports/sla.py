"""The monthly SLA report of one customer (issue 24): its tickets, each target achieved against
what was promised, availability, breaches and credits. Plain data in, PDF out; both languages."""
from __future__ import annotations

import os
from dataclasses import dataclass
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_money
from .documents import Party


@dataclass(frozen=True)
class SlaTicketRow:
    number: str
    priority: str          # P1 … P4
    kind: str              # a label in the document's language
    title: str
    opened: str            # local time text
    state: str             # a label in the document's language
    ack: str               # "12 / 15 min ✓" …
    onsite: str
    resolve: str


@dataclass(frozen=True)
class SlaTargetRow:
    metric: str            # a label in the document's language
    tickets: int
    met: int
    promised: str          # e.g. "P1 15 min · P2 30 min"


@dataclass(frozen=True)
class SlaCreditRow:
    ticket: str
    item: str
    state: str             # a label in the document's language
    amount: Decimal


@dataclass(frozen=True)
class SlaReportDoc:
    number: str            # SLA-<customer id>-<YYYY-MM>
    language: str
    period: str
    provider: Party
    customer: Party
    tickets: tuple[SlaTicketRow, ...]
    targets: tuple[SlaTargetRow, ...]
    breaches: tuple[tuple[str, str, str], ...]    # (ticket, metric label, when)
    credits: tuple[SlaCreditRow, ...]
    availability: str      # "99.512 %" or "—"
    promised_availability: str
    down_hours: str


_T = {
    "title": ("月度 SLA 服务报告", "Monthly SLA report"),
    "customer": ("客户", "Customer"), "period": ("期间", "Period"),
    "targets": ("服务目标达成", "Targets achieved"), "metric": ("指标", "Target"),
    "tickets": ("工单数", "Tickets"), "met": ("达成", "Met"), "rate": ("达成率", "Achieved"),
    "promised": ("承诺时限", "Promised"),
    "availability": ("可用性", "Availability"), "promised_av": ("承诺可用性", "Promised availability"),
    "down": ("停机时长（小时）", "Down hours"),
    "list": ("工单明细", "Tickets"), "number": ("工单号", "Ticket"), "prio": ("优先级", "Priority"),
    "kind": ("类型", "Kind"), "subject": ("标题", "Title"), "opened": ("报障时间", "Reported"),
    "state": ("状态", "State"), "ack": ("响应", "Acknowledge"), "onsite": ("到场", "On site"),
    "resolve": ("解决", "Resolve"),
    "breaches": ("超时记录", "Breaches"), "when": ("超时时间", "Due at"),
    "credits": ("服务赔偿", "Service credits"), "item": ("项目", "Item"), "amount": ("金额（元）", "Amount (CNY)"),
    "none": ("本月无", "None this month"), "total": ("合计", "Total"),
}


def _t(key: str, lang: str) -> str:
    zh, en = _T[key]
    return en if lang == "en" else zh


def sla_story(doc: SlaReportDoc, ctx: Context) -> list:
    lang, p = ctx.lang, ctx.p
    t = lambda k: _t(k, lang)  # noqa: E731
    width = available_width(ctx)
    story: list = [p(t("title"), "title")]
    label_w = 45 * mm
    head = [[t("customer"), p(doc.customer.name, "cell")], [t("period"), doc.period],
            [t("availability"), doc.availability], [t("promised_av"), doc.promised_availability],
            [t("down"), doc.down_hours]]
    story.append(ctx.table(head, [label_w, width - label_w], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])]))
    story.append(p(t("targets"), "h2"))
    rows = [[t("metric"), t("tickets"), t("met"), t("rate"), t("promised")]]
    for r in doc.targets:
        rate = f"{Decimal(r.met * 100) / r.tickets:.1f} %" if r.tickets else "—"
        rows.append([r.metric, str(r.tickets), str(r.met), rate, p(r.promised, "cell")])
    story.append(ctx.table(rows, [30 * mm, 20 * mm, 20 * mm, 22 * mm, width - 92 * mm]))
    story.append(p(t("list"), "h2"))
    if doc.tickets:
        rows = [[t("number"), t("prio"), t("kind"), t("subject"), t("opened"), t("state"), t("ack"), t("onsite"),
                 t("resolve")]]
        for r in doc.tickets:
            rows.append([r.number, r.priority, p(r.kind, "cell"), p(r.title, "cell"), r.opened, p(r.state, "cell"),
                         r.ack, r.onsite, r.resolve])
        fixed = 28 * mm + 11 * mm + 16 * mm + 24 * mm + 16 * mm + 3 * 19 * mm
        story.append(ctx.table(rows, [28 * mm, 11 * mm, 16 * mm, width - fixed, 24 * mm, 16 * mm,
                                      19 * mm, 19 * mm, 19 * mm]))
    else:
        story.append(p(t("none")))
    story.append(p(t("breaches"), "h2"))
    if doc.breaches:
        rows = [[t("number"), t("metric"), t("when")]] + [list(b) for b in doc.breaches]
        story.append(ctx.table(rows, [40 * mm, 40 * mm, width - 80 * mm]))
    else:
        story.append(p(t("none")))
    story.append(p(t("credits"), "h2"))
    if doc.credits:
        rows = [[t("number"), t("item"), t("state"), t("amount")]]
        rows += [[c.ticket, p(c.item, "cell"), c.state, fmt_money(c.amount)] for c in doc.credits]
        rows.append([t("total"), "", "", fmt_money(sum((c.amount for c in doc.credits), Decimal(0)))])
        story.append(ctx.table(rows, [32 * mm, width - 92 * mm, 25 * mm, 35 * mm]))
    else:
        story.append(p(t("none")))
    story.append(Spacer(0, 4 * mm))
    return story


def render_sla_report(doc: SlaReportDoc, path: str | os.PathLike, *, style: dict | None = None,
                      font_path: str | os.PathLike | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, sla_story(doc, ctx), ctx, doc=doc, title=_t("title", doc.language), number=doc.number,
                     letterhead=doc.provider)
