"""Read side of the console: paged list queries per entity, global search, record reads.

No Qt here. Each list is declared as data (`ListSpec`: columns with key, label,
alignment, sortability, default visibility) over one SQL select; sorting and filtering
happen in SQL. Pages are fetched by keyset (WHERE (sort, id) > (last sort, last id))
when the sort column can never be NULL, so a window deep in 400,000 GPUs costs the
same as the first. A nullable sort column cannot be paged that way (an OFFSET deep in
400,000 GPUs sorted by customer cost 1.2 s): its list is read as the ordered ids once
(`fetch_order`, 0.7-1.1 s for 400,000 GPUs by customer, off the GUI thread) and then in
windows of those ids (`fetch_rows`, 3-9 ms by primary key).
Labels are marked with `_` (a no-op); the console translates them in the context
"columns".
"""
from __future__ import annotations

import datetime as dt
import time
from array import array
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

from sqlalchemy import (
    Numeric,
    Select,
    and_,
    case,
    cast,
    false,
    func,
    literal,
    null,
    or_,
    select,
    tuple_,
    type_coerce,
    union,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql import visitors
from sqlalchemy.sql.selectable import Join

from app.domain.money import PERCENT_PLACES
from app.domain.rating import local_today
from app.read import list_filters
from app.read.list_filters import like_pattern, searchable, sort_column
from app.store.db import Database
from models import (
    AuditEvent,
    Cage,
    Contact,
    Contract,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    GpuHistory,
    GpuModel,
    Rack,
    Region,
    Room,
    Site,
    Statement,
    Subsidiary,
    User,
)
from models.base import utc_now_sql
from models.choices import (
    LIVE_CONTRACT,
    ChoiceSet,
    ContractStatus,
    Cooling,
    CustomerStatus,
    DeviceStatus,
    GpuState,
    Outcome,
    RackStatus,
    Role,
    SiteStatus,
    StatementKind,
    StatementStatus,
)


def _(text: str) -> str:
    return text


PAGE_SIZE = 200
# Lists with more rows than this are read in the background by the console when filtered, or
# sorted by a column that cannot page by keyset (60 ms at most below it, measured on 20,000
# contracts sorted by customer).
BACKGROUND_ROWS = 20_000


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    expr: Any
    align: str = "left"          # left | right | center
    sortable: bool = True
    shown: bool = True
    kind: str = "text"           # text | int | decimal | money | date | datetime | choice | bool
    choices: type[ChoiceSet] | None = None
    nullable: bool = True        # False allows keyset paging on this column
    widest: str = ""             # a code's longest shape: the list never makes the column narrower


@dataclass(frozen=True)
class ListSpec:
    kind: str                    # the entity kind, also the OpChanges kind views listen to
    title: str
    id_expr: Any
    columns: tuple[Column, ...]
    source: Callable[[], Select]  # select_from(...) with joins, no columns
    filter_exprs: tuple[Any, ...] = ()
    default_sort: str = ""
    default_desc: bool = False
    watches: frozenset[str] = frozenset()  # OpChanges kinds (audited object types) that make this list stale

    def column(self, key: str) -> Column:
        for c in self.columns:
            if c.key == key:
                return c
        raise KeyError(key)

    def keys(self) -> list[str]:
        return [c.key for c in self.columns]


@dataclass
class Page:
    rows: list[tuple]            # (id, value per column...)
    done: bool                   # no more rows after these


@dataclass
class Cursor:
    """Where the next window starts: the keyset position after the last row read."""

    last_sort: Any = None
    last_id: Any = None
    started: bool = False


# --- the lists ---------------------------------------------------------------

_cust = aliased(Customer, name="cust")
_owner = aliased(Customer, name="owner")
_host = aliased(Device, name="host")
_mgr = aliased(User, name="mgr")


def _sites_source():
    return (select().select_from(Site)
            .join(Subsidiary, Subsidiary.id == Site.subsidiary_id)
            .outerjoin(Region, Region.code == Site.region_code))


def _racks_source():
    return (select().select_from(Rack)
            .join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id)
            .outerjoin(_cust, _cust.id == Rack.customer_id))


def _rack_used_u():
    """U taken by the devices mounted in the rack (the room view's measure of utilisation)."""
    return (select(func.coalesce(func.sum(DeviceType.u_height), 0))
            .select_from(Device).join(DeviceType, DeviceType.id == Device.device_type_id)
            .where(Device.rack_id == Rack.id, Device.position.is_not(None))
            .correlate(Rack).scalar_subquery())


_RACK_USED_U = _rack_used_u()
# type_coerce: read back as Decimal on every backend (SQLite hands back floats). Used (%) is
# app.domain.money.percent worked in SQL (to sort and filter by it): round() ties away from zero on
# both backends, as percent does; the room floor and the rack's tooltips call percent itself.
_RACK_FREE_U = type_coerce(Rack.u_height - _RACK_USED_U, Numeric(6, 1))
_RACK_USED_PCT = type_coerce(func.round(cast(_RACK_USED_U * 100.0 / func.nullif(Rack.u_height, 0), Numeric(6, 1)), PERCENT_PLACES),
                             Numeric(6, 1))


def _devices_source():
    return (select().select_from(Device)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .outerjoin(Rack, Rack.id == Device.rack_id)
            .outerjoin(Room, Room.id == Rack.room_id)
            .outerjoin(Site, Site.id == Room.site_id)
            .outerjoin(_owner, _owner.id == Device.owner_customer_id))


def _gpus_source():
    return (select().select_from(GpuAsset)
            .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
            .outerjoin(_host, _host.id == GpuAsset.device_id)
            .outerjoin(_cust, _cust.id == GpuAsset.customer_id))


def _customers_source():
    return (select().select_from(Customer)
            .outerjoin(Region, Region.code == Customer.region_code)
            .outerjoin(_mgr, _mgr.id == Customer.account_manager_id))


def _contracts_source():
    return (select().select_from(Contract)
            .join(_cust, _cust.id == Contract.customer_id)
            .join(Subsidiary, Subsidiary.id == Contract.subsidiary_id))


def _statements_source():
    return select().select_from(Statement).join(_cust, _cust.id == Statement.customer_id)


SPECS: dict[str, ListSpec] = {}


def _spec(s: ListSpec) -> ListSpec:
    SPECS[s.kind] = s
    return s


_spec(ListSpec(
    "site", _("Sites"), Site.id,
    (
        Column("code", _("Code"), Site.code, nullable=False),
        Column("name", _("Name"), Site.name, nullable=False),
        Column("subsidiary", _("Subsidiary"), Subsidiary.name),
        Column("region", _("Region"), Region.name),
        Column("status", _("Status"), Site.status, kind="choice", choices=SiteStatus),
        Column("cooling", _("Cooling"), Site.cooling, kind="choice", choices=Cooling),
        Column("power_capacity_kw", _("Power (kW)"), Site.power_capacity_kw, align="right", kind="decimal"),
        Column("address", _("Address"), Site.address, shown=False),
    ),
    _sites_source, (Site.code, Site.name, Site.address), "code",
    watches=frozenset({"site", "subsidiary", "region"})))

_spec(ListSpec(
    "rack", _("Racks"), Rack.id,
    (
        Column("name", _("Name"), Rack.name, nullable=False),
        Column("site", _("Site"), Site.code),
        Column("room", _("Room"), Room.name),
        Column("status", _("Status"), Rack.status, kind="choice", choices=RackStatus, nullable=False),
        Column("free_u", _("Free (U)"), _RACK_FREE_U, align="right", kind="decimal"),
        Column("used_pct", _("Used (%)"), _RACK_USED_PCT, align="right", kind="decimal"),
        Column("customer", _("Customer"), _cust.name),
        Column("u_height", _("Height (U)"), Rack.u_height, align="right", kind="int"),
        Column("power_capacity_kw", _("Power (kW)"), Rack.power_capacity_kw, align="right", kind="decimal"),
        Column("asset_tag", _("Asset tag"), Rack.asset_tag, shown=False),
    ),
    _racks_source, (Rack.name, Rack.asset_tag, Site.code, _cust.name), "name",
    watches=frozenset({"rack", "room", "site", "customer", "rack_reservation", "contract"})))

_spec(ListSpec(
    "device", _("Devices"), Device.id,
    (
        Column("name", _("Name"), Device.name, nullable=False),
        Column("serial", _("Serial"), Device.serial),
        Column("type", _("Type"), DeviceType.manufacturer + literal(" ") + DeviceType.model),
        Column("site", _("Site"), Site.code),
        Column("rack", _("Rack"), Rack.name),
        Column("position", _("Position (U)"), Device.position, align="right", kind="decimal"),
        Column("face", _("Face"), Device.face, shown=False),
        Column("status", _("Status"), Device.status, kind="choice", choices=DeviceStatus, nullable=False),
        Column("owner", _("Owner"), _owner.name),
        Column("asset_tag", _("Asset tag"), Device.asset_tag, shown=False),
    ),
    _devices_source, (Device.name, Device.serial, Device.asset_tag, _owner.name), "name",
    watches=frozenset({"device", "rack", "customer", "device_type", "site", "room"})))

_spec(ListSpec(
    "gpu", _("GPUs"), GpuAsset.id,
    (
        Column("serial", _("Serial"), GpuAsset.serial, nullable=False),
        Column("model", _("Model"), GpuModel.name),
        Column("state", _("State"), GpuAsset.state, kind="choice", choices=GpuState, nullable=False),
        Column("host", _("Host"), _host.name),
        Column("slot", _("Slot"), GpuAsset.slot, align="right", kind="int"),
        Column("customer", _("Customer"), _cust.name),
        Column("warranty_end", _("Warranty end"), GpuAsset.warranty_end, kind="date"),
        Column("purchase_date", _("Purchased"), GpuAsset.purchase_date, kind="date", shown=False),
        Column("purchase_cost", _("Cost (CNY)"), GpuAsset.purchase_cost, align="right", kind="money", shown=False),
    ),
    _gpus_source, (GpuAsset.serial, _host.name, _cust.name), "serial",
    watches=frozenset({"gpu", "gpu_asset", "device", "customer", "contract"})))

_spec(ListSpec(
    "customer", _("Customers"), Customer.id,
    (
        Column("name", _("Name"), Customer.name, nullable=False),
        Column("credit_code", _("Credit code"), Customer.credit_code, nullable=False),
        Column("region", _("Region"), Region.name),
        Column("status", _("Status"), Customer.status, kind="choice", choices=CustomerStatus),
        Column("manager", _("Account manager"), _mgr.display_name),
        Column("address", _("Address"), Customer.address, shown=False),
    ),
    _customers_source, (Customer.name, Customer.credit_code), "name",
    watches=frozenset({"customer", "contact"})))

_spec(ListSpec(
    "contract", _("Contracts"), Contract.id,
    (
        Column("number", _("Number"), Contract.number, nullable=False),
        Column("customer", _("Customer"), _cust.name),
        Column("title", _("Title"), Contract.title),
        Column("status", _("Status"), Contract.status, kind="choice", choices=ContractStatus, nullable=False),
        Column("start_date", _("Start"), Contract.start_date, kind="date", nullable=False),
        Column("end_date", _("End"), Contract.end_date, kind="date", nullable=False),
        Column("subsidiary", _("Subsidiary"), Subsidiary.name, shown=False),
        Column("revision", _("Revision"), Contract.revision, align="right", kind="int", shown=False),
    ),
    _contracts_source, (Contract.number, Contract.title, _cust.name), "number",
    watches=frozenset({"contract", "contract_item", "customer"})))

_spec(ListSpec(
    "statement", _("Statements"), Statement.id,
    (
        Column("number", _("Number"), Statement.number, widest="HZ-202612-000000"),
        Column("customer", _("Customer"), _cust.name),
        Column("period", _("Period"), Statement.period, nullable=False),
        # a credit note shows by its negative total and in the panel; kind, subtotal and tax are in the
        # column chooser: at 1280 px beside the statement the list shows its total without scrolling
        Column("kind", _("Kind"), Statement.kind, kind="choice", choices=StatementKind, shown=False),
        Column("status", _("Status"), Statement.status, kind="choice", choices=StatementStatus),
        Column("subtotal", _("Subtotal"), Statement.subtotal, align="right", kind="money", shown=False),
        Column("tax", _("Tax"), Statement.tax, align="right", kind="money", shown=False),
        Column("total", _("Total"), Statement.total, align="right", kind="money"),
        Column("fapiao_no", _("Fapiao no."), Statement.fapiao_no, shown=False),
    ),
    _statements_source, (Statement.number, _cust.name, Statement.period), "period", True,
    watches=frozenset({"statement", "billing", "contract"})))

_spec(ListSpec(
    "audit", _("Audit log"), AuditEvent.seq,
    (
        Column("seq", _("No."), AuditEvent.seq, align="right", kind="int", nullable=False),
        Column("ts", _("Time"), AuditEvent.ts, kind="datetime", nullable=False),
        Column("actor", _("User"), AuditEvent.actor_login, nullable=False),
        # names in the reader's language beside the codes (kinds "audit_action"/"audit_object")
        Column("action_name", _("Action"), AuditEvent.action, kind="audit_action", nullable=False),
        Column("action", _("Action code"), AuditEvent.action, nullable=False),
        Column("object_type_name", _("Object type"), AuditEvent.object_type, kind="audit_object"),
        Column("object_type", _("Type code"), AuditEvent.object_type),
        Column("object_label", _("Object"), AuditEvent.object_label),
        Column("outcome", _("Outcome"), AuditEvent.outcome, kind="choice", choices=Outcome),
        Column("reason", _("Reason"), AuditEvent.reason),
        Column("host", _("Host"), AuditEvent.host, shown=False),
    ),
    lambda: select().select_from(AuditEvent),
    (AuditEvent.actor_login, AuditEvent.action, AuditEvent.object_label), "seq", True,
    watches=frozenset({"*"})))

_spec(ListSpec(
    "user", _("Users"), User.id,
    (
        Column("login", _("Login"), User.login, nullable=False),
        Column("display_name", _("Name"), User.display_name, nullable=False),
        Column("role", _("Role"), User.role, kind="choice", choices=Role, nullable=False),
        Column("active", _("Active"), User.active, kind="bool", align="center"),
        # login lock (issue 12): until when, after how many failed attempts; ui/pages/users.py unlocks
        # an expired lock is no lock: shown (and sorted, filtered) as empty once its time has passed
        Column("locked_until", _("Locked until"),
               case((User.locked_until > utc_now_sql(), User.locked_until), else_=null()), kind="datetime"),
        Column("failed_logins", _("Failed logins"), User.failed_logins, align="right", kind="int"),
    ),
    lambda: select().select_from(User), (User.login, User.display_name), "login",
    watches=frozenset({"user"})))


# --- paging ----------------------------------------------------------------------

# Columns whose values are ASCII by convention or validation (serials, asset tags, USCC credit
# codes): a term with a non-ASCII character cannot occur in them, so their scan is skipped.
ASCII_ONLY = (GpuAsset.serial, Device.serial, Device.asset_tag, Rack.asset_tag, Customer.credit_code)

# For a filter column on a joined table: the inner joins from the list's base table to it (all
# to-one, by primary key), so its branch of the filter starts from that table's own index.
_FILTER_PATHS: dict[str, tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...]] = {
    "rack": ((Site.code, ((Room, Room.id == Rack.room_id), (Site, Site.id == Room.site_id))),
             (_cust.name, ((_cust, _cust.id == Rack.customer_id),))),
    "device": ((_owner.name, ((_owner, _owner.id == Device.owner_customer_id),)),),
    "gpu": ((_host.name, ((_host, _host.id == GpuAsset.device_id),)),
            (_cust.name, ((_cust, _cust.id == GpuAsset.customer_id),))),
    "contract": ((_cust.name, ((_cust, _cust.id == Contract.customer_id),)),),
    "statement": ((_cust.name, ((_cust, _cust.id == Statement.customer_id),)),),
}


def _skip_ascii(text: str, expr) -> bool:
    return not text.isascii() and any(expr is c for c in ASCII_ONLY)


def filter_clause(db: Database, spec: ListSpec, text: str | None, allow_union: bool = True):
    """(WHERE clause or None, whether it is the `id IN (… UNION …)` shape) for a list's filter
    text. The audit list's text may carry its filter bar (period, user, action, object type) as
    tokens, read by app.audit.query.parse_filter_text; the rest is matched as below. Any list's text
    may carry column filters ('@status=active', app.read.list_filters); with them the plain shape is used."""
    columns, text = list_filters.split(spec, text)
    if columns:
        rest, _u = filter_clause(db, spec, text, allow_union=False)
        own = list_filters.clause(db, spec, columns)
        return (own if rest is None else and_(own, rest)), False
    if spec.kind == "audit":
        from app.audit.query import parse_filter_text
        flt, free = parse_filter_text(text)
        clause, union_shape = _text_clause(db, spec, free, allow_union)
        where = flt.where()
        if where is not None:
            clause = where if clause is None else and_(where, clause)
        return clause, union_shape
    return _text_clause(db, spec, text, allow_union)


def _text_clause(db: Database, spec: ListSpec, text: str | None, allow_union: bool = True):
    """(WHERE clause or None, whether it is the `id IN (… UNION …)` shape): rows where any
    filter column contains `text` (case-insensitive for ASCII).

    The columns of the base table are tested together in one scan; each column of a joined
    table gets its own branch (base ids reached from that table, inner joins only), and the
    branches are combined as `id IN (… UNION …)`: an OR spanning several tables of an outer
    join can use no index and builds every joined row, while each branch scans one narrow
    index (on PostgreSQL a pg_trgm index). Same rows as the plain OR: the joins are to-one.
    """
    text = (text or "").strip()
    if not text or not spec.filter_exprs:
        return None, False
    if not searchable(text):
        return false(), False
    pattern = like_pattern(text)

    def like(e):  # SQLite's LIKE is already case-insensitive for ASCII
        return e.like(pattern, escape="\\") if db.is_sqlite else e.ilike(pattern, escape="\\")

    exprs = [e for e in spec.filter_exprs if not _skip_ascii(text, e)]
    if not exprs:
        return false(), False
    base = spec.id_expr.table
    paths = _FILTER_PATHS.get(spec.kind, ())
    own, joined = [], []
    for e in exprs:
        path = next((p for x, p in paths if x is e), None)
        if path is None and getattr(e, "table", None) is not base:
            own = None  # a column this function has no path for: keep the plain OR over the joins
            break
        (joined if path is not None else own).append((e, path))
    if own is None or not joined or not allow_union:
        return or_(*[like(e) for e in exprs]), False
    branches = []
    if own:
        branches.append(select(spec.id_expr).where(or_(*[like(e) for e, _p in own])))
    for e, path in joined:
        q = select(spec.id_expr)
        for target, on in path:
            q = q.join(target, on)
        branches.append(q.where(like(e)))
    ids = branches[0] if len(branches) == 1 else union(*branches)
    return spec.id_expr.in_(ids), True

# A filtered page sorted by a column of the base table first looks for its rows among the next
# PROBE_ROWS rows in sort order (an index range, joined and tested with the plain OR): a broad
# term (thousands of matches) fills the page there at once, where the `id IN (… UNION …)`
# shape would collect and sort every match. Only when the window holds fewer than a page of
# matches (a narrow term) is the page read through the union.
PROBE_ROWS = 4000


def fetch_page(db: Database, spec: ListSpec, cursor: Cursor, *, text: str | None = None,
               sort: str | None = None, desc: bool | None = None, limit: int = PAGE_SIZE) -> Page:
    """The next `limit` rows after `cursor` (which it advances), for a sort that pages by keyset
    (`pages_by_keyset`); any other sort is read through `fetch_order` and `fetch_rows`."""
    sort = sort or spec.default_sort
    desc = spec.default_desc if desc is None else desc
    if not pages_by_keyset(spec, sort):
        raise ValueError(f"{spec.kind} sorted by {sort} cannot page by keyset: read it with fetch_order")
    sort_expr = sort_column(spec, sort)[1]       # a choice column may sort by its labels' order
    pos = tuple_(sort_expr, spec.id_expr)

    def ordered(stmt: Select) -> Select:
        if cursor.started:
            last = tuple_(literal(cursor.last_sort, type_=sort_expr.type),
                          literal(cursor.last_id, type_=spec.id_expr.type))
            stmt = stmt.where(pos < last if desc else pos > last)
        if desc:
            return stmt.order_by(sort_expr.desc(), spec.id_expr.desc())
        return stmt.order_by(sort_expr.asc(), spec.id_expr.asc())

    cols = spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns], sort_expr)
    clause, union_shape = filter_clause(db, spec, text)
    stmt = cols if clause is None else cols.where(clause)
    stmt = ordered(stmt).limit(limit)
    with db.engine.connect() as conn:
        raw = None
        base = spec.id_expr.table
        if union_shape and getattr(sort_expr, "table", None) is base:
            end = conn.execute(ordered(select(sort_expr, spec.id_expr).select_from(base))
                               .offset(PROBE_ROWS - 1).limit(1)).first()
            plain, _u = filter_clause(db, spec, text, allow_union=False)
            probe = cols.where(plain)
            if end is not None:
                bound = tuple_(literal(end[0], type_=sort_expr.type), literal(end[1], type_=spec.id_expr.type))
                probe = probe.where(pos >= bound if desc else pos <= bound)
            raw = conn.execute(ordered(probe).limit(limit)).all()
            if len(raw) < limit and end is not None:
                raw = None  # a narrow term: the window held less than a page
        if raw is None and union_shape and not cursor.started:
            # a narrow term's first page: the union's matches are all read and sorted anyway, so
            # count them in the same statement and keep the figure for the count() that follows
            head = audit_head(db)
            with_n = ordered(cols.add_columns(func.count().over()).where(clause)).limit(limit)
            raw = conn.execute(with_n).all()
            COUNTS[count_key(db, spec, text)] = (head, time.monotonic(), raw[0][-1] if raw else 0)
            raw = [r[:-1] for r in raw]
        if raw is None:
            raw = conn.execute(stmt).all()
    rows = [tuple(r[:-1]) for r in raw]
    if raw:
        cursor.last_sort, cursor.last_id = raw[-1][-1], raw[-1][0]
    cursor.started = True
    return Page(rows, len(raw) < limit)


# Filtered counts taken with a first page through the union: (audit head, when, count) by
# (database, list, text). Every write through the services appends an audit event, so an
# unchanged audit head (and a few seconds at most) means the figure still holds.
COUNTS: dict[tuple, tuple[int, float, int]] = {}
_COUNT_FRESH_S = 2.0


def count_key(db: Database, spec: ListSpec, text: str | None) -> tuple:
    return (str(db.engine.url), spec.kind, (text or "").strip())


def count(db: Database, spec: ListSpec, text: str | None = None) -> int:
    clause, union_shape = filter_clause(db, spec, text)
    kept = COUNTS.pop(count_key(db, spec, text), None) if union_shape else None
    if kept is not None and time.monotonic() - kept[1] < _COUNT_FRESH_S and kept[0] == audit_head(db):
        return kept[2]
    if union_shape:  # the joins are to-one and outer or total (as in `total`): the base table alone
        stmt = select(func.count()).select_from(spec.id_expr.table).where(clause)
    else:
        stmt = spec.source().add_columns(func.count())
        if clause is not None:
            stmt = stmt.where(clause)
    with db.engine.connect() as conn:
        return conn.execute(stmt).scalar_one()


def total(db: Database, spec: ListSpec) -> int:
    """Rows in the list without a filter: the base table alone, no joins (the joins are outer or total)."""
    table = spec.id_expr.table
    if spec.kind == "audit":
        # The chain is append-only and gapless from seq 1 (`audit verify` checks exactly that), so
        # its head's seq is the number of events: one row read instead of counting 2,000,000.
        return audit_head(db)
    with db.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def pages_by_keyset(spec: ListSpec, sort: str | None) -> bool:
    """Whether the list sorted by `sort` pages by keyset (`fetch_page`); otherwise it is read
    through its ordered ids (`fetch_order`, `fetch_rows`)."""
    return not sort_column(spec, sort or spec.default_sort)[0].nullable


def _order_by(spec: ListSpec, sort: str | None, desc: bool | None) -> tuple:
    """NULLs last ascending and first descending (the exact reverse), the id breaking ties: the
    same on SQLite and PostgreSQL, whose defaults differ."""
    expr = sort_column(spec, sort or spec.default_sort)[1]
    desc = spec.default_desc if desc is None else desc
    if desc:
        return expr.desc().nulls_first(), spec.id_expr.desc()
    return expr.asc().nulls_last(), spec.id_expr.asc()


def _table_names(expr) -> set[str]:
    return {getattr(e.table, "name", None) for e in visitors.iterate(expr) if getattr(e, "table", None) is not None}


def _joins(stmt: Select):
    """(right side, on clause, outer?) of each join of the statement's FROM, in order."""
    def walk(j):
        if isinstance(j, Join):
            yield from walk(j.left)
            yield j.right, j.onclause, j.isouter
    return list(walk(stmt.get_final_froms()[0]))


def _source_for(spec: ListSpec, *exprs) -> Select:
    """The list's source with only the joins `exprs` need: an id list sorted by a base-table column
    reads that table alone (400,000 GPUs by warranty end: 1.2 s through every join, 0.16 s alone).
    Dropping a join keeps every row: the joins are outer, or inner on a NOT NULL key (total)."""
    base = spec.id_expr.table
    need = set().union(*(_table_names(e) for e in exprs)) - {base.name}
    keep = []
    for right, on, outer in reversed(_joins(spec.source().add_columns(spec.id_expr))):
        if right.name in need:
            keep.append((right, on, outer))
            need |= _table_names(on) - {base.name, right.name}
    stmt = select().select_from(base)
    for right, on, outer in reversed(keep):
        stmt = stmt.join(right, on, isouter=outer)
    return stmt


_ORDER_BATCH = 500


def fetch_order(db: Database, spec: ListSpec, *, text: str | None = None, sort: str | None = None,
                desc: bool | None = None, check: Callable[[], None] | None = None) -> array | list:
    """Every id of the filtered list, in sort order: one query, whatever the sort column.
    `check()` runs between batches and may raise to stop a read nobody wants any more."""
    clause, union_shape = filter_clause(db, spec, text)
    order = _order_by(spec, sort, desc)
    if clause is None or union_shape:   # the union's branches join for themselves
        stmt = _source_for(spec, *order).add_columns(spec.id_expr)
    else:
        stmt = spec.source().add_columns(spec.id_expr)
    if clause is not None:
        stmt = stmt.where(clause)
    stmt = stmt.order_by(*order)
    ids: array | list = array("q")     # 8 bytes an id: 3.2 MB for 400,000 GPUs
    with db.engine.connect() as conn:
        # In batches: the console reads this on a worker thread, and a single fetch of 400,000
        # rows holds the GIL for 0.5 s in the driver and result processing, which froze the GUI
        # thread as long; between batches of 500 the GUI thread gets its turn (a plain thread beside
        # it waited at most 8-10 ms; batches of 2,000: 48-74 ms).
        result = conn.execution_options(yield_per=_ORDER_BATCH).execute(stmt)
        for part in result.scalars().partitions():
            if check is not None:
                check()
            try:
                part = array("q", part)          # whole or not at all
            except (TypeError, OverflowError):   # ids that are not 64-bit integers
                ids = list(ids)
            ids.extend(part)
    return ids


def fetch_rows(db: Database, spec: ListSpec, ids) -> list[tuple]:
    """The rows of `ids`, in that order; an id whose row is gone is left out."""
    ids = list(ids)
    if not ids:
        return []
    stmt = spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns]).where(spec.id_expr.in_(ids))
    with db.engine.connect() as conn:
        by_id = {r[0]: tuple(r) for r in conn.execute(stmt)}
    return [by_id[i] for i in ids if i in by_id]


@dataclass
class ListRead:
    """What `read_list` read: the first keyset window (with the cursor after it), or every id in
    order; and the number of rows that match the filter (None: not counted yet)."""
    count: int | None
    page: Page | None = None
    cursor: Cursor | None = None
    order: array | list | None = None


def read_list(db: Database, spec: ListSpec, params: tuple, page_size: int = PAGE_SIZE, *,
              with_count: bool = True, check: Callable[[], None] | None = None) -> ListRead:
    """A list's first read for (filter, sort, descending), as the console's table model does it.
    With with_count=False a filtered list whose first window is full is left uncounted (the console
    counts it in a second step, after showing the rows)."""
    text, sort, desc = params
    if not pages_by_keyset(spec, sort):
        order = fetch_order(db, spec, text=text, sort=sort, desc=desc, check=check)
        return ListRead(len(order), order=order)
    cursor = Cursor()
    page = fetch_page(db, spec, cursor, text=text, sort=sort, desc=desc, limit=page_size)
    if page.done or not text:
        n = len(page.rows)
    else:
        n = count(db, spec, text) if with_count else None
    return ListRead(n, page=page, cursor=cursor)


def fetch_all(db: Database, spec: ListSpec, *, text: str | None = None, sort: str | None = None,
              desc: bool | None = None, batch: int = 2000):
    """Every row of the filtered, sorted list, in batches (for export); yields lists of rows."""
    if not pages_by_keyset(spec, sort):
        order = fetch_order(db, spec, text=text, sort=sort, desc=desc)
        for i in range(0, len(order), batch):
            rows = fetch_rows(db, spec, order[i:i + batch])
            if rows:
                yield rows
        return
    cursor = Cursor()
    while True:
        page = fetch_page(db, spec, cursor, text=text, sort=sort, desc=desc, limit=batch)
        if page.rows:
            yield page.rows
        if page.done:
            return


def audit_head(db: Database) -> int:
    """The sequence number of the newest audit event: a cheap 'did anything change?' probe."""
    from sqlalchemy import text as sql
    with db.engine.connect() as conn:
        return conn.execute(sql("SELECT seq FROM audit_head WHERE id = 1")).scalar() or 0


# --- global search ---------------------------------------------------------------

@dataclass(frozen=True)
class SearchHit:
    kind: str      # rack, device, gpu, customer, contract, statement
    id: int
    label: str
    detail: str


def search(db: Database, text: str, per_kind: int = 8) -> list[SearchHit]:
    text = (text or "").strip()
    if not text or not searchable(text):
        return []
    pattern = like_pattern(text)

    def like(e):
        # a non-ASCII term cannot occur in an ASCII-only column (serials, asset tags, credit
        # codes): no scan (for '科技' that was 400,000 GPU serials)
        if _skip_ascii(text, e):
            return false()
        return e.like(pattern, escape="\\") if db.is_sqlite else e.ilike(pattern, escape="\\")

    queries = [
        ("rack", select(Rack.id, Rack.name, Site.code + literal(" / ") + Room.name)
         .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
         .where(or_(like(Rack.name), like(Rack.asset_tag))).order_by(Rack.name)),
        ("device", select(Device.id, Device.name, func.coalesce(Device.serial, ""))
         .where(or_(like(Device.name), like(Device.serial), like(Device.asset_tag))).order_by(Device.name)),
        ("gpu", select(GpuAsset.id, GpuAsset.serial, GpuModel.name)
         .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
         .where(like(GpuAsset.serial)).order_by(GpuAsset.serial)),
        ("customer", select(Customer.id, Customer.name, Customer.credit_code)
         .where(or_(like(Customer.name), like(Customer.credit_code))).order_by(Customer.name)),
        ("contract", select(Contract.id, Contract.number, func.coalesce(Contract.title, ""))
         .where(or_(like(Contract.number), like(Contract.title))).order_by(Contract.number)),
        ("statement", select(Statement.id, func.coalesce(Statement.number, ""), Statement.period)
         .where(or_(like(Statement.number), like(Statement.fapiao_no))).order_by(Statement.number)),
    ]
    hits = []
    with db.engine.connect() as conn:
        for kind, q in queries:
            if kind == "gpu" and _skip_ascii(text, GpuAsset.serial):
                continue  # its only column is ASCII-only
            for row in conn.execute(q.limit(per_kind)):
                hits.append(SearchHit(kind, row[0], str(row[1]), str(row[2] or "")))
    return hits


# --- single records and small lists ------------------------------------------------

MODELS = {"site": Site, "rack": Rack, "device": Device, "gpu": GpuAsset, "customer": Customer,
          "contract": Contract, "statement": Statement, "user": User, "room": Room}


def record(db: Database, kind: str, id_: int) -> dict[str, Any] | None:
    """Column values of one row as plain values (with `version`), for a detail dialog."""
    model = MODELS[kind]
    with db.session() as s:
        obj = s.get(model, id_)
        if obj is None:
            return None
        return {c.key: getattr(obj, c.key) for c in model.__mapper__.column_attrs}


def customer_contacts(db: Database, customer_id: int) -> list[dict[str, Any]]:
    """The customer's contacts in their order: name, role, phone, email."""
    with db.engine.connect() as conn:
        return [dict(name=r[0], role=r[1], phone=r[2], email=r[3]) for r in conn.execute(
            select(Contact.name, Contact.role, Contact.phone, Contact.email)
            .where(Contact.customer_id == customer_id).order_by(Contact.id))]


def gpu_history(db: Database, gpu_id: int) -> list[tuple]:
    """(at, from_state, to_state, actor_login, reason), newest first."""
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            select(GpuHistory.at, GpuHistory.from_state, GpuHistory.to_state, GpuHistory.actor_login,
                   GpuHistory.reason).where(GpuHistory.gpu_id == gpu_id)
            .order_by(GpuHistory.at.desc(), GpuHistory.id.desc()))]


@dataclass(frozen=True)
class GpuSlot:
    slot: int
    gpu_id: int | None
    serial: str | None
    model: str | None
    state: str | None
    version: int | None


@dataclass(frozen=True)
class GpuSlots:
    device_id: int
    device_name: str
    gpu_model: str | None          # the model the server takes, None when any
    slots: list[GpuSlot]


# A GPU on the shelf that can go into a server (GpuState.INSTALLABLE: not in maintenance or RMA).
STOCK_STATES = tuple(s for s in GpuState.values() if s in GpuState.INSTALLABLE)


def gpu_slots(db: Database, device_id: int) -> GpuSlots | None:
    """Every GPU slot of a server, with the GPU in it (if any)."""
    with db.engine.connect() as conn:
        head = conn.execute(
            select(Device.name, DeviceType.gpu_slots, GpuModel.name)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .outerjoin(GpuModel, GpuModel.id == DeviceType.gpu_model_id)
            .where(Device.id == device_id)).first()
        if head is None:
            return None
        held = {r.slot: r for r in conn.execute(
            select(GpuAsset.slot, GpuAsset.id, GpuAsset.serial, GpuModel.name.label("model"), GpuAsset.state,
                   GpuAsset.version).join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
            .where(GpuAsset.device_id == device_id))}
    slots = []
    for n in range(1, (head[1] or 0) + 1):
        r = held.get(n)
        slots.append(GpuSlot(n, r.id, r.serial, r.model, r.state, r.version) if r else
                     GpuSlot(n, None, None, None, None, None))
    return GpuSlots(device_id, head[0], head[2], slots)


@dataclass(frozen=True)
class DeviceTypeSize:
    id: int
    u_height: Decimal
    full_depth: bool

    @property
    def units(self) -> int:
        """Whole units a device of this type needs (a 0.5U device takes its unit)."""
        return int(-(-self.u_height // 1))


def device_type_sizes(db: Database) -> list[DeviceTypeSize]:
    with db.engine.connect() as conn:
        return [DeviceTypeSize(r[0], Decimal(str(r[1])), bool(r[2])) for r in conn.execute(
            select(DeviceType.id, DeviceType.u_height, DeviceType.is_full_depth).limit(5000))]


def stock_gpus(db: Database, device_id: int, limit: int = 500) -> list[tuple[int, str, str, str, int]]:
    """(id, serial, model, state, version) of GPUs on the shelf that fit this server."""
    with db.engine.connect() as conn:
        want = conn.execute(select(DeviceType.gpu_model_id).join(Device, Device.device_type_id == DeviceType.id)
                            .where(Device.id == device_id)).scalar()
        q = (select(GpuAsset.id, GpuAsset.serial, GpuModel.name, GpuAsset.state, GpuAsset.version)
             .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
             .where(GpuAsset.device_id.is_(None), GpuAsset.state.in_(STOCK_STATES)))
        if want:
            q = q.where(GpuAsset.gpu_model_id == want)
        return [tuple(r) for r in conn.execute(q.order_by(GpuAsset.serial).limit(limit))]


def gpu_states(db: Database, ids: list[int]) -> dict[int, str]:
    with db.engine.connect() as conn:
        out = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            out.update(dict(conn.execute(select(GpuAsset.id, GpuAsset.state).where(GpuAsset.id.in_(chunk))).all()))
        return out


def options(db: Database, kind: str) -> list[tuple[Any, str]]:
    """(value, label) pairs for combo boxes: subsidiaries, regions, sites, rooms, customers, ..."""
    if kind == "region":
        from app.read.viewdata import region_choices
        return region_choices(db)
    q = {
        "subsidiary": select(Subsidiary.id, Subsidiary.name).order_by(Subsidiary.code),
        "region": select(Region.code, Region.name + literal(" ") + Region.code).order_by(Region.code),
        "site": select(Site.id, Site.code + literal(" ") + Site.name).order_by(Site.code),
        "room": select(Room.id, Site.code + literal(" / ") + Room.name).join(Site, Site.id == Room.site_id)
        .order_by(Site.code, Room.name),
        "rack": select(Rack.id, Site.code + literal(" / ") + Room.name + literal(" / ") + Rack.name)
        .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id).order_by(Site.code, Room.name, Rack.name),
        "customer": select(Customer.id, Customer.name).order_by(Customer.name),
        "cage": select(Cage.id, Site.code + literal(" / ") + Room.name + literal(" / ") + Cage.name)
        .join(Room, Room.id == Cage.room_id).join(Site, Site.id == Room.site_id).order_by(Site.code, Cage.name),
        "device_type": select(DeviceType.id, DeviceType.manufacturer + literal(" ") + DeviceType.model)
        .order_by(DeviceType.manufacturer, DeviceType.model),
        "gpu_model": select(GpuModel.id, GpuModel.name).order_by(GpuModel.name),
        "gpu_host": select(Device.id, Device.name).join(DeviceType, DeviceType.id == Device.device_type_id)
        .where(DeviceType.gpu_slots > 0).order_by(Device.name),
        "manager": select(User.id, User.display_name).where(User.role.in_(["admin", "account_manager"]))
        .order_by(User.display_name),
    }[kind]
    with db.engine.connect() as conn:
        return [(r[0], str(r[1])) for r in conn.execute(q.limit(5000))]


@dataclass(frozen=True)
class Summary:
    sites: int
    racks: int
    racks_leased: int
    devices: int
    gpus: int
    gpus_by_state: dict[str, int]
    customers: int
    contracts_active: int
    contracts_ending: dict[int, int]   # days -> contracts ending within


def summary(db: Database, today: dt.date | None = None) -> Summary:
    today = today or local_today()
    with db.engine.connect() as conn:
        def n(q):
            return conn.execute(q).scalar_one()
        by_state = dict(conn.execute(select(GpuAsset.state, func.count()).group_by(GpuAsset.state)).all())
        ending = {}
        for days in (30, 60, 90):
            ending[days] = n(select(func.count()).select_from(Contract).where(
                Contract.status.in_(LIVE_CONTRACT),
                Contract.end_date >= today, Contract.end_date <= today + dt.timedelta(days=days)))
        return Summary(
            sites=n(select(func.count()).select_from(Site)),
            racks=n(select(func.count()).select_from(Rack)),
            racks_leased=n(select(func.count()).select_from(Rack).where(Rack.status == RackStatus.LEASED)),
            devices=n(select(func.count()).select_from(Device)),
            gpus=sum(by_state.values()),
            gpus_by_state=by_state,
            customers=n(select(func.count()).select_from(Customer)),
            contracts_active=n(select(func.count()).select_from(Contract).where(Contract.status == ContractStatus.ACTIVE)),
            contracts_ending=ending,
        )


# --- small reads for the console's contract, billing, audit and rack forms ----------------

def gpu_ids_by_serial(db: Database, serials: list[str]) -> dict[str, int]:
    """serial -> id for the serials that exist (exact match)."""
    serials = [s for s in dict.fromkeys(x.strip() for x in serials) if s]
    if not serials:
        return {}
    with db.engine.connect() as conn:
        return dict(conn.execute(select(GpuAsset.serial, GpuAsset.id).where(GpuAsset.serial.in_(serials))).all())


def gpu_serials(db: Database, ids) -> dict[int, str]:
    ids = list(ids)
    if not ids:
        return {}
    with db.engine.connect() as conn:
        return dict(conn.execute(select(GpuAsset.id, GpuAsset.serial).where(GpuAsset.id.in_(ids))).all())


def rack_site(db: Database, rack_id: int) -> tuple[str, str] | None:
    """(site code, rack name) of a rack."""
    with db.engine.connect() as conn:
        row = conn.execute(select(Site.code, Rack.name).join(Room, Room.site_id == Site.id)
                           .join(Rack, Rack.room_id == Room.id).where(Rack.id == rack_id)).first()
        return (row[0], row[1]) if row else None


def audit_actors_and_actions(db: Database) -> tuple[list[str], list[str]]:
    """The logins and actions that occur in the audit trail, for filter choosers."""
    with db.engine.connect() as conn:
        actors = list(conn.execute(select(AuditEvent.actor_login).distinct().order_by(AuditEvent.actor_login)).scalars())
        actions = list(conn.execute(select(AuditEvent.action).distinct().order_by(AuditEvent.action)).scalars())
    return actors, actions
