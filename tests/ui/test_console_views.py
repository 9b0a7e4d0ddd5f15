"""Contracts, billing, audit and the elevation's place form, on the demo data, offscreen, both backends."""
from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QDate
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from app.services.users import login
from tests.support.statements import statements_sent
from models import Contract, Device, DeviceType, Rack, Statement
from models.choices import ContractStatus

DEMO_PASSWORD = "demo1234"


def actor(db, name):
    return login(db, name, DEMO_PASSWORD)


def contract_id(db, number):
    with db.session() as s:
        return s.execute(select(Contract.id).where(Contract.number == number)).scalar_one()


def pending_contract_id(db):
    with db.session() as s:
        return s.execute(select(Contract.id).where(Contract.status == "pending_approval")).scalar_one()


def wait_op(qtbot, op, timeout=30000):
    with qtbot.waitSignal(op.done, timeout=timeout):
        pass


# --- contracts ----------------------------------------------------------------------------

def test_contract_create_refused_then_saved(qtbot, demo_db):
    from ui.pages.contracts.editor import ContractDialog
    lina = actor(demo_db, "lina")
    dlg = ContractDialog(demo_db, lina)
    qtbot.addWidget(dlg)
    h = dlg.header
    h["customer_id"].setCurrentIndex(1)
    it = dlg.item_edit
    it["kind"].setCurrentIndex(it["kind"].findData("rack"))
    it["description"].setText("机柜租赁 42U")
    it["unit_price"].setText("8000")
    it["power_allowance_kw"].setText("8")
    it["kwh_price"].setText("1.2")
    with demo_db.session() as s:
        before = s.execute(select(func.count()).select_from(Contract)).scalar_one()
    assert not dlg.save()                                   # no rack: the service refuses
    assert not dlg.item_err["rack_id"].isHidden() and "rack" in dlg.item_err["rack_id"].text()
    assert dlg.result() == 0
    assert it["description"].text() == "机柜租赁 42U" and dlg.items[0]["unit_price"] == "8000"   # input kept
    with demo_db.session() as s:
        assert s.execute(select(func.count()).select_from(Contract)).scalar_one() == before
    it["rack_id"].setCurrentIndex(1)
    assert dlg.save(), dlg.message.text()
    assert dlg.result() == 1 and dlg.saved.status == ContractStatus.DRAFT
    assert dlg.saved.items[0].rack_id == it["rack_id"].currentData()
    assert dlg.saved.items[0].power_allowance_kw == 8


def test_contract_form_proposes_the_signer_from_the_items_sites_and_the_team_from_the_region(qtbot, demo_db):
    """The owner's rule (issue 9): the subsidiary operating the site of the racks or GPUs signs; the
    customer's region decides only the serving team and response time (Haikou's 美兰区: Fuzhou at
    8 h). Before, the customer's region chose the signer; this test replaces that one."""
    from ui.pages.contracts.editor import ContractDialog
    from models import Rack, Room, Site, Subsidiary
    dlg = ContractDialog(demo_db, actor(demo_db, "lina"))
    qtbot.addWidget(dlg)
    h, it = dlg.header, dlg.item_edit
    with demo_db.session() as s:
        subs = {code: (id_, name) for id_, code, name in s.execute(select(Subsidiary.id, Subsidiary.code,
                                                                           Subsidiary.name))}
        site_of = dict(s.execute(select(Rack.id, Site.code).join(Room, Room.id == Rack.room_id)
                                 .join(Site, Site.id == Room.site_id)).all())
    h["customer_id"].setCurrentIndex(h["customer_id"].findText("海口美兰数智科技有限公司"))
    hint = dlg.coverage_hint.text()
    assert subs["FZ"][1] in hint and "美兰区" in hint and "8" in hint and not hint.startswith("⚠")
    racks = it["rack_id"]

    def pick_rack(site):
        racks.setCurrentIndex(next(i for i in range(racks.count()) if site_of.get(racks.itemData(i)) == site))
    it["kind"].setCurrentIndex(it["kind"].findData("rack"))
    it["description"].setText("机柜租赁")
    it["unit_price"].setText("6800")
    pick_rack("GZ-HP1")
    assert h["subsidiary_id"].currentData() == subs["GZ"][0]             # proposed from the rack's site
    assert "GZ-HP1" in dlg.signer_hint.text() and not dlg.signer_hint.text().startswith("⚠")
    h["subsidiary_id"].setCurrentIndex(h["subsidiary_id"].findData(subs["BJ"][0]))   # the user's choice stays
    assert dlg.signer_hint.text().startswith("⚠") and subs["GZ"][1] in dlg.signer_hint.text()
    assert h["subsidiary_id"].currentData() == subs["BJ"][0]
    dlg.add_item()
    it["kind"].setCurrentIndex(it["kind"].findData("rack"))
    pick_rack("FZ-MW1")
    warn = dlg.signer_hint.text()
    assert warn.startswith("⚠") and "GZ-HP1" in warn and "FZ-MW1" in warn


def test_a_double_click_on_a_contract_reads_it_once_not_twice(qtbot, demo_db):
    """The double-click's first click shows the contract; the open that follows reads nothing more."""
    from ui.pages.contracts.list import ContractsPage
    cid = pending_contract_id(demo_db)
    page = ContractsPage(demo_db, actor(demo_db, "admin"))
    qtbot.addWidget(page)
    page.show()
    assert page.list.select_record(cid)
    assert page.panel.info is not None and page.panel.info.id == cid
    with statements_sent(demo_db) as sent:
        page.list.open_current()               # what a double-click or Enter on the row does
    assert sent == []
    assert page.panel.info.id == cid


def test_contract_lifecycle_offers_allowed_moves_and_approves(qtbot, demo_db):
    from ui.pages.contracts.list import ContractsPage
    cid = pending_contract_id(demo_db)                       # the demo's contract awaiting approval
    lina = actor(demo_db, "lina")
    page = ContractsPage(demo_db, lina)
    qtbot.addWidget(page)
    page.panel.show_contract(cid)
    b = page.panel.buttons
    assert not b["approve"].isHidden() and not b["approve"].isEnabled()   # offered, but not to her role
    assert "李娜" in b["approve"].toolTip()                    # why not: her name and the role it needs
    assert b["submit"].isHidden() and b["activate"].isHidden()

    admin = actor(demo_db, "admin")
    page = ContractsPage(demo_db, admin)
    qtbot.addWidget(page)
    assert page.list.select_record(cid)
    assert page.panel.info.id == cid
    assert page.panel.buttons["approve"].isEnabled()
    wait_op(qtbot, page.panel.do_move("approve"))
    assert page.panel.info.status == ContractStatus.APPROVED
    assert not page.panel.buttons["activate"].isHidden() and page.panel.buttons["approve"].isHidden()
    # a refused move shows the service's message in the panel
    wait_op(qtbot, page.panel.do_move("terminate", reason=""))
    assert not page.panel.message.isHidden() and page.panel.message.text()
    assert page.panel.info.status == ContractStatus.APPROVED


# --- billing ------------------------------------------------------------------------------

@pytest.fixture
def billing_page(qtbot, demo_db):
    from ui.pages.billing.page import BillingPage
    page = BillingPage(demo_db, actor(demo_db, "admin"))
    qtbot.addWidget(page)
    page.show()
    page.period.setDate(QDate(2026, 10, 1))
    return page


def statements(db) -> int:
    with db.session() as s:
        return s.execute(select(func.count()).select_from(Statement)).scalar_one()


def test_billing_dry_run_then_run_with_progress(qtbot, demo_db, billing_page):
    page = billing_page
    assert page.period_text() == "2026-10"
    wait_op(qtbot, page.run(dry_run=True))
    assert page.summary.dry_run and page.summary.statements and page.run_table.rowCount() == len(page.summary.statements)
    assert "2026-10" in page.result.text()
    assert statements(demo_db) == 0                                     # a dry run writes nothing
    op = page.run()
    steps = []
    op.signals.progress.connect(lambda done, total: steps.append((done, total)))
    wait_op(qtbot, op)
    assert steps and steps[-1][0] == steps[-1][1]                       # progress reached the end
    assert not page.summary.dry_run and page.summary.lines_created > 0
    assert statements(demo_db) == len(page.summary.statements)
    page.list.refresh()
    assert page.list.model.rowCount() == len(page.summary.statements)
    wait_op(qtbot, page.run())                                          # idempotent: nothing new
    assert page.summary.lines_created == 0


def test_statement_issue_and_preview_opens(qtbot, demo_db, billing_page):
    page = billing_page
    wait_op(qtbot, page.run(issue=True))
    assert page.summary.issued
    page.list.refresh()
    sid = page.list.model.id_at(0)
    assert page.list.select_record(sid)
    panel = page.panel
    assert panel.info.id == sid and panel.info.number
    assert panel.info.total_in_words in panel.totals.text()
    assert panel.buttons["issue"].isHidden() and not panel.buttons["credit"].isHidden()
    wait_op(qtbot, panel.print_pdf(), timeout=60000)
    qtbot.waitUntil(lambda: getattr(panel, "preview", None) is not None, timeout=10000)
    qtbot.addWidget(panel.preview)
    assert panel.preview.path.read_bytes().startswith(b"%PDF")
    assert not panel.record_fapiao("")                                  # refused: the service's message shows
    assert panel.message.text()
    assert panel.record_fapiao("04400123")
    assert panel.info.fapiao_no == "04400123"


# --- audit --------------------------------------------------------------------------------

def test_audit_verify_in_the_view(qtbot, demo_db):
    from ui.pages.audit import AuditPage
    page = AuditPage(demo_db, actor(demo_db, "zhaomin"))                # auditors verify too
    qtbot.addWidget(page)
    wait_op(qtbot, page.verify())
    assert page.head and ":" in page.head
    assert page.head in page.result.text()
    assert page.copy_button.isEnabled()
    page.copy_head()
    assert QApplication.clipboard().text() == page.head


# --- the elevation's place form -----------------------------------------------------------

def test_place_device_from_the_elevation_refused_then_accepted(qtbot, demo_db):
    from ui.shell.mainwindow import MainWindow
    wanglei = actor(demo_db, "wanglei")
    window = MainWindow(demo_db, wanglei)
    qtbot.addWidget(window)
    window.show_page("racks")
    model = window.lists["racks"].model
    with demo_db.session() as s:   # a listed rack with nothing in it yet (the first ones hold GPU servers near their kW)
        empty = set(s.execute(select(Rack.id).where(~select(Device.id).where(Device.rack_id == Rack.id).exists()))
                    .scalars())
    rid = next(model.id_at(i) for i in range(model.rowCount()) if model.id_at(i) in empty)
    window.lists["racks"].select_record(rid)
    panel = window.rack_panel
    panel.load_rack(rid)
    assert panel.rack_id == rid
    free = panel.data().free_units("front")
    unit = max(u for u in free if u + 1 in free)
    menu = panel.menu_for(panel.scene_point("front", unit + 0.5))
    act = next(a for a in menu.actions() if a.objectName() == "placeDevice")
    assert act.isEnabled()
    act.trigger()
    dlg = window.rack_form
    assert dlg.editors["position"].text() == str(unit)
    assert dlg.editors["face"].currentData() == "front"
    dlg.editors["name"].setText("")
    dlg.save()                                                          # refused: no name
    assert dlg.isVisible() and not dlg.errors["name"].isHidden()
    dlg.editors["name"].setText("UI-TEST-01")
    dlg.editors["serial"].setText("SN-UI-TEST-01")
    with demo_db.session() as s:
        one_u = s.execute(select(DeviceType.id).where(DeviceType.u_height == 1, DeviceType.gpu_slots == 0)
                          .order_by(DeviceType.id)).scalars().first()
    types = dlg.editors["device_type_id"]
    types.setCurrentIndex(types.findData(one_u))
    dlg.save()
    assert dlg.result() == 1, dlg.message.text()
    with demo_db.session() as s:
        dev = s.execute(select(Device).where(Device.name == "UI-TEST-01")).scalar_one()
        assert (dev.rack_id, dev.face) == (rid, "front") and dev.position == unit


def test_account_manager_reserves_but_cannot_place(qtbot, demo_db):
    from models import RackReservation
    from ui.shell.mainwindow import MainWindow
    lina = actor(demo_db, "lina")
    window = MainWindow(demo_db, lina)
    qtbot.addWidget(window)
    window.show_page("racks")
    rid = window.lists["racks"].model.id_at(0)
    window.lists["racks"].select_record(rid)
    panel = window.rack_panel
    panel.load_rack(rid)
    unit = max(panel.data().free_units("rear"))
    menu = panel.menu_for(panel.scene_point("rear", unit + 0.5))
    acts = {a.objectName(): a for a in menu.actions()}
    assert not acts["placeDevice"].isEnabled() and "李娜" in acts["placeDevice"].toolTip()
    assert acts["reserveUnit"].isEnabled()
    acts["reserveUnit"].trigger()
    dlg = window.rack_form
    end = dlg.editors["end_date"]
    end.set_date(dt.date(2020, 1, 1))                       # ends before it starts: refused by the service
    dlg.save()
    assert dlg.result() == 0 and not dlg.errors["end_date"].isHidden()
    end.set_date(None)                                       # open-ended
    dlg.editors["note"].setText("意向客户")
    dlg.save()
    assert dlg.result() == 1, dlg.message.text()
    with demo_db.session() as s:
        res = s.execute(select(RackReservation).where(RackReservation.note == "意向客户")).scalar_one()
        assert (res.rack_id, res.face, res.u_from, res.u_to) == (rid, "rear", unit, unit)
