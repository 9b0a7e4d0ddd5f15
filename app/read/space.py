"""What the elevation, the room view and the capacity report show of space: the leases on a day and
each rack's units (leased, reserved, used, free). Read only; the rules that write leases are
app.services.space's."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import or_, select

from app.domain.clock import local_today
from models import Cage, Customer, Device, DeviceType, Rack, RackReservation, SpaceLease
from models.choices import RackStatus, ReservationStatus


@dataclass(frozen=True)
class LeaseRow:
    id: int
    rack_id: int
    customer_id: int
    customer: str
    face: str | None
    u_from: int
    u_to: int
    start_date: dt.date
    end_date: dt.date | None
    cage: str | None
    contract_item_id: int | None


@dataclass(frozen=True)
class RackSpace:
    """Units of one rack on a day: leased, reserved (not leased), used by devices, free."""
    rack_id: int
    u_height: int
    leased_u: int
    reserved_u: int
    used_u: int
    free_u: int


def leases_on(s, day: dt.date, rack_ids: list[int] | None = None) -> list[LeaseRow]:
    q = (select(SpaceLease, Customer.name, Cage.name).join(Customer, Customer.id == SpaceLease.customer_id)
         .outerjoin(Cage, Cage.id == SpaceLease.cage_id)
         .where(SpaceLease.start_date <= day, or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= day)))
    if rack_ids is not None:
        q = q.where(SpaceLease.rack_id.in_(rack_ids))
    return [LeaseRow(l.id, l.rack_id, l.customer_id, cname, l.face, l.u_from, l.u_to, l.start_date, l.end_date,
                     cage, l.contract_item_id)
            for l, cname, cage in s.execute(q.order_by(SpaceLease.rack_id, SpaceLease.u_from, SpaceLease.id)).all()]


def rack_space(s, rack_ids: list[int], day: dt.date | None = None, *, heights: dict[int, int] | None = None,
               leases: list[LeaseRow] | None = None) -> dict[int, RackSpace]:
    """Count each rack's units on `day`: a unit is leased when any lease covers it on a face,
    reserved when only an active reservation does, used when a device occupies it on a face;
    free when none of these. Leased and reserved units may also be used. A caller that has already
    read the racks' heights or their leases on `day` (`leases_on`) passes them: not read again."""
    day = day or local_today()
    if not rack_ids:
        return {}
    if heights is None:
        heights = dict(s.execute(select(Rack.id, Rack.u_height).where(Rack.id.in_(rack_ids))).all())
    leased: dict[int, set[int]] = {r: set() for r in heights}
    reserved: dict[int, set[int]] = {r: set() for r in heights}
    used: dict[int, set[int]] = {r: set() for r in heights}
    for l in (leases if leases is not None else leases_on(s, day, list(heights))):
        leased[l.rack_id].update(range(l.u_from, l.u_to + 1))
    for rid, a, b in s.execute(select(RackReservation.rack_id, RackReservation.u_from, RackReservation.u_to).where(
            RackReservation.rack_id.in_(list(heights)), RackReservation.status == ReservationStatus.ACTIVE,
            RackReservation.start_date <= day,
            or_(RackReservation.end_date.is_(None), RackReservation.end_date >= day))).all():
        reserved[rid].update(range(a, b + 1))
    for rid, pos, h in s.execute(select(Device.rack_id, Device.position, DeviceType.u_height)
                                 .join(DeviceType, DeviceType.id == Device.device_type_id)
                                 .where(Device.rack_id.in_(list(heights)), Device.position.is_not(None))).all():
        lo = Decimal(pos)
        hi = lo + Decimal(h)
        u = int(lo)
        while u < hi:
            used[rid].add(u)
            u += 1
    # racks leased whole before lease rows existed
    for rid, in s.execute(select(Rack.id).where(Rack.id.in_(list(heights)), Rack.status == RackStatus.LEASED,
                                                 ~Rack.id.in_(select(SpaceLease.rack_id)))).all():
        leased[rid].update(range(1, heights[rid] + 1))
    out = {}
    for rid, h in heights.items():
        units = set(range(1, h + 1))
        le = leased[rid] & units
        re = (reserved[rid] & units) - le
        us = used[rid] & units
        out[rid] = RackSpace(rid, h, len(le), len(re), len(us), len(units - le - re - us))
    return out
