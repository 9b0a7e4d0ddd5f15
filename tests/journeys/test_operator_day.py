"""The operator's day under the real main window, in English and Chinese, on the demo data:
find 4 free U, place a 4U GPU server there, install 8 GPUs into its slots from stock,
burn-in -> available, one GPU to RMA with a reason; then check the database."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from app.services.common import create_record
from app.services.gpus import transition_gpu
from app.services.users import login
from models import AuditEvent, Device, DeviceType, GpuAsset, GpuHistory
from models.choices import GpuState
from ui.shell.i18n import install_translators
from tests.conftest import across_backends

DEMO_PASSWORD = "demo1234"


@pytest.fixture
def language(qapp):
    def use(lang):
        install_translators(QApplication.instance(), lang)
    yield use
    install_translators(QApplication.instance(), "en")


def _stock(db, model_id):
    with db.session() as s:
        return s.execute(select(func.count()).select_from(GpuAsset).where(
            GpuAsset.device_id.is_(None), GpuAsset.gpu_model_id == model_id,
            GpuAsset.state == GpuState.RECEIVED)).scalar_one()


def _wait(qtbot, op):
    with qtbot.waitSignal(op.done, timeout=30000):
        pass


@pytest.mark.slow
@across_backends("demo_db", "lang", ["en", "zh"])   # the day in each language; each backend once
def test_operator_day(qtbot, demo_db, language, lang):
    from ui.kit.forms import DeviceDialog, open_form
    from ui.shell.mainwindow import MainWindow
    from ui.pages.rackforms import PlaceDeviceDialog
    language(lang)
    db = demo_db
    wanglei = login(db, "wanglei", DEMO_PASSWORD)
    admin = login(db, "admin", DEMO_PASSWORD)
    with db.session() as s:
        server_type = s.execute(select(DeviceType).where(DeviceType.u_height == 4, DeviceType.gpu_slots == 8,
                                                          DeviceType.gpu_model_id.is_not(None))
                                .order_by(DeviceType.id)).scalars().first()
        type_id, model_id = server_type.id, server_type.gpu_model_id
    # the morning's delivery: enough GPUs of the server's model on the shelf, received
    for i in range(max(0, 8 - _stock(db, model_id))):
        gid = create_record(db, admin, "gpu", {"serial": f"DAY-{lang}-{i:02d}", "gpu_model_id": model_id})
        transition_gpu(db, admin, gid, "received", "delivery")
    assert _stock(db, model_id) >= 8

    window = MainWindow(db, wanglei)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.show_page("racks")

    # 1. find 4 U free (full depth, our own equipment, whole fleet) and place the server there
    window.find_free_button.click()
    finder = window.free_dialog
    finder.choose_type(type_id)         # its height (4U), depth and typical draw
    assert finder.units.value() == 4 and finder.full_depth.isChecked() and finder.scope.currentData() is None
    found = finder.search()
    assert found and finder.status.text() != ""
    pick = finder.selected()
    assert pick is found[0] and pick.u_to - pick.u_from == 3 and pick.lessee_name is None
    finder.place_btn.click()
    assert window.rack_panel.rack_id == pick.rack_id
    form = window.rack_form
    assert isinstance(form, PlaceDeviceDialog)
    assert form.editors["position"].text() == str(pick.u_from) and form.editors["face"].currentData() == "front"
    form.editors["name"].setText(f"gpu-day-{lang}")
    form.editors["serial"].setText(f"SN-DAY-{lang}")
    assert form.editors["device_type_id"].currentData() == type_id
    form.save()
    assert form.result() == 1, form.message.text()
    server = form.saved_id
    finder.close()

    # 2. the device form's slot grid: 8 GPUs from stock into slots 1-8
    dlg = open_form(db, wanglei, "device", server, window)
    qtbot.addWidget(dlg)
    assert isinstance(dlg, DeviceDialog) and dlg.slots is not None
    grid = dlg.slots
    for n in range(1, 9):
        grid.select_slot(n)
        grid.stock.setCurrentIndex(0)
        grid.reason.setText("rack-up")
        assert grid.install(), grid.message.text()
    assert all(s.gpu_id for s in grid.data.slots)
    assert not grid.install_btn.isEnabled()
    gpu_ids = [s.gpu_id for s in grid.data.slots]
    dlg.close()

    # 3. burn-in, then available; one GPU fails burn-in and goes to RMA with a reason
    window.show_page("gpus")
    gpus = window.lists["gpus"]
    _wait(qtbot, gpus.run_moves(gpu_ids, "burn_in", "burn-in started"))
    _wait(qtbot, gpus.run_moves(gpu_ids[:7], "available", "burn-in passed 48 h"))
    _wait(qtbot, gpus.run_moves(gpu_ids[7:], "rma", "ECC errors during burn-in"))

    with db.session() as s:
        dev = s.get(Device, server)
        assert (dev.rack_id, dev.position, dev.face) == (pick.rack_id, pick.u_from, "front")
        placed = {g.slot: g for g in s.execute(select(GpuAsset).where(GpuAsset.device_id == server)).scalars()}
        assert sorted(placed) == list(range(1, 8))     # the RMA GPU left slot 8 (back to the vendor)
        assert [placed[n].state for n in range(1, 8)] == ["available"] * 7
        rma = s.get(GpuAsset, gpu_ids[7])
        assert (rma.state, rma.device_id, rma.slot) == ("rma", None, None)
        last = s.execute(select(GpuHistory).where(GpuHistory.gpu_id == rma.id)
                         .order_by(GpuHistory.id.desc())).scalars().first()
        assert (last.from_state, last.to_state, last.reason, last.actor_login) == (
            "burn_in", "rma", f"ECC errors during burn-in (taken out of {dev.name} slot 8)", "wanglei")
        installs = s.execute(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "gpu.install", AuditEvent.actor_login == "wanglei")).scalar_one()
        assert installs == 8
