"""The contract form: no customer chosen at first, racks free for the term, the totals (and 大写) as
the PDF prints them; the detail panel shows the same totals."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from PySide6.QtCore import QDate
from sqlalchemy import select

from app.services.contracts.totals import totals_of_contract
from app.domain.money import format_cny
from app.services.users import login
from models import Contract, ContractItem

DEMO_PASSWORD = "demo1234"


def test_new_contract_picks_free_racks_and_shows_totals(qtbot, demo_db):
    from ui.pages.contracts.editor import ContractDialog
    lina = login(demo_db, "lina", DEMO_PASSWORD)
    with demo_db.session() as s:
        held = s.execute(select(ContractItem.rack_id, Contract.start_date, Contract.end_date)
                         .join(Contract, Contract.id == ContractItem.contract_id)
                         .where(Contract.status == "active", ContractItem.rack_id.is_not(None))
                         .order_by(Contract.end_date)).first()
    rack_id, held_from, held_to = held
    dlg = ContractDialog(demo_db, lina)
    qtbot.addWidget(dlg)
    h, it = dlg.header, dlg.item_edit
    assert h["customer_id"].currentData() is None           # nothing chosen yet
    assert not dlg.save() and not dlg.header_errors["customer_id"].isHidden()
    h["customer_id"].setCurrentIndex(1)
    # a term inside the active lease: its rack is not offered
    h["start_date"].setDate(QDate(held_from.year, held_from.month, held_from.day))
    h["end_date"].setDate(QDate(held_to.year, held_to.month, held_to.day))
    racks = it["rack_id"]
    offered = {racks.itemData(i) for i in range(racks.count())} - {None}
    assert rack_id not in offered and offered
    # after it ends, it is
    after = held_to + dt.timedelta(days=1)
    h["start_date"].setDate(QDate(after.year, after.month, after.day))
    h["end_date"].setDate(QDate(after.year + 1, after.month, 1))
    assert rack_id in {racks.itemData(i) for i in range(racks.count())}
    # a rack at 6,000.00 a month, and 8 H100 at 9,000.00 a month
    start = dt.date(after.year + 1, 1, 1)
    h["start_date"].setDate(QDate(start.year, 1, 1))
    h["end_date"].setDate(QDate(start.year, 12, 31))
    it["kind"].setCurrentIndex(it["kind"].findData("rack"))
    it["description"].setText("机柜租赁 42U")
    it["description_en"].setText("Rack lease 42U")  # what English documents print (issue 9)
    it["unit_price"].setText("6000")
    racks.setCurrentIndex(1)
    dlg.add_item()
    it["kind"].setCurrentIndex(it["kind"].findData("gpu"))
    it["description"].setText("H100 SXM 包月")
    it["unit_price"].setText("9000")
    it["quantity"].setText("8")
    it["gpu_model_id"].setCurrentIndex(it["gpu_model_id"].findText("H100", flags=__import__("PySide6.QtCore").QtCore.Qt.MatchContains))
    text = dlg.totals.text()
    # 6,000 + 72,000 a month; a year: 936,000.00; VAT 6 % of 72,000 + 13 % of 864,000 = 4,320 + 112,320
    assert format_cny(Decimal("78000")) in text and format_cny(Decimal("936000")) in text
    assert format_cny(Decimal("116640")) in text and format_cny(Decimal("1052640")) in text
    assert "壹佰零伍万贰仟陆佰肆拾元整" in text
    # the English description is asked of a Chinese contract only
    english = dlg.item_form.isRowVisible(it["description_en"].parentWidget())
    h["language"].setCurrentIndex(h["language"].findData("en"))
    assert english and not dlg.item_form.isRowVisible(it["description_en"].parentWidget())
    h["language"].setCurrentIndex(h["language"].findData("zh"))
    assert dlg.save(), dlg.message.text()
    assert totals_of_contract(demo_db, dlg.saved.id).total == Decimal("1052640.00")
    with demo_db.session() as s:
        assert s.execute(select(ContractItem.description, ContractItem.description_en)
                         .where(ContractItem.contract_id == dlg.saved.id).order_by(ContractItem.id)).all() == \
            [("机柜租赁 42U", "Rack lease 42U"), ("H100 SXM 包月", None)]
