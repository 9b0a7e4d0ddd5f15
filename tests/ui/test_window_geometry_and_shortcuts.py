"""What the lead saw in a real window: first-start geometry, Ctrl+digit pages, shortcuts by key,
warranty colours, the dashboard's legend and site axis."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from app.read import queries


@pytest.fixture
def window(qtbot, db, admin, estate):
    from ui.shell.mainwindow import MainWindow
    w = MainWindow(db, admin)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    return w


def test_first_start_takes_most_of_the_screen_centred(window):
    area = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    assert window.width() >= int(area.width() * 0.9) - 1
    assert window.height() >= int(area.height() * 0.9) - 1
    if window.width() <= area.width():       # the offscreen screen is small: centred when it fits
        assert abs(window.geometry().center().x() - area.center().x()) <= 40


def test_saved_geometry_wins(qtbot, db, admin, estate):
    from ui.shell.mainwindow import MainWindow
    from ui.shell.settings import settings
    first = MainWindow(db, admin)
    qtbot.addWidget(first)
    first.resize(610, 450)
    first.move(10, 20)
    settings().set("window/geometry", first.saveGeometry())
    again = MainWindow(db, admin)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (610, 450)


def test_ctrl_digit_opens_that_page_not_the_dashboard(qtbot, window):
    qtbot.keyClick(window, Qt.Key_5, Qt.ControlModifier)
    assert window.nav.currentRow() == 4           # GPUs
    qtbot.keyClick(window, Qt.Key_3, Qt.ControlModifier)
    assert window.nav.currentRow() == 2           # racks


def test_shortcuts_by_key_on_the_gpu_and_rack_views(qtbot, window, monkeypatch):
    from ui.kit.listview import ListPage
    calls = []
    monkeypatch.setattr(ListPage, "new_record", lambda self: calls.append(("new", self.kind)))
    monkeypatch.setattr(ListPage, "retire_selected", lambda self: calls.append(("retire", self.kind)))
    for pid, kind in (("gpus", "gpu"), ("racks", "rack")):
        window.show_page(pid)
        page = window.lists[pid]
        page.view.setFocus()
        qtbot.keyClick(page.view, Qt.Key_F, Qt.ControlModifier)
        assert page.filter.hasFocus()
        page.view.setFocus()
        qtbot.keyClick(page.view, Qt.Key_N, Qt.ControlModifier)
        qtbot.keyClick(page.view, Qt.Key_Delete)
        assert calls[-2:] == [("new", kind), ("retire", kind)]
        with qtbot.waitSignal(__import__("ui.shell.operations", fromlist=["bus"]).bus().changed, timeout=2000):
            qtbot.keyClick(page.view, Qt.Key_F5)
        qtbot.keyClick(page.view, Qt.Key_K, Qt.ControlModifier)
        dlg = window.search_dialog
        assert dlg.isVisible()
        dlg.reject()


def test_warranty_expired_and_ending_are_distinct(db, estate):
    from ui.kit.tables import WARRANTY_COLOURS, PagedTableModel
    model = PagedTableModel(db, queries.SPECS["gpu"])
    col = [c.key for c in model.columns].index("warranty_end")
    model.today = dt.date(2026, 11, 29)
    assert model.warranty_state(dt.date(2026, 1, 19)) == "expired"
    assert model.warranty_state(dt.date(2026, 11, 28)) == "expired"
    assert model.warranty_state(dt.date(2027, 2, 20)) == "ending"
    assert model.warranty_state(dt.date(2027, 6, 1)) is None
    # through data(): put a row's warranty in each band
    rows = [r for r in range(model.rowCount())]
    assert rows, "the estate has GPUs"
    idx = model.index(0, col)
    base = list(model.rows[0])
    for end, state in ((dt.date(2026, 1, 19), "expired"), (dt.date(2027, 1, 10), "ending")):
        base[col + 1] = end
        model.rows[0] = tuple(base)
        bg = model.data(idx, Qt.BackgroundRole).color().name()
        fg = model.data(idx, Qt.ForegroundRole).color().name()
        assert (bg, fg) == WARRANTY_COLOURS[state]
        assert end.isoformat() in model.data(idx, Qt.ToolTipRole)
    assert model.data(idx, Qt.FontRole) is None          # ending: not bold
    base[col + 1] = dt.date(2026, 1, 19)
    model.rows[0] = tuple(base)
    assert model.data(idx, Qt.FontRole).bold()
    assert "314" in model.data(idx, Qt.ToolTipRole)      # days since it expired


def test_dashboard_legend_has_full_state_names_and_sites_read_down(qtbot):
    from app.read import viewdata as vd
    from ui.widgets.charts import DashboardWidget
    w = DashboardWidget()
    qtbot.addWidget(w)
    w.resize(860, 700)
    w.show()
    sites = tuple(vd.SiteUtilisation(i, f"S{i}-XX1", f"第{i}数据中心", 3, 132, D("16.5"), D("12.5"), D(24),
                                     D("7.3"), D("30.4")) for i in range(7))
    fleet = tuple(vd.GpuFleetCount("H100 SXM 80GB", st, 2) for st in
                  ("ordered", "received", "burn_in", "available", "leased", "maintenance", "rma", "retired"))
    w.set_data(vd.DashboardData(as_of=dt.date(2026, 11, 29), sites=sites, gpu_fleet=fleet))
    assert w.gpus.legend_labels() == ["Ordered", "Received", "Burn-in", "Available", "Leased", "Maintenance",
                                      "RMA", "Retired"]
    assert not w.gpus.view.chart().legend().isVisible()
    axis = w.utilisation.view.chart().axes(Qt.Vertical)[0]
    assert axis.categories()[0] == "S6-XX1" and axis.categories()[-1] == "S0-XX1"   # first site at the top
    from PySide6.QtCore import QPointF
    assert "第0数据中心" in w.utilisation.tip(QPointF(50, 6))
    assert "第3数据中心" in w.power.tip(QPointF(10, 3))
    w.set_data(None)
    assert w.gpus.legend_labels() == [] and w.utilisation.tip is None
