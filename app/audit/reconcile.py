"""`audit reconcile`: every business row against the values the audit trail last recorded for it.

The chain (`audit verify`) proves the trail was not changed; it says nothing about the rows. Someone
with the database login can set a statement's total, a GPU's state or a contract's status with SQL
and leave the trail alone. Reconcile replays the trail: for each object the events name (object
type and id), the after-values of its events are applied in order (a create sets them all, an
update or a lifecycle move the fields it changed, a delete removes the object), and the result is
compared with the row as the database holds it now. Reported:

- a field whose database value differs from the value last audited (field, database value, audited value);
- a row the trail created and never deleted that is gone from the database;
- a row the trail deleted that is still in the database.

Compared are only the columns an event recorded (the keys of its `after` that are columns of the
object's table), minus the columns the program changes without recording them per field
(`NOT_AUDITED`: bookkeeping and derived or cached columns). Rows no event names (the bulk-loaded
large demo, rows written by a migration) are counted as "not audited" and not compared.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable

import orjson
from sqlalchemy import Boolean, Date, DateTime, Integer, Numeric, select
from sqlalchemy.orm import Session

# Object types of the trail -> the table holding those objects (the pk is the table's only key).
OBJECT_TABLES = {
    "customer": "customer", "rack": "rack", "device_type": "device_type", "device": "device",
    "gpu": "gpu_asset", "gpu_model": "gpu_model", "subsidiary": "subsidiary", "site": "site",
    "room": "room", "user": "app_user", "contract": "contract", "contract_item": "contract_item",
    "statement": "statement", "rack_reservation": "rack_reservation", "downtime": "downtime",
    "coverage": "coverage", "region": "region",
    "cross_connect": "cross_connect", "cable": "cable",  # app/services/xconnects.py
    "tax_code": "tax_code",  # app/services/fapiao.set_tax_code
    "tax_rate": "tax_rate",  # loaded by migrations; on PostgreSQL a baseline event each (migration 0029)
    "price": "price_list", "hold": "capacity_hold", "quote": "quote",  # app/services/capacity/
    # GPU clusters (app/services/clusters/): burn-in results are events of their node (node.burn_in)
    "gpu_cluster": "gpu_cluster", "scaleup_domain": "scaleup_domain", "fabric_switch": "fabric_switch",
    "gpu_node": "gpu_node", "health_event": "health_event", "node_swap": "node_swap",
}

# Columns the program changes without an event recording their new value, so the trail cannot
# vouch for them. Everywhere: the bookkeeping columns. By table: what is derived or cached.
NOT_AUDITED_EVERYWHERE = frozenset({"id", "version", "updated_at", "updated_by", "created_at"})
NOT_AUDITED: dict[str, frozenset[str]] = {
    # logging in: the counters move without the user's version (docs/security.md, "Login")
    "app_user": frozenset({"password_hash", "failed_logins", "locked_until", "last_login_at"}),
    # follows the lifecycle: set when a contract's activation leases the GPU (recorded on the
    # contract's and the move's events, not as a field of the GPU), cleared by any other move
    "gpu_asset": frozenset({"customer_id"}),
    # who and why of the last move: recorded as the node.state event's actor and reason, not as fields
    "gpu_node": frozenset({"state_reason", "state_by", "state_at"}),
}

MISSING = object()

# Tables of imported readings (insert-only): each import's event names its rows' ids and the SHA-256 of
# what they held as stored (`ids`, `sha256`), and reconcile recomputes it. By object type: (table, meter).
READINGS = {"meter_reading": ("meter_reading", "rack_id"), "circuit_reading": ("circuit_reading", "power_feed_id")}


def id_ranges(ids: Iterable[int]) -> list[list[int]]:
    """Sorted ids as [first, last] runs: [1, 2, 3, 7] -> [[1, 3], [7, 7]]."""
    out: list[list[int]] = []
    for i in sorted(ids):
        if out and i == out[-1][1] + 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


def _readings_rows(session: Session, object_type: str, ranges: list[list[int]]) -> list[tuple]:
    table, key = READINGS[object_type]
    from sqlalchemy import or_

    from models.base import Base

    t = Base.metadata.tables[table]
    cond = [t.c.id.between(a, b) for a, b in ranges]

    rows = []
    for start in range(0, len(cond), 200):
        rows += session.execute(select(t.c.id, t.c[key], t.c.read_at, t.c.kwh_total)
                                .where(or_(*cond[start:start + 200]))).all()
    return sorted(rows)


def _digest(rows: list[tuple]) -> str:
    import hashlib

    h = hashlib.sha256()
    for rid, meter, at, kwh in rows:
        when = at.replace(tzinfo=None).isoformat(timespec="microseconds") if isinstance(at, dt.datetime) else str(at)
        h.update(f"{rid}|{meter}|{when}|{format(Decimal(str(kwh)).normalize(), 'f')}\n".encode())
    return h.hexdigest()


def readings_digest(session: Session, object_type: str, ranges: list[list[int]]) -> str:
    """SHA-256 of the readings with these ids as the database holds them (id, meter, time, kWh)."""
    return _digest(_readings_rows(session, object_type, ranges))


@dataclass(frozen=True)
class Difference:
    object_type: str
    object_id: str
    label: str | None
    field: str            # a column, or "(row)" for a missing or undeleted row
    database: Any
    audited: Any
    seq: int              # the event that last recorded the audited value

    def describe(self) -> str:
        what = f"{self.object_type} {self.object_id}" + (f" ({self.label})" if self.label else "")
        if self.field == "(row)":
            return f"{what}: {self.database}; the audit trail says {self.audited} (event #{self.seq})"
        return (f"{what}: {self.field} is {_show(self.database)} in the database, "
                f"{_show(self.audited)} in the audit trail (event #{self.seq})")


def _show(value: Any) -> str:
    return "NULL" if value is None else repr(value) if isinstance(value, str) else str(value)


@dataclass
class ReconcileResult:
    differences: list[Difference] = field(default_factory=list)
    compared_rows: int = 0
    compared_fields: int = 0
    not_audited_rows: int = 0
    events: int = 0
    fields_by_table: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.differences


@dataclass
class _State:
    values: dict = field(default_factory=dict)   # field -> (value, seq)
    label: str | None = None
    deleted: int | None = None                    # seq of the delete, when last was a delete
    created: int | None = None


def _events(session: Session) -> Iterable[tuple]:
    types = ", ".join(f"'{t}'" for t in OBJECT_TABLES)
    result = session.connection().exec_driver_sql(
        "SELECT seq, object_type, object_id, object_label, action, after FROM audit_event "
        f"WHERE object_id IS NOT NULL AND outcome = 'success' AND object_type IN ({types}) ORDER BY seq")
    while True:
        rows = result.fetchmany(20000)
        if not rows:
            return
        yield from rows


def _fold(session: Session, columns: dict[str, set[str]]) -> tuple[dict[tuple[str, str], _State], int]:
    states: dict[tuple[str, str], _State] = {}
    n = 0
    loads = orjson.loads
    for seq, otype, oid, label, action, after in _events(session):
        n += 1
        key = (otype, oid)
        st = states.get(key)
        if st is None:
            st = states[key] = _State()
        if label:
            st.label = label
        if action.endswith(".delete"):
            st.deleted, st.values = seq, {}
            continue
        if action.endswith(".create") or action.endswith(".baseline"):   # baseline: a migration's rows
            st.deleted, st.values, st.created = None, {}, seq
        if not after:
            continue
        data = loads(after)
        if not isinstance(data, dict):
            continue
        cols = columns[OBJECT_TABLES[otype]]
        values = st.values
        for k, v in data.items():
            if k in cols:
                values[k] = (v, seq)
    return states, n


def _normaliser(col):
    t = col.type
    t = getattr(t, "impl_instance", None) or getattr(t, "impl", t)  # a TypeDecorator (UTCDateTime)
    if isinstance(t, type):
        t = t()
    if isinstance(t, Boolean):
        return lambda v: None if v is None else bool(v)
    if isinstance(t, Numeric) and not isinstance(t, Integer):
        def num(v):
            if v is None:
                return None
            try:
                return Decimal(str(v)).normalize()
            except InvalidOperation:
                return v
        return num
    if isinstance(t, Integer):
        def integer(v):
            try:
                return None if v is None else int(v)
            except (TypeError, ValueError):
                return v
        return integer
    if isinstance(t, DateTime):
        def when(v):
            if v is None:
                return None
            if isinstance(v, str):
                try:
                    v = dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
                except ValueError:
                    return v
            if isinstance(v, dt.datetime) and v.tzinfo is not None:
                v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
            return v
        return when
    if isinstance(t, Date):
        def day(v):
            if v is None:
                return None
            if isinstance(v, str):
                try:
                    return dt.date.fromisoformat(v[:10])
                except ValueError:
                    return v
            return v.date() if isinstance(v, dt.datetime) else v
        return day
    return lambda v: v if v is None or isinstance(v, (str, dict, list)) else str(v)


def reconcile(session: Session) -> ReconcileResult:
    from models.base import Base

    tables = {name: Base.metadata.tables[name] for name in set(OBJECT_TABLES.values())}
    columns = {name: {c.key for c in t.columns} - NOT_AUDITED_EVERYWHERE - NOT_AUDITED.get(name, frozenset())
               for name, t in tables.items()}
    states, n_events = _fold(session, columns)
    result = ReconcileResult(events=n_events)
    by_table: dict[str, dict[str, tuple[str, _State]]] = {}
    for (otype, oid), st in states.items():
        by_table.setdefault(OBJECT_TABLES[otype], {})[oid] = (otype, st)
    for name, table in tables.items():
        pk = list(table.primary_key.columns)
        if len(pk) != 1:
            continue
        pk = pk[0]
        wanted = by_table.get(name, {})
        fields_seen: set[str] = set()
        for st in (s for _t, s in wanted.values()):
            fields_seen.update(st.values)
        fields = sorted(fields_seen)
        if fields:
            result.fields_by_table[name] = fields
        norm = {f: _normaliser(table.c[f]) for f in fields}
        seen_ids: set[str] = set()
        rows = session.execute(select(pk, *[table.c[f] for f in fields]))
        for row in rows:
            oid = str(row[0])
            seen_ids.add(oid)
            entry = wanted.get(oid)
            if entry is None:
                result.not_audited_rows += 1
                continue
            otype, st = entry
            if st.deleted is not None:
                result.differences.append(Difference(otype, oid, st.label, "(row)", "present in the database",
                                                     "deleted", st.deleted))
                continue
            result.compared_rows += 1
            for i, f in enumerate(fields, start=1):
                audited = st.values.get(f, MISSING)
                if audited is MISSING:
                    continue
                value, seq = audited
                result.compared_fields += 1
                n = norm[f]
                if n(row[i]) != n(value):
                    result.differences.append(Difference(otype, oid, st.label, f, row[i], value, seq))
        for oid, (otype, st) in wanted.items():
            if oid not in seen_ids and st.deleted is None and st.created is not None:
                result.differences.append(Difference(otype, oid, st.label, "(row)", "missing from the database",
                                                     "created and never deleted", st.created))
    _reconcile_readings(session, result)
    result.differences.sort(key=lambda d: (d.object_type, _sort_id(d.object_id), d.field))
    return result


def _reconcile_readings(session: Session, result: "ReconcileResult") -> None:
    """Each import of readings whose event names its rows: the rows as stored now against the digest it
    recorded. Readings no event names (imported before events named them, or added with SQL) are counted
    as not audited."""
    types = ", ".join(f"'{t}'" for t in READINGS)
    events = session.connection().exec_driver_sql(
        "SELECT seq, object_type, object_label, after FROM audit_event WHERE object_id IS NULL AND "
        f"outcome = 'success' AND object_type IN ({types}) AND after IS NOT NULL ORDER BY seq").all()
    covered: dict[str, int] = {}
    for seq, otype, label, after in events:
        data = orjson.loads(after)
        if not isinstance(data, dict) or "sha256" not in data:
            continue
        ranges = data.get("ids") or []
        rows = _readings_rows(session, otype, ranges)
        covered[otype] = covered.get(otype, 0) + len(rows)
        result.compared_rows += len(rows)
        if _digest(rows) != data.get("sha256"):
            result.differences.append(Difference(otype, f"import #{seq}", label, "(rows)",
                                                 f"{len(rows)} rows that differ from the import",
                                                 f"{data.get('imported')} rows as imported", seq))
    from sqlalchemy import func

    from models.base import Base

    for otype, (table, _key) in READINGS.items():
        total = session.execute(select(func.count()).select_from(Base.metadata.tables[table])).scalar()
        result.not_audited_rows += max(0, total - covered.get(otype, 0))


def _sort_id(oid: str):
    return (0, int(oid), "") if oid.isdigit() else (1, 0, oid)
