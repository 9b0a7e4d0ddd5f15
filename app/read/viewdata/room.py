"""The room floor's read model: a room's racks and cages with their use."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import case, func, select

from app.domain.rating import local_today
from app.read.space import leases_on, rack_space
from app.store.db import Database
from app.domain.errors import NotFound
from models import (
    Cage,
    Customer,
    Device,
    DeviceType,
    Rack,
    Room,
    Site,
)
from models.choices import (
    DeviceStatus,
    RackStatus,
)
from app.read.viewdata.common import DEVICE_WATTS, KW, dec, pct

# --------------------------------------------------------------------------- room floor
@dataclass(frozen=True)
class RoomRack:
    id: int
    name: str
    grid_row: int | None
    grid_col: int | None
    u_height: int
    used_units: Decimal
    utilisation_pct: Decimal
    power_capacity_kw: Decimal
    typical_draw_kw: Decimal
    power_pct: Decimal
    status: str
    status_colour: str
    lessee_name: str | None
    device_count: int
    cage_id: int | None = None
    leased_u: int = 0     # on the day shown, by any customer (app/read/space.py)
    reserved_u: int = 0   # held by an active reservation and not leased
    free_u: int = 0       # neither leased, reserved nor used by a device
    lessees: tuple[str, ...] = ()  # customers holding U ranges today


@dataclass(frozen=True)
class RoomCage:
    id: int
    name: str
    lessee_name: str | None
    rack_ids: tuple[int, ...]


@dataclass(frozen=True)
class RoomLayoutData:
    room_id: int
    name: str
    site_code: str
    site_name: str
    cooling: str
    grid_rows: int
    grid_cols: int
    racks: tuple[RoomRack, ...]
    cages: tuple[RoomCage, ...] = ()

    @property
    def placed(self) -> tuple[RoomRack, ...]:
        return tuple(r for r in self.racks if r.grid_row is not None and r.grid_col is not None)

    @property
    def unplaced(self) -> tuple[RoomRack, ...]:
        return tuple(r for r in self.racks if r.grid_row is None or r.grid_col is None)


def room_layout(db: Database, room_id: int) -> RoomLayoutData:
    with db.read_session() as s:
        parts = room_reads(s, room_id)
        rows, today = parts[1], local_today()
        ids = [r[0] for r in rows]
        # the heights and the leases read once, for the space counts and the holders (issue 26)
        lease_rows = leases_on(s, today, ids) if ids else []
        space = rack_space(s, ids, today, heights={r[0]: int(r[4]) for r in rows}, leases=lease_rows)
    return room_from(parts, lease_rows, space)


def room_reads(s, room_id: int) -> tuple:
    """The floor's own rows (the room, its racks with their use, its cages): what room_from takes beside the
    racks' leases and space, which a caller may read at the same time. NotFound when the room is gone."""
    head = s.execute(select(Room.id, Room.name, Site.code, Site.name, Room.cooling, Room.grid_rows,
                            Room.grid_cols).join(Site, Site.id == Room.site_id)
                     .where(Room.id == room_id)).first()
    if head is None:
        raise NotFound(f"room {room_id} does not exist (it may have been deleted by someone else)")
    usage_r = (select(Device.rack_id.label("rack_id"),
                      func.sum(case((Device.position.is_not(None), DeviceType.u_height),
                                    else_=0)).label("used_u"),
                      func.sum(case((Device.status != DeviceStatus.DECOMMISSIONING,
                                     DEVICE_WATTS), else_=0)).label("watts"),
                      func.count(Device.id).label("n"))
               .join(DeviceType, DeviceType.id == Device.device_type_id)
               .join(Rack, Rack.id == Device.rack_id)
               .where(Rack.room_id == room_id)
               .group_by(Device.rack_id).subquery())
    rows = s.execute(
        select(Rack.id, Rack.name, Rack.grid_row, Rack.grid_col, Rack.u_height, Rack.power_capacity_kw,
               Rack.status, Customer.name, usage_r.c.used_u, usage_r.c.watts, usage_r.c.n, Rack.cage_id)
        .outerjoin(Customer, Customer.id == Rack.customer_id)
        .outerjoin(usage_r, usage_r.c.rack_id == Rack.id)
        .where(Rack.room_id == room_id)
        .order_by(Rack.grid_row, Rack.grid_col, Rack.name)).all()
    cage_rows = s.execute(select(Cage.id, Cage.name).where(Cage.room_id == room_id).order_by(Cage.name)).all()
    return head, rows, cage_rows


def room_from(parts: tuple, lease_rows, space) -> RoomLayoutData:
    """The floor from room_reads' rows, its racks' leases (leases_on) and space (rack_space, by rack id)."""
    head, rows, cage_rows = parts
    holders: dict[int, list[str]] = {}
    cage_holder: dict[str, str] = {}
    for l in lease_rows:
        if l.customer not in holders.setdefault(l.rack_id, []):
            holders[l.rack_id].append(l.customer)
        if l.cage:
            cage_holder[l.cage] = l.customer
    cages = tuple(RoomCage(cid, cname, cage_holder.get(cname), tuple(r[0] for r in rows if r[11] == cid))
                  for cid, cname in cage_rows)
    racks = []
    for r in rows:
        used = min(dec(r[8], "0.1"), Decimal(r[4]))
        draw = dec(Decimal(r[9] or 0) / KW)
        cap = dec(r[5])
        racks.append(RoomRack(
            id=r[0], name=r[1], grid_row=r[2], grid_col=r[3], u_height=int(r[4]), used_units=used,
            utilisation_pct=pct(used, Decimal(r[4])), power_capacity_kw=cap, typical_draw_kw=draw,
            power_pct=pct(draw, cap), status=r[6], status_colour=RackStatus.colour(r[6]),
            lessee_name=r[7], device_count=int(r[10] or 0), cage_id=r[11],
            leased_u=space[r[0]].leased_u, reserved_u=space[r[0]].reserved_u, free_u=space[r[0]].free_u,
            lessees=tuple(holders.get(r[0], ()))))
    return RoomLayoutData(room_id=head[0], name=head[1], site_code=head[2], site_name=head[3], cooling=head[4],
                          grid_rows=int(head[5]), grid_cols=int(head[6]), racks=tuple(racks), cages=cages)


def utilisation_colour(pct: Decimal | float) -> str:
    """Green when there is room, amber when filling, red when (nearly) full; grey when empty."""
    p = float(pct)
    if p <= 0:
        return "#e0e0e0"
    if p < 50:
        return "#81c784"
    if p < 80:
        return "#ffd54f"
    if p < 95:
        return "#ffb74d"
    return "#e57373"
