"""Widgets drawn from hand-made read models (no database) plus the database-aware panels."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from app.read import viewdata as vd
from ui.widgets.charts import DashboardWidget, nice_range
from ui.widgets.rack_elevation import RackElevationView
from ui.widgets.region_tree import RegionTreePanel
from ui.widgets.room_view import RoomView
from ui.widgets.site_plot import SitePlotView

D = Decimal
TODAY = dt.date(2026, 11, 30)


def dev(id, name, pos, height, face="front", full=True, owner=None, status="active"):
    return vd.ElevationDevice(id=id, name=name, model="Acme X", role="server", owner_id=owner,
                              owner_name=None if owner is None else f"客户{owner}", position=pos, height=D(height),
                              face=face, full_depth=full, status=status, colour=vd.owner_colour(owner),
                              typical_power_w=500)


def elevation(devices, reservations=()):
    return vd.RackElevationData(
        rack_id=1, name="A01", status="leased", site_code="FZ1", site_name="福州一号机房", room_id=1,
        room_name="A101", u_height=42, power_capacity_kw=D("8.00"), typical_draw_kw=D("2.50"),
        lessee_name="星河智算", devices=tuple(devices), reservations=tuple(reservations),
        free_front=vd.free_units(42, devices, "front"), free_rear=vd.free_units(42, devices, "rear"))


@pytest.fixture
def rack(qtbot):
    devices = [dev(1, "gpu-01", D(1), 8), dev(2, "srv-02", D(10), 2, owner=3),
               dev(3, "sw-03", D(42), 1, full=False), dev(4, "patch", D(40), 1, face="rear", full=False),
               dev(5, "pdu", None, 0, face=None, full=False)]
    res = [vd.ElevationReservation(7, 3, "海风渲染", "front", 30, 33, TODAY, None, vd.owner_colour(3))]
    view = RackElevationView()
    qtbot.addWidget(view)
    view.resize(600, 900)
    view.show()
    view.set_data(elevation(devices, res))
    return view


def drag(view, block, to_scene: QPointF):
    """Press on the block's middle, move to `to_scene` (where the block's middle should go), release."""
    start = block.mapToScene(block.rect().center())
    a = view.mapFromScene(start)
    b = view.mapFromScene(to_scene)
    vp = view.viewport()
    for kind, pos, buttons in ((QEvent.MouseButtonPress, a, Qt.LeftButton), (QEvent.MouseMove, (a + b) / 2, Qt.LeftButton),
                               (QEvent.MouseMove, b, Qt.LeftButton), (QEvent.MouseButtonRelease, b, Qt.NoButton)):
        ev = QMouseEvent(kind, QPointF(pos), QPointF(vp.mapToGlobal(pos)), Qt.LeftButton, buttons, Qt.NoModifier)
        QApplication.sendEvent(vp, ev)


def test_elevation_blocks(rack):
    # four mounted devices, the 0U PDU is listed, not drawn
    assert rack.block_count() == 4
    assert rack.block_count("front") == 3 and rack.block_count("rear") == 1
    # full-depth gpu and server cast shadows on the rear
    assert rack.block_count(ghosts=True) == 6
    gpu = rack.block(1)
    assert gpu.rect().height() == pytest.approx(8 * 20 - 1)
    # U1 is at the bottom: the gpu's top edge is 8 units above the rack's bottom edge
    assert gpu.scenePos().y() == pytest.approx(rack.rack_top + (42 - 8) * 20 + 0.5)
    assert rack.unit_at(rack.scene_point("front", 1)) == ("front", 1)
    assert rack.unit_at(rack.scene_point("rear", 42)) == ("rear", 42)


def test_elevation_labels_render_chinese(rack):
    texts = [i.text() for i in rack.scene().items() if hasattr(i, "text")]
    assert any("星河智算" in t for t in texts)
    assert any("海风渲染" in t for t in texts)
    assert any("pdu" in t for t in texts)


def test_drag_to_free_units_requests_a_move(rack, qtbot):
    block = rack.block(2)          # srv-02, 2U at U10 front
    # drop its middle on the boundary of U20/U21: a 2U block whose middle is there starts at U20
    target = QPointF(rack.scene_point("front", 20).x(), rack.y_of(D(20), D(2)) + 20)
    with qtbot.waitSignal(rack.deviceMoveRequested) as sig:
        drag(rack, block, target)
    assert sig.args == [2, D(20), "front"]
    assert block.pending == (D(20), "front")
    # the caller's service refused: back to U10
    rack.snap_back()
    assert block.pending is None
    assert block.scenePos().y() == pytest.approx(rack.y_of(D(10), D(2)) + 0.5)


def test_drag_to_the_rear_face(rack, qtbot):
    block = rack.block(3)          # sw-03, half depth, front U42 -> rear U30
    target = rack.scene_point("rear", 30)
    with qtbot.waitSignal(rack.deviceMoveRequested) as sig:
        drag(rack, block, target)
    assert sig.args[0] == 3 and sig.args[1] == D(30) and sig.args[2] == "rear"


def test_drag_onto_a_device_snaps_back_without_asking(rack, qtbot):
    block = rack.block(2)
    with qtbot.assertNotEmitted(rack.deviceMoveRequested):
        drag(rack, block, rack.scene_point("front", 4))      # onto gpu-01
    assert block.pending is None
    assert block.scenePos().y() == pytest.approx(rack.y_of(D(10), D(2)) + 0.5)


def test_read_only_rack_does_not_drag(rack, qtbot):
    rack.set_editable(False, "auditors read only")
    block = rack.block(2)
    with qtbot.assertNotEmitted(rack.deviceMoveRequested):
        drag(rack, block, rack.scene_point("front", 20))
    menu = rack.menu_for(rack.scene_point("front", 25))
    assert all(not a.isEnabled() for a in menu.actions())


def test_double_click_activates(rack, qtbot):
    pos = rack.mapFromScene(rack.block(1).mapToScene(rack.block(1).rect().center()))
    with qtbot.waitSignal(rack.deviceActivated) as sig:
        qtbot.mouseDClick(rack.viewport(), Qt.LeftButton, pos=pos)
    assert sig.args == [1]


def test_context_menu_on_free_units(rack, qtbot):
    menu = rack.menu_for(rack.scene_point("front", 25))
    names = [a.objectName() for a in menu.actions()]
    assert names == ["placeDevice", "reserveUnit", "reserveBlock"]
    with qtbot.waitSignal(rack.placeRequested) as sig:
        menu.actions()[0].trigger()
    assert sig.args == ["front", 25]
    with qtbot.waitSignal(rack.reserveRequested) as sig:
        menu.actions()[2].trigger()
    # the free run around U25 on the front: U12 (above srv-02) .. U41 (below sw-03)
    assert sig.args == ["front", 12, 41]
    # on a device: open it; outside the rack: nothing
    assert [a.objectName() for a in rack.menu_for(rack.scene_point("front", 5)).actions()] == ["openDevice"]
    assert rack.menu_for(QPointF(-500, -500)) is None


def test_set_data_none_and_reload(rack):
    rack.set_data(None)
    assert rack.block_count() == 0
    rack.set_data(elevation([dev(9, "only", D(5), 1)]))
    assert rack.block_count() == 1 and rack.block(9) is not None


# --------------------------------------------------------------------------- room
def room_data():
    def r(id, name, row, col, pct, status="available"):
        return vd.RoomRack(id=id, name=name, grid_row=row, grid_col=col, u_height=42, used_units=D(pct) * 42 / 100,
                           utilisation_pct=D(pct), power_capacity_kw=D(8), typical_draw_kw=D(2),
                           power_pct=D(25), status=status, status_colour="#4caf50", lessee_name=None, device_count=3)
    return vd.RoomLayoutData(room_id=1, name="A101", site_code="FZ1", site_name="福州一号机房", cooling="air",
                             grid_rows=2, grid_cols=3,
                             racks=(r(1, "A01", 0, 0, 10), r(2, "A02", 0, 1, 90, "leased"), r(3, "B01", 1, 0, 0),
                                    r(4, "X9", None, None, 50)))


def test_room_click_and_toggle(qtbot):
    view = RoomView()
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    view.set_data(room_data())
    floor = view.floor
    assert set(floor.cells) == {1, 2, 3, 4}
    assert floor.cell(2).brush().color().name() == vd.utilisation_colour(90)
    pos = floor.mapFromScene(floor.cell_centre(2))
    with qtbot.waitSignal(view.rackClicked) as clicked:
        qtbot.mouseClick(floor.viewport(), Qt.LeftButton, pos=pos)
    assert clicked.args == [2]
    with qtbot.waitSignal(view.rackActivated) as activated:
        qtbot.mouseDClick(floor.viewport(), Qt.LeftButton, pos=pos)
    assert activated.args == [2]
    view.by_status.click()
    assert view.mode == "status"
    assert floor.cell(2).brush().color().name() == "#4caf50"
    assert "A02" in floor.cell(2).toolTip()


# --------------------------------------------------------------------------- dashboard
def test_dashboard_empty_and_full(qtbot):
    w = DashboardWidget()
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    w.set_data(vd.DashboardData(as_of=TODAY))
    assert not w.revenue.showing_chart and w.revenue.empty.text() == "No issued statements yet"
    assert not w.gpus.showing_chart and not w.utilisation.showing_chart
    assert w.ending_labels[30].text() == "0"
    data = vd.DashboardData(
        as_of=TODAY,
        sites=(vd.SiteUtilisation(1, "FZ1", "福州一号机房", 3, 132, D("16.5"), D("12.5"), D(24), D("7.3"), D("30.4")),),
        gpu_fleet=(vd.GpuFleetCount("H100 SXM 80GB", "leased", 6), vd.GpuFleetCount("H100 SXM 80GB", "available", 2),
                   vd.GpuFleetCount("A100 80GB", "ordered", 3)),
        ending_30=1, ending_60=2, ending_90=3,
        ending_soon=(vd.EndingContract(5, "HT-0", "星河智算", TODAY + dt.timedelta(days=10), 10),),
        revenue=(vd.RevenueMonth("2026-09", D(1500), D(1590)), vd.RevenueMonth("2026-10", D(-100), D(-106))))
    w.set_data(data)
    assert w.revenue.showing_chart and w.gpus.showing_chart and w.utilisation.showing_chart and w.power.showing_chart
    gpu_series = w.gpus.view.chart().series()[0]
    assert [s.label() for s in gpu_series.barSets()] == ["Ordered", "Available", "Leased"]
    # models listed top-down A100, H100: the horizontal axis runs bottom-up, so H100 is index 0
    assert [gpu_series.barSets()[2].at(i) for i in range(2)] == [6, 0]
    assert w.revenue.view.chart().series()[0].count() == 2
    assert [w.ending_labels[d].text() for d in (30, 60, 90)] == ["1", "2", "3"]
    assert "HT-0" in w.soonest.text() and "星河智算" in w.soonest.text()
    with qtbot.waitSignal(w.contractActivated) as sig:
        w.soonest.linkActivated.emit("contract:5")
    assert sig.args == [5]
    w.set_data(None)
    assert not w.revenue.showing_chart


def test_nice_range():
    assert nice_range(-100, 1500) == (-500, 2000, 6)
    assert nice_range(0, 0) == (0, pytest.approx(1.2), 7)


# --------------------------------------------------------------------------- sites and regions
def test_site_plot(qtbot):
    data = vd.SitePlotData(
        sites=(vd.SitePoint(1, "FZ1", "福州一号机房", "福州总部", "active", 26.08, 119.30),
               vd.SitePoint(2, "SZ1", "深圳南山机房", "深圳分公司", "active", 22.54, 113.93)),
        served=(vd.ServedRegion(2, "460100", "海口市", 20.044, 110.199, False),
                vd.ServedRegion(2, "460108", "美兰区", 20.030, 110.366, False),
                vd.ServedRegion(1, "350000", "福建省", 26.074, 119.296, True)),
        unplotted_sites=("XX1",))
    view = SitePlotView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    view.set_data(data)
    assert set(view.dots) == {1, 2}
    assert len(view.lines) == 2            # Fujian's capital is where FZ1 stands: no line
    # west is left, north is up
    assert view.site_centre(1).x() > view.site_centre(2).x() and view.site_centre(1).y() < view.site_centre(2).y()
    texts = [i.text() for i in view.scene().items() if hasattr(i, "text")]
    assert "海口市、美兰区" in texts and any("XX1" in t for t in texts)
    pos = view.mapFromScene(view.site_centre(2))
    with qtbot.waitSignal(view.siteActivated) as sig:
        qtbot.mouseDClick(view.viewport(), Qt.LeftButton, pos=pos)
    assert sig.args == [2]
    view.set_data(vd.SitePlotData((), ()))
    assert view.dots == {}


def test_region_tree_lazy_and_who_serves(qtbot, sqlite_db):
    from tests.read.test_viewdata import build_estate
    build_estate(sqlite_db)
    w = RegionTreePanel(sqlite_db)
    qtbot.addWidget(w)
    w.show()
    top = w.tree.invisibleRootItem()
    assert [top.child(i).text(0) for i in range(top.childCount())] == ["福建省", "广东省", "海南省"]
    hainan = top.child(2)
    assert hainan.childCount() == 0 and hainan.text(2) == "not covered"     # not loaded until expanded
    hainan.setExpanded(True)
    assert hainan.childCount() == 1 and hainan.child(0).text(0) == "海口市"
    w.search.setText("美兰")
    w.run_search()
    assert w.answer.isVisible() and "海南省海口市美兰区" in w.answer.text() and "via 海口市" in w.answer.text()
    assert w.tree.currentItem().text(1) == "460108"
    assert "深圳分公司 (Partner service, 24 h)" in w.tree.currentItem().text(2)
    w.search.setText("46")
    w.run_search()
    assert w.matches.count() == 4
    w.search.setText("440300")
    w.run_search()
    assert "Nobody covers" in w.answer.text()
    w.search.setText("nowhere")
    w.run_search()
    assert "No region matches" in w.answer.text()
