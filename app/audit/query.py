"""Reading the audit trail: filtered event lists for the log view, exports and reports."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterator

from sqlalchemy import and_, func, literal, select, union_all

from app.domain.clock import DateError, local_midnight, local_text
from app.domain.clock import parse_date as clock_parse_date
from app.domain.errors import ValidationError
from app.domain.messages import message_of
from app.store.db import Database
from models import AuditEvent

# The codes in their own columns; action_name and object_name are the same in the reader's language.
EXPORT_HEADERS = ["seq", "time", "actor", "actor_name", "role", "host", "app_version", "request_id", "action",
                  "action_name", "object_type", "object_name", "object_id", "object", "before", "after", "reason",
                  "outcome", "prev_hash", "hash"]


@dataclass(frozen=True)
class AuditFilter:
    date_from: dt.date | None = None   # local (Asia/Shanghai) dates, inclusive
    date_to: dt.date | None = None
    actor_login: str | None = None
    action: str | None = None           # exact, or a prefix ending in '.' (e.g. 'gpu.')
    object_type: str | None = None

    def where(self):
        cond = []
        if self.date_from:
            cond.append(AuditEvent.ts >= local_midnight_utc(self.date_from))
        if self.date_to:
            cond.append(AuditEvent.ts < local_midnight_utc(self.date_to + dt.timedelta(days=1)))
        if self.actor_login:
            cond.append(AuditEvent.actor_login == self.actor_login)
        if self.action:
            cond.append(AuditEvent.action.startswith(self.action) if self.action.endswith(".")
                        else AuditEvent.action == self.action)
        if self.object_type:
            cond.append(AuditEvent.object_type == self.object_type)
        return and_(*cond) if cond else None

    def describe(self) -> str:
        parts = []
        if self.date_from or self.date_to:
            parts.append(f"{self.date_from or '…'} – {self.date_to or '…'}")
        if self.actor_login:
            parts.append(f"actor={self.actor_login}")
        if self.action:
            parts.append(f"action={self.action}")
        if self.object_type:
            parts.append(f"object={self.object_type}")
        return ", ".join(parts) or "all events"


local_midnight_utc = local_midnight


def parse_date(text: str, field: str) -> dt.date:
    """The one date reading (app.domain.clock.parse_date) as a field error."""
    try:
        day = clock_parse_date(text)
    except DateError as exc:
        raise ValidationError({field: message_of(exc)}) from None
    if day is None:
        raise ValidationError({field: f"{text!r} is not a date: use YYYY-MM-DD"})
    return day


to_local = local_text


def iter_events(db: Database, flt: AuditFilter, batch: int = 5000) -> Iterator[AuditEvent]:
    q = select(AuditEvent).order_by(AuditEvent.seq)
    cond = flt.where()
    if cond is not None:
        q = q.where(cond)
    with db.session() as s:   # a transaction: a server-side cursor (yield_per) needs one
        for ev in s.execute(q.execution_options(yield_per=batch)).scalars():
            yield ev


def event_row(ev: AuditEvent, lang: str = "zh") -> list:
    return [ev.seq, to_local(ev.ts), ev.actor_login, ev.actor_name, ev.actor_role, ev.host, ev.app_version,
            ev.request_id, ev.action, action_name(ev.action, ev.object_type, lang), ev.object_type,
            object_name(ev.object_type, lang), ev.object_id, ev.object_label, ev.before, ev.after,
            ev.reason, ev.outcome, ev.prev_hash, ev.hash]

def last_seq_hash(db: Database, flt: AuditFilter) -> str | None:
    """SEQ:HASH of the last event the filter's period includes (the report's checkpoint).

    The checkpoint is the chain position at the end of the period, not of the filtered
    subset, so that `audit verify --expect-head` can check it.
    """
    q = select(AuditEvent.seq, AuditEvent.hash).order_by(AuditEvent.seq.desc()).limit(1)
    if flt.date_to:
        q = q.where(AuditEvent.ts < local_midnight_utc(flt.date_to + dt.timedelta(days=1)))
    with db.read_session() as s:
        row = s.execute(q).first()
    return f"{row[0]}:{row[1]}" if row else None


# --- the audit list's filter ------------------------------------------------------------------
# The console's filter bar (period, user, action, object type) and the free-text box travel as one
# filter text, e.g. "from:2026-11-24 to:2026-11-30 actor:lina action:contract. FZ-2026": the list
# machinery (paging, counting, export of the view) takes a text, and so the rule stays here.
FILTER_KEYS = ("from", "to", "actor", "action", "type")


def parse_filter_text(text: str | None) -> tuple[AuditFilter, str]:
    """(the structured part, the free text left). A token whose value is not valid for its key
    (from:soon) stays in the free text, which then matches nothing rather than everything."""
    values: dict[str, str] = {}
    rest = []
    for word in (text or "").split():
        key, sep, value = word.partition(":")
        if sep and key in FILTER_KEYS and value:
            if key in ("from", "to"):
                try:
                    dt.date.fromisoformat(value)
                except ValueError:
                    rest.append(word)
                    continue
            values[key] = value
        else:
            rest.append(word)
    flt = AuditFilter(dt.date.fromisoformat(values["from"]) if "from" in values else None,
                      dt.date.fromisoformat(values["to"]) if "to" in values else None,
                      values.get("actor"), values.get("action"), values.get("type"))
    return flt, " ".join(rest)


def filter_text(flt: AuditFilter, text: str = "") -> str:
    """The filter text for `flt` plus free text (the inverse of parse_filter_text)."""
    parts = []
    for key, value in (("from", flt.date_from), ("to", flt.date_to), ("actor", flt.actor_login),
                       ("action", flt.action), ("type", flt.object_type)):
        if value:
            parts.append(f"{key}:{value.isoformat() if isinstance(value, dt.date) else value}")
    if (text or "").strip():
        parts.append(text.strip())
    return " ".join(parts)


def audit_choices(db: Database) -> tuple[list[str], list[str], list[str]]:
    """The logins, actions and object types that occur in the trail, for the filter choosers."""
    cols = (AuditEvent.actor_login, AuditEvent.action, AuditEvent.object_type)
    # one statement, not three in a row (issue 26: each is a round trip across a WAN), each column's values
    # in the database's own order as before; each column walked along its index, a value at a time (a
    # loose index scan: the next value is the least one above the last), not DISTINCT over every event
    # (2.2 M events on PostgreSQL: 394 -> 3 ms for 95 values)
    each = union_all(*(_walk(k, col) for k, col in enumerate(cols))).subquery()
    found: tuple[list[str], list[str], list[str]] = ([], [], [])
    with db.read_connection() as conn:
        for k, v in conn.execute(select(each.c.k, each.c.v).order_by(each.c.k, each.c.v)):
            found[k].append(v)
    return found


def _walk(k: int, col):
    """(k, value) for each value of the indexed NOT NULL column, found by a recursive CTE."""
    step = select(func.min(col).label("v")).cte(name=f"walk{k}", recursive=True)
    step = step.union_all(select(select(func.min(col)).where(col > step.c.v).scalar_subquery())
                          .where(step.c.v.is_not(None)))
    return select(literal(k).label("k"), step.c.v.label("v")).where(step.c.v.is_not(None))


# --- names of actions and objects ---------------------------------------------------------------
# Codes stay in the trail (and their own columns); people read these names. The one home of these
# words, as (English, Chinese) like a ChoiceSet's labels: the list, the event's detail, the audit
# report PDF and the audit export all name an action through `action_name(action, type, lang)`.
def _(text: str) -> str:
    return text


OBJECT_WORDS: dict[str, tuple[str, str]] = {
    "site": (_("site"), "站点"), "room": (_("room"), "机房"), "rack": (_("rack"), "机柜"),
    "device": (_("device"), "设备"), "gpu": (_("GPU"), "GPU"), "gpu_model": (_("GPU model"), "GPU 型号"),
    "customer": (_("customer"), "客户"), "contact": (_("contact"), "联系人"), "contract": (_("contract"), "合同"),
    "contract_item": (_("contract item"), "合同项目"), "statement": (_("statement"), "账单"),
    "payment": (_("payment"), "收款"), "user": (_("user"), "用户"), "subsidiary": (_("subsidiary"), "子公司"),
    "coverage": (_("coverage"), "覆盖范围"), "device_type": (_("device type"), "设备型号"),
    "region": (_("region"), "地区"), "downtime": (_("downtime"), "故障停机"),
    "meter": (_("meter readings"), "电表读数"), "meter_reading": (_("meter reading"), "电表读数"),
    "rack_reservation": (_("reservation"), "机柜预留"), "reservation": (_("reservation"), "机柜预留"),
    "billing": (_("billing"), "计费"), "audit": (_("audit trail"), "审计日志"), "auth": (_("sign-in"), "登录"),
    "space": (_("leased space"), "租赁空间"), "space_lease": (_("leased space"), "租赁空间"),
    "cage": (_("cage"), "笼位"), "setting": (_("setting"), "设置"), "tax_rate": (_("tax rate"), "税率"),
    "fleet": (_("GPU fleet report"), "GPU 资产报告"), "capacity": (_("capacity report"), "容量报告"),
    "statements": (_("statements"), "账单"),
    # the operations desk (app/services/operations/maintenance.py, visits.py)
    "maintenance": (_("maintenance window"), "维护窗口"), "site_access": (_("site access"), "门禁授权"),
    "visit": (_("site visit"), "现场访问"), "visitor": (_("visitor"), "访客"),
}
VERB_WORDS: dict[str, tuple[str, str]] = {
    "create": (_("Create"), "新建"), "update": (_("Update"), "修改"), "delete": (_("Delete"), "删除"),
    "retire": (_("Retire"), "退役"), "issue": (_("Issue"), "开具"), "credit": (_("Credit"), "冲销"),
    "approve": (_("Approve"), "审批"), "reject": (_("Reject"), "驳回"), "submit": (_("Submit"), "提交"),
    "activate": (_("Activate"), "生效"), "suspend": (_("Suspend"), "暂停"), "resume": (_("Resume"), "恢复"),
    "terminate": (_("Terminate"), "终止"), "expire": (_("Expire"), "到期"), "renew": (_("Renew"), "续签"),
    "amend": (_("Amend"), "变更"), "supersede": (_("Supersede"), "取代"), "install": (_("Install"), "安装"),
    "uninstall": (_("Remove"), "拆除"), "lease": (_("Lease"), "出租"), "release": (_("Release"), "释放"),
    "load": (_("Load"), "加载"), "import": (_("Import"), "导入"), "export": (_("Export"), "导出"),
    "print": (_("Print"), "打印"), "record": (_("Record"), "记录"), "end": (_("End"), "结束"),
    "cancel": (_("Cancel"), "取消"), "move": (_("Move"), "移动"), "run": (_("Run"), "运行"),
    "add": (_("Add"), "添加"), "allocate": (_("Allocate"), "核销"), "reverse": (_("Reverse"), "冲回"),
    "lock": (_("Lock"), "锁定"), "handover": (_("Hand over"), "交付"),
}
# Whole names where "<verb> <object>" reads badly.
ACTION_WORDS: dict[str, tuple[str, str]] = {
    "auth.login": (_("Log in"), "登录"), "auth.lock": (_("Lock account"), "锁定账号"),
    "gpu.transition": (_("GPU lifecycle move"), "GPU 生命周期变更"),
    "statement.fapiao": (_("Record fapiao number"), "登记发票号"),
    "statement.delete_draft": (_("Delete draft statement"), "删除草稿账单"),
    "statement.credit": (_("Issue credit note"), "开具红字账单"),
    "customer.contacts": (_("Edit customer contacts"), "编辑客户联系人"),
    "meter.import": (_("Import meter readings"), "导入电表读数"), "billing.run": (_("Billing run"), "运行计费"),
    "user.password": (_("Change own password"), "修改本人密码"),
    "contract.payment_terms": (_("Change payment terms"), "修改付款条件"),
    "contract.import_item": (_("Import contract item"), "导入合同项目"),
    "contract_item.handover": (_("Record handover"), "登记交付"),
    "maintenance.create": (_("Plan maintenance"), "计划维护"),
    "maintenance.confirmed": (_("Confirm maintenance and give notice"), "确认维护并通知"),
    "maintenance.in_progress": (_("Maintenance started"), "维护开始"),
    "maintenance.completed": (_("Maintenance completed"), "维护完成"),
    "maintenance.cancelled": (_("Cancel maintenance"), "取消维护"),
    "maintenance.rescheduled": (_("Reschedule maintenance"), "维护改期"),
    "site_access.create": (_("Authorise site access"), "授予门禁授权"),
    "site_access.revoke": (_("Revoke site access"), "撤销门禁授权"),
    "visit.create": (_("Request site visit"), "申请现场访问"), "visit.approved": (_("Approve site visit"), "批准现场访问"),
    "visit.rejected": (_("Reject site visit"), "驳回现场访问"), "visit.cancelled": (_("Cancel site visit"), "取消现场访问"),
    "visit.closed": (_("Site visit closed"), "现场访问结束"), "visitor.create": (_("Register visitor"), "登记访客"),
    "visitor.check_in": (_("Visitor checked in"), "访客进入"), "visitor.check_out": (_("Visitor checked out"), "访客离开"),
}
# English names alone (the Qt messages of the context "audit", kept for the translation file)
OBJECT_NAMES = {k: en for k, (en, _zh) in OBJECT_WORDS.items()}
VERB_NAMES = {k: en for k, (en, _zh) in VERB_WORDS.items()}
ACTION_NAMES = {k: en for k, (en, _zh) in ACTION_WORDS.items()}


def _word(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "zh" else pair[0]


def object_name(object_type: str | None, lang: str = "en") -> str:
    """An object type by name (rack_reservation: reservation / 机柜预留); the code when it has none."""
    if not object_type:
        return ""
    pair = OBJECT_WORDS.get(object_type)
    return _word(pair, lang) if pair else object_type


def _name_pairs(action: str, object_type: str | None) -> tuple[tuple[str, str], ...]:
    """(whole name,) or (verb, object) as (English, Chinese) pairs; () when the action has no name."""
    if action in ACTION_WORDS:
        return (ACTION_WORDS[action],)
    prefix, dot, verb = action.rpartition(".")
    if not dot:                      # export, import, print: the object is the event's object type
        prefix, verb = object_type or "", action
    if verb in VERB_WORDS and prefix in OBJECT_WORDS:
        return VERB_WORDS[verb], OBJECT_WORDS[prefix]
    if not dot and verb in VERB_WORDS:
        return (VERB_WORDS[verb],)
    return ()


def action_name(action: str, object_type: str | None = None, lang: str = "en") -> str:
    """An action by name: statement.issue -> Issue statement / 开具账单; the code when unknown.
    `export`, `import` and `print` name the event's object type (export + audit: Export audit trail)."""
    words = [_word(p, lang) for p in _name_pairs(action, object_type)]
    if not words:
        return action
    if len(words) == 1:
        return words[0]
    verb, obj = words
    return f"{verb}{obj}" if lang == "zh" and not obj[:1].isascii() else f"{verb} {obj}"


def named(code: str, name: str) -> str:
    """'开具账单 (statement.issue)': a name with its code, or the code alone when it has no name."""
    return code if name == code else f"{name} ({code})"


# Which ChoiceSet a recorded field's value is a code of, per object type: the event's detail shows
# the choice's name in the reader's language (Burn-in / 老化测试) beside the stored code.
def _field_choices() -> dict[str, dict[str, type]]:
    from models import choices as c
    return {
        "site": {"status": c.SiteStatus, "cooling": c.Cooling},
        "rack": {"status": c.RackStatus, "face": c.Face, "airflow": c.Airflow},
        "device": {"status": c.DeviceStatus, "role": c.DeviceRole, "face": c.Face, "airflow": c.Airflow},
        "gpu": {"state": c.GpuState, "status": c.GpuState},
        "user": {"role": c.Role},
        "customer": {"status": c.CustomerStatus},
        "contract": {"status": c.ContractStatus},
        "contract_item": {"kind": c.ItemKind, "price_unit": c.PriceUnit, "tax_category": c.TaxCategory},
        "statement": {"status": c.StatementStatus, "kind": c.StatementKind},
        "payment": {"kind": c.PaymentKind, "method": c.PaymentMethod},
        "deposit": {"kind": c.DepositKind},
        "reservation": {"status": c.ReservationStatus}, "rack_reservation": {"status": c.ReservationStatus},
        "cross_connect": {"state": c.XconnectState, "medium": c.XconnectMedium, "peer": c.XconnectPeer},
        "fapiao": {"type": c.FapiaoType, "fapiao_type": c.FapiaoType, "status": c.FapiaoStatus},
        "cable": {"type": c.CableType, "status": c.CableStatus, "length_unit": c.LengthUnit},
        "power_feed": {"status": c.PowerFeedStatus, "type": c.PowerFeedType, "supply": c.PowerSupply,
                       "phase": c.PowerPhase},
    }


_FIELD_CHOICES: dict[str, dict[str, type]] | None = None


def field_choices(object_type: str | None, field: str):
    """The ChoiceSet whose codes `field` of an `object_type` event holds, or None (a free value)."""
    global _FIELD_CHOICES
    if _FIELD_CHOICES is None:
        _FIELD_CHOICES = _field_choices()
    return _FIELD_CHOICES.get(object_type or "", {}).get(field)


# --- one event in full ------------------------------------------------------------------------
@dataclass(frozen=True)
class FieldChange:
    field: str
    before: object
    after: object


@dataclass(frozen=True)
class EventDetail:
    seq: int
    ts: dt.datetime            # UTC
    actor_login: str
    actor_name: str
    actor_role: str
    host: str
    app_version: str
    request_id: str
    action: str
    object_type: str
    object_id: str | None
    object_label: str | None
    reason: str | None
    outcome: str
    prev_hash: str
    hash: str
    changes: tuple[FieldChange, ...]

    @property
    def local_time(self) -> str:
        return to_local(self.ts)


_MISSING = object()


def field_changes(before: str | None, after: str | None) -> tuple[FieldChange, ...]:
    """Every field whose value differs between the two JSON snapshots (a created object: every
    field it got; a deleted one: every field it had), in the order the snapshots list them.
    A snapshot that is not an object is one field named ""."""
    import json

    def load(text):
        if text is None:
            return {}
        value = json.loads(text)
        return value if isinstance(value, dict) else {"": value}
    b, a = load(before), load(after)
    out = []
    for key in list(b) + [k for k in a if k not in b]:
        old, new = b.get(key, _MISSING), a.get(key, _MISSING)
        if old != new:
            out.append(FieldChange(key, None if old is _MISSING else old, None if new is _MISSING else new))
    return tuple(out)


def event_detail(db: Database, seq: int) -> EventDetail | None:
    with db.read_session() as s:
        ev = s.get(AuditEvent, seq)
        if ev is None:
            return None
        ts = ev.ts if ev.ts.tzinfo else ev.ts.replace(tzinfo=dt.timezone.utc)
        return EventDetail(ev.seq, ts, ev.actor_login, ev.actor_name, ev.actor_role, ev.host, ev.app_version,
                           ev.request_id, ev.action, ev.object_type, ev.object_id, ev.object_label, ev.reason,
                           ev.outcome, ev.prev_hash, ev.hash, field_changes(ev.before, ev.after))


# --- a record's history ------------------------------------------------------------------------
# The object types a record's History tab reads, by the console's kind of record.
HISTORY_TYPES = {"site": "site", "rack": "rack", "device": "device", "gpu": "gpu", "customer": "customer",
                 "contract": "contract", "statement": "statement", "user": "user"}
HISTORY_PAGE = 50


@dataclass(frozen=True)
class HistoryRow:
    seq: int
    ts: dt.datetime            # UTC
    actor_login: str
    actor_name: str
    action: str
    action_name: str           # in the language asked for
    reason: str | None
    outcome: str
    changes: str               # "field: before → after; …" (the event's detail has them in full)

    @property
    def local_time(self) -> str:
        return to_local(self.ts)


@dataclass(frozen=True)
class HistoryPage:
    rows: tuple[HistoryRow, ...]   # newest first
    total: int                     # the record's events in all
    more: bool                     # older events after these (ask again with before_seq=rows[-1].seq)


def _short(value, room: int = 40) -> str:
    import json
    text = "—" if value is None else value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= room else text[:room - 1] + "…"


def changes_summary(changes: tuple[FieldChange, ...], most: int = 6) -> str:
    changes = tuple(c for c in changes if not (c.before is None and c.after is None))   # a new record's empty fields
    parts = [f"{c.field}: {_short(c.before)} → {_short(c.after)}" if c.field else f"{_short(c.before)} → {_short(c.after)}"
             for c in changes[:most]]
    if len(changes) > most:
        parts.append(f"… (+{len(changes) - most})")
    return "; ".join(parts)


def object_history(db: Database, kind: str, object_id, *, lang: str = "en", before_seq: int | None = None,
                   limit: int = HISTORY_PAGE) -> HistoryPage:
    """The audit events of one record (kind as in HISTORY_TYPES, its id), newest first, `limit` at a
    time: the next page starts before `before_seq`. Read by (object_type, object_id, seq) (migration
    0022), so a record's page costs the same in a trail of millions."""
    from sqlalchemy import func
    object_type = HISTORY_TYPES.get(kind)
    if object_type is None:
        raise ValidationError({"kind": f"no history for {kind!r}"})
    where = [AuditEvent.object_type == object_type, AuditEvent.object_id == str(object_id)]
    with db.read_session() as s:
        total = s.execute(select(func.count()).select_from(AuditEvent).where(*where)).scalar_one()
        q = select(AuditEvent).where(*where)
        if before_seq is not None:
            q = q.where(AuditEvent.seq < before_seq)
        events = s.execute(q.order_by(AuditEvent.seq.desc()).limit(limit + 1)).scalars().all()
        rows = tuple(HistoryRow(
            ev.seq, ev.ts if ev.ts.tzinfo else ev.ts.replace(tzinfo=dt.timezone.utc), ev.actor_login, ev.actor_name,
            ev.action, action_name(ev.action, ev.object_type, lang), ev.reason, ev.outcome,
            changes_summary(field_changes(ev.before, ev.after))) for ev in events[:limit])
    return HistoryPage(rows, total, len(events) > limit)
