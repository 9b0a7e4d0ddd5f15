"""The receivables tabs of the billing page, the overdue card and the invoicing-profile tab, offscreen,
on a real database (both backends): forms call the services, refusals show in red, figures show."""
from __future__ import annotations

import datetime as dt
import os
from decimal import Decimal as D

from sqlalchemy import select

from app.domain.clock import local_today
from app.services import billing as BS
from app.services import receivables as R
from models import Customer, OverdueDecision
from tests.billing.test_billing_world import make_world, rack_item, signed


def _world(db, admin, manager):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    for period in ("2026-09", "2026-10"):
        BS.run_billing(db, admin, period, issue=True)
    sep, oct_ = sorted((s for s in BS.list_statements(db) if s.kind == "statement"), key=lambda s: s.period)
    with db.session() as s:
        cust = s.get(Customer, w.customer_id)
        return w, c, sep, oct_, cust.credit_code, cust.name


def _grab(widget, name):
    folder = os.environ.get("IDC_KEEP_PNG")
    if folder:
        widget.grab().save(os.path.join(folder, name))


def test_receivables_tabs(qtbot, db, admin, manager, tmp_path):
    from ui.pages.receivables.tabs import ReceivablesTabs
    w, c, sep, oct_, code, name = _world(db, admin, manager)
    tabs = ReceivablesTabs(db, admin)
    qtbot.addWidget(tabs)
    tabs.resize(1280, 700)
    tabs.show()
    pay = tabs.sections["payments"]
    pay.customer.setText(code)
    pay.amount.setText("-5")
    pay.ref.setText("UI-1")
    pay.buttons["record"].click()
    assert not pay.errors["record"].isHidden() and "positive" in pay.errors["record"].text()
    pay.amount.setText("7000")
    pay.buttons["record"].click()
    assert f"allocated ¥6,360.00 to {sep.number}" in pay.errors["record"].text()
    assert pay.table.rowCount() == 1 and pay.table.item(0, 5).text() == "7,000.00"
    pay.table.selectRow(0)
    pay.reason.setText("")
    pay.buttons["reverse"].click()   # no reason: refused before any question
    assert not pay.errors["reverse"].isHidden()

    dep = tabs.sections["deposits"]
    tabs.setCurrentWidget(dep)
    dep.customer.setText(code)
    dep.amount.setText("500")
    dep.buttons["receive"].click()
    dep.statement.setText(oct_.number)
    dep.buttons["apply"].click()
    assert "applied ¥500.00" in dep.errors["apply"].text(), dep.errors["apply"].text()
    assert dep.table.item(0, 6).text() == "0.00"

    fp = tabs.sections["fapiao"]
    tabs.setCurrentWidget(fp)
    fp.statement.setText(sep.number)
    fp.number.setText("26442000000000000901")
    fp.amount.setText("6000")
    fp.tax.setText("361")
    fp.buttons["add"].click()
    assert "left to invoice" in fp.errors["add"].text()
    fp.tax.setText("360")
    fp.buttons["add"].click()
    assert "Invoiced" in fp.errors["add"].text() or "已开票" in fp.errors["add"].text()
    assert fp.table.rowCount() == 1

    bal = tabs.sections["balance"]
    tabs.setCurrentWidget(bal)
    bal.customer.setText(name)
    bal.buttons["balance"].click()
    assert "¥5,220.00" in bal.figures.text()  # 12,720 − 7,000 − 500
    assert R.customer_balance(db, code).balance == D("5220.00")

    ag = tabs.sections["aging"]
    tabs.setCurrentWidget(ag)
    ag.buttons["aging"].click()
    assert ag.table.rowCount() == 1 and ag.table.item(0, 7).text() == "5,220.00"
    ag.period.setText(local_today().strftime("%Y-%m"))
    assert "Wrote" in ag.export_summary(str(tmp_path / "summary.xlsx")) and (tmp_path / "summary.xlsx").is_file()
    assert "Wrote" in ag.export_aging(str(tmp_path / "aging.pdf")) and (tmp_path / "aging.pdf").is_file()
    for key, sec in tabs.sections.items():
        tabs.setCurrentWidget(sec)
        _grab(tabs, f"receivables-{key}-{db.engine.dialect.name}.png")


def test_overdue_card_and_profile_tab(qtbot, db, admin, manager):
    from app.read.settings import OVERDUE_SUSPENSION_DAYS
    from app.services.settings import change_setting
    from ui.pages.receivables.overdue import OverdueCard
    from ui.pages.receivables.profile import InvoicingProfileTab
    w, c, sep, oct_, code, name = _world(db, admin, manager)
    change_setting(db, admin, OVERDUE_SUSPENSION_DAYS, 0)
    with db.engine.begin() as conn:   # make both statements long overdue
        from models import Statement
        conn.execute(Statement.__table__.update().values(due_date=local_today() - dt.timedelta(days=45)))
    card = OverdueCard(db, actor=admin)
    qtbot.addWidget(card)
    card.resize(700, 300)
    card.show()                                 # painted: loads on the thread pool
    qtbot.waitUntil(lambda: card.table.rowCount() == 1, timeout=20000)
    assert "¥12,720.00" in card.summary.text() and "0" in card.title()
    assert not card.decide("keep", "")          # no selection
    card.table.selectRow(0)
    assert not card.decide("keep", "")          # no reason: the service refuses, shown
    assert "why" in card.error.text()
    assert card.decide("keep", "payment promised for the 15th")
    assert "payment promised" in card.table.item(0, 3).text()
    with db.session() as s:
        assert s.execute(select(OverdueDecision.decision)).scalars().all() == ["keep"]
    _grab(card, f"overdue-card-{db.engine.dialect.name}.png")
    qtbot.waitUntil(lambda: not card._loading, timeout=20000)
    card.stale = False
    card.on_changed(frozenset({"rack", "audit"}))   # nothing the proposals depend on: no new read
    assert not card.stale and not card._loading
    card.on_changed(frozenset({"payment", "audit"}))
    assert card.stale and card._loading
    qtbot.waitUntil(lambda: not card._loading, timeout=20000)

    tab = InvoicingProfileTab(db, admin, w.customer_id)
    qtbot.addWidget(tab)
    tab.fields["title"].setText(name)
    tab.fields["tax_id"].setText("bad")
    assert not tab.save() and "纳税人识别号" in tab.error.text()
    tab.fields["tax_id"].setText(code)
    tab.fields["email"].setText("ap@example.com")
    assert tab.save()
    from app.services.receivables.fapiao import get_profile
    assert get_profile(db, code).email == "ap@example.com"
    _grab(tab, f"profile-tab-{db.engine.dialect.name}.png")
