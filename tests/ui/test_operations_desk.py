"""The operator's 03:00 P1 under the real main window (issue 24): open from the device ("Open a ticket
for this", prefilled), acknowledge, on site, resolve; the sweep records the breach and proposes the
credit; the administrator approves it in the console; the month's statement shows it."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QApplication, QInputDialog
from sqlalchemy import select

from app.domain.clock import TZ, local_text
from app.domain.rating import Period
from app.services import billing as BS
from app.services.operations import credits as CR
from app.services.users import login
from models import Contract, ContractItem, GpuAsset, GpuLease, Ticket
from ui.shell.i18n import install_translators

UTC = dt.timezone.utc


@pytest.fixture
def language(qapp):
    def use(lang):
        install_translators(QApplication.instance(), lang)
    yield use
    install_translators(QApplication.instance(), "en")


def _leased_server(db):
    """A GPU server whose 8 GPUs are leased by the month (demo contract item 8 × 11,800.00)."""
    with db.session() as s:
        return s.execute(select(GpuAsset.device_id, ContractItem.id, Contract.id)
                         .join(GpuLease, GpuLease.gpu_id == GpuAsset.id)
                         .join(ContractItem, ContractItem.id == GpuLease.contract_item_id)
                         .join(Contract, Contract.id == ContractItem.contract_id)
                         .where(GpuLease.end.is_(None), ContractItem.price_unit == "month",
                                ContractItem.unit_price == Decimal("11800"))).first()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_operators_3am_p1_end_to_end(qtbot, demo_db, language, lang, monkeypatch):
    from ui.shell.mainwindow import MainWindow
    language(lang)
    db = demo_db
    device_id, item_id, contract_id = _leased_server(db)
    admin = login(db, "admin", "demo1234")
    CR.set_credit_rule(db, admin, contract_id, breach_percent="5", monthly_cap_percent="10")
    op = login(db, "wanglei", "demo1234")
    w = MainWindow(db, op)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    # from the devices list: the row's "Open a ticket for this"
    devices = w.lists["devices"]
    assert "ticket" in devices.actions_
    dlg = w.open_ticket_for("device", device_id)
    assert dlg.prefill.contract_id == contract_id and dlg.customer.currentData() == dlg.prefill.customer_id
    dlg.title.setText("GPU 服务器宕机 / server down")
    dlg.priority.setCurrentIndex(dlg.priority.findData("P1"))
    reported = dt.datetime.now(UTC) - dt.timedelta(minutes=40)   # the call came at "03:00", 40 min ago
    dlg.reported.setText(local_text(reported)[:16])
    dlg.contact.setCurrentIndex(1)                         # who of the customer called
    tid = dlg.save()
    assert tid is not None
    page = w.pages["operations"]
    queue = page.queue
    assert queue.rows and queue.rows[0].id == tid          # the P1 runs out first: on top
    assert queue.table.item(0, 5).text().startswith("−")   # its acknowledge countdown is overdue
    queue.select(tid)
    panel = queue.panel
    assert panel.view.id == tid and panel.buttons["acknowledged"].isEnabled()
    assert panel.move("acknowledged") and panel.view.state == "acknowledged"
    assert panel.move("on_site") and panel.view.state == "on_site"
    monkeypatch.setattr(QInputDialog, "getMultiLineText", staticmethod(lambda *a, **k: ("更换 GPU 5 / swapped GPU 5", True)))
    assert panel.move("resolved") and panel.view.state == "resolved"
    # the console's sweep: the acknowledge target (15 min) was missed: a breach and its credit
    w.desk_watch.run()
    with db.session() as s:
        number = s.get(Ticket, tid).number
    (credit,) = [c for c in CR.list_credits(db) if c.ticket == number]
    fee = Decimal("11800") * 8
    assert credit.state == "proposed" and credit.amount == (fee * Decimal("0.05")).quantize(Decimal("0.01"))
    w.close()
    # the administrator's console: the credit is there to approve (not the proposer)
    aw = MainWindow(db, admin)
    qtbot.addWidget(aw)
    aw.show()
    aw.nav.setCurrentRow(aw.nav.count() - 1)
    apage = aw.pages["operations"]
    apage.setCurrentWidget(apage.credits)
    apage.credits.load()
    row = next(i for i, r in enumerate(apage.credits.rows) if r.ticket == number and r.state == "proposed")
    apage.credits.table.selectRow(row)
    assert apage.credits.approve_btn.isEnabled()
    assert apage.credits.approve()
    assert [c.ticket for c in CR.list_credits(db, state="approved")] == [number]
    # the month's statement carries it with the ticket number
    period = credit.period
    as_of = dt.datetime.combine(Period.parse(period).next_first + dt.timedelta(days=1), dt.time(9), tzinfo=TZ)
    out = BS.run_billing(db, admin, period, as_of=as_of)
    lines = [ln for st in out.statements for ln in st.lines if ln.charge == "sla_credit"]
    assert len(lines) == 1 and lines[0].amount == -credit.amount and number in lines[0].description
    aw.close()
