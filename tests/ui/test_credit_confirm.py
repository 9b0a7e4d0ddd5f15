"""A credit note is confirmed before it is issued, showing what will be credited; part of a line
may be credited by amount with a reason. Demo data, offscreen."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt

from app.billing import tax_for
from app.money import format_cny
from app.services import billing as BS
from app.services.users import login


def test_credit_note_dialog_confirms_what_it_will_credit(qtbot, demo_db, monkeypatch):
    from ui.billing import CreditNoteDialog

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
