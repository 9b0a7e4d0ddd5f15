"""Leasable space: U-range leases of racks, cages, and who may put equipment where.

Rules (one home, asked by contracts, placement, imports, the console and the reports):
- a lease is one customer's units of one rack (face NULL = both faces) for a period, end
  inclusive; a cage lease is a whole-rack lease of every rack of the cage;
- space leased to, or reserved for, one customer is never leased to another for any
  overlapping day;
- a device goes only into its owner's leased space, or into space nobody leases or reserves
  (the provider's own equipment, owner NULL, into unleased space only).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, or_, select, true

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_today, parse_date
from app.domain.errors import RuleViolation, ValidationError
from app.domain.messages import message_of
from app.read.space import leases_on
from app.services.entities import flush_or_refuse, get_or_404, snapshot
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Cage, Customer, Rack, RackReservation, Room, SpaceLease
from models.choices import Face, ItemKind, RackStatus, ReservationStatus

FAR_FUTURE = dt.date(9999, 12, 31)


@dataclass(frozen=True)
class Space:
    """A piece of space a contract item names: units of a rack, on a face or both."""
    rack_id: int
    u_from: int
    u_to: int
    face: str | None = None
    cage_id: int | None = None


def _faces_meet(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


def _span(u_from: int, u_to: int) -> str:
    return f"U{u_from}–U{u_to}"


def rack_name(rack: Rack) -> str:
    return f"{rack.room.name}/{rack.name}" if rack.room is not None else rack.name


def cage_racks(s, cage_id: int) -> list[Rack]:
    return list(s.execute(select(Rack).where(Rack.cage_id == cage_id).order_by(Rack.name)).scalars())


def item_space(s, kind: str, rack_id: int | None, u_from: int | None, u_to: int | None,
               face: str | None, cage_id: int | None) -> list[Space]:
    """The space a contract item leases: a cage's racks whole, a rack whole, or a U range."""
    if kind not in (ItemKind.RACK, ItemKind.HOSTING):
        return []
    if cage_id is not None:
        return [Space(r.id, 1, r.u_height, None, cage_id) for r in cage_racks(s, cage_id)]
    if rack_id is None:
        return []
    if u_from is not None:
        return [Space(rack_id, u_from, u_to if u_to is not None else u_from, face or None)]
    if kind == ItemKind.RACK:
        rack = s.get(Rack, rack_id)
        return [Space(rack_id, 1, rack.u_height, None)] if rack is not None else []
    return []  # hosting by device: the device's own place


def space_problems(s, customer_id: int, space: Space, start: dt.date, end: dt.date | None) -> list[str]:
    """Why `space` cannot be leased to `customer_id` from `start` to `end` (inclusive): other
    customers' leases and active reservations on an overlapping day, unit and face."""
    rack = s.get(Rack, space.rack_id)
    if rack is None:
        return [f"rack {space.rack_id} does not exist"]
    label = rack_name(rack)
    problems = []
    if space.u_to > rack.u_height:
        problems.append(f"rack {label} has {rack.u_height}U; {_span(space.u_from, space.u_to)} does not fit")
    if rack.status in (RackStatus.DECOMMISSIONED, RackStatus.PLANNED, RackStatus.MAINTENANCE):
        problems.append(f"rack {label} is {RackStatus.label(rack.status).lower()}, not available")
    last = end or FAR_FUTURE
    face_cond = [] if space.face is None else [or_(SpaceLease.face.is_(None), SpaceLease.face == space.face)]
    leases = s.execute(
        select(SpaceLease, Customer.name).join(Customer, Customer.id == SpaceLease.customer_id)
        .where(SpaceLease.rack_id == rack.id, SpaceLease.customer_id != customer_id,
               SpaceLease.u_from <= space.u_to, SpaceLease.u_to >= space.u_from,
               SpaceLease.start_date <= last,
               or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= start), *face_cond)
        .order_by(SpaceLease.u_from)).all()
    for lease, cname in leases:
        problems.append(f"{_span(lease.u_from, lease.u_to)} of rack {label} are leased to {cname} "
                        f"from {lease.start_date} to {lease.end_date or 'open end'}")
    rface = [] if space.face is None else [RackReservation.face == space.face]
    reservations = s.execute(
        select(RackReservation, Customer.name).join(Customer, Customer.id == RackReservation.customer_id)
        .where(RackReservation.rack_id == rack.id, RackReservation.customer_id != customer_id,
               RackReservation.status == ReservationStatus.ACTIVE,
               RackReservation.u_from <= space.u_to, RackReservation.u_to >= space.u_from,
               RackReservation.start_date <= last,
               or_(RackReservation.end_date.is_(None), RackReservation.end_date >= start), *rface)
        .order_by(RackReservation.u_from)).all()
    for res, cname in reservations:
        problems.append(f"{_span(res.u_from, res.u_to)} ({Face.label(res.face).lower()}) of rack {label} are reserved "
                        f"for {cname} from {res.start_date} to {res.end_date or 'open end'}")
    return problems


def open_lease_in(uow: UnitOfWork, customer_id: int, space: Space, start: dt.date, end: dt.date | None, *,
                  contract_item_id: int | None = None, note: str | None = None, reason: str | None = None) -> SpaceLease:
    """Write one lease row and its audit event (the caller has checked `space_problems`)."""
    s = uow.session
    lease = SpaceLease(rack_id=space.rack_id, customer_id=customer_id, face=space.face, u_from=space.u_from,
                       u_to=space.u_to, start_date=start, end_date=end, cage_id=space.cage_id,
                       contract_item_id=contract_item_id, note=note, updated_by=uow.actor.login)
    s.add(lease)
    flush_or_refuse(s)
    rack = s.get(Rack, space.rack_id)
    uow.audit("space.lease", "space_lease", lease.id,
              f"{rack_name(rack)} {_span(space.u_from, space.u_to)}", after=snapshot(lease), reason=reason)
    return lease


def end_item_leases_in(uow: UnitOfWork, item_ids: list[int], last_day: dt.date, reason: str) -> list[str]:
    """End the leases of these contract items on `last_day` (inclusive); a lease that would end
    before it starts never began and is removed. Returns what was freed, for the audit."""
    s = uow.session
    if not item_ids:
        return []
    freed = []
    for lease in s.execute(select(SpaceLease).where(SpaceLease.contract_item_id.in_(item_ids))
                           .order_by(SpaceLease.id)).scalars().all():
        if lease.end_date is not None and lease.end_date <= last_day:
            continue
        rack = s.get(Rack, lease.rack_id)
        label = f"{rack_name(rack)} {_span(lease.u_from, lease.u_to)}"
        before = {"end_date": lease.end_date}
        if last_day < lease.start_date:
            uow.audit("space.release", "space_lease", lease.id, label, before=snapshot(lease),
                      after=None, reason=reason)
            s.delete(lease)
        else:
            lease.end_date = last_day
            uow.audit("space.release", "space_lease", lease.id, label, before=before,
                      after={"end_date": last_day}, reason=reason)
        freed.append(label)
    s.flush()
    return freed


# --- placement -----------------------------------------------------------------------------------

def placement_refusal(s, rack: Rack, bottom: Decimal, top: Decimal, face: str | None, full_depth: bool,
                      owner_customer_id: int | None, day: dt.date | None = None) -> str | None:
    """Why a device of `owner_customer_id` (None: the provider's own) may not take units
    [bottom, top) of `rack` on `face` today; None when it may."""
    day = day or local_today()
    u_lo, u_hi = int(bottom), int(-(-top // 1)) - 1  # the whole units it touches
    owner = s.get(Customer, owner_customer_id).name if owner_customer_id else None
    whose = f"{owner}'s device" if owner else "the provider's own equipment"
    lface = [] if full_depth or not face else [or_(SpaceLease.face.is_(None), SpaceLease.face == face)]
    lease = s.execute(
        select(SpaceLease, Customer.name).join(Customer, Customer.id == SpaceLease.customer_id)
        .where(SpaceLease.rack_id == rack.id, SpaceLease.u_from <= u_hi, SpaceLease.u_to >= u_lo,
               SpaceLease.start_date <= day, or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= day),
               SpaceLease.customer_id != owner_customer_id if owner_customer_id else true(), *lface)
        .order_by(SpaceLease.u_from)).first()
    label = rack_name(rack)
    if lease is not None:
        l, cname = lease
        return (f"{_span(l.u_from, l.u_to)} of rack {label} are leased to {cname}; {whose} cannot go there. "
                + ("Place it in that customer's own space or in unleased units" if owner
                   else "The provider's equipment goes into unleased units only"))
    rface = [] if full_depth or not face else [RackReservation.face == face]
    res = s.execute(
        select(RackReservation, Customer.name).join(Customer, Customer.id == RackReservation.customer_id)
        .where(RackReservation.rack_id == rack.id, RackReservation.status == ReservationStatus.ACTIVE,
               RackReservation.u_from <= u_hi, RackReservation.u_to >= u_lo,
               RackReservation.start_date <= day,
               or_(RackReservation.end_date.is_(None), RackReservation.end_date >= day),
               RackReservation.customer_id != owner_customer_id if owner_customer_id else true(), *rface)
        .order_by(RackReservation.u_from)).first()
    if res is not None:
        r, cname = res
        return (f"{_span(r.u_from, r.u_to)} ({Face.label(r.face).lower()}) of rack {label} are reserved for {cname} "
                f"(reservation {r.id}); {whose} cannot go there. Choose other units, or cancel the reservation "
                "with a reason first")
    if rack.status == RackStatus.LEASED and rack.customer_id and rack.customer_id != owner_customer_id:
        has_rows = s.execute(select(func.count()).select_from(SpaceLease).where(
            SpaceLease.rack_id == rack.id)).scalar_one()
        if not has_rows:  # a rack marked leased whole without lease rows (data from before U ranges)
            cname = s.get(Customer, rack.customer_id).name
            return f"rack {label} is leased to {cname}; {whose} cannot go there"
    return None


# --- use cases: direct leases (imports, corrections) and cages -----------------------------------

def lease_space(db: Database, actor: Actor, *, customer_id: int, rack_id: int | None = None,
                u_from: int | None = None, u_to: int | None = None, face: str | None = None,
                cage_id: int | None = None, start_date: dt.date, end_date: dt.date | None = None,
                note: str | None = None, reason: str | None = None) -> list[int]:
    """Lease a rack's units (whole when no range), or a cage, to a customer outside a contract
    (e.g. migrating an existing colocation book). Refused like activation."""
    require(actor, "reserve_racks")
    errors = {}
    if face not in (None, "", *Face.values()):
        errors["face"] = "face is front or rear (empty: both faces)"
    if (rack_id is None) == (cage_id is None):
        errors["rack_id"] = "name a rack (with or without a unit range) or a cage"
    if u_from is not None and (u_from < 1 or u_to is None or u_to < u_from):
        errors["u_to"] = "a unit range runs from U1 upwards and ends at or after its start"
    try:
        start_date = parse_date(start_date, what="start date")
        if start_date is None:
            errors["start_date"] = "a lease has a start date (YYYY-MM-DD)"
    except DateError as exc:
        errors["start_date"] = message_of(exc)
    try:
        end_date = parse_date(end_date, what="end date")
    except DateError as exc:
        errors["end_date"] = message_of(exc)
    if isinstance(start_date, dt.date) and isinstance(end_date, dt.date) and end_date < start_date:
        errors["end_date"] = "the lease ends before it starts"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        get_or_404(s, Customer, customer_id, "customer")
        if cage_id is not None:
            get_or_404(s, Cage, cage_id, "cage")
        spaces = item_space(s, ItemKind.RACK, rack_id, u_from, u_to, face or None, cage_id)
        if not spaces:
            raise ValidationError({"rack_id": "unknown rack, or a cage without racks"})
        for sp in spaces:
            s.execute(select(Rack.id).where(Rack.id == sp.rack_id).with_for_update(of=Rack)).all()
        problems = [p for sp in spaces for p in space_problems(s, customer_id, sp, start_date, end_date)]
        if problems:
            raise RuleViolation("the space cannot be leased: " + "; ".join(problems))
        ids = [open_lease_in(uow, customer_id, sp, start_date, end_date, note=note, reason=reason).id
               for sp in spaces]
        uow.commit()
        return ids


def end_space_lease(db: Database, actor: Actor, lease_id: int, last_day: dt.date, reason: str) -> None:
    """End a lease on `last_day` (inclusive): the space is free from the next day."""
    require(actor, "reserve_racks")
    if not (reason or "").strip():
        raise ValidationError({"reason": "say why the lease ends"})
    try:
        last_day = parse_date(last_day, what="last day")
    except DateError as exc:
        raise ValidationError({"last_day": message_of(exc)}) from None
    if last_day is None:
        raise ValidationError({"last_day": "the lease's last day (YYYY-MM-DD)"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        lease = get_or_404(s, SpaceLease, lease_id, "lease")
        if last_day < lease.start_date:
            raise ValidationError({"last_day": f"the lease starts on {lease.start_date}"})
        before = {"end_date": lease.end_date}
        lease.end_date = min(last_day, lease.end_date or last_day)
        s.flush()
        rack = s.get(Rack, lease.rack_id)
        uow.audit("space.release", "space_lease", lease.id, f"{rack_name(rack)} {_span(lease.u_from, lease.u_to)}",
                  before=before, after={"end_date": lease.end_date}, reason=reason.strip())
        uow.commit()


def create_cage(db: Database, actor: Actor, room_id: int, name: str, rack_ids: list[int],
                note: str | None = None) -> int:
    """A named set of racks of one room, leased as one unit; a rack belongs to one cage at most."""
    require(actor, "manage_dcim")
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "a cage has a name"})
    if not rack_ids:
        raise ValidationError({"rack_ids": "a cage holds at least one rack"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        room = get_or_404(s, Room, room_id, "room")
        racks = [get_or_404(s, Rack, r, "rack") for r in rack_ids]
        wrong = [r.name for r in racks if r.room_id != room.id]
        if wrong:
            raise ValidationError({"rack_ids": f"rack(s) {', '.join(wrong)} are not in room {room.name}"})
        caged = [r.name for r in racks if r.cage_id is not None]
        if caged:
            raise RuleViolation(f"rack(s) {', '.join(caged)} already belong to a cage")
        if s.execute(select(Cage.id).where(Cage.room_id == room.id, Cage.name == name)).first():
            raise ValidationError({"name": f"room {room.name} already has a cage {name}"})
        cage = Cage(room_id=room.id, name=name, note=note, updated_by=actor.login)
        s.add(cage)
        flush_or_refuse(s)
        uow.audit("cage.create", "cage", cage.id, f"{room.name}/{name}",
                  after=dict(snapshot(cage), racks=[r.name for r in racks]))
        for r in racks:  # each rack's own trail says it joined the cage (audit reconcile reads it)
            before = snapshot(r)
            r.cage_id = cage.id
            s.flush()
            after = snapshot(r)
            changed = [k for k in after if after[k] != before[k]]
            uow.audit("rack.update", "rack", r.id, r.name, before={k: before[k] for k in changed},
                      after={k: after[k] for k in changed}, reason=f"joined cage {name}")
        uow.commit()
        return cage.id


def find_cage_in(s, key: int | str) -> int:
    """A cage by id or by 'ROOM/NAME' or a unique NAME."""
    if isinstance(key, int) or str(key).isdigit():
        return get_or_404(s, Cage, int(key), "cage").id
    text = str(key).strip()
    room, _, name = text.rpartition("/")
    q = select(Cage.id).join(Room, Room.id == Cage.room_id).where(Cage.name == name)
    if room:
        q = q.where(Room.name == room)
    rows = s.execute(q).scalars().all()
    if len(rows) != 1:
        raise ValidationError({"cage": f"no cage {text}" if not rows else f"several cages are called {text}; "
                                                                          "write ROOM/NAME"})
    return rows[0]


# --- what the elevation offers on free units (the screen asks; the rule is here) ----------------

@dataclass(frozen=True)
class UnitOffer:
    """What may be done on units of a rack face that no device occupies, given today's leases."""
    lessee_id: int | None = None        # the one customer leasing all of the units, if any
    lessee: str | None = None
    place_refusal: str | None = None    # None: placing is offered (only the lessee's devices, when leased)
    reserve_refusal: str | None = None  # None: reserving is offered


def unit_offer(leases, face: str, u_from: int, u_to: int) -> UnitOffer:
    """The offer on units u_from..u_to of `face`, from today's lease rows (LeaseRow or the
    elevation's ElevationLease). Leased units take their lessee's devices only, and are never
    reserved: the service refuses another customer's reservation there, and they are the
    lessee's already."""
    hits = [lease for lease in leases
            if _faces_meet(lease.face, face) and lease.u_from <= u_to and lease.u_to >= u_from]
    if not hits:
        return UnitOffer()

    def name(lease) -> str:
        return getattr(lease, "customer_name", None) or lease.customer

    held = "; ".join(f"{_span(x.u_from, x.u_to)} are leased to {name(x)} until {x.end_date or 'open end'}"
                     for x in hits)
    reserve = f"{held}: leased units are not reserved (another customer's reservation is refused there)"
    lessees = {x.customer_id for x in hits}
    covered = set()
    for x in hits:
        covered.update(range(max(x.u_from, u_from), min(x.u_to, u_to) + 1))
    if len(lessees) == 1 and covered == set(range(u_from, u_to + 1)):
        return UnitOffer(hits[0].customer_id, name(hits[0]), None, reserve)
    return UnitOffer(None, None, f"{held}; {_span(u_from, u_to)} mix leased and other units: place a device "
                                 "inside one customer's lease, or in unleased units", reserve)


def unit_offer_at(db: Database, rack_id: int, face: str, u_from: int, u_to: int,
                  day: dt.date | None = None) -> UnitOffer:
    with db.session() as s:
        return unit_offer(leases_on(s, day or local_today(), [rack_id]), face, u_from, u_to)
