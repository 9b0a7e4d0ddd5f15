"""The console by keyboard: Enter on a list row opens it (Devices, Audit log); Ctrl+0 is the audit
log; the device dialog's slot tab offers Close, not a Cancel that would undo nothing; the find-free-U
list follows a placement."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from app.services.dcim import place_device
from tests.support.builders import build_types


def test_enter_on_a_row_opens_it(qtbot, db, admin, estate, monkeypatch):
    from ui.pages.audit import AuditPage
    from ui.kit.listview import ListPage
    types = build_types(db, admin)
    device = place_device(db, admin, dict(name="kb-srv-01", device_type_id=types["gpu_server"],
                                          rack_id=estate.rack_ids[0], position=10))
    page = ListPage(db, admin, "device")
    qtbot.addWidget(page)
    page.show()
    page.model.ensure_loaded()
    page.select_record(device)
    opened = []
    monkeypatch.setattr(page, "open_id", opened.append)     # the form itself is modal
    page.view.setFocus()
    for key in (Qt.Key_Return, Qt.Key_Enter):
        QTest.keyClick(page.view, key)
    assert opened == [device, device]

    audit = AuditPage(db, admin)
    qtbot.addWidget(audit)
    audit.show()
    audit.list.model.ensure_loaded()
    audit.list.view.selectRow(0)
    audit.list.view.setFocus()
    QTest.keyClick(audit.list.view, Qt.Key_Return)
    assert audit.event_dialog is not None and audit.event_dialog.detail.seq == int(audit.list.view.current_id())


def test_ctrl_0_is_the_audit_log(qtbot, db, admin, estate):
    from ui.shell.mainwindow import PAGE_IDS, MainWindow
    w = MainWindow(db, admin)
    qtbot.addWidget(w)
    w.show()
    act = w.findChild(QAction, "actPage10")
    assert act is not None and act.shortcut() == QKeySequence("Ctrl+0")
    act.trigger()
    assert PAGE_IDS[w.nav.currentRow()] == "audit"
    assert w.findChild(QAction, "actPage1").shortcut() == QKeySequence("Ctrl+1")


def test_slot_tab_offers_close_not_cancel(qtbot, db, admin, operator, estate):
    from ui.kit.forms import open_form
    types = build_types(db, admin)
    server = place_device(db, admin, dict(name="kb-srv-02", device_type_id=types["gpu_server"],
                                          rack_id=estate.rack_ids[0], position=20))
    dlg = open_form(db, operator, "device", server)
    qtbot.addWidget(dlg)
    dlg.show()
    save, cancel = dlg.buttons.button(QDialogButtonBox.Save), dlg.buttons.button(QDialogButtonBox.Cancel)
    assert save.isVisible() and cancel.text() == "Cancel"
    dlg.tabs.setCurrentWidget(dlg.slots)
    assert not save.isVisible() and cancel.text() == "Close"
    dlg.tabs.setCurrentIndex(0)
    assert save.isVisible() and cancel.text() == "Cancel"


def test_find_free_units_follows_a_placement(qtbot, db, admin, estate):
    from ui.pages.freespace import FindFreeUnitsDialog
    from ui.shell.operations import apply
    types = build_types(db, admin)
    dlg = FindFreeUnitsDialog(db)
    qtbot.addWidget(dlg)
    dlg.units.setValue(4)
    first = dlg.search()
    assert first
    top = first[0]
    placed = apply(lambda: place_device(db, admin, dict(name="kb-srv-03", device_type_id=types["gpu_server"],
                                                        rack_id=top.rack_id, position=top.u_from)))
    assert placed
    after = dlg.results
    assert after != first                              # asked again after the placement was announced
    assert all(not (r.rack_id == top.rack_id and r.u_from <= top.u_from <= r.u_to) for r in after)


def test_a_record_chosen_by_the_console_is_the_only_one_selected_while_shift_is_held(qtbot, db, admin, estate):
    """Search, a shortcut or a panel choosing a row selects that row alone, whatever keys are down: Qt's
    `selectRow` reads the keyboard and, with Shift held (a Ctrl+Shift+… shortcut still down), extended
    the selection instead, so the panel that follows the selection showed nothing."""
    from ui.kit.listview import ListPage
    types = build_types(db, admin)
    ids = [place_device(db, admin, dict(name=f"kb-sel-{n}", device_type_id=types["gpu_server"],
                                        rack_id=estate.rack_ids[0], position=10 + 4 * n)) for n in range(2)]
    page = ListPage(db, admin, "device")
    qtbot.addWidget(page)
    page.show()
    page.model.ensure_loaded()
    assert page.select_record(ids[0]) and page.view.current_id() == ids[0]
    QTest.keyPress(page.view, Qt.Key_Shift, Qt.ShiftModifier)   # Qt now holds Shift down
    try:
        assert page.select_record(ids[1])
        assert page.view.selected_ids() == [ids[1]] and page.view.current_id() == ids[1]
    finally:
        QTest.keyRelease(page.view, Qt.Key_Shift, Qt.NoModifier)
