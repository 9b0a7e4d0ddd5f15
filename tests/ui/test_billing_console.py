"""The billing page offers a real run only for ended months; credit notes by amount; rebills. Demo data, offscreen."""
from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QDate

from app.domain.rating import Period, local_today
from app.services import billing as BS
from app.services.users import login
from tests.support.statements import statements_sent

DEMO_PASSWORD = "demo1234"


def wait_op(qtbot, op, timeout=30000):
    with qtbot.waitSignal(op.done, timeout=timeout):
        pass


@pytest.fixture
def page_for(qtbot):
    """A billing page on a database; afterwards it stops listening for changes (its database is dropped)."""
    from ui.pages.billing.page import BillingPage
    from ui.shell.operations import forget_window

    pages = []

    def make(db):
        page = BillingPage(db, login(db, "admin", DEMO_PASSWORD))
        qtbot.addWidget(page)
        page.show()
        pages.append(page)
        return page
    yield make
    for page in pages:
        forget_window(page)


def test_the_open_month_is_previewed_provisionally_but_not_billed(qtbot, demo_db, page_for):
    page = page_for(demo_db)
    this = Period.containing(local_today())
    page.period.setDate(QDate(this.year, this.month, 1))
    assert not page.buttons["run"].isEnabled() and not page.buttons["run_issue"].isEnabled()
    assert "has not ended" in page.buttons["run"].toolTip() and this.next_first.isoformat() in page.buttons["run"].toolTip()
    assert page.buttons["dry"].isEnabled()
    wait_op(qtbot, page.run(dry_run=True))
    assert page.summary.provisional_until is not None and "PROVISIONAL" in page.result.text()
    last = Period.containing(this.first - dt.timedelta(days=1))
    page.period.setDate(QDate(last.year, last.month, 1))
    assert page.buttons["run"].isEnabled() and page.buttons["run"].toolTip() == ""


def test_partial_credit_and_rebill_from_the_statement_panel(qtbot, demo_db, monkeypatch, page_for):
    from ui.pages.billing import panel as ui_billing

    monkeypatch.setattr(ui_billing.QMessageBox, "information", staticmethod(lambda *a, **k: None))
    page = page_for(demo_db)
    last = BS.billable_periods(1)[0]
    y, m = (int(x) for x in last.split("-"))
    page.period.setDate(QDate(y, m, 1))
    wait_op(qtbot, page.run(issue=True))
    assert "0 draft statement(s)" in page.result.text()
    number = page.summary.issued[0]
    info = BS.get_statement(demo_db, number)
    panel = page.panel
    panel.show_statement(info.id)
    assert not panel.buttons["rebill"].isVisibleTo(panel)
    first = info.lines[0]
    assert panel.credit("商务补偿", [first.id], "1.00").total < 0
    assert panel.credit("计费有误，重开", [first.id]) is not None
    panel.show_statement(info.id)
    assert panel.buttons["rebill"].isVisibleTo(panel) and panel.buttons["rebill"].isEnabled()
    wait_op(qtbot, panel.rebill())
    assert "Rebilled 1 line(s)" in panel.message.text()
    rebill = [st for st in BS.list_statements(demo_db, period=last) if st.rebills_id == info.id]
    assert len(rebill) == 1 and rebill[0].lines[0].revision == 2


def test_handover_dialog_lists_awaiting_items_and_records_one(qtbot, db, admin, manager):
    from PySide6.QtCore import QDateTime, QTime

    from app.services.contracts import handover as H
    from tests.billing.test_billing_world import cst, make_world, rack_item, signed
    from ui.pages.billing.dialogs import HandoverDialog

    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
               at=cst(2026, 9, 25))
    dlg = HandoverDialog(db, admin)
    qtbot.addWidget(dlg)
    assert dlg.items.count() == 1 and c.number in dlg.items.item(0).text()
    assert dlg.record() is None and "evidence" in dlg.error.text()          # the note is required
    dlg.at.setDateTime(QDateTime(QDate(2026, 10, 3), QTime(1, 0)))
    dlg.note.setText("交接单 JJ-1003")
    info = dlg.record()
    assert info.billed_from == dt.date(2026, 10, 3) and dlg.items.count() == 0
    assert H.awaiting_handover(db) == []
    reader = HandoverDialog(db, manager)                                       # may look, may not record
    qtbot.addWidget(reader)
    from PySide6.QtWidgets import QDialogButtonBox
    assert not reader.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).isEnabled()


def test_a_double_click_on_a_statement_reads_it_once_not_twice(qtbot, demo_db, page_for):
    """The first click of a double-click selects the row and shows it; the open that follows must not
    read the same statement again (it used to: every double-click read the panel twice)."""
    from sqlalchemy import func, select

    from models import Statement
    page = page_for(demo_db)
    last = BS.billable_periods(1)[0]
    y, m = (int(x) for x in last.split("-"))
    page.period.setDate(QDate(y, m, 1))
    wait_op(qtbot, page.run())                 # draft statements of the last ended month
    with demo_db.session() as s:
        some_id = s.execute(select(func.min(Statement.id))).scalar_one()
    page.list.refresh()
    assert page.list.select_record(some_id)
    assert page.panel.info is not None and page.panel.info.id == some_id
    with statements_sent(demo_db) as sent:
        page.list.open_current()               # what a double-click or Enter on the row does
    assert sent == []
    assert page.panel.info.id == some_id
