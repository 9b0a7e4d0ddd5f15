"""A rack click (issue 26) reads its three panels, elevation, room floor and power, in few statements:
each one counted here on the demo's fullest rack, both backends, so that a regression shows. The power
panel checks the room's racks once, this rack among them (it read the rack, then its room again: 17); the
elevation counts its space with the heights and leases it has already read."""
from __future__ import annotations

from sqlalchemy import event, func, select

from app.read import viewdata
from app.read.power import rack_power, rack_power_panel, room_power_in
from models import Device

# statements per panel (before issue 26: 15, 9 and 17, the power panel in three reads; the room 7 since its
# space counts take the heights and leases it read)
ELEVATION, ROOM, POWER = 13, 7, 10


def _counted(db, fn):
    seen = []

    def count(_conn, _cur, statement, *_a):
        seen.append(statement)
    event.listen(db.engine, "before_cursor_execute", count)
    try:
        result = fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    return result, len(seen)


def test_a_rack_click_reads_each_panel_in_a_counted_number_of_statements(demo_db):
    with demo_db.engine.connect() as conn:
        rack_id = conn.execute(select(Device.rack_id).where(Device.rack_id.is_not(None)).group_by(Device.rack_id)
                               .order_by(func.count().desc(), Device.rack_id).limit(1)).scalar_one()
    elevation, n_elevation = _counted(demo_db, lambda: viewdata.rack_elevation(demo_db, rack_id))
    _room, n_room = _counted(demo_db, lambda: viewdata.room_layout(demo_db, elevation.room_id))
    panel, n_power = _counted(demo_db, lambda: rack_power_panel(demo_db, rack_id))
    assert n_elevation <= ELEVATION and n_room <= ROOM and n_power <= POWER, (n_elevation, n_room, n_power)
    # the one read shows what the reads it replaced showed
    with demo_db.session() as s:
        assert panel.rack == rack_power(s, [rack_id])[rack_id]
        assert panel.room == room_power_in(s, [elevation.room_id])[0]
    assert panel.rack.rack_id == rack_id and panel.room.room_id == elevation.room_id
    assert any(r.rack_id == rack_id for r in panel.room.racks)
