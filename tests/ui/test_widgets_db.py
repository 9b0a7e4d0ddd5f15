"""The database-aware panels: a rack move through the service, refused and accepted."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMessageBox

from models import Device
from ui.widgets.charts import DashboardCharts
from ui.widgets.rack_elevation import RackPanel
from ui.widgets.room_view import RoomPanel

from tests.read.test_viewdata import build_estate
from test_widgets import drag

D = Decimal


def _target(panel, unit: int, height: int) -> QPointF:
    return QPointF(panel.scene_point("front", unit).x(), panel.y_of(D(unit), D(height)) + height * 10)


def test_rack_panel_move_refused_then_accepted(qtbot, db, operator):
    ids = build_estate(db)
    panel = RackPanel(db, operator)
    qtbot.addWidget(panel)
    panel.resize(600, 900)
    panel.show()
    with db.session() as s:  # A01 is leased whole to the kvm's owner: only that customer's devices move in it
        s.get(Device, ids["dev_srv"]).owner_customer_id = s.get(Device, ids["dev_kvm"]).owner_customer_id
        s.commit()
    panel.load_rack(ids["a01"])
    assert panel.editable
    panel.ask_reason = lambda device, position, face: "re-cabling"      # the confirmation, answered
    # someone else mounts a device at U20-U21 after we loaded: our picture still shows it free
    with db.session() as s:
        s.add(Device(name="sneaky", device_type_id=s.get(Device, ids["dev_srv"]).device_type_id,
                     rack_id=ids["a01"], position=D(22), face="front"))
        s.commit()
    block = panel.block(ids["dev_srv"])
    drag(panel, block, _target(panel, 22, 2))
    box = panel.findChild(QMessageBox, "moveRefused")
    assert box is not None and "overlap" in box.text()
    assert block.pending is None
    assert block.scenePos().y() == panel.y_of(D(10), D(2)) + 0.5          # snapped back to U10
    with db.session() as s:
        assert s.get(Device, ids["dev_srv"]).position == D(10)
    box.close()
    with qtbot.waitSignal(panel.moved):
        drag(panel, panel.block(ids["dev_srv"]), _target(panel, 14, 2))
    with db.session() as s:
        assert s.get(Device, ids["dev_srv"]).position == D(14)
    assert panel.data().device(ids["dev_srv"]).position == D(14)          # reloaded


def test_auditor_sees_a_read_only_rack(qtbot, db, auditor):
    ids = build_estate(db)
    panel = RackPanel(db, auditor)
    qtbot.addWidget(panel)
    panel.load_rack(ids["a01"])
    assert not panel.editable and "may not" in panel.read_only_reason


def test_room_panel_and_dashboard_load(qtbot, db):
    ids = build_estate(db)
    room = RoomPanel(db)
    qtbot.addWidget(room)
    room.load_room(ids["room"])
    assert len(room.floor.cells) == 4 and {ids["a01"], ids["a02"], ids["a03"]} <= set(room.floor.cells)
    dash = DashboardCharts(db)
    qtbot.addWidget(dash)
    dash.refresh(background=False)
    assert dash.data().gpu_total == 11
    assert dash.revenue.showing_chart
