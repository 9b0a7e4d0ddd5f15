"""The contract form shows a capacity refusal at save as it shows other service errors, naming
what is short (the service's check: app/services/contracts._capacity_problems)."""
from __future__ import annotations

from PySide6.QtCore import QDate

from app.services.users import login

DEMO_PASSWORD = "demo1234"


def test_the_form_names_the_gpus_that_are_short(qtbot, demo_db):
    from ui.pages.contracts.editor import ContractDialog
    lina = login(demo_db, "lina", DEMO_PASSWORD)
    dlg = ContractDialog(demo_db, lina)
    qtbot.addWidget(dlg)
    h, it = dlg.header, dlg.item_edit
    h["customer_id"].setCurrentIndex(1)
    h["start_date"].setDate(QDate(2027, 1, 1))
    h["end_date"].setDate(QDate(2027, 12, 31))
    it["kind"].setCurrentIndex(it["kind"].findData("gpu"))
    it["description"].setText("H100 SXM 包月")
    it["unit_price"].setText("9000")
    it["quantity"].setText("999")
    it["gpu_model_id"].setCurrentIndex(it["gpu_model_id"].findText(
        "H100", flags=__import__("PySide6.QtCore").QtCore.Qt.MatchContains))
    assert not dlg.save()
    text = dlg.message.text()
    assert "the contract cannot be saved" in text and "needs 999 × H100" in text and "are available" in text, text
