"""Demo: an A/B-fed row. Four racks of the Guangzhou room, each with an A feed from panel PP-A
(behind UPS-A) and a B feed from PP-B (behind UPS-B), 16 A / 220 V each (3.52 kW; 80 %: 2.82 kW),
a PDU per side, and the provider's dual-supply servers on both PDUs. The last rack holds five
servers (3.25 kW): each side carries 1.63 kW, but with one side lost the other would carry
3.25 kW, over its 2.82 kW limit, so it fails the N-redundancy check where everyone can see it."""
from __future__ import annotations

from sqlalchemy import select

from app.domain.actor import Actor
from app.domain.errors import DomainError
from app.services.common import create_record
from app.services.dcim import place_device
from app.services.power import attach_pdu, connect_supply, create_feed, create_panel
from app.store.db import Database
from models import Device, DeviceType, Rack, Room, Site, SpaceLease
from models.choices import DeviceRole, DeviceStatus, RackStatus

SITE, ROOM = "GZ-HP1", "A 机房"
SERVERS = (3, 3, 2, 5)  # dual-supply servers per rack; the last rack fails N redundancy


def load_demo_power(db: Database, admin: Actor) -> int:
    """Returns the number of racks fed A and B (0 when the room is missing)."""
    with db.session() as s:
        room = s.execute(select(Room).join(Site, Site.id == Room.site_id)
                         .where(Site.code == SITE, Room.name == ROOM)).scalar_one_or_none()
        if room is None:
            return 0
        leased = set(s.execute(select(SpaceLease.rack_id)).scalars()) | set(
            s.execute(select(Device.rack_id).where(Device.rack_id.is_not(None))).scalars())  # empty racks only
        racks = [r for r in s.execute(select(Rack).where(Rack.room_id == room.id).order_by(Rack.name.desc()))
                 .scalars() if r.status == RackStatus.AVAILABLE and r.id not in leased][:len(SERVERS)]
        racks = [(r.id, r.name) for r in sorted(racks, key=lambda r: r.name)]
        site_id, room_id = room.site_id, room.id
        server = s.execute(select(DeviceType.id).where(DeviceType.slug == "dell-poweredge-r760")).scalar_one()
        pdu_type = s.execute(select(DeviceType.id).where(DeviceType.role == DeviceRole.PDU)).scalars().first()
    if len(racks) < len(SERVERS):
        return 0
    if pdu_type is None:
        pdu_type = create_record(db, admin, "device_type", dict(
            manufacturer="APC", model="AP8853 Rack PDU 2G 16A", slug="apc-ap8853", u_height=0, role=DeviceRole.PDU,
            comments="0U 机架式 PDU，24 个 C13 + 4 个 C19 插座"))
    panels = {side: create_panel(db, admin, dict(site_id=site_id, room_id=room_id, name=f"PP-{side}", voltage=220,
                                                 phase="three-phase", amperage=400, ups=f"UPS-{side} 500 kVA",
                                                 comments=f"{side} 路列头柜"))
              for side in ("A", "B")}
    for (rack_id, name), n in zip(racks, SERVERS):
        pdus = {}
        for side in ("A", "B"):
            feed = create_feed(db, admin, dict(
                power_panel_id=panels[side], rack_id=rack_id, name=f"{name}-{side}", side=side,
                type="primary" if side == "A" else "redundant", voltage=220, amperage=16, phase="single-phase"))
            pdus[side] = place_device(db, admin, dict(name=f"{name}-PDU-{side}", device_type_id=pdu_type,
                                                      rack_id=rack_id, status=DeviceStatus.ACTIVE))
            attach_pdu(db, admin, pdus[side], feed, outlets=24)
        placed, unit = 0, 1
        while placed < n and unit < 40:
            try:
                dev = place_device(db, admin, dict(name=f"{name}-srv-{placed + 1:02d}", device_type_id=server,
                                                   rack_id=rack_id, position=unit, face="front",
                                                   status=DeviceStatus.ACTIVE))
            except DomainError:
                unit += 1
                continue
            for port, side in ((1, "A"), (2, "B")):
                connect_supply(db, admin, dev, f"PSU{port}", pdus[side], placed + 1)
            placed += 1
            unit += 2
    return len(racks)
