"""A read-only table of rows for short lists beside a page (a billing run's result, the finance tabs)."""
from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTableWidget


# A fitted column (fit_contents) measures this many rows for its width (Qt's default: 1,000, measured
# again on every selection and change): the Clusters page's three tables on the large data spent 150 ms of its 450 in
# it (a 1,000-node list, 500 events, 491 clusters; issue 26). A longer cell further down is elided.
FIT_ROWS = 100


def plain_table(headers: list[str], name: str, *, single: bool = False, fit: bool = False) -> QTableWidget:
    """Rows selected whole, nothing editable; `single`: one row at a time; `fit`: columns fit their
    contents and the last one stretches."""
    t = QTableWidget(0, len(headers))
    t.setObjectName(name)
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QTableWidget.NoEditTriggers)
    t.setSelectionBehavior(QTableWidget.SelectRows)
    if single:
        t.setSelectionMode(QTableWidget.SingleSelection)
    if fit:
        fit_contents(t.horizontalHeader())
        t.horizontalHeader().setStretchLastSection(True)
    return t


def fit_contents(header: QHeaderView, *sections: int) -> None:
    """Sections (every one when none is named) as wide (or high) as their contents, measured on the
    first FIT_ROWS rows (or columns)."""
    if sections:
        for c in sections:
            header.setSectionResizeMode(c, QHeaderView.ResizeToContents)
    else:
        header.setSectionResizeMode(QHeaderView.ResizeToContents)
    header.setResizeContentsPrecision(FIT_ROWS)
