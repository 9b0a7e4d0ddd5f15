"""A record panel's description column keeps a readable width in a narrow panel (1280×800 beside
a list): the table scrolls sideways instead of wrapping the description a word a line."""
from __future__ import annotations


def test_description_keeps_its_floor_when_narrow_and_stretches_when_wide(qtbot, db, admin):
    from PySide6.QtWidgets import QHeaderView, QTableWidgetItem

    from ui.kit.recordpanel import RecordPanel

    headers = ["Contract", "Description", "Quantity", "Unit", "Unit price", "Amount", "Tax rate", "Tax"]
    panel = RecordPanel(db, admin, "statement", "Choose a statement", headers, "statementLines")
    qtbot.addWidget(panel)
    t = panel.table
    t.setRowCount(1)
    row = ["FZ-2026-0011", "B300 288GB GPU rental · 2026-11-01 to 2026-11-30 (26,800.00 × 8 × 30/30)", "8",
           "month", "26,800.00", "¥214,400.00", "13%", "¥27,872.00"]
    for c, text in enumerate(row):
        t.setItem(0, c, QTableWidgetItem(text))
    hh = t.horizontalHeader()
    panel.resize(540, 400)
    panel.show()
    qtbot.waitUntil(lambda: hh.sectionSize(1) >= RecordPanel.STRETCH_FLOOR, timeout=3000)
    assert hh.sectionResizeMode(1) == QHeaderView.Interactive
    panel.resize(1400, 400)
    qtbot.waitUntil(lambda: hh.sectionResizeMode(1) == QHeaderView.Stretch, timeout=3000)
    others = sum(hh.sectionSize(i) for i in range(hh.count()) if i != 1)
    qtbot.waitUntil(lambda: hh.sectionSize(1) >= t.viewport().width() - others - 2, timeout=3000)
