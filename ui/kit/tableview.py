"""The view over a PagedTableModel (ui/kit/tables.py): header state remembered per list and language,
the column chooser, a column's filter from the header, long identifiers elided in the middle."""
from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QStyledItemDelegate, QTableView

from app.read import queries

from ui.kit.tables import PagedTableModel
from ui.shell.i18n import choice_label, column_label
from ui.shell.settings import settings


# Identifiers told apart by both ends (FZ-202610-000009, NV-H100-000276): cut in the middle.
# Names and titles are cut at the end (their start says what they are).
IDENTIFIER_KEYS = frozenset({"serial", "number", "asset_tag", "credit_code", "code", "fapiao_no", "login", "seq",
                             "action", "object_type"})


def select_only_row(view: QAbstractItemView, row: int) -> None:
    """Make `row` the current row and the only one selected. Unlike `QTableView.selectRow`, which reads
    the keyboard: with Shift or Ctrl held (a shortcut such as Ctrl+Shift+H still down) it extends or
    toggles the selection instead, and a panel that follows the selection shows nothing."""
    index = view.model().index(row, 0)
    if not index.isValid():
        return
    view.selectionModel().setCurrentIndex(
        index, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Current | QItemSelectionModel.Rows)


class _ElideDelegate(QStyledItemDelegate):
    def __init__(self, view: "PagedTableView"):
        super().__init__(view)
        self.view = view

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        cols = self.view.model().columns
        if 0 <= index.column() < len(cols) and cols[index.column()].key in IDENTIFIER_KEYS:
            option.textElideMode = Qt.ElideMiddle
        else:
            option.textElideMode = Qt.ElideRight


def header_key(kind: str) -> str:
    """Column widths and order are kept per list and per language (labels differ in width)."""
    from PySide6.QtCore import QLocale
    return f"{kind}.{'zh' if QLocale().language() == QLocale.Chinese else 'en'}"


class PagedTableView(QTableView):
    """A table over a PagedTableModel: header state remembered (per language), column chooser and a
    column's filter on the header, long identifiers elided in the middle (IDENTIFIER_KEYS)."""

    filterRequested = Signal(int)      # a column's filter asked for from the header's menu
    openRequested = Signal()           # Enter (Return or the keypad's) on the current row

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and not event.modifiers() & ~Qt.KeypadModifier \
                and self.currentIndex().isValid():
            self.openRequested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def __init__(self, model: PagedTableModel, parent=None):
        super().__init__(parent)
        self.setModel(model)
        self.setItemDelegate(_ElideDelegate(self))
        self.setObjectName(f"table_{model.spec.kind}")
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = self.horizontalHeader()
        header.setSectionsMovable(True)
        header.setStretchLastSection(True)
        header.setContextMenuPolicy(Qt.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        for i, col in enumerate(model.columns):
            header.resizeSection(i, max(80, min(220, self.fontMetrics().horizontalAdvance(col.label) * 2 + 40),
                                        self.least_width(col)))
            self.setColumnHidden(i, not col.shown)
        state = settings().header_state(header_key(model.spec.kind))
        self.restored = bool(state and not state.isEmpty())   # the user's own widths: never fitted
        if state and not state.isEmpty():
            header.restoreState(state)
            self.widen_to_least()
        elif model.loaded:   # first time: fit the first window's contents, within reason
            self.fit_to_contents()
        else:                # a lazy model: fit when its first window arrives
            def first_fit():
                model.modelReset.disconnect(first_fit)
                if not self.restored:
                    self.fit_to_contents()
            model.modelReset.connect(first_fit)
        # The saved sort goes to SQL; restoreState only sets the indicator.
        if not (state and not state.isEmpty()):
            header.setSortIndicator(model.sort_column(),
                                    Qt.DescendingOrder if model.sort_desc else Qt.AscendingOrder)
        self.setSortingEnabled(True)   # calls model.sort() with the indicator (a no-op when unchanged)
        header.sectionResized.connect(self.save_header)
        header.sectionMoved.connect(self.save_header)
        header.sortIndicatorChanged.connect(self.save_header)

    def fit_to_contents(self) -> None:
        """Column widths from the loaded rows and the widest choice label, within reason (not saved)."""
        header = self.horizontalHeader()
        self._fitting = True           # a fit is not the user's choice: not saved
        self.resizeColumnsToContents()
        for i, col in enumerate(self.model().columns):
            width = header.sectionSize(i) + 12
            if col.kind == "choice" and col.choices is not None:   # the widest label, not just the visible ones
                width = max(width, 48 + max(self.fontMetrics().horizontalAdvance(choice_label(col.choices, v))
                                            for v in col.choices.values()))
            header.resizeSection(i, max(70, min(width, 320), self.least_width(col)))
        self._fitting = False

    def least_width(self, col: queries.Column) -> int:
        """A time is never cut: a datetime column is as wide as a whole timestamp; nor a code with a
        known longest shape (a statement number), whatever rows the first window happened to hold."""
        if col.kind == "datetime":
            return self.fontMetrics().horizontalAdvance("2026-12-31 23:59:59") + 24
        if getattr(col, "widest", ""):
            return self.fontMetrics().horizontalAdvance(col.widest) + 24
        return 0

    def widen_to_least(self) -> None:
        header = self.horizontalHeader()
        for i, col in enumerate(self.model().columns):
            if header.sectionSize(i) < self.least_width(col):
                header.resizeSection(i, self.least_width(col))

    def has_saved_header(self) -> bool:
        """Widths came from the settings when the view was made (not just saved since by the layout)."""
        return self.restored

    def columns_width(self) -> int:
        """Width the visible columns want, with the frame and a vertical scroll bar."""
        header = self.horizontalHeader()
        cols = sum(header.sectionSize(i) for i in range(header.count()) if not header.isSectionHidden(i))
        return cols + 2 * self.frameWidth() + self.verticalScrollBar().sizeHint().width()

    def fit_columns(self, width: int, minimum: int = 90) -> None:
        """Shrink the free-text columns (names, titles) so every visible column fits in `width`;
        codes, states, dates and amounts keep their width. Cut text is elided and has a tooltip."""
        header = self.horizontalHeader()
        excess = self.columns_width() - width
        if excess <= 0:
            return
        model = self.model()
        text_cols = [i for i, c in enumerate(model.columns) if not header.isSectionHidden(i)
                     and c.kind not in ("choice", "date", "datetime", "money", "decimal", "int", "bool")
                     and i != header.logicalIndex(0) and header.sectionSize(i) > minimum]
        spare = sum(header.sectionSize(i) - minimum for i in text_cols)
        if spare <= 0:
            return
        header.blockSignals(True)      # a fit for this window size is not the user's choice: not saved
        for i in text_cols:
            cut = round(excess * (header.sectionSize(i) - minimum) / spare)
            header.resizeSection(i, max(minimum, self.least_width(model.columns[i]), header.sectionSize(i) - cut))
        header.blockSignals(False)

    def save_header(self, *_):
        if getattr(self, "_fitting", False):
            return
        settings().set_header_state(header_key(self.model().spec.kind), self.horizontalHeader().saveState())

    def _header_menu(self, pos: QPoint) -> None:
        menu = self.column_menu(self.horizontalHeader().logicalIndexAt(pos))
        menu.exec(self.horizontalHeader().mapToGlobal(pos))

    def column_menu(self, column: int = -1) -> QMenu:
        menu = QMenu(self)
        menu.setObjectName("columnChooser")
        model = self.model()
        if 0 <= column < len(model.columns):
            act = QAction(self.tr("Filter by “%1”…").replace("%1", column_label(model.columns[column].label)), menu)
            act.setObjectName("filterColumn")
            act.triggered.connect(lambda _=False, c=column: self.filterRequested.emit(c))
            menu.addAction(act)
            menu.addSeparator()
        for i, col in enumerate(model.columns):
            act = QAction(column_label(col.label), menu)
            act.setCheckable(True)
            act.setChecked(not self.isColumnHidden(i))
            act.toggled.connect(lambda on, i=i: self.set_column_shown(i, on))
            menu.addAction(act)
        return menu

    def set_column_shown(self, i: int, shown: bool) -> None:
        visible = sum(not self.isColumnHidden(c) for c in range(self.model().columnCount()))
        if not shown and visible <= 1:
            return
        self.setColumnHidden(i, not shown)
        if shown and self.columnWidth(i) < 30:
            self.setColumnWidth(i, 100)
        self.save_header()

    def selected_ids(self) -> list:
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        return [self.model().id_at(r) for r in rows]

    def current_id(self):
        idx = self.currentIndex()
        if idx.isValid() and self.selectionModel().isRowSelected(idx.row(), QModelIndex()):
            return self.model().id_at(idx.row())
        ids = self.selected_ids()
        return ids[0] if ids else None

    def select_id(self, id_) -> bool:
        """Select the row of `id_`, fetching windows until it is loaded (bounded)."""
        model = self.model()
        for _ in range(50):
            row = model.row_of(id_)
            if row >= 0:
                select_only_row(self, row)
                self.scrollTo(model.index(row, 0))
                return True
            if not model.canFetchMore():
                return False
            model.fetchMore()
        return False
