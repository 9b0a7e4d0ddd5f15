"""Find N contiguous free U: which racks of a site, a room or the whole fleet can take a device.

A unit is free on a face when no mounted device touches it there (full-depth devices take both
faces) and no active reservation of another customer (now or later) covers it there. A full-depth device needs
the units free on both faces. A rack leased to a customer takes only that customer's devices;
the company's own equipment (customer None) goes into unleased racks only. Racks that are
planned, in maintenance or decommissioned are not offered. Given the device type, a rack is
offered only if its typical draw with the device stays within its power capacity (the placement
rule of app.services.dcim, which refuses anything more without an override).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import or_, select

from app.domain.errors import ValidationError
from app.domain.power import power_draw_w  # the placement rule's own measure of a device's draw
from app.domain.rating import local_today
from app.store.db import Database
from models import Customer, Device, DeviceType, Rack, RackReservation, Room, Site
from models.choices import DeviceStatus, Face, RackStatus, ReservationStatus

# Racks that can take a device today.
OPEN_RACK_STATES = (RackStatus.AVAILABLE, RackStatus.RESERVED, RackStatus.LEASED)


@dataclass(frozen=True)
class FreeRange:
    rack_id: int
    rack_name: str
    site_code: str
    room_id: int
    room_name: str
    lessee_name: str | None
    face: str               # the face searched ("front" or "rear"; both are free for full depth)
    u_from: int             # lowest unit of the first fitting range
    u_to: int               # top unit of that range (u_from + units - 1)
    run_length: int         # length of the free run the range sits in (best fit: the shortest that fits)
    free_units: int         # all free units on that face

    @property
    def label(self) -> str:
        return f"{self.site_code} / {self.room_name} / {self.rack_name}  U{self.u_from}–U{self.u_to}"


def _runs(free: list[int]) -> list[tuple[int, int]]:
    """Contiguous runs (start, length) of sorted unit numbers."""
    out: list[tuple[int, int]] = []
    for u in free:
        if out and out[-1][0] + out[-1][1] == u:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((u, 1))
    return out


def find_free_units(db: Database, units: int, *, site_id: int | None = None, room_id: int | None = None,
                    customer_id: int | None = None, full_depth: bool = False, face: str = Face.FRONT,
                    device_type_id: int | None = None, today: dt.date | None = None,
                    limit: int = 200) -> list[FreeRange]:
    """Racks in scope with `units` contiguous free U for `customer_id`'s device (None: our own),
    best fit first (the smallest free run that fits, then site, room, rack). With a device type,
    only racks whose power capacity takes its typical draw too."""
    if not isinstance(units, int) or units < 1:
        raise ValidationError({"units": "give a whole number of U, at least 1"})
    if face not in Face.values():
        raise ValidationError({"face": f"face is {' or '.join(Face.values())}"})
    today = today or local_today()
    own_w = None
    if device_type_id is not None:
        with db.read_session() as s:
            dtype = s.get(DeviceType, device_type_id)
            if dtype is None:
                raise ValidationError({"device_type_id": "unknown device type"})
            draw = power_draw_w(dtype)
            own_w = draw[0] if draw else None
    q = (select(Rack.id, Rack.name, Rack.u_height, Site.code, Room.id, Room.name, Customer.name,
                Rack.power_capacity_kw)
         .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
         .outerjoin(Customer, Customer.id == Rack.customer_id)
         .where(Rack.status.in_(OPEN_RACK_STATES), Rack.u_height >= units))
    if customer_id is None:
        q = q.where(Rack.customer_id.is_(None))
    else:
        q = q.where(or_(Rack.customer_id.is_(None), Rack.customer_id == customer_id))
    if room_id is not None:
        q = q.where(Rack.room_id == room_id)
    if site_id is not None:
        q = q.where(Room.site_id == site_id)
    with db.read_connection() as conn:
        racks = conn.execute(q.order_by(Site.code, Room.name, Rack.name)).all()
        ids = [r[0] for r in racks]
        taken: dict[tuple[int, str], set[int]] = defaultdict(set)
        drawn_w: dict[int, int] = defaultdict(int)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            for rack_id, pos, height, dface, deep in conn.execute(
                    select(Device.rack_id, Device.position, DeviceType.u_height, Device.face, DeviceType.is_full_depth)
                    .join(DeviceType, DeviceType.id == Device.device_type_id)
                    .where(Device.rack_id.in_(chunk), Device.position.is_not(None), DeviceType.u_height > 0)):
                pos, top = Decimal(str(pos)), Decimal(str(pos)) + Decimal(str(height))
                faces = Face.values() if deep else [dface or Face.FRONT]
                u = int(pos)           # a device at 3.5 touches unit 3
                while u < top:
                    for f in faces:
                        taken[(rack_id, f)].add(u)
                    u += 1
            if own_w is not None:
                for rack_id, role, typical, maximum in conn.execute(
                        select(Device.rack_id, DeviceType.role, DeviceType.typical_power_w, DeviceType.max_power_w)
                        .join(DeviceType, DeviceType.id == Device.device_type_id)
                        .where(Device.rack_id.in_(chunk), Device.status != DeviceStatus.DECOMMISSIONING)):
                    draw = power_draw_w(DeviceType(role=role, typical_power_w=typical, max_power_w=maximum))
                    drawn_w[rack_id] += draw[0] if draw else 0
            res = (select(RackReservation.rack_id, RackReservation.face, RackReservation.u_from, RackReservation.u_to)
                   .where(RackReservation.rack_id.in_(chunk), RackReservation.status == ReservationStatus.ACTIVE,
                          or_(RackReservation.end_date.is_(None), RackReservation.end_date >= today)))
            if customer_id is not None:
                res = res.where(RackReservation.customer_id != customer_id)
            for rack_id, rface, u_from, u_to in conn.execute(res):
                for u in range(u_from, u_to + 1):
                    taken[(rack_id, rface or Face.FRONT)].add(u)
    out = []
    for rack_id, name, height, site_code, rid, rname, lessee, capacity_kw in racks:
        if own_w is not None and Decimal(drawn_w[rack_id] + own_w) / 1000 > Decimal(str(capacity_kw or 0)):
            continue
        need = Face.values() if full_depth else [face]
        free = [u for u in range(1, height + 1) if not any(u in taken[(rack_id, f)] for f in need)]
        fits = [(start, n) for start, n in _runs(free) if n >= units]
        if not fits:
            continue
        start, n = min(fits, key=lambda r: (r[1], r[0]))   # tightest run, lowest first
        out.append(FreeRange(rack_id, name, site_code, rid, rname, lessee, face, start, start + units - 1,
                             n, len(free)))
    out.sort(key=lambda r: (r.run_length, r.site_code, r.room_name, r.rack_name))
    return out[:limit]
