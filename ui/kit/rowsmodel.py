"""Read-only rows for a QTableView whose cells are made when the view draws or measures them.

A QTableWidget makes an item per cell up front: the cross-connect list's 2,000 rows were 26,000 items
made before the page could paint (issue 26). Here a row's texts are made the first time a cell of it is
asked for, and kept until the rows change."""
from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ui.kit.roles import BACKGROUND, DISPLAY, FOREGROUND, HORIZONTAL
from ui.widgets.plain_table import FIT_ROWS

_COLOURED = frozenset({BACKGROUND, FOREGROUND})


class RowsModel(QAbstractTableModel):
    """`cells(row)`: a row's texts, one a column; `colours(row, column)`: (background, foreground) of a
    cell as colour names or None for the view's own."""

    def __init__(self, headers: Sequence[str], cells: Callable[[object], list[str]],
                 colours: Callable[[object, int], tuple[str | None, str | None]] | None = None, parent=None):
        super().__init__(parent)
        self.headers, self.cells, self.colours = list(headers), cells, colours
        self.rows: list = []
        self._texts: dict[int, list[str]] = {}
        self._brushes: dict[str, QBrush] = {}

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self.rows, self._texts = list(rows), {}
        self.endResetModel()

    def texts(self, row: int) -> list[str]:
        texts = self._texts.get(row)
        if texts is None:
            texts = self._texts[row] = self.cells(self.rows[row])
        return texts

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=DISPLAY):
        if int(role) == DISPLAY and orientation == HORIZONTAL and 0 <= section < len(self.headers):
            return self.headers[section]
        return None

    def _brush(self, name: str) -> QBrush:
        brush = self._brushes.get(name)
        if brush is None:
            brush = self._brushes[name] = QBrush(QColor(name))
        return brush

    def data(self, index, role=DISPLAY):
        role = int(role)   # compared as plain ints (ui/kit/roles.py)
        if role != DISPLAY and (self.colours is None or role not in _COLOURED):
            return None
        r = index.row()
        if not 0 <= r < len(self.rows):
            return None
        if role == DISPLAY:
            return self.texts(r)[index.column()]
        background, foreground = self.colours(self.rows[r], index.column())
        name = background if role == BACKGROUND else foreground
        return self._brush(name) if name else None


def rows_view(model: RowsModel, name: str) -> QTableView:
    """A table over `model`: whole rows selected, one at a time, nothing editable, each column as wide
    as its header and the texts of its first FIT_ROWS rows when the rows change (fit_to_texts), the
    person free to resize them."""
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.verticalHeader().setVisible(False)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectRows)
    view.setSelectionMode(QAbstractItemView.SingleSelection)
    model.modelReset.connect(lambda: fit_to_texts(view, model))
    fit_to_texts(view, model)
    return view


def fit_to_texts(view: QTableView, model: RowsModel) -> None:
    """Column widths measured from the texts themselves (font metrics of the header and of the first
    FIT_ROWS rows' cells), not by Qt's ResizeToContents, which asks data() for every role of every cell
    it measures through Python (30,000 calls, 0.2 s, for the Clusters page's three tables; issue 26).
    A stretched column keeps its mode."""
    header = view.horizontalHeader()
    cell, head = view.fontMetrics(), header.fontMetrics()
    shown = [model.texts(r) for r in range(min(len(model.rows), FIT_ROWS))]
    for c, label in enumerate(model.headers):
        if header.sectionResizeMode(c) == QHeaderView.Stretch:
            continue
        widest = max((cell.horizontalAdvance(texts[c]) for texts in shown if texts[c]), default=0)
        header.resizeSection(c, max(head.horizontalAdvance(label) + 20, widest + 20))
