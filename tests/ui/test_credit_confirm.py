"""A credit note is confirmed before it is issued, showing what will be credited; part of a line
may be credited by amount with a reason. Demo data, offscreen."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt

from app.domain.rating import tax_for
from app.domain.money import format_cny
from app.services import billing as BS
from app.services.users import login


def test_credit_note_dialog_confirms_what_it_will_credit(qtbot, demo_db, monkeypatch):
    from ui.pages.billing.dialogs import CreditNoteDialog

    admin = login(demo_db, "admin", "demo1234")
    period = BS.billable_periods(1)[0]
    run = BS.run_billing(demo_db, admin, period, issue=True)
    info = BS.get_statement(demo_db, run.issued[0])
    line = max(info.lines, key=lambda ln: ln.amount)
    dlg = CreditNoteDialog(info)
    qtbot.addWidget(dlg)
    answers = []
    monkeypatch.setattr(dlg, "confirm", lambda: answers.append(dlg.confirmation_text()) or answers[-1] and False)
    dlg.reason.setText("商务补偿：9 月停电 35 分钟")
    for i in range(dlg.lines.count()):
        item = dlg.lines.item(i)
        item.setCheckState(Qt.Checked if item.data(Qt.UserRole) == line.id else Qt.Unchecked)
    dlg.amount.setText("abc")
    dlg._accept()
    assert not dlg.error.isHidden() and answers == []          # a wrong amount is named, nothing asked
    dlg.amount.setText("1200.00")
    dlg._accept()
    text = answers[-1]
    vat = tax_for(Decimal("-1200.00"), line.tax_rate)
    assert format_cny(Decimal("-1200.00")) in text and format_cny(vat) in text and line.description in text
    assert format_cny(Decimal("-1200.00") + vat) in text and "商务补偿" in text and info.number in text
    assert dlg.result() == 0                                   # "Back": not issued
    # confirmed: the dialog is accepted and the panel's credit issues exactly that
    monkeypatch.setattr(dlg, "confirm", lambda: True)
    dlg._accept()
    assert dlg.result() == 1
    cn = BS.credit_statement(demo_db, admin, info.id, dlg.reason.text(), line_ids=dlg.line_ids(),
                             amount=dlg.amount.text())
    assert cn.total == Decimal("-1200.00") + vat
    # in full: every ticked line reversed with its VAT
    again = CreditNoteDialog(BS.get_statement(demo_db, info.id))
    qtbot.addWidget(again)
    again.reason.setText("计费有误")
    text = again.confirmation_text()
    total = -sum((ln.amount + ln.tax for ln in info.lines), Decimal(0))
    assert format_cny(total) in text


def test_a_waiver_from_the_console_is_never_billed_again(qtbot, demo_db, monkeypatch):
    """The credit dialog offers both: 'wrong, bill again' (the default) and 'waived, do not bill again'."""
    from ui.pages.billing.dialogs import CreditNoteDialog
    from ui.pages.billing.panel import StatementPanel

    admin = login(demo_db, "admin", "demo1234")
    period = BS.billable_periods(1)[0]
    run = BS.run_billing(demo_db, admin, period, issue=True)
    info = BS.get_statement(demo_db, run.issued[0])
    line = max(info.lines, key=lambda ln: ln.amount)
    dlg = CreditNoteDialog(info)
    qtbot.addWidget(dlg)
    monkeypatch.setattr(dlg, "confirm", lambda: True)
    dlg.reason.setText("SLA 豁免")
    for i in range(dlg.lines.count()):
        item = dlg.lines.item(i)
        item.setCheckState(Qt.Checked if item.data(Qt.UserRole) == line.id else Qt.Unchecked)
    dlg.waive.setChecked(True)
    dlg.amount.setText("100.00")
    dlg._accept()
    assert dlg.result() == 0 and "in full" in dlg.error.text()      # a waiver is of whole lines
    dlg.amount.clear()
    assert "never billed again" in dlg.confirmation_text()
    dlg._accept()
    assert dlg.result() == 1
    page = StatementPanel(demo_db, admin)
    qtbot.addWidget(page)
    page.show_statement(info.id)
    monkeypatch.setattr("ui.pages.billing.panel.QMessageBox.information", lambda *a, **k: None)
    cn = page.credit(dlg.reason.text(), dlg.line_ids(), None, waive=dlg.waive.isChecked())
    assert cn.total == -(line.amount + line.tax)
    again = BS.run_billing(demo_db, admin, period, issue=True)    # the month run again bills nothing of it
    billed = [ln for sid in again.issued for ln in BS.get_statement(demo_db, sid).lines]
    assert all(ln.description != line.description or ln.amount < 0 for ln in billed)
