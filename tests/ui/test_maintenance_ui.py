"""The maintenance and site-access tabs standalone on the demo database (pytest-qt, both backends)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.services.users import login
from ui.pages.operations.maintenance import MaintenanceTab
from ui.pages.operations.visits import VisitsTab


def test_maintenance_tab_lists_the_window_its_impact_and_prints_the_notice(qtbot, demo_db):
    op = login(demo_db, "wanglei", "demo1234")
    tab = MaintenanceTab(demo_db, op)
    qtbot.addWidget(tab)
    assert tab.table.rowCount() == 1 and tab.windows[0].reference == "MW-000001"  # five days ahead: shown
    tab.scope.setCurrentIndex(tab.scope.findData("open"))
    assert tab.table.rowCount() == 1
    assert tab.impact.rowCount() == 2
    assert tab.impact.item(0, 2).text() == "Outage" and tab.impact.item(0, 1).text().endswith("A03")
    assert tab.impact.item(1, 2).text() == "Reduced redundancy"
    assert "2 customer(s)" in tab.impact_title.text()
    assert not tab.confirm_btn.isEnabled() and tab.start_btn.isEnabled()  # confirmed already
    shown = []
    op_ = tab.print_notice(on_ready=shown.append)
    qtbot.waitUntil(lambda: bool(shown), timeout=30000)
    assert tab.last_pdf.read_bytes()[:4] == b"%PDF"
    shown[0].close()
    del op_
    assert tab.move("start")
    qtbot.waitUntil(lambda: tab.windows and tab.windows[0].state == "in_progress", timeout=10000)
    assert tab.table.item(0, 1).text() == "In progress" and tab.complete_btn.isEnabled()


def test_maintenance_tab_refusal_shows_the_reason(qtbot, demo_db):
    am = login(demo_db, "lina", "demo1234")
    tab = MaintenanceTab(demo_db, am)
    qtbot.addWidget(tab)
    tab.scope.setCurrentIndex(tab.scope.findData("open"))
    assert not tab.start_btn.isEnabled() and "may not plan maintenance" in tab.start_btn.toolTip()
    assert not tab.move("start") and "may not plan maintenance" in tab.message.text()


def test_visits_tab_on_site_overstay_check_out_and_the_daily_list(qtbot, demo_db):
    op = login(demo_db, "wanglei", "demo1234")
    tab = VisitsTab(demo_db, op)
    qtbot.addWidget(tab)
    tab.site.setCurrentIndex(tab.site.findText("SH-ZJ1", flags=Qt.MatchStartsWith))
    assert tab.on_site.rowCount() == 3
    assert "3 visitor(s), 1 overstayed" in tab.here_title.text()
    assert tab.on_site.item(0, 11).text().endswith("min") and tab.on_site.item(0, 6).text() == "A05"
    assert "*" not in tab.on_site.item(0, 4).text()  # the guard desk sees the ID number
    tab.on_site.selectRow(0)
    assert tab.check_out()
    qtbot.waitUntil(lambda: tab.on_site.rowCount() == 2, timeout=10000)
    shown = []
    tab.daily_list(on_ready=shown.append)
    qtbot.waitUntil(lambda: bool(shown), timeout=30000)
    assert tab.last_pdf.read_bytes()[:4] == b"%PDF"
    shown[0].close()
    QApplication.processEvents()


def test_visits_tab_masks_ids_for_an_account_manager(qtbot, demo_db):
    am = login(demo_db, "lina", "demo1234")
    tab = VisitsTab(demo_db, am)
    qtbot.addWidget(tab)
    assert tab.on_site.rowCount() == 3
    assert all("**********" in tab.on_site.item(i, 4).text() for i in range(3))
    assert not tab.out_btn.isEnabled()
