"""The power chain in the console (issue 15): the demo's A/B-fed row on the elevation's power bar,
the rack's Power tab (feeds, supplies, the room's racks, failing first) and the panels/feeds list."""
from __future__ import annotations

from PySide6.QtWidgets import QGraphicsSimpleTextItem
from sqlalchemy import select

from models import Rack, Room, Site
from models.choices import RedundancyState
from ui.pages.power import RackPowerPanel
from ui.widgets.rack_elevation import RackPanel


def _rack(db, name):
    with db.session() as s:
        room = s.execute(select(Room.id).join(Site).where(Site.code == "GZ-HP1")).scalar_one()
        return s.execute(select(Rack.id).where(Rack.room_id == room, Rack.name == name)).scalar_one()


def _texts(scene):
    return [i.text() for i in scene.items() if isinstance(i, QGraphicsSimpleTextItem)]


def test_elevation_power_bar_shows_both_sides_and_the_failing_rack(qtbot, demo_db):
    panel = RackPanel(demo_db)
    qtbot.addWidget(panel)
    panel.load_rack(_rack(demo_db, "C06"))  # the demo's rack with five dual-supply servers
    rp = panel.data().power
    assert rp.redundancy == RedundancyState.FAIL and {f.side for f in rp.feeds} == {"A", "B"}
    texts = _texts(panel.scene())
    assert any(t.startswith("A side: 1.62 of 3.52 kW") for t in texts), texts
    assert any(t.startswith("B side: 1.62 of 3.52 kW") for t in texts)
    assert any("N redundancy: Not redundant" in t for t in texts)
    panel.load_rack(_rack(demo_db, "C02"))
    assert panel.data().power.redundancy == RedundancyState.OK
    assert any(t == "N redundancy: Redundant" for t in _texts(panel.scene()))


def test_power_tab_lists_feeds_supplies_and_the_room(qtbot, demo_db):
    tab = RackPowerPanel(demo_db)
    qtbot.addWidget(tab)
    tab.load_rack(_rack(demo_db, "C06"))
    assert tab.feeds.rowCount() == 2 and tab.supplies.rowCount() == 10  # five servers × two supplies
    assert "With A side lost, feed PP-B/C06-B would carry 3.25 kW, over its limit of 2.82 kW" in tab.problems.text()
    assert tab.room.item(0, 0).text().endswith("C06")  # the failing rack first
    dlg = tab.open_list()
    qtbot.addWidget(dlg)
    panels, feeds = dlg.tabs.widget(0), dlg.tabs.widget(1)
    # the A/B row's eight feeds and three to leased racks A01 (A, B) and A03 (A only): app/demo/operations.py
    assert panels.rowCount() == 2 and feeds.rowCount() == 11
