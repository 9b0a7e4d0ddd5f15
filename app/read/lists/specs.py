"""The console's lists declared as data: each entity's `ListSpec` (columns with key, label,
alignment, sortability, default visibility) over one SQL select, and what the filter needs to
know of its columns (ASCII-only columns, the join path to each joined filter column).

No Qt here. Labels are marked with `_` (a no-op); the console translates them in the context
"columns". Paging, filtering and counting over these specs: app.read.lists.paging.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import (
    Numeric,
    Select,
    case,
    cast,
    func,
    literal,
    null,
    select,
    type_coerce,
)
from sqlalchemy.orm import aliased

from app.domain.money import PERCENT_PLACES
from models import (
    AuditEvent,
    Contract,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
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


# --- what the filter knows of the columns -------------------------------------------

# codes): a term with a non-ASCII character cannot occur in them, so their scan is skipped.
ASCII_ONLY = (GpuAsset.serial, Device.serial, Device.asset_tag, Rack.asset_tag, Customer.credit_code)

# For a filter column on a joined table: the inner joins from the list's base table to it (all
# to-one, by primary key), so its branch of the filter starts from that table's own index.
FILTER_PATHS: dict[str, tuple[tuple[Any, tuple[tuple[Any, Any], ...]], ...]] = {
    "rack": ((Site.code, ((Room, Room.id == Rack.room_id), (Site, Site.id == Room.site_id))),
             (_cust.name, ((_cust, _cust.id == Rack.customer_id),))),
    "device": ((_owner.name, ((_owner, _owner.id == Device.owner_customer_id),)),),
    "gpu": ((_host.name, ((_host, _host.id == GpuAsset.device_id),)),
            (_cust.name, ((_cust, _cust.id == GpuAsset.customer_id),))),
    "contract": ((_cust.name, ((_cust, _cust.id == Contract.customer_id),)),),
    "statement": ((_cust.name, ((_cust, _cust.id == Statement.customer_id),)),),
}


def skips_ascii(text: str, expr) -> bool:
    return not text.isascii() and any(expr is c for c in ASCII_ONLY)

