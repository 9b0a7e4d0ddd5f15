"""The device form's GPU slot grid: install from stock, move, remove, refusals shown."""
from __future__ import annotations

from sqlalchemy import select

from app.read import queries
from app.services.dcim import place_device
from app.services.gpus import install_gpu, transition_gpu
from models import AuditEvent, GpuAsset
from tests.support.builders import build_types


def _server(db, admin, estate):
    types = build_types(db, admin)
    return place_device(db, admin, dict(name="gpu-slots-01", device_type_id=types["gpu_server"],
                                        rack_id=estate.rack_ids[0], position=10)), types


def test_slot_grid_install_move_remove_and_refusals(qtbot, db, admin, operator, auditor, estate):
    from app.services.common import create_record
    from ui.kit.forms import DeviceDialog, open_form
    server, types = _server(db, admin, estate)
    gpus = [create_record(db, admin, "gpu", {"serial": f"L40S-S{i}", "gpu_model_id": types["l40s"]}) for i in range(3)]
    for g in gpus:
        transition_gpu(db, admin, g, "received", "delivered")
    dlg = open_form(db, operator, "device", server)
    qtbot.addWidget(dlg)
    assert isinstance(dlg, DeviceDialog) and dlg.slots is not None
    grid = dlg.slots
    assert len(grid.buttons) == 8 and grid.stock.count() == 3
    assert "8" in dlg.tabs.tabText(1)

    grid.select_slot(3)
    assert grid.install_btn.isEnabled() and not grid.remove_btn.isEnabled()
    grid.stock.setCurrentIndex(1)
    assert grid.stock.currentText().startswith("L40S-S1")
    grid.reason.setText("rack-up")
    grid.install_btn.click()
    assert "installed into slot 3" in grid.message.text()
    with db.session() as s:
        g = s.get(GpuAsset, gpus[1])
        assert (g.device_id, g.slot) == (server, 3)
    assert "L40S-S1" in grid.group.button(3).text() and grid.stock.count() == 2

    grid.select_slot(3)
    grid.target.setCurrentIndex(grid.target.findData(7))
    grid.move_btn.click()
    with db.session() as s:
        assert s.get(GpuAsset, gpus[1]).slot == 7

    # stale: someone else moved it meanwhile -> refused, reloaded
    grid.select_slot(7)
    install_gpu(db, admin, gpus[1], server, 8, "behind the grid's back")
    grid.target.setCurrentIndex(grid.target.findData(1))
    grid.move_btn.click()
    assert not grid.message.isHidden() and "someone else" in grid.message.text()
    with db.session() as s:
        assert s.get(GpuAsset, gpus[1]).slot == 8

    # a leased GPU cannot be taken out: the service's refusal is shown
    for st in ("burn_in", "available", "leased"):
        transition_gpu(db, admin, gpus[1], st, st)
    grid.reload()
    grid.select_slot(8)
    grid.remove_btn.click()
    assert "leased" in grid.message.text()
    transition_gpu(db, admin, gpus[1], "available", "lease ended")
    grid.reload()
    grid.select_slot(8)
    grid.remove_btn.click()
    with db.session() as s:
        assert s.get(GpuAsset, gpus[1]).device_id is None
        actions = [a for (a,) in s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "gpu",
                                                                           AuditEvent.object_id == str(gpus[1])))]
    assert actions.count("gpu.install") == 1 and actions.count("gpu.move") == 2 and "gpu.uninstall" in actions
    assert [s.slot for s in queries.gpu_slots(db, server).slots if s.gpu_id] == []

    ro = open_form(db, auditor, "device", server, read_only=True)
    qtbot.addWidget(ro)
    ro.slots.select_slot(1)
    assert not ro.slots.install_btn.isEnabled()


def test_slot_grid_offers_only_installable_stock(qtbot, db, admin, operator, estate):
    from app.services.common import create_record
    from ui.kit.forms import open_form
    server, types = _server(db, admin, estate)
    paths = {"L40S-OK": ["received", "burn_in", "available"],
             "L40S-MAINT": ["received", "burn_in", "available", "maintenance"], "L40S-RMA": ["received", "burn_in", "rma"]}
    for serial, path in paths.items():
        g = create_record(db, admin, "gpu", {"serial": serial, "gpu_model_id": types["l40s"]})
        for st in path:
            transition_gpu(db, admin, g, st, st)
    dlg = open_form(db, operator, "device", server)
    qtbot.addWidget(dlg)
    grid = dlg.slots
    assert [grid.stock.itemText(i).split(" · ")[0] for i in range(grid.stock.count())] == ["L40S-OK"]
