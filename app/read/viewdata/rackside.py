"""What a rack click shows beside the racks list, read at once: its elevation, its power panel and (when
another room is shown) its room's floor.

Issue 26: the three panels read one after the other sent 34 statements in a row, ~1.6 s at 30 ms RTT.
Here one statement finds the rack's room and its racks, then the independent reads go side by side
(Database.read_together: one connection each on PostgreSQL), the power chain is checked once for the
room (the elevation's power bar is this rack's row of it) and nothing is read twice.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select

from app.read.power import RackPowerPanel, RoomPower, rack_power, rack_supplies_in
from app.read.viewdata.elevation import RackElevationData, rack_elevation
from app.read.viewdata.room import RoomLayoutData, room_layout
from app.store.db import Database, get_or_404, reading
from models import Rack, Room


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
    with reading(), db.session() as s:
        racks = s.execute(select(Rack.id, Room.id, Room.name).join(Room, Room.id == Rack.room_id)
                          .where(Rack.room_id == room_of)).all()
        if not racks:
            get_or_404(s, Rack, rack_id, "rack")   # raises: the rack is gone
    room_id, room_name = racks[0][1], racks[0][2]
    ids = [r[0] for r in racks]

    def power():
        with db.session() as s:
            return rack_power(s, ids)

    def supplies():
        with db.session() as s:
            return rack_supplies_in(s, rack_id)

    calls = [power, supplies, lambda: rack_elevation(db, rack_id, read_power=False)]
    if room and room_id != shown_room_id:
        calls.append(lambda: room_layout(db, room_id))
    checked, supply_rows, elevation, *floor = db.read_together(*calls)
    room_power = RoomPower(room_id, room_name, tuple(sorted(checked.values(), key=lambda r: r.rack)))
    panel = RackPowerPanel(checked[rack_id], supply_rows, room_power)
    elevation = _with_power(elevation, checked[rack_id])
    return RackSide(rack_id, room_id, elevation, panel, floor[0] if floor else None)


def _with_power(elevation: RackElevationData, power) -> RackElevationData:
    return replace(elevation, power=power)
