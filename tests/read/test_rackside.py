"""A rack click reads its three panels at once (app/read/viewdata/rackside.py, issue 26): what it shows is
what the panels' own reads show, in fewer statements, and its independent reads run side by side."""
from __future__ import annotations

import pytest
from sqlalchemy import event, func, select

from app.domain.errors import NotFound
from app.read import viewdata
from app.read.power import rack_power_panel
from app.read.viewdata.rackside import rack_side
from models import Device, Rack

# the room's racks with their heights and the power limit (1), their power (3), their leases and space (4),
# the supplies (1), the elevation's own rows (3), the room's floor's own rows (3); the three panels' own
# reads: 13 + 10 + 9 and the rack's record for its room (was 22 / 15 before issue 26's third round)
STATEMENTS, STATEMENTS_ROOM_SHOWN = 15, 12


def _counted(db, fn):
    seen = []

    def count(_conn, _cur, statement, *_a):
        seen.append(statement)
    event.listen(db.engine, "before_cursor_execute", count)
    try:
        return fn(), len(seen)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def test_a_rack_click_shows_what_the_three_panels_read_in_fewer_statements(demo_db):
    with demo_db.engine.connect() as conn:
        fullest = conn.execute(select(Device.rack_id).where(Device.rack_id.is_not(None)).group_by(Device.rack_id)
                               .order_by(func.count().desc(), Device.rack_id).limit(1)).scalar_one()
        others = conn.execute(select(Rack.id).order_by(Rack.id).limit(3)).scalars().all()
    for rack_id in [fullest, *others]:
        side, n = _counted(demo_db, lambda rack_id=rack_id: rack_side(demo_db, rack_id))
        assert n <= STATEMENTS, n
        assert side.elevation == viewdata.rack_elevation(demo_db, rack_id)
        assert side.power == rack_power_panel(demo_db, rack_id)
        assert side.room == viewdata.room_layout(demo_db, side.elevation.room_id)
        assert side.room_id == side.elevation.room_id and side.rack_id == rack_id
        again, n = _counted(demo_db, lambda rack_id=rack_id: rack_side(demo_db, rack_id, shown_room_id=side.room_id))
        assert again.room is None and n <= STATEMENTS_ROOM_SHOWN, n
        assert again.elevation == side.elevation and again.power == side.power
        assert rack_side(demo_db, rack_id, room=False).room is None


def test_a_rack_that_is_gone_is_not_found(demo_db):
    with demo_db.engine.connect() as conn:
        missing = conn.execute(select(func.max(Rack.id))).scalar_one() + 1000
    with pytest.raises(NotFound):
        rack_side(demo_db, missing)


def test_reads_together_return_in_order_and_raise_the_first_error(db):
    assert db.read_together(lambda: 1, lambda: 2, lambda: 3) == [1, 2, 3]

    def boom():
        raise NotFound("gone")
    with pytest.raises(NotFound):
        db.read_together(lambda: 1, boom)


def test_reads_together_inside_reads_together_run_in_turn(db):
    # a read that itself reads together (a panel inside a panel) must not wait on the threads it holds
    inner = [lambda i=i: db.read_together(lambda: i, lambda: i + 1) for i in range(6)]
    assert db.read_together(*inner) == [[i, i + 1] for i in range(6)]
