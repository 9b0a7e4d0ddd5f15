"""Cross-connects in the console (issue 15): the list page with its moves and LOA, and the
elevation refusing Place/Reserve on units leased to a customer (the rule: app/services/space.py)."""
from __future__ import annotations

from sqlalchemy import select

from app.services.users import login
from models import CrossConnect, Rack, Room, Site
from ui.widgets.rack_elevation import RackPanel


def _shared(db):
    with db.session() as s:
        room = s.execute(select(Room.id).join(Site).where(Site.code == "SH-ZJ1")).scalar_one()
        return s.execute(select(Rack.id).where(Rack.room_id == room, Rack.name == "A05")).scalar_one()


def test_elevation_refuses_reserve_and_places_only_the_lessees_devices(qtbot, demo_db):
    from ui.pages.rackforms import PlaceDeviceDialog
    shared = _shared(demo_db)
    actor = login(demo_db, "admin", "demo1234")
    panel = RackPanel(demo_db, actor)
    qtbot.addWidget(panel)
    panel.resize(640, 1000)
    panel.load_rack(shared)
    lessee = panel.data().leases[0]  # U1–U14
    leased_free = next(u for u in range(lessee.u_from, lessee.u_to + 1) if u in panel.data().free_units("front"))
    menu = panel.menu_for(panel.scene_point("front", leased_free + 0.5))
    acts = {a.objectName(): a for a in menu.actions()}
    for name in ("reserveUnit", "reserveBlock"):
        if name in acts:
            assert not acts[name].isEnabled()
            assert f"leased to {lessee.customer_name}" in acts[name].toolTip()
    assert not acts["reserveUnit"].isEnabled()
    assert lessee.customer_name in acts["placeDevice"].text() and acts["placeDevice"].isEnabled()
    dlg = PlaceDeviceDialog(demo_db, actor, shared, "front", leased_free)
    qtbot.addWidget(dlg)
    owner = dlg.editors["owner_customer_id"]
    assert owner.currentData() == lessee.customer_id and not owner.isEnabled()
    # U30 is nobody's: both offered as before
    menu = panel.menu_for(panel.scene_point("front", 30.5))
    acts = {a.objectName(): a for a in menu.actions()}
    assert acts["placeDevice"].isEnabled() and acts["reserveUnit"].isEnabled()
    assert acts["placeDevice"].text().startswith(("Place a device at", "在 U"))


def test_unit_offer_rule():
    import datetime as dt

    from app.read.space import LeaseRow
    from app.services.space import unit_offer
    rows = [LeaseRow(1, 9, 7, "甲公司", None, 1, 14, dt.date(2026, 1, 1), None, None, None),
            LeaseRow(2, 9, 8, "乙公司", "front", 15, 28, dt.date(2026, 1, 1), dt.date(2026, 12, 31), None, None)]
    assert unit_offer(rows, "front", 30, 31).place_refusal is None and unit_offer(rows, "front", 30, 31).lessee is None
    o = unit_offer(rows, "rear", 20, 20)
    assert o.lessee is None and o.reserve_refusal is None  # 乙 leases the front face only
    o = unit_offer(rows, "front", 5, 5)
    assert (o.lessee_id, o.place_refusal) == (7, None) and "leased to 甲公司" in o.reserve_refusal
    o = unit_offer(rows, "front", 10, 20)
    assert o.lessee_id is None and "mix leased and other units" in o.place_refusal


def test_cross_connect_page_moves_and_refuses(qtbot, demo_db):
    from ui.pages.xconnects import XconnectsPage
    page = XconnectsPage(demo_db, login(demo_db, "admin", "demo1234"))
    qtbot.addWidget(page)
    page.resize(1400, 600)
    page.show()
    assert page.model.rowCount() == 4
    page.select("XC-000004")  # disconnected: final
    assert not page.move_btn.isEnabled() and page.move_to.count() == 0
    page.select("XC-000002")  # installed → active or disconnected
    assert [page.move_to.itemData(i) for i in range(page.move_to.count())] == ["active", "disconnected"]
    page.move_to.setCurrentIndex(0)
    page.circuit.setText("ALI-EC-0099")
    op = page.move()
    qtbot.waitUntil(lambda: op.dialog is None or not op.dialog.isVisible(), timeout=10000)
    qtbot.waitUntil(lambda: any(r.reference == "XC-000002" and r.state == "active" for r in page.rows), timeout=10000)
    with demo_db.session() as s:
        assert s.execute(select(CrossConnect.circuit_id).where(CrossConnect.reference == "XC-000002")).scalar_one() \
            == "ALI-EC-0099"
    page.loa_lang.setCurrentIndex(page.loa_lang.findData("en"))
    opened = []
    page.loa(on_ready=opened.append)
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    qtbot.addWidget(opened[0])
    assert opened[0].path.read_bytes().startswith(b"%PDF")
    with demo_db.session() as s:
        from models import AuditEvent
        last = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()
    assert (last.action, last.object_type, last.object_label) == ("print", "loa", "XC-000002")


def test_a_contract_item_sells_cross_connects_with_an_installation_price(qtbot, demo_db):
    from decimal import Decimal

    from ui.pages.contracts.editor import ContractDialog
    dlg = ContractDialog(demo_db, login(demo_db, "lina", "demo1234"))
    qtbot.addWidget(dlg)
    dlg.header["customer_id"].setCurrentIndex(1)
    it = dlg.item_edit
    it["kind"].setCurrentIndex(it["kind"].findData("xconnect"))
    assert not dlg.item_form.isRowVisible(it["rack_id"].parentWidget())
    assert dlg.item_form.isRowVisible(it["setup_price"].parentWidget())
    it["description"].setText("交叉连接（单模光纤）")
    it["unit_price"].setText("1500")
    it["quantity"].setText("2")
    it["setup_price"].setText("3000")
    assert dlg.save(), dlg.message.text()
    item = dlg.saved.items[0]
    assert (item.kind, item.setup_price, item.quantity) == ("xconnect", Decimal("3000"), Decimal("2"))


def test_ordering_from_the_page_and_a_refusal_in_the_form(qtbot, demo_db):
    from ui.pages.xconnects import XconnectsPage
    shared = _shared(demo_db)
    page = XconnectsPage(demo_db, login(demo_db, "admin", "demo1234"))
    qtbot.addWidget(page)
    page.show()
    panel = RackPanel(demo_db)
    panel.load_rack(shared)
    lessee = panel.data().leases[0].customer_id
    dlg = page.order()
    e = dlg.editors
    e["customer_id"].setCurrentIndex(e["customer_id"].findData(lessee))
    e["rack"].setText("SH-ZJ1/3F 智算机房/B01")  # the cage: another customer's space
    e["panel"].setText("PP-A05-01")
    e["port"].setText("9")
    e["peer_kind"].setCurrentIndex(e["peer_kind"].findData("carrier"))
    e["peer_name"].setText("中国移动")
    dlg.save()
    assert dlg.isVisible() and "leases no space in rack" in dlg.message.text()
    e["rack"].setText("SH-ZJ1/3F 智算机房/A05")
    e["mmr"].setText("MMR-ODF-01/9")
    dlg.save()
    assert dlg.saved_id is not None, dlg.message.text()
    qtbot.waitUntil(lambda: page.model.rowCount() == 5, timeout=10000)
    assert any(r.peer_name == "中国移动" and r.mmr_port == "9" and r.state == "ordered" for r in page.rows)
