"""`import|export leases`: rows of leased space (rack + U range + face, or a cage), for app.importexport.

Columns: site, location, rack, u_from, u_to, face, customer, start, end, cage, note. A row names
a rack (with its site and location when the name is not unique), optionally a unit range (none:
the whole rack) and a face (none: both); or a cage ("ROOM/NAME" or its name) leased whole.
The rules are those of activation (app/services/space.py): another customer's lease or
reservation on an overlapping day refuses the row.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.domain.errors import RuleViolation
from app.importexport.kinds.core import _customer
from app.services.space import find_cage_in, item_space, open_lease_in, space_problems
from models import Cage, Customer, Rack, Room, Site, SpaceLease
from models.choices import Face, ItemKind

COLUMNS = ("site", "location", "rack", "u_from", "u_to", "face", "customer", "start", "end", "cage", "note")
REQUIRED = ("customer", "start")
FIELD_COLUMN = {"rack_id": "rack", "customer_id": "customer", "cage_id": "cage", "start_date": "start",
                "end_date": "end"}


def _rack(s, r) -> int | None:
    name = r.get("rack")
    q = select(Rack.id).join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id).where(Rack.name == name)
    if r.get("site"):
        q = q.where(Site.code == r.get("site"))
    if r.get("location"):
        q = q.where(Room.name == r.get("location"))
    hits = s.execute(q.limit(3)).scalars().all()
    if not hits:
        where = " in ".join(x for x in (r.get("location"), r.get("site")) if x)
        r.err("rack", f"no rack is named {name!r}" + (f" in {where}" if where else ""))
    elif len(hits) > 1:
        r.err("rack", f"several racks are named {name!r}; give the site and location too")
    return hits[0] if len(hits) == 1 else None


def resolve_leases(s, r) -> dict[str, Any]:
    from app.domain.errors import ValidationError

    v: dict[str, Any] = {"customer_id": _customer(s, r, "customer"), "start_date": r.date("start"),
                         "end_date": r.date("end"), "note": r.get("note") or None,
                         "face": (r.get("face") or "").lower() or None, "rack_id": None, "cage_id": None,
                         "u_from": r.integer("u_from"), "u_to": r.integer("u_to")}
    if v["face"] not in (None, *Face.values()):
        r.err("face", "face is front or rear (empty: both faces)")
    if not r.get("rack") and not r.get("cage"):
        r.err("rack", "name a rack (with or without u_from/u_to) or a cage")
    elif r.get("cage"):  # the cage is leased whole; its export repeats each rack, which must be in it
        try:
            v["cage_id"] = find_cage_in(s, r.get("cage"))
        except ValidationError as exc:
            r.err("cage", next(iter(exc.errors.values())))
        if r.get("rack") and v["cage_id"] is not None:
            rack_id = _rack(s, r)
            if rack_id is not None and s.get(Rack, rack_id).cage_id != v["cage_id"]:
                r.err("rack", f"rack {r.get('rack')} is not in cage {r.get('cage')}")
        v["u_from"] = v["u_to"] = v["face"] = None
    else:
        v["rack_id"] = _rack(s, r)
    if (v["u_from"] is None) != (v["u_to"] is None):
        r.err("u_to", "give both u_from and u_to, or neither for the whole rack")
    elif v["u_from"] is not None and not 1 <= v["u_from"] <= v["u_to"]:
        r.err("u_to", "a unit range runs from U1 upwards and ends at or after its start")
    if v["start_date"] and v["end_date"] and v["end_date"] < v["start_date"]:
        r.err("end", "the lease ends before it starts")
    return v


def write_leases(uow, r, v: dict) -> str:
    s = uow.session
    spaces = item_space(s, ItemKind.RACK, v["rack_id"], v["u_from"], v["u_to"], v["face"], v["cage_id"])
    if not spaces:
        raise RuleViolation("the cage has no racks")
    created = 0
    for sp in spaces:
        same = s.execute(select(SpaceLease).where(
            SpaceLease.rack_id == sp.rack_id, SpaceLease.customer_id == v["customer_id"],
            SpaceLease.u_from == sp.u_from, SpaceLease.u_to == sp.u_to,
            SpaceLease.face.is_(None) if sp.face is None else SpaceLease.face == sp.face,
            SpaceLease.start_date == v["start_date"])).scalar_one_or_none()
        if same is not None and same.end_date == v["end_date"]:
            continue
        if same is not None:
            raise RuleViolation(f"this lease exists with end {same.end_date or 'open'}; end or change it in the "
                                "console rather than by importing it again")
        problems = space_problems(s, v["customer_id"], sp, v["start_date"], v["end_date"])
        if problems:
            raise RuleViolation("; ".join(problems))
        open_lease_in(uow, v["customer_id"], sp, v["start_date"], v["end_date"], note=v["note"],
                      reason=f"imported from line {r.line}")
        created += 1
    return "created" if created else "unchanged"


def export_leases_query():
    return (select(Site.code, Room.name, Rack.name, SpaceLease.u_from, SpaceLease.u_to, SpaceLease.face,
                   Customer.name, SpaceLease.start_date, SpaceLease.end_date, Cage.name, SpaceLease.note)
            .join(Rack, Rack.id == SpaceLease.rack_id).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id).join(Customer, Customer.id == SpaceLease.customer_id)
            .outerjoin(Cage, Cage.id == SpaceLease.cage_id)
            .order_by(Site.code, Room.name, Rack.name, SpaceLease.u_from, SpaceLease.start_date))
