"""What a rack click shows beside the racks list, read at once: its elevation, its power panel and (when
another room is shown) its room's floor.

Issue 26: the three panels read one after the other sent 34 statements in a row, ~1.6 s at 30 ms RTT.
Here one statement finds the rack's room, its racks (names, heights) and the power limit; then the
independent reads go side by side (Database.read_together: one connection each on PostgreSQL): the
power chain of the room's racks (the elevation's power bar is this rack's row of it), the leases and
space counts of the room's racks (the elevation's are this rack's), the elevation's and the floor's own
rows, the rack's supplies. Nothing is read twice, and the longest chain is four statements.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from app.domain.rating import local_today
from app.read.power import RackPowerPanel, RoomPower, rack_power, rack_supplies_in
from app.read.settings import POWER_LIMIT_PCT, setting_of
from app.read.space import leases_on, rack_space
from app.read.viewdata.elevation import RackElevationData, elevation_from, elevation_reads
from app.read.viewdata.room import RoomLayoutData, room_from, room_reads
from app.store.db import Database, reading
from app.store.found import get_or_404
from models import AppSetting, Rack, Room


@dataclass(frozen=True)
class RackSide:
    rack_id: int
    room_id: int
    elevation: RackElevationData
    power: RackPowerPanel
    room: RoomLayoutData | None      # None: the room asked to be skipped (already shown)


def rack_side(db: Database, rack_id: int, shown_room_id: int | None = None, room: bool = True) -> RackSide:
    """The rack's three panels; the room's floor only with `room` and when it is not `shown_room_id`
    (the floor already shown). NotFound when the rack is gone."""
    room_of = select(Rack.room_id).where(Rack.id == rack_id).scalar_subquery()
    limit = select(AppSetting.value).where(AppSetting.key == POWER_LIMIT_PCT).scalar_subquery()
    with reading(), db.session() as s:
        racks = s.execute(select(Rack.id, Rack.name, Room.id, Room.name, Rack.u_height, limit)
                          .join(Room, Room.id == Rack.room_id).where(Rack.room_id == room_of)).all()
        if not racks:
            get_or_404(s, Rack, rack_id, "rack")   # raises: the rack is gone
    room_id, room_name, today = racks[0][2], racks[0][3], local_today()
    ids = [r[0] for r in racks]
    heights = {r[0]: int(r[4]) for r in racks}

    def read(fn):
        def call():
            with db.session() as s:
                return fn(s)
        return call

    def space(s):
        leases = leases_on(s, today, ids)
        return leases, rack_space(s, ids, today, heights=heights, leases=leases)

    def power(s):
        return rack_power(s, ids, limit_pct=int(setting_of(POWER_LIMIT_PCT, racks[0][5])),
                          racks_read=[tuple(r[:4]) for r in racks])

    calls = [read(space), read(power), read(lambda s: elevation_reads(s, rack_id, today)),
             read(lambda s: rack_supplies_in(s, rack_id))]
    if room and room_id != shown_room_id:
        calls.append(read(lambda s: room_reads(s, room_id)))
    (leases, spaces), checked, own, supply_rows, *floor = db.read_together(*calls)
    room_power = RoomPower(room_id, room_name, tuple(sorted(checked.values(), key=lambda r: r.rack)))
    panel = RackPowerPanel(checked[rack_id], supply_rows, room_power)
    elevation = elevation_from(own, [l for l in leases if l.rack_id == rack_id], spaces[rack_id], checked[rack_id])
    return RackSide(rack_id, room_id, elevation, panel, room_from(floor[0], leases, spaces) if floor else None)
