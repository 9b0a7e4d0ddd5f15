"""What a maintenance window can be planned on, as (id, label) pairs for the console's form."""
from __future__ import annotations

from sqlalchemy import literal, select, text

from models import CrossConnect, Device, PduFeed, PowerFeed, PowerPanel, Rack, Room, Site
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
