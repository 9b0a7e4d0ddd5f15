"""Read side of the console: single records and the small reads of its forms and panels
(contacts, GPU history and slots, stock, combo-box options, the dashboard's counts).

The lists (specs, paging, filter, counts) live in app.read.lists and the global search in
app.read.search; their public names are re-exported below, so the console's table models and
pages (ui/kit, ui/shell) keep reading them as `queries.X`.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    func,
    literal,
    select,
)

from app.domain.rating import local_today
from app.store.db import Database, reading
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
from models.choices import (
    LIVE_CONTRACT,
    ContractStatus,
    GpuState,
    RackStatus,
)

from app.read.lists.paging import (  # noqa: F401  (re-exported for the console's callers)
    COUNTS,
    PROBE_ROWS,
    ListRead,
    audit_head,
    count,
    count_key,
    fetch_all,
    fetch_order,
    fetch_page,
    fetch_rows,
    filter_clause,
    pages_by_keyset,
    read_list,
    total,
)
from app.read.lists.specs import (  # noqa: F401  (re-exported for the console's callers)
    ASCII_ONLY,
    BACKGROUND_ROWS,
    PAGE_SIZE,
    SPECS,
    Column,
    Cursor,
    ListSpec,
    Page,
)
from app.read.search import SearchHit, search  # noqa: F401  (re-exported for the console's callers)

# --- single records and small lists ------------------------------------------------

MODELS = {"site": Site, "rack": Rack, "device": Device, "gpu": GpuAsset, "customer": Customer,
          "contract": Contract, "statement": Statement, "user": User, "room": Room}


def record(db: Database, kind: str, id_: int) -> dict[str, Any] | None:
    """Column values of one row as plain values (with `version`), for a detail dialog."""
    model = MODELS[kind]
    with db.read_session() as s:
        obj = s.get(model, id_)
        if obj is None:
            return None
        return {c.key: getattr(obj, c.key) for c in model.__mapper__.column_attrs}


def customer_contacts(db: Database, customer_id: int) -> list[dict[str, Any]]:
    """The customer's contacts in their order: name, role, phone, email."""
    with db.read_connection() as conn:
        return [dict(name=r[0], role=r[1], phone=r[2], email=r[3]) for r in conn.execute(
            select(Contact.name, Contact.role, Contact.phone, Contact.email)
            .where(Contact.customer_id == customer_id).order_by(Contact.id))]


def gpu_history(db: Database, gpu_id: int) -> list[tuple]:
    """(at, from_state, to_state, actor_login, reason), newest first."""
    with db.read_connection() as conn:
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
    with db.read_connection() as conn:
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
    with db.read_connection() as conn:
        return [DeviceTypeSize(r[0], Decimal(str(r[1])), bool(r[2])) for r in conn.execute(
            select(DeviceType.id, DeviceType.u_height, DeviceType.is_full_depth).limit(5000))]


def stock_gpus(db: Database, device_id: int, limit: int = 500) -> list[tuple[int, str, str, str, int]]:
    """(id, serial, model, state, version) of GPUs on the shelf that fit this server."""
    with db.read_connection() as conn:
        want = conn.execute(select(DeviceType.gpu_model_id).join(Device, Device.device_type_id == DeviceType.id)
                            .where(Device.id == device_id)).scalar()
        q = (select(GpuAsset.id, GpuAsset.serial, GpuModel.name, GpuAsset.state, GpuAsset.version)
             .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
             .where(GpuAsset.device_id.is_(None), GpuAsset.state.in_(STOCK_STATES)))
        if want:
            q = q.where(GpuAsset.gpu_model_id == want)
        return [tuple(r) for r in conn.execute(q.order_by(GpuAsset.serial).limit(limit))]


def gpu_states(db: Database, ids: list[int]) -> dict[int, str]:
    with db.read_connection() as conn:
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
    with db.read_connection() as conn:
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


def summary(db: Database, today: dt.date | None = None, *, count_gpus: bool = True) -> Summary:
    """The estate's counts in one statement of scalar subqueries and the GPUs by state in another (issue 26:
    ten statements one after the other were ten round trips of the main window's start). Without
    `count_gpus` the GPUs are left at 0 for a caller that counts them anyway (the dashboard's fleet chart
    groups every GPU by model and state: app/read/viewdata/dashboard.counted_by_fleet)."""
    today = today or local_today()

    def n(q):
        return q.scalar_subquery()

    def ending(days: int):
        return n(select(func.count()).select_from(Contract).where(
            Contract.status.in_(LIVE_CONTRACT),
            Contract.end_date >= today, Contract.end_date <= today + dt.timedelta(days=days)))
    with reading(), db.session() as s:
        by_state = dict(s.execute(select(GpuAsset.state, func.count()).group_by(GpuAsset.state)).all()) \
            if count_gpus else {}
        row = s.execute(select(
            ending(30), ending(60), ending(90),
            n(select(func.count()).select_from(Site)),
            n(select(func.count()).select_from(Rack)),
            n(select(func.count()).select_from(Rack).where(Rack.status == RackStatus.LEASED)),
            n(select(func.count()).select_from(Device)),
            n(select(func.count()).select_from(Customer)),
            n(select(func.count()).select_from(Contract).where(Contract.status == ContractStatus.ACTIVE)))).one()
    return Summary(sites=row[3], racks=row[4], racks_leased=row[5], devices=row[6], gpus=sum(by_state.values()),
                   gpus_by_state=by_state, customers=row[7], contracts_active=row[8],
                   contracts_ending={30: row[0], 60: row[1], 90: row[2]})


# --- small reads for the console's contract, billing, audit and rack forms ----------------

def gpu_ids_by_serial(db: Database, serials: list[str]) -> dict[str, int]:
    """serial -> id for the serials that exist (exact match)."""
    serials = [s for s in dict.fromkeys(x.strip() for x in serials) if s]
    if not serials:
        return {}
    with db.read_connection() as conn:
        return dict(conn.execute(select(GpuAsset.serial, GpuAsset.id).where(GpuAsset.serial.in_(serials))).all())


def gpu_serials(db: Database, ids) -> dict[int, str]:
    ids = list(ids)
    if not ids:
        return {}
    with db.read_connection() as conn:
        return dict(conn.execute(select(GpuAsset.id, GpuAsset.serial).where(GpuAsset.id.in_(ids))).all())


def rack_site(db: Database, rack_id: int) -> tuple[str, str] | None:
    """(site code, rack name) of a rack."""
    with db.read_connection() as conn:
        row = conn.execute(select(Site.code, Rack.name).join(Room, Room.site_id == Site.id)
                           .join(Rack, Rack.room_id == Room.id).where(Rack.id == rack_id)).first()
        return (row[0], row[1]) if row else None


def audit_actors_and_actions(db: Database) -> tuple[list[str], list[str]]:
    """The logins and actions that occur in the audit trail, for filter choosers."""
    with db.read_connection() as conn:
        actors = list(conn.execute(select(AuditEvent.actor_login).distinct().order_by(AuditEvent.actor_login)).scalars())
        actions = list(conn.execute(select(AuditEvent.action).distinct().order_by(AuditEvent.action)).scalars())
    return actors, actions
