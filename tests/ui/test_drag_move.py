"""Drag-to-move in the elevation: confirmed with a reason, cancelled, and refused when stale."""
from __future__ import annotations

import json
from decimal import Decimal

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMessageBox
from sqlalchemy import select

from app.services.dcim import update_device
from models import AuditEvent, Device
from tests.conftest import table_counts
from ui.widgets.rack_elevation import RackPanel

from tests.read.test_viewdata import build_estate
from test_widgets import drag

D = Decimal


def _target(panel, unit: int, height: int) -> QPointF:
    return QPointF(panel.scene_point("front", unit).x(), panel.y_of(D(unit), D(height)) + height * 10)


def _panel(qtbot, db, operator, ids):
    panel = RackPanel(db, operator)
    qtbot.addWidget(panel)
    panel.resize(600, 900)
    panel.show()
    with db.session() as s:  # A01 is leased whole to the kvm's owner: only that customer's devices move in it
        s.get(Device, ids["dev_srv"]).owner_customer_id = s.get(Device, ids["dev_kvm"]).owner_customer_id
        s.commit()
    panel.load_rack(ids["a01"])
    return panel


def test_drag_asks_and_records_the_reason(qtbot, db, operator):
    ids = build_estate(db)
    panel = _panel(qtbot, db, operator, ids)
    asked = []
    panel.ask_reason = lambda device, position, face: asked.append((device.name, position, face)) or None
    before = table_counts(db)
    drag(panel, panel.block(ids["dev_srv"]), _target(panel, 14, 2))
    assert asked == [("客户服务器-01", D(14), "front")]
    assert table_counts(db) == before                                        # cancelled: nothing written
    assert panel.block(ids["dev_srv"]).pending is None
    panel.ask_reason = lambda device, position, face: "make room for the switch"
    with qtbot.waitSignal(panel.moved):
        drag(panel, panel.block(ids["dev_srv"]), _target(panel, 14, 2))
    with db.session() as s:
        assert s.get(Device, ids["dev_srv"]).position == D(14)
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "device.move")).scalar_one()
        assert ev.reason == "make room for the switch" and json.loads(ev.after)["position"] in ("14", "14.0", 14)


def test_stale_drag_is_refused_as_changed_by_someone_else(qtbot, db, operator, admin):
    ids = build_estate(db)
    panel = _panel(qtbot, db, operator, ids)
    panel.ask_reason = lambda device, position, face: "tidy up"
    # someone else renames the server after we loaded the rack: its version moved on
    with db.session() as s:
        version = s.get(Device, ids["dev_srv"]).version
    update_device(db, admin, ids["dev_srv"], {"notes": "checked"}, version)
    drag(panel, panel.block(ids["dev_srv"]), _target(panel, 14, 2))
    box = panel.findChild(QMessageBox, "moveRefused")
    assert box is not None and "Changed by someone else" in box.text() and "admin" in box.text()
    with db.session() as s:
        assert s.get(Device, ids["dev_srv"]).position == D(10)
    assert panel.data().device(ids["dev_srv"]).version == version + 1          # reloaded
    box.close()


def test_move_dialog_needs_a_reason(qtbot, db):
    from ui.pages.devicemove import MoveDeviceDialog
    ids = build_estate(db)
    from app.read.viewdata import rack_elevation
    dev = rack_elevation(db, ids["a01"]).device(ids["dev_srv"])
    dlg = MoveDeviceDialog(dev, "A01", D(14), "rear")
    qtbot.addWidget(dlg)
    assert any("U10 (Front)" in lbl.text() and "U14 (Rear)" in lbl.text() for lbl in dlg.findChildren(type(dlg.error)))
    dlg._accept()
    assert dlg.result() == 0 and not dlg.error.isHidden()
    dlg.reason.setText("new PDU")
    dlg._accept()
    assert dlg.result() == 1 and dlg.value() == "new PDU"
