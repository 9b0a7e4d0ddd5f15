"""Plan a maintenance window through the real dialog (issue 24): refused without the work said, an
emergency without its reason, a UPS without its site; saved with Enter on the chosen feed, the
window then chosen in the tab; Esc leaves without writing."""
from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from app.services.users import login
from tests.operations.conftest import rows_of
from models import MaintenanceWindow


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_plan_a_maintenance_window_through_the_form(qtbot, demo_db, language, lang):
    from ui.pages.operations.maintenance import MaintenanceTab
    language(lang)
    tab = MaintenanceTab(demo_db, login(demo_db, "admin", "demo1234"))
    qtbot.addWidget(tab)
    before = rows_of(demo_db, MaintenanceWindow)
    assert tab.plan_btn.isEnabled()
    dlg = tab.plan()
    qtbot.waitExposed(dlg)
    dlg.kind.setCurrentIndex(dlg.kind.findData("feed"))
    assert dlg.target.count() > 0 and not dlg.site.isEnabled()
    qtbot.keyClick(dlg, Qt.Key_Return)                       # no work said: refused, nothing written
    assert dlg.isVisible() and dlg.error.isVisible() and rows_of(demo_db, MaintenanceWindow) == before
    dlg.title.setText("A 路供电检修 / feed A maintenance")
    dlg.emergency.setChecked(True)
    assert dlg.reason.isEnabled()
    qtbot.keyClick(dlg, Qt.Key_Return)                       # an emergency says why
    assert dlg.isVisible() and rows_of(demo_db, MaintenanceWindow) == before
    dlg.emergency.setChecked(False)
    dlg.kind.setCurrentIndex(dlg.kind.findData("ups"))
    assert dlg.site.isEnabled()
    dlg.target.setEditText("UPS-A")
    qtbot.keyClick(dlg, Qt.Key_Return)                       # a UPS is named within its site
    assert dlg.isVisible() and rows_of(demo_db, MaintenanceWindow) == before
    dlg.kind.setCurrentIndex(dlg.kind.findData("feed"))
    dlg.target.setCurrentIndex(1)
    feed_id, label = dlg.target.itemData(1), dlg.target.itemText(1)
    dlg.end.setDateTime(dlg.start.dateTime().addSecs(-3600))
    qtbot.keyClick(dlg, Qt.Key_Return)                       # ends before it starts
    assert dlg.isVisible() and rows_of(demo_db, MaintenanceWindow) == before
    dlg.end.setDateTime(dlg.start.dateTime().addSecs(3 * 3600))
    with qtbot.waitSignal(dlg.planned) as planned:
        qtbot.keyClick(dlg, Qt.Key_Return)
    with demo_db.session() as s:
        w = s.get(MaintenanceWindow, planned.args[0])
        assert (w.target_kind, w.power_feed_id, w.state, w.emergency) == ("feed", feed_id, "tentative", False)
        assert w.planned_end - w.planned_start == dt.timedelta(hours=3)
    assert tab.current().id == planned.args[0] and label.split(" / ")[-1] in tab.current().target
    dlg2 = tab.plan()
    dlg2.title.setText("never saved")
    qtbot.keyClick(dlg2, Qt.Key_Escape)
    assert not dlg2.isVisible() and rows_of(demo_db, MaintenanceWindow) == before + 1
