"""A refusal raised by a service reads in Chinese in the Chinese console: the console translates the
catalogue message by its id (app/domain/messages.py), not by matching a copy of its English; and the
credit dialog reads its partial amount by the one grammar of money."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from PySide6.QtWidgets import QApplication


@pytest.fixture
def chinese(qtbot):
    from ui.shell.i18n import install_translators
    app = QApplication.instance()
    install_translators(app, "zh")
    yield
    install_translators(app, "en")


def test_a_services_refusals_show_in_chinese_in_the_chinese_console(chinese, qtbot, db, admin, manager):
    from app.domain.errors import RuleViolation, ValidationError
    from app.services import contracts as C
    from app.services.contracts.totals import TotalsLine, contract_totals
    from models.choices import ItemKind, PriceUnit
    from tests.billing.test_billing_world import make_world
    from ui.kit.dialogs import refused_text
    from ui.shell.account import ChangePasswordDialog

    dlg = ChangePasswordDialog(db, admin)
    qtbot.addWidget(dlg)
    dlg.edits["current"].setText("wrong")
    dlg.edits["new"].setText("short")
    dlg.edits["again"].setText("short")
    dlg.save()                      # change_own_password refuses both fields
    assert dlg.result() == 0
    assert dlg.errors["current"].text() == "当前密码不正确"
    assert dlg.errors["new"].text() == "密码至少 8 个字符"
    # the sentence the regex table had gone stale on (a rack lease names a rack or a cage)
    w = make_world(db)
    with pytest.raises(ValidationError) as info:
        C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2026, 10, 1), end_date=dt.date(2027, 9, 30),
                          items=[C.ItemSpec(kind=ItemKind.RACK, description="机柜", unit_price=D("5000"),
                                            price_unit=PriceUnit.MONTH, rack_id=None)])
    assert info.value.errors["items[1].rack_id"] == "a rack lease names an existing rack or a cage"
    assert "机柜租赁须指定已有的机柜或笼位" in refused_text(info.value)
    # the missing VAT rate, in Chinese, with its arguments in place
    with pytest.raises(RuleViolation) as info:
        contract_totals([TotalsLine("rack", "month", D("5000"), D(1), "idc")],
                        dt.date(2026, 1, 1), dt.date(2026, 12, 31), {})
    text = refused_text(info.value)
    assert text.startswith("2026-01 没有适用于 idc 的税率") and "tax_rate" in text


def test_the_credit_dialogs_partial_amount_is_read_as_money_is_everywhere(qtbot, demo_db):
    """The dialog parsed the amount itself: "¥1,200.50" (a valid payment) was refused there."""
    from app.services import billing as BS
    from app.services.users import login
    from ui.pages.billing.dialogs import CreditNoteDialog

    admin = login(demo_db, "admin", "demo1234")
    info = next(BS.get_statement(demo_db, sid) for sid in
                BS.run_billing(demo_db, admin, BS.billable_periods(1)[0], issue=True).issued)
    dlg = CreditNoteDialog(info)
    qtbot.addWidget(dlg)
    for typed, read in (("¥1,200.50", D("1200.50")), ("￥100", D("100.00")), (" 1200 ", D("1200.00")),
                        ("1e3", None), ("1.234", None), ("0", None), ("-5", None), ("abc", None)):
        dlg.amount.setText(typed)
        assert dlg.partial_amount() == read, typed


def test_the_contract_form_refuses_a_missing_vat_rate_in_the_readers_language(chinese, qtbot, db, admin):
    """The form quoted such a line at 0 %; it says now what billing says, in Chinese."""
    from PySide6.QtCore import QDate
    from sqlalchemy import delete

    from models import TaxRate
    from tests.billing.test_billing_world import make_world
    from ui.pages.contracts.editor import ContractDialog

    make_world(db)
    with db.session() as s:
        s.execute(delete(TaxRate).where(TaxRate.category == "idc"))
        s.commit()
    dlg = ContractDialog(db, admin)
    qtbot.addWidget(dlg)
    h, it = dlg.header, dlg.item_edit
    h["customer_id"].setCurrentIndex(1)
    h["start_date"].setDate(QDate(2026, 10, 1))
    h["end_date"].setDate(QDate(2027, 9, 30))
    it["kind"].setCurrentIndex(it["kind"].findData("rack"))
    it["description"].setText("机柜租赁 42U")
    it["unit_price"].setText("6000")
    it["rack_id"].setCurrentIndex(1)
    dlg.add_item()
    assert "2026-10 没有适用于 idc 的税率" in dlg.totals.text() and "0%" not in dlg.totals.text()
