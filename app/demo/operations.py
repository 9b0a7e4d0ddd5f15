"""Demo: the operations desk. The Guangzhou room's A/B row gets a planned maintenance of its A-side
panel PP-A (confirmed with notice, next week), which reaches two leased racks of the same room
now fed from that panel: A01 on both sides (PP-A and PP-B: reduced redundancy for its customer)
and A03 on the A side only (single-fed: an outage for its customer). Site access (authorised
contacts, visits: one on site now, one overstayed) is added by `load_demo_visits`."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from models import PowerPanel, Rack, Room, Site, SpaceLease
from models.choices import MaintenanceTarget

from app.audit.trail import Actor
from app.domain.clock import TZ, local_today
from app.services.operations.maintenance import confirm_maintenance, plan_maintenance
from app.services.power import create_feed
from app.store.db import Database

SITE, ROOM = "GZ-HP1", "A 机房"
DUAL_FED, SINGLE_FED = "A01", "A03"  # leased racks of the room, fed from the A/B row's panels


def load_demo_maintenance(db: Database, admin: Actor, today: dt.date | None = None) -> int | None:
    """Returns the maintenance window's id (None when the A/B row is missing)."""
    today = today or local_today()
    with db.session() as s:
        room = s.execute(select(Room).join(Site, Site.id == Room.site_id)
                         .where(Site.code == SITE, Room.name == ROOM)).scalar_one_or_none()
        if room is None:
            return None
        panels = {p.name: p.id for p in s.execute(select(PowerPanel).where(PowerPanel.room_id == room.id)).scalars()}
        racks = {r.name: r.id for r in s.execute(select(Rack).where(Rack.room_id == room.id)).scalars()}
        leased = set(s.execute(select(SpaceLease.rack_id)).scalars())
    if not {"PP-A", "PP-B"} <= set(panels) or not {DUAL_FED, SINGLE_FED} <= set(racks) \
            or not {racks[DUAL_FED], racks[SINGLE_FED]} <= leased:
        return None
    for rack, sides in ((DUAL_FED, "AB"), (SINGLE_FED, "A")):
        for side in sides:
            create_feed(db, admin, dict(power_panel_id=panels[f"PP-{side}"], rack_id=racks[rack], name=f"{rack}-{side}",
                                        side=side, type="primary" if side == "A" else "redundant", voltage=220,
                                        amperage=32, phase="single-phase"))
    day = today + dt.timedelta(days=5)
    start = dt.datetime(day.year, day.month, day.day, 1, 0, tzinfo=TZ).astimezone(dt.timezone.utc)
    wid = plan_maintenance(
        db, admin, target_kind=MaintenanceTarget.PANEL, target=panels["PP-A"], planned_start=start,
        planned_end=start + dt.timedelta(hours=4), title="A 路列头柜 PP-A 断路器年度检修 / PP-A breaker annual service",
        description="A 路（PP-A，UPS-A 之后）停电检修，B 路照常供电。/ The A side (PP-A, behind UPS-A) is switched off; "
                    "the B side carries on.",
        contact="运维值班 王磊 020-8226 5500")
    confirm_maintenance(db, admin, wid)
    return wid
