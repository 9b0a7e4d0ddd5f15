"""The maintenance notice's data (reports/maintenance_notice.py draws it): one customer's view of
one window, in Chinese or English; the window in Asia/Shanghai."""
from __future__ import annotations

import datetime as dt

from models import Customer, MaintenanceWindow, Site, Subsidiary
from models.choices import ImpactLevel, MaintenanceState, MaintenanceTarget
from reports import Party
from reports.maintenance_notice import MaintenanceNoticeDoc, NoticeRow

from app.domain.clock import local_date, local_text
from app.domain.errors import RuleViolation
from app.documents.common import _check_lang, _customer_party, _subsidiary_party
from app.store.found import get_or_404
from app.services.operations import maintenance as M
from app.services.operations.maintenance_sla import notice_hours_in
from app.store.db import Database

# What each level means for the customer, in both languages (the service's `why` is the operator's).
EFFECT = {
    ImpactLevel.NONE: ("不受影响", "not affected"),
    ImpactLevel.REDUCED: ("A/B 双路中的一路停电，另一路持续供电；维护期间无供电冗余",
                          "one of the A/B sides is off, the other carries on: no redundancy during the work"),
    ImpactLevel.DEGRADED: ("服务降级：剩余容量或制冷不足以保证满载运行，请降低负载",
                           "degraded: what remains (power or cooling) may not carry the full load; reduce it"),
    ImpactLevel.OUTAGE: ("维护期间中断（断电或断开）", "down for the duration of the work (no power or disconnected)"),
}
KIND = {"rack": ("机柜", "Rack"), "device": ("设备", "Device"), "cross_connect": ("交叉连接", "Cross-connect")}


def _l(pair, lang):
    return pair[1] if lang == "en" else pair[0]


def _duration(a: dt.datetime, b: dt.datetime, lang: str) -> str:
    minutes = int((b - a).total_seconds() // 60)
    h, m = divmod(minutes, 60)
    if lang == "en":
        return f"{h} h {m:02d} min" if m else f"{h} h"
    return f"{h} 小时 {m} 分钟" if m else f"{h} 小时"


def notice_doc(db: Database, window_id: int, customer_id: int, lang: str = "zh",
               issued: dt.date | None = None) -> MaintenanceNoticeDoc:
    lang = _check_lang(lang) or "zh"
    row = M.window(db, window_id)
    impacts = [i for i in M.impact_of(db, window_id) if i.customer_id == customer_id]
    with db.session() as s:
        w = get_or_404(s, MaintenanceWindow, window_id, "maintenance window")
        cust = get_or_404(s, Customer, customer_id, "customer")
        site = s.get(Site, w.site_id)
        sub = s.get(Subsidiary, site.subsidiary_id) if site else None
        provider = _subsidiary_party(sub, lang) if sub else Party(name="IDC console")
        customer = _customer_party(s, cust, lang)
        hours = notice_hours_in(s)
        site_text = f"{site.name}（{site.code}）" if site and lang == "zh" else (f"{site.name} ({site.code})" if site else "")
    rows = tuple(NoticeRow(_l(KIND.get(i.object_type, (i.object_type, i.object_type)), lang), i.object_label,
                           ImpactLevel.label(i.impact, lang), _l(EFFECT[i.impact], lang), i.contract or "",
                           ImpactLevel.colour(i.impact)) for i in impacts)
    target = f"{MaintenanceTarget.label(w.target_kind, lang)} {row.target}"
    return MaintenanceNoticeDoc(
        number=f"{row.reference}-{customer_id}", language=lang, issued=issued or local_date(dt.datetime.now(dt.timezone.utc)),
        provider=provider, customer=customer, site=site_text, title=w.title, description=w.description or "",
        target=target, window_start=local_text(w.planned_start)[:16], window_end=local_text(w.planned_end)[:16],
        duration=_duration(w.planned_start, w.planned_end, lang), state=MaintenanceState.label(w.state, lang),
        emergency=w.emergency, emergency_reason=w.emergency_reason or "", notice_hours=hours,
        noticed_at=local_text(w.noticed_at)[:16] if w.noticed_at else "", rows=rows,
        contact=w.contact or provider.phone or provider.name)


def notice_for(db: Database, key, lang: str | None = None) -> MaintenanceNoticeDoc:
    """The registry's build (app/documents/printing.py): key (window id or MW-…, customer id);
    refused for a window that does not affect the customer."""
    window_key, customer_id = key
    with db.session() as s:
        window_id = M.find_window_in(s, window_key).id
    doc = notice_doc(db, window_id, int(customer_id), lang or "zh")
    if not doc.rows:
        raise RuleViolation(f"{M.reference(window_id)} does not affect this customer: there is nothing to notice")
    return doc
