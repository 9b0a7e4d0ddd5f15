"""The shape of a record's detail panel beside a list (a statement, a contract): a title, its facts
in rich text, a table of its lines that wraps long descriptions, a message line for refusals, and
action buttons; with nothing chosen, a "Choose a …" title and no buttons."""
from __future__ import annotations

import logging

from typing import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QVBoxLayout, QWidget)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError

from ui.kit.dialogs import error_label
from ui.widgets.plain_table import fit_contents


class RecordPanel(QWidget):
    """`name` prefixes the object names (`{name}Panel`, `{name}Title`, `{name}Facts`,
    `{name}Message`, `{name}_{button}`); `table_name` names the lines table. Subclasses add
    widgets between the table and the message with `self.body.addWidget`, then call
    `add_buttons`."""

    def __init__(self, db: Database, actor: Actor, name: str, empty_title: str, headers: list[str],
                 table_name: str, stretch: int = 1, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.name, self.empty_title = db, actor, name, empty_title
        self.setObjectName(f"{name}Panel")
        self.info = None
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(6, 6, 6, 6)
        self.title = QLabel(empty_title)
        self.title.setObjectName(f"{name}Title")
        self.title.setStyleSheet("font-size: 14pt; font-weight: bold;")
        self.title.setWordWrap(True)
        self.body.addWidget(self.title)
        self.facts = QLabel()
        self.facts.setObjectName(f"{name}Facts")
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.RichText)
        self.body.addWidget(self.facts)
        self.table = QTableWidget(0, len(headers))
        self.table.setObjectName(table_name)
        self.table.setHorizontalHeaderLabels(headers)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        hh = self.table.horizontalHeader()
        fit_contents(hh, *(c for c in range(len(headers)) if c != stretch))
        if stretch is not None and 0 <= stretch < len(headers):
            hh.setSectionResizeMode(stretch, QHeaderView.Stretch)
        hh.setMinimumSectionSize(40)
        # the stretched column keeps a readable floor: narrower, the table scrolls sideways (fit_columns)
        self._stretch, self._fit_pending = stretch, False
        for signal in (self.table.model().dataChanged, self.table.model().rowsInserted,
                       self.table.model().modelReset, hh.sectionResized):
            signal.connect(self._schedule_fit)
        # a narrow panel wraps the description onto more lines instead of clipping it to "…"
        self.table.setWordWrap(True)
        fit_contents(self.table.verticalHeader())
        self.body.addWidget(self.table, 1)
        self.message = error_label(f"{name}Message")
        self.buttons: dict[str, QPushButton] = {}

    STRETCH_FLOOR = 200  # px the stretched column (the description) keeps before the table scrolls

    def fit_columns(self) -> None:
        """The stretched column takes the room the others leave, never less than STRETCH_FLOOR:
        in a narrow panel (1280×800) the table then scrolls sideways rather than wrapping the
        description a word a line."""
        hh, c = self.table.horizontalHeader(), self._stretch
        if c is None or c >= hh.count():
            return
        others = sum(hh.sectionSize(i) for i in range(hh.count()) if i != c and not hh.isSectionHidden(i))
        narrow = self.table.viewport().width() - others < self.STRETCH_FLOOR
        mode = QHeaderView.Interactive if narrow else QHeaderView.Stretch
        if hh.sectionResizeMode(c) != mode:
            hh.setSectionResizeMode(c, mode)
        if narrow and hh.sectionSize(c) != self.STRETCH_FLOOR:
            hh.resizeSection(c, self.STRETCH_FLOOR)

    def _schedule_fit(self, *_) -> None:
        """Once per turn of the event loop, after the table's contents and sizes settled; nothing
        once the panel is being deleted (its table's signals still fire then)."""
        if self._fit_pending:
            return
        self._fit_pending = True
        try:
            QTimer.singleShot(0, self, self._run_fit)    # self as context: dropped with the panel
        except RuntimeError:   # the panel's C++ half is already gone: nothing left to fit
            logging.getLogger(__name__).debug("fit of a deleted panel skipped", exc_info=True)

    def _run_fit(self) -> None:
        self._fit_pending = False
        self.fit_columns()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._schedule_fit()

    def add_buttons(self, buttons: list[tuple[str, str, Callable]], per_row: int = 0) -> None:
        """The message line, then the buttons (key, text, slot): in one row, or a grid of
        `per_row` columns. Then the empty state."""
        self.body.addWidget(self.message)
        layout = QGridLayout() if per_row else QHBoxLayout()
        for n, (key, text, slot) in enumerate(buttons):
            b = QPushButton(text)
            b.setObjectName(f"{self.name}_{key}")
            b.clicked.connect(slot)
            self.buttons[key] = b
            if per_row:
                layout.addWidget(b, n // per_row, n % per_row)
            else:
                layout.addWidget(b)
        if not per_row:
            layout.addStretch(1)
        self.body.addLayout(layout)
        self.read(None, None)

    def read(self, fetch: Callable | None, record_id) -> object | None:
        """`fetch(db, id)` into `self.info`; None (nothing chosen, or gone): the empty state."""
        self.message.hide()
        try:
            self.info = fetch(self.db, record_id) if record_id is not None and fetch else None
        except DomainError as exc:
            logging.getLogger(__name__).info("record %s not shown: %s", record_id, exc.message)
            self.info = None
        if self.info is None:
            self.title.setText(self.empty_title)
            self.facts.setText("")
            self.table.setRowCount(0)
            for b in self.buttons.values():
                b.hide()
            self.cleared()
        return self.info

    def cleared(self) -> None:
        """What else a subclass empties when nothing is shown."""
