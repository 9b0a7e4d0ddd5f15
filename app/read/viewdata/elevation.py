"""The rack elevation's read model: a rack's devices, reservations and leases by unit and face, with its space and power."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import or_, select
from sqlalchemy.orm import aliased

from app.domain.rating import local_today
from app.read.power import RackPower, rack_power
from app.read.space import RackSpace, leases_on, rack_space
from app.store.db import Database
from app.domain.errors import NotFound
from models import (
    Customer,
    Device,
    DeviceType,
    Rack,
    RackReservation,
    Room,
    Site,
)
from models.choices import (
    DeviceStatus,
    ReservationStatus,
)
from app.read.viewdata.common import DEVICE_WATTS, KW, ZERO, dec, owner_colour, pct

# --------------------------------------------------------------------------- rack elevation
@dataclass(frozen=True)
class ElevationDevice:
    id: int
    name: str
    model: str
    role: str
    owner_id: int | None
    owner_name: str | None          # None: the company's own fleet
    position: Decimal | None        # lowest U occupied; None when in the rack but not mounted
    height: Decimal                 # in U, 0.5 steps; 0 for zero-U (PDUs, cable managers)
    face: str | None
    full_depth: bool
    status: str
    colour: str
    typical_power_w: int
    version: int | None = None      # the record's version as drawn (a stale drag is refused)

    @property
    def top(self) -> Decimal:
        return (self.position or ZERO) + self.height

    def occupies(self, face: str) -> bool:
        """Does the block take space on `face`? Full-depth devices take both faces; status does not matter."""
        return self.position is not None and self.height > 0 and (self.face == face or self.full_depth)


@dataclass(frozen=True)
class ElevationReservation:
    id: int
    customer_id: int
    customer_name: str
    face: str
    u_from: int
    u_to: int
    start_date: dt.date
    end_date: dt.date | None
    colour: str


@dataclass(frozen=True)
class ElevationLease:
    """Units leased to one customer on the day shown (face None: both faces)."""
    id: int
    customer_id: int
    customer_name: str
    face: str | None
    u_from: int
    u_to: int
    start_date: dt.date
    end_date: dt.date | None
    cage: str | None
    colour: str


@dataclass(frozen=True)
class RackElevationData:
    rack_id: int
    name: str
    status: str
    site_code: str
    site_name: str
    room_id: int
    room_name: str
    u_height: int
    power_capacity_kw: Decimal
    typical_draw_kw: Decimal
    lessee_name: str | None
    devices: tuple[ElevationDevice, ...]
    reservations: tuple[ElevationReservation, ...]
    free_front: tuple[int, ...]
    free_rear: tuple[int, ...]
    leases: tuple[ElevationLease, ...] = ()
    space: RackSpace | None = None  # leased, reserved, used and free U (app/read/space.py)
    power: RackPower | None = None  # feeds, A/B loads, the 80 % rule and N redundancy (app/services/power.py)

    def free_units(self, face: str) -> tuple[int, ...]:
        return self.free_front if face == "front" else self.free_rear

    @property
    def mounted(self) -> tuple[ElevationDevice, ...]:
        return tuple(d for d in self.devices if d.position is not None and d.height > 0)

    @property
    def unmounted(self) -> tuple[ElevationDevice, ...]:
        return tuple(d for d in self.devices if d.position is None or d.height == 0)

    @property
    def power_pct(self) -> Decimal:
        return pct(self.typical_draw_kw, self.power_capacity_kw)

    def device(self, device_id: int) -> ElevationDevice | None:
        return next((d for d in self.devices if d.id == device_id), None)


def free_units(u_height: int, devices, face: str, ignore_id: int | None = None) -> tuple[int, ...]:
    """Whole units on `face` that no mounted device touches (half-U devices block their unit)."""
    taken: set[int] = set()
    for d in devices:
        if d.id == ignore_id or not d.occupies(face):
            continue
        u = int(d.position)  # floor: a device at 3.5 touches unit 3
        while u < d.top:
            taken.add(u)
            u += 1
    return tuple(u for u in range(1, u_height + 1) if u not in taken)


def rack_elevation(db: Database, rack_id: int, today: dt.date | None = None,
                   read_power: bool = True) -> RackElevationData:
    """The rack's elevation; without `read_power` its power is None, for a caller that checks the power
    chain beside it (app/read/viewdata/rackside.py reads it once for the rack's whole room)."""
    today = today or local_today()
    with db.read_session() as s:
        parts = elevation_reads(s, rack_id, today)
        lease_rows = leases_on(s, today, [rack_id])
        space = rack_space(s, [rack_id], today, heights={rack_id: int(parts[0][3])}, leases=lease_rows)[rack_id]
        power = rack_power(s, [rack_id])[rack_id] if read_power else None
    return elevation_from(parts, lease_rows, space, power)


def elevation_reads(s, rack_id: int, today: dt.date) -> tuple:
    """The elevation's own rows (the rack, its devices, its reservations): what elevation_from takes beside
    the rack's leases and space, which a caller may read with other racks' (the room's). NotFound when gone."""
    lessee = aliased(Customer)
    head = s.execute(
        select(Rack.id, Rack.name, Rack.status, Rack.u_height, Rack.power_capacity_kw,
               Room.id, Room.name, Site.code, Site.name, lessee.name)
        .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
        .outerjoin(lessee, lessee.id == Rack.customer_id)
        .where(Rack.id == rack_id)).first()
    if head is None:
        raise NotFound(f"rack {rack_id} does not exist (it may have been deleted by someone else)")
    rows = s.execute(
        select(Device.id, Device.name, DeviceType.manufacturer, DeviceType.model, DeviceType.role,
               Device.owner_customer_id, Customer.name, Device.position, DeviceType.u_height,
               Device.face, DeviceType.is_full_depth, Device.status, DEVICE_WATTS, Device.version)
        .join(DeviceType, DeviceType.id == Device.device_type_id)
        .outerjoin(Customer, Customer.id == Device.owner_customer_id)
        .where(Device.rack_id == rack_id)
        .order_by(Device.position.desc(), Device.id)).all()
    res_rows = s.execute(
        select(RackReservation.id, RackReservation.customer_id, Customer.name, RackReservation.face,
               RackReservation.u_from, RackReservation.u_to, RackReservation.start_date,
               RackReservation.end_date)
        .join(Customer, Customer.id == RackReservation.customer_id)
        .where(RackReservation.rack_id == rack_id,
               RackReservation.status == ReservationStatus.ACTIVE,
               or_(RackReservation.end_date.is_(None), RackReservation.end_date >= today))
        .order_by(RackReservation.u_from)).all()
    return head, rows, res_rows


def elevation_from(parts: tuple, lease_rows, space: RackSpace, power: RackPower | None) -> RackElevationData:
    """The elevation from elevation_reads' rows, the rack's leases (leases_on) and space (rack_space)."""
    head, rows, res_rows = parts
    leases = tuple(ElevationLease(l.id, l.customer_id, l.customer, l.face, l.u_from, l.u_to, l.start_date,
                                  l.end_date, l.cage, owner_colour(l.customer_id))
                   for l in lease_rows)
    devices = tuple(
        ElevationDevice(
            id=r[0], name=r[1], model=f"{r[2]} {r[3]}".strip(), role=r[4], owner_id=r[5], owner_name=r[6],
            position=dec(r[7], "0.1") if r[7] is not None else None, height=dec(r[8], "0.1"),
            face=r[9], full_depth=bool(r[10]), status=r[11], colour=owner_colour(r[5]),
            typical_power_w=int(r[12] or 0), version=r[13])
        for r in rows)
    reservations = tuple(
        ElevationReservation(id=r[0], customer_id=r[1], customer_name=r[2], face=r[3], u_from=r[4],
                             u_to=r[5], start_date=r[6], end_date=r[7], colour=owner_colour(r[1]))
        for r in res_rows)
    draw_w = sum(d.typical_power_w for d in devices if d.status != DeviceStatus.DECOMMISSIONING)
    u_height = int(head[3])
    return RackElevationData(
        rack_id=head[0], name=head[1], status=head[2], site_code=head[7], site_name=head[8],
        room_id=head[5], room_name=head[6], u_height=u_height, power_capacity_kw=dec(head[4]),
        typical_draw_kw=dec(Decimal(draw_w) / KW), lessee_name=head[9], devices=devices,
        reservations=reservations, free_front=free_units(u_height, devices, "front"),
        free_rear=free_units(u_height, devices, "rear"), leases=leases, space=space, power=power)
