"""The GPU clusters page under the real main window (issue 25): the demo's H100 fabric drawn
(2 spines, 8 rail leaves, 12 nodes), a node drained and undrained with a reason (who and when in
the list), a refusal shown under the buttons; the auditor may look but not drain."""
from __future__ import annotations

from app.services.users import login
from models.choices import NodeState


def _page(qtbot, db, actor):
    from ui.pages.clusters import ClustersPage
    from ui.shell.mainwindow import MainWindow
    w = MainWindow(db, actor)
    qtbot.addWidget(w)
    w.show()
    w.show_page("clusters")
    page = w.findChild(ClustersPage)
    qtbot.waitUntil(lambda: bool(page.loaded and page.clusters))
    row = next(i for i, c in enumerate(page.clusters) if c.name == "FZ-H100-NDR-01")
    page.cluster_table.selectRow(row)
    return w, page


def test_drain_and_undrain_from_the_node_list(qtbot, demo_db):
    admin = login(demo_db, "admin", "demo1234")
    _w, page = _page(qtbot, demo_db, admin)
    t = page.topo
    assert (len(t.spines), len(t.leaves), len(t.nodes)) == (2, 8, 12)
    assert [r for _d, _n, r in t.leaves] == list(range(1, 9)) and len(t.node_links) == 96
    assert len(page.view.node_rects) == 12
    i = next(k for k, n in enumerate(page.nodes) if n.name == "h100-fz-ndr-05")
    page.tabs.setCurrentIndex(1)
    page.node_table.selectRow(i)
    assert page.drain_btn.isEnabled() and not page.undrain_btn.isEnabled()
    page.drain()  # no reason: refused, said under the buttons, nothing changes
    assert "say why" in page.message.text() and page.current_node().state == NodeState.AVAILABLE
    page.reason.setText("光模块更换 optics swap")
    page.drain()
    qtbot.waitUntil(lambda: page.current_node() is not None and page.current_node().state == NodeState.DRAINING)
    n = page.current_node()
    assert (n.reason, n.by) == ("光模块更换 optics swap", "admin")
    assert page.node_model.index(i, 1).data() == "Draining"
    page.reason.setText("optics replaced")
    page.undrain()
    qtbot.waitUntil(lambda: page.current_node().state == NodeState.AVAILABLE)
    triaged = [n.name for n in page.nodes if n.state == NodeState.TRIAGE]
    assert len(triaged) == 1 and page.event_model.rowCount() >= 1  # the demo's XID 79


def test_the_auditor_looks_but_does_not_drain(qtbot, demo_db):
    actor = login(demo_db, "zhaomin", "demo1234")  # the demo's auditor
    _w, page = _page(qtbot, demo_db, actor)
    page.tabs.setCurrentIndex(1)
    page.node_table.selectRow(0)
    assert not page.drain_btn.isEnabled() and not page.move_btn.isEnabled()
