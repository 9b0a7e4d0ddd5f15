"""The audit report: summary, events, chain verification and the checkpoint on every page."""
from __future__ import annotations

import datetime as dt
from typing import Any

import orjson
from sqlalchemy import func, or_, select

from app.audit.query import AuditFilter, last_seq_hash, to_local
from app.audit.query import local_midnight_utc as local_midnight
from app.audit.query import object_name as audit_object_name
from app.audit.trail import VerifyResult, verify_audit_range
from app.documents.common import _check_lang, _letterhead, action_label
from app.domain.clock import TZ as SHANGHAI
from app.domain.clock import now_local
from app.domain.errors import ValidationError
from app.store.db import Database
from models import AuditEvent
from models.choices import Outcome
from reports import AuditReportDoc, AuditRow, AuditSummaryRow

# --------------------------------------------------------------------------- audit
_MAX_VALUE = 90


def _value_text(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, (dict, list)):
        text = orjson.dumps(v).decode()
    else:
        text = str(v)
    text = text.replace("\n", " ")
    return text if len(text) <= _MAX_VALUE else text[:_MAX_VALUE - 1] + "…"


_MAX_LINES = 14


def _loads(text: str | None) -> dict:
    if not text:
        return {}
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {"": text}
    return value if isinstance(value, dict) else {"": value}


def changes_text(before: str | None, after: str | None) -> str:
    """One line per changed field: 'field: a → b' (created: '— → b', deleted: 'a → —')."""
    b, a = _loads(before), _loads(after)
    lines = []
    for key in list(b) + [k for k in a if k not in b]:
        old, new = b.get(key), a.get(key)
        if key in b and key in a and old == new:
            continue
        if not b and new is None:  # a new record's empty fields say nothing
            continue
        name = f"{key}: " if key else ""
        if not b:
            lines.append(f"{name}{_value_text(new)}")
        else:
            lines.append(f"{name}{_value_text(old)} → {_value_text(new)}")
    if len(lines) > _MAX_LINES:  # a table row must fit on a page; the full values are in the export
        hidden = len(lines) - (_MAX_LINES - 1)
        lines = lines[:_MAX_LINES - 1] + [f"… (+{hidden} fields / 字段)"]
    return "\n".join(lines)


def _verification_text(result, checkpoint: str | None, lang: str, stretches: list[tuple[int, int]]) -> str:
    zh = lang == "zh"
    if result.ok:
        if not stretches:
            return "期间内无事件，无需校验。" if zh else "No events in the period: nothing to verify."
        where = "、".join(f"第 {a:,} 至第 {b:,} 条" for a, b in stretches) if zh else \
            ", ".join(f"#{a:,}–#{b:,}" for a, b in stretches)
        text = (f"校验通过：本期间所在的审计链区段（{where}，共 {result.count:,} 条事件）完整，且与此前的链相接。"
                if zh else f"Verified: the stretch of the audit chain the period covers (events {where}, "
                f"{result.count:,} events) is intact and links to the chain before it.")
        if checkpoint:
            text += (f" 检查点 {checkpoint} 属于该链；全链校验：idc-console audit verify --expect-head {checkpoint}。"
                     if zh else f" Checkpoint {checkpoint} is part of the chain; to check the whole chain: "
                     f"idc-console audit verify --expect-head {checkpoint}.")
        return text
    return (f"校验失败：{result.problem}（最后完好的事件 {result.head}）" if zh else
            f"VERIFICATION FAILED: {result.problem} (last good event {result.head})")


# A PDF lists at most this many events (about 2,600 landscape pages, ~19 events a page measured on
# the demo data): the detail of a larger period is left out and the report says how many pages it
# would take; the summary still counts every event and the CSV export is always complete. The cap
# also bounds memory: ReportLab holds every page until it writes the file (docs/performance.md).
MAX_PDF_EVENTS = 50_000
EVENTS_PER_PAGE = 19


def _local_day(dialect: str):
    """The event's date in Asia/Shanghai, in SQL (ts is stored as naive UTC)."""
    if dialect == "postgresql":
        return func.date(func.timezone(SHANGHAI.key, func.timezone("UTC", AuditEvent.ts)))
    # SQLite has no zone rules; Asia/Shanghai has been UTC+8 all year since 1991.
    return func.date(AuditEvent.ts, "+8 hours")


# Events of the period further apart in the chain than this are verified as separate stretches
# (each with its link to the event before it) rather than re-hashing everything between them.
STRETCH_GAP = 1000


def _stretches(s, period: list) -> list[tuple[int, int]]:
    """The seq ranges [first, last] holding the period's events, split where they are over STRETCH_GAP
    apart. Normally one: events are appended in time order. Events appended with an earlier time
    (the large demo's history after its first events) make more."""
    seq = AuditEvent.seq
    sub = select(seq.label("seq"), func.lag(seq).over(order_by=seq).label("prev"),
                 func.lead(seq).over(order_by=seq).label("next")).where(*period).subquery()
    rows = s.execute(select(sub.c.seq, sub.c.prev, sub.c.next).where(or_(
        sub.c.prev.is_(None), sub.c.seq - sub.c.prev > STRETCH_GAP,
        sub.c.next.is_(None), sub.c.next - sub.c.seq > STRETCH_GAP)).order_by(sub.c.seq)).all()
    out, start = [], None
    for seq_, prev, nxt in rows:
        if prev is None or seq_ - prev > STRETCH_GAP:
            start = seq_
        if nxt is None or nxt - seq_ > STRETCH_GAP:
            out.append((start, seq_))
    return out


def _event_rows(db: Database, cond: list, lang: str, act) -> list[AuditRow]:
    """The period's events, oldest first, as the report's rows (read in batches of 5000)."""
    rows: list[AuditRow] = []
    objects: dict[str, str] = {}
    outcomes: dict[str, str] = {}
    q = (select(AuditEvent.seq, AuditEvent.ts, AuditEvent.actor_login, AuditEvent.actor_name,
                AuditEvent.action, AuditEvent.object_type, AuditEvent.object_id, AuditEvent.object_label,
                AuditEvent.before, AuditEvent.after, AuditEvent.reason, AuditEvent.outcome)
         .where(*cond).order_by(AuditEvent.seq))
    with db.engine.connect() as conn:
        result_rows = conn.execution_options(yield_per=5000).execute(q)
        for (seq, ts, login, name, action, obj_type, obj_id, label, before, after, reason,
             outcome) in result_rows:
            if obj_type not in objects:
                name_of = audit_object_name(obj_type, lang)
                objects[obj_type] = name_of[:1].upper() + name_of[1:]    # "Contract FZ-2026-0001"
            if outcome not in outcomes:
                outcomes[outcome] = Outcome.label(outcome, lang)
            obj = label or (f"#{obj_id}" if obj_id else "")
            name_ = act(action, obj_type)
            rows.append(AuditRow(
                seq=seq, time_local=to_local(ts), actor=name if name == login else f"{name}\n{login}",
                action=f"{name_}\n{action}" if name_ != action else action,
                object=f"{objects[obj_type]} {obj}".strip(), changes=changes_text(before, after),
                reason=reason or "", outcome=outcomes[outcome]))
    return rows


def _filters_text(flt: AuditFilter, lang: str) -> str:
    """What the report covers: the filters, or all events, and the time zone the times are in."""
    filters = []
    if flt.actor_login:
        filters.append(("操作人 = " if lang == "zh" else "actor = ") + flt.actor_login)
    if flt.action:
        filters.append(("操作 = " if lang == "zh" else "action = ") + flt.action
                       + ("*" if flt.action.endswith(".") else ""))
    if flt.object_type:
        filters.append(("对象 = " if lang == "zh" else "object = ") + flt.object_type)
    filters_text = "；".join(filters) if lang == "zh" else "; ".join(filters)
    if not filters_text:
        filters_text = "全部事件（时间按北京时间）" if lang == "zh" else "all events (times in Asia/Shanghai)"
    else:
        filters_text += "（时间按北京时间）" if lang == "zh" else " (times in Asia/Shanghai)"
    return filters_text


def audit_report_doc(db: Database, flt: AuditFilter, *, language: str = "zh", subsidiary_code: str | None = None,
                     generated_at: dt.datetime | None = None,
                     max_events: int | None = None) -> AuditReportDoc:
    """Audit report for `flt`: summary (actor and action, object type, day), the events, verification
    and checkpoint.

    The checkpoint is SEQ:HASH of the last event of the period (app.audit.query.last_seq_hash),
    taken first; events appended while the report is built are left out, so the summary, the
    events and the checkpoint describe the same chain prefix. The summary is counted by the
    database; the verification covers the period's stretch of the chain, its link to the event
    before it and the checkpoint (app.audit.trail.verify_audit_range), not the whole chain. Over
    `max_events` (MAX_PDF_EVENTS) events the detail is left out and the report says how many
    pages it would take.
    """
    lang = _check_lang(language) or "zh"
    if flt.date_from and flt.date_to and flt.date_to < flt.date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    cap = MAX_PDF_EVENTS if max_events is None else max_events
    checkpoint = last_seq_hash(db, flt)
    cp_seq = int(checkpoint.split(":", 1)[0]) if checkpoint else 0
    cond = [AuditEvent.seq <= cp_seq]
    if flt.where() is not None:
        cond.append(flt.where())
    with db.session() as s:
        dialect = s.get_bind().dialect.name
        period = [AuditEvent.seq <= cp_seq]
        if flt.date_from:
            period.append(AuditEvent.ts >= local_midnight(flt.date_from))
        if flt.date_to:
            period.append(AuditEvent.ts < local_midnight(flt.date_to + dt.timedelta(days=1)))
        stretches = _stretches(s, period) if cp_seq else []
        if cp_seq and not any(a <= cp_seq <= b for a, b in stretches):
            stretches.append((cp_seq, cp_seq))  # the checkpoint itself, when the period's last event is not
        results = [verify_audit_range(s, a, b, expect_head=checkpoint if b == cp_seq else None)
                   for a, b in stretches]
        result = next((r for r in results if not r.ok), None) or VerifyResult(
            True, sum(r.count for r in results), results[-1].head if results else None)
        letterhead = _letterhead(s, subsidiary_code, lang)
        counts = s.execute(select(AuditEvent.actor_login, AuditEvent.action, func.count())
                           .where(*cond).group_by(AuditEvent.actor_login, AuditEvent.action)
                           .order_by(AuditEvent.actor_login, AuditEvent.action)).all()
        total = sum(n for _, _, n in counts)
        names = dict(s.execute(select(AuditEvent.actor_login, func.min(AuditEvent.actor_name))
                               .where(*cond).group_by(AuditEvent.actor_login)).all()) if counts else {}
        by_object = s.execute(select(AuditEvent.object_type, func.count()).where(*cond)
                              .group_by(AuditEvent.object_type).order_by(AuditEvent.object_type)).all()
        day = _local_day(dialect)
        by_day = s.execute(select(day, func.count()).where(*cond).group_by(day).order_by(day)).all()
    labels: dict[str, str] = {}

    def act(action: str, object_type: str | None = None) -> str:
        key = f"{action} {object_type or ''}"
        if key not in labels:
            labels[key] = action_label(action, lang, object_type)
        return labels[key]

    rows = _event_rows(db, cond, lang, act) if total <= cap else []
    summary = tuple(AuditSummaryRow(actor=f"{login} {names[login]}" if names.get(login, login) != login else login,
                                    action=f"{action} {act(action)}" if act(action) != action else action, count=n)
                    for login, action, n in counts)
    days = [dt.date.fromisoformat(str(d)) if not isinstance(d, dt.date) else d for d, _ in by_day]
    today = now_local().date()
    period_from = flt.date_from or (days[0] if days else today)
    period_to = flt.date_to or (days[-1] if days else today)
    filters_text = _filters_text(flt, lang)
    return AuditReportDoc(
        title="审计报告" if lang == "zh" else "Audit report", period_from=period_from, period_to=period_to,
        filters=filters_text, generated_at=generated_at or now_local(), summary=summary, events=tuple(rows),
        verification=_verification_text(result, checkpoint, lang, stretches),
        checkpoint=checkpoint or ("（期间内无事件）" if lang == "zh" else "(no events in the period)"),
        subsidiary=letterhead, number=f"AUDIT-{period_from:%Y%m%d}-{period_to:%Y%m%d}", language=lang,
        by_object=tuple((f"{t} {audit_object_name(t, lang)}" if audit_object_name(t, lang) != t else t, n)
                        for t, n in by_object),
        by_day=tuple((f"{d:%Y-%m-%d}", n) for d, (_, n) in zip(days, by_day)),
        total_events=total, omitted_pages=0 if total <= cap else -(-total // EVENTS_PER_PAGE))
