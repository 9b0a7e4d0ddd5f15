"""The account manager's day under the real main window, in both languages (issue 9): create a
Haikou customer with two contacts, draft a contract with a rack and 8 H100 monthly, see its
totals and 大写, submit it; then the database says so."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QDate, QTimer
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from app.read import queries
from app.domain.money import format_cny
from app.services.users import login
from app.domain.validators import make_uscc
from models import Contract, Customer, GpuModel
from models.choices import ContractStatus
from tests.conftest import across_backends


@across_backends("demo_db", "language", ["en", "zh"])   # the day in each language; each backend once
def test_account_manager_day(qtbot, demo_db, language):
    from ui.shell.i18n import install_translators
    from ui.shell.mainwindow import MainWindow
    app = QApplication.instance()
    install_translators(app, language)
    try:
        lina = login(demo_db, "lina", "demo1234")
        window = MainWindow(demo_db, lina)
        qtbot.addWidget(window)
        window.resize(1280, 760)
        window.show()
        # 1. a Haikou customer with two contacts, through the customers page's New
        window.show_page("customers")
        page = window.lists["customers"]
        forms = []

        def fill_customer():
            dlg = app.activeModalWidget()
            forms.append(dlg)
            dlg.editors["name"].setText("海口椰风智算科技有限公司")
            dlg.editors["credit_code"].setText(make_uscc("91460100MA5T0D001"))
            region = dlg.editors["region_code"]
            region.setCurrentIndex(region.findData("460108"))
            assert "海南省 / 海口市 / 美兰区" in region.currentText()
            dlg.append_contact({"name": "张伟", "role": "IT 经理", "phone": "13800138000", "email": "zw@yefeng.cn"})
            dlg.append_contact({"name": "王芳", "role": "财务", "phone": "0898-66123456"})
            dlg.save()
        QTimer.singleShot(0, fill_customer)
        page.new_record()
        assert forms and forms[0].result() == 1, forms[0].message.text()
        with demo_db.session() as s:
            customer = s.execute(select(Customer).where(Customer.name == "海口椰风智算科技有限公司")).scalar_one()
            cid = customer.id
            assert customer.region_code == "460108"
        assert [c["name"] for c in queries.customer_contacts(demo_db, cid)] == ["张伟", "王芳"]

        # 2. a draft with a rack and 8 H100 monthly, its totals and 大写, through the contracts page
        window.show_page("contracts")
        contracts = window.pages["contracts"]
        with demo_db.session() as s:
            h100 = s.execute(select(GpuModel.id).where(GpuModel.name.like("H100%"))).scalars().first()
        seen = {}

        def fill_contract():
            dlg = app.activeModalWidget()
            h, it = dlg.header, dlg.item_edit
            assert h["customer_id"].currentData() is None
            h["customer_id"].setCurrentIndex(h["customer_id"].findData(cid))
            h["start_date"].setDate(QDate(2027, 1, 1))
            h["end_date"].setDate(QDate(2027, 12, 31))
            it["kind"].setCurrentIndex(it["kind"].findData("rack"))
            it["description"].setText("机柜租赁 42U")
            it["unit_price"].setText("6800")
            it["rack_id"].setCurrentIndex(1)
            dlg.add_item()
            it["kind"].setCurrentIndex(it["kind"].findData("gpu"))
            it["description"].setText("H100 算力包月")
            it["unit_price"].setText("12800")
            it["quantity"].setText("8")
            it["gpu_model_id"].setCurrentIndex(it["gpu_model_id"].findData(h100))
            seen["totals"] = dlg.totals.text()
            seen["signer"] = dlg.signer_hint.text()
            assert dlg.save(), dlg.message.text()
        QTimer.singleShot(0, fill_contract)
        dlg = contracts.new_contract()
        assert dlg is not None and dlg.saved is not None
        # 6,800 + 8 × 12,800 = 109,200.00 a month; a year 1,310,400.00;
        # VAT 6 % × 81,600 + 13 % × 1,228,800 = 4,896 + 159,744 = 164,640.00; total 1,475,040.00
        totals = seen["totals"]
        for amount in ("109200", "1310400", "164640", "1475040"):
            assert format_cny(Decimal(amount)) in totals, totals
        assert "壹佰肆拾柒万伍仟零肆拾元整" in totals
        assert ("Monthly recurring" if language == "en" else "月度固定费用") in totals
        # the detail panel shows the same totals; submit from it
        panel = contracts.panel
        assert panel.info.id == dlg.saved.id and format_cny(Decimal("1475040")) in panel.totals.text()
        with qtbot.waitSignal(panel.do_move("submit").done, timeout=30000):
            pass
        with demo_db.session() as s:
            c = s.get(Contract, dlg.saved.id)
            assert (c.status, c.customer_id, len(c.items)) == (ContractStatus.PENDING, cid, 2)
        # drop the dialogs (children of the pages) before the window goes
        saved_id = dlg.saved.id
        for d in forms + [dlg]:
            d.setParent(None)
            d.deleteLater()
        forms.clear()
        del dlg
        window.close()
        assert saved_id
    finally:
        install_translators(app, "en")
