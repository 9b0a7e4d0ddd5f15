"""The account manager's Haikou request under the real main window (issue 25): 64 H100 in one
fabric for three months. From Contracts: search, hold the offer, the quote's PDF preview, the draft
contract; submit it; the administrator's approval finds the capacity still there."""
from __future__ import annotations

import datetime as dt
import os
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from app.services import contracts as C
from app.services.users import login
from models import Contract, Customer, GpuModel, Rack, Room, Site, contract_item_gpu
from models.choices import ContractStatus, RackStatus
from tests.clusters.test_capacity import add_cluster


def _fuzhou_fabric(db) -> None:
    with db.session() as s:
        racks = s.execute(select(Rack.id).join(Room).join(Site).where(Site.code == "FZ-MW1",
                                                                       Rack.status == RackStatus.AVAILABLE)
                          .order_by(Rack.id).limit(2)).scalars().all()
        h100 = s.execute(select(GpuModel).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
        add_cluster(s, "FZ-H100-NDR", "infiniband_ndr", h100, 8, racks, "fzq")
        s.commit()
        return h100.id


@pytest.mark.parametrize("language", ["zh", "en"])
def test_haikou_request_end_to_end(qtbot, demo_db, language):
    from ui.shell.i18n import install_translators
    from ui.shell.mainwindow import MainWindow
    from ui.kit.pdfpreview import PdfPreviewDialog

    install_translators(QApplication.instance(), language)
    admin = login(demo_db, "admin", "demo1234")
    h100 = _fuzhou_fabric(demo_db)
    assert h100  # the demo's price list prices it (app/demo/capacity.py)
    with demo_db.session() as s:
        haikou = s.execute(select(Customer).where(Customer.name == "海口美兰数智科技有限公司")).scalar_one()
        haikou_id, haikou_name = haikou.id, haikou.name
    lina = login(demo_db, "lina", "demo1234")
    window = MainWindow(demo_db, lina)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.show_page("contracts")
    page = window.pages["contracts"]
    dlg = page.capacity_search()
    qtbot.addWidget(dlg)
    dlg.model.setCurrentIndex(dlg.model.findText("H100 SXM 80GB"))
    dlg.count.setValue(64)
    dlg.scope.setCurrentIndex(dlg.scope.findData("fabric"))
    dlg.months.setValue(3)
    start = dt.date.today() + dt.timedelta(days=7)
    from ui.kit.dialogs import set_date
    set_date(dlg.start, start)
    dlg.customer.setCurrentIndex(dlg.customer.findData(haikou_id))
    dlg.search_btn.click()
    row = next(r for r in range(dlg.offers.rowCount()) if dlg.offers.item(r, 1).text() == "FZ-H100-NDR")
    dlg.offers.selectRow(row)
    assert dlg.offers.item(row, 4).text() == "64"
    terms = [dlg.terms.item(r, 0).text() for r in range(dlg.terms.rowCount())]
    assert terms == (["按小时", "包月", "包年", "混合计费"] if language == "zh" else ["Hourly", "Monthly", "Yearly", "Hybrid"])
    assert "元" in dlg.terms.item(1, 6).text()  # 大写
    if os.environ.get("IDC_SHOTS"):  # screenshots to look at (not committed)
        dlg.grab().save(os.environ["IDC_SHOTS"] + f"-{language}.png")
    assert dlg.hold_btn.isEnabled() and not dlg.quote_btn.isEnabled()
    dlg.hold_btn.click()  # the write runs on the background runner: the buttons wait meanwhile
    assert dlg.busy and not dlg.hold_btn.isEnabled() and not dlg.search_btn.isHidden()
    qtbot.waitUntil(lambda: not dlg.busy, timeout=20000)
    assert dlg.hold is not None and dlg.hold.gpus == 64, dlg.message.text()
    # the held nodes are gone from a second search
    dlg.search_btn.click()
    assert all(dlg.offers.item(r, 1).text() != "FZ-H100-NDR" for r in range(dlg.offers.rowCount()))
    assert dlg.quote_btn.isEnabled() and not dlg.hold_btn.isEnabled()  # the dialog keeps its hold
    dlg.make_quote()
    qtbot.waitUntil(lambda: not dlg.busy, timeout=20000)
    assert dlg.quote is not None, dlg.message.text()
    qtbot.waitUntil(lambda: any(isinstance(w, PdfPreviewDialog) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=20000)
    preview = next(w for w in QApplication.topLevelWidgets() if isinstance(w, PdfPreviewDialog) and w.isVisible())
    assert dlg.quote.number in preview.windowTitle()
    preview.close()
    assert dlg.quote.totals.total > Decimal(0) and dlg.contract_btn.isEnabled()
    dlg.contract_btn.click()
    qtbot.waitUntil(lambda: not dlg.busy, timeout=20000)
    assert dlg.contract is not None, dlg.message.text()
    number = dlg.contract.number
    assert page.panel.info is not None and page.panel.info.number == number
    C.submit_contract(demo_db, lina, number)
    approved = C.approve_contract(demo_db, admin, number)
    assert approved.status == ContractStatus.APPROVED
    with demo_db.session() as s:
        c = s.execute(select(Contract).where(Contract.number == number)).scalar_one()
        assert c.customer_id == haikou_id and c.start_date == start
        named = s.execute(select(contract_item_gpu.c.gpu_id)
                          .where(contract_item_gpu.c.item_id.in_([it.id for it in c.items]))).scalars().all()
        assert len(set(named)) == 64
    assert haikou_name in page.panel.info.customer_name


def test_an_hourly_4090_draft_shows_its_expected_amount_and_the_terms(qtbot, demo_db):
    """8 × RTX 4090 by the hour (the demo's list: ¥2.80 a GPU-hour, ¥1,300 a GPU-month), April 2027
    (30 days): 8 × 720 × 2.80 = 16,128.00 before VAT, 18,224.64 with 13 %; not ¥0.00. Beside it the
    terms: monthly 8 × 1,300 = 10,400.00 + 13 % = 11,752.00."""
    from PySide6.QtCore import QDate, Qt

    from app.domain.money import format_cny
    from ui.pages.contracts.editor import ContractDialog

    dlg = ContractDialog(demo_db, login(demo_db, "lina", "demo1234"))
    qtbot.addWidget(dlg)
    h, it = dlg.header, dlg.item_edit
    h["customer_id"].setCurrentIndex(1)
    h["start_date"].setDate(QDate(2027, 4, 1))
    h["end_date"].setDate(QDate(2027, 4, 30))
    it["kind"].setCurrentIndex(it["kind"].findData("gpu"))
    it["description"].setText("RTX 4090 按小时")
    it["price_unit"].setCurrentIndex(it["price_unit"].findData("gpu_hour"))
    it["unit_price"].setText("2.80")
    it["quantity"].setText("8")
    it["gpu_model_id"].setCurrentIndex(it["gpu_model_id"].findText("4090", flags=Qt.MatchContains))
    text = dlg.totals.text()
    assert format_cny(Decimal("16128")) in text and format_cny(Decimal("18224.64")) in text
    assert "壹万捌仟贰佰贰拾肆元陆角肆分" in text
    assert format_cny(Decimal("11752")) in text and "壹万壹仟柒佰伍拾贰元整" in text


def test_a_refused_hold_is_said_in_the_dialog_and_logged(qtbot, demo_db, caplog):
    """A hold refused on the background runner (a node held by someone else meanwhile) comes back
    to the dialog's message line, logged as a refusal; nothing is held and the button is back."""
    import logging

    from app.services.capacity.holds import hold_capacity
    from ui.pages.capacity import CapacityDialog

    _fuzhou_fabric(demo_db)
    lina = login(demo_db, "lina", "demo1234")
    dlg = CapacityDialog(demo_db, lina)
    qtbot.addWidget(dlg)
    dlg.model.setCurrentIndex(dlg.model.findText("H100 SXM 80GB"))
    dlg.count.setValue(64)
    dlg.scope.setCurrentIndex(dlg.scope.findData("fabric"))
    dlg.search_btn.click()
    row = next(r for r in range(dlg.offers.rowCount()) if dlg.offers.item(r, 1).text() == "FZ-H100-NDR")
    dlg.offers.selectRow(row)
    o = dlg.offer()
    with demo_db.session() as s:
        other = s.execute(select(Customer.id).order_by(Customer.id)).scalars().first()
    hold_capacity(demo_db, lina, customer_id=other, subsidiary_id=o.subsidiary_id, node_ids=list(o.node_ids),
                  start=dlg.result.start, end=dlg.result.end, gpu_model_id=o.model_id)
    with caplog.at_level(logging.INFO):
        dlg.hold_btn.click()
        qtbot.waitUntil(lambda: not dlg.busy, timeout=20000)
    assert dlg.hold is None and dlg.hold_btn.isEnabled()
    assert dlg.message.text() and "color: #c62828" in dlg.message.styleSheet()
    assert any(r.getMessage().startswith("refused: ") for r in caplog.records)
