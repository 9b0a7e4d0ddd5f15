"""What the console's forms choose from: the objects a maintenance window can be planned on, the
space a customer's visit can go to."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import and_, literal, or_, select, text

from models import Cage, CrossConnect, Device, PduFeed, PowerFeed, PowerPanel, Rack, Room, Site, SpaceLease
from models.choices import MaintenanceTarget

from app.store.db import Database

LIMIT = 5000    # the form lists at most this many of one kind (a big estate types to narrow it)


def maintenance_targets(db: Database, kind: str) -> list[tuple[int, str]]:
    """The objects of `kind` (MaintenanceTarget; not UPS, which is named within its site)."""
    site = Site.code + literal(" / ")
    q = {
        MaintenanceTarget.FEED: select(PowerFeed.id, site + PowerPanel.name + literal("/") + PowerFeed.name)
        .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id).join(Site, Site.id == PowerPanel.site_id),
        MaintenanceTarget.PANEL: select(PowerPanel.id, site + PowerPanel.name).join(Site, Site.id == PowerPanel.site_id),
        MaintenanceTarget.PDU: select(Device.id, Device.name).join(PduFeed, PduFeed.device_id == Device.id),
        MaintenanceTarget.RACK: select(Rack.id, site + Room.name + literal(" / ") + Rack.name)
        .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id),
        MaintenanceTarget.DEVICE: select(Device.id, Device.name),
        MaintenanceTarget.XCONNECT: select(CrossConnect.id, CrossConnect.reference),
        MaintenanceTarget.COOLING: select(Room.id, site + Room.name).join(Site, Site.id == Room.site_id),
    }.get(kind)
    if q is None:
        return []
    with db.session() as s:
        return [(i, label) for i, label in s.execute(q.order_by(text("2")).limit(LIMIT))]


def visit_spaces(db: Database, customer_id: int | None, day: dt.date) -> list[tuple[str, int, str]]:
    """The cages and the racks outside a cage the customer leases on `day`: ("cage" | "rack", id, label)."""
    if customer_id is None:
        return []
    live = and_(SpaceLease.customer_id == customer_id, SpaceLease.start_date <= day,
                or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= day))
    site = Site.code + literal(" / ") + Room.name + literal(" / ")
    with db.session() as s:
        cages = s.execute(select(Cage.id, site + Cage.name).distinct().join(SpaceLease, SpaceLease.cage_id == Cage.id)
                          .join(Room, Room.id == Cage.room_id).join(Site, Site.id == Room.site_id)
                          .where(live).order_by(text("2"))).all()
        racks = s.execute(select(Rack.id, site + Rack.name).distinct().join(SpaceLease, SpaceLease.rack_id == Rack.id)
                          .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
                          .where(live, SpaceLease.cage_id.is_(None)).order_by(text("2"))).all()
    return [("cage", i, label) for i, label in cages] + [("rack", i, label) for i, label in racks]
