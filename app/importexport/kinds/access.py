"""`import|export maintenance` and `export visits` (issue 24), for app.importexport.

maintenance: one row per window. A new row (no reference, or one not in the database) is planned
through the service (tentative; the impact worked out from the chain, never read from the file),
so an import obeys the console's rules; confirming (the notice period) stays a deliberate step. A
row whose reference exists is unchanged when it says the same, else refused (move a window in the
console). Times are ISO 8601; a time without a zone is Asia/Shanghai.

visits: one row per visitor, export only. ID numbers are always exported masked
(3501**********1234), whoever exports: a real-name record never leaves in full.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import String, cast, func, literal, select
from sqlalchemy.orm import aliased

from models import (Cage, Contact, CrossConnect, Customer, Device, MaintenanceWindow, PowerFeed, PowerPanel, Rack,
                    Room, Site, Visit, Visitor, visit_rack)
from models.choices import MaintenanceTarget

from app.domain.clock import TZ
from app.domain.errors import NotFound, RuleViolation, ValidationError

M_COLUMNS = ("reference", "site", "target_kind", "target", "title", "description", "planned_start", "planned_end",
             "state", "emergency", "emergency_reason", "noticed_at", "contact")
M_REQUIRED = ("site", "target_kind", "target", "title", "planned_start", "planned_end")
M_FIELD_COLUMN = {"target_kind": "target_kind", "planned_start": "planned_start", "planned_end": "planned_end",
                  "emergency_reason": "emergency_reason", "site_id": "site"}

V_COLUMNS = ("visit", "state", "customer", "site", "space", "contact", "purpose", "window_start", "window_end",
             "escort_needed", "name", "id_type", "id_number_masked", "company", "badge", "checked_in_at",
             "checked_out_at")


def _instant(r, col: str) -> dt.datetime | None:
    raw = r.get(col)
    if not raw:
        return None
    try:
        value = dt.datetime.fromisoformat(raw.replace(" ", "T") if "T" not in raw else raw)
    except ValueError:
        r.err(col, f"{raw!r} is not a time: write YYYY-MM-DD HH:MM (Asia/Shanghai) or ISO 8601 with a zone")
        return None
    return (value.replace(tzinfo=TZ) if value.tzinfo is None else value).astimezone(dt.timezone.utc)


def _target(s, r, site_id: int | None, kind: str | None) -> Any:
    """The target by the name the export writes (feed PANEL/FEED, panel, UPS, device, ROOM/RACK, XC-…, room)."""
    key = r.get("target") or ""
    if kind is None or site_id is None:
        return None
    if kind == MaintenanceTarget.UPS:
        return key
    q = None
    if kind == MaintenanceTarget.FEED:
        panel, _, feed = key.rpartition("/")
        q = (select(PowerFeed.id).join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
             .where(PowerPanel.site_id == site_id, PowerPanel.name == panel, PowerFeed.name == feed))
    elif kind == MaintenanceTarget.PANEL:
        q = select(PowerPanel.id).where(PowerPanel.site_id == site_id, PowerPanel.name == key)
    elif kind in (MaintenanceTarget.PDU, MaintenanceTarget.DEVICE):
        q = (select(Device.id).join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
             .where(Room.site_id == site_id, Device.name == key))
    elif kind == MaintenanceTarget.RACK:
        room, _, rack = key.rpartition("/")
        q = select(Rack.id).join(Room, Room.id == Rack.room_id).where(Room.site_id == site_id, Rack.name == rack)
        if room:
            q = q.where(Room.name == room)
    elif kind == MaintenanceTarget.XCONNECT:
        q = select(CrossConnect.id).where(CrossConnect.reference == key)
    elif kind == MaintenanceTarget.COOLING:
        q = select(Room.id).where(Room.site_id == site_id, Room.name == key)
    hits = s.execute(q.limit(2)).scalars().all() if q is not None else []
    if len(hits) != 1:
        r.err("target", f"no single {kind} {key!r} at that site" if not hits else f"several {kind}s are {key!r}")
        return None
    return hits[0]


def resolve_maintenance(s, r) -> dict[str, Any]:
    from app.importexport.kinds.core import _site
    from app.importexport.kinds.xconnect import _choice

    site = _site(s, r, "site")
    kind = _choice(r, "target_kind", MaintenanceTarget)
    emergency = r.boolean("emergency") or False
    return {"reference": (r.get("reference") or "").upper() or None, "site_id": site.id if site else None,
            "target_kind": kind, "target": _target(s, r, site.id if site else None, kind), "title": r.get("title"),
            "description": r.get("description") or None, "planned_start": _instant(r, "planned_start"),
            "planned_end": _instant(r, "planned_end"), "emergency": emergency,
            "emergency_reason": r.get("emergency_reason") or None, "contact": r.get("contact") or None}


def write_maintenance(uow, r, v: dict) -> str:
    from app.services.operations.maintenance import find_window_in, plan_in

    s = uow.session
    ref = v.pop("reference")
    if ref:
        try:
            same = find_window_in(s, ref)
        except (NotFound, ValidationError):  # an unknown reference is a new window
            same = None
        if same is not None:
            differs = [k for k in ("title", "planned_start", "planned_end", "emergency") if getattr(same, k) != v[k]]
            if not differs:
                return "unchanged"
            raise RuleViolation(f"{ref} exists with another {', '.join(differs)}: reschedule or cancel it in the "
                                "console rather than by importing it again")
    plan_in(uow, reason=f"imported from line {r.line}", **v)
    return "created"


def export_maintenance_query():
    from app.services.operations.maintenance import reference  # noqa: F401 (the format below is its own)

    feed_panel = aliased(PowerPanel)
    room = aliased(Room)
    rack_room = aliased(Room)
    target = func.coalesce(feed_panel.name + literal("/") + PowerFeed.name, PowerPanel.name, MaintenanceWindow.ups,
                           Device.name, rack_room.name + literal("/") + Rack.name, CrossConnect.reference, room.name)
    ref = literal("MW-") + func.substr(literal("000000") + cast(MaintenanceWindow.id, String),
                                       func.length(cast(MaintenanceWindow.id, String)) + 1, 6)
    return (select(ref, Site.code, MaintenanceWindow.target_kind, target, MaintenanceWindow.title,
                   MaintenanceWindow.description, MaintenanceWindow.planned_start, MaintenanceWindow.planned_end,
                   MaintenanceWindow.state, MaintenanceWindow.emergency, MaintenanceWindow.emergency_reason,
                   MaintenanceWindow.noticed_at, MaintenanceWindow.contact)
            .join(Site, Site.id == MaintenanceWindow.site_id)
            .outerjoin(PowerFeed, PowerFeed.id == MaintenanceWindow.power_feed_id)
            .outerjoin(feed_panel, feed_panel.id == PowerFeed.power_panel_id)
            .outerjoin(PowerPanel, PowerPanel.id == MaintenanceWindow.power_panel_id)
            .outerjoin(Device, Device.id == MaintenanceWindow.device_id)
            .outerjoin(Rack, Rack.id == MaintenanceWindow.rack_id)
            .outerjoin(rack_room, rack_room.id == Rack.room_id)
            .outerjoin(CrossConnect, CrossConnect.id == MaintenanceWindow.cross_connect_id)
            .outerjoin(room, room.id == MaintenanceWindow.room_id)
            .order_by(MaintenanceWindow.planned_start, MaintenanceWindow.id))


def masked_id_sql(col):
    """mask_id in SQL (the same on SQLite and PostgreSQL): the first and last four, stars between."""
    n = func.length(col)
    return (func.substr(col, 1, 4, type_=String) + func.substr(literal("*" * 32), 1, n - 8, type_=String)
            + func.substr(col, n - 3, 4, type_=String))


def export_visits_query():
    ref = literal("VR-") + func.substr(literal("000000") + cast(Visit.id, String),
                                       func.length(cast(Visit.id, String)) + 1, 6)
    first_rack = (select(func.min(Rack.name)).join(visit_rack, visit_rack.c.rack_id == Rack.id)
                  .where(visit_rack.c.visit_id == Visit.id).scalar_subquery())
    return (select(ref, Visit.state, Customer.name, Site.code, func.coalesce(Cage.name, first_rack, ""), Contact.name,
                   Visit.purpose, Visit.window_start, Visit.window_end, Visit.escort_needed, Visitor.name,
                   Visitor.id_type, masked_id_sql(Visitor.id_number), Visitor.company, Visitor.badge,
                   Visitor.checked_in_at, Visitor.checked_out_at)
            .join(Visit, Visit.id == Visitor.visit_id).join(Customer, Customer.id == Visit.customer_id)
            .join(Site, Site.id == Visit.site_id).join(Contact, Contact.id == Visit.contact_id)
            .outerjoin(Cage, Cage.id == Visit.cage_id).order_by(Visit.window_start, Visit.id, Visitor.id))


def refuse_visit_import(s, r) -> dict[str, Any]:
    r.err(None, "visits are requested one by one (visit request or the console): each is checked against the "
                "leases and authorisations, and exported ID numbers are masked, so a file cannot bring them back")
    return {}


def no_write(uow, r, v: dict) -> str:  # pragma: no cover - resolve refuses every row first
    raise RuleViolation("visits are not imported")
