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
(`NOT_AUDITED`: bookkeeping and derived or cached columns). A statement's issue event records its
lines (`after.lines`, each with its id): from then on each line is compared like an object. A
contract's items are compared with the list its last event recorded, in id order (`ITEM_FIELDS`).

Every table is covered (`OBJECT_TABLES`, `ROW_EVENTS`, `PARENTS`, `BULK`, `NOT_BUSINESS`): each row is
explained by an event, the event that made or changed it (by id, or by the id ranges an import or a
bulk load recorded) or the event of its parent's write (a contract's events explain its items, a GPU's its history), or it is reported. In the
tables that feed money (`MONEY`: statements and their lines, contract items and their GPUs, GPU
history and leases, downtime, payments and their allocations, fapiao, deposits, readings, VAT rates
and tax codes) an unexplained row is a difference: it was written outside the program. Elsewhere it
is listed as "named by no event" (a row loaded with SQL by a test or a script). Rows loaded by a
migration (VAT rates, tax codes, GPU models) get a baseline event each (app/services/baselines.py, run by
`db upgrade`, `demo load` and `db roles`); until a table has its baseline, its rows are listed, not compared.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable

import orjson
from sqlalchemy import Boolean, Date, DateTime, Integer, Numeric, select
from sqlalchemy.orm import Session

from app.store.dbroles import BASELINE_TABLES

# Object types of the trail -> the table holding those objects (the pk is the table's only key).
OBJECT_TABLES = {
    "customer": "customer", "rack": "rack", "device_type": "device_type", "device": "device",
    "gpu": "gpu_asset", "gpu_model": "gpu_model", "subsidiary": "subsidiary", "site": "site",
    "room": "room", "user": "app_user", "contract": "contract", "contract_item": "contract_item",
    "statement": "statement", "rack_reservation": "rack_reservation", "downtime": "downtime",
    "coverage": "coverage", "region": "region",
    "cross_connect": "cross_connect", "cable": "cable",  # app/services/xconnects.py
    "tax_code": "tax_code",  # app/services/fapiao.set_tax_code
    "tax_rate": "tax_rate",  # loaded by migrations: a baseline event each (baseline_events)
    "statement_line": "statement_line",  # recorded by its statement's issue event (CHILD_LISTS)
    # the operations desk (app/services/operations/)
    "ticket": "ticket", "sla_credit": "sla_credit", "oncall_shift": "oncall_shift",
    "sla_target": "sla_target", "sla_credit_rule": "sla_credit_rule", "sla_calendar": "sla_calendar",
    "maintenance": "maintenance_window", "site_access": "site_access", "visit": "visit", "visitor": "visitor",
    "price": "price_list", "hold": "capacity_hold", "quote": "quote",  # app/services/capacity/
    # GPU clusters (app/services/clusters/): burn-in results are events of their node (node.burn_in)
    "gpu_cluster": "gpu_cluster", "scaleup_domain": "scaleup_domain", "fabric_switch": "fabric_switch",
    "gpu_node": "gpu_node", "health_event": "health_event", "node_swap": "node_swap",
}
# An event's list of child rows, each with its id: (object type, key of `after`) -> the children's type.
CHILD_LISTS = {("statement", "lines"): "statement_line"}

# --- what explains each table's rows ------------------------------------------------------------
# Named by their own events (by id), not compared field by field.
ROW_EVENTS = {"cage": "cage", "space_lease": "space_lease", "power_panel": "power_panel",
              "power_feed": "power_feed", "pdu_feed": "pdu_feed", "power_connection": "power_connection",
              "payment": "payment", "fapiao": "fapiao", "deposit_entry": "deposit", "app_setting": "setting",
              "meter_reading": "meter_reading", "circuit_reading": "circuit_reading",
              "holiday_day": "holiday_day"}  # China's days: a baseline event each (app/services/baselines.py)
# Explained by the events of their parent row (the write that made the parent made them): (column, table).
PARENTS: dict[str, tuple[tuple[str, str], ...]] = {
    "statement_line": (("statement_id", "statement"),),
    "contract_item": (("contract_id", "contract"),),
    "contract_item_gpu": (("item_id", "contract_item"),),
    "gpu_history": (("gpu_id", "gpu_asset"),),
    "gpu_lease": (("contract_item_id", "contract_item"), ("gpu_id", "gpu_asset")),
    "payment_allocation": (("payment_id", "payment"),),
    "fapiao": (("statement_id", "statement"),),
    "contact": (("customer_id", "customer"),),
    "invoicing_profile": (("customer_id", "customer"),),
    "overdue_decision": (("customer_id", "customer"),),
    # the operations desk: a ticket's timeline, objects and files are written by its own events
    "ticket_event": (("ticket_id", "ticket"),),
    "ticket_object": (("ticket_id", "ticket"),),
    "ticket_attachment": (("ticket_id", "ticket"),),
    "sla_breach": (("ticket_id", "ticket"),),
    "maintenance_impact": (("maintenance_id", "maintenance_window"),),
    "visit_rack": (("visit_id", "visit"),),
    "capacity_hold_node": (("hold_id", "capacity_hold"),),
    "quote_line": (("quote_id", "quote"),),
    "gpu_node_history": (("node_id", "gpu_node"),),
    "node_burn_in": (("node_id", "gpu_node"),),
}
# Reference data loaded as a whole: the load's event names the file, not each row.
BULK = {"region": "region.load"}
# Not business rows: the trail itself (audit verify checks it), the schema version (each upgrade
# has its db.upgrade event), the server's login key, the numbering counters (derived: every number
# they hand out is on an audited statement, contract or fapiao), SQLite's planner statistics.
NOT_BUSINESS = frozenset({"audit_event", "audit_head", "alembic_version", "app_secret", "document_counter",
                          "sqlite_stat1", "sqlite_sequence",
                          # derived: what the SLA sweep computed, and the number the rules' writes move (0041)
                          "ticket_sla_state", "sla_rules_generation",
                          "device_gpu_count"})   # derived: GPUs per server and model (0042)
# The tables that feed money: a row nothing explains is a difference (written outside the program).
MONEY = frozenset({"statement", "statement_line", "contract", "contract_item", "contract_item_gpu", "gpu_history",
                   "gpu_lease", "downtime", "payment", "payment_allocation", "fapiao", "deposit_entry",
                   "meter_reading", "circuit_reading", "tax_rate", "tax_code",
                   "sla_credit", "sla_credit_rule", "node_swap"})
LOADED_BY_MIGRATIONS = BASELINE_TABLES   # baseline events: app/services/baselines.py
UNEXPLAINED_SHOWN = 20   # rows listed per table; the rest are counted

# Columns the program changes without an event recording their new value, so the trail cannot
# vouch for them. Everywhere: the bookkeeping columns. By table: what is derived or cached.
NOT_AUDITED_EVERYWHERE = frozenset({"id", "version", "updated_at", "updated_by", "created_at"})
NOT_AUDITED: dict[str, frozenset[str]] = {
    # logging in: the counters move without the user's version (docs/security.md, "Login")
    "app_user": frozenset({"password_hash", "failed_logins", "locked_until", "last_login_at"}),
    # follows the lifecycle: set when a contract's activation leases the GPU (recorded on the
    # contract's and the move's events, not as a field of the GPU), cleared by any other move;
    # busy_until: its leases' latest end, kept from gpu_lease (models/billing.follow_leases)
    "gpu_asset": frozenset({"customer_id", "busy_until"}),
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
        if self.seq == 0:
            return f"{what}: {self.database}; {self.audited}"
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
    # tables outside MONEY with rows nothing explains: table -> (rows, the first few keys)
    unexplained: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    covered_tables: int = 0

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


# A contract's events record its items in order (`after.items`, without their ids; contract.import_item
# adds one): the items as they stand are compared with the last list, item by item in id order. Only
# what prices and places an item (its service dates move with the lifecycle, recorded on the contract).
ITEM_FIELDS = ("kind", "quantity", "unit_price", "price_unit", "tax_category", "rack_id", "gpu_model_id",
               "power_allowance_kw", "kwh_price", "included_hours", "hourly_rate", "mbps", "u_from", "u_to",
               "cage_id", "setup_price")


def _fold(session: Session, columns: dict[str, set[str]],
          items: dict[str, tuple[list, int, str | None]] | None = None) -> tuple[dict[tuple[str, str], _State], int]:
    states: dict[tuple[str, str], _State] = {}
    items = {} if items is None else items
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
        if otype == "contract":
            if isinstance(data.get("items"), list):
                items[oid] = (data["items"], seq, label)
            elif action == "contract.import_item" and oid in items:
                items[oid] = (items[oid][0] + [data], seq, label)
            elif action == "contract.import_item":
                items[oid] = ([data], seq, label)
        cols = columns[OBJECT_TABLES[otype]]
        values = st.values
        for k, v in data.items():
            if k in cols:
                values[k] = (v, seq)
            elif (otype, k) in CHILD_LISTS and isinstance(v, list):   # the rows this event recorded with it
                ctype = CHILD_LISTS[(otype, k)]
                ccols = columns[OBJECT_TABLES[ctype]]
                for child in v:
                    if isinstance(child, dict) and "id" in child:
                        cst = states.setdefault((ctype, str(child["id"])), _State())
                        cst.label, cst.deleted, cst.created = label, None, seq
                        cst.values = {ck: (cv, seq) for ck, cv in child.items() if ck in ccols}
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
    items: dict[str, tuple[list, int, str | None]] = {}
    states, n_events = _fold(session, columns, items)
    result = ReconcileResult(events=n_events)
    _reconcile_items(session, items, result)
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
            if entry is None:   # explained otherwise, or reported by _coverage
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
    _coverage(session, result)
    result.differences.sort(key=lambda d: (d.object_type, _sort_id(d.object_id), d.field))
    return result


def _reconcile_items(session: Session, recorded: dict[str, tuple[list, int, str | None]],
                     result: "ReconcileResult") -> None:
    """Each contract's items (and their GPUs) against the list its last event recorded."""
    from models.base import Base

    t = Base.metadata.tables["contract_item"]
    g = Base.metadata.tables["contract_item_gpu"]
    gpus: dict[int, list[int]] = {}
    for item_id, gpu_id in session.execute(select(g.c.item_id, g.c.gpu_id)):
        gpus.setdefault(item_id, []).append(gpu_id)
    norm = {f: _normaliser(t.c[f]) for f in ITEM_FIELDS}
    held: dict[str, list] = {}
    for row in session.execute(select(t.c.contract_id, t.c.id, *[t.c[f] for f in ITEM_FIELDS])
                               .order_by(t.c.contract_id, t.c.id)):
        held.setdefault(str(row[0]), []).append(row)
    fields = set()
    for cid, (listed, seq, label) in recorded.items():
        rows = held.get(cid, [])
        if len(rows) != len(listed):
            result.differences.append(Difference("contract", cid, label, "(items)", f"{len(rows)} items",
                                                 f"{len(listed)} items", seq))
            continue
        for row, audited in zip(rows, listed):
            if not isinstance(audited, dict):
                continue
            result.compared_rows += 1
            for i, f in enumerate(ITEM_FIELDS, start=2):
                if f not in audited:
                    continue
                fields.add(f)
                result.compared_fields += 1
                if norm[f](row[i]) != norm[f](audited[f]):
                    result.differences.append(Difference("contract_item", str(row[1]), label, f, row[i],
                                                         audited[f], seq))
            if audited.get("gpu_ids") and isinstance(audited["gpu_ids"], list):   # (activation's are by serial)
                fields.add("gpu_ids")
                have, want = sorted(gpus.get(row[1], [])), sorted(int(x) for x in audited["gpu_ids"])
                if have != want:
                    result.differences.append(Difference("contract_item", str(row[1]), label, "gpu_ids",
                                                         have, want, seq))
    if fields:
        result.fields_by_table["contract_item"] = sorted(set(result.fields_by_table.get("contract_item", [])) | fields)


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


def _sort_id(oid: str):
    return (0, int(oid), "") if oid.isdigit() else (1, 0, oid)


# --- every table: what explains each row ---------------------------------------------------------

def _table_types() -> dict[str, str]:
    """Object type -> its table, for every type an event may name a table's rows by (a table's own name too)."""
    from models.base import Base

    types = {t: t for t in Base.metadata.tables}
    types.update({otype: table for table, otype in ROW_EVENTS.items()})
    types.update(OBJECT_TABLES)
    return types


def _own_type(table: str) -> str | None:
    for otype, t in OBJECT_TABLES.items():
        if t == table:
            return otype
    return ROW_EVENTS.get(table)


def _recorded_ranges(session: Session) -> dict[str, list[list[int]]]:
    """The id ranges the events of imports and bulk loads recorded (`after.ids`, object_id NULL), by table;
    a bulk load's event may name its table (`after.table`)."""
    types = _table_types()
    listed = ", ".join(f"'{t}'" for t in sorted(types))
    rows = session.connection().exec_driver_sql(
        "SELECT object_type, after FROM audit_event WHERE object_id IS NULL AND outcome = 'success' "
        f"AND after IS NOT NULL AND object_type IN ({listed})").all()
    found: dict[str, list[list[int]]] = {}
    for otype, after in rows:
        if '"ids"' not in after:
            continue
        data = orjson.loads(after)
        if not isinstance(data, dict) or not isinstance(data.get("ids"), list):
            continue
        table = data.get("table") if data.get("table") in types.values() else types[otype]
        found.setdefault(table, []).extend([int(a), int(b)] for a, b in data["ids"])
    merged: dict[str, list[list[int]]] = {}
    for table, ranges in found.items():
        out: list[list[int]] = []
        for a, b in sorted(ranges):
            if out and a <= out[-1][1] + 1:
                out[-1][1] = max(out[-1][1], b)
            else:
                out.append([a, b])
        merged[table] = out
    return merged


def _explained_sql(table, alias: str, ranges: dict, bulk_done: set, depth: int = 0) -> str | None:
    """An SQL condition true for the rows of `table` (as `alias`) that an event explains, or None (nothing does).
    Set-wise: IN (subquery) is a hashed lookup on PostgreSQL and a temporary index on SQLite."""
    from models.base import Base

    if table.name in bulk_done:
        return "1 = 1"
    pk = list(table.primary_key.columns)
    conds = []
    otype = _own_type(table.name)
    if otype is not None and len(pk) == 1:
        conds.append(f"CAST({alias}.{pk[0].name} AS VARCHAR(64)) IN (SELECT object_id FROM audit_event "
                     f"WHERE object_type = '{otype}' AND object_id IS NOT NULL AND outcome = 'success')")
    if table.name in ranges and len(pk) == 1:
        conds.append("(" + " OR ".join(f"{alias}.{pk[0].name} BETWEEN {a} AND {b}"
                                       for a, b in ranges[table.name]) + ")")
    for column, parent_name in PARENTS.get(table.name, ()):
        parent = Base.metadata.tables[parent_name]
        palias = f"p{depth}{len(conds)}"
        inner = _explained_sql(parent, palias, ranges, bulk_done, depth + 1) if depth < 3 else None
        if inner is not None:
            ppk = list(parent.primary_key.columns)[0].name
            conds.append(f"{alias}.{column} IN (SELECT {palias}.{ppk} FROM {parent_name} {palias} WHERE {inner})")
    return " OR ".join(f"({c})" for c in conds) if conds else None


def _coverage(session: Session, result: ReconcileResult) -> None:
    """Every table but the trail's own: the rows no event explains. In MONEY a difference each (the first
    UNEXPLAINED_SHOWN per table, then one for the rest); elsewhere listed in result.unexplained."""
    from models.base import Base

    ranges = _recorded_ranges(session)
    conn = session.connection()
    bulk_done = {t for t, action in BULK.items() if conn.exec_driver_sql(
        f"SELECT 1 FROM audit_event WHERE action = '{action}' AND outcome = 'success' LIMIT 1").first()}
    baselined = {t for t in LOADED_BY_MIGRATIONS if conn.exec_driver_sql(
        f"SELECT 1 FROM audit_event WHERE action = '{t}.baseline' LIMIT 1").first()}
    for name, table in sorted(Base.metadata.tables.items()):
        if name in NOT_BUSINESS:
            continue
        result.covered_tables += 1
        cond = _explained_sql(table, "t0", ranges, bulk_done)
        where = f"WHERE NOT ({cond})" if cond else ""
        n = conn.exec_driver_sql(f"SELECT count(*) FROM {name} t0 {where}").scalar()
        if not n:
            continue
        pk = [c.name for c in table.primary_key.columns]
        hidden = NOT_AUDITED_EVERYWHERE | NOT_AUDITED.get(name, frozenset())   # (app_user.password_hash: unreadable)
        shown = [c.name for c in table.columns if c.name not in pk and c.name not in hidden][:4]
        cols = ", ".join(f"t0.{c}" for c in pk + shown)
        rows = conn.exec_driver_sql(f"SELECT {cols} FROM {name} t0 {where} ORDER BY "
                                    f"{', '.join('t0.' + c for c in pk)} LIMIT {UNEXPLAINED_SHOWN}").all()
        keys = ["/".join(str(v) for v in r[:len(pk)]) for r in rows]
        if name not in MONEY or (name in LOADED_BY_MIGRATIONS and name not in baselined):
            result.unexplained[name] = (n, keys)
            result.not_audited_rows += n
            continue
        otype = _own_type(name) or name
        for key, r in zip(keys, rows):
            values = ", ".join(f"{c} {_show(v)}" for c, v in zip(shown, r[len(pk):]))
            result.differences.append(Difference(otype, key, values or None, "(row)", "in the database",
                                                 "no audit event made it or names it (written outside the program)",
                                                 0))
        if n > len(rows):
            result.differences.append(Difference(otype, f"({n - len(rows):,} more)", None, "(row)",
                                                 f"{n - len(rows):,} more rows of {name} in the database",
                                                 "no audit event made them or names them", 0))
